package solve

import (
	"cmp"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestAssignMatchesBruteForce: the Hungarian assignment's total equals the
// least over every injective choice, on random 1×1 to 4×6 matrices, and
// on a hand-worked 3×3 (rows take columns 1, 0, 2: 1 + 2 + 2 = 5).
func TestAssignMatchesBruteForce(t *testing.T) {
	got := assign([][]float64{{4, 1, 3}, {2, 0, 5}, {3, 2, 2}})
	if !slices.Equal(got, []int{1, 0, 2}) {
		t.Fatalf("hand-worked 3×3: %v, want [1 0 2]", got)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 300 {
		rows := 1 + trial%4
		cols := rows + trial%3
		cost := make([][]float64, rows)
		for i := range cost {
			cost[i] = make([]float64, cols)
			for j := range cost[i] {
				cost[i][j] = float64(rng.IntN(10))
			}
		}
		pick := assign(cost)
		seen := map[int]bool{}
		var sum float64
		for i, j := range pick {
			if seen[j] {
				t.Fatalf("%v: column %d taken twice", cost, j)
			}
			seen[j] = true
			sum += cost[i][j]
		}
		if want := bruteAssign(cost, 0, make([]bool, cols)); sum != want {
			t.Fatalf("%v: assignment costs %v, the least is %v", cost, sum, want)
		}
	}
}

// TestAssignLikeTextbook: assign, which takes each step's delta off the
// unused columns in the next step's pass, picks what the textbook form
// (assignPlain, two passes a step) picks, ties included: on random
// matrices of small integers (many optimal assignments) and of fractions.
func TestAssignLikeTextbook(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for trial := range 1000 {
		rows := 1 + rng.IntN(40)
		cols := rows + rng.IntN(80)
		cost := make([][]float64, rows)
		for i := range cost {
			cost[i] = make([]float64, cols)
			for j := range cost[i] {
				if trial%2 == 0 {
					cost[i][j] = float64(rng.IntN(4))
				} else {
					cost[i][j] = float64(float32(100 * rng.Float64()))
				}
			}
		}
		if got, want := assign(cost), assignPlain(cost); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d×%d): %v, the textbook form %v", trial, rows, cols, got, want)
		}
	}
}

// assignPlain is assign as first written: the Hungarian algorithm with
// potentials, each step a pass to find the nearest column and one to move
// the potentials and the distances.
func assignPlain(cost [][]float64) []int {
	rows, cols := len(cost), len(cost[0])
	inf := math.Inf(1)
	u, v := make([]float64, rows+1), make([]float64, cols+1)
	p, way := make([]int, cols+1), make([]int, cols+1)
	minv, used := make([]float64, cols+1), make([]bool, cols+1)
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		for p[j0] != 0 {
			used[j0] = true
			i0, delta, j1 := p[j0], inf, 0
			for j := 1; j <= cols; j++ {
				if used[j] {
					continue
				}
				if cur := cost[i0-1][j-1] - u[i0] - v[j]; cur < minv[j] {
					minv[j], way[j] = cur, j0
				}
				if minv[j] < delta {
					delta, j1 = minv[j], j
				}
			}
			for j := 0; j <= cols; j++ {
				if used[j] {
					u[p[j]] += delta
					v[j] -= delta
				} else {
					minv[j] -= delta
				}
			}
			j0 = j1
		}
		for j0 != 0 {
			j1 := way[j0]
			p[j0] = p[j1]
			j0 = j1
		}
	}
	out := make([]int, rows)
	for j := 1; j <= cols; j++ {
		if p[j] != 0 {
			out[p[j]-1] = j - 1
		}
	}
	return out
}

func bruteAssign(cost [][]float64, row int, used []bool) float64 {
	if row == len(cost) {
		return 0
	}
	best := math.Inf(1)
	for j := range used {
		if !used[j] {
			used[j] = true
			best = min(best, cost[row][j]+bruteAssign(cost, row+1, used))
			used[j] = false
		}
	}
	return best
}

// syntheticAssembly is a rectangular n×n puzzle whose true arrangement is
// piece r·n+c in cell r·n+c: true neighbours cost 1, anything else 5–9.
func syntheticAssembly(n int, seed uint64) *assembly {
	m := n * n
	rng := rand.New(rand.NewPCG(seed, 3))
	cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
	for a := range m {
		for b := range m {
			cm.d[dirRight][a*m+b] = float32(5 + rng.IntN(5))
			cm.d[dirDown][a*m+b] = float32(5 + rng.IntN(5))
		}
		if a%n+1 < n {
			cm.d[dirRight][a*m+a+1] = 1
		}
		if a+n < m {
			cm.d[dirDown][a*m+a+n] = 1
		}
	}
	return newAssembly(n, make([]puzzle.Sides, m), cm, false)
}

// TestReframeRepairsShiftedFrames: arrangements that are right but for
// where they wrap — the right-hand column on the left in a scrambled order,
// the top row at the bottom, a block of rows a few cells over, two pieces
// exchanged — come back to the true one.
func TestReframeRepairsShiftedFrames(t *testing.T) {
	const n = 8
	a := syntheticAssembly(n, 1)
	truth := identity(n * n)
	rng := rand.New(rand.NewPCG(4, 5))
	cases := map[string]func([]int) []int{
		"right column wrapped, scrambled": func(c []int) []int {
			out := make([]int, len(c))
			col := rng.Perm(n)
			for r := range n {
				for k := range n {
					if k == 0 {
						out[r*n] = c[col[r]*n+n-1]
					} else {
						out[r*n+k] = c[r*n+k-1]
					}
				}
			}
			return out
		},
		"top row at the bottom": func(c []int) []int {
			return append(slices.Clone(c[n:]), c[:n]...)
		},
		"a block of rows 2 cells over": func(c []int) []int {
			out := slices.Clone(c)
			for r := 2; r < 5; r++ {
				for k := range 6 {
					out[r*n+1+(k+2)%6] = c[r*n+1+k]
				}
			}
			return out
		},
		"two pieces exchanged": func(c []int) []int {
			out := slices.Clone(c)
			out[9], out[50] = out[50], out[9]
			return out
		},
	}
	for name, spoil := range cases {
		cells := spoil(truth)
		if slices.Equal(cells, truth) {
			t.Fatalf("%s: the spoiled arrangement is the truth", name)
		}
		if got := a.reframe(cells); !slices.Equal(got, truth) {
			t.Errorf("%s: reframe gave cost %.0f, the truth costs %.0f:\n%v", name, a.cost(got), a.cost(truth), got)
		}
	}
}

// TestSetCostUnder: stopping at a bound decides "below the bound" exactly
// as the whole sum does, and with no bound (NaN) it is the whole sum; the
// hand-worked set is the top-left cell of the true arrangement (its
// right and down seams, 1 each).
func TestSetCostUnder(t *testing.T) {
	const n = 6
	a := syntheticAssembly(n, 2)
	rng := rand.New(rand.NewPCG(4, 5))
	truth := identity(n * n)
	inSet := make([]bool, n*n)
	inSet[0] = true
	if got := a.setCost(truth, []int{0}, inSet); got != 2 {
		t.Fatalf("setCost of the top-left cell = %v, want 2", got)
	}
	inSet[0] = false
	for trial := range 500 {
		cells := rng.Perm(n * n)
		var set []int
		for c := range cells {
			if rng.IntN(3) == 0 {
				set = append(set, c)
				inSet[c] = true
			}
		}
		whole := a.setCost(cells, set, inSet)
		if got := a.setCostUnder(cells, set, inSet, math.NaN()); got != whole {
			t.Fatalf("trial %d: unbounded %v, whole %v", trial, got, whole)
		}
		bound := whole * (0.5 + rng.Float64())
		if got := a.setCostUnder(cells, set, inSet, bound); (got < bound) != (whole < bound) || got < bound && got != whole {
			t.Fatalf("trial %d: bound %v: %v, whole %v", trial, bound, got, whole)
		}
		for _, c := range set {
			inSet[c] = false
		}
	}
}

// spreadSeams is an n×n assembly whose seams spread over 2⁻⁶⁰–2²⁰ with
// every mantissa, with zeros, subnormals and +Inf among them: the lower
// levels (lowerSeams) round most of them down and clip the smallest.
func spreadSeams(n int, rng *rand.Rand) *assembly {
	m := n * n
	cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
	for _, d := range cm.d {
		for i := range d {
			switch rng.IntN(40) {
			case 0:
				d[i] = 0
			case 1:
				d[i] = math.Float32frombits(uint32(1 + rng.IntN(1<<23-1))) // subnormal
			case 2:
				d[i] = float32(math.Inf(1))
			default:
				d[i] = float32(math.Ldexp(1+rng.Float64(), rng.IntN(80)-60))
			}
		}
	}
	return newAssembly(n, make([]puzzle.Sides, m), cm, false)
}

// TestLowerSeams: every level is worth at most its seam (a wrong rounding
// up would let setCostUnder refuse a set the seams price under its bound);
// a finite seam of the 32 octaves below the dearest finite one's is worth
// more than 8/9 of it (above the lowest level); what lies below them, 0
// and subnormals, are worth 0; +Inf the top level.
func TestLowerSeams(t *testing.T) {
	rng := rand.New(rand.NewPCG(8, 9))
	a := spreadSeams(9, rng)
	if !a.positive {
		t.Fatal("spreadSeams has a negative seam")
	}
	a.lowerSeams()
	dearest := 0.0
	for _, d := range [2][]float32{a.right, a.down} {
		for _, v := range d {
			if !math.IsInf(float64(v), 1) {
				dearest = max(dearest, float64(v))
			}
		}
	}
	_, top := math.Frexp(dearest) // dearest in [2^(top−1), 2^top)
	floor := math.Ldexp(1, top-1-(lowLevels-1))
	tight, clipped := 0, 0
	for dir, d := range [2][]float32{a.right, a.down} {
		low := [2][]uint8{a.rightLow, a.downLow}[dir]
		for i, v := range d {
			seam, got := float64(v), a.lowLevel[low[i]]
			switch {
			case !(got <= seam):
				t.Fatalf("seam %g (%#08x): level %d worth %g, above it", seam, math.Float32bits(v), low[i], got)
			case math.IsInf(seam, 1):
				if low[i] != 255 {
					t.Fatalf("+Inf: level %d, want 255", low[i])
				}
			case seam < floor:
				if got != 0 {
					t.Fatalf("seam %g below the levels (from %g): worth %g, want 0", seam, floor, got)
				}
				clipped++
			case seam >= floor*9/8:
				if !(got > seam*8/9) {
					t.Fatalf("seam %g: level %d worth %g, not above 8/9 of it", seam, low[i], got)
				}
				tight++
			}
		}
	}
	if tight < 1000 || clipped < 1000 {
		t.Fatalf("%d seams tightly bounded and %d clipped: the test no longer spans the levels", tight, clipped)
	}
}

// TestSetCostUnderOnLowerLevels: with the lower levels summed first, a set
// priced under a bound is priced exactly (the same float64 as the plain sum
// in the same order) and one not under it is reported at or above it, on
// seams over 80 octaves and bounds within a level of the sum.
func TestSetCostUnderOnLowerLevels(t *testing.T) {
	const n = 9
	rng := rand.New(rand.NewPCG(10, 11))
	a := spreadSeams(n, rng)
	m := n * n
	inSet := make([]bool, m)
	plain := func(cells, set []int) float64 {
		var s float64
		for _, c := range set {
			r, col, x := c/n, c%n, cells[c]
			if col+1 < n {
				s += float64(a.right[x*m+cells[c+1]])
			}
			if r+1 < n {
				s += float64(a.down[x*m+cells[c+n]])
			}
			if col > 0 && !inSet[c-1] {
				s += float64(a.right[cells[c-1]*m+x])
			}
			if r > 0 && !inSet[c-n] {
				s += float64(a.down[cells[c-n]*m+x])
			}
		}
		return s
	}
	under, over := 0, 0
	for trial := range 20000 {
		cells := rng.Perm(m)
		var set []int
		for c := range cells {
			if rng.IntN(12) == 0 {
				set = append(set, c)
				inSet[c] = true
			}
		}
		whole := plain(cells, set)
		bound := whole * (1 + (rng.Float64()-0.5)/4) // within a level either way
		if rng.IntN(8) == 0 {
			bound = whole
		}
		got := a.setCostUnder(cells, set, inSet, bound)
		switch {
		case whole < bound && got != whole:
			t.Fatalf("trial %d: under the bound %v: %v, plain %v", trial, bound, got, whole)
		case !(whole < bound) && !(got >= bound):
			t.Fatalf("trial %d: not under the bound %v: %v, plain %v", trial, bound, got, whole)
		}
		if whole < bound {
			under++
		} else if !math.IsInf(whole, 1) {
			over++
		}
		for _, c := range set {
			inSet[c] = false
		}
	}
	if under < 5000 || over < 5000 {
		t.Fatalf("%d sets under the bound, %d finite ones over it: too few of one", under, over)
	}
}

// TestExchangeLowLikeSetLow: the levels' sum of two blocks exchanged, read
// with no cell moved and in another order (exchangeLow), is setLowUnder's
// whole sum over the blocks exchanged, to the bit, for every block shape,
// on seams over 80 octaves with zeros, subnormals and +Inf (sums of levels
// are exact); and with a bound it stops at or above the bound exactly when
// the whole sum reaches it.
func TestExchangeLowLikeSetLow(t *testing.T) {
	const n = 11
	m := n * n
	rng := rand.New(rand.NewPCG(12, 13))
	a := spreadSeams(n, rng)
	a.lowTransposed()
	inSet := make([]bool, m)
	tried := 0
	for trial := range 4000 {
		cells := rng.Perm(m)
		sh := blockShapes[trial%len(blockShapes)]
		h, w := sh[0], sh[1]
		block := func(r, c int) []int {
			var b []int
			for dr := range h {
				for dc := range w {
					b = append(b, (r+dr)*n+c+dc)
				}
			}
			return b
		}
		r1, c1, r2, c2 := rng.IntN(n-h+1), rng.IntN(n-w+1), rng.IntN(n-h+1), rng.IntN(n-w+1)
		if r1 < r2+h+1 && r2 < r1+h+1 && c1 < c2+w+1 && c2 < c1+w+1 {
			continue // touching or overlapping (a corner apart is let go too)
		}
		bp, bq := block(r1, c1), block(r2, c2)
		got := a.exchangeLow(cells, bp, bq, w, a.innerLow(cells, bp, w), a.innerLow(cells, bq, w), math.Inf(1))
		bound := got * (0.5 + rng.Float64())
		stopped := a.exchangeLow(cells, bp, bq, w, a.innerLow(cells, bp, w), a.innerLow(cells, bq, w), bound)
		for k := range bp {
			cells[bp[k]], cells[bq[k]] = cells[bq[k]], cells[bp[k]]
		}
		set := append(slices.Clone(bp), bq...)
		for _, c := range set {
			inSet[c] = true
		}
		want := a.setLowUnder(cells, set, inSet, math.Inf(1))
		for _, c := range set {
			inSet[c] = false
		}
		if got != want {
			t.Fatalf("trial %d (%d×%d at %d and %d): %v, setLowUnder %v", trial, h, w, bp[0], bq[0], got, want)
		}
		if (want >= bound) != (stopped >= bound) || want < bound && stopped != want {
			t.Fatalf("trial %d: under the bound %v: %v, the whole sum %v", trial, bound, stopped, want)
		}
		tried++
	}
	if tried < 1000 {
		t.Fatalf("%d pairs of blocks apart: too few", tried)
	}
}

// TestColumns: the transposes are right and down read by columns, for
// sizes that the tiles of transpose divide and do not.
func TestColumns(t *testing.T) {
	for _, n := range []int{4, 7, 8} {
		m := n * n
		rng := rand.New(rand.NewPCG(uint64(n), 2))
		a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
		for i := range a.right {
			a.right[i], a.down[i] = rng.Float32(), rng.Float32()
		}
		leftOf, above := a.columns()
		for x := range m {
			for y := range m {
				if leftOf[y*m+x] != a.right[x*m+y] || above[y*m+x] != a.down[x*m+y] {
					t.Fatalf("%d×%d: (%d, %d) not transposed", n, n, x, y)
				}
			}
		}
		// Without the transposes (above columnsMax) column copies the
		// same values.
		for y := range m {
			if !slices.Equal(a.column(nil, a.right, y, nil), a.column(leftOf, a.right, y, nil)) ||
				!slices.Equal(a.column(nil, a.down, y, make([]float32, 3)), a.column(above, a.down, y, nil)) {
				t.Fatalf("%d×%d: column %d copied wrong", n, n, y)
			}
		}
	}
	big := &assembly{n: 33, m: 33 * 33}
	if l, d := big.columns(); l != nil || d != nil {
		t.Fatal("columns transposed a grid above columnsMax pieces")
	}
}

// TestSeamsAtEach: pricing every piece of a pool at a cell at once is
// seamsAt for each, to the bit, with the transposes kept (8×8) and without
// them (33×33, above columnsMax: only the pool's entries of a column read),
// at cells with every count of filled neighbours, the scratch columns
// reused from cell to cell.
func TestSeamsAtEach(t *testing.T) {
	for _, n := range []int{8, 33} {
		m := n * n
		rng := rand.New(rand.NewPCG(uint64(n), 5))
		a := randomSeams(n, rng)
		cells := rng.Perm(m)
		for c := range cells {
			if rng.IntN(3) == 0 {
				cells[c] = -1
			}
		}
		var scratch [2][]float32
		for range 200 {
			c := rng.IntN(m)
			pool := rng.Perm(m)[:1+rng.IntN(m/4)]
			out := make([]float64, len(pool))
			a.seamsAtEach(cells, c, pool, out, &scratch)
			for j, x := range pool {
				if want := a.seamsAt(cells, c, x, seamCost); out[j] != want {
					t.Fatalf("%d×%d: piece %d at cell %d priced %v, seamsAt %v", n, n, x, c, out[j], want)
				}
			}
		}
	}
}

// randomSeams is an n×n assembly whose seams are random fractions of
// [0.2, 1), each true one (piece x beside x+1, above x+n) cheaper, in
// [0, 0.1): no two prices alike, so a move priced from the wrong seams
// shows.
func randomSeams(n int, rng *rand.Rand) *assembly {
	m := n * n
	a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
	for x := range m {
		for y := range m {
			a.right[x*m+y] = 0.2 + 0.8*rng.Float32()
			a.down[x*m+y] = 0.2 + 0.8*rng.Float32()
		}
		if x%n+1 < n {
			a.right[x*m+x+1] = 0.1 * rng.Float32()
		}
		if x+n < m {
			a.down[x*m+x+n] = 0.1 * rng.Float32()
		}
	}
	return a
}

// TestSwapBlocksLikePricingEveryPair: swapBlocks, which prices a pair of
// blocks with no seam between them by the blocks' own prices and keeps
// those current as swaps change them, makes exactly the swaps of the plain
// search that prices both sides of every pair afresh (swapBlocksPlain), on
// scrambled 8×8 and 12×12 grids where one pass makes several swaps — so a
// price left stale by a swap would show.
func TestSwapBlocksLikePricingEveryPair(t *testing.T) {
	for seed := range uint64(12) {
		rng := rand.New(rand.NewPCG(seed, 7))
		n := 8 + 4*int(seed%2)
		m := n * n
		a := randomSeams(n, rng)
		a.positive = nonNegative(a.right) && nonNegative(a.down)
		cells := make([]int, m)
		for c := range cells {
			cells[c] = c
		}
		for range m / 4 { // exchange random 1×2 blocks
			p, q := rng.IntN(m-1), rng.IntN(m-1)
			if p%n == n-1 || q%n == n-1 || p/2 == q/2 || max(p, q)-min(p, q) < 2 {
				continue
			}
			cells[p], cells[q], cells[p+1], cells[q+1] = cells[q], cells[p], cells[q+1], cells[p+1]
		}
		best := a.bestMatches()
		want := slices.Clone(cells)
		wantMoved, swaps := a.swapBlocksPlain(want, best)
		got := slices.Clone(cells)
		gotMoved := a.swapBlocks(got, best, nil)
		if gotMoved != wantMoved || !slices.Equal(got, want) {
			t.Fatalf("seed %d (%d×%d): swapBlocks moved %v to %v, the plain search %v to %v", seed, n, n, gotMoved, got, wantMoved, want)
		}
		if seed == 0 && swaps < 2 {
			t.Fatalf("seed 0 made %d swaps: the test needs a pass with several", swaps)
		}
	}
}

// TestSwapBlocksMemo: passing over the pairs the previous call priced on
// the same seams (swapMemo) makes the swaps of pricing them again, over
// calls with a few pieces exchanged between them (or none, or the swaps
// undone), on scrambled 10×10 grids.
func TestSwapBlocksMemo(t *testing.T) {
	for seed := range uint64(6) {
		rng := rand.New(rand.NewPCG(seed, 9))
		const n, m = 10, 100
		a := randomSeams(n, rng)
		a.positive = nonNegative(a.right) && nonNegative(a.down)
		x := identity(m)
		for range m / 3 {
			i, j := rng.IntN(m), rng.IntN(m)
			x[i], x[j] = x[j], x[i]
		}
		y := slices.Clone(x)
		memo := &swapMemo{}
		for call := range 6 {
			start := slices.Clone(x)
			mx := a.swapBlocks(x, a.bestMatches(), memo)
			my := a.swapBlocks(y, a.bestMatches(), nil)
			if mx != my || !slices.Equal(x, y) {
				t.Fatalf("seed %d, call %d: with the memo moved %v to cost %v, without %v to cost %v", seed, call, mx, a.cost(x), my, a.cost(y))
			}
			if call == 3 { // the swaps undone: each cell as the call began
				copy(x, start)
				copy(y, start)
			}
			for range call % 3 { // 0, 1 or 2 exchanges before the next call
				i, j := rng.IntN(m), rng.IntN(m)
				x[i], x[j] = x[j], x[i]
				y[i], y[j] = y[j], y[i]
			}
		}
	}
}

// swapBlocksPlain is swapBlocks as first written: the same blocks in the
// same order, each pair priced by every seam around it before and after
// the exchange. It returns whether it swapped and how many times.
func (a *assembly) swapBlocksPlain(cells []int, best *matches) (bool, int) {
	n := a.n
	doubt := a.doubtful(cells, best)
	inSet := make([]bool, n*n)
	swaps := 0
	for _, sh := range blockShapes {
		h, w := sh[0], sh[1]
		block := func(p int) []int {
			var out []int
			for dr := range h {
				for dc := range w {
					out = append(out, p+dr*n+dc)
				}
			}
			return out
		}
		cost := func(set []int) float64 {
			for _, c := range set {
				inSet[c] = true
			}
			s := a.setCost(cells, set, inSet)
			for _, c := range set {
				inSet[c] = false
			}
			return s
		}
		var tops []int
		var price []float64
		for r := 0; r+h <= n; r++ {
			for c := 0; c+w <= n; c++ {
				if b := block(r*n + c); slices.ContainsFunc(b, func(c int) bool { return doubt[c] }) {
					tops, price = append(tops, r*n+c), append(price, cost(b))
				}
			}
		}
		if len(tops) > maxSwapBlocks*n {
			order := make([]int, len(tops))
			for i := range order {
				order[i] = i
			}
			slices.SortStableFunc(order, func(i, j int) int { return cmp.Compare(price[j], price[i]) })
			kept := make([]int, maxSwapBlocks*n)
			for i := range kept {
				kept[i] = tops[order[i]]
			}
			slices.Sort(kept)
			tops = kept
		}
		for i, p := range tops {
			for _, q := range tops[i+1:] {
				if q/n < p/n+h && p/n < q/n+h && q%n < p%n+w && p%n < q%n+w {
					continue
				}
				bp, bq := block(p), block(q)
				set := append(slices.Clone(bp), bq...)
				before := cost(set)
				for k := range bp {
					cells[bp[k]], cells[bq[k]] = cells[bq[k]], cells[bp[k]]
				}
				if cost(set) < before-1e-6 {
					swaps++
					continue
				}
				for k := range bp {
					cells[bp[k]], cells[bq[k]] = cells[bq[k]], cells[bp[k]]
				}
			}
		}
	}
	return swaps > 0, swaps
}

// orderLinesPlain is orderLines pricing every move as a whole path, as it
// did before the moves were filtered by the seams they change (the same
// seam table and placing of the lines).
func (a *assembly) orderLinesPlain(cells []int, byRow bool) bool {
	n := a.n
	seam := a.lineSeams(cells, byRow)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	pathCost := func(o []int) float64 {
		var s float64
		for i := 1; i < len(o); i++ {
			s += seam[o[i-1]*n+o[i]]
		}
		return s
	}
	moved := false
	cur := pathCost(order)
	trial := make([]int, 0, n)
	for improved := true; improved; {
		improved = false
		for length := 1; length < n; length++ {
			for from := 0; from+length <= n; from++ {
				block := order[from : from+length]
				rest := slices.Concat(order[:from], order[from+length:])
				for to := 0; to <= len(rest); to++ {
					if to == from {
						continue
					}
					trial = append(append(append(trial[:0], rest[:to]...), block...), rest[to:]...)
					if c := pathCost(trial); c < cur-1e-6 {
						copy(order, trial)
						cur, improved, moved = c, true, true
						block = order[from : from+length]
						rest = slices.Concat(order[:from], order[from+length:])
					}
				}
			}
		}
	}
	if moved {
		placeLines(n, cells, order, byRow)
	}
	return moved
}

// TestOrderLinesAsPriced: orderLines, pricing a move by the seams it changes
// first, moves the lines as orderLinesPlain does — on integer seams, where
// many moves gain exactly nothing, and on fractional ones; on true
// arrangements with lines shuffled and on random ones.
func TestOrderLinesAsPriced(t *testing.T) {
	moves := 0
	for seed := range uint64(12) {
		n := 5 + int(seed%4)
		a := syntheticAssembly(n, seed)
		if seed%2 == 1 { // fractional seams
			rng := rand.New(rand.NewPCG(seed, 9))
			for i := range a.right {
				a.right[i] += float32(rng.Float64())
				a.down[i] += float32(rng.Float64())
			}
		}
		rng := rand.New(rand.NewPCG(seed, 11))
		for trial := range 20 {
			var cells []int
			if trial%2 == 0 { // the truth, its columns and rows shuffled
				cols, rows := rng.Perm(n), rng.Perm(n)
				cells = make([]int, n*n)
				for r := range n {
					for c := range n {
						cells[r*n+c] = rows[r]*n + cols[c]
					}
				}
			} else {
				cells = rng.Perm(n * n)
			}
			for _, byRow := range [2]bool{false, true} {
				want := slices.Clone(cells)
				wantMoved := a.orderLinesPlain(want, byRow)
				got := slices.Clone(cells)
				if gotMoved := a.orderLines(got, byRow); gotMoved != wantMoved || !slices.Equal(got, want) {
					t.Fatalf("seed %d trial %d byRow %v: moved %v, want %v", seed, trial, byRow, gotMoved, wantMoved)
				}
				if wantMoved {
					moves++
				}
			}
		}
	}
	if moves < 100 {
		t.Fatalf("only %d of 480 orderings moved: the comparison says little", moves)
	}
}
