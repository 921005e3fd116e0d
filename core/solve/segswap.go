package solve

import (
	"cmp"
	"math"
	"slices"
)

// Exchanges: the last repair of a 32×32 rect answer. The searches before
// it move pieces by small blocks near each other (swapBlocks: up to 2 × 2,
// both blocks doubtful) or by translations their border buddies vote for
// (segmove.go), so pieces that grew into each other's places far apart
// stay there: Wood.jpg's answer had two top-row pieces 23 columns apart
// exchanged, 26.5 dearer than the truth; coral-reef's a 5 × 3 block with
// one 25 columns away. Here three kinds of unit are each priced exchanged
// with the cells of the same shape at some offsets, and each makes the
// cheapest of its exchanges that lowers the total cost (docs/solver.md,
// "Exchanging segments"):
//   - each piece alone, with the cells beside where its best matches lie
//     and, if its cell is doubtful, with every doubtful cell;
//   - each segment of two to segmentSwapMax cells (a region joined by
//     best-buddy seams, buddyComponents), at every offset on the grid;
//   - each block of up to exchangeBlockMax × exchangeBlockMax cells
//     holding a doubtful cell, at each offset that two or more of its
//     border pieces' best matches point to (a block right inside need not
//     be one segment: coral-reef's is split in four, two parts joined to
//     the region around it by wrong best-buddy seams).

// segmentSwapMax is the largest segment exchanged, exchangeBlockMax the
// largest side of a block; segmentSwapRounds is the most rounds over all
// units (each round finds them anew).
const (
	segmentSwapMax    = 64
	exchangeBlockMax  = 6
	segmentSwapRounds = 10
)

// An exchangeUnit is a set of cells exchanged as one: a piece, a segment,
// or a block (rows r0 to r0+h−1, columns c0 to c0+w−1).
type exchangeUnit struct {
	kind         unitKind
	cells        []int // a piece's or a segment's, in cell order
	r0, c0, h, w int   // a block's
	offsets      []int // a block's, voted for as the round starts
}

// blockCells appends a block's cells to out, in cell order.
func (u exchangeUnit) blockCells(n int, out []int) []int {
	for r := u.r0; r < u.r0+u.h; r++ {
		for c := u.c0; c < u.c0+u.w; c++ {
			out = append(out, r*n+c)
		}
	}
	return out
}

type unitKind int

const (
	unitPiece unitKind = iota
	unitSegment
	unitBlock
)

// swapSegments makes the exchanges above in cells (cell → piece) in place
// and reports whether it made any.
func (a *assembly) swapSegments(cells []int) bool {
	n, m := a.n, a.m
	best := a.bestMatches()
	inSeg, inSet := make([]bool, m), make([]bool, m)
	where := make([]int, m) // piece → cell
	doubtBefore := make([]int, (n+1)*(n+1))
	each := make([]int, m) // each[c] = c: a piece unit's cells are each[c : c+1]
	for c := range each {
		each[c] = c
	}
	var set, scratch, buf []int
	changed := false
	for range segmentSwapRounds {
		_, _, find := a.buddyComponents(cells, best)
		doubt := a.doubtful(cells, best)
		countBefore(n, doubt, doubtBefore)
		var doubtful []int
		members := make([][]int, m) // root → its cells, in cell order
		for c, x := range cells {
			if doubt[c] {
				doubtful = append(doubtful, c)
			}
			r := find(c)
			members[r] = append(members[r], c)
			where[x] = c
		}
		var units []exchangeUnit
		for c := range cells {
			units = append(units, exchangeUnit{kind: unitPiece, cells: each[c : c+1 : c+1]})
		}
		for _, seg := range members {
			if len(seg) > 1 && len(seg) <= segmentSwapMax {
				units = append(units, exchangeUnit{kind: unitSegment, cells: seg})
			}
		}
		at := func(r, c int) int { return doubtBefore[r*(n+1)+c] }
		for r0 := range n {
			for c0 := range n {
				for h := 1; h <= exchangeBlockMax && r0+h <= n; h++ {
					for w := 1; w <= exchangeBlockMax && c0+w <= n; w++ {
						if h*w > 1 && at(r0+h, c0+w)-at(r0, c0+w)-at(r0+h, c0)+at(r0, c0) > 0 {
							u := exchangeUnit{kind: unitBlock, r0: r0, c0: c0, h: h, w: w}
							buf = u.blockCells(n, buf[:0])
							u.offsets = a.exchangeOffsets(u, buf, cells, where, best, nil)
							if len(u.offsets) > 0 {
								units = append(units, u)
							}
						}
					}
				}
			}
		}
		moved := false
		for _, u := range units {
			seg, offsets := u.cells, u.offsets
			if u.kind == unitBlock {
				buf = u.blockCells(n, buf[:0])
				seg = buf
			} else {
				offsets = a.exchangeOffsets(u, seg, cells, where, best, scratch[:0])
				if u.kind == unitPiece && doubt[seg[0]] {
					for _, t := range doubtful {
						if t != seg[0] {
							offsets = append(offsets, t-seg[0])
						}
					}
				}
				scratch = offsets // its array serves the next unit
			}
			if len(offsets) == 0 {
				continue
			}
			for _, c := range seg {
				inSeg[c] = true
			}
			gain, bestD := 1e-6, 0
			for _, d := range offsets {
				if overlaps(seg, inSeg, d) {
					continue
				}
				set = set[:0]
				for _, c := range seg {
					set = append(set, c, c+d)
				}
				for _, c := range set {
					inSet[c] = true
				}
				before := a.setCost(cells, set, inSet)
				under := math.NaN() // see setCostUnder
				if a.positive {
					under = before - gain
				}
				exchange(cells, seg, d)
				if g := before - a.setCostUnder(cells, set, inSet, under); g > gain {
					gain, bestD = g, d
				}
				exchange(cells, seg, d)
				for _, c := range set {
					inSet[c] = false
				}
			}
			for _, c := range seg {
				inSeg[c] = false
			}
			if bestD != 0 {
				exchange(cells, seg, bestD)
				for _, c := range seg {
					where[cells[c]], where[cells[c+bestD]] = c, c+bestD
				}
				moved = true
			}
		}
		if !moved {
			break
		}
		changed = true
	}
	return changed
}

// exchangeOffsets appends to out the offsets d (cell c to c+d) at which
// the unit u (its cells seg) is priced exchanged, as above: for a piece
// the cells beside where its best matches lie, each on the side that piece
// prefers it (one pricing each, not one per cell of the grid: every piece
// priced against every cell took a tenth of a second a round); for a
// segment every offset that keeps it on the grid; for a block those that
// blockVotes of its border pieces agree on.
func (a *assembly) exchangeOffsets(u exchangeUnit, seg, cells, where []int, best *matches, out []int) []int {
	n := a.n
	switch u.kind {
	case unitPiece:
		c, x := seg[0], cells[seg[0]]
		add := func(t int, ok bool) {
			if ok && t != c {
				out = append(out, t-c)
			}
		}
		l, r, up, d := where[best.left[x]], where[best.right[x]], where[best.up[x]], where[best.down[x]]
		add(l+1, l%n+1 < n)
		add(r-1, r%n > 0)
		add(up+n, up+n < len(cells))
		add(d-n, d >= n)
	case unitSegment:
		r0, r1, c0, c1 := n, 0, n, 0 // the segment's bounding box
		for _, c := range seg {
			r0, r1, c0, c1 = min(r0, c/n), max(r1, c/n), min(c0, c%n), max(c1, c%n)
		}
		for dr := -r0; dr < n-r1; dr++ {
			for dc := -c0; dc < n-c1; dc++ {
				if dr != 0 || dc != 0 {
					out = append(out, dr*n+dc)
				}
			}
		}
	case unitBlock:
		var votes [4 * exchangeBlockMax][2]int // (dr, dc) each border piece points to
		k := 0
		vote := func(c, t int, ok bool) {
			if ok {
				votes[k], k = [2]int{t/n - c/n, t%n - c%n}, k+1
			}
		}
		for _, c := range seg {
			x := cells[c]
			if c%n == u.c0 {
				l := where[best.left[x]]
				vote(c, l+1, l%n+1 < n)
			}
			if c%n == u.c0+u.w-1 {
				r := where[best.right[x]]
				vote(c, r-1, r%n > 0)
			}
			if c/n == u.r0 {
				up := where[best.up[x]]
				vote(c, up+n, up+n < len(cells))
			}
			if c/n == u.r0+u.h-1 {
				d := where[best.down[x]]
				vote(c, d-n, d >= n)
			}
		}
		vs := votes[:k]
		slices.SortFunc(vs, func(p, q [2]int) int {
			if c := cmp.Compare(p[0], q[0]); c != 0 {
				return c
			}
			return cmp.Compare(p[1], q[1])
		})
		for i := 0; i < len(vs); {
			j := i
			for j < len(vs) && vs[j] == vs[i] {
				j++
			}
			dr, dc := vs[i][0], vs[i][1]
			if j-i >= blockVotes && (dr != 0 || dc != 0) && u.r0+dr >= 0 && u.r0+u.h+dr <= n && u.c0+dc >= 0 && u.c0+u.w+dc <= n {
				out = append(out, dr*n+dc)
			}
			i = j
		}
	}
	return out
}

// blockVotes is how many of a block's border pieces must point to an
// offset for the block to be priced exchanged there.
const blockVotes = 2

// overlaps reports whether the unit moved by d lands on one of its own
// cells (inSeg marks them).
func overlaps(seg []int, inSeg []bool, d int) bool {
	for _, c := range seg {
		if inSeg[c+d] {
			return true
		}
	}
	return false
}

// exchange swaps the pieces of the cells of seg with those d cells on.
func exchange(cells, seg []int, d int) {
	for _, c := range seg {
		cells[c], cells[c+d] = cells[c+d], cells[c]
	}
}
