package solve

import "slices"

// Block shifts on a shape sheet. The framed greedy can place a whole
// region right inside but displaced as a block — on night-city at 32×32 a
// block of some 150 pieces sat one row above its cells — which no exchange
// of two pieces undoes. shiftBlocks moves such a block, a component of
// best-buddy seams (buddyComponents), by one cell up, down, left or right; the
// framed greedy places the pieces it displaced in the cells it left, and
// then once more every piece of a doubtful cell (a block joins the rest
// through a few seams of featureless pieces that must not move with it);
// the move is kept when the total cost falls.

// shiftMinBlock is the fewest pieces a block must have to be moved;
// shiftMaxBlocks the most blocks tried per round (the largest);
// shiftRounds the most rounds of moves; shiftTrials the most moves tried in
// all (each costs two framed greedies: with 8 blocks, diagonal moves and no
// bound harbor-town's 32×32 solve took 2.8 times as long, with 24 moves 2.5
// times; night-city's block is the first move tried).
const (
	shiftMinBlock  = 4
	shiftMaxBlocks = 4
	shiftRounds    = 16
	shiftTrials    = 4
)

// shiftBlocks moves blocks of cells (see above) while that lowers the
// penalised cost, in place, and reports whether it moved any.
func (a *assembly) shiftBlocks(cells []int) bool {
	n, m := a.n, a.m
	best := a.bestMatches()
	moved := false
	keep := make([]int, m)
	trials := 0
	for round := 0; round < shiftRounds && trials < shiftTrials; round++ {
		main, _, find := a.buddyComponents(cells, best)
		members := make([][]int, m)
		for c := range cells {
			if r := find(c); r != find(main) {
				members[r] = append(members[r], c)
			}
		}
		var blocks [][]int
		for _, mb := range members {
			if len(mb) >= shiftMinBlock {
				blocks = append(blocks, mb)
			}
		}
		// Largest first; equal sizes by their first cell (determinism).
		slices.SortStableFunc(blocks, func(x, y []int) int { return len(y) - len(x) })
		blocks = blocks[:min(len(blocks), shiftMaxBlocks)]
		total := penalisedCost(n, a.right, a.down, cells)
		improved := false
	blocks:
		for _, block := range blocks {
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				if trials == shiftTrials {
					break blocks
				}
				if !a.shifted(keep, cells, block, d[0], d[1]) {
					continue
				}
				trials++
				cand := a.growFramedFrom(keep)
				doubt := a.doubtful(cand, best)
				for c, x := range cand {
					keep[c] = x
					if doubt[c] {
						keep[c] = -1
					}
				}
				if again := a.growFramedFrom(keep); penalisedCost(n, a.right, a.down, again) < penalisedCost(n, a.right, a.down, cand) {
					cand = again
				}
				if t := penalisedCost(n, a.right, a.down, cand); t < total-1e-6 {
					copy(cells, cand)
					improved, moved = true, true
					break blocks
				}
			}
		}
		if !improved {
			break
		}
	}
	return moved
}

// shifted writes into keep the cells with block moved by (dr, dc) and the
// cells it leaves empty (−1), the pieces it covers taken out. A piece that
// would leave the grid, or whose flat sides would not fit its new cell, is
// taken out too; false if that is half the block.
func (a *assembly) shifted(keep, cells, block []int, dr, dc int) bool {
	n := a.n
	copy(keep, cells)
	fits := func(c int) bool {
		r, col := c/n+dr, c%n+dc
		return r >= 0 && r < n && col >= 0 && col < n && sigFlats(a.sides[cells[c]]) == cellFlats(n, r, col)
	}
	out := 0
	for _, c := range block {
		keep[c] = -1
		if !fits(c) {
			out++
		}
	}
	if 2*out >= len(block) {
		return false
	}
	// The pieces the block covers, outside it, leave keep: the greedy
	// places them again.
	for _, c := range block {
		if fits(c) {
			keep[c+dr*n+dc] = cells[c]
		}
	}
	return true
}
