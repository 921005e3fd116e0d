package solve

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestRefillWindowsRestoresBlock: on a synthetic rect puzzle (each true
// seam costs 1, every other 5–9) a shuffled 4×4 block inside the grid is
// put back by the window around it, and the truth is left alone.
func TestRefillWindowsRestoresBlock(t *testing.T) {
	wantWindowsRestore(t, 12, 21, cellsIn(12, 3, 6, 5, 8))
}

// TestRefillWindowsRestoresLargeBlock: a shuffled 12×12 block, whose
// pieces lie up to 12 cells from their own — further than a 6-cell window
// reaches — is put back by a 16-cell window (windowSides).
func TestRefillWindowsRestoresLargeBlock(t *testing.T) {
	wantWindowsRestore(t, 24, 24, cellsIn(24, 2, 13, 2, 13))
}

// TestRefillBandsRestoresRows: pieces shuffled along two whole rows — further
// than a window reaches — are put back by the band of two rows, and the
// truth is left alone.
func TestRefillBandsRestoresRows(t *testing.T) {
	const n, seed = 16, 5
	a, truth, cells := shuffledSynthetic(n, seed, cellsIn(n, 6, 7, 0, n-1))
	wantRestored(t, truth, cells, func(x []int) bool { return a.refillBands(x, 2) })
}

// TestRefillHalvesRestoresBlock: pieces shuffled across most of the upper
// half's rows and columns — far more than a window holds — are put back by
// the beam over that half, and the truth is left alone.
func TestRefillHalvesRestoresBlock(t *testing.T) {
	const n, seed = 16, 7
	a, truth, cells := shuffledSynthetic(n, seed, cellsIn(n, 1, 7, 1, 14))
	wantRestored(t, truth, cells, a.refillHalves)
}

// TestRefillQuartersRestoresBand: pieces shuffled across four whole rows —
// a quarter of the grid — or four whole columns are put back by the beam
// over the quarter they lie in, and the truth is left alone. (No band of
// rows holds the columns' pieces: without the columns' quarters the second
// fails.)
func TestRefillQuartersRestoresBand(t *testing.T) {
	const n, seed = 16, 9
	for _, band := range [][]int{cellsIn(n, 8, 11, 0, n-1), cellsIn(n, 0, n-1, 8, 11)} {
		a, truth, cells := shuffledSynthetic(n, seed, band)
		wantRestored(t, truth, cells, a.refillQuarters)
	}
}

// TestShapeHalvesRefilled: 32×32 night-city's shape answers (1024 px) under
// seeds 7 and 5 had 221 and 243 pieces out of their cells, in blocks a row
// or columns off across the lower half, and pieces that do not interlock;
// the beams over its halves and quarters of its rows and columns put back
// all of both (without the columns' quarters 41 of the second stayed out).
func TestShapeHalvesRefilled(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("32×32 solves: too slow under the race detector")
	}
	for _, c := range []struct {
		seed uint64
		want int
	}{{7, 1024}, {5, 1024}} {
		if _, correct, _ := solveSheet(t, generateDemo(t, "night-city", 32, c.seed), false); correct < c.want {
			t.Errorf("night-city 32×32 shape, seed %d: %d pieces in their cells, want at least %d", c.seed, correct, c.want)
		}
	}
}

// wantWindowsRestore shuffles the cells of block on the n×n synthetic
// puzzle of seed and wants refillWindows to put them back.
func wantWindowsRestore(t *testing.T, n int, seed uint64, block []int) {
	t.Helper()
	a, truth, cells := shuffledSynthetic(n, seed, block)
	wantRestored(t, truth, cells, func(x []int) bool { return a.refillWindows(x, windowSides) })
}

// shuffledSynthetic returns the n×n synthetic puzzle of seed, its true
// arrangement, and that arrangement with the pieces of block's cells
// shuffled among them.
func shuffledSynthetic(n int, seed uint64, block []int) (a *assembly, truth, cells []int) {
	a = syntheticAssembly(n, seed)
	truth = identity(n * n)
	cells = slices.Clone(truth)
	rng := rand.New(rand.NewPCG(seed+1, seed+2))
	for i, j := range rng.Perm(len(block)) {
		cells[block[i]] = truth[block[j]]
	}
	return a, truth, cells
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
// cells from their own along the gradient and, at its top right, a wedge
// of segments a row or a few columns off; the 6-cell windows place the
// first (0.811), the 16-cell ones, filled from the corner beside fixed
// cells, the wedge (0.980).
func TestRectWindowsRefilled(t *testing.T) { wantRect32(t, "Storm.jpg", "", 0.97) }

// TestWindowOrder: a window fills from the corner beside fixed cells — the
// top left inside the grid, bottom-up on the grid's top edge, right to left
// on its left edge.
func TestWindowOrder(t *testing.T) {
	const n = 4
	for _, tc := range []struct {
		r0, r1, c0, c1 int
		want           []int
	}{
		{1, 3, 1, 3, []int{5, 6, 9, 10}},  // inside
		{0, 2, 2, 4, []int{6, 7, 2, 3}},   // top edge, right edge
		{0, 2, 0, 2, []int{5, 4, 1, 0}},   // top-left corner
		{2, 4, 0, 2, []int{9, 8, 13, 12}}, // left edge, bottom edge
		{0, 4, 0, 4, identity(16)},        // the whole grid: no side fixed
	} {
		if got := windowOrder(n, tc.r0, tc.r1, tc.c0, tc.c1); !slices.Equal(got, tc.want) {
			t.Errorf("rows %d–%d, columns %d–%d: %v, want %v", tc.r0, tc.r1-1, tc.c0, tc.c1-1, got, tc.want)
		}
	}
}

// TestShapeMoonlitBayWindows: moonlit-bay's 32×32 shape answer (1024 px)
// keeps 42 pieces of its calm sea and sky shuffled within their rows (PA
// 0.959), its best-buddy region 0.72 of the grid; refilling its 8- and
// 16-cell windows puts 23 of them back, its bands of two rows 13 more
// (0.994; the 6 left cost what the truth costs).
func TestShapeMoonlitBayWindows(t *testing.T) { wantShape32(t, "moonlit-bay", 1, 0.99) }

// TestRectFragmentsRefilled: under seed 5, 16×16 misty-pines's rect answer
// stays in fragments after the polish (best-buddy seams join 0.33 of it,
// 191 pieces in their cells): its windows and bands of two rows place 244,
// as cheap as the truth by all four measures.
func TestRectFragmentsRefilled(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a full 16×16 solve: slow under the race detector")
	}
	if _, correct, _ := solveSheet(t, generateDemo(t, "misty-pines", 16, 5), true); correct < 240 {
		t.Errorf("misty-pines 16×16 rect, seed 5: %d pieces in their cells, want at least 240", correct)
	}
}

// TestRefillPays: the halves and quarters run on an answer in fragments,
// not on a right one, nor where an eighth of the pieces have a look-alike.
func TestRefillPays(t *testing.T) {
	const n = 16
	a, truth, cells := shuffledSynthetic(n, 3, cellsIn(n, 0, n-1, 0, n-1))
	if a.refillPays(truth) {
		t.Error("refills would run on the true arrangement")
	}
	if !a.refillPays(cells) {
		t.Fatal("refills would not run on a shuffled arrangement")
	}
	for x := range n * n / 8 {
		a.prevTwin[2*x+1] = 2 * x // pieces 1, 3, 5, … look like the one before
	}
	if a.refillPays(cells) {
		t.Errorf("refills would run with %d of %d pieces look-alikes", a.lookalikes(), n*n)
	}
	a.prevTwin[1] = -1
	if !a.refillPays(cells) {
		t.Errorf("refills would not run with %d of %d pieces look-alikes", a.lookalikes(), n*n)
	}
}

// TestRefillEdgeQuartersRestoresEdge: an 8×8 rect answer right but for its
// bottom quarter, whose rows sit three columns over (wrapped), comes back
// whole; the truth is left alone.
func TestRefillEdgeQuartersRestoresEdge(t *testing.T) {
	const n = 8
	cm, ms, truth := rectMeasures(t, "harbor-town", n)
	sides := make([]puzzle.Sides, n*n)
	byMGC, byBlend := newAssembly(n, sides, cm, false), newAssembly(n, sides, ms.blend(blendWeight), false)
	if got := refillEdgeQuarters(byMGC, byBlend, ms, slices.Clone(truth)); !slices.Equal(got, truth) {
		t.Fatalf("the true arrangement changed in %d cells", differ(got, truth))
	}
	cells := slices.Clone(truth)
	for r := n - n/4; r < n; r++ {
		for c := range n {
			cells[r*n+c] = truth[r*n+(c+3)%n]
		}
	}
	if got := refillEdgeQuarters(byMGC, byBlend, ms, cells); !slices.Equal(got, truth) {
		t.Errorf("%d of the %d cells moved are still wrong", countWrong(got, truth), countWrong(cells, truth))
	}
}

// rectMeasures cuts the rect sheet of demo scene name at n×n (seed 1) and
// returns its MGC costs, its other measures and its true arrangement
// (cell → piece).
func rectMeasures(t *testing.T, name string, n int) (*compatMatrix, *measures, []int) {
	t.Helper()
	gen := generateDemo(t, name, n, 1)
	g := newGeometry(gen.Instance.Public())
	pcs, err := cutPieces(&g, gen.Rect)
	if err != nil {
		t.Fatal(err)
	}
	ss := newSeamSet(&g, pcs)
	cm := newCompatMatrix(ss, pcs, false)
	truth := make([]int, n*n)
	for id, c := range gen.Puzzle.CellOf {
		truth[c.Row*n+c.Col] = id
	}
	return cm, newMeasures(cm, ss, pcs), truth
}
