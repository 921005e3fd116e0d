package solve

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"
)

// shapedSyntheticAssembly is a shape sheet of an n×n puzzle whose pieces
// lie in their true cells in cells (cell → piece): true neighbours cost 1,
// any other pair shape allows 5–9, pairs shape forbids +Inf.
func shapedSyntheticAssembly(t *testing.T, n int, seed uint64) (*assembly, []int) {
	t.Helper()
	sides, tr := randomPuzzle(t, n, seed)
	m := n * n
	truth := make([]int, m)
	for id, c := range tr.Cell {
		truth[c] = id
	}
	pcs := make([]*cutPiece, m)
	for id := range pcs {
		pcs[id] = &cutPiece{id: id, sides: sides[id]}
	}
	rng := rand.New(rand.NewPCG(seed, 9))
	cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
	for a := range m {
		for b := range m {
			for dir := range 2 {
				cm.d[dir][a*m+b] = inf
				if canPair(pcs[a], pcs[b], dir, true) {
					cm.d[dir][a*m+b] = float32(5 + rng.IntN(5))
				}
			}
		}
	}
	for c, x := range truth {
		if c%n+1 < n {
			cm.d[dirRight][x*m+truth[c+1]] = 1
		}
		if c+n < m {
			cm.d[dirDown][x*m+truth[c+n]] = 1
		}
	}
	return newAssembly(n, sides, cm, true), truth
}

// TestGrowFramedFindsClearTruth: where every true seam is clearly the
// cheapest, the framed greedy (corners first, then the free canvas) puts
// every piece in its cell, with no misfit.
func TestGrowFramedFindsClearTruth(t *testing.T) {
	for _, n := range []int{3, 6, 12} {
		a, truth := shapedSyntheticAssembly(t, n, uint64(n))
		got := a.growFramed()
		if !slices.Equal(got, truth) {
			t.Errorf("%d×%d: growFramed cost %.0f, truth %.0f", n, n, a.cost(got), a.cost(truth))
		}
		if k := misfits(n, a.right, a.down, got); k != 0 {
			t.Errorf("%d×%d: %d misfits", n, n, k)
		}
	}
}

// TestReassignRestoresClasses: the pieces of every signature scrambled
// among that signature's cells (shape stays consistent) come back by
// exact assignment per class.
func TestReassignRestoresClasses(t *testing.T) {
	const n = 10
	a, truth := shapedSyntheticAssembly(t, n, 4)
	cells := slices.Clone(truth)
	byCode := map[int][]int{}
	for c, x := range cells {
		byCode[sigCode(a.sides[x])] = append(byCode[sigCode(a.sides[x])], c)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for code := range 81 {
		cs := byCode[code]
		perm := rng.Perm(len(cs))
		pieces := make([]int, len(cs))
		for i, c := range cs {
			pieces[i] = truth[c]
		}
		for i, c := range cs {
			cells[c] = pieces[perm[i]]
		}
	}
	if slices.Equal(cells, truth) {
		t.Fatal("the scramble changed nothing")
	}
	a.reassign(cells)
	if !slices.Equal(cells, truth) {
		t.Errorf("reassign left cost %.0f, truth %.0f", a.cost(cells), a.cost(truth))
	}
}

// TestFillGapsAndMisfits: the empty cells take the left-over pieces where
// they fit; a pair shape forbids counts gapPenalty in penalisedCost and one
// in misfits.
func TestFillGapsAndMisfits(t *testing.T) {
	const n = 6
	a, truth := shapedSyntheticAssembly(t, n, 7)
	cells := slices.Clone(truth)
	placed := make([]bool, n*n)
	for i := range placed {
		placed[i] = true
	}
	for _, c := range []int{0, 14, 35} { // a corner, an interior cell, a corner
		placed[cells[c]] = false
		cells[c] = -1
	}
	a.fillGaps(cells, placed)
	if !slices.Equal(cells, truth) {
		t.Fatalf("fillGaps gave %v, want %v", cells, truth)
	}
	if got, want := penalisedCost(n, a.right, a.down, cells), a.cost(truth); got != want {
		t.Errorf("penalisedCost of the truth = %v, want its cost %v", got, want)
	}
	// Exchange two interior pieces of different signatures: some of their
	// eight pairs no longer interlock.
	x, y := 7, 28
	for sigCode(a.sides[cells[x]]) == sigCode(a.sides[cells[y]]) {
		y++
	}
	cells[x], cells[y] = cells[y], cells[x]
	k := misfits(n, a.right, a.down, cells)
	if k == 0 || k > 8 {
		t.Fatalf("misfits = %d after exchanging pieces of different signatures", k)
	}
	var seams float64
	for c, p := range cells {
		if c%n+1 < n && !isInf(a.right[p*a.m+cells[c+1]]) {
			seams += float64(a.right[p*a.m+cells[c+1]])
		}
		if c+n < a.m && !isInf(a.down[p*a.m+cells[c+n]]) {
			seams += float64(a.down[p*a.m+cells[c+n]])
		}
	}
	if got, want := penalisedCost(n, a.right, a.down, cells), seams+float64(k)*gapPenalty; got != want {
		t.Errorf("penalisedCost = %v, want %v", got, want)
	}
	if left := a.repairMisfits(cells); left != 0 || !slices.Equal(cells, truth) {
		t.Errorf("repairMisfits left %d misfits, cells %v", left, cells)
	}
}

func isInf(v float32) bool { return v > 1e30 }

// TestAxisFrame: hand-worked cases of where a piece may go on one axis of
// a free canvas of a 4-line grid.
func TestAxisFrame(t *testing.T) {
	f := newAxisFrame()
	// Nothing placed yet but a piece on lines 5…6 (no flat sides).
	f.add(5, false, false)
	f.add(6, false, false)
	cases := []struct {
		v         int
		low, high bool
		want      bool
	}{
		{4, true, false, true},   // a low border just before the pieces
		{5, true, false, false},  // beside a piece without the flat side
		{3, true, false, true},   // two lines before: the line between is still free
		{3, false, false, false}, // 3…6 spans 4 lines: line 3 must be the low border
		{4, false, false, true},
		{7, false, true, true}, // a high border after the pieces
		{6, false, true, false},
	}
	for _, c := range cases {
		if got := f.fits(4, c.v, 5, 6, c.low, c.high); got != c.want {
			t.Errorf("fits(v=%d, low=%v, high=%v) = %v, want %v", c.v, c.low, c.high, got, c.want)
		}
	}
	f.add(4, true, false) // the low border is line 4 now
	for _, c := range []struct {
		v         int
		low, high bool
		want      bool
	}{
		{3, true, false, false}, // not a second low border line
		{4, true, false, true},
		{4, false, false, false}, // the border line takes only low border pieces
		{7, false, true, true},   // 4…7: the high border exactly n−1 lines on
		{7, false, false, false}, // 4…7 spans 4 lines: line 7 must be the high border
		{8, false, true, false},
	} {
		if got := f.fits(4, c.v, 4, 6, c.low, c.high); got != c.want {
			t.Errorf("with low border 4: fits(v=%d, low=%v, high=%v) = %v, want %v", c.v, c.low, c.high, got, c.want)
		}
	}
}

// TestChooseAnyLikePrice: chooseAny's choice for a cell (piece, cost,
// second, buddy) is the one of offering every unplaced piece at price's
// cost, on random seams with true partners each other's best buddies, for
// cells with one to four placed neighbours as pieces are placed one by one.
func TestChooseAnyLikePrice(t *testing.T) {
	const n, m = 6, 36
	rng := rand.New(rand.NewPCG(9, 10))
	a := randomSeams(n, rng)
	g := a.newGrower()
	order := rng.Perm(m)
	for step, x := range order[:m-2] {
		g.put(n-1+x/n, n-1+x%n, x) // the true layout, in random order
		for i := range g.best {
			r, c := i/g.size, i%g.size
			if g.cell[i] >= 0 {
				continue
			}
			got := slotChoice{valid: true, piece: -1, cost: math.Inf(1), second: math.Inf(1)}
			g.chooseAny(r, c, &got)
			want := slotChoice{valid: true, piece: -1, cost: math.Inf(1), second: math.Inf(1)}
			for y := range m {
				if d, buddy, ok := g.price(r, c, y); ok && !g.placed[y] && !math.IsInf(d, 1) {
					want.offer(y, d, buddy)
				}
			}
			if got != want {
				t.Fatalf("step %d, cell (%d, %d): chooseAny %+v, pricing each piece %+v", step, r, c, got, want)
			}
		}
	}
}
