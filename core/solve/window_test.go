package solve

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRefillWindowsRestoresBlock: on a synthetic rect puzzle (each true
// seam costs 1, every other 5–9) a shuffled 4×4 block inside the grid is
// put back by the window around it, and the truth is left alone.
func TestRefillWindowsRestoresBlock(t *testing.T) {
	const n = 12
	a := syntheticAssembly(n, 21)
	truth := identity(n * n)
	if a.refillWindows(slices.Clone(truth)) {
		t.Fatal("refillWindows changed the true arrangement")
	}
	block := cellsIn(n, 3, 6, 5, 8)
	cells := slices.Clone(truth)
	rng := rand.New(rand.NewPCG(22, 23))
	for i, j := range rng.Perm(len(block)) {
		cells[block[i]] = truth[block[j]]
	}
	if countWrong(cells, truth) == 0 {
		t.Fatal("the shuffle left the block as it was")
	}
	if !a.refillWindows(cells) || !slices.Equal(cells, truth) {
		t.Fatalf("%d of %d pieces out of their cells", countWrong(cells, truth), len(block))
	}
}

// TestRectWindowsRefilled: Storm.jpg's 32×32 rect answer (1024 px, seed
// 2) after the blended search (PA 0.758) is wrong in its sky, pieces a few
// cells from their own along the gradient; refilling windows places them
// (0.811).
func TestRectWindowsRefilled(t *testing.T) { wantRect32(t, "Storm.jpg", "", 0.80) }
