package solve

import "math"

// Segment exchanges: the last repair of a 32×32 rect answer. The searches
// before it move pieces by small blocks near each other (swapBlocks: up to
// 2 × 2, both blocks doubtful) or by translations their border buddies vote
// for (segmove.go), so pieces that grew into each other's places far apart
// stay there: Wood.jpg's answer had two top-row pieces 23 columns apart
// exchanged, 26.5 dearer than the truth. Here each segment of two to
// segmentSwapMax cells (a region joined by best-buddy seams,
// buddyComponents) is priced exchanged with the block of the same shape at
// every offset on the grid, and each piece alone with the cells beside
// where its best matches lie and, if its cell is doubtful, with every
// doubtful cell; the cheapest exchange of each that lowers the total cost
// is made (README, "Exchanging segments").

// segmentSwapMax is the largest segment exchanged; segmentSwapRounds the
// most rounds over all segments (each round finds the segments anew).
const (
	segmentSwapMax    = 64
	segmentSwapRounds = 10
)

// swapSegments exchanges segments of cells (cell → piece) in place as
// above and reports whether it exchanged any.
func (a *assembly) swapSegments(cells []int) bool {
	m := a.m
	best := a.bestMatches()
	inSeg, inSet := make([]bool, m), make([]bool, m)
	where := make([]int, m) // piece → cell
	var set, offsets []int
	changed := false
	for range segmentSwapRounds {
		_, _, find := a.buddyComponents(cells, best)
		doubt := a.doubtful(cells, best)
		var doubtful []int
		for c, d := range doubt {
			if d {
				doubtful = append(doubtful, c)
			}
		}
		members := make([][]int, m) // root → its cells, in cell order
		for c, x := range cells {
			r := find(c)
			members[r] = append(members[r], c)
			where[x] = c
		}
		// Every piece alone, then every segment of two or more cells: a
		// misplaced piece joined to a large region by a wrong best-buddy
		// seam is exchanged alone.
		var units [][]int
		for c := range cells {
			units = append(units, []int{c})
		}
		for _, seg := range members {
			if len(seg) > 1 && len(seg) <= segmentSwapMax {
				units = append(units, seg)
			}
		}
		moved := false
		for _, seg := range units {
			for _, c := range seg {
				inSeg[c] = true
			}
			offsets = a.exchangeOffsets(cells, seg, where, best, offsets[:0])
			if len(seg) == 1 && doubt[seg[0]] {
				for _, t := range doubtful {
					if t != seg[0] {
						offsets = append(offsets, t-seg[0])
					}
				}
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
// seg is priced exchanged: for a segment every offset that keeps its shape
// on the grid; for a single piece only the cells beside where its best
// matches lie, each on the side that piece prefers it (one pricing each,
// not one per cell of the grid: a round over every piece stays under a
// millisecond, not a tenth of a second).
func (a *assembly) exchangeOffsets(cells, seg, where []int, best *matches, out []int) []int {
	n := a.n
	if len(seg) == 1 {
		c, x := seg[0], cells[seg[0]]
		add := func(t int, ok bool) {
			if ok && t != c {
				out = append(out, t-c)
			}
		}
		l, r, u, d := where[best.left[x]], where[best.right[x]], where[best.up[x]], where[best.down[x]]
		add(l+1, l%n+1 < n)
		add(r-1, r%n > 0)
		add(u+n, u+n < len(cells))
		add(d-n, d >= n)
		return out
	}
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
	return out
}

// overlaps reports whether the segment moved by d lands on one of its own
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
