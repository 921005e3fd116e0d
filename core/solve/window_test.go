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
	block := cellsIn(n, 3, 6, 5, 8)
	cells := slices.Clone(truth)
	rng := rand.New(rand.NewPCG(22, 23))
	for i, j := range rng.Perm(len(block)) {
		cells[block[i]] = truth[block[j]]
	}
	wantRestored(t, truth, cells, a.refillWindows)
}

// wantRestored checks that repair leaves the true arrangement alone and
// that it reports a change to cells (the truth disturbed) and restores it.
func wantRestored(t *testing.T, truth, cells []int, repair func([]int) bool) {
	t.Helper()
	if repair(slices.Clone(truth)) {
		t.Fatal("the repair changed the true arrangement")
	}
	moved := countWrong(cells, truth)
	if moved == 0 {
		t.Fatal("the disturbance left the arrangement as it was")
	}
	if !repair(cells) || !slices.Equal(cells, truth) {
		t.Fatalf("%d of the %d pieces moved are still out of their cells", countWrong(cells, truth), moved)
	}
}

// TestRectWindowsRefilled: Storm.jpg's 32×32 rect answer (1024 px, seed
// 2) after the blended search (PA 0.758) is wrong in its sky, pieces a few
// cells from their own along the gradient; refilling windows places them
// (0.811).
func TestRectWindowsRefilled(t *testing.T) { wantRect32(t, "Storm.jpg", "", 0.80) }
