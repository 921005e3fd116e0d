package solve

import (
	"cmp"
	"math"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Line reordering. In a sky, a sea or a blurred background the answer often
// puts every piece in its own row but orders the row wrongly: the light
// changes with height, so the seams above and below say which row, while
// the seams along the row are too weak to say which column (32×32
// harbor-town's top four rows: every piece in its row, 5–27 columns off).
// Exchanges of two pieces cannot reorder a row whose tabs must interlock
// with the rows around it, and a beam over the whole region is misled by
// its partial costs. But given the right line beside it, a line's own
// pieces are put in their true order by a beam over that line alone — a
// search small enough to be all but exact (on harbor-town, given each true
// row below, every sky row but one tied one).
//
// So a line is suspect when some order of its own pieces fits the line on
// one side better than its order does; a run of suspect lines is peeled
// from that side, line by line, each line ordered afresh against the one
// reordered before it; and the result is kept when the total cost falls.
// Rows and columns, both sides, a few rounds: 32×32 shape sunset-sea PA
// 0.864 → 0.981, desert-dunes 0.820 → 0.865, harbor-town 0.933 → 0.954.

// lineAxis views an n×n grid as rows (byRow) or as columns.
type lineAxis struct {
	n, m  int
	byRow bool
	// along[x*m+y] is y's cost after x along a line; across[x*m+y] is y's
	// cost in the next line at the same position.
	along, across []float32
}

func (a *assembly) axis(byRow bool) lineAxis {
	if byRow {
		return lineAxis{n: a.n, m: a.m, byRow: true, along: a.right, across: a.down}
	}
	return lineAxis{n: a.n, m: a.m, along: a.down, across: a.right}
}

// cell is the grid cell at position pos of line.
func (ax lineAxis) cell(line, pos int) int {
	if ax.byRow {
		return line*ax.n + pos
	}
	return pos*ax.n + line
}

// flatsFit reports whether x's sides at the ends of a line fit position pos.
func (ax lineAxis) flatsFit(s puzzle.Sides, pos int) bool {
	lo, hi := puzzle.Left, puzzle.Right
	if !ax.byRow {
		lo, hi = puzzle.Top, puzzle.Bottom
	}
	return (s[lo] == puzzle.Flat) == (pos == 0) && (s[hi] == puzzle.Flat) == (pos == ax.n-1)
}

// lineWidth is the beam's width over one line. Ranked by cost alone it
// needed 4,096 states (1,024 lost harbor-town's sky, 65,536 found nothing
// more); ranked as below, 1,024 find the answers of 2,048 on the survey's
// 32×32 failures but one (harbor-town 0.954 against 0.960), at half the time.
const lineWidth = 1024

// linePatterns is the most states the line beam keeps with the same pieces
// used and the same last piece, differing in the sides they turn to the
// next line.
const linePatterns = 4

// lineBranch is the most extensions of one state the line beam ranks.
const lineBranch = 8

// lineOrder is one order of a line's pieces and what it costs.
type lineOrder struct {
	pieces []int
	cost   float64
}

// orderLine returns the k cheapest orders a beam of width states finds of
// the pieces now on line, priced along the line and against line−1
// (withPrev) and line+1 (withNext) as they stand in cells; none if no order
// fits. With away ≥ 0 the orders differ in the sides their pieces turn
// that way (puzzle.Top…), which is what the next line of a peel must fit:
// a few states per set of pieces used and last piece are kept for
// different such patterns, not only the cheapest.
func (a *assembly) orderLine(ax lineAxis, cells []int, line int, withPrev, withNext bool, width, k, away int) []lineOrder {
	n, m := ax.n, ax.m
	pieces := make([]int, n)
	for j := range n {
		pieces[j] = cells[ax.cell(line, j)]
	}
	// unary[i*n+j]: piece i at position j against the fixed lines.
	unary := make([]float64, n*n)
	for i, x := range pieces {
		for j := range n {
			var d float64
			if a.shaped && !ax.flatsFit(a.sides[x], j) {
				d = math.Inf(1)
			}
			if withPrev {
				d += float64(ax.across[cells[ax.cell(line-1, j)]*m+x])
			}
			if withNext {
				d += float64(ax.across[x*m+cells[ax.cell(line+1, j)]])
			}
			unary[i*n+j] = d
		}
	}
	pair := make([]float64, n*n) // pair[i*n+h]: piece h after piece i
	for i, x := range pieces {
		for h, y := range pieces {
			pair[i*n+h] = float64(ax.along[x*m+y])
		}
	}
	// The beam's fillings as a tree of nodes, by index (−1 the root).
	type node struct{ parent, i int32 }
	nodes := make([]node, 0, width*n)
	type state struct {
		used       uint64
		last       int
		pattern    uint64
		cost, rank float64
		node       int32
	}
	type ext struct {
		s          int32
		i          int32
		cost, rank float64
	}
	// States are ranked by their cost less the least each piece they used
	// could have cost anywhere (floor): every full order uses every piece,
	// so this changes no full order's rank, but a state that used the
	// dear pieces early is not ranked below one that left them for later.
	floor := make([]float64, n)
	for i := range n {
		lo := math.Inf(1)
		for j := range n {
			lo = min(lo, unary[i*n+j])
		}
		in := math.Inf(1)
		for h := range n {
			if h != i {
				in = min(in, pair[h*n+i])
			}
		}
		if math.IsInf(in, 1) {
			in = 0
		}
		floor[i] = lo + in
	}
	states := []state{{last: -1, node: -1}}
	var slabs [2][]state // the states of a position and their children's, swapped
	byLast := make([]int32, (n+1)*n)
	lists := make([][]int32, n+1)
	add := make([]float64, n)
	var exts []ext // lineBranch slots per state, cheapest first
	var count []int
	var queue extQueue
	// States are told apart by hashes of their pieces used and last piece
	// (perOrder) and of those and their pattern (seen): 64-bit hashes of
	// a few thousand states do not collide in practice.
	var seen, perOrder keyCounts
	for j := range n {
		exts = slices.Grow(exts[:0], len(states)*lineBranch)[:len(states)*lineBranch]
		count = slices.Grow(count[:0], len(states))[:len(states)]
		queue = queue[:0]
		// byLast[(last+1)*n:][:n]: the pieces in order of what they add
		// after last (−1: none) at position j, the unfitting left out.
		for last := -1; last < n; last++ {
			list := byLast[(last+1)*n : (last+1)*n : (last+2)*n]
			for i := range n {
				d := unary[i*n+j]
				if last >= 0 {
					d += pair[last*n+i]
				}
				add[i] = d
				if i != last && !math.IsInf(d, 1) {
					list = append(list, int32(i))
				}
			}
			slices.SortStableFunc(list, func(x, y int32) int { return cmp.Compare(add[x]-floor[x], add[y]-floor[y]) })
			lists[last+1] = list
		}
		for si, s := range states {
			// Only the lineBranch cheapest extensions of each state.
			best := exts[si*lineBranch : (si+1)*lineBranch]
			k := 0
			for _, i := range lists[s.last+1] {
				if s.used&(1<<i) != 0 {
					continue
				}
				d := unary[int(i)*n+j]
				if s.last >= 0 {
					d += pair[s.last*n+int(i)]
				}
				best[k] = ext{int32(si), i, s.cost + d, s.rank + d - floor[i]}
				if k++; k == lineBranch {
					break
				}
			}
			count[si] = k
			if k > 0 {
				queue = append(queue, queued{best[0].rank, int32(si), 0})
			}
		}
		if len(queue) == 0 {
			return nil
		}
		// The extensions in order of rank, merged from the states' sorted
		// lists, until the beam is full.
		queue.init()
		seen.reset(width)
		perOrder.reset(width)
		if cap(slabs[j%2]) < min(width, len(exts)) {
			slabs[j%2] = make([]state, 0, min(width, len(exts)))
		}
		next := slabs[j%2][:0]
		for len(queue) > 0 && len(next) < width {
			q := queue[0]
			e := exts[int(q.s)*lineBranch+int(q.h)]
			if int(q.h)+1 < count[q.s] {
				queue[0] = queued{exts[int(q.s)*lineBranch+int(q.h)+1].rank, q.s, q.h + 1}
				queue.down(0)
			} else {
				queue.pop()
			}
			p := &states[e.s]
			used, pattern := p.used|1<<e.i, p.pattern
			if away >= 0 {
				pattern = pattern*3 + uint64(a.sides[pieces[e.i]][away])
			}
			order := mix64(used + uint64(e.i)*0x9e3779b97f4a7c15)
			full := mix64(order ^ pattern)
			if seen.get(full) > 0 || perOrder.get(order) == linePatterns {
				continue
			}
			seen.add(full)
			perOrder.add(order)
			nodes = append(nodes, node{p.node, e.i})
			next = append(next, state{used: used, last: int(e.i), pattern: pattern, cost: e.cost, rank: e.rank, node: int32(len(nodes) - 1)})
		}
		states = next
	}
	var out []lineOrder
	patterns := map[uint64]bool{}
	for _, s := range states {
		if len(out) == k {
			break
		}
		if patterns[s.pattern] {
			continue
		}
		patterns[s.pattern] = true
		o := lineOrder{pieces: make([]int, n), cost: s.cost}
		j := n - 1
		for nd := s.node; nd >= 0; nd = nodes[nd].parent {
			o.pieces[j] = pieces[nodes[nd].i]
			j--
		}
		out = append(out, o)
	}
	return out
}

// bandWidth is how many orders of the band so far the peel keeps, and
// how many orders of each line it extends them by.
const bandWidth = 4

// peelLines reorders cells' lines from line from to line to (step ±1), one
// by one, the line before from (from−step) held as it is: each line is priced
// against the one reordered before it, and the bandWidth cheapest orders of
// the band so far are extended by each line's bandWidth cheapest, so a
// line's order is chosen knowing what the next line makes of it. The band
// may end at any line from close on towards to: there its last line is
// priced against the line beyond it as well. It returns the cheapest
// arrangement of all those endings, or nil if none fits.
func (a *assembly) peelLines(ax lineAxis, cells []int, from, close, to, step int) ([]int, float64) {
	n := ax.n
	type band struct {
		cells []int
		cost  float64
	}
	bands := []band{{cells: cells}}
	var best []int
	bestCost := math.Inf(1)
	for line := from; ; line += step {
		beyond := line+step >= 0 && line+step < n
		// A line is priced against the line before it in the peel, and
		// when the band ends there against the line beyond it too.
		against := func(ending bool) (withPrev, withNext bool) {
			if ending {
				return line > 0, line < n-1
			}
			return step > 0, step < 0
		}
		closing := (line-close)*step >= 0
		type job struct {
			b      int
			ending bool
		}
		var jobs []job
		for b := range bands {
			if beyond {
				jobs = append(jobs, job{b, false})
			}
			if !beyond || closing {
				jobs = append(jobs, job{b, true})
			}
		}
		orders := make([][]lineOrder, len(jobs))
		parallelFor(len(jobs), func(i int) error {
			jb := jobs[i]
			withPrev, withNext := against(jb.ending)
			k, away := bandWidth, -1
			if jb.ending {
				k = 1
			} else if a.shaped {
				away = awaySide(ax.byRow, step < 0)
			}
			orders[i] = a.orderLine(ax, bands[jb.b].cells, line, withPrev, withNext, lineWidth, k, away)
			return nil
		})
		var next []band
		for i, jb := range jobs {
			for _, o := range orders[i] {
				c := slices.Clone(bands[jb.b].cells)
				for j, x := range o.pieces {
					c[ax.cell(line, j)] = x
				}
				if jb.ending {
					if cost := penalisedCost(n, a.right, a.down, c); cost < bestCost {
						best, bestCost = c, cost
					}
					continue
				}
				next = append(next, band{c, bands[jb.b].cost + o.cost})
			}
		}
		if line == to || len(next) == 0 {
			break
		}
		slices.SortStableFunc(next, func(p, q band) int { return cmp.Compare(p.cost, q.cost) })
		bands = next[:min(bandWidth, len(next))]
	}
	return best, bestCost
}

// suspectWidth is the line beam's width when it only asks whether a line
// could be ordered better.
const suspectWidth = 256

// lineSlack is how many lines before a run of suspect lines a peel starts
// and past it a band may end, and the widest gap between suspect lines
// that one run bridges.
const lineSlack = 2

// suspectLines marks the lines of cells that an order of their own pieces
// fits better than they are, given the line on their sure side: line+1
// when step < 0, line−1 when step > 0.
func (a *assembly) suspectLines(ax lineAxis, cells []int, step int) []bool {
	n, m := ax.n, ax.m
	out := make([]bool, n)
	parallelFor(n, func(line int) error {
		other := line - step
		if other < 0 || other >= n {
			return nil
		}
		var cur float64
		for j := range n {
			x := cells[ax.cell(line, j)]
			if j > 0 {
				cur += gapPriced(ax.along[cells[ax.cell(line, j-1)]*m+x])
			}
			if step < 0 {
				cur += gapPriced(ax.across[x*m+cells[ax.cell(other, j)]])
			} else {
				cur += gapPriced(ax.across[cells[ax.cell(other, j)]*m+x])
			}
		}
		o := a.orderLine(ax, cells, line, step > 0, step < 0, suspectWidth, 1, -1)
		out[line] = len(o) > 0 && o[0].cost < cur-1e-6
		return nil
	})
	return out
}

// lineRounds is the most rounds of reorderLines: a new order of one band
// can make the lines beside it suspect.
const lineRounds = 3

// reorderLines reorders the rows of cells: each round peels every run of
// suspect rows from either side (peelLines) and keeps the cheapest result
// and those of the other runs it leaves alone, again while a round
// changes something; it reports whether one did. Rows only: columns as
// well found nothing more on the survey's failures (light changes with
// height, so it is rows that a sky or a sea leaves in order) and took a
// third of the time.
func (a *assembly) reorderLines(cells []int) bool {
	return a.reorderLinesOn(cells, []bool{true})
}

// reorderLinesOn is reorderLines on rows (true) and/or columns (false).
// A line's pieces are a 64-bit set in its beam: above 64×64 it does nothing.
func (a *assembly) reorderLinesOn(cells []int, axes []bool) bool {
	if a.n > 64 {
		return false
	}
	improved := false
	for range lineRounds {
		if !a.reorderLinesOnce(cells, axes) {
			break
		}
		improved = true
	}
	return improved
}

func (a *assembly) reorderLinesOnce(cells []int, axes []bool) bool {
	n := a.n
	type peel struct {
		byRow                 bool
		from, close, to, step int
		cells                 []int
		cost                  float64
	}
	var peels []*peel
	for _, byRow := range axes {
		for _, step := range []int{-1, 1} {
			suspect := a.suspectLines(a.axis(byRow), cells, step)
			for lo := 0; lo < n; lo++ {
				if !suspect[lo] {
					continue
				}
				// A run of suspect lines, gaps of up to lineSlack
				// bridged: its lines may be right given the wrong
				// ones beside them.
				hi := lo
				for h := lo + 1; h < n && h <= hi+lineSlack+1; h++ {
					if suspect[h] {
						hi = h
					}
				}
				// The peel starts lineSlack lines on the sure side of
				// the run (a line can be one of several orders that fit
				// the line before it equally well, and the wrong one
				// leaves no right order for the next) and may end up to
				// lineSlack lines past it.
				p := &peel{byRow: byRow, from: min(n-2, hi+lineSlack), close: lo, to: max(0, lo-lineSlack), step: step}
				if step > 0 {
					p.from, p.close, p.to = max(1, lo-lineSlack), hi, min(n-1, hi+lineSlack)
				}
				peels = append(peels, p)
				lo = hi
			}
		}
	}
	parallelFor(len(peels), func(i int) error {
		p := peels[i]
		p.cells, p.cost = a.peelLines(a.axis(p.byRow), cells, p.from, p.close, p.to, p.step)
		return nil
	})
	cur := penalisedCost(n, a.right, a.down, cells)
	peels = slices.DeleteFunc(peels, func(p *peel) bool { return p.cells == nil || p.cost >= cur-1e-6 })
	if len(peels) == 0 {
		return false
	}
	// The cheapest result first; then every other of the same axis whose
	// lines, and the lines beside them, no taken peel touched: it changes
	// other seams, so its gain adds to the first's.
	slices.SortStableFunc(peels, func(p, q *peel) int { return cmp.Compare(p.cost, q.cost) })
	first := peels[0]
	copy(cells, first.cells)
	span := func(p *peel) [2]int { return [2]int{min(p.from, p.to), max(p.from, p.to)} }
	taken := [][2]int{span(first)}
	ax := a.axis(first.byRow)
	for _, p := range peels[1:] {
		lines := span(p)
		if p.byRow != first.byRow || slices.ContainsFunc(taken, func(t [2]int) bool { return lines[0] <= t[1]+1 && t[0] <= lines[1]+1 }) {
			continue
		}
		taken = append(taken, lines)
		for line := lines[0]; line <= lines[1]; line++ {
			for j := range n {
				c := ax.cell(line, j)
				cells[c] = p.cells[c]
			}
		}
	}
	return true
}

// awaySide is the side of a line's pieces that the next line of a peel
// meets: their tops when the peel goes up the rows from a sure line below.
func awaySide(byRow, fromHigh bool) int {
	switch {
	case byRow && fromHigh:
		return puzzle.Top
	case byRow:
		return puzzle.Bottom
	case fromHigh:
		return puzzle.Left
	}
	return puzzle.Right
}

// queued is a state's next extension in the line beam's merge: its rank,
// the state and the extension's place among the state's.
type queued struct {
	rank float64
	s    int32
	h    int32
}

// extQueue is a binary min-heap of queued by rank (ties by state, so the
// order is deterministic).
type extQueue []queued

// before is the heap's order: by rank, ties by state.
func (e queued) before(f queued) bool {
	return e.rank < f.rank || e.rank == f.rank && e.s < f.s
}

func (q extQueue) init() {
	for i := len(q)/2 - 1; i >= 0; i-- {
		q.down(i)
	}
}

// down sifts q[i] down. It moves the entry once, to the end of its path,
// rather than swapping it down level by level: the same comparisons, the
// same heap.
func (q extQueue) down(i int) {
	if i >= len(q) { // popped the last
		return
	}
	x := q[i]
	for {
		l := 2*i + 1
		if l >= len(q) {
			break
		}
		if r := l + 1; r < len(q) && q[r].before(q[l]) {
			l = r
		}
		if !q[l].before(x) {
			break
		}
		q[i] = q[l]
		i = l
	}
	q[i] = x
}

func (q *extQueue) pop() {
	old := *q
	last := len(old) - 1
	old[0] = old[last]
	*q = old[:last]
	q.down(0)
}

// mix64 is SplitMix64's finaliser: a cheap, well-spread 64-bit hash.
func mix64(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	return x ^ x>>31
}
