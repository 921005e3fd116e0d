package app

import (
	"encoding/json"
	"flag"
	"fmt"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/score"
)

// Version is jigbench's version; FyneApp.toml carries the same (a test checks).
const Version = "0.1.0"

func init() {
	register(&command{
		name:    "version",
		summary: "print the version",
		usage:   "usage: jigbench version\n",
		run: func(e *env, args []string) error {
			if len(args) > 0 {
				return usagef("version takes no arguments")
			}
			fmt.Fprintf(e.stdout, "jigbench %s\n", Version)
			return nil
		},
	})
	register(&command{
		name:    "demo",
		summary: "list the built-in demo images",
		usage: `usage: jigbench demo list
    names of the built-in demo images, one a line
`,
		run: func(e *env, args []string) error {
			if len(args) != 1 || args[0] != "list" {
				return usagef("the only demo subcommand is 'list'")
			}
			for _, n := range demo.Names() {
				fmt.Fprintln(e.stdout, n)
			}
			return nil
		},
	})
	register(&command{
		name:    "generate",
		summary: "generate one puzzle instance (shape and rectangular sheets)",
		usage: `usage: jigbench generate (--image FILE | --demo NAME) --grid N --seed S --out DIR
                         [--size 1024] [--tab-style semicircle|classic] [--tab-ratio 0.2]
                         [--reveal K] [--hints similarity [--clusters k]]
    writes DIR/<id>/ (instance.json, shape.png, rect.png, solved.png,
    prompt-shape.txt, prompt-rect.txt) and prints that folder's path;
    <id> is <image name>-g<N>-s<seed>, with -classic appended for classic tabs.
    Hint studies (docs/ambiguity-and-hints.md): --reveal K states the true
    cells of K pieces (drawn from the seed) in the prompts; --hints
    similarity lists groups of pieces alike in colour (k-means of L*a*b*
    histograms, k = --clusters, default ⌈N/2⌉). instance.json records both
    under "hints"; without them every file is as before.
`,
		run: runGenerate,
	})
	register(&command{
		name:    "baseline",
		summary: "exact and simulated random-permutation baselines for a grid",
		usage: `usage: jigbench baseline --grid N [--trials 10000] [--seed 1]
    prints {"grid":N,"pa":…,"em":…,"aa":…,"sc":…,"mc":{"trials":T,"aa":…,"sc":…}}:
    the exact expectations of a uniformly random permutation (closed form),
    and a Monte Carlo estimate from T random puzzles and permutations.
`,
		run: runBaseline,
	})
}

// puzzleFlags are the generator settings shared by generate, the GUI's
// defaults and dataset.
type puzzleFlags struct {
	image, demo string
	grid        int
	seed        uint64
	opt         puzzle.Options
}

func runGenerate(e *env, args []string) error {
	fs := newFlags("generate")
	var f puzzleFlags
	f.opt = puzzle.DefaultOptions()
	var out string
	fs.StringVar(&f.image, "image", "", "source image file")
	fs.StringVar(&f.demo, "demo", "", "built-in demo image name")
	fs.IntVar(&f.grid, "grid", 0, "grid size N")
	fs.Uint64Var(&f.seed, "seed", 0, "seed")
	fs.StringVar(&out, "out", "", "output folder")
	fs.IntVar(&f.opt.Size, "size", f.opt.Size, "longer side of the output image, px")
	fs.StringVar(&f.opt.TabStyle, "tab-style", f.opt.TabStyle, "semicircle or classic")
	fs.Float64Var(&f.opt.TabRatio, "tab-ratio", f.opt.TabRatio, "tab size relative to the shorter piece side")
	hintFlags(fs, &f.opt)
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case (f.image == "") == (f.demo == ""):
		return usagef("give exactly one of --image FILE or --demo NAME")
	case !set["grid"]:
		return usagef("--grid N is required")
	case !set["seed"]:
		return usagef("--seed S is required")
	case out == "":
		return usagef("--out DIR is required")
	}
	if err := puzzle.ValidateGrid(f.grid); err != nil {
		return usagef("%v", err)
	}
	if err := f.opt.Validate(); err != nil {
		return usagef("%v", err)
	}
	if err := f.opt.ValidateFor(f.grid); err != nil {
		return usagef("%v", err)
	}
	src, err := loadSource(f.image, f.demo)
	if err != nil {
		return err
	}
	g, err := render.Generate(src, f.grid, f.seed, f.opt)
	if err != nil {
		return err
	}
	dir, err := g.WriteDir(out)
	if err != nil {
		return err
	}
	if g.Note != "" {
		fmt.Fprintf(e.stderr, "jigbench: note: %s\n", g.Note)
	}
	fmt.Fprintln(e.stdout, dir)
	return nil
}

// loadSource opens an image file or a built-in demo image.
func loadSource(file, demoName string) (*render.Source, error) {
	if demoName != "" {
		img, err := demo.Image(demoName)
		if err != nil {
			return nil, err
		}
		return render.SourceFromImage(demoName, img), nil
	}
	return render.LoadSource(file)
}

func runBaseline(e *env, args []string) error {
	fs := newFlags("baseline")
	grid := fs.Int("grid", 0, "grid size N")
	trials := fs.Int("trials", 10000, "Monte Carlo trials")
	seed := fs.Uint64("seed", 1, "Monte Carlo seed")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	if *grid == 0 {
		return usagef("--grid N is required")
	}
	if err := puzzle.ValidateGrid(*grid); err != nil {
		return usagef("%v", err)
	}
	if *trials < 0 || *trials > 10_000_000 {
		return usagef("--trials %d is outside 0–10000000", *trials)
	}
	exact := score.ExactBaseline(*grid)
	mc := score.SimulateBaseline(*grid, *trials, *seed)
	out := struct {
		score.Baseline
		MC score.MonteCarlo `json:"mc"`
	}{exact, mc}
	b, err := json.Marshal(out)
	if err != nil {
		return err
	}
	fmt.Fprintln(e.stdout, string(b))
	return nil
}
