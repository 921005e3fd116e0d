package solve

import (
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestShiftPart: a 2×2 block of a 4×4 grid moved one cell down and right
// lands on three cells outside it, whose pieces take the three cells it
// leaves in cell order; a move off the grid changes nothing.
func TestShiftPart(t *testing.T) {
	n := 4
	cells := make([]int, n*n)
	for c := range cells {
		cells[c] = c
	}
	part := []int{5, 6, 9, 10}
	inPart := make([]bool, n*n)
	for _, c := range part {
		inPart[c] = true
	}
	trial := slices.Clone(cells)
	vacated := shiftPart(n, trial, cells, part, inPart, 1, 1)
	if want := []int{5, 6, 9}; !slices.Equal(vacated, want) {
		t.Errorf("vacated %v, want %v", vacated, want)
	}
	want := []int{0, 1, 2, 3, 4, 11, 14, 7, 8, 15, 5, 6, 12, 13, 9, 10}
	if !slices.Equal(trial, want) {
		t.Errorf("moved by (1, 1): %v, want %v", trial, want)
	}
	trial = slices.Clone(cells)
	if v := shiftPart(n, trial, cells, part, inPart, 2, 0); v != nil || !slices.Equal(trial, cells) {
		t.Errorf("moved off the grid: vacated %v, cells %v", v, trial)
	}
}

// TestSplitMovesFindBlock: where every true seam is clearly the cheapest,
// the merged segments are the whole puzzle; a block of it moved three
// rows up splits it, and the first move listed takes the block back. The
// mend then restores the truth.
func TestSplitMovesFindBlock(t *testing.T) {
	n := 16
	a, truth := shapedSyntheticAssembly(t, n, 7)
	var block []int
	inBlock := make([]bool, n*n)
	for r := 5; r < 13; r++ {
		for c := range 7 {
			block = append(block, r*n+c)
			inBlock[r*n+c] = true
		}
	}
	cells := slices.Clone(truth)
	if shiftPart(n, cells, truth, block, inBlock, -3, 0) == nil {
		t.Fatal("the block did not move")
	}
	moves := a.splitMoves(cells, penalisedCost(n, a.right, a.down, cells))
	if len(moves) == 0 {
		t.Fatal("no split segment found")
	}
	if mv := moves[0]; mv.by != [2]int{3, 0} || mv.size != len(block) {
		t.Errorf("first move: %d cells by %v, want %d by [3 0]", mv.size, mv.by, len(block))
	}
	if !a.mendSplitSegments(cells) || !slices.Equal(cells, truth) {
		t.Errorf("mended: cost %.0f, truth %.0f", penalisedCost(n, a.right, a.down, cells), penalisedCost(n, a.right, a.down, truth))
	}
}

// TestShapeLargeGridMended: on the 64×64 shape sheet of Garden's centre
// square at 1024 px the framed greedy grows 532 pieces three rows above
// their cells, inside the region the refill trusts (PA 0.780 without the
// mend); moving the parts of the segments the answer splits places all
// but two pieces, at a cost below the truth's.
func TestShapeLargeGridMended(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a 64×64 solve: too slow under the race detector")
	}
	gen := generate(t, loadPhoto(t, "Garden.jpg#square"), 64, 2, puzzle.DefaultOptions())
	if _, correct, _ := solveSheet(t, gen, false); float64(correct) < 0.99*64*64 {
		t.Fatalf("Garden 64×64 shape: PA %.4f, want ≥ 0.99", float64(correct)/(64*64))
	}
}

// TestShapeMoonlitBayMended: under seed 7 moonlit-bay's 32×32 shape answer
// (1024 px) has a block of the sky three columns off and one of the water
// a row and four columns off, each right inside (PA 0.773); the segments
// merged from the pieces alone hold them with pieces placed right, and
// moving the parts to those pieces' offsets places 98 % of the pieces.
func TestShapeMoonlitBayMended(t *testing.T) { wantShape32(t, "moonlit-bay", 7, 0.98) }
