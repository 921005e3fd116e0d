package solve

import (
	"iter"
	"slices"
)

// Refilling windows of a rect answer. Where a 32×32 answer is wrong in a
// smooth part — a sky, a blurred background — its pieces are mostly within
// a few cells of their own, shuffled among near-equal seams, and no move
// of one piece or one block lowers the cost while the refill of the whole
// loose part scrambles the right cells in it (YellowFlower: 237 cells
// refilled, PA 0.952 → 0.89). A small window is different: its pieces
// are priced against the fixed cells all round it, so the refill beam
// (refill.go) places them much as an exhaustive search would. Every
// square window of a side in windowSides, half a side apart, at least half
// of whose cells are doubtful (a seam that is not a best-buddy one), has
// its own pieces placed again, row by row from either end, and a filling
// is kept when the total cost falls (docs/solver.md, "Refilling windows").

// windowSides are the sides of the windows, the small first; windowWidth
// is the beam's width and windowPasses the most passes over the grid for
// each side (measured on 32×32: 4-cell windows gained less on Storm, 8-cell
// ones less on YellowFlower; 256 or 2048 states gained no more than 64).
// The large windows reach what the small ones leave where whole segments
// sit a row or a few columns off their cells (Storm.jpg: a wedge of its
// sky, 188 cells; docs/solver.md, "Refilling windows"); 20- and 24-cell windows
// did not.
var windowSides = []int{6, 16}

// shapeWindowSides are the sides on a 32×32 shape answer (shapeWindowsBelow):
// on moonlit-bay 8 and 16 put 23 more pieces in their cells, 6 and 16 only
// 14, and 4, 8 and 16 moved two of desert-dunes' pieces out of theirs
// (docs/solver.md, "Refilling windows of a shape answer").
var shapeWindowSides = []int{8, 16}

// fragmentWindowSides are the sides on a 10×10–16×16 rect answer in
// fragments (arrangeContent): 16×16 misty-pines under seed 5 0.746 →
// 0.867, and 0.953 with the bands after them.
var fragmentWindowSides = []int{6, 8}

const (
	windowWidth  = 64
	windowPasses = 2
)

// refillWindows refills the windows of cells (cell → piece) in place as
// above, for each of sides in turn, and reports whether it changed cells.
func (a *assembly) refillWindows(cells []int, sides []int) bool {
	changed := false
	for _, side := range sides {
		if a.refillWindowsOf(cells, side) {
			changed = true
		}
	}
	return changed
}

// refillWindowsOf refills the windows of side × side cells, half a side
// apart, pass after pass while a pass changes something.
func (a *assembly) refillWindowsOf(cells []int, side int) bool {
	n := a.n
	step := side / 2
	return a.refillEach(cells, windowWidth, windowPasses, func(yield func(order []int) bool) {
		for r0 := 0; r0+step < n; r0 += step {
			for c0 := 0; c0+step < n; c0 += step {
				if !yield(windowOrder(n, r0, min(n, r0+side), c0, min(n, c0+side))) {
					return
				}
			}
		}
	})
}

// refillBands refills the bands of height whole rows, one row apart, as
// the windows: on a shape answer whose calm sea keeps pieces shuffled
// along their rows, a band of two rows places what the square windows
// leave (32×32 moonlit-bay 1,005 → 1,018 cells; docs/solver.md,
// "Refilling windows of a shape answer").
func (a *assembly) refillBands(cells []int, height int) bool {
	n := a.n
	return a.refillEach(cells, windowWidth, windowPasses, func(yield func(order []int) bool) {
		for r0 := 0; r0+height <= n; r0++ {
			if !yield(windowOrder(n, r0, r0+height, 0, n)) {
				return
			}
		}
	})
}

// refillHalves refills the upper and the lower half of a shape answer's
// rows, then the left and the right half of its columns, each reaching
// one line past the middle, as the windows but by a beam of halfWidth
// states, once: where a fog or a dark sea has left a large part wrong, a
// beam over half the grid from the other half's edge places what no
// square window reaches (32×32 misty-pines 562 → 683 cells right;
// night-city under seed 7 803 → 1,024 and under seed 5 781 → 930 with the
// windows after; docs/solver.md, "Refilling halves of a shape answer").
func (a *assembly) refillHalves(cells []int) bool {
	n, mid := a.n, a.n/2
	halves := [][4]int{{0, mid + 1, 0, n}, {mid - 1, n, 0, n}, {0, n, 0, mid + 1}, {0, n, mid - 1, n}} // rows r0…r1−1, columns c0…c1−1
	return a.refillEach(cells, halfWidth, 1, func(yield func(order []int) bool) {
		for _, h := range halves {
			if !yield(windowOrder(n, h[0], h[1], h[2], h[3])) {
				return
			}
		}
	})
}

// refillQuarters refills bands of a quarter of a shape answer's rows, an
// eighth of them apart, then bands of a quarter of its columns the same
// way, as refillHalves, and a second time where the first changed cells:
// what a half leaves wrong is often a few rows across the grid that a beam
// over a quarter places (32×32 misty-pines after the halves 683 → 809
// cells right, night-city under seed 5 930 → 983), and what the rows'
// quarters leave a few columns do (night-city under seed 5 983 → 994 with
// the columns, 1,024 with the second pass; docs/solver.md, "Refilling
// halves of a shape answer").
func (a *assembly) refillQuarters(cells []int) bool {
	n := a.n
	height, step := max(n/4, 2), max(n/8, 1)
	return a.refillEach(cells, halfWidth, quarterPasses, func(yield func(order []int) bool) {
		for _, byRow := range []bool{true, false} {
			for l0 := 0; l0 < n; l0 += step {
				l1 := min(n, l0+height)
				r0, r1, c0, c1 := l0, l1, 0, n // a band of rows
				if !byRow {
					r0, r1, c0, c1 = 0, n, l0, l1
				}
				if !yield(windowOrder(n, r0, r1, c0, c1)) {
					return
				}
				if l1 == n {
					break
				}
			}
		}
	})
}

// quarterPasses is the most passes of refillQuarters: night-city under
// seed 5 needed the second (994 cells right after one, 1,024 after two).
const quarterPasses = 2

// refillPays reports whether a shape answer's halves and quarters are
// worth refilling: it has pieces that do not interlock, so it is wrong
// somewhere, or it is in fragments (its best-buddy region under half the
// grid) — an exact answer's region can be as small (fruit-market under
// seed 5: 0.63) — and fewer than an eighth of its pieces have a look-alike.
// Where more do (the scenes of snow and sky: 193–318 of 1,024 at 32×32,
// against at most 19 elsewhere), a refill exchanges identical pieces for
// seconds, and what it leaves is cheaper but no nearer the picture
// (docs/solver.md, "Refilling halves of a shape answer").
func (a *assembly) refillPays(cells []int) bool {
	n := a.n
	return (misfits(n, a.right, a.down, cells) > 0 || !a.vouched(cells)) && 8*a.lookalikes() < n*n
}

// lookalikes counts the pieces with an earlier look-alike (prevTwin).
func (a *assembly) lookalikes() int {
	k := 0
	for _, p := range a.prevTwin {
		if p >= 0 {
			k++
		}
	}
	return k
}

// refillEdgeQuarters refills the quarter of a rect answer's rows or
// columns along each edge of the grid, one edge at a time, by the blend's
// refill beam (byBlend) at edgeWidth states from the inner side outward,
// and keeps a filling where MGC, the blend and both side means all price
// it lower; it returns the answer. On a 32×32 answer the windows leave, a
// block along an edge can sit a few columns off (Storm.jpg under seed 5:
// the road's lane line broken into steps across its bottom rows, 170
// pieces out, every measure pricing the truth lower); filled from the
// rows above it, most of the quarter comes back (PA 0.834 → 0.950;
// docs/solver.md, "Refilling the edges of a rect answer").
func refillEdgeQuarters(byMGC, byBlend *assembly, ms *measures, cells []int) []int {
	n := byMGC.n
	q := max(n/4, 1)
	edges := [][4]int{{n - q, n, 0, n}, {0, q, 0, n}, {0, n, n - q, n}, {0, n, 0, q}} // rows r0…r1−1, columns c0…c1−1
	by := ms.allFour(byMGC.matrix())
	fill := func(cells []int, e [4]int) []int {
		return byBlend.refill(cells, windowOrder(n, e[0], e[1], e[2], e[3]), edgeWidth)
	}
	// The four fillings of the answer as it is are made at once; one is
	// made again only if an edge before it was kept (most answers keep
	// none), so the result is the same as one edge after another.
	fills := make([][]int, len(edges))
	parallelFor(len(edges), func(i int) error {
		fills[i] = fill(cells, edges[i])
		return nil
	})
	kept := false
	for i, e := range edges {
		f := fills[i]
		if kept {
			f = fill(cells, e)
		}
		if f != nil && differ(f, cells) > 0 && cheaperBy(n, f, cells, by...) {
			cells, kept = f, true
		}
	}
	return cells
}

// edgeWidth is the beam's width on an edge's quarter (refillEdgeQuarters):
// on Storm.jpg under seed 5 256 and 512 states found no filling all four
// measures price lower, 1,024 one that puts it from 0.834 to 0.950; on its
// haze variant (a block of 150 pieces one column off along the bottom)
// 1,024 states none, 2,048 one that puts it from 0.846 to 0.973
// (docs/solver.md, "Refilling the edges of a rect answer").
const edgeWidth = 2048

// halfWidth is the beam's width on a half or a quarter (refillHalves,
// refillQuarters). On 32×32 misty-pines the halves placed 679 cells with
// 256 states, 695 with 512 and 701 with 1,024 (about 2, 3.5 and 6 s),
// night-city under seed 5 890, 890 and 898; the rows alone with 64 states
// 591.
const halfWidth = 256

// refillEach refills each window windows yields (its cells in the order
// to fill them) at least half of whose cells are doubtful, from either end,
// by a beam of width states, keeping a filling when the total cost falls,
// pass after pass while a pass changes something (at most passes), and
// reports whether it changed cells. The cost is the penalised one: an
// answer with a misfit is no +Inf that any filling undercuts.
func (a *assembly) refillEach(cells []int, width, passes int, windows iter.Seq[[]int]) bool {
	n := a.n
	cur := penalisedCost(n, a.right, a.down, cells)
	changed := false
	for range passes {
		doubt := a.doubtful(cells, a.bestMatches())
		moved := false
		for order := range windows {
			doubtful := 0
			for _, c := range order {
				if doubt[c] {
					doubtful++
				}
			}
			if 2*doubtful < len(order) {
				continue
			}
			for range 2 {
				if f := a.refill(cells, order, width); f != nil {
					if c := penalisedCost(n, a.right, a.down, f); c < cur-1e-6 {
						copy(cells, f)
						cur, moved = c, true
					}
				}
				slices.Reverse(order)
			}
		}
		if !moved {
			break
		}
		changed = true
	}
	return changed
}

// windowOrder lists the cells of rows r0…r1−1 and columns c0…c1−1 of an
// n×n grid row by row, starting from the corner whose sides have fixed
// cells beside them: top-down and left to right, but bottom-up in a window
// on the grid's top edge and right to left in one on its left edge only.
// The beam's first choices are then the ones the fixed cells constrain
// most, as in fillsUpward (from the top-left corner the 16-cell windows
// left Storm.jpg's wedge of sky, at the grid's top right, half placed:
// PA 0.904 against 0.980).
func windowOrder(n, r0, r1, c0, c1 int) []int {
	order := make([]int, 0, (r1-r0)*(c1-c0))
	for i := range r1 - r0 {
		r := r0 + i
		if r0 == 0 && r1 < n {
			r = r1 - 1 - i
		}
		for j := range c1 - c0 {
			c := c0 + j
			if c0 == 0 && c1 < n {
				c = c1 - 1 - j
			}
			order = append(order, r*n+c)
		}
	}
	return order
}
