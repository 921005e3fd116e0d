package solve

import (
	"math"
	"slices"
	"testing"
)

// TestSpanJoin: hand-worked joins of what two segments say about one axis
// of a 4-line grid.
func TestSpanJoin(t *testing.T) {
	top := pieceSpan(0, true, false)  // a top-border piece on line 0
	mid := pieceSpan(0, false, false) // an interior piece on line 0
	bot := pieceSpan(0, false, true)  // a bottom-border piece on line 0
	both := pieceSpan(0, true, true)  // a piece of a 1-line grid
	cases := []struct {
		name string
		s, o span
		d    int
		want bool
	}{
		{"interior below the top border", top, mid, 1, true},
		{"interior beside the top border", top, mid, 0, false},
		{"interior above the top border", top, mid, -1, false},
		{"bottom border n−1 lines below the top", top, bot, 3, true},
		{"bottom border too near the top", top, bot, 2, false},
		{"interior where the extent makes it the border", bot, mid, -3, false},
		{"interior within the extent", bot, mid, -2, true},
		{"a second top border line", top, top, 1, false},
		{"the same top border line", top, top, 0, true},
		{"both borders on one line of a 4-line grid", mid, both, 1, false},
	}
	for _, c := range cases {
		if _, got := c.s.join(c.o, c.d, 4); got != c.want {
			t.Errorf("%s: join = %v, want %v", c.name, got, c.want)
		}
	}
	j, ok := top.join(mid, 1, 4)
	if !ok || j.min != 0 || j.max != 1 || !j.hasLow || j.low != 0 || j.hasHigh || j.minNotLow != 1 || j.maxNotHigh != 1 {
		t.Errorf("top ⋈ interior below = %+v, %v", j, ok)
	}
	if got, want := j.offsets(4), []int{0}; !slices.Equal(got, want) {
		t.Errorf("offsets of a span on the top border = %v, want %v", got, want)
	}
	if got, want := mid.offsets(4), []int{1, 2}; !slices.Equal(got, want) {
		t.Errorf("offsets of one interior line = %v, want %v", got, want)
	}
}

// TestMergeSegmentsClearTruth: where every true seam is clearly the
// cheapest, merging builds one segment of all the pieces in their true
// relative cells, and it is framed where the truth has it.
func TestMergeSegmentsClearTruth(t *testing.T) {
	for _, n := range []int{3, 8, 12} {
		a, truth := shapedSyntheticAssembly(t, n, uint64(n))
		s := a.mergeSegments()
		k := 0
		for _, sg := range s.segs {
			if sg != nil {
				k++
			}
		}
		if k != 1 {
			t.Errorf("%d×%d: %d segments, want 1", n, n, k)
		}
		if got := s.largestFramed(); !slices.Equal(got, truth) {
			t.Errorf("%d×%d: framed %v, want %v", n, n, got, truth)
		}
	}
}

// TestLargestSegmentFramed: with the true seams across one column line
// no surer than any other pair, merging stops at two segments, the halves
// either side; the larger, which touches the right border, is placed in
// its true cells and nothing else is (the greedy fills the rest).
func TestLargestSegmentFramed(t *testing.T) {
	const n, cut = 12, 5 // the seams between columns 4 and 5
	a, truth := shapedSyntheticAssembly(t, n, 3)
	m := n * n
	for r := range n {
		x, y := truth[r*n+cut-1], truth[r*n+cut]
		a.right[x*m+y] = 7 // as dear as a pair that is not neighbours
	}
	s := a.mergeSegments()
	var sizes []int
	for _, sg := range s.segs {
		if sg != nil {
			sizes = append(sizes, len(sg.pieces))
		}
	}
	slices.Sort(sizes)
	if want := []int{n * cut, n * (n - cut)}; !slices.Equal(sizes, want) {
		t.Fatalf("segment sizes %v, want %v", sizes, want)
	}
	keep := s.largestFramed()
	for c, x := range keep {
		want := -1
		if c%n >= cut {
			want = truth[c]
		}
		if x != want {
			t.Fatalf("cell %d holds %d, want %d", c, x, want)
		}
	}
	if got := a.growFramedFrom(keep); !slices.Equal(got, truth) {
		t.Errorf("grown from the right half: cost %.0f, truth %.0f", a.cost(got), a.cost(truth))
	}
}

// TestRegrowMovesMisplacedBlock: two 3×3 blocks of the interior exchanged
// whole — each right inside, wrong as a block, what the greedy leaves on
// 64×64 photographs — are put back by growing again from the largest
// best-buddy region, as growFramed does, and the cost drops to the truth's.
func TestRegrowMovesMisplacedBlock(t *testing.T) {
	const n = 12
	a, truth := shapedSyntheticAssembly(t, n, 5)
	cells := slices.Clone(truth)
	for dr := range 3 {
		for dc := range 3 {
			p, q := (2+dr)*n+2+dc, (6+dr)*n+7+dc
			cells[p], cells[q] = cells[q], cells[p]
		}
	}
	before := penalisedCost(n, a.right, a.down, cells)
	keep := a.buddyRegion(cells, a.bestMatches())
	if keep == nil {
		t.Fatal("no best-buddy region to keep")
	}
	got := a.growFramedFrom(keep)
	if !slices.Equal(got, truth) {
		t.Errorf("regrown cost %.0f (scrambled %.0f), truth %.0f", penalisedCost(n, a.right, a.down, got), before, a.cost(truth))
	}
	if math.IsInf(a.cost(got), 1) {
		t.Error("the regrown arrangement has misfits")
	}
}
