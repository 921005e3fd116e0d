package solve

import (
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestExchangeAnnealRestoresScrambledBlock: on a grid whose true
// arrangement is the only one at cost 0 (every other seam costs at least
// 1), annealing the cells of a scrambled 3×4 block — neighbours of each
// other, so exchanges of touching cells are priced too — puts it back.
func TestExchangeAnnealRestoresScrambledBlock(t *testing.T) {
	const n = 6
	m := n * n
	a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
	for x := range m {
		for y := range m {
			a.right[x*m+y] = 1 + float32((x*7+y*3)%5)
			a.down[x*m+y] = 1 + float32((x*5+y*11)%7)
		}
		if x%n+1 < n {
			a.right[x*m+x+1] = 0
		}
		if x+n < m {
			a.down[x*m+x+n] = 0
		}
	}
	cells := make([]int, m)
	for c := range cells {
		cells[c] = c
	}
	var pool []int
	for r := 1; r < 4; r++ {
		for c := 1; c < 5; c++ {
			pool = append(pool, r*n+c)
		}
	}
	src := rand.NewPCG(1, 2)
	rng := rand.New(src)
	for i := len(pool) - 1; i > 0; i-- {
		j := rng.IntN(i + 1)
		cells[pool[i]], cells[pool[j]] = cells[pool[j]], cells[pool[i]]
	}
	if a.cost(cells) == 0 {
		t.Fatal("the scramble left the block as it was")
	}
	a.exchangeAnneal(cells, pool, 200000, 2, 0.01, pcgRand{src}, nil)
	if c := a.cost(cells); c != 0 {
		t.Fatalf("annealed block costs %v, want 0 (the true arrangement): %v", c, cells)
	}
}

// TestExchangePrice: what exchange charges for exchanging two cells' pieces
// is exactly the change in the arrangement's cost, for touching cells and
// apart.
func TestExchangePrice(t *testing.T) {
	const n = 5
	m := n * n
	rng := rand.New(rand.NewPCG(3, 4))
	a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
	for i := range a.right {
		a.right[i], a.down[i] = float32(rng.IntN(100)), float32(rng.IntN(100))
	}
	cells := rng.Perm(m)
	inSet := make([]bool, m)
	for range 2000 {
		c1, c2 := rng.IntN(m), rng.IntN(m)
		if rng.IntN(2) == 0 { // a neighbour of c1, often
			c2 = min(m-1, c1+[]int{1, n}[rng.IntN(2)])
		}
		if c1 == c2 {
			continue
		}
		before := a.cost(cells)
		price := a.exchange(cells, c1, c2, inSet)
		if got := a.cost(cells) - before; got != price {
			t.Fatalf("exchanging cells %d and %d changes the cost by %v, priced %v", c1, c2, got, price)
		}
	}
}

// TestRectAnnealLoosePart: Wood.jpg at 32×32 on its rect sheet is right in
// one large region and wrong in a low-texture part; annealing that part
// (exchange.go) places more of it (PA 0.883 without, 0.921 with).
func TestRectAnnealLoosePart(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a 32×32 solve: too slow under the race detector")
	}
	gen := surveyInstance(t, "Wood.jpg", "", 32)
	_, correct, _ := solveSheet(t, gen, true)
	if pa := float64(correct) / 1024; pa < 0.91 {
		t.Fatalf("Wood.jpg 32×32 rect: PA %.4f, want ≥ 0.91", pa)
	}
}

// TestMetropolis checks the shortcuts against the exponential on the draws
// rand.Float64 can make around them (0, 2⁻⁵³ and its neighbours, the
// largest below 1; exp(−x) and the bound 1/p, each with the draws a step
// either side), across the switch at 40 and on a million random pairs.
func TestMetropolis(t *testing.T) {
	step := func(u float64, k int) float64 { return math.Max(0, u+float64(k)*0x1p-53) }
	for _, x := range []float64{1e-9, 0.001, 0.3, 1, 2.5, 10, 36.7, 36.8, 39.99, 40, 41, 100, 744, 746, 1e9} {
		draws := []float64{0, 0x1p-53, 0x2p-53, 0.5, 1 - 0x1p-53}
		p := 1 + x*(1+x*(0.5+x*(1.0/6)))
		for _, at := range []float64{math.Exp(-x), 1 / p, (1 + 1e-9) / p} {
			at = math.Round(at*0x1p53) / 0x1p53 // on the draws' grid
			for k := -2; k <= 2; k++ {
				if u := step(at, k); u < 1 {
					draws = append(draws, u)
				}
			}
		}
		for _, u := range draws {
			if got, want := metropolis(x, u), u < math.Exp(-x); got != want {
				t.Errorf("metropolis(%v, %v) = %v, want %v", x, u, got, want)
			}
		}
	}
	rng := rand.New(rand.NewPCG(9, 10))
	for range 1_000_000 {
		x, u := math.Ldexp(rng.Float64(), rng.IntN(16)-10), rng.Float64()
		if got, want := metropolis(x, u), u < math.Exp(-x); got != want {
			t.Fatalf("metropolis(%v, %v) = %v, want %v", x, u, got, want)
		}
	}
}

// TestExchangeAnnealSeamCache: annealing with the seams before each
// exchange read from the cache (seamCache) makes the exchanges of pricing
// them from the matrices (assembly.exchange), on seams from 2⁻³⁰ to 2³⁰ —
// so that sums in another order would round differently — over a pool of
// touching and apart cells: a pool whose pieces' costs are copied (most of
// a 9×9 grid, and a few cells of it, the rest out of the pool's reach) and
// one with too many pieces to copy (half of a 40×40 grid, over
// poolSeamsMax), priced on the matrices themselves.
func TestExchangeAnnealSeamCache(t *testing.T) {
	for _, tc := range []struct{ n, pool int }{{9, 40}, {9, 6}, {40, 800}} {
		n, m := tc.n, tc.n*tc.n
		rng := rand.New(rand.NewPCG(5, 6))
		a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
		seam := func() float32 { return float32(math.Ldexp(rng.Float64(), rng.IntN(60)-30)) }
		for i := range a.right {
			a.right[i], a.down[i] = seam(), seam()
		}
		cells := rng.Perm(m)
		pool := rng.Perm(m)[:tc.pool]
		want := slices.Clone(cells)
		const steps, hot, cold = 20000, 1e6, 1e-3
		plain := rand.New(rand.NewPCG(7, 8))
		cool, temp := math.Pow(cold/hot, 1/float64(steps)), float64(hot)
		inSet := make([]bool, m)
		for range steps { // exchangeAnneal priced by assembly.exchange
			temp *= cool
			c1, c2 := pool[plain.IntN(len(pool))], pool[plain.IntN(len(pool))]
			if c1 == c2 {
				continue
			}
			if d := a.exchange(want, c1, c2, inSet); d > 0 && !metropolis(d/temp, plain.Float64()) {
				want[c1], want[c2] = want[c2], want[c1]
			}
		}
		if slices.Equal(cells, want) {
			t.Fatalf("%d×%d, pool of %d: the annealing exchanged nothing", n, n, tc.pool)
		}
		// Positive, the pricing stops where metropolis refuses whatever
		// it draws but 0 (most of the steps below a temperature of 1).
		for _, positive := range []bool{false, true} {
			a.positive = positive
			got := slices.Clone(cells)
			a.exchangeAnneal(got, pool, steps, hot, cold, pcgRand{rand.NewPCG(7, 8)}, nil)
			if !slices.Equal(got, want) {
				t.Fatalf("%d×%d, pool of %d, positive %v: with the cache the annealing ends at cost %v, without at %v",
					n, n, tc.pool, positive, a.cost(got), a.cost(want))
			}
		}
	}
}

// TestPoolPriceLikeSetCost: on a pool's copy (priceAround) the price of
// exchanging two cells' pieces — side by side either way round, one above
// the other, on the grid's edges and corners, apart — is setCost's change
// to the bit; with a limit, a price stopped short has reached the limit and
// so has the whole change. Over the whole grid, and over a pool of a few
// cells with the rest out of its reach; the exchanges move the arrangement
// along as the annealing would.
func TestPoolPriceLikeSetCost(t *testing.T) {
	const n = 7
	m := n * n
	for _, size := range []int{m, 12} {
		rng := rand.New(rand.NewPCG(9, uint64(size)))
		a := &assembly{n: n, m: m, right: make([]float32, m*m), down: make([]float32, m*m)}
		for i := range a.right {
			a.right[i] = float32(math.Ldexp(rng.Float64(), rng.IntN(60)-30))
			a.down[i] = float32(math.Ldexp(rng.Float64(), rng.IntN(60)-30))
		}
		cells := rng.Perm(m)
		pool := rng.Perm(m)[:size]
		inPool := make([]bool, m)
		for _, c := range pool {
			inPool[c] = true
		}
		sc := a.newPoolSeamCache(cells, pool)
		if sc.around == nil {
			t.Fatalf("pool of %d: not priced on a copy", size)
		}
		inSet := make([]bool, m)
		near := 0
		for range 20000 {
			c1 := pool[rng.IntN(len(pool))]
			c2 := pool[rng.IntN(len(pool))]
			if d := []int{1, -1, n, -n}[rng.IntN(4)]; rng.IntN(2) == 0 && c1+d >= 0 && c1+d < m && inPool[c1+d] &&
				(d == n || d == -n || (c1+d)/n == c1/n) {
				c2 = c1 + d
				near++
			}
			if c1 == c2 {
				continue
			}
			want := a.exchange(cells, c1, c2, inSet) // cells exchanged
			if d, whole := sc.exchangeUnder(c1, c2, math.NaN()); !whole || d != want {
				t.Fatalf("pool of %d, cells %d and %d: priced %v (whole %v), setCost's change %v", size, c1, c2, d, whole, want)
			}
			sc.undo(c1, c2)
			limit := math.Abs(want) * math.Ldexp(1, rng.IntN(5)-2)
			d, whole := sc.exchangeUnder(c1, c2, limit)
			if whole && d != want || !whole && (d < limit || want < limit) {
				t.Fatalf("pool of %d, cells %d and %d, limit %v: priced %v (whole %v), setCost's change %v", size, c1, c2, limit, d, whole, want)
			}
			if rng.IntN(3) == 0 { // keep it
				sc.update(c1, c2)
			} else {
				sc.undo(c1, c2)
				cells[c1], cells[c2] = cells[c2], cells[c1]
			}
		}
		if near < 500 {
			t.Fatalf("pool of %d: only %d exchanges of neighbours", size, near)
		}
		got := make([]int, m)
		copy(got, cells)
		sc.pieces(got)
		if !slices.Equal(got, cells) {
			t.Fatalf("pool of %d: the copy holds another arrangement than the exchanges made", size)
		}
	}
}

// TestRefusedFrom: a change at refusedFrom(t) gives d/t ≥ 40, where
// metropolis refuses every draw but 0, at temperatures from 2⁻⁹⁰⁰ to 2¹⁰⁰⁰;
// below, at 0 and at NaN no change reaches it.
func TestRefusedFrom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for range 100000 {
		temp := math.Ldexp(1+rng.Float64(), rng.IntN(1900)-900)
		if d := refusedFrom(temp); d/temp < 40 || metropolis(d/temp, math.Nextafter(0, 1)) {
			t.Fatalf("t = %v: refusedFrom %v gives d/t = %v", temp, d, d/temp)
		}
	}
	for _, temp := range []float64{0, math.SmallestNonzeroFloat64, 0x1p-901, math.NaN()} {
		if d := refusedFrom(temp); d == d {
			t.Errorf("t = %v: refusedFrom %v, want NaN", temp, d)
		}
	}
}

// TestPCGRandLikeRand: pcgRand draws what rand.New on the same PCG draws,
// IntN and Float64 interleaved, for bounds of one, powers of two, small
// and large pool sizes, and bounds near 2⁶³ whose draws are often redrawn.
func TestPCGRandLikeRand(t *testing.T) {
	bounds := []int{1, 2, 3, 7, 64, 100, 513, 1000, 1 << 20, 3 << 40, math.MaxInt64/2 + 3, math.MaxInt64 - 1, math.MaxInt64}
	want, got := rand.New(rand.NewPCG(9, 10)), pcgRand{rand.NewPCG(9, 10)}
	for i := range 200000 {
		n := bounds[i%len(bounds)]
		if w, g := want.IntN(n), got.intN(n); w != g {
			t.Fatalf("draw %d: IntN(%d) = %d, intN %d", i, n, w, g)
		}
		if i%3 == 0 {
			if w, g := want.Float64(), got.float64(); w != g {
				t.Fatalf("draw %d: Float64 = %v, float64 %v", i, w, g)
			}
		}
	}
}

// exchange is seamCache.exchange priced from the matrices alone (setCost
// before and after): the plain reference the tests compare with.
func (a *assembly) exchange(cells []int, c1, c2 int, inSet []bool) float64 {
	pair := [2]int{c1, c2}
	inSet[c1], inSet[c2] = true, true
	before := a.setCost(cells, pair[:], inSet)
	cells[c1], cells[c2] = cells[c2], cells[c1]
	d := a.setCost(cells, pair[:], inSet) - before
	inSet[c1], inSet[c2] = false, false
	return d
}

// TestTouchingCost: the change in touchingCost over an exchange of two
// cells' pieces is the change in the whole arrangement's cost, for cells
// side by side, one above the other and apart.
func TestTouchingCost(t *testing.T) {
	const n = 5
	m := n * n
	rng := rand.New(rand.NewPCG(5, 6))
	cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
	for dir := range cm.d {
		for i := range cm.d[dir] {
			cm.d[dir][i] = rng.Float32()
		}
	}
	cells := rng.Perm(m)
	pairs := [][2]int{{6, 7}, {7, 6}, {6, 11}, {11, 6}, {0, 24}, {3, 4}, {20, 21}, {4, 9}, {12, 18}}
	for _, pq := range pairs {
		p, q := pq[0], pq[1]
		before := touchingCost(n, cm, cells, p, q)
		whole := fillingCost(n, cm.d[dirRight], cm.d[dirDown], cells)
		cells[p], cells[q] = cells[q], cells[p]
		after := touchingCost(n, cm, cells, p, q)
		change := fillingCost(n, cm.d[dirRight], cm.d[dirDown], cells) - whole
		if math.Abs(after-before-change) > 1e-4 {
			t.Errorf("cells %d and %d: touchingCost changes by %v, the arrangement by %v", p, q, after-before, change)
		}
	}
}

// TestExchangeAgreed: on 8×8 harbor-town's rect sheet, three pairs of
// pieces exchanged across the picture are put back, and the true
// arrangement is left as it is (no single exchange is cheaper by all four
// measures there).
func TestExchangeAgreed(t *testing.T) {
	const n = 8
	cm, ms, truth := rectMeasures(t, "harbor-town", n)
	byMGC := newAssembly(n, make([]puzzle.Sides, n*n), cm, false)
	cells := slices.Clone(truth)
	if exchangeAgreed(byMGC, ms, cells) {
		t.Fatalf("the true arrangement changed in %d cells", differ(cells, truth))
	}
	for _, pq := range [][2]int{{9, 54}, {20, 21}, {30, 38}} {
		cells[pq[0]], cells[pq[1]] = cells[pq[1]], cells[pq[0]]
	}
	if !exchangeAgreed(byMGC, ms, cells) || !slices.Equal(cells, truth) {
		t.Errorf("%d cells still wrong, want 0", countWrong(cells, truth))
	}
}

// TestLowerByWantsEveryMeasure: an exchange two measures price lower and a
// third higher is not lower by the three.
func TestLowerByWantsEveryMeasure(t *testing.T) {
	const n = 2
	m := n * n
	flat := func(v float32) *compatMatrix {
		cm := &compatMatrix{m: m, d: [2][]float32{make([]float32, m*m), make([]float32, m*m)}}
		for dir := range cm.d {
			for i := range cm.d[dir] {
				cm.d[dir][i] = v
			}
		}
		return cm
	}
	// Pieces 0 1 / 2 3; exchanging cells 0 and 1 makes the seam 1|0.
	cheap, dear := flat(1), flat(1)
	cheap.d[dirRight][1*m+0] = 0
	dear.d[dirRight][1*m+0] = 2
	cells := []int{1, 0, 2, 3} // exchanged already
	if !lowerBy(n, cells, 0, 1, []*compatMatrix{cheap, cheap}) {
		t.Error("an exchange both measures price lower is not lower by them")
	}
	if lowerBy(n, cells, 0, 1, []*compatMatrix{cheap, dear, cheap}) {
		t.Error("an exchange one measure prices higher is lower by all three")
	}
	if !slices.Equal(cells, []int{1, 0, 2, 3}) {
		t.Errorf("lowerBy left cells %v, want them as given", cells)
	}
}
