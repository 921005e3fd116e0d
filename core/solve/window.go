package solve

import "slices"

// Refilling windows of a rect answer. Where a 32×32 answer is wrong in a
// smooth part — a sky, a blurred background — its pieces are mostly within
// a few cells of their own, shuffled among near-equal seams, and no move
// of one piece or one block lowers the cost while the refill of the whole
// loose part scrambles the right cells in it (YellowFlower: 237 cells
// refilled, PA 0.952 → 0.89). A small window is different: its pieces
// are priced against the fixed cells all round it, so the refill beam
// (refill.go) places them much as an exhaustive search would. Every
// window of windowSide × windowSide cells, windowSide/2 apart, at least
// half of whose cells are doubtful (a seam that is not a best-buddy one),
// has its own pieces placed again, row by row from either end, and a
// filling is kept when the total cost falls (README, "Refilling windows").

// windowSide is the side of the windows, windowWidth the beam's width and
// windowPasses the most passes over the grid (measured on 32×32: 4-cell
// windows gained less on Storm, 8-cell ones less on YellowFlower; 256 or
// 2048 states gained no more than 64).
const (
	windowSide   = 6
	windowWidth  = 64
	windowPasses = 2
)

// refillWindows refills the windows of cells (cell → piece) in place as
// above, pass after pass while a pass changes something, and reports
// whether it changed cells.
func (a *assembly) refillWindows(cells []int) bool {
	n := a.n
	cur := a.cost(cells)
	changed := false
	step := windowSide / 2
	for range windowPasses {
		doubt := a.doubtful(cells, a.bestMatches())
		moved := false
		for r0 := 0; r0+step < n; r0 += step {
			for c0 := 0; c0+step < n; c0 += step {
				var order []int
				doubtful := 0
				for r := r0; r < min(n, r0+windowSide); r++ {
					for c := c0; c < min(n, c0+windowSide); c++ {
						order = append(order, r*n+c)
						if doubt[r*n+c] {
							doubtful++
						}
					}
				}
				if 2*doubtful < len(order) {
					continue
				}
				for range 2 {
					if f := a.refill(cells, order, windowWidth); f != nil {
						if c := a.cost(f); c < cur-1e-6 {
							copy(cells, f)
							cur, moved = c, true
						}
					}
					slices.Reverse(order)
				}
			}
		}
		if !moved {
			break
		}
		changed = true
	}
	return changed
}
