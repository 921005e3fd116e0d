package bench

import (
	"fmt"
	"path/filepath"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/solve"
)

// SolveTargets are issue #4's bounds: solving a 16×16 from its sheet costs at
// most 2× generating it, a 32×32 at most 10×.
var SolveTargets = map[int]float64{16: 2, 32: 10}

// solveScene is the demo scene the solve case uses when no image is given:
// one the content solver reassembles exactly.
const solveScene = "harbor-town"

// Solve measures `jigbench solve --mode content` on an N×N instance —
// reading instance.json's public fields, decoding shape.png, cutting,
// scoring every pair of pieces and placing them — against generating the
// same instance from its source (Generation's work: decode, generate, write
// the folder), in the same run.
func Solve(src []byte, n int, dir string) (Case, error) {
	if src == nil {
		var err error
		if src, err = sceneJPEG(solveScene); err != nil {
			return Case{}, err
		}
	}
	gen, err := Generation(src, n, filepath.Join(dir, fmt.Sprintf("solve-%d", n)))
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
	inst, err := g.WriteDir(filepath.Join(dir, fmt.Sprintf("solve-%d-instance", n)))
	if err != nil {
		return Case{}, err
	}
	return Case{
		Name:      fmt.Sprintf("content solve %d×%d", n, n),
		FloorName: fmt.Sprintf("generate the %d×%d", n, n),
		Target:    SolveTargets[n],
		Work: func() error {
			_, _, err := solve.SolveContentDir(inst, render.FileShape)
			return err
		},
		Floor: gen.Work,
	}, nil
}
