// Package scoredemo builds the Score pane's first view: simulated models
// scored on demo puzzles made in memory. It lives apart from core/score so
// that scoring does not depend on rendering.
package scoredemo

import (
	"context"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/score"
)

// Report generates up to six demo scenes at 4×4 and 8×8 in memory and
// scores core's simulated models on them (score.DemoReport). It returns the
// report and the generated instances by ID, so a viewer can show their
// sheets without a folder on disk.
func Report(ctx context.Context, report progress.Func) (*score.Report, map[string]*render.Generated, error) {
	mem := map[string]*render.Generated{}
	var truths []*score.Truth
	names := demo.Names()[:min(6, len(demo.Names()))]
	for i, name := range names {
		if err := ctx.Err(); err != nil {
			return nil, nil, err
		}
		report.Call(progress.Report{Done: int64(i), Total: int64(len(names) + 1)})
		img, err := demo.Image(name)
		if err != nil {
			return nil, nil, err
		}
		src := render.SourceFromImage(name, img)
		for _, n := range []int{4, 8} {
			opt := puzzle.DefaultOptions()
			opt.Size = 512
			g, err := render.Generate(src, n, uint64(i+1), opt)
			if err != nil {
				return nil, nil, err
			}
			mem[g.Instance.ID] = g
			truths = append(truths, score.TruthOf(g.Instance))
		}
	}
	truth, err := score.NewTruthSet(truths...)
	if err != nil {
		return nil, nil, err
	}
	report.Call(progress.Report{Done: int64(len(names)), Total: int64(len(names) + 1)})
	rep, err := score.DemoReport(ctx, truth)
	return rep, mem, err
}
