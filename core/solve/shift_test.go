package solve

import (
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestShiftBlocksRestoresDisplacedBlock: Garden's 12×12 shape sheet with a
// block of 5×5 pieces (rows 3–7, columns 0–4, on the left border) one row
// above its cells, the row it covered moved under it — what the framed
// greedy did to night-city at 32×32 — is put right by shiftBlocks.
func TestShiftBlocksRestoresDisplacedBlock(t *testing.T) {
	const n = 12
	gen := surveyInstance(t, "Garden.jpg", "", n)
	g, pcs := cutSheet(t, gen, false)
	sides := make([]puzzle.Sides, len(pcs))
	for i, p := range pcs {
		sides[i] = p.sides
	}
	a := newAssembly(n, sides, newCompatMatrix(newSeamSet(g, pcs), pcs, true), true)
	truth := make([]int, n*n)
	for id, c := range gen.Puzzle.CellOf {
		truth[c.Row*n+c.Col] = id
	}
	cells := slices.Clone(truth)
	const top, bottom, width = 3, 7, 5
	for c := range width {
		above := truth[(top-1)*n+c]
		for r := top - 1; r < bottom; r++ {
			cells[r*n+c] = truth[(r+1)*n+c]
		}
		cells[bottom*n+c] = above
	}
	if !a.shiftBlocks(cells) {
		t.Fatal("shiftBlocks moved nothing")
	}
	wrong := 0
	for c := range cells {
		if cells[c] != truth[c] {
			wrong++
		}
	}
	if wrong > 0 {
		t.Errorf("%d of %d cells wrong after shiftBlocks (cost %.1f, truth %.1f)", wrong, n*n,
			penalisedCost(n, a.right, a.down, cells), penalisedCost(n, a.right, a.down, truth))
	}
}
