package app

import (
	"encoding/json"
	"fmt"
	"os"

	"github.com/jigbench/jigbench/core/bench"
	"github.com/jigbench/jigbench/core/render"
)

func init() {
	register(&command{
		name:    "bench",
		summary: "time generation (and more) beside the floor each cannot beat",
		usage: `usage: jigbench bench [--json] [--runs 7] [--image FILE]
    Each case runs interleaved with its floor (both in this run) and reports
    the medians and their ratio against the target:
      generate N×N (N = 4, 8, 16, 32; size 1024): one instance, all files written,
        vs decoding the source once and encoding its three PNGs at BestSpeed.
      dataset (4 sources × grids 4, 8, 12, 16; size 1024), per instance: with
        1 worker vs decoding + encoding the same instances (target ≤ 1.5), and
        with 2 workers vs 1 worker (target: ≥ 1.7× as fast); (runs+1)/2 runs.
      requests (1,000 16×16 instances cycling through 4 real sheets, shape,
        inline, to a discarding writer) vs reading and base64-encoding the
        sheets (target ≤ 1.5); run (2,000 requests at concurrency 32 to a
        local server) vs bare HTTP posts, as overhead per request (target
        < 1 ms); export hf (200 16×16 × 2 conditions) vs copying the PNG
        bytes into one file (target: ≥ 0.8× as fast).
    --image: the source to generate from (default: a 2560×1600 JPEG of a demo scene).
`,
		run: runBench,
	})
}

func runBench(e *env, args []string) error {
	fs := newFlags("bench")
	asJSON := fs.Bool("json", false, "print results as JSON")
	runs := fs.Int("runs", 7, "timed runs per case")
	image := fs.String("image", "", "source image for generation")
	if err := parseFlags(fs, args, false); err != nil {
		return err
	}
	o := bench.Options{Runs: *runs}
	if *image != "" {
		if _, err := render.LoadSource(*image); err != nil { // refuse bad files with the usual message
			return err
		}
		data, err := os.ReadFile(*image)
		if err != nil {
			return err
		}
		o.Image = data
	}
	results, err := bench.Run(o, func(r bench.Result) {
		if !*asJSON {
			fmt.Fprintln(e.stdout, r)
		}
	})
	if err != nil {
		return err
	}
	if *asJSON {
		b, err := json.MarshalIndent(results, "", "  ")
		if err != nil {
			return err
		}
		fmt.Fprintln(e.stdout, string(b))
	}
	return nil
}
