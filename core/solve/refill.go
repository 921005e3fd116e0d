package solve

import (
	"cmp"
	"math"
	mathbits "math/bits"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Refilling the doubtful part of a shape answer. Where the beams died the
// answer is the greedy's: right where the seams were sure, wrong where it
// grew last — a night sky, still water — and there it often leaves pieces
// that do not interlock, which no exchange of two pieces removes. The part
// its own evidence vouches for (the largest region joined by best-buddy
// seams) is kept, and the rest is filled again by a beam over those cells
// alone, every piece priced against the kept cells around it as well as
// the ones it placed: the kept region is a frame that a fill from a corner
// of the whole grid never has. Rows top-down and bottom-up, the region as
// it is and, where pieces do not interlock, grown by one cell (the cells at
// the region's edge are where a wrong piece joins it by a seam that
// happens to be a best buddy), each polished; the cheapest is kept if it
// lowers the cost (docs/solver.md, "Refilling the doubtful part"). 32×32
// shape night-city 0.922 → 1, moonlit-bay 0.710 → 0.959, harbor-town
// 0.954 → 0.974; 64×64 of 1024-px squares TwoWings 0.955 → 0.997,
// LadyBird 0.959 → 1. On a rectangular sheet, where every piece fits every
// cell, it fills the loose part of a repaired answer the same way, one way
// round (fillsUpward), on MGC and on relative costs (refillLoose; docs/solver.md,
// "Refilling the loose part of a rect answer").

// refillWidth is the refill beam's width.
const refillWidth = 512

// refillMax is the largest grid whose shape answers are refilled (the
// largest measured: 64×64, where no beam runs and so it always does).
const refillMax = 64

// refillMaxCells is the most cells refilled at once.
const refillMaxCells = 512

// refillRounds bounds how often the doubtful part is filled again.
const refillRounds = 3

// refillDoubtful refills the cells outside the answer's best-buddy region
// (see above) while that lowers the cost, and reports whether it changed
// cells.
func (a *assembly) refillDoubtful(cells []int) bool {
	n := a.n
	best := a.bestMatches()
	total := penalisedCost(n, a.right, a.down, cells)
	changed := false
	for range refillRounds {
		keep := a.buddyRegion(cells, best)
		// Where the region vouched for is under half the grid it is no
		// frame to fill from, and the beam's time grows with the square of
		// the cells it fills (32×32 misty-pines: 882 cells, 20 s, cheaper
		// but no nearer the truth; 64×64 Dune at 1024 px: 907 cells, 29 s,
		// PA 0.791 → 0.758).
		if keep == nil || countFree(keep) > min(a.m/2, refillMaxCells) {
			break
		}
		var orders [][]int
		// Widened only where pieces do not interlock, the sign of a wrong
		// piece kept: elsewhere it won twice in the surveys (held-out
		// seeding 32×32 0.968 → 0.972, snow-field 16×16 0.781 → 0.832)
		// and doubles the time.
		grows := 1
		if misfits(n, a.right, a.down, cells) > 0 {
			grows = 2
		}
		for grow := range grows {
			if grow > 0 {
				keep = widenFree(n, keep)
			}
			var order []int
			for c, x := range keep {
				if x < 0 {
					order = append(order, c)
				}
			}
			back := slices.Clone(order)
			slices.Reverse(back)
			switch {
			case a.shaped:
				orders = append(orders, order, back)
			case fillsUpward(n, keep, order):
				orders = append(orders, back)
			default:
				orders = append(orders, order)
			}
		}
		filled := make([][]int, len(orders))
		parallelFor(len(orders), func(i int) error {
			if f := a.refill(cells, orders[i], refillWidth); f != nil {
				filled[i] = a.polish(f)
			}
			return nil
		})
		var pick []int
		for _, f := range filled {
			if f == nil {
				continue
			}
			if c := penalisedCost(n, a.right, a.down, f); c < total-1e-6 {
				pick, total = f, c
			}
		}
		if pick == nil {
			break
		}
		copy(cells, pick)
		changed = true
	}
	return changed
}

// refillLoose fills the loose part of a rect answer (cell → piece) again
// from the part its best-buddy seams vouch for (refill.go), by MGC costs
// and by relative costs at once on the two cores, each filling annealed
// again on its own costs (the annealing pools that part), and keeps the one
// MGC prices lowest if it costs less than cells. Relative costs rank more
// true partners first in smooth regions: 32×32 YellowFlower 0.896 → 0.952
// where MGC's filling costs more than the answer; MGC's alone gives Wood
// 0.921 → 0.989, harbor-town 0.797 → 0.891 (docs/solver.md, "Refilling the loose
// part of a rect answer"). Where the loose part is large (the region
// vouched for under blendBelow of the grid) it is filled a third time, on
// MGC with the prediction residual added (blend, residual.go; nil: not):
// coral-reef 0.795 → 0.945.
func refillLoose(byMGC, byRel *assembly, cells []int, ms *measures) {
	n, sides := byMGC.n, byMGC.sides
	share := byMGC.buddyShare(cells)
	if share < vouchedShare {
		// MGC's own evidence does not vouch for most of the answer: there
		// is no frame to fill from (relative costs may vouch for more,
		// but then fill in vain: the benchmark's harbor-town, 312 cells,
		// half a second).
		return
	}
	by := []*assembly{byMGC, byRel}
	if ms != nil && largeLoosePart(share) {
		by = append(by, newAssembly(n, sides, ms.blend(blendWeight), false))
	}
	filled := make([][]int, len(by))
	parallelFor(len(by), func(i int) error {
		if f := slices.Clone(cells); by[i].refillDoubtful(f) {
			filled[i] = by[i].anneal(f)
		}
		return nil
	})
	cost := penalisedCost(n, byMGC.right, byMGC.down, cells)
	changed := false
	for _, f := range filled {
		if f == nil {
			continue
		}
		if c := penalisedCost(n, byMGC.right, byMGC.down, f); c < cost-1e-6 {
			copy(cells, f)
			cost, changed = c, true
		}
	}
	if changed {
		byMGC.cutBySureness(cells, byMGC.seamFloors())
	}
}

// fillsUpward reports whether the free cells of keep (−1; order lists
// them) meet the kept region more along their lower edge than along their
// upper one: a rect refill then runs bottom-up, from the frame inwards, so
// its first choices are the ones the kept cells constrain most (a shape
// refill runs both ways). On the 32×32 rect table bottom-up won every gain
// there was; a sky is a loose part above the region.
func fillsUpward(n int, keep, order []int) bool {
	above, below := 0, 0
	for _, c := range order {
		if c >= n && keep[c-n] >= 0 {
			above++
		}
		if c+n < len(keep) && keep[c+n] >= 0 {
			below++
		}
	}
	return below >= above
}

// polish repairs a refilled answer: on a shape sheet by exchanges within
// each signature (reassign, improve), on a rectangular one by the frame
// repair (frame.go), whose block moves mend what a beam over single cells
// placed one cell off.
func (a *assembly) polish(cells []int) []int {
	if !a.shaped {
		return a.reframe(cells)
	}
	a.reassign(cells)
	a.improve(cells)
	return cells
}

// vouched reports whether the largest region of cells joined by best-buddy
// seams (buddyComponents) is at least vouchedShare of the grid.
func (a *assembly) vouched(cells []int) bool { return a.buddyShare(cells) >= vouchedShare }

// vouchedShare is the share of the grid an answer's best-buddy seams must
// join into one region for it to be a frame the refill and the mend can
// work from.
const vouchedShare = 0.5

// buddyShare is the share of the grid that the largest region of cells
// joined by best-buddy seams (buddyComponents) covers.
func (a *assembly) buddyShare(cells []int) float64 {
	_, size, _ := a.buddyComponents(cells, a.bestMatches())
	return float64(size) / float64(a.m)
}

// blendBelow is the share of a rect answer its best-buddy seams vouch for
// below which its loose part is large: on the 32×32 rect table every exact
// answer is above 0.97 (Aqua), every failure vouched for below 0.93.
const blendBelow = 0.95

// largeLoosePart reports whether a rect answer whose largest best-buddy
// region covers share of the grid is vouched for (vouchedShare) but leaves
// a large loose part (blendBelow): the answers the blended refill, the
// blended search and the windows work on — not exact answers, nor answers
// in fragments, which have no frame to work from.
func largeLoosePart(share float64) bool { return share >= vouchedShare && share < blendBelow }

// countFree counts the free cells (−1) of keep.
func countFree(keep []int) int {
	k := 0
	for _, x := range keep {
		if x < 0 {
			k++
		}
	}
	return k
}

// widenFree returns keep with every kept cell beside a free one (−1) freed.
func widenFree(n int, keep []int) []int {
	out := slices.Clone(keep)
	for c, x := range keep {
		if x < 0 {
			for _, q := range neighbours(n, c) {
				out[q] = -1
			}
		}
	}
	return out
}

// refill places the pieces now in the cells of order again, by a beam that
// fills those cells in that order, each piece priced by its seams with the
// cells around it that are filled already or not in order at all (kept as
// they are). A piece that does not interlock with a neighbour is placed,
// at gapPenalty a seam, only where no piece left does: the kept cells may
// hold a wrong piece that nothing fits. It returns the cheapest complete
// filling found, or nil for fewer than two cells.
func (a *assembly) refill(cells, order []int, width int) []int {
	n, m := a.n, a.m
	k := len(order)
	if k < 2 {
		return nil
	}
	at := make([]int, m) // cell → its position in order, −1 if kept
	for i := range at {
		at[i] = -1
	}
	for i, c := range order {
		at[c] = i
	}
	pieces := make([]int, k)
	index := make([]int, m) // piece → its index in pieces, −1 if kept
	for i := range index {
		index[i] = -1
	}
	var byCode [81][]int32
	for i, c := range order {
		pieces[i] = cells[c]
		index[cells[c]] = i
		code := sigCode(a.sides[cells[c]])
		byCode[code] = append(byCode[code], int32(i))
	}
	// Of look-alikes only the first free one is placed: the others would
	// fill the beam with copies of one filling.
	twin := make([]int32, k)
	for j, x := range pieces {
		twin[j] = -1
		if p := a.prevTwin[x]; p >= 0 && index[p] >= 0 {
			twin[j] = int32(index[p])
		}
	}
	// A piece's floor is half its cheapest seams on every side: ranked by
	// cost less the floors of the pieces used, a state that saved the
	// awkward pieces for later is not preferred for it.
	floor := make([]float64, k)
	for j, x := range pieces {
		var f float64
		for _, d := range [2][]float32{a.right, a.down} {
			lo, hi := float32(math.Inf(1)), float32(math.Inf(1))
			for _, y := range pieces {
				lo = min(lo, d[x*m+y])
				hi = min(hi, d[y*m+x])
			}
			if !math.IsInf(float64(lo), 1) {
				f += float64(lo)
			}
			if !math.IsInf(float64(hi), 1) {
				f += float64(hi)
			}
		}
		floor[j] = f / 2
	}
	// When each position stops mattering to the ones after it (its last
	// free neighbour): the states' keys hash the positions that still do.
	lastNeed := make([]int, k)
	leaving := make([][]int, k)
	for i, c := range order {
		lastNeed[i] = i
		for _, q := range neighbours(n, c) {
			lastNeed[i] = max(lastNeed[i], at[q])
		}
		if lastNeed[i] > i {
			leaving[lastNeed[i]] = append(leaving[lastNeed[i]], i)
		}
	}
	// A state keeps the pieces of its last span positions, all that a
	// new position's filled neighbours and leaving positions reach back
	// to, and its whole filling as a chain of nodes.
	span := 1
	for i, c := range order {
		for _, q := range neighbours(n, c) {
			if p := at[q]; p >= 0 && p < i {
				span = max(span, i-p)
			}
		}
	}
	zUsed := make([]uint64, k)
	for j := range zUsed {
		zUsed[j] = mix64(uint64(j)*0x9e3779b97f4a7c15 + 1)
	}
	zAt := func(pos int, j int32) uint64 { return mix64(uint64(pos)<<32 | uint64(j) | 1<<63) }

	type state struct {
		node          *beamNode // the newest position's piece index, and the ones before
		recent        []int32   // the piece indices of positions i−span…i−1
		used          []uint64
		cost, rank    float64
		usedKey, hash uint64
	}
	words := (k + 63) / 64
	root := state{recent: make([]int32, span), used: make([]uint64, words)}
	// A step's states keep their pieces and used sets in one of two slabs,
	// the parents' in the other: no allocation per state.
	recentSlab := [2][]int32{make([]int32, width*span), make([]int32, width*span)}
	usedSlab := [2][]uint64{make([]uint64, width*words), make([]uint64, width*words)}
	for t := range root.recent {
		root.recent[t] = -1
	}
	states := []state{root}
	var exts []refillExt
	var ranked []rankedExt
	var seen, perUsed keyCounts
	keptCost := make([]float64, k)
	var nbs [4]neighbour
	var rows [4][]float32 // besideRows of nbs
	for i, c := range order {
		r, col := c/n, c%n
		exts = exts[:0]
		around := [4]int{c - n, c + 1, c + n, c - 1} // puzzle.Top…Left of c
		inside := [4]bool{r > 0, col+1 < n, r+1 < n, col > 0}
		if !a.shaped {
			// On a rectangular sheet every piece fits every cell, so the
			// seams with kept cells, the same in every state, are summed
			// once a step.
			for j, x := range pieces {
				var d float64
				for dir, q := range around {
					if inside[dir] && at[q] < 0 {
						d += float64(a.besideCost(x, dir, cells[q]))
					}
				}
				keptCost[j] = d
			}
		}
		for si := range states {
			s := &states[si]
			// The neighbours placed or kept, and the sides they fix.
			nn := 0
			want := [4]puzzle.Side{}
			fixed := [4]bool{}
			for dir, q := range around {
				if !inside[dir] {
					want[dir], fixed[dir] = puzzle.Flat, true
					continue
				}
				y := -1
				switch p := at[q]; {
				case p < 0:
					if a.shaped { // else in keptCost
						y = cells[q]
					}
				case p < i:
					y = pieces[s.recent[p-(i-span)]]
				}
				if y < 0 {
					continue
				}
				nbs[nn].piece, nbs[nn].dir = y, dir
				nn++
				want[dir], fixed[dir] = opposite(a.sides[y][(dir+2)%4]), true
			}
			free := func(j int32) bool {
				t := twin[j]
				return s.used[j>>6]&(1<<(j&63)) == 0 && (t < 0 || s.used[t>>6]&(1<<(t&63)) != 0)
			}
			var best [lineBranch]refillExt
			nb := 0
			offer := func(j int32, lenient bool) {
				x := pieces[j]
				var d float64
				if !a.shaped {
					d = keptCost[j]
				}
				for _, e := range nbs[:nn] {
					v := a.besideCost(x, e.dir, e.piece)
					if math.IsInf(float64(v), 1) {
						if !lenient {
							return
						}
						d += gapPenalty
						continue
					}
					d += float64(v)
				}
				e := refillExt{s: int32(si), j: j, cost: s.cost + d, rank: s.rank + d - floor[j]}
				if nb < lineBranch {
					nb++
				} else if e.rank >= best[nb-1].rank {
					return
				}
				q := nb - 1
				for q > 0 && best[q-1].rank > e.rank {
					best[q] = best[q-1]
					q--
				}
				best[q] = e
			}
			if !a.shaped { // every piece fits every cell
				if a.besideRows(&rows, nbs[:nn]) {
					nb = offerFree(&best, s.used, twin, pieces, keptCost, floor, rows[:nn], int32(si), s.cost, s.rank)
				} else {
					for j := range pieces {
						if free(int32(j)) {
							offer(int32(j), false)
						}
					}
				}
				exts = append(exts, best[:nb]...)
				continue
			}
			codes, nc := allowedCodes(want, fixed)
			for _, code := range codes[:nc] {
				for _, j := range byCode[code] {
					if free(j) {
						offer(j, false)
					}
				}
			}
			if nb == 0 {
				flats := cellFlats(n, r, col)
				for j, x := range pieces {
					if free(int32(j)) && sigFlats(a.sides[x]) == flats {
						offer(int32(j), true)
					}
				}
			}
			exts = append(exts, best[:nb]...)
		}
		if len(exts) == 0 {
			return nil // no piece left has this cell's flat sides: cannot happen
		}
		// Ranked by rank; ties are common (a night sky, still water), and
		// the order pdqsort leaves them in measured better than the
		// order of generation or of a hash (32×32 shape moonlit-bay 0.959
		// against 0.81 and 0.67; free 0.818 against 0.815 and 0.762).
		// pdqsort's moves depend only on the comparisons, so it sorts the
		// ranks' keys (rankKey: compared as cmp.Compare compares the ranks)
		// with the extensions' indices, smaller and cheaper to compare than
		// the extensions, into the same order.
		ranked = ranked[:0]
		for i, e := range exts {
			ranked = append(ranked, rankedExt{rankKey(e.rank), int32(i)})
		}
		slices.SortFunc(ranked, func(p, q rankedExt) int { return cmp.Compare(p.key, q.key) })
		next := make([]state, 0, min(width, len(exts)))
		seen.reset(width)
		perUsed.reset(width)
		for _, re := range ranked {
			if len(next) == width {
				break
			}
			e := exts[re.i]
			p := &states[e.s]
			usedKey := p.usedKey ^ zUsed[e.j]
			if perUsed.get(usedKey) >= linePatterns {
				continue
			}
			hash := p.hash
			for _, q := range leaving[i] {
				hash ^= zAt(q, p.recent[q-(i-span)])
			}
			if lastNeed[i] > i {
				hash ^= zAt(i, e.j)
			}
			future := usedKey ^ hash // equal for states with the same futures
			if seen.get(future) > 0 {
				continue
			}
			seen.add(future)
			perUsed.add(usedKey)
			child := state{cost: e.cost, rank: e.rank, usedKey: usedKey, hash: hash}
			child.node = &beamNode{parent: p.node, piece: e.j}
			slot := len(next)
			child.recent = recentSlab[i&1][slot*span : (slot+1)*span : (slot+1)*span]
			copy(child.recent, p.recent[1:])
			child.recent[span-1] = e.j
			child.used = usedSlab[i&1][slot*words : (slot+1)*words : (slot+1)*words]
			copy(child.used, p.used)
			child.used[e.j>>6] |= 1 << (e.j & 63)
			next = append(next, child)
		}
		states = next
	}
	win := &states[0]
	for si := range states {
		if states[si].cost < win.cost {
			win = &states[si]
		}
	}
	out := slices.Clone(cells)
	node := win.node
	for i := k - 1; i >= 0; i-- {
		out[order[i]] = pieces[node.piece]
		node = node.parent
	}
	return out
}

// refillExt is a candidate child in refill: piece index j at the next
// position of state s.
type refillExt struct {
	s          int32
	j          int32
	cost, rank float64
}

// neighbour is a piece beside the cell being filled and the side (puzzle.Top…)
// of the new piece that meets it.
type neighbour struct {
	piece int
	dir   int
}

// besideRows sets rows[t][x] to besideCost(x, nbs[t].dir, nbs[t].piece) for
// every piece x, as rows of the seam matrices or of their transposes, and
// reports whether it could (without transposes, above columnsMax, a
// piece's right and bottom seams are m floats apart: not a row).
func (a *assembly) besideRows(rows *[4][]float32, nbs []neighbour) bool {
	m := a.m
	for t, e := range nbs {
		y := e.piece
		switch e.dir {
		case puzzle.Top:
			rows[t] = a.down[y*m : (y+1)*m]
		case puzzle.Left:
			rows[t] = a.right[y*m : (y+1)*m]
		default:
			leftOf, above := a.columns()
			if leftOf == nil {
				return false
			}
			if e.dir == puzzle.Right {
				rows[t] = leftOf[y*m : (y+1)*m]
			} else {
				rows[t] = above[y*m : (y+1)*m]
			}
		}
	}
	return true
}

// offerFree is refill's offer on a rectangular sheet, written out: every
// free piece index j (not in used, and no earlier look-alike free) priced
// by its kept seams and its rows, the lineBranch lowest ranks kept in best
// in order, ties in index order. It returns how many best holds. The same
// sums in the same order as the offer's, so the same fillings, read along
// rows and a word of the used set at a time: the offers were 46 % of the
// refill and the refill 40 % of the slowest 32×32 rect solves (fruit-market
// 9.9–10.1 s → 8.5–9.5 s, Storm 10.1–11.7 → 8.8–9.2 s, two runs each).
func offerFree(best *[lineBranch]refillExt, used []uint64, twin []int32, pieces []int, keptCost, floor []float64, rows [][]float32, si int32, cost, rank float64) int {
	k := len(pieces)
	nb := 0
	for w, bits := range used {
		free := ^bits
		if rest := k - w*64; rest < 64 {
			free &= 1<<rest - 1
		}
	next:
		for ; free != 0; free &= free - 1 {
			j := int32(w*64 + mathbits.TrailingZeros64(free))
			if t := twin[j]; t >= 0 && used[t>>6]&(1<<(t&63)) == 0 {
				continue
			}
			x := pieces[j]
			d := keptCost[j]
			for _, row := range rows {
				v := row[x]
				if math.IsInf(float64(v), 1) {
					continue next
				}
				d += float64(v)
			}
			r := rank + d - floor[j]
			if nb < lineBranch {
				nb++
			} else if r >= best[nb-1].rank {
				continue
			}
			q := nb - 1
			for q > 0 && best[q-1].rank > r {
				best[q] = best[q-1]
				q--
			}
			best[q] = refillExt{s: si, j: j, cost: cost + d, rank: r}
		}
	}
	return nb
}

// besideCost is the seam's cost with piece y on side dir (puzzle.Top…) of
// piece x.
func (a *assembly) besideCost(x, dir, y int) float32 {
	m := a.m
	switch dir {
	case puzzle.Top:
		return a.down[y*m+x]
	case puzzle.Right:
		return a.right[x*m+y]
	case puzzle.Bottom:
		return a.down[x*m+y]
	}
	return a.right[y*m+x]
}

// rankedExt is an extension's rank as rankKey orders it, and its index.
type rankedExt struct {
	key uint64
	i   int32
}

// rankKey maps x to a key that orders as cmp.Compare orders x: NaN first
// and equal to NaN, −0 equal to +0.
func rankKey(x float64) uint64 {
	if x != x {
		return 0
	}
	if x == 0 {
		x = 0 // −0 is +0
	}
	b := math.Float64bits(x)
	if b>>63 != 0 {
		return ^b // negative: the larger the magnitude, the smaller
	}
	return b | 1<<63
}

// allowedCodes lists the signature codes whose sides are want where fixed
// says so and tab or blank elsewhere: tab before blank, the earlier sides
// varying slowest.
func allowedCodes(want [4]puzzle.Side, fixed [4]bool) ([16]int, int) {
	var codes [16]int
	nc := 1
	for dir, weight := range [4]int{1, 3, 9, 27} {
		if fixed[dir] {
			for t := range nc {
				codes[t] += int(want[dir]) * weight
			}
			continue
		}
		for t := nc - 1; t >= 0; t-- {
			codes[2*t+1] = codes[t] + int(puzzle.Blank)*weight
			codes[2*t] = codes[t] + int(puzzle.Tab)*weight
		}
		nc *= 2
	}
	return codes, nc
}

// neighbours lists the cells beside cell c of an n×n grid.
func neighbours(n, c int) []int {
	r, col := c/n, c%n
	out := make([]int, 0, 4)
	if col > 0 {
		out = append(out, c-1)
	}
	if col+1 < n {
		out = append(out, c+1)
	}
	if r > 0 {
		out = append(out, c-n)
	}
	if r+1 < n {
		out = append(out, c+n)
	}
	return out
}
