package solve

import (
	"math"
	mathbits "math/bits"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
)

// grow places pieces one at a time where the evidence is strongest, the
// greedy of Paikin and Tal (2015): of all the empty cells next to placed
// pieces, it fills the one whose best piece beats its second best by the
// widest margin — a best buddy of all its placed neighbours first. Textured
// regions are so placed before featureless ones, whatever their position.
// Without flat sides (rectangular sheets) nothing anchors the frame: the
// pieces grow from the surest one on a canvas with room in every direction,
// as long as their extent stays within n×n. On a shape sheet the flat sides
// placed so far fix the border lines (axisFrame) and the empty cells are
// left for growFramedFrom.
func (a *assembly) grow() []int {
	n, m := a.n, a.m
	size := 2*n - 1
	g := a.newGrower()
	g.put(n-1, n-1, g.seed())
	for k := g.count; k < m; k++ {
		slot, x := g.next()
		if slot < 0 {
			break
		}
		g.put(slot/size, slot%size, x)
	}
	return g.finish()
}

// newGrower is an empty canvas of 2n−1 × 2n−1 cells with the buddies found.
func (a *assembly) newGrower() *grower {
	size := 2*a.n - 1
	g := &grower{a: a, size: size, cell: make([]int, size*size), placed: make([]bool, a.m),
		best: make([]slotChoice, size*size), unplaced: make([]int, a.m), wanting: make([][]int, a.m),
		edge: make([]uint64, (size*size+63)/64)}
	for x := range g.unplaced {
		g.unplaced[x] = x
	}
	for i := range g.cell {
		g.cell[i] = -1
	}
	g.rmin, g.cmin, g.rmax, g.cmax = size, size, -1, -1
	g.rows, g.cols = newAxisFrame(), newAxisFrame()
	g.buddies()
	return g
}

type slotChoice struct {
	valid        bool
	piece        int
	cost, second float64
	buddy        bool
}

// offer makes piece x, at price d, the choice if it is cheaper (ties to
// the lower ID) and keeps the second best price.
func (ch *slotChoice) offer(x int, d float64, buddy bool) {
	switch {
	case d < ch.cost || d == ch.cost && x < ch.piece:
		ch.second = min(ch.second, ch.cost)
		ch.piece, ch.cost, ch.buddy = x, d, buddy
	case d < ch.second:
		ch.second = d
	}
}

type grower struct {
	a    *assembly
	size int
	// framed: the canvas is the grid itself (a shape sheet, whose flat
	// sides fix the frame); a piece goes only where its flat sides fit.
	framed bool
	// rows and cols: on a free canvas of a shape sheet, what the placed
	// flat sides say of where the grid's border lines are.
	rows, cols             axisFrame
	cell                   []int // canvas cell → piece or −1
	placed                 []bool
	unplaced               []int // the pieces not placed, in ID order
	count                  int
	rmin, cmin, rmax, cmax int
	best                   []slotChoice // cached per empty canvas cell
	wanting                [][]int      // per piece: the cells whose choice it was made
	// edge has a bit per canvas cell, set where the cell is empty and
	// next to a placed piece: the cells open may accept (see next).
	edge []uint64
	// bestRight[a] is the piece a prefers on its right, bestLeft[b] the
	// piece b prefers on its left, and so on: best buddies agree both ways.
	bestRight, bestLeft, bestDown, bestUp []int
	// leftOf[y] and above[y]: the columns y of right and down, copied on
	// first use where the assembly keeps no transposes (see column).
	leftOf, above [][]float32
}

// column is assembly.column with the copies kept per piece in *cache
// while the grower lives (a piece is beside many cells it chooses for).
func (g *grower) column(t, d []float32, y int, cache *[][]float32) []float32 {
	if t != nil {
		return g.a.column(t, d, y, nil)
	}
	if *cache == nil {
		*cache = make([][]float32, g.a.m)
	}
	if (*cache)[y] == nil {
		(*cache)[y] = g.a.column(nil, d, y, nil)
	}
	return (*cache)[y]
}

func argmin(m int, f func(i int) float32) int {
	best, v := -1, float32(math.Inf(1))
	for i := range m {
		if d := f(i); d < v {
			best, v = i, d
		}
	}
	return best
}

// buddies finds every piece's preferred neighbour in each direction.
func (g *grower) buddies() {
	b := g.a.bestMatches()
	g.bestRight, g.bestLeft, g.bestDown, g.bestUp = b.right, b.left, b.down, b.up
}

// seed is the piece with the most best buddies (a textured spot): where a
// rectangular sheet starts growing.
func (g *grower) seed() int {
	best, most := 0, -1
	for x := range g.a.m {
		k := 0
		if y := g.bestRight[x]; y >= 0 && g.bestLeft[y] == x {
			k++
		}
		if y := g.bestLeft[x]; y >= 0 && g.bestRight[y] == x {
			k++
		}
		if y := g.bestDown[x]; y >= 0 && g.bestUp[y] == x {
			k++
		}
		if y := g.bestUp[x]; y >= 0 && g.bestDown[y] == x {
			k++
		}
		if k > most {
			best, most = x, k
		}
	}
	return best
}

func (g *grower) put(r, c, x int) {
	if !g.framed && g.a.shaped {
		f := sigFlats(g.a.sides[x])
		g.rows.add(r, f[0], f[2])
		g.cols.add(c, f[3], f[1])
	}
	g.cell[r*g.size+c] = x
	g.edge[(r*g.size+c)/64] &^= 1 << ((r*g.size + c) % 64)
	g.placed[x] = true
	if i, ok := slices.BinarySearch(g.unplaced, x); ok {
		g.unplaced = slices.Delete(g.unplaced, i, i+1)
	}
	g.count++
	extent := [4]int{g.rmin, g.rmax, g.cmin, g.cmax}
	g.rmin, g.rmax = min(g.rmin, r), max(g.rmax, r)
	g.cmin, g.cmax = min(g.cmin, c), max(g.cmax, c)
	grew := extent != [4]int{g.rmin, g.rmax, g.cmin, g.cmax}
	// The choices of the cells around change, and of every cell that
	// wanted x (those listed in wanting[x] that still do).
	for _, i := range g.wanting[x] {
		if g.best[i].valid && g.best[i].piece == x {
			g.best[i].valid = false
		}
	}
	g.wanting[x] = g.wanting[x][:0]
	for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		if rr, cc := r+d[0], c+d[1]; rr >= 0 && cc >= 0 && rr < g.size && cc < g.size {
			i := rr*g.size + cc
			g.best[i].valid = false
			if g.cell[i] < 0 {
				g.edge[i/64] |= 1 << (i % 64)
			}
		}
	}
	if grew {
		// The extent changed: cells beyond it may have become impossible.
		for i := range g.best {
			g.best[i].valid = false
		}
	}
}

// open reports whether canvas cell (r, c) can take a piece at all: empty,
// next to a placed piece, and keeping the extent within n×n.
func (g *grower) open(r, c int) bool {
	s, n := g.size, g.a.n
	if g.cell[r*s+c] >= 0 {
		return false
	}
	if g.framed {
		return g.at(r-1, c) >= 0 || g.at(r+1, c) >= 0 || g.at(r, c-1) >= 0 || g.at(r, c+1) >= 0
	}
	if max(g.rmax, r)-min(g.rmin, r) >= n || max(g.cmax, c)-min(g.cmin, c) >= n {
		return false
	}
	return g.at(r-1, c) >= 0 || g.at(r+1, c) >= 0 || g.at(r, c-1) >= 0 || g.at(r, c+1) >= 0
}

// price is the mean dissimilarity of x at canvas cell (r, c) with its
// placed neighbours and whether it is every such neighbour's best buddy;
// ok is false when the cell has no placed neighbour.
func (g *grower) price(r, c, x int) (cost float64, buddy, ok bool) {
	a, m := g.a, g.a.m
	var sum float64
	k := 0
	buddy = true
	add := func(v float32, mutual bool) {
		sum += float64(v)
		k++
		buddy = buddy && mutual
	}
	if y := g.at(r, c-1); y >= 0 {
		add(a.right[y*m+x], g.bestRight[y] == x && g.bestLeft[x] == y)
	}
	if y := g.at(r, c+1); y >= 0 {
		add(a.right[x*m+y], g.bestRight[x] == y && g.bestLeft[y] == x)
	}
	if y := g.at(r-1, c); y >= 0 {
		add(a.down[y*m+x], g.bestDown[y] == x && g.bestUp[x] == y)
	}
	if y := g.at(r+1, c); y >= 0 {
		add(a.down[x*m+y], g.bestDown[x] == y && g.bestUp[y] == x)
	}
	if k == 0 {
		return 0, false, false
	}
	return sum / float64(k), buddy, true
}

// at is the piece on canvas cell (r, c), or −1 (empty or off the canvas).
func (g *grower) at(r, c int) int {
	if r < 0 || c < 0 || r >= g.size || c >= g.size {
		return -1
	}
	return g.cell[r*g.size+c]
}

// choose computes the best and second best piece for canvas cell i. On a
// shape sheet only the signatures that interlock with the placed
// neighbours are scanned (a quarter of the pieces or fewer once a neighbour
// is placed); ties go to the lower ID, as in a scan of every piece.
func (g *grower) choose(i int) slotChoice {
	r, c := i/g.size, i%g.size
	ch := slotChoice{valid: true, piece: -1, cost: math.Inf(1), second: math.Inf(1)}
	var flats [4]bool
	if g.framed {
		flats = cellFlats(g.a.n, r, c)
	}
	free := !g.framed && g.a.shaped
	try := func(x int) {
		if g.placed[x] || g.framed && sigFlats(g.a.sides[x]) != flats {
			return
		}
		if free {
			f := sigFlats(g.a.sides[x])
			if !g.rows.fits(g.a.n, r, g.rmin, g.rmax, f[0], f[2]) || !g.cols.fits(g.a.n, c, g.cmin, g.cmax, f[3], f[1]) {
				return
			}
		}
		d, buddy, ok := g.price(r, c, x)
		if !ok || math.IsInf(d, 1) {
			return
		}
		ch.offer(x, d, buddy)
	}
	if !g.a.shaped && !g.framed {
		g.chooseAny(r, c, &ch)
		return ch
	}
	if !g.a.shaped {
		for x := range g.a.m {
			try(x)
		}
		return ch
	}
	for _, code := range g.fitting(r, c) {
		for _, x := range g.a.byCode[code] {
			try(x)
		}
	}
	return ch
}

// chooseAny is choose's scan of every piece on a rectangular sheet, with
// the placed neighbours of (r, c) looked up once: each piece's price is
// price's, summed in the same order, so the choice is the same.
func (g *grower) chooseAny(r, c int, ch *slotChoice) {
	a, m := g.a, g.a.m
	// Neighbour i's seam with x is vals[i][x]; x is its best buddy when
	// pref[i] == x and back[i][x] == ys[i]. Every row is read in order (a
	// column of the matrix as a row of its transpose, columns).
	var vals [4][]float32
	var back [4][]int
	var ys, pref [4]int
	k := 0
	add := func(v []float32, y int, from, to []int) {
		vals[k], back[k], ys[k], pref[k] = v[:m], to[:m], y, from[y]
		k++
	}
	if y := g.at(r, c-1); y >= 0 {
		add(a.right[y*m:], y, g.bestRight, g.bestLeft)
	}
	leftOf, above := a.columns()
	if y := g.at(r, c+1); y >= 0 {
		add(g.column(leftOf, a.right, y, &g.leftOf), y, g.bestLeft, g.bestRight)
	}
	if y := g.at(r-1, c); y >= 0 {
		add(a.down[y*m:], y, g.bestDown, g.bestUp)
	}
	if y := g.at(r+1, c); y >= 0 {
		add(g.column(above, a.down, y, &g.above), y, g.bestUp, g.bestDown)
	}
	if k == 0 {
		return
	}
	// Only pref[0] can be every neighbour's best buddy: buddy is the piece
	// that is, or −1.
	buddy := pref[0]
	for i := range k {
		if buddy < 0 || pref[i] != buddy || back[i][buddy] != ys[i] {
			buddy = -1
			break
		}
	}
	// The sum from 0 in the neighbours' order, one loop per count of them.
	// The mean: over 1, 2 or 4 a product by the inverse, a power of two,
	// is the quotient to the bit, and a division costs several.
	fk, inv, byInverse := float64(k), 1/float64(k), k != 3
	v0, v1, v2, v3 := vals[0], vals[1], vals[2], vals[3]
	offer := func(x int, sum float64) {
		d := sum * inv
		if !byInverse {
			d = sum / fk
		}
		if !math.IsInf(d, 1) {
			ch.offer(x, d, x == buddy)
		}
	}
	// As every piece in order, the placed skipped.
	switch k {
	case 1:
		for _, x := range g.unplaced {
			offer(x, 0+float64(v0[x]))
		}
	case 2:
		for _, x := range g.unplaced {
			offer(x, 0+float64(v0[x])+float64(v1[x]))
		}
	case 3:
		for _, x := range g.unplaced {
			offer(x, 0+float64(v0[x])+float64(v1[x])+float64(v2[x]))
		}
	default:
		for _, x := range g.unplaced {
			offer(x, 0+float64(v0[x])+float64(v1[x])+float64(v2[x])+float64(v3[x]))
		}
	}
}

// fitting lists the signature codes a piece at canvas cell (r, c) may have
// given the placed neighbours' sides (and, framed, the grid's border).
func (g *grower) fitting(r, c int) []int {
	var allowed [4][]puzzle.Side
	any := []puzzle.Side{puzzle.Flat, puzzle.Tab, puzzle.Blank}
	near := [4][2]int{{r - 1, c}, {r, c + 1}, {r + 1, c}, {r, c - 1}} // top, right, bottom, left
	facing := [4]int{puzzle.Bottom, puzzle.Left, puzzle.Top, puzzle.Right}
	var flats [4]bool
	if g.framed {
		flats = cellFlats(g.a.n, r, c)
	}
	for side, p := range near {
		switch y := g.at(p[0], p[1]); {
		case y >= 0:
			allowed[side] = []puzzle.Side{opposite(g.a.sides[y][facing[side]])}
		case g.framed:
			allowed[side] = freeSides(flats[side])
		default:
			allowed[side] = any
		}
	}
	var codes []int
	for _, t := range allowed[0] {
		for _, rt := range allowed[1] {
			for _, b := range allowed[2] {
				for _, l := range allowed[3] {
					codes = append(codes, sigCode(puzzle.Sides{t, rt, b, l}))
				}
			}
		}
	}
	return codes
}

// next returns the cell to fill and its piece: best buddies first, then the
// widest margin over the second best; −1 when no open cell has a piece.
func (g *grower) next() (int, int) {
	bestSlot, bestPiece := -1, -1
	bestBuddy, bestConf := false, math.Inf(-1)
	// An open cell is empty and touches a placed piece: only the cells
	// marked in edge are looked at, in the canvas's order.
	s := g.size
	for w, word := range g.edge {
		for ; word != 0; word &= word - 1 {
			i := w*64 + mathbits.TrailingZeros64(word)
			if !g.open(i/s, i%s) {
				continue
			}
			if !g.best[i].valid {
				g.best[i] = g.choose(i)
				if x := g.best[i].piece; x >= 0 {
					g.wanting[x] = append(g.wanting[x], i)
				}
			}
			ch := g.best[i]
			if ch.piece < 0 {
				continue
			}
			conf := 1 - ch.cost/(ch.second+1e-6)
			if math.IsInf(ch.second, 1) {
				conf = 1
			}
			if ch.buddy && !bestBuddy || ch.buddy == bestBuddy && conf > bestConf {
				bestSlot, bestPiece, bestBuddy, bestConf = i, ch.piece, ch.buddy, conf
			}
		}
	}
	return bestSlot, bestPiece
}

// finish maps the canvas to the grid (cell → piece) and, on a rectangular
// sheet, puts any piece left over into the empty cells (−1 on a shape sheet).
func (g *grower) finish() []int {
	n, s := g.a.n, g.size
	// An extent short of n (not expected) is padded at the far side.
	r0, c0 := min(g.rmin, s-n), min(g.cmin, s-n)
	cells := make([]int, n*n)
	var left []int
	for x := range g.a.m {
		if !g.placed[x] {
			left = append(left, x)
		}
	}
	for r := range n {
		for c := range n {
			x := g.cell[(r+r0)*s+c+c0]
			if x < 0 && !g.a.shaped { // a shape sheet's gaps are growFramedFrom's
				x, left = left[0], left[1:]
			}
			cells[r*n+c] = x
		}
	}
	return cells
}

// growFramed is grow for a shape sheet: the flat sides fix the frame, so the
// canvas is the grid, the four corner pieces start in their corners, and a
// piece goes only to a cell its flat sides fit, interlocking with the
// pieces placed around it. Where no unplaced piece fits a cell (the greedy
// can paint itself into such a corner) the cell is left; the pieces left
// over then take the empty cells by exact assignment (fillGaps) and
// misfits are exchanged away where an exchange lowers the cost
// (repairMisfits). The cheapest of that and a second start (below) is then
// grown again from its largest best-buddy region while that lowers the
// cost, as regrow does for rectangular sheets: a region the greedy grew
// from the wrong side, right inside but misplaced as a block, is dropped
// whole and grown again from where the surer part ends.
func (a *assembly) growFramed() []int {
	cells := a.growFramedFrom(nil)
	// A second start: corners in a featureless sky are a poor one. It is
	// the largest segment that merging the surest seams builds
	// (segments.go), placed where its flat sides put it: cheaper than the
	// greedy from the surest piece on a free canvas, its frame set by the
	// flat sides as they are placed, and on the 64×64 photographs cheaper
	// in cost too (Garden, Aqua; on Dune the corners win either way). Up to
	// 32×32 the greedy from the surest piece is tried as well, and kept
	// unless the segment's start costs less (on 32×32 moonlit-bay, whose
	// corners are flat sky and still water, it does: PA 0.68 → 0.73).
	other := a.growFramedFrom(a.mergeSegments().largestFramed())
	if a.n <= shapeBeamMax {
		if free := a.growFramedFrom(a.grow()); penalisedCost(a.n, a.right, a.down, free) <= penalisedCost(a.n, a.right, a.down, other) {
			other = free
		}
	}
	if a.n > shapeBeamMax {
		// Where the two starts agree they are all but always right (on
		// Garden 2,545 of the 2,668 cells they agree on): grown from those
		// cells alone, each start's own misplaced regions go.
		agreed := make([]int, len(cells))
		for c, x := range cells {
			agreed[c] = -1
			if other[c] == x {
				agreed[c] = x
			}
		}
		if again := a.growFramedFrom(agreed); penalisedCost(a.n, a.right, a.down, again) < penalisedCost(a.n, a.right, a.down, other) {
			other = again
		}
	}
	if penalisedCost(a.n, a.right, a.down, other) < penalisedCost(a.n, a.right, a.down, cells) {
		cells = other
	}
	best := a.bestMatches()
	for round := 0; round < regrowRounds; round++ {
		keep := a.buddyRegion(cells, best)
		if keep == nil {
			break
		}
		cand := a.growFramedFrom(keep)
		if penalisedCost(a.n, a.right, a.down, cand) >= penalisedCost(a.n, a.right, a.down, cells)-1e-6 {
			break
		}
		cells = cand
	}
	return cells
}

// regrowRounds bounds how often growFramed grows again from the largest
// best-buddy region (each round costs one greedy).
const regrowRounds = 3

// growFramedFrom grows a framed canvas from the four corner pieces and,
// when keep is not nil, the pieces of the cells keep marks, where cells
// has them.
func (a *assembly) growFramedFrom(keep []int) []int {
	n, m := a.n, a.m
	g := &grower{a: a, size: n, framed: true, cell: make([]int, m), placed: make([]bool, m),
		best: make([]slotChoice, m), unplaced: make([]int, m), wanting: make([][]int, m),
		edge: make([]uint64, (m+63)/64)}
	for i := range g.cell {
		g.cell[i] = -1
	}
	for x := range g.unplaced {
		g.unplaced[x] = x
	}
	g.buddies()
	for c, x := range keep {
		if x >= 0 {
			g.put(c/n, c%n, x)
		}
	}
	for x := range m {
		if g.placed[x] {
			continue
		}
		f := sigFlats(a.sides[x])
		for _, corner := range [4][2]int{{0, 0}, {0, n - 1}, {n - 1, 0}, {n - 1, n - 1}} {
			if f == cellFlats(n, corner[0], corner[1]) && g.at(corner[0], corner[1]) < 0 {
				g.put(corner[0], corner[1], x)
			}
		}
	}
	for g.count < m {
		slot, x := g.next()
		if slot < 0 {
			break
		}
		g.put(slot/n, slot%n, x)
	}
	a.fillGaps(g.cell, g.placed)
	a.repairMisfits(g.cell)
	return g.cell
}

// buddyRegion returns cells with only the largest region of cells joined
// by best-buddy seams kept (the others −1), or nil when that region is all
// or nothing: the part of a greedy arrangement its own evidence vouches for.
func (a *assembly) buddyRegion(cells []int, best *matches) []int {
	n := a.n
	root, size, find := a.buddyComponents(cells, best)
	if size == n*n || size < 2 {
		return nil
	}
	keep := make([]int, n*n)
	for c, x := range cells {
		keep[c] = -1
		if find(c) == root {
			keep[c] = x
		}
	}
	return keep
}

// gapPenalty prices a pair that shape forbids where one cannot be avoided:
// as dear as the dearest seam (every sample missing, see mgc).
const gapPenalty = 2 * missingPenalty

// fillGaps puts the unplaced pieces into the empty cells (−1) of cells by
// an exact assignment on their dissimilarities with the placed neighbours,
// a forbidden pair or a misfit flat side costing gapPenalty.
func (a *assembly) fillGaps(cells []int, placed []bool) {
	n, m := a.n, a.m
	var empty, left []int
	for c, x := range cells {
		if x < 0 {
			empty = append(empty, c)
		}
	}
	for x := range m {
		if !placed[x] {
			left = append(left, x)
		}
	}
	if len(empty) == 0 {
		return
	}
	cost := make([][]float64, len(left))
	for i, x := range left {
		cost[i] = make([]float64, len(empty))
		for j, c := range empty {
			r, col := c/n, c%n
			var d float64
			if sigFlats(a.sides[x]) != cellFlats(n, r, col) {
				d += 4 * gapPenalty
			}
			cost[i][j] = d + a.seamsAt(cells, c, x, gapPriced)
		}
	}
	for i, j := range assign(cost) {
		cells[empty[j]] = left[i]
	}
}

// repairMisfits exchanges pieces between a cell that does not interlock
// with a neighbour (or whose flat sides do not fit it) and any other cell
// while that lowers the penalised cost (penalisedCost, flat misfits at
// 4·gapPenalty), a few rounds; it returns the misfit pairs left.
func (a *assembly) repairMisfits(cells []int) int {
	n, m := a.n, a.m
	pair := func(p, q int) float64 { // p left of or above q
		v := a.down[cells[p]*m+cells[q]]
		if q == p+1 {
			v = a.right[cells[p]*m+cells[q]]
		}
		if math.IsInf(float64(v), 1) {
			return gapPenalty
		}
		return float64(v)
	}
	at := func(c int) float64 { // everything that touches cell c
		sum := aroundCell(n, c, pair)
		if sigFlats(a.sides[cells[c]]) != cellFlats(n, c/n, c%n) {
			sum += 4 * gapPenalty
		}
		return sum
	}
	local := func(p, q int) float64 {
		sum := at(p) + at(q)
		if q == p+1 && q%n != 0 || q == p+n {
			sum -= pair(p, q)
		} else if p == q+1 && p%n != 0 || p == q+n {
			sum -= pair(q, p)
		}
		return sum
	}
	badCells := func() []int {
		var bad []int
		for c := range cells {
			if at(c) >= gapPenalty {
				bad = append(bad, c)
			}
		}
		return bad
	}
	for round := 0; round < 4; round++ {
		bad := badCells()
		if len(bad) == 0 {
			return 0
		}
		moved := false
		for _, p := range bad {
			if at(p) < gapPenalty {
				continue // fixed by an earlier exchange
			}
			bestQ, bestGain := -1, 1e-6
			for q := range cells {
				if q == p {
					continue
				}
				before := local(p, q)
				cells[p], cells[q] = cells[q], cells[p]
				if gain := before - local(p, q); gain > bestGain {
					bestQ, bestGain = q, gain
				}
				cells[p], cells[q] = cells[q], cells[p]
			}
			if bestQ >= 0 {
				cells[p], cells[bestQ] = cells[bestQ], cells[p]
				moved = true
			}
		}
		if !moved {
			break
		}
	}
	return misfits(n, a.right, a.down, cells)
}

// misfits counts the neighbour pairs of cells that shape forbids.
func misfits(n int, right, down []float32, cells []int) int {
	m := n * n
	var k int
	for c := range cells {
		if c%n+1 < n && math.IsInf(float64(right[cells[c]*m+cells[c+1]]), 1) {
			k++
		}
		if c+n < m && math.IsInf(float64(down[cells[c]*m+cells[c+n]]), 1) {
			k++
		}
	}
	return k
}

// axisFrame is what the flat sides placed on a free canvas say about one
// axis (rows: top and bottom; columns: left and right): the canvas line of
// the low and the high border (−1 while no piece with that flat side is
// placed) and the extreme lines of the pieces without it.
type axisFrame struct {
	low, high             int
	minNotLow, maxNotHigh int
}

func newAxisFrame() axisFrame {
	return axisFrame{low: -1, high: -1, minNotLow: math.MaxInt, maxNotHigh: math.MinInt}
}

func (f *axisFrame) add(v int, low, high bool) {
	if low {
		f.low = v
	} else {
		f.minNotLow = min(f.minNotLow, v)
	}
	if high {
		f.high = v
	} else {
		f.maxNotHigh = max(f.maxNotHigh, v)
	}
}

// fits reports whether a piece with (low, high) flat sides may go to line
// v, the placed pieces spanning lines vmin…vmax of an n-line grid: a low
// border piece on the lowest line, none other on it, n−1 lines from the
// high border; a piece without the flat side off the border line and never
// where the extent would make it the border.
func (f *axisFrame) fits(n, v, vmin, vmax int, low, high bool) bool {
	lo, hi := min(vmin, v), max(vmax, v)
	if low {
		if v > vmin || v >= f.minNotLow || f.low >= 0 && v != f.low || f.high >= 0 && f.high-v != n-1 {
			return false
		}
	} else if v == f.low || hi-v >= n-1 {
		return false
	}
	if high {
		if v < vmax || v <= f.maxNotHigh || f.high >= 0 && v != f.high || f.low >= 0 && v-f.low != n-1 {
			return false
		}
	} else if v == f.high || v-lo >= n-1 {
		return false
	}
	return true
}

// reassign places the pieces of each signature again by exact assignment
// over the cells that signature holds, each piece priced by the seams it
// would have with the current neighbours there: exchanging pieces of one
// signature keeps every shape constraint, and in a region where seams
// say little a whole class of look-alikes moves at once, which pairwise
// exchanges (improve) cannot. A class's new placement is kept only if it
// lowers the total cost; it runs until a round changes nothing.
func (a *assembly) reassign(cells []int) {
	n := a.n
	byCode := [81][]int{} // signature → cells holding it
	for c, x := range cells {
		code := sigCode(a.sides[x])
		byCode[code] = append(byCode[code], c)
	}
	at := func(c, x int) float64 { // x at cell c, its neighbours as they are
		return a.seamsAt(cells, c, x, gapPriced)
	}
	total := penalisedCost(n, a.right, a.down, cells)
	for round := 0; round < 4; round++ {
		changed := false
		for _, cs := range byCode {
			if len(cs) < 2 {
				continue
			}
			pieces := make([]int, len(cs))
			for i, c := range cs {
				pieces[i] = cells[c]
			}
			cost := make([][]float64, len(cs))
			for i, x := range pieces {
				cost[i] = make([]float64, len(cs))
				for j, c := range cs {
					cost[i][j] = at(c, x)
				}
			}
			to := assign(cost)
			for i, j := range to {
				cells[cs[j]] = pieces[i]
			}
			if t := penalisedCost(n, a.right, a.down, cells); t < total-1e-6 {
				total, changed = t, true
			} else {
				for i, c := range cs {
					cells[c] = pieces[i]
				}
			}
		}
		if !changed {
			break
		}
	}
}
