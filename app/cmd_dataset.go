package app

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

func init() {
	register(&command{
		name:    "dataset",
		summary: "many instances: images × grids, train/eval split, resumable, shards",
		usage: `usage: jigbench dataset (--images DIR | --demo-count K) --seed S --out DIR
                        [--grids 4,8,12,16] [--eval-fraction 0.1] [--workers W]
                        [--shard I/N] [--size 1024] [--tab-style semicircle|classic]
                        [--tab-ratio 0.2] [--reveal K] [--hints similarity [--clusters k]]
       jigbench dataset merge --out DIR [SHARD_DIR...]

    Generates one instance folder (as 'jigbench generate' writes) for every
    source image × grid into DIR, and DIR/manifest.jsonl: one line per
    instance with its id, grid, split (train or eval), source name, file and
    SHA-256, seed, folder and files, ordered by source name, then grid.
    DIR/dataset.json records the settings.

    --images DIR     every .png .jpg .jpeg .gif .webp file under DIR, searched
                     recursively (hidden files and folders, DIR's own output
                     folder and links to folders are passed over); an image's
                     name is its file name without the extension, and must be
                     unique. Unreadable images are reported and skipped.
    --demo-count K   the first K built-in demo images instead (see 'jigbench
                     demo list'); K cannot exceed their number.
    --seed S         the dataset seed. Each instance's seed is derived from S,
                     the image's SHA-256 and the grid, and its split from S and
                     the SHA-256: adding or removing images changes no other
                     instance.
    --eval-fraction  expected share of images in the eval split (default 0.1);
                     all grids of an image, and identical files, share a split.
    --workers W      instances worked on at once (default: all cores); the
                     output is the same for any W.
    --shard I/N      generate only shard I (0-based) of N: the images whose
                     name hashes to I. Shards may write into one DIR or into
                     folders of their own; each leaves DIR/shards/I-of-N.jsonl.
    --size, --tab-style, --tab-ratio, --reveal, --hints, --clusters
                     as for 'jigbench generate'.

    Resume: run the same command again after an interruption; finished
    instances are kept and the result is the same as an uninterrupted run.
    A progress line with rate and ETA is shown when stderr is a terminal.
    Prints the manifest's path.

  merge: joins the shards of one run into DIR/manifest.jsonl (the bytes an
    unsharded run writes), from DIR/shards and from each SHARD_DIR (whose
    instance folders are copied into DIR). Every shard 0…N-1 must be there,
    finished, exactly once.
`,
		run: runDataset,
	})
}

func runDataset(e *env, args []string) error {
	if len(args) > 0 && args[0] == "merge" {
		return runDatasetMerge(e, args[1:])
	}
	fs := newFlags("dataset")
	c := dataset.DefaultConfig()
	grids := fs.String("grids", "4,8,12,16", "comma-separated grid sizes")
	shard := fs.String("shard", "", "I/N: generate shard I of N")
	fs.StringVar(&c.Images, "images", "", "folder of source images")
	fs.IntVar(&c.DemoCount, "demo-count", 0, "use the first K demo images")
	fs.Uint64Var(&c.Seed, "seed", 0, "dataset seed")
	fs.StringVar(&c.Out, "out", "", "dataset folder")
	fs.Float64Var(&c.EvalFraction, "eval-fraction", c.EvalFraction, "expected share of images in eval")
	fs.IntVar(&c.Workers, "workers", runtime.NumCPU(), "instances at once")
	fs.IntVar(&c.Options.Size, "size", c.Options.Size, "longer side of the output image, px")
	fs.StringVar(&c.Options.TabStyle, "tab-style", c.Options.TabStyle, "semicircle or classic")
	fs.Float64Var(&c.Options.TabRatio, "tab-ratio", c.Options.TabRatio, "tab size relative to the shorter piece side")
	hintFlags(fs, &c.Options)
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	set := map[string]bool{}
	fs.Visit(func(fl *flag.Flag) { set[fl.Name] = true })
	switch {
	case (c.Images == "") == (c.DemoCount == 0):
		return usagef("give exactly one of --images DIR or --demo-count K")
	case !set["seed"]:
		return usagef("--seed S is required")
	case c.Out == "":
		return usagef("--out DIR is required")
	case c.Workers < 1:
		return usagef("--workers must be at least 1")
	}
	var err error
	if c.Grids, err = parseGrids(*grids); err != nil {
		return usagef("%v", err)
	}
	if *shard != "" {
		if c.Shard, err = dataset.ParseShard(*shard); err != nil {
			return usagef("%v", err)
		}
	}
	if err := c.Validate(); err != nil {
		return usagef("%v", err)
	}

	pl := &statusLine{e: e}
	c.Progress = func(r progress.Report) { pl.show(r, "dataset: "+r.Detail) }
	c.OnIssue = func(is dataset.Issue) { pl.above("jigbench: dataset: skipped " + is.Error()) }
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := dataset.Run(ctx, c)
	pl.done()
	if err != nil {
		if errors.Is(err, context.Canceled) {
			return fmt.Errorf("interrupted: %v", strings.TrimSuffix(err.Error(), ": "+context.Canceled.Error()))
		}
		return err
	}
	for _, n := range res.Notes {
		fmt.Fprintf(e.stderr, "jigbench: dataset: note: %s\n", n.Error())
	}
	if res.NoteCount > len(res.Notes) {
		fmt.Fprintf(e.stderr, "jigbench: dataset: note: %d more images were smaller than --size %d and were not enlarged\n",
			res.NoteCount-len(res.Notes), c.Options.Size)
	}
	what := ""
	if c.Shard.Sharded() {
		what = "shard " + c.Shard.String() + ": "
	}
	summary := fmt.Sprintf("jigbench: dataset: %s%s (%d train, %d eval) from %s in %s; %d generated, %d already there",
		what, count(res.Instances, "instance"), res.Train, res.Eval, count(res.Sources, "image"),
		res.Elapsed.Round(time.Second), res.Generated, res.Resumed)
	if len(res.Errors) > 0 {
		summary += fmt.Sprintf("; %d skipped (listed above)", len(res.Errors))
	}
	if c.Shard.Sharded() {
		summary += "; join the shards with 'jigbench dataset merge'"
	}
	fmt.Fprintln(e.stderr, summary)
	fmt.Fprintln(e.stdout, res.Manifest)
	return nil
}

func runDatasetMerge(e *env, args []string) error {
	fs := newFlags("dataset merge")
	out := fs.String("out", "", "dataset folder")
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	if *out == "" {
		return usagef("merge needs --out DIR (before any SHARD_DIR)")
	}
	for _, a := range fs.Args() {
		if strings.HasPrefix(a, "-") {
			return usagef("flags go before the shard folders: unexpected %q", a)
		}
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	res, err := dataset.Merge(ctx, *out, fs.Args())
	if err != nil {
		return fmt.Errorf("merge: %w", err)
	}
	for _, is := range res.Skipped {
		fmt.Fprintf(e.stderr, "jigbench: dataset: skipped %s\n", is.Error())
	}
	fmt.Fprintf(e.stderr, "jigbench: dataset: merged %d shards: %d instances, %d folders copied", res.Shards, res.Instances, res.Copied)
	if len(res.Skipped) > 0 {
		fmt.Fprintf(e.stderr, "; %d skipped by the shards (listed above)", len(res.Skipped))
	}
	fmt.Fprintln(e.stderr)
	fmt.Fprintln(e.stdout, res.Manifest)
	return nil
}

// count is "1 image", "2 images".
func count(n int, noun string) string {
	if n == 1 {
		return "1 " + noun
	}
	return fmt.Sprintf("%d %ss", n, noun)
}

// parseGrids reads "4,8,12,16".
func parseGrids(s string) ([]int, error) {
	var out []int
	for _, f := range strings.Split(s, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(f))
		if err != nil {
			return nil, fmt.Errorf("--grids %q is not a comma-separated list of numbers", s)
		}
		if err := puzzle.ValidateGrid(n); err != nil {
			return nil, err
		}
		out = append(out, n)
	}
	return out, nil
}
