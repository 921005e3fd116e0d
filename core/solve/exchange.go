package solve

import (
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"
)

// Annealing the loose part of a rectangular sheet's answer. Above 16×16 the
// repaired answer is mostly one region joined by best-buddy seams, right
// inside, and the rest — low-texture parts, a sky, a blurred background — a
// scatter of small segments whose pieces the greedy and the repairs placed
// one by one. There the truth can cost far less than the answer although few
// of its seams are any piece's first choice (32×32 YellowFlower.jpg: the
// seams at its wrong cells 2,624 against 3,410; 35 of 137 true partners
// ranked first), so no move that takes one seam at a time gets there.
// Simulated annealing over exchanges of two pieces, among the cells outside
// the largest best-buddy region only (when that is under half the grid: an
// answer in fragments has no loose part to speak of), gets closer: it
// accepts a dearer exchange with probability exp(−Δ/T) while T cools, and
// the result is kept when the total cost fell. Rounds repeat while they
// lower it, each from the new largest region; the frame repair then runs
// once more. On the 32×32 rect table (docs/solver.md) Wood 0.883 → 0.921,
// YellowFlower 0.866 → 0.896, sunset-sea 0.713 → 0.744, for 0.1–0.5 s.

// annealRounds bounds the rounds; annealStepsPerCell × the pool's cells is
// the exchanges tried in one; the temperature falls geometrically from
// annealHot to annealCold times the typical seam's cost (the answer's mean).
const (
	annealRounds       = 3
	annealStepsPerCell = 4000
	annealHot          = 0.3
	annealCold         = 0.003
)

// anneal returns cells (a complete answer, cell → piece) improved as above.
func (a *assembly) anneal(cells []int) []int {
	return a.annealUnless(cells, nil)
}

// annealUnless is anneal, given up as soon as stop is set (its result then
// unfinished and not to be used).
func (a *assembly) annealUnless(cells []int, stop *stopFlag) []int {
	cells, changed := a.annealLooseUnless(cells, stop)
	if changed && !stop.stopped() {
		if try := a.reframe(slices.Clone(cells)); a.cost(try) < a.cost(cells)-1e-6 {
			cells = try
		}
	}
	return cells
}

// annealLoose is anneal without the frame repair after; it reports whether
// it changed cells.
func (a *assembly) annealLoose(cells []int) ([]int, bool) {
	return a.annealLooseUnless(cells, nil)
}

// annealLooseUnless is annealLoose, given up as soon as stop is set (cells
// then returned as they were, unchanged).
func (a *assembly) annealLooseUnless(cells []int, stop *stopFlag) ([]int, bool) {
	n, m := a.n, a.m
	rng := pcgRand{rand.NewPCG(uint64(m), 0x616e6e65616c)}
	cur := a.cost(cells)
	typical := cur / float64(2*n*(n-1))
	if !(typical > 0) {
		return cells, false // every seam free: nothing to anneal by
	}
	changed := false
	for range annealRounds {
		pool := a.loosePool(cells)
		if pool == nil {
			break
		}
		try := slices.Clone(cells)
		a.exchangeAnneal(try, pool, annealStepsPerCell*len(pool), annealHot*typical, annealCold*typical, rng, stop)
		if stop.stopped() {
			return cells, false
		}
		c := a.cost(try)
		if c >= cur-1e-6 {
			break
		}
		cells, cur = try, c
		changed = true
	}
	return cells, changed
}

// loosePool returns the cells an annealing round exchanges the pieces of:
// those outside the largest best-buddy region of cells, nil when they are
// fewer than two or more than half the grid.
func (a *assembly) loosePool(cells []int) []int {
	root, _, find := a.buddyComponents(cells, a.bestMatches())
	var pool []int
	for c := range a.m {
		if find(c) != find(root) {
			pool = append(pool, c)
		}
	}
	if len(pool) < 2 || 2*len(pool) > a.m {
		return nil
	}
	return pool
}

// annealStopEvery is how many exchanges an annealing makes between looks
// at its stop flag.
const annealStopEvery = 1 << 14

// exchangeAnneal anneals cells in place by exchanging the pieces of two
// cells of pool, steps times, from temperature hot down to cold; once stop
// is set it returns early, cells then unfinished.
func (a *assembly) exchangeAnneal(cells, pool []int, steps int, hot, cold float64, rng pcgRand, stop *stopFlag) {
	cool := math.Pow(cold/hot, 1/float64(steps))
	t := hot
	sc := a.newPoolSeamCache(cells, pool)
	for i := range steps {
		if i%annealStopEvery == 0 && stop.stopped() {
			return
		}
		t *= cool
		c1, c2 := pool[rng.intN(len(pool))], pool[rng.intN(len(pool))]
		if c1 == c2 {
			continue
		}
		// Where no seam costs less than 0 the pricing may stop once the
		// change reaches refusedFrom(t), where metropolis takes only the
		// draw u = 0 (priced whole then): the seams still unread would
		// only add to it.
		limit := math.NaN()
		if a.positive {
			limit = refusedFrom(t)
		}
		d, whole := sc.exchangeUnder(c1, c2, limit)
		if d > 0 {
			u := rng.float64()
			if !whole && u == 0 {
				d = sc.price(c1, c2) // the one draw it would take
			}
			if !whole && u != 0 || !metropolis(d/t, u) {
				sc.undo(c1, c2)
				continue
			}
		}
		sc.update(c1, c2)
	}
	sc.pieces(cells)
}

// pcgRand draws as rand.New(src)'s IntN and Float64 do, bit for bit, with
// the PCG called directly rather than through rand.Source: the annealing
// draws two or three numbers for each of its millions of exchanges
// (TestPCGRandLikeRand).
type pcgRand struct{ src *rand.PCG }

// intN is rand.Rand.IntN (n > 0): the high word of a draw times n, drawn
// again where the low word falls in the 2⁶⁴ mod n values that would bias it.
func (r pcgRand) intN(n int) int {
	u := uint64(n)
	if u&(u-1) == 0 {
		return int(r.src.Uint64() & (u - 1))
	}
	hi, lo := bits.Mul64(r.src.Uint64(), u)
	if lo < u {
		thresh := -u % u
		for lo < thresh {
			hi, lo = bits.Mul64(r.src.Uint64(), u)
		}
	}
	return int(hi)
}

// float64 is rand.Rand.Float64: 53 random bits over 2⁵³.
func (r pcgRand) float64() float64 { return float64(r.src.Uint64()<<11>>11) / (1 << 53) }

// seamCache prices exchanges of two cells' pieces in an arrangement. It
// holds the seam right of and below each cell (right[c], down[c]; 0 off the
// grid), kept in step with the exchanges by update, and reads the seams an
// exchange makes from costs between the pieces' ids in at (cell → id):
// the same float32 values setCost reads from the matrices, summed in the
// same order. Over a pool (newPoolSeamCache) the ids are the pool's pieces
// and those beside it, numbered afresh, and the costs between them copied
// into matrices of their own: exchangeAnneal reads millions of these seams
// at random, and a few hundred pieces' costs fit in a core's cache where
// rows spread over the whole n²×n² matrices do not (the 32×32 benchmark's
// annealing a quarter faster: docs/solver.md, "Large grids and speed").
type seamCache struct {
	n, k        int       // the grid's side; the cost matrices' (ids)
	pr, pd      []float32 // cost of id y right of / below id x at x*k+y
	at          []int     // cell → id
	id          []int     // id → piece (nil: the ids are the pieces)
	right, down []float32
	// around (a pool's copy only; nil otherwise) holds each cell's
	// neighbours right, below, left and above, cell n² standing for none:
	// at, right and down have an entry for that cell too, its id the last,
	// which costs 0 beside every other, and its seams 0 (see priceAround).
	around [][4]int32
}

// newSeamCache prices exchanges on cells itself: its ids are the pieces and
// at is cells, exchanged in place.
func (a *assembly) newSeamCache(cells []int) *seamCache {
	sc := &seamCache{n: a.n, k: a.m, pr: a.right, pd: a.down, at: cells}
	sc.fill()
	return sc
}

// poolSeamsMax is the most ids newPoolSeamCache copies the costs of (8 MB
// for both directions); over more it prices on the matrices themselves.
const poolSeamsMax = 1024

// newPoolSeamCache prices exchanges among the cells of pool on a copy of
// cells (in place over more than poolSeamsMax pieces), whose pieces
// pieces writes back.
func (a *assembly) newPoolSeamCache(cells, pool []int) *seamCache {
	n, m := a.n, a.m
	of := make([]int32, m) // piece → id + 1
	var id []int
	number := func(c int) {
		if x := cells[c]; of[x] == 0 {
			id = append(id, x)
			of[x] = int32(len(id))
		}
	}
	for _, c := range pool {
		number(c)
	}
	for _, c := range pool {
		r, col := c/n, c%n
		if col > 0 {
			number(c - 1)
		}
		if col+1 < n {
			number(c + 1)
		}
		if r > 0 {
			number(c - n)
		}
		if r+1 < n {
			number(c + n)
		}
	}
	if len(id) > poolSeamsMax {
		return a.newSeamCache(cells) // in place: pieces then copies cells onto itself
	}
	k := len(id) + 1 // and the id of no piece, last, whose costs stay 0
	sc := &seamCache{n: n, k: k, pr: make([]float32, k*k), pd: make([]float32, k*k), at: make([]int, m+1), id: id}
	for i, x := range id {
		for j, y := range id {
			sc.pr[i*k+j], sc.pd[i*k+j] = a.right[x*m+y], a.down[x*m+y]
		}
	}
	// Cells out of reach of the pool keep id −1: no exchange reads them.
	for c, x := range cells {
		sc.at[c] = int(of[x]) - 1
	}
	sc.at[m] = k - 1
	sc.fill()
	sc.around = make([][4]int32, m)
	for c := range m {
		r, col := c/n, c%n
		nb := [4]int32{int32(m), int32(m), int32(m), int32(m)}
		if col+1 < n {
			nb[0] = int32(c + 1)
		}
		if r+1 < n {
			nb[1] = int32(c + n)
		}
		if col > 0 {
			nb[2] = int32(c - 1)
		}
		if r > 0 {
			nb[3] = int32(c - n)
		}
		sc.around[c] = nb
	}
	return sc
}

// pieces writes the arrangement's pieces into cells.
func (sc *seamCache) pieces(cells []int) {
	if sc.id == nil {
		copy(cells, sc.at)
		return
	}
	for c, i := range sc.at[:len(cells)] {
		if i >= 0 {
			cells[c] = sc.id[i]
		}
	}
}

// fill reads the seams of every cell (and makes those of a pool's cell
// for none, 0).
func (sc *seamCache) fill() {
	sc.right, sc.down = make([]float32, len(sc.at)), make([]float32, len(sc.at))
	for c := range sc.n * sc.n {
		sc.set(c)
	}
}

// set reads the seams right of and below cell c from the costs, where
// both of their ids are known.
func (sc *seamCache) set(c int) {
	n, m, k, at := sc.n, sc.n*sc.n, sc.k, sc.at
	if c%n+1 < n && at[c] >= 0 && at[c+1] >= 0 {
		sc.right[c] = sc.pr[at[c]*k+at[c+1]]
	}
	if c+n < m && at[c] >= 0 && at[c+n] >= 0 {
		sc.down[c] = sc.pd[at[c]*k+at[c+n]]
	}
}

// update reads again the seams of cells c1 and c2, whose pieces changed.
func (sc *seamCache) update(c1, c2 int) {
	n := sc.n
	for _, c := range [2]int{c1, c2} {
		sc.set(c)
		if c%n > 0 {
			sc.set(c - 1)
		}
		if c >= n {
			sc.set(c - n)
		}
	}
}

// undo exchanges the pieces of c1 and c2 back.
func (sc *seamCache) undo(c1, c2 int) { sc.at[c1], sc.at[c2] = sc.at[c2], sc.at[c1] }

// exchangeUnder exchanges the pieces of cells c1 and c2 (c1 ≠ c2) and
// returns the change in the total cost (price), except that it may stop
// once the change reaches limit (whole is then false, and d at least
// limit), looked at after each seam of the sum after the exchange — which
// is the whole change's bound only where no seam costs less than 0 (else
// pass NaN, which no change reaches).
func (sc *seamCache) exchangeUnder(c1, c2 int, limit float64) (d float64, whole bool) {
	sc.at[c1], sc.at[c2] = sc.at[c2], sc.at[c1]
	return sc.priceUnder(c1, c2, limit)
}

// price is the change in the total cost that exchanging the pieces of
// cells c1 and c2 made (they are exchanged already): that of the seams
// touching either cell, before the exchange read from the cache and after
// it from the costs, each summed in setCost's order (so the change is
// setCost's to the bit). A seam between c1 and c2 is counted once, from
// the cell before it.
func (sc *seamCache) price(c1, c2 int) float64 {
	d, _ := sc.priceUnder(c1, c2, math.NaN())
	return d
}

// priceUnder is price with exchangeUnder's limit.
func (sc *seamCache) priceUnder(c1, c2 int, limit float64) (d float64, whole bool) {
	if sc.around != nil {
		return sc.priceAround(c1, c2, limit)
	}
	n, k, at := sc.n, sc.k, sc.at
	var before float64
	for j, c := range [2]int{c1, c2} {
		other := c2
		if j == 1 {
			other = c1
		}
		r := int(uint32(c) / uint32(n))
		col := c - r*n
		if col+1 < n {
			before += float64(sc.right[c])
		}
		if r+1 < n {
			before += float64(sc.down[c])
		}
		if col > 0 && c-1 != other {
			before += float64(sc.right[c-1])
		}
		if r > 0 && c-n != other {
			before += float64(sc.down[c-n])
		}
	}
	var after float64
	for j, c := range [2]int{c1, c2} {
		other := c2
		if j == 1 {
			other = c1
		}
		r := int(uint32(c) / uint32(n))
		col := c - r*n
		x := at[c]
		if col+1 < n {
			if after += float64(sc.pr[x*k+at[c+1]]); after-before >= limit {
				return after - before, false
			}
		}
		if r+1 < n {
			if after += float64(sc.pd[x*k+at[c+n]]); after-before >= limit {
				return after - before, false
			}
		}
		if col > 0 && c-1 != other {
			if after += float64(sc.pr[at[c-1]*k+x]); after-before >= limit {
				return after - before, false
			}
		}
		if r > 0 && c-n != other {
			if after += float64(sc.pd[at[c-n]*k+x]); after-before >= limit {
				return after - before, false
			}
		}
	}
	return after - before, true
}

// priceAround is priceUnder on a pool's copy. Every cell has its four
// neighbours in around, a missing one the cell whose seams and costs are
// 0, and adding 0 changes no sum: the seams are read as priceUnder reads
// them, in the same order, without asking where on the grid the cells are
// or dividing to find out. It looks at limit once, after c1's four seams:
// each look is a branch the processor cannot foresee, and reading c2's
// four costs less than a look that goes the other way. Stopping at
// another seam changes nothing but the time: a sum that has reached limit
// ends at or above it, where metropolis refuses every draw but 0 and the
// exchange is priced whole for that one (exchangeAnneal). On the 32×32
// benchmark's first annealing round a quarter faster (docs/solver.md,
// "Large grids and speed").
func (sc *seamCache) priceAround(c1, c2 int, limit float64) (d float64, whole bool) {
	k, at, right, down := sc.k, sc.at, sc.right, sc.down
	nb1, nb2 := &sc.around[c1], &sc.around[c2]
	var before float64
	before += float64(right[c1])
	before += float64(down[c1])
	if l := nb1[2]; int(l) != c2 {
		before += float64(right[l])
	}
	if u := nb1[3]; int(u) != c2 {
		before += float64(down[u])
	}
	before += float64(right[c2])
	before += float64(down[c2])
	if l := nb2[2]; int(l) != c1 {
		before += float64(right[l])
	}
	if u := nb2[3]; int(u) != c1 {
		before += float64(down[u])
	}
	var after float64
	x := at[c1]
	after += float64(sc.pr[x*k+at[nb1[0]]])
	after += float64(sc.pd[x*k+at[nb1[1]]])
	if l := nb1[2]; int(l) != c2 {
		after += float64(sc.pr[at[l]*k+x])
	}
	if u := nb1[3]; int(u) != c2 {
		after += float64(sc.pd[at[u]*k+x])
	}
	if after-before >= limit {
		return after - before, false
	}
	x = at[c2]
	after += float64(sc.pr[x*k+at[nb2[0]]])
	after += float64(sc.pd[x*k+at[nb2[1]]])
	if l := nb2[2]; int(l) != c1 {
		after += float64(sc.pr[at[l]*k+x])
	}
	if u := nb2[3]; int(u) != c1 {
		after += float64(sc.pd[at[u]*k+x])
	}
	return after - before, true
}

// refusedFrom is a change at or above which metropolis refuses an
// exchange at temperature t for every draw but u = 0: 40·t made a little
// larger, so that the quotient d/t, however it rounds, is at least 40.
// Below 2⁻⁹⁰⁰ (or at 0, or NaN) it is NaN, which no change reaches: near
// the subnormals the products lose the precision that argument needs.
func refusedFrom(t float64) float64 {
	if !(t >= 0x1p-900) {
		return math.NaN()
	}
	return 40 * t * (1 + 1e-12)
}

// metropolis reports whether a change costing x > 0 temperatures is
// accepted by the draw u (uniform on [0, 1) in steps of 2⁻⁵³, as
// rand.Float64's): when u < exp(−x). Beyond x = 40, exp(−x) is below 2⁻⁵³,
// so only u = 0 can be below it — the same answer without the exponential,
// which took 0.68 s of the annealing's 2.3 s in a profile of the rect 32×32
// benchmark. Below it, exp(x) ≥ 1 + x + x²/2 + x³/6 = p, so a draw with
// u·p over 1 by more than any rounding (the exponential is within an ulp)
// is above exp(−x) too: refused without the exponential, which then runs
// on 1,385 of the 199,426 draws under 40 of the benchmark's first round
// (it had been an eighth of the annealing's time in profiles).
func metropolis(x, u float64) bool {
	if x >= 40 {
		return u == 0 && math.Exp(-x) > 0
	}
	if p := 1 + x*(1+x*(0.5+x*(1.0/6))); u*p > 1+1e-9 {
		return false
	}
	return u < math.Exp(-x)
}

// exchangeAgreedRounds bounds exchangeAgreed's passes over the pairs.
const exchangeAgreedRounds = 4

// exchangeAgreed exchanges two pieces of a rect answer (cell → piece, in
// place) wherever MGC, the blend and both side means all price the
// exchange lower, pass after pass over every pair of cells while one
// changes something; it reports whether any did. The frame repair's swaps
// are MGC's alone and ran before the last refills; what those leave — a
// pair of pieces each in the other's cell along an edge the blend filled —
// every measure the solver has calls wrong (docs/solver.md, "Exchanges
// every measure agrees to").
func exchangeAgreed(byMGC *assembly, ms *measures, cells []int) bool {
	n, m := byMGC.n, byMGC.m
	others := ms.allFour(byMGC.matrix())[1:]
	sc := byMGC.newSeamCache(cells)
	limit := math.NaN() // MGC's pricing stops once the change cannot pass −10⁻⁶
	if byMGC.positive {
		limit = -1e-6
	}
	moved := false
	for range exchangeAgreedRounds {
		changed := false
		for p := range m {
			for q := p + 1; q < m; q++ {
				if d, _ := sc.exchangeUnder(p, q, limit); d < -1e-6 && lowerBy(n, cells, p, q, others) {
					sc.update(p, q)
					changed = true
				} else {
					sc.undo(p, q)
				}
			}
		}
		if !changed {
			break
		}
		moved = true
	}
	return moved
}

// lowerBy reports whether the seams touching cells p and q, whose pieces
// were just exchanged, cost less than before the exchange by each of by's
// measures; it leaves cells as it found them.
func lowerBy(n int, cells []int, p, q int, by []*compatMatrix) bool {
	for _, cm := range by {
		after := touchingCost(n, cm, cells, p, q)
		cells[p], cells[q] = cells[q], cells[p]
		before := touchingCost(n, cm, cells, p, q)
		cells[p], cells[q] = cells[q], cells[p]
		if after >= before-1e-6 {
			return false
		}
	}
	return true
}

// touchingCost is the cost by cm of the seams touching cell p or q, a seam
// between them counted once.
func touchingCost(n int, cm *compatMatrix, cells []int, p, q int) float64 {
	m := n * n
	right, down := cm.d[dirRight], cm.d[dirDown]
	var s float64
	for _, c := range [2]int{p, q} {
		r, col := c/n, c%n
		x := cells[c]
		if col+1 < n {
			s += float64(right[x*m+cells[c+1]])
		}
		if r+1 < n {
			s += float64(down[x*m+cells[c+n]])
		}
		if col > 0 && c-1 != p && c-1 != q {
			s += float64(right[cells[c-1]*m+x])
		}
		if r > 0 && c-n != p && c-n != q {
			s += float64(down[cells[c-n]*m+x])
		}
	}
	return s
}
