package solve

import (
	"slices"
	"testing"
)

// identity is 0…m−1: piece p in cell p.
func identity(m int) []int {
	out := make([]int, m)
	for i := range out {
		out[i] = i
	}
	return out
}

// TestMoveSegmentsRecoversBlock: the true top-right 2×2 block of a 4×4
// problem sits in the bottom-right corner and the bottom-right block on top;
// each is whole inside, and its pieces' best buddies on the left point where
// it belongs. One move puts it back and the displaced block refills the
// corner, which is the true arrangement.
func TestMoveSegmentsRecoversBlock(t *testing.T) {
	n := 4
	a := wrapAssembly(n, identity(n*n), 10)
	cells := identity(n * n)
	for _, c := range []int{2, 3, 6, 7} { // rows 0–1, cols 2–3 ↔ rows 2–3
		cells[c], cells[c+2*n] = cells[c+2*n], cells[c]
	}
	before := a.cost(cells)
	if !a.moveSegments(cells, a.bestMatches()) {
		t.Fatal("moveSegments moved nothing")
	}
	if want := identity(n * n); !slices.Equal(cells, want) {
		t.Fatalf("cells %v, want %v", cells, want)
	}
	if after := a.cost(cells); after >= before {
		t.Fatalf("cost %v not below %v", after, before)
	}
}

// TestMoveSegmentsKeepsTruth: on the true arrangement no move is cheaper,
// so nothing moves.
func TestMoveSegmentsKeepsTruth(t *testing.T) {
	n := 5
	a := wrapAssembly(n, shuffled(n*n), 10)
	perm := shuffled(n * n)
	cells := make([]int, n*n)
	for p, c := range perm {
		cells[c] = p
	}
	want := slices.Clone(cells)
	if a.moveSegments(cells, a.bestMatches()) || !slices.Equal(cells, want) {
		t.Fatalf("moved the true arrangement to %v", cells)
	}
}

// TestSegmentMovesVotes: the translations are those at least
// segmentMoveVotes border buddies agree on that keep the block (rows and
// columns 2–3) on the grid.
func TestSegmentMovesVotes(t *testing.T) {
	n := 4
	a := wrapAssembly(n, identity(n*n), 10)
	cells := identity(n * n)
	for _, c := range []int{2, 3, 6, 7} {
		cells[c], cells[c+2*n] = cells[c+2*n], cells[c]
	}
	where := make([]int, n*n)
	for c, x := range cells {
		where[x] = c
	}
	seg := []int{10, 11, 14, 15} // pieces 2, 3, 6, 7
	inSeg := make([]bool, n*n)
	for _, c := range seg {
		inSeg[c] = true
	}
	got := a.segmentMoves(cells, seg, inSeg, where, a.bestMatches())
	if !slices.Contains(got, segmentMove{dr: -2, dc: 0, votes: 2}) {
		t.Fatalf("moves %v, want (−2, 0) with 2 votes among them", got)
	}
	for _, mv := range got {
		if mv.votes < segmentMoveVotes || mv.dr < -2 || mv.dr > 0 || mv.dc < -2 || mv.dc > 0 {
			t.Errorf("move %v: too few votes or off the grid", mv)
		}
	}
}
