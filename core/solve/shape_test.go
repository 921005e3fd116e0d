package solve

import (
	"errors"
	"math/big"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/score"
)

// randomPuzzle is the geometry of an n×n puzzle (no pixels): its sides by
// piece ID and its truth for scoring.
func randomPuzzle(t testing.TB, n int, seed uint64) ([]puzzle.Sides, *score.Truth) {
	t.Helper()
	p, err := puzzle.New(n, seed, [32]byte{7, byte(n)}, n*16, n*16, puzzle.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	sides := make([]puzzle.Sides, n*n)
	tr := &score.Truth{ID: "t", Grid: n, Cell: make([]int, n*n), Sides: sides}
	for id := range sides {
		sides[id] = p.PieceSides(id)
		c := p.CellOf[id]
		tr.Cell[id] = c.Row*n + c.Col
	}
	return sides, tr
}

// consistent is the independent check of an arrangement: the one
// definition of Shape Compatibility (core/score) gives SC = 1 exactly when
// every neighbouring pair interlocks, and a flat side can face no
// neighbour, so SC = 1 for a full arrangement means shape-consistent.
func consistent(tr *score.Truth, pred []int) bool {
	return score.Score(tr, pred).SC == 1
}

func factorial(k int) *big.Int {
	f := big.NewInt(1)
	for i := 2; i <= k; i++ {
		f.Mul(f, big.NewInt(int64(i)))
	}
	return f
}

// permutations calls f with every permutation of a (in place), Heap's
// algorithm.
func permutations(a []int, f func()) {
	var gen func(k int)
	gen = func(k int) {
		if k <= 1 {
			f()
			return
		}
		for i := 0; i < k; i++ {
			gen(k - 1)
			if k%2 == 0 {
				a[i], a[k-1] = a[k-1], a[i]
			} else {
				a[0], a[k-1] = a[k-1], a[0]
			}
		}
	}
	gen(len(a))
}

// TestCount3x3BruteForce checks the count of every 3×3 puzzle of 40 seeds
// against all 9! = 362,880 assignments of the pieces to the cells, each
// scored for SC by core/score: nothing of the counting code is reused.
func TestCount3x3BruteForce(t *testing.T) {
	seeds := 40
	if testing.Short() || raceEnabled {
		seeds = 6
	}
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		sides, tr := randomPuzzle(t, 3, seed)
		cells := make([]int, 9) // cells[i] is the piece at cell i
		for i := range cells {
			cells[i] = i
		}
		pred := make([]int, 9)
		brute := 0
		permutations(cells, func() {
			for c, id := range cells {
				pred[id] = c
			}
			if consistent(tr, pred) {
				brute++
			}
		})
		c, err := CountShape(3, sides, CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.LimitReached || c.Arrangements.Cmp(big.NewInt(int64(brute))) != 0 {
			t.Fatalf("seed %d: counted %s (limit %v), brute force %d", seed, c.Arrangements, c.LimitReached, brute)
		}
		got, err := SolveShape(3, sides)
		if err != nil || !consistent(tr, got) {
			t.Fatalf("seed %d: SolveShape gave %v, %v", seed, got, err)
		}
	}
}

// TestCount4x4BruteForce checks every 4×4 puzzle of 10 seeds two
// independent ways.
//
// Layouts: all 2^24 polarity assignments of the 24 internal edges are
// enumerated (Gray code, one edge flipped per step, the signature histogram
// updated incrementally); those whose 16 signatures are, as a multiset, the
// pieces' signatures are exactly the consistent signature layouts.
//
// Arrangements: the pieces are assigned to cells by every permutation that
// keeps each piece in the cells its flat sides allow — the 4 corner pieces
// to their corners (one way), the 2 pieces of each border side to that
// side's 2 cells (2! each), the 4 interior pieces to the 4 interior cells
// (4!) — 384 assignments, each scored for SC by core/score. A piece outside
// its class puts a flat side against a neighbour (or a tab on the
// boundary), which SC can never accept, so no consistent arrangement is
// missed; the check covers the 16! assignments in that sense, not by
// enumerating them.
func TestCount4x4BruteForce(t *testing.T) {
	seeds := 10
	if testing.Short() || raceEnabled {
		seeds = 2
	}
	multi := 0
	for seed := uint64(1); seed <= uint64(seeds); seed++ {
		sides, tr := randomPuzzle(t, 4, seed)
		c, err := CountShape(4, sides, CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.LimitReached {
			t.Fatalf("seed %d: limit reached on a 4×4", seed)
		}
		layouts := bruteLayouts(4, sides)
		if c.Layouts != layouts {
			t.Fatalf("seed %d: %d signature layouts, brute force over polarities %d", seed, c.Layouts, layouts)
		}
		perms := bruteClassPermutations(4, sides, tr)
		if c.Arrangements.Cmp(big.NewInt(int64(perms))) != 0 {
			t.Fatalf("seed %d: %s arrangements, brute force over permutations %d", seed, c.Arrangements, perms)
		}
		// The product formula: layouts × ∏ m!.
		want := new(big.Int).SetUint64(layouts)
		mult := map[puzzle.Sides]int{}
		for _, s := range sides {
			mult[s]++
		}
		for _, m := range mult {
			want.Mul(want, factorial(m))
		}
		if c.Arrangements.Cmp(want) != 0 {
			t.Fatalf("seed %d: %s ≠ layouts × ∏ m! = %s", seed, c.Arrangements, want)
		}
		if perms > 1 {
			multi++
		}
		t.Logf("4×4 seed %d: %d layouts, %s arrangements", seed, layouts, c.Arrangements)
	}
	if seeds >= 10 && multi == 0 {
		t.Error("no 4×4 puzzle with more than one consistent arrangement among the seeds; the test shows nothing")
	}
}

// bruteLayouts counts the polarity assignments of an n×n grid whose
// signature multiset equals that of sides, by Gray-code enumeration.
func bruteLayouts(n int, sides []puzzle.Sides) uint64 {
	hor := make([][]int, n)
	for r := range hor {
		hor[r] = make([]int, n-1)
		for c := range hor[r] {
			hor[r][c] = -1
		}
	}
	ver := make([][]int, n-1)
	for r := range ver {
		ver[r] = make([]int, n)
		for c := range ver[r] {
			ver[r][c] = -1
		}
	}
	type edge struct {
		vertical bool
		r, c     int
	}
	var edges []edge
	for r := 0; r < n; r++ {
		for c := 0; c < n-1; c++ {
			edges = append(edges, edge{false, r, c})
		}
	}
	for r := 0; r < n-1; r++ {
		for c := 0; c < n; c++ {
			edges = append(edges, edge{true, r, c})
		}
	}
	code := func(s puzzle.Sides) int { return int(s[0]) + 3*int(s[1]) + 9*int(s[2]) + 27*int(s[3]) }
	var want, have [81]int
	for _, s := range sides {
		want[code(s)]++
	}
	cellCode := func(r, c int) int { return code(puzzle.SidesOf(hor, ver, puzzle.Cell{Row: r, Col: c})) }
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			have[cellCode(r, c)]++
		}
	}
	diff := 0 // codes where have ≠ want
	for i := range want {
		if have[i] != want[i] {
			diff++
		}
	}
	bump := func(k, d int) {
		before := have[k] != want[k]
		have[k] += d
		if after := have[k] != want[k]; after != before {
			if after {
				diff++
			} else {
				diff--
			}
		}
	}
	var count uint64
	if diff == 0 {
		count++
	}
	for i := uint64(1); i < 1<<len(edges); i++ {
		e := edges[trailingZeros(i)]
		// The two cells the edge separates.
		r1, c1, r2, c2 := e.r, e.c, e.r, e.c+1
		if e.vertical {
			r2, c2 = e.r+1, e.c
		}
		bump(cellCode(r1, c1), -1)
		bump(cellCode(r2, c2), -1)
		if e.vertical {
			ver[e.r][e.c] = -ver[e.r][e.c]
		} else {
			hor[e.r][e.c] = -hor[e.r][e.c]
		}
		bump(cellCode(r1, c1), 1)
		bump(cellCode(r2, c2), 1)
		if diff == 0 {
			count++
		}
	}
	return count
}

func trailingZeros(x uint64) int {
	k := 0
	for x&1 == 0 {
		x >>= 1
		k++
	}
	return k
}

// bruteClassPermutations counts the consistent arrangements among the
// assignments that keep each piece within its flat-side class.
func bruteClassPermutations(n int, sides []puzzle.Sides, tr *score.Truth) int {
	classOf := func(f [4]bool) int {
		k := 0
		for i, b := range f {
			if b {
				k |= 1 << i
			}
		}
		return k
	}
	cellsOf := map[int][]int{}
	piecesOf := map[int][]int{}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			k := classOf([4]bool{r == 0, c == n-1, r == n-1, c == 0})
			cellsOf[k] = append(cellsOf[k], r*n+c)
		}
	}
	for id, s := range sides {
		k := classOf([4]bool{s[0] == puzzle.Flat, s[1] == puzzle.Flat, s[2] == puzzle.Flat, s[3] == puzzle.Flat})
		piecesOf[k] = append(piecesOf[k], id)
	}
	var classes []int
	for k := range 16 {
		if len(cellsOf[k]) > 0 {
			if len(piecesOf[k]) != len(cellsOf[k]) {
				return 0
			}
			classes = append(classes, k)
		}
	}
	pred := make([]int, n*n)
	count := 0
	var rec func(i int)
	rec = func(i int) {
		if i == len(classes) {
			if consistent(tr, pred) {
				count++
			}
			return
		}
		k := classes[i]
		ps := append([]int(nil), piecesOf[k]...)
		permutations(ps, func() {
			for j, id := range ps {
				pred[id] = cellsOf[k][j]
			}
			rec(i + 1)
		})
	}
	rec(0)
	return count
}

// TestMoreThanOneArrangement shows puzzles the shape alone cannot solve:
// the count exceeds one, and the shape solver's answer is consistent yet
// differs from the truth.
func TestMoreThanOneArrangement(t *testing.T) {
	shown := 0
	for seed := uint64(1); seed <= 20 && shown < 3; seed++ {
		sides, tr := randomPuzzle(t, 5, seed)
		c, err := CountShape(5, sides, CountOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if c.Arrangements.Cmp(big.NewInt(1)) <= 0 {
			continue
		}
		shown++
		pred, err := SolveShape(5, sides)
		if err != nil || !consistent(tr, pred) {
			t.Fatalf("seed %d: SolveShape gave %v, %v", seed, pred, err)
		}
		// A second consistent arrangement: swap two pieces with equal
		// signatures (if any), or the solver's answer if it differs.
		alt := append([]int(nil), tr.Cell...)
		for a := range sides {
			for b := a + 1; b < len(sides); b++ {
				if sides[a] == sides[b] {
					alt[a], alt[b] = alt[b], alt[a]
					goto swapped
				}
			}
		}
		alt = pred
	swapped:
		if !consistent(tr, alt) || score.Score(tr, alt).PA == 1 {
			t.Fatalf("seed %d: the alternative arrangement is not a second consistent one", seed)
		}
		t.Logf("5×5 seed %d: %s consistent arrangements (%d layouts × %s); the truth and another one both have SC = 1, PA of the other %.2f",
			seed, c.Arrangements, c.Layouts, c.Permutations, score.Score(tr, alt).PA)
	}
	if shown == 0 {
		t.Fatal("found no 5×5 puzzle with more than one consistent arrangement")
	}
}

// TestShapeLargeGrids: the solver finds a consistent arrangement of large
// puzzles quickly, and the count returns (a lower bound, flagged) without
// exhausting memory.
func TestShapeLargeGrids(t *testing.T) {
	grids := []int{8, 16, 32, 64}
	if testing.Short() || raceEnabled {
		grids = []int{8, 16}
	}
	for _, n := range grids {
		for seed := uint64(1); seed <= 3; seed++ {
			sides, tr := randomPuzzle(t, n, seed)
			pred, err := SolveShape(n, sides)
			if err != nil {
				t.Fatalf("%d×%d seed %d: %v", n, n, seed, err)
			}
			if !consistent(tr, pred) {
				t.Fatalf("%d×%d seed %d: the arrangement is not consistent", n, n, seed)
			}
			if n > 16 {
				continue
			}
			c, err := CountShape(n, sides, CountOptions{})
			if err != nil {
				t.Fatal(err)
			}
			if c.Layouts < 1 || c.Arrangements.Sign() <= 0 {
				t.Fatalf("%d×%d seed %d: count %+v", n, n, seed, c)
			}
			if n >= 8 && !c.LimitReached {
				t.Logf("%d×%d seed %d: exact count %s", n, n, seed, c.Arrangements)
			}
		}
	}
}

func TestCountLimit(t *testing.T) {
	sides, _ := randomPuzzle(t, 6, 1)
	full, err := CountShape(6, sides, CountOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if full.LimitReached || full.Layouts < 20 {
		t.Fatalf("expected an exact count above 20 layouts for this 6×6, got %+v", full)
	}
	c, err := CountShape(6, sides, CountOptions{Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if !c.LimitReached || c.Stopped != "limit" || c.Layouts != 10 {
		t.Fatalf("limit 10: %+v", c)
	}
	if want := new(big.Int).Mul(big.NewInt(10), full.Permutations); c.Arrangements.Cmp(want) != 0 {
		t.Fatalf("lower bound %s, want %s", c.Arrangements, want)
	}
	exact, err := CountShape(6, sides, CountOptions{Limit: full.Layouts})
	if err != nil {
		t.Fatal(err)
	}
	if exact.LimitReached || exact.Layouts != full.Layouts {
		t.Fatalf("a limit equal to the count must give it exactly: %+v", exact)
	}
}

func TestNoArrangement(t *testing.T) {
	sides, _ := randomPuzzle(t, 4, 1)
	// Flip one interior piece's side: the multiset can no longer close up.
	for id, s := range sides {
		if s[puzzle.Top] != puzzle.Flat && s[puzzle.Left] != puzzle.Flat && s[puzzle.Right] != puzzle.Flat && s[puzzle.Bottom] != puzzle.Flat {
			sides[id][puzzle.Top] = opposite(s[puzzle.Top])
			break
		}
	}
	if _, err := SolveShape(4, sides); !errors.Is(err, ErrNoArrangement) {
		t.Fatalf("SolveShape: %v, want ErrNoArrangement", err)
	}
	c, err := CountShape(4, sides, CountOptions{})
	if err != nil || c.Arrangements.Sign() != 0 {
		t.Fatalf("count %v, %v; want 0", c.Arrangements, err)
	}
	// A piece with an impossible signature.
	sides[0] = puzzle.Sides{puzzle.Flat, puzzle.Tab, puzzle.Flat, puzzle.Tab}
	if _, err := SolveShape(4, sides); !errors.Is(err, ErrNoArrangement) {
		t.Fatalf("impossible signature: %v", err)
	}
}

// TestAnnealLayout: the local search over edge polarities finds a layout
// whose arrangement is shape-consistent (checked by core/score's SC) on
// every grid up to 64×64, and gives up (nil) on pieces that admit none.
func TestAnnealLayout(t *testing.T) {
	grids := []int{2, 3, 5, 8, 16, 32, 64}
	if testing.Short() || raceEnabled {
		grids = []int{2, 3, 5, 8, 16}
	}
	for _, n := range grids {
		for seed := uint64(1); seed <= 3; seed++ {
			sides, tr := randomPuzzle(t, n, seed)
			layout := annealLayout(n, sides, seed, annealFlips*4*n*n)
			if layout == nil {
				t.Fatalf("%d×%d seed %d: no layout found", n, n, seed)
			}
			if !consistent(tr, assignPieces(n, sides, layout)) {
				t.Fatalf("%d×%d seed %d: the layout is not consistent", n, n, seed)
			}
		}
	}
	sides, _ := randomPuzzle(t, 4, 1)
	for id, s := range sides {
		if s[puzzle.Top] != puzzle.Flat && s[puzzle.Left] != puzzle.Flat && s[puzzle.Right] != puzzle.Flat && s[puzzle.Bottom] != puzzle.Flat {
			sides[id][puzzle.Top] = opposite(s[puzzle.Top])
			break
		}
	}
	if annealLayout(4, sides, 1, 100_000) != nil {
		t.Fatal("a layout was found for pieces that admit none")
	}
}
