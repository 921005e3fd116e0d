package solve

// Band rotations, a move of the frame repair on rectangular sheets up to
// reframeAllMax: a band of whole lines — rows i0…i1−1, or columns — turned
// cyclically by s cells along them, the pieces pushed out at one end coming
// back in at the other. A part of the answer that grew round the wrong side
// of a wrap is such a band (12×12 misty-pines: its top five rows turned by
// five columns; 12×12 bookshelf: columns 0–5 one row down, their bottom
// pieces on top). rotateBlocks turns whole lines only up to maxBlock lines
// at once, and a thicker band turned in steps breaks the seams between the
// steps, each step dearer, so it never gets there.
//
// Every band and shift is priced exactly by the seams it changes: the two
// rows of seams across its edges, from a table per boundary and shift, and
// in each line the one seam it closes (its last piece beside its first)
// against the one it opens — O(n³) for all bands and shifts of a grid.
//
// Not above reframeAllMax: on the 78 32×32 instances of the README's
// tables it changed six answers, the best gains on tie-heavy scenes and
// the largest change a loss (Storm.jpg's water variant 0.925 → 0.852, an
// answer dearer by every measure, reached by another path).

// rotateBands turns the band of cells (cell → piece) that lowers the total
// cost most, in rows and then in columns, again while one does; it reports
// whether it turned any.
func (a *assembly) rotateBands(cells []int) bool {
	if a.shaped || a.n > reframeAllMax {
		return false // tabs do not interlock across a turned band
	}
	moved := false
	for _, vertical := range [2]bool{false, true} {
		for a.rotateBestBand(cells, vertical) {
			moved = true
		}
	}
	return moved
}

// rotateBestBand turns the cheapest band of rows (of columns if vertical)
// if that lowers the cost, and reports whether it did.
func (a *assembly) rotateBestBand(cells []int, vertical bool) bool {
	n, m := a.n, a.m
	at := func(line, k int) int {
		if vertical {
			return cells[k*n+line]
		}
		return cells[line*n+k]
	}
	along, cross := a.right, a.down
	if vertical {
		along, cross = a.down, a.right
	}
	// After a turn by s, position p of a line holds the piece of position
	// p−s mod n. closes[i*n+s]: what turning lines 0…i−1 by s changes
	// inside them, summed.
	closes := make([]float64, (n+1)*n)
	for i := range n {
		wrap := float64(along[at(i, n-1)*m+at(i, 0)])
		for s := 1; s < n; s++ {
			opened := float64(along[at(i, n-s-1)*m+at(i, n-s)])
			closes[(i+1)*n+s] = closes[i*n+s] + wrap - opened
		}
	}
	// above[b*n+s]: the seams between line b−1 and line b turned by s;
	// below[b*n+s]: between line b−1 turned by s and line b.
	above, below := make([]float64, n*n), make([]float64, n*n)
	for b := 1; b < n; b++ {
		for s := range n {
			var up, down float64
			for p := range n {
				q := (p - s + n) % n
				up += float64(cross[at(b-1, p)*m+at(b, q)])
				down += float64(cross[at(b-1, q)*m+at(b, p)])
			}
			above[b*n+s], below[b*n+s] = up, down
		}
	}
	best, bi0, bi1, bs := 0.0, -1, -1, 0
	for i0 := range n {
		for i1 := i0 + 1; i1 <= n; i1++ {
			if i0 == 0 && i1 == n {
				continue // the whole grid: shiftFrame's
			}
			for s := 1; s < n; s++ {
				d := closes[i1*n+s] - closes[i0*n+s]
				if i0 > 0 {
					d += above[i0*n+s] - above[i0*n]
				}
				if i1 < n {
					d += below[i1*n+s] - below[i1*n]
				}
				if d < best {
					best, bi0, bi1, bs = d, i0, i1, s
				}
			}
		}
	}
	if bi0 < 0 {
		return false
	}
	before := a.cost(cells)
	old := append([]int(nil), cells...)
	for i := bi0; i < bi1; i++ {
		for k := range n {
			p := (k + bs) % n
			if vertical {
				cells[p*n+i] = old[k*n+i]
			} else {
				cells[i*n+p] = old[i*n+k]
			}
		}
	}
	if a.cost(cells) < before-1e-6 {
		return true
	}
	copy(cells, old) // a gain within rounding: not a move
	return false
}
