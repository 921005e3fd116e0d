package solve

import (
	"cmp"
	"math"
	"slices"
)

// Frame repair for rectangular sheets. Without flat sides nothing marks the
// image border, and a greedy or row-by-row placement can be right but for
// where it wraps: the true right-hand column placed on the left, part of a
// row one cell over. The border is where pieces have no good continuation,
// so the frame is decided globally, on the whole arrangement's cost: the
// column order is the cheapest path through the columns (the ends of the
// path are the image's left and right edges, a wrap costs what its seam
// costs), the same for rows, then segments of rows and columns are rotated
// by one cell, bands and corner blocks turned round their wrap (bands.go,
// up to 16×16) and single pieces exchanged, each move kept only when it lowers
// the total dissimilarity, until none does; then whole segments move where
// their border buddies agree (segmove.go) and the round begins again.

// reframe repairs cells (cell → piece) in place as above and returns it.
func (a *assembly) reframe(cells []int) []int {
	best := a.bestMatches()
	shifts, swaps := &shiftMemo{}, &swapMemo{}
	for round := 0; round < 2; round++ {
		for range 4 {
			moved := a.shiftFrame(cells)
			moved = a.orderLines(cells, false) || moved
			moved = a.orderLines(cells, true) || moved
			moved = a.rotateBlocks(cells, best, shifts) || moved
			moved = a.rotateBands(cells) || moved
			moved = a.swapBlocks(cells, best, swaps) || moved
			if !moved || a.n <= reframeAllMax {
				// Above 16×16 the exact reassignment, the dearest small
				// move, only where the others are stuck: on the 78 32×32
				// rect instances it won 77 of 75,747 regions tried, at
				// about 4 ms a call (docs/solver.md, "Large grids and
				// speed").
				moved = a.reassignDoubtful(cells, best) || moved
			}
			if !moved {
				// Segment moves only from where the smaller moves are
				// stuck: so they cannot lead those astray.
				moved = a.moveSegments(cells, best)
			}
			if !moved {
				break
			}
		}
		if !a.regrow(cells, best) {
			break
		}
	}
	return cells
}

// orderLines reorders whole columns (rows if byRow) of cells along the
// cheapest path through them, by moving blocks of consecutive lines to other
// positions while that lowers the cost; it reports whether it moved any.
// Moving columns leaves every vertical pair as it is, so the cost that can
// change is the sum of the seams between neighbouring columns.
func (a *assembly) orderLines(cells []int, byRow bool) bool {
	n := a.n
	seam := a.lineSeams(cells, byRow)
	order := make([]int, n) // position → original line
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
	// gain is what moving block to position to of rest would save: three
	// seams out, three in. Only a move that saves within pathFilter of the
	// 1e-6 a move must save, or more, is priced as a whole path: summed in
	// another order the same seams differ by rounding alone, far under
	// pathFilter for float64 sums of a path's few dozen line seams, so the
	// moves made are those made when every move was priced so.
	seamOf := func(i, j int) float64 {
		if i < 0 || j < 0 {
			return 0
		}
		return seam[i*n+j]
	}
	gain := func(block, rest []int, from, to int) float64 {
		before, after := -1, -1 // the lines around block now
		if from > 0 {
			before = rest[from-1]
		}
		if from < len(rest) {
			after = rest[from]
		}
		left, right := -1, -1 // around its new position
		if to > 0 {
			left = rest[to-1]
		}
		if to < len(rest) {
			right = rest[to]
		}
		first, last := block[0], block[len(block)-1]
		return seamOf(before, first) + seamOf(last, after) + seamOf(left, right) -
			seamOf(before, after) - seamOf(left, first) - seamOf(last, right)
	}
	const pathFilter = 1e-7
	moved := false
	cur := pathCost(order)
	trial := make([]int, 0, n)
	rest := make([]int, 0, n)
	for improved := true; improved; {
		improved = false
		for length := 1; length < n; length++ {
			for from := 0; from+length <= n; from++ {
				block := order[from : from+length]
				rest = append(append(rest[:0], order[:from]...), order[from+length:]...)
				for to := 0; to <= len(rest); to++ {
					if to == from || gain(block, rest, from, to) <= 1e-6-pathFilter {
						continue
					}
					trial = append(append(append(trial[:0], rest[:to]...), block...), rest[to:]...)
					if c := pathCost(trial); c < cur-1e-6 {
						copy(order, trial)
						cur, improved, moved = c, true, true
						block = order[from : from+length]
						rest = append(append(rest[:0], order[:from]...), order[from+length:]...)
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

// lineSeams returns seam[i·n+j], the cost of column j right after column i
// of cells (row j below row i if byRow): what orderLines orders by.
func (a *assembly) lineSeams(cells []int, byRow bool) []float64 {
	n, m := a.n, a.m
	at := func(line, k int) int { // k-th piece of line
		if byRow {
			return cells[line*n+k]
		}
		return cells[k*n+line]
	}
	pair := a.right
	if byRow {
		pair = a.down
	}
	// Each row of pair is read n times in a row (k outer, j inner): a
	// page and its cache lines at a time rather than n rows in turn. Each
	// sum still adds its terms in k's order.
	seam := make([]float64, n*n)
	for i := range n {
		sum := seam[i*n : (i+1)*n]
		for k := range n {
			row := pair[at(i, k)*m : (at(i, k)+1)*m]
			for j := range n {
				sum[j] += float64(row[at(j, k)])
			}
		}
		sum[i] = 0
	}
	return seam
}

// placeLines puts the columns (rows if byRow) of cells in order: position
// p gets the line that was order[p].
func placeLines(n int, cells, order []int, byRow bool) {
	old := slices.Clone(cells)
	for pos, line := range order {
		for k := range n {
			if byRow {
				cells[pos*n+k] = old[line*n+k]
			} else {
				cells[k*n+pos] = old[k*n+line]
			}
		}
	}
}

// maxFrameShift is the most lines shiftFrame wraps from one side of the
// grid to the other at once.
const maxFrameShift = 2

// shiftFrame tries moving the last s rows (or columns) to the front, or the
// first s to the back, for s up to maxFrameShift, as when the true border
// line was placed on the wrong side of the grid. The moved lines' pieces are
// placed again by exact assignment, line by line from the one next to the
// unmoved part outwards, each cell priced by its one fixed neighbour. The
// cheapest such arrangement replaces cells if it is cheaper; shiftFrame
// reports whether it did.
func (a *assembly) shiftFrame(cells []int) bool {
	n, m := a.n, a.m
	best, bestCost := []int(nil), a.cost(cells)
	for _, byRow := range [2]bool{true, false} {
		idx := func(line, k int) int {
			if byRow {
				return line*n + k
			}
			return k*n + line
		}
		// priced(x, k, nb, after): x at position k of a line whose fixed
		// neighbour line holds nb at k, after (below / right of) it or not.
		price := func(x, nb int, after bool) float64 {
			pair := a.right
			if byRow {
				pair = a.down
			}
			if after {
				return float64(pair[nb*m+x])
			}
			return float64(pair[x*m+nb])
		}
		for _, toFront := range [2]bool{true, false} {
			for s := 1; s <= min(maxFrameShift, n-1); s++ {
				cand := make([]int, len(cells))
				d := s
				if !toFront {
					d = n - s
				}
				for line := range n {
					for k := range n {
						cand[idx((line+d)%n, k)] = cells[idx(line, k)]
					}
				}
				// The wrapped lines, from the unmoved part outwards.
				var pool []int
				lines := make([]int, s)
				for i := range s {
					if toFront {
						lines[i] = s - 1 - i
					} else {
						lines[i] = n - s + i
					}
					for k := range n {
						pool = append(pool, cand[idx(lines[i], k)])
					}
				}
				for _, line := range lines {
					nbLine, after := line+1, false
					if !toFront {
						nbLine, after = line-1, true
					}
					cost := make([][]float64, n)
					for k := range n {
						nb := cand[idx(nbLine, k)]
						cost[k] = make([]float64, len(pool))
						for j, x := range pool {
							cost[k][j] = price(x, nb, after)
						}
					}
					pool = assignFrom(cost, pool, func(k, x int) { cand[idx(line, k)] = x })
				}
				if c := a.cost(cand); c < bestCost-1e-6 {
					best, bestCost = cand, c
				}
			}
		}
	}
	if best == nil {
		return false
	}
	copy(cells, best)
	return true
}

// assign solves the assignment problem for cost[i][j] (rows i ≤ columns j):
// each row gets a distinct column, the sum least; it returns row → column.
// The Hungarian algorithm with potentials, O(rows²·columns).
func assign(cost [][]float64) []int {
	rows := len(cost)
	if rows == 0 {
		return nil
	}
	cols := len(cost[0])
	inf := math.Inf(1)
	u, v := make([]float64, rows+1), make([]float64, cols+1)
	p, way := make([]int, cols+1), make([]int, cols+1) // p[j]: row (1-based) on column j
	minv, used := make([]float64, cols+1), make([]bool, cols+1)
	var usedCols []int
	for i := 1; i <= rows; i++ {
		p[0] = i
		j0 := 0
		for j := range minv {
			minv[j], used[j] = inf, false
		}
		usedCols = usedCols[:0]
		// Each step takes its delta off minv of every unused column; that
		// is done in the next step's pass over them (prev), before minv is
		// read, so one pass a step does both: the same subtractions. Used
		// columns' minv is never read again, nor any after the last step.
		prev := 0.0
		for p[j0] != 0 {
			used[j0] = true
			usedCols = append(usedCols, j0)
			i0, delta, j1 := p[j0], inf, 0
			// The row and the slices read in the loop, cut to one length so
			// that the compiler drops the bounds checks.
			row, ui := cost[i0-1][:cols], u[i0]
			us, mv, wy, vs := used[1:cols+1], minv[1:cols+1], way[1:cols+1], v[1:cols+1]
			for j, c := range row { // column j+1
				if us[j] {
					continue
				}
				mj := mv[j] - prev
				if cur := c - ui - vs[j]; cur < mj {
					mj = cur
					wy[j] = j0
				}
				mv[j] = mj
				if mj < delta {
					delta, j1 = mj, j+1
				}
			}
			for _, j := range usedCols { // distinct rows p[j]: any order
				u[p[j]] += delta
				v[j] -= delta
			}
			prev = delta
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

// maxSwapBlocks·n is the most blocks of one shape swapBlocks considers.
const maxSwapBlocks = 6

// blockShapes are the blocks swapBlocks exchanges, as rows × columns.
var blockShapes = [][2]int{{1, 1}, {1, 2}, {2, 1}, {2, 2}}

// swapBlocks exchanges two equal, non-overlapping blocks of cells (each
// of blockShapes) while that lowers the total cost — a pair of pieces put
// together in the wrong place moves as one; it reports whether it swapped.
// Both blocks hold a doubtful cell (see doubtful): where two misplaced
// pieces sit, which keeps the search small on a nearly right arrangement.
//
// With memo (nil: none), a pair of blocks that the same shape's pass of the
// previous call priced is passed over when neither block nor any cell
// beside one has changed since that pass began, nor was swapped in it: it
// was priced on the same seams then and not swapped, so it would not be now.
func (a *assembly) swapBlocks(cells []int, best *matches, memo *swapMemo) bool {
	n := a.n
	doubt := a.doubtful(cells, best)
	inSet := make([]bool, n*n)
	var set []int
	moved := false
	for pass, sh := range blockShapes {
		h, w := sh[0], sh[1]
		block := func(p int) []int {
			out := make([]int, 0, h*w)
			for dr := range h {
				for dc := range w {
					out = append(out, p+dr*n+dc)
				}
			}
			return out
		}
		// The blocks holding a doubtful cell (top-left cell, cells), each
		// priced by the seams touching it. A pair of blocks with no seam
		// between them costs the sum of their prices, kept current as swaps
		// change them: each pair then costs one pricing (after the swap).
		var tops []int
		var blocks [][]int
		for r := 0; r+h <= n; r++ {
			for c := 0; c+w <= n; c++ {
				if b := block(r*n + c); slices.ContainsFunc(b, func(c int) bool { return doubt[c] }) {
					tops, blocks = append(tops, r*n+c), append(blocks, b)
				}
			}
		}
		price := make([]float64, len(tops))
		reprice := func(i int) {
			for _, c := range blocks[i] {
				inSet[c] = true
			}
			price[i] = a.setCost(cells, blocks[i], inSet)
			for _, c := range blocks[i] {
				inSet[c] = false
			}
		}
		for i := range tops {
			reprice(i)
		}
		if len(tops) > maxSwapBlocks*n {
			// Where much is doubtful (a wide featureless sky), only the
			// dearest blocks: the search stays O(n²) pairs.
			order := make([]int, len(tops))
			for i := range order {
				order[i] = i
			}
			slices.SortFunc(order, func(i, j int) int { // dearest first; on ties in cell order
				return cmp.Or(cmp.Compare(price[j], price[i]), cmp.Compare(i, j))
			})
			order = order[:maxSwapBlocks*n]
			slices.Sort(order) // the kept blocks in cell order; k ≤ i, so in place
			for k, i := range order {
				tops[k], blocks[k], price[k] = tops[i], blocks[i], price[i]
			}
			tops, blocks, price = tops[:len(order)], blocks[:len(order)], price[:len(order)]
		}
		var inner []float64 // each block's innerLow, where levels are read
		if a.positive {
			a.lowTransposed()
			inner = make([]float64, len(tops))
			for i, b := range blocks {
				inner[i] = a.innerLow(cells, b, w)
			}
		}
		// The previous pass (see swapMemo). A dirty cell differs from that
		// pass's start or was swapped in it; dirtyBefore[r*(n+1)+c] counts
		// those in rows < r and columns < c; clean[i]: none in block i or
		// beside it.
		var prev swapPass
		if memo != nil {
			prev = memo.passes[pass]
		}
		cur := swapPass{cells: slices.Clone(cells), swapped: make([]bool, n*n), top: make([]bool, n*n)}
		for _, p := range tops {
			cur.top[p] = true
		}
		dirty, dirtyBefore := make([]bool, n*n), make([]int, (n+1)*(n+1))
		clean := make([]bool, len(tops))
		recount := func() {
			countBefore(n, dirty, dirtyBefore)
			at := func(r, c int) int { return dirtyBefore[r*(n+1)+c] }
			for i, p := range tops {
				r0, r1, c0, c1 := max(p/n-1, 0), min(p/n+h+1, n), max(p%n-1, 0), min(p%n+w+1, n)
				clean[i] = at(r1, c1)-at(r0, c1)-at(r1, c0)+at(r0, c0) == 0
			}
		}
		if prev.cells != nil {
			for c := range dirty {
				dirty[c] = prev.swapped[c] || cells[c] != prev.cells[c]
			}
			recount()
		}
		// overlap reports whether the blocks at p and q (top-left cells)
		// share a cell; joined, whether they share a cell or a seam.
		span := func(u, v, size, margin int) bool { return v < u+size+margin && u < v+size+margin }
		overlap := func(p, q int) bool { return span(p/n, q/n, h, 0) && span(p%n, q%n, w, 0) }
		joined := func(p, q int) bool {
			rows, cols := span(p/n, q/n, h, 0), span(p%n, q%n, w, 0)
			return rows && span(p%n, q%n, w, 1) || cols && span(p/n, q/n, h, 1)
		}
		for i, p := range tops {
			bp := blocks[i]
			for j := i + 1; j < len(tops); j++ {
				q := tops[j]
				if overlap(p, q) {
					continue // (or the same)
				}
				if clean[i] && clean[j] && prev.top[p] && prev.top[q] {
					continue // priced as it is in the previous pass
				}
				bq := blocks[j]
				apart := !joined(p, q)
				before := price[i] + price[j]
				// Blocks apart: the levels' sum of the exchange first,
				// with no cell moved — on the benchmark's instance it
				// turns down all but 10,263 of 2.93 million pairs
				// (docs/solver.md, "Lower levels of the seams") — and
				// the seams after it, which that sum leaves under the bound.
				onLevels := apart && a.positive
				if under := before - 1e-6; onLevels && a.exchangeLow(cells, bp, bq, w, inner[i], inner[j], under) >= under {
					continue
				}
				set = append(append(set[:0], bp...), bq...)
				for _, c := range set {
					inSet[c] = true
				}
				if !apart {
					before = a.setCost(cells, set, inSet)
				}
				under := math.NaN() // no bound where a seam may cost less than 0 (setCostUnder)
				if a.positive {
					under = before - 1e-6
				}
				for k := range bp {
					cells[bp[k]], cells[bq[k]] = cells[bq[k]], cells[bp[k]]
				}
				var after float64
				if onLevels {
					after = a.setSeamsUnder(cells, set, inSet, under)
				} else {
					after = a.setCostUnder(cells, set, inSet, under)
				}
				swapped := after < before-1e-6
				if swapped {
					moved = true
				} else {
					for k := range bp {
						cells[bp[k]], cells[bq[k]] = cells[bq[k]], cells[bp[k]]
					}
				}
				for _, c := range set {
					inSet[c] = false
				}
				if swapped {
					for k, t := range tops {
						if joined(t, p) || joined(t, q) {
							reprice(k)
							if inner != nil {
								inner[k] = a.innerLow(cells, blocks[k], w)
							}
						}
					}
					for k := range bp {
						dirty[bp[k]], dirty[bq[k]] = true, true
						cur.swapped[bp[k]], cur.swapped[bq[k]] = true, true
					}
					if prev.cells != nil {
						recount()
					}
				}
			}
		}
		if memo != nil {
			memo.passes[pass] = cur
		}
	}
	return moved
}

// countBefore sets before[r·(n+1)+c] to the number of marked cells of an
// n×n grid in rows < r and columns < c (a summed-area table; before has
// (n+1)² entries, row 0 and column 0 left at 0), so the marked cells of
// any rectangle are counted in four look-ups.
func countBefore(n int, marked []bool, before []int) {
	for r := range n {
		row := 0
		for c := range n {
			if marked[r*n+c] {
				row++
			}
			before[(r+1)*(n+1)+c+1] = before[r*(n+1)+c+1] + row
		}
	}
}

// swapMemo is what swapBlocks' passes (one per block shape) saw in its
// previous call, for the next: see there.
type swapMemo struct {
	passes [4]swapPass // per blockShapes
}

type swapPass struct {
	cells   []int  // as the pass began; nil before any
	swapped []bool // the cells a swap changed in the pass
	top     []bool // the top-left cells of the blocks the pass priced
}

// setCost is the cost of every pair touching the cells of set, each once
// (inSet marks them).
func (a *assembly) setCost(cells, set []int, inSet []bool) float64 {
	return a.setCostUnder(cells, set, inSet, math.NaN())
}

// setCostUnder is setCost, except that it may stop once the sum reaches
// bound and return the partial sum (then at least bound). Stopping is exact
// only when no pair costs less than 0 (see nonNegative): a sum of
// non-negative terms never falls in rounding, so the whole sum would not
// have been below bound either; otherwise pass NaN, which no sum reaches.
// The sum is looked at after every seam, not every cell: most of the block
// exchanges it prices pass the bound part way through a cell, and the
// seams it would still read there are a random read each of the n²×n²
// matrices. Whole sums are as before; a stop comes no later, and what is
// compared with the bound decides the same.
//
// With a bound it sums the seams' lower levels first (setLowUnder), which
// lie in a quarter of the memory; only a set they leave under the bound is
// priced on the seams themselves. A sum of lower levels that reaches the
// bound says the seams' sum would have (rounding is monotonic), so what the
// caller compares with the bound decides the same (docs/solver.md, "Lower
// levels of the seams").
func (a *assembly) setCostUnder(cells, set []int, inSet []bool, bound float64) float64 {
	if a.positive && bound == bound {
		if s := a.setLowUnder(cells, set, inSet, bound); s >= bound {
			return s
		}
	}
	return a.setSeamsUnder(cells, set, inSet, bound)
}

// setSeamsUnder is setCostUnder on the seams alone, for a set whose levels
// are known to leave it under bound.
func (a *assembly) setSeamsUnder(cells, set []int, inSet []bool, bound float64) float64 {
	n, m := a.n, a.m
	var s float64
	for _, c := range set {
		r := int(uint32(c) / uint32(n)) // a 32-bit division is the faster
		col := c - r*n
		x := cells[c]
		if col+1 < n {
			if s += float64(a.right[x*m+cells[c+1]]); s >= bound {
				return s
			}
		}
		if r+1 < n {
			if s += float64(a.down[x*m+cells[c+n]]); s >= bound {
				return s
			}
		}
		if col > 0 && !inSet[c-1] {
			if s += float64(a.right[cells[c-1]*m+x]); s >= bound {
				return s
			}
		}
		if r > 0 && !inSet[c-n] {
			if s += float64(a.down[cells[c-n]*m+x]); s >= bound {
				return s
			}
		}
	}
	return s
}

// setLowUnder is setCostUnder on the seams' lower levels (lowerSeams): a
// sum at most the seams' own, stopping once it reaches bound.
func (a *assembly) setLowUnder(cells, set []int, inSet []bool, bound float64) float64 {
	a.lowerSeams()
	n, m := a.n, a.m
	right, down, level := a.rightLow, a.downLow, &a.lowLevel
	var s float64
	for _, c := range set { // the seams in setCostUnder's order
		r := int(uint32(c) / uint32(n))
		col := c - r*n
		x := cells[c]
		if col+1 < n {
			if s += level[right[x*m+cells[c+1]]]; s >= bound {
				return s
			}
		}
		if r+1 < n {
			if s += level[down[x*m+cells[c+n]]]; s >= bound {
				return s
			}
		}
		if col > 0 && !inSet[c-1] {
			if s += level[right[cells[c-1]*m+x]]; s >= bound {
				return s
			}
		}
		if r > 0 && !inSet[c-n] {
			if s += level[down[cells[c-n]*m+x]]; s >= bound {
				return s
			}
		}
	}
	return s
}

// lowTransposed builds leftLow and aboveLow once (after the levels).
func (a *assembly) lowTransposed() {
	a.lowerSeams()
	a.lowTOnce.Do(func() {
		m := a.m
		a.leftLow, a.aboveLow = make([]uint8, m*m), make([]uint8, m*m)
		transpose(m, a.rightLow, a.leftLow)
		transpose(m, a.downLow, a.aboveLow)
	})
}

// exchangeLow is the sum of the lower levels of the seams touching blocks
// bp and bq — cells of the same h×w shape, row by row, sharing no cell and
// no seam — once their pieces are exchanged, from innerP + innerQ (the
// levels' sum of each block's seams between its own pieces, which move
// with them), stopping once it reaches bound: what setLowUnder sums over
// the exchanged blocks, to the bit. Each level is a multiple of one power
// of two below 2³⁶ of them, so float64 sums a block exchange's (at most 24)
// exactly, in any order. Each level is read along a row that stays the
// same while swapBlocks runs bq over the blocks for one bp: a piece
// coming into bp by its new neighbours' rows (the transposes' where the
// neighbour is right of it or below), one going to bq by its own.
func (a *assembly) exchangeLow(cells, bp, bq []int, w int, innerP, innerQ, bound float64) float64 {
	n, m, h := a.n, a.m, len(bp)/w
	right, down, left, above, level := a.rightLow, a.downLow, a.leftLow, a.aboveLow, &a.lowLevel
	s := innerP + innerQ
	for t, p := range bp {
		if s >= bound {
			return s
		}
		q := bq[t]
		dr, dc := t/w, t%w
		pr := int(uint32(p) / uint32(n))
		qr := int(uint32(q) / uint32(n))
		pc, qc := p-pr*n, q-qr*n
		y, x := cells[q], cells[p] // y comes to p, x goes to q
		if dc == w-1 && pc+1 < n {
			s += level[left[cells[p+1]*m+y]]
		}
		if dr == h-1 && pr+1 < n {
			s += level[above[cells[p+n]*m+y]]
		}
		if dc == 0 && pc > 0 {
			s += level[right[cells[p-1]*m+y]]
		}
		if dr == 0 && pr > 0 {
			s += level[down[cells[p-n]*m+y]]
		}
		if dc == w-1 && qc+1 < n {
			s += level[right[x*m+cells[q+1]]]
		}
		if dr == h-1 && qr+1 < n {
			s += level[down[x*m+cells[q+n]]]
		}
		if dc == 0 && qc > 0 {
			s += level[left[x*m+cells[q-1]]]
		}
		if dr == 0 && qr > 0 {
			s += level[above[x*m+cells[q-n]]]
		}
	}
	return s
}

// innerLow is the levels' sum of the seams between block b's own pieces
// (cells of an h×w block, row by row).
func (a *assembly) innerLow(cells, b []int, w int) float64 {
	n, m, h := a.n, a.m, len(b)/w
	var s float64
	for t, c := range b {
		if t%w+1 < w {
			s += a.lowLevel[a.rightLow[cells[c]*m+cells[c+1]]]
		}
		if t/w+1 < h {
			s += a.lowLevel[a.downLow[cells[c]*m+cells[c+n]]]
		}
	}
	return s
}

// lowLevels is how many octaves below the dearest seam's the lower levels
// tell apart, eight levels to an octave.
const lowLevels = 32

// lowerSeams builds rightLow, downLow and lowLevel once: each seam as one
// byte, its octave among the lowLevels below the dearest finite seam's and
// the top three bits of its mantissa, so each level's value — the seam with
// the other bits cleared — is at most the seam and more than 8/9 of it.
// Level 0 is worth 0: seams below those octaves (0, subnormals) and the
// lowest octave's first eighth; +Inf is the top level. At 32×32 the two
// matrices of levels take 2 MB where the seams take 8: the block
// exchanges' random reads of them miss the cache less (docs/solver.md,
// "Lower levels of the seams").
func (a *assembly) lowerSeams() {
	a.lowOnce.Do(func() {
		exponent := func(v float32) int { return int(math.Float32bits(v) >> 23 & 0xff) }
		top := 0
		for _, d := range [2][]float32{a.right, a.down} {
			for _, v := range d {
				if e := exponent(v); e > top && e < 0xff {
					top = e
				}
			}
		}
		e0 := max(top-(lowLevels-1), 1) // level 8·(e − e0) + mantissa bits
		for q := 1; q < len(a.lowLevel); q++ {
			a.lowLevel[q] = float64(math.Float32frombits(uint32(e0+q/8)<<23 | uint32(q%8)<<20))
		}
		levels := func(d []float32) []uint8 {
			out := make([]uint8, len(d))
			for i, v := range d {
				if e := exponent(v); e >= e0 {
					out[i] = uint8(min(8*(e-e0)+int(math.Float32bits(v)>>20&7), len(a.lowLevel)-1))
				}
			}
			return out
		}
		a.rightLow, a.downLow = levels(a.right), levels(a.down)
	})
}

// nonNegative reports whether no value of d is below 0 (or NaN).
func nonNegative(d []float32) bool {
	for _, v := range d {
		if !(v >= 0) {
			return false
		}
	}
	return true
}

// matches are every piece's preferred neighbour in each direction.
type matches struct{ right, left, down, up []int }

// bestMatches returns every piece's preferred neighbour: argmin over every
// piece, itself included, of the seam (the first smallest, −1 when none is
// below +Inf). It is read off seamFloors, whose cheapest partner leaves the
// piece itself out, one pass over the matrices serving both (four more
// took 4 ms of a 32×32 search's start).
func (a *assembly) bestMatches() *matches {
	if a.best != nil {
		return a.best
	}
	fl := a.seamFloors()
	m := a.m
	b := &matches{make([]int, m), make([]int, m), make([]int, m), make([]int, m)}
	for dir, d := range [2][]float32{a.right, a.down} {
		asA, asB := b.right, b.left // x's best partner right of it, left of it
		if dir == dirDown {
			asA, asB = b.down, b.up
		}
		for x := range m {
			self := d[x*m+x]
			asA[x] = withSelf(fl.rowArg[dir][x], fl.row[dir][x], x, self)
			asB[x] = withSelf(fl.colArg[dir][x], fl.col[dir][x], x, self)
		}
	}
	a.best = b
	return b
}

// withSelf is argmin over every piece given arg, the argmin over all but x,
// with its value v, and self, x's seam with itself: x where that is smaller,
// or as small and x comes first.
func withSelf(arg int, v float32, x int, self float32) int {
	if self < v || self == v && x < arg {
		return x
	}
	return arg
}

// doubtful marks the cells with a neighbour that is not their best buddy
// (each the other's preferred piece that way): where a misplaced piece sits.
func (a *assembly) doubtful(cells []int, b *matches) []bool {
	n := a.n
	d := make([]bool, n*n)
	for c, x := range cells {
		r, col := c/n, c%n
		if col+1 < n {
			if y := cells[c+1]; b.right[x] != y || b.left[y] != x {
				d[c], d[c+1] = true, true
			}
		}
		if r+1 < n {
			if y := cells[c+n]; b.down[x] != y || b.up[y] != x {
				d[c], d[c+n] = true, true
			}
		}
	}
	return d
}

// regrow keeps the largest region of cells joined by best-buddy seams (each
// piece the other's preferred neighbour) and places every other piece again
// by the greedy (grow), from that region outwards within its frame. A region
// that grew from a wrong seam somewhere is displaced in two directions at
// once, which no shift of lines undoes; its pieces re-join the right part.
// It replaces cells and reports true if that lowers the total cost.
func (a *assembly) regrow(cells []int, best *matches) bool {
	n := a.n
	root, size, find := a.buddyComponents(cells, best)
	if size == n*n || size < 2 {
		return false
	}
	g := a.newGrower()
	off := n - 1 - n/2 // the grid's top-left on the canvas
	for c, x := range cells {
		if find(c) == root {
			g.put(c/n+off, c%n+off, x)
		}
	}
	// The frame: the region's extent, widened only as far as n allows.
	cand := growRest(g)
	if a.cost(cand) >= a.cost(cells)-1e-6 {
		return false
	}
	copy(cells, cand)
	return true
}

// buddyComponents groups the cells into regions joined by best-buddy seams
// (each piece the other's preferred neighbour) by union–find, and returns
// the root of the largest (the first on ties), its size in cells and the
// find function.
func (a *assembly) buddyComponents(cells []int, best *matches) (root, largest int, find func(int) int) {
	n := a.n
	parent := make([]int, n*n)
	for i := range parent {
		parent[i] = i
	}
	find = func(i int) int {
		for parent[i] != i {
			parent[i] = parent[parent[i]]
			i = parent[i]
		}
		return i
	}
	for c, x := range cells {
		if c%n+1 < n {
			if y := cells[c+1]; best.right[x] == y && best.left[y] == x {
				parent[find(c)] = find(c + 1)
			}
		}
		if c+n < n*n {
			if y := cells[c+n]; best.down[x] == y && best.up[y] == x {
				parent[find(c)] = find(c + n)
			}
		}
	}
	size := make([]int, n*n)
	for c := range cells {
		r := find(c)
		size[r]++
		if size[r] > size[root] || size[r] == size[root] && r < root {
			root = r
		}
	}
	return root, size[root], find
}

// reassignDoubtful places the pieces of each region of doubtful cells (see
// doubtful; 4-connected) again by exact assignment: the region's cells next
// to the sure part are filled first, each priced by its placed neighbours,
// all of them at once by the Hungarian method over every piece of the
// region, then the cells next to those, and so on inwards. In a region of
// low texture, where a greedy choice between near-equal seams goes wrong,
// the region is filled as a whole. A region's new filling is kept when it
// lowers the total cost; reassignDoubtful reports whether one was.
func (a *assembly) reassignDoubtful(cells []int, best *matches) bool {
	n, m := a.n, a.m
	doubt := a.doubtful(cells, best)
	seen := make([]bool, m)
	inSet := make([]bool, m)
	moved := false
	for start := range m {
		if !doubt[start] || seen[start] {
			continue
		}
		// The region: doubtful cells 4-connected to start.
		region := []int{start}
		seen[start] = true
		for i := 0; i < len(region); i++ {
			c := region[i]
			r, col := c/n, c%n
			for _, nb := range [4]int{c - 1, c + 1, c - n, c + n} {
				if nb < 0 || nb >= m || (nb == c-1 && col == 0) || (nb == c+1 && col == n-1) || (nb == c-n && r == 0) {
					continue
				}
				if doubt[nb] && !seen[nb] {
					seen[nb] = true
					region = append(region, nb)
				}
			}
		}
		if len(region) < 2 || len(region) == m {
			continue
		}
		for _, c := range region {
			inSet[c] = true
		}
		before := a.setCost(cells, region, inSet)
		old := make([]int, len(region))
		for i, c := range region {
			old[i] = cells[c]
		}
		a.fillByLayers(cells, region)
		if a.setCost(cells, region, inSet) < before-1e-6 {
			moved = true
		} else {
			for i, c := range region {
				cells[c] = old[i]
			}
		}
		for _, c := range region {
			inSet[c] = false
		}
	}
	return moved
}

// fillByLayers empties the cells of region and fills them again with their
// pieces, layer by layer from the cells next to filled ones inwards, each
// layer by exact assignment priced by the filled neighbours.
func (a *assembly) fillByLayers(cells, region []int) {
	n := a.n
	pool := make([]int, len(region))
	for i, c := range region {
		pool[i] = cells[c]
		cells[c] = -1
	}
	var flat []float64
	var scratch [2][]float32
	for len(pool) > 0 {
		var layer []int
		for _, c := range region {
			if cells[c] >= 0 {
				continue
			}
			r, col := c/n, c%n
			if col > 0 && cells[c-1] >= 0 || col+1 < n && cells[c+1] >= 0 || r > 0 && cells[c-n] >= 0 || r+1 < n && cells[c+n] >= 0 {
				layer = append(layer, c)
			}
		}
		if len(layer) == 0 { // no filled cell around: any order
			for _, c := range region {
				if cells[c] < 0 {
					cells[c], pool = pool[0], pool[1:]
				}
			}
			return
		}
		cost := make([][]float64, len(layer))
		// The rows in one buffer, kept for the next layers (seamsAtEach
		// writes every entry).
		if need := len(layer) * len(pool); cap(flat) < need {
			flat = make([]float64, need)
		}
		for k, c := range layer {
			cost[k] = flat[k*len(pool) : (k+1)*len(pool) : (k+1)*len(pool)]
			a.seamsAtEach(cells, c, pool, cost[k], &scratch)
		}
		pool = assignFrom(cost, pool, func(k, x int) { cells[layer[k]] = x })
	}
}

// seamsAtEach sets out[j] to seamsAt(cells, c, pool[j], seamCost), with
// c's placed neighbours looked up once: the same sums in the same order.
// scratch holds two buffers of m floats (made when first needed) for the
// columns read where the transposes are not kept (see columns).
func (a *assembly) seamsAtEach(cells []int, c int, pool []int, out []float64, scratch *[2][]float32) {
	n, m := a.n, a.m
	r, col := c/n, c%n
	// Neighbour k's seam with x is vals[k][x]: a row of right or down, or
	// of their transposes for the neighbours after c (see columns).
	leftOf, above := a.columns()
	// after is the column of d at y, as column gives it, but without the
	// transposes only pool's entries are read, each m floats apart: at
	// 64×64 copying whole columns here was a fifth of a rect solve.
	after := func(t, d []float32, y int, buf *[]float32) []float32 {
		if t != nil {
			return t[y*m : (y+1)*m]
		}
		if len(*buf) < m {
			*buf = make([]float32, m)
		}
		col := *buf
		for _, x := range pool {
			col[x] = d[x*m+y]
		}
		return col
	}
	var vals [4][]float32
	k := 0
	add := func(v []float32) { vals[k] = v; k++ }
	if col > 0 && cells[c-1] >= 0 {
		add(a.right[cells[c-1]*m : (cells[c-1]+1)*m])
	}
	if col+1 < n && cells[c+1] >= 0 {
		add(after(leftOf, a.right, cells[c+1], &scratch[0]))
	}
	if r > 0 && cells[c-n] >= 0 {
		add(a.down[cells[c-n]*m : (cells[c-n]+1)*m])
	}
	if r+1 < n && cells[c+n] >= 0 {
		add(after(above, a.down, cells[c+n], &scratch[1]))
	}
	// One loop per count of neighbours, each summing from 0 in order as
	// the loop over them would.
	v0, v1, v2, v3 := vals[0], vals[1], vals[2], vals[3]
	switch k {
	case 0:
		clear(out[:len(pool)])
	case 1:
		for j, x := range pool {
			out[j] = 0 + seamCost(v0[x])
		}
	case 2:
		for j, x := range pool {
			out[j] = 0 + seamCost(v0[x]) + seamCost(v1[x])
		}
	case 3:
		for j, x := range pool {
			out[j] = 0 + seamCost(v0[x]) + seamCost(v1[x]) + seamCost(v2[x])
		}
	default:
		for j, x := range pool {
			out[j] = 0 + seamCost(v0[x]) + seamCost(v1[x]) + seamCost(v2[x]) + seamCost(v3[x])
		}
	}
}

// frameTie is how much cheaper (relatively) than the border's seam line
// another line between whole columns (rows) may be and still be weighed as
// the border by sureness instead of cost.
const frameTie = 0.02

// cutBySureness decides where the frame of cells cuts through whole
// columns and rows when costs cannot: the border is where the pieces have
// no good continuation, so of the lines between neighbouring columns
// (cyclically: the last column next to the first) whose cost is within
// frameTie of the line the border now takes, the border goes where the
// pieces' seams are least sure — each seam's cost over the best other
// choice its pieces have (seamFloor.alt). A true seam, however dear, is its
// pieces' best choice by a margin; a seam across the picture's border is
// one arbitrary choice among many. It rotates cells in place.
func (a *assembly) cutBySureness(cells []int, fl *seamFloor) {
	n, m := a.n, a.m
	for _, dir := range [2]int{dirRight, dirDown} {
		pair := a.right
		if dir == dirDown {
			pair = a.down
		}
		at := func(line, k int) int { // k-th piece of column (row) line
			if dir == dirRight {
				return cells[k*n+line]
			}
			return cells[line*n+k]
		}
		raw, sure := make([]float64, n), make([]float64, n)
		sc := fl.scale[dir]
		for b := range n {
			for k := range n {
				x, y := at(b, k), at((b+1)%n, k)
				raw[b] += float64(pair[x*m+y])
				sure[b] += float64((pair[x*m+y] + sc) / (fl.alt(dir, x, y) + sc))
			}
		}
		cut := n - 1
		for b := range n - 1 {
			if raw[n-1]-raw[b] <= frameTie*raw[n-1] && sure[b] > sure[cut] {
				cut = b
			}
		}
		if cut == n-1 {
			continue
		}
		old := slices.Clone(cells)
		for line := range n {
			from := (line + cut + 1) % n
			for k := range n {
				if dir == dirRight {
					cells[k*n+line] = old[k*n+from]
				} else {
					cells[line*n+k] = old[from*n+k]
				}
			}
		}
	}
}

// assignFrom gives each row k of cost (a cell) its own piece of pool by
// exact assignment, put(k, piece) placing it, and returns the pieces left.
func assignFrom(cost [][]float64, pool []int, put func(k, x int)) []int {
	taken := make([]bool, len(pool))
	for k, j := range assign(cost) {
		put(k, pool[j])
		taken[j] = true
	}
	rest := pool[:0:0]
	for j, x := range pool {
		if !taken[j] {
			rest = append(rest, x)
		}
	}
	return rest
}
