package app

import (
	"context"
	"flag"
	"fmt"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

func init() {
	register(&command{
		name:    "ambiguity",
		summary: "exchangeable pieces and indistinguishable arrangements per instance",
		usage: `usage: jigbench ambiguity DIR|DATASET [--json FILE]
    For every instance under DIR (an instance folder, a folder of them or a
    dataset with manifest.jsonl): the classes of exchangeable pieces in each
    condition — pieces that trade cells without changing the sheet by a
    byte (rect: identical cell pixels; shape: identical sides and identical
    pixels over the whole piece) — and the number of arrangements
    indistinguishable from the truth (the product of the classes'
    factorials, exact). Prints per grid the instances whose answer is
    unique, then one line per instance.
    --json writes {"format":"jigbench.ambiguity/v1","grids":[…],
      "instances":[{"id":…,"shape":{"classes":[[…]],"pairs":…,
      "arrangements":"…","unique":…},"rect":{…}}],"problems":[…]}.
`,
		run: runAmbiguity,
	})
}

func runAmbiguity(e *env, args []string) error {
	fs := newFlags("ambiguity")
	jsonOut := fs.String("json", "", "write the JSON report here")
	// The folder may come before or after the flags.
	var dir string
	if len(args) > 0 && len(args[0]) > 0 && args[0][0] != '-' {
		dir, args = args[0], args[1:]
	}
	if err := parseFlags(fs, args, true); err != nil {
		return err
	}
	switch {
	case dir == "" && fs.NArg() == 1:
		dir = fs.Arg(0)
	case dir == "" && fs.NArg() == 0:
		return usagef("give the instance, instances or dataset folder")
	case fs.NArg() > 0:
		return usagef("unexpected argument %q", fs.Arg(0))
	}
	ctx := context.Background()
	prog := &statusLine{e: e}
	show := prog.stages("scoring")
	truth, err := score.LoadTruth(ctx, dir, show)
	if err != nil {
		prog.done()
		return err
	}
	rep, err := score.Ambiguity(ctx, truth, render.InstanceExchange, show)
	prog.done()
	if err != nil {
		return err
	}
	for _, p := range rep.Problems {
		fmt.Fprintf(e.stderr, "jigbench: note: %s\n", oneLine(p))
	}
	if *jsonOut != "" {
		if err := fsutil.WriteWith(*jsonOut, rep.WriteJSON); err != nil {
			return err
		}
	}
	return rep.WriteTable(e.stdout)
}

// hintFlags adds the hint-study flags (--reveal, --hints, --clusters) for
// generate and dataset.
func hintFlags(fs *flag.FlagSet, opt *puzzle.Options) {
	fs.IntVar(&opt.Reveal, "reveal", 0, "state the true cells of K pieces in the prompt")
	fs.StringVar(&opt.Hints, "hints", "", "similarity: group pieces by colour in the prompt")
	fs.IntVar(&opt.Clusters, "clusters", 0, "colour groups for --hints similarity (default ⌈N/2⌉)")
}
