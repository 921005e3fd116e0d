package solve

import (
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// wrapAssembly is a rect n×n problem whose piece p belongs in cell
// perm[p]: a true seam costs 1, the seam from a row's last piece to the
// next row's first (a wrap) costs wrap, any other seam 10 plus a little
// that depends on the pair.
func wrapAssembly(n int, perm []int, wrap float32) *assembly {
	m := n * n
	cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
	for x := range m {
		for y := range m {
			cx, cy := perm[x], perm[y]
			r := 10 + float32((x*7+y*13)%5)/10
			d := r
			switch {
			case cy == cx+1 && cy%n != 0:
				d = 1
			case cx%n == n-1 && cy == cx-(n-1):
				d = wrap // y is the first piece of x's own row
			}
			cm.d[dirRight][x*m+y] = d
			r = 10 + float32((x*11+y*3)%5)/10
			d = r
			switch {
			case cy == cx+n:
				d = 1
			case cx/n == n-1 && cy == cx%n:
				d = wrap // y tops x's column
			}
			cm.d[dirDown][x*m+y] = d
		}
	}
	return newAssembly(n, make([]puzzle.Sides, m), cm, false)
}

// shuffled is a fixed permutation of 0…m−1 (piece → true cell).
func shuffled(m int) []int {
	perm := make([]int, m)
	for i := range perm {
		perm[i] = (i*7 + 3) % m
	}
	return perm
}

// TestMergeClustersExact: on a problem whose true seams are the cheapest,
// merging clusters gives the true arrangement, also with wrap seams (a
// row's end to its start, a column's bottom to its top) nearly as cheap as
// true ones, which a border piece's side then prefers by far.
func TestMergeClustersExact(t *testing.T) {
	for _, n := range []int{3, 4, 6} {
		for _, wrap := range []float32{10, 1.2} {
			perm := shuffled(n * n)
			a := wrapAssembly(n, perm, wrap)
			cells := a.mergeClusters()
			for c, x := range cells {
				if perm[x] != c {
					t.Fatalf("n=%d wrap=%v: piece %d in cell %d, belongs in %d (cells %v)", n, wrap, x, c, perm[x], cells)
				}
			}
		}
	}
}

// TestCheapest: the k cheapest indices other than self, cheapest first.
func TestCheapest(t *testing.T) {
	v := []float32{5, 1, 4, 1.5, 0.5, 9}
	got := cheapest(nil, v, 3, 4)
	if want := []int{1, 3, 2}; !slices.Equal(got, want) {
		t.Fatalf("cheapest = %v, want %v", got, want)
	}
	if got := cheapest(nil, v[:2], 3, 0); !slices.Equal(got, []int{1}) {
		t.Fatalf("cheapest of two without self = %v, want [1]", got)
	}
}

// TestReassignDoubtful: three neighbouring pieces rotated among their cells
// are put back by the exact assignment of their region (the doubtful cells
// around them), and a right arrangement is left as it is.
func TestReassignDoubtful(t *testing.T) {
	const n = 5
	perm := shuffled(n * n)
	a := wrapAssembly(n, perm, 10)
	truth := make([]int, n*n)
	for x, c := range perm {
		truth[c] = x
	}
	best := a.bestMatches()
	right := slices.Clone(truth)
	if a.reassignDoubtful(right, best) || !slices.Equal(right, truth) {
		t.Fatalf("the true arrangement was changed: %v", right)
	}
	cells := slices.Clone(truth)
	cells[6], cells[7], cells[12] = truth[7], truth[12], truth[6]
	if !a.reassignDoubtful(cells, best) {
		t.Fatal("reassignDoubtful reports no change on three rotated pieces")
	}
	if !slices.Equal(cells, truth) {
		t.Fatalf("after reassignDoubtful cells = %v, want %v", cells, truth)
	}
}

// falseBuddyAssembly is a 3×3 problem (piece p in cell p) whose true seams
// cost 1 but with one false seam cheaper still: the top-right piece 2 and
// the bottom-left piece 6 side by side, each the other's best buddy that
// way, a seam that closes no loop.
func falseBuddyAssembly() *assembly {
	n := 3
	a := wrapAssembly(n, identity(n*n), 10)
	a.right[2*a.m+6] = 0.2
	return a
}

// TestLoopSeams: a true best-buddy seam closes a 2×2 loop of best buddies,
// the false one does not.
func TestLoopSeams(t *testing.T) {
	a := falseBuddyAssembly()
	seams, _ := a.mergeSeams()
	loop := a.loopSeams(seams)
	found := map[[3]int]bool{}
	for i, s := range seams {
		found[[3]int{int(s.a), int(s.b), int(s.dir)}] = loop[i]
		if loop[i] && !s.buddy {
			t.Errorf("seam %v in a loop but no best-buddy seam", s)
		}
	}
	for _, want := range []struct {
		k    [3]int
		loop bool
	}{{[3]int{0, 1, dirRight}, true}, {[3]int{4, 5, dirRight}, true}, {[3]int{1, 4, dirDown}, true}, {[3]int{2, 6, dirRight}, false}} {
		if got, ok := found[want.k]; !ok || got != want.loop {
			t.Errorf("seam %v: in a loop %v (listed %v), want %v", want.k, got, ok, want.loop)
		}
	}
}

// TestMergeLoopsIgnoresFalseBuddy: the loop-checked seams join the true
// arrangement before the false, surest-looking seam is reached; taken by
// sureness alone (mergeClusters) the false seam joins first.
func TestMergeLoopsIgnoresFalseBuddy(t *testing.T) {
	a := falseBuddyAssembly()
	if got, want := a.mergeLoops(), identity(9); !slices.Equal(got, want) {
		t.Fatalf("mergeLoops %v, want %v", got, want)
	}
	if slices.Equal(a.mergeClusters(), identity(9)) {
		t.Fatal("mergeClusters alone solves it too: the case tests nothing")
	}
}
