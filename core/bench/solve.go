package bench

import (
	"fmt"
	"path/filepath"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/solve"
)

// SolveTargets bound solving an N×N from its sheet against generating it:
// issue #20's for rect.png (16×16 ≤ 2×, 32×32 ≤ 5×), issue #4's for
// shape.png (≤ 2× and ≤ 10×).
var SolveTargets = map[string]map[int]float64{
	render.FileRect:  {16: 2, 32: 5},
	render.FileShape: {16: 2, 32: 10},
}

// solveScene is the demo scene the solve case uses when no image is given:
// sky, water and tied pieces, so that every stage of the solver runs (at
// 2560×1600 its rect sheets are not solved exactly: PA 0.95 at 16×16, 0.58
// at 32×32, shape 1 and 0.97; docs/solver.md, "Large grids and speed").
const solveScene = "harbor-town"

// Solve measures `jigbench solve --mode content` on an N×N instance —
// reading instance.json's public fields, decoding the sheet, cutting,
// scoring every pair of pieces and placing them — against generating the
// same instance from its source (Generation's work: decode, generate, write
// the folder), in the same run.
func Solve(src []byte, n int, sheet, dir string) (Case, error) {
	if src == nil {
		var err error
		if src, err = sceneJPEG(solveScene); err != nil {
			return Case{}, err
		}
	}
	gen, err := Generation(src, n, filepath.Join(dir, fmt.Sprintf("solve-%d-%s", n, sheet)))
	if err != nil {
		return Case{}, err
	}
	// Generation writes its instance folder on every run; write it once now.
	s, err := render.DecodeSource("bench.jpg", "bench", src)
	if err != nil {
		return Case{}, err
	}
	g, err := render.Generate(s, n, 1, puzzle.DefaultOptions())
	if err != nil {
		return Case{}, err
	}
	inst, err := g.WriteDir(filepath.Join(dir, fmt.Sprintf("solve-%d-%s-instance", n, sheet)))
	if err != nil {
		return Case{}, err
	}
	return Case{
		Name:      fmt.Sprintf("content solve %d×%d %s", n, n, sheet),
		FloorName: fmt.Sprintf("generate the %d×%d", n, n),
		Target:    SolveTargets[sheet][n],
		Work: func() error {
			_, _, err := solve.SolveContentDir(inst, sheet)
			return err
		},
		Floor: gen.Work,
	}, nil
}
