package solve

// Band rotations, a move of the frame repair on rectangular sheets up to
// reframeAllMax: a block of lines i0…i1−1 (rows, or columns), positions
// f…t−1 of each, turned cyclically by s cells along its lines, the pieces
// pushed out at one end coming back in at the other. A part of the answer
// that grew round the wrong side of a wrap is such a block, and it reaches
// the grid's border: a band of whole lines (12×12 misty-pines: its top five
// rows five columns over; bookshelf: columns 0–5 one row down, their bottom
// pieces on top) or a block in a corner (bookshelf then: rows 0–4 of
// columns 6–11 one column over). rotateBlocks turns blocks only up to
// maxBlock lines thick, and a thicker one turned in steps breaks the seams
// between the steps, each step dearer, so it never gets there.
//
// Only blocks that run to the border at an end of their lines (f = 0 or
// t = n) and across them (i0 = 0 or i1 = n) are turned, or whole lines:
// turning blocks inside the grid as well found frames shifted by a column
// that MGC and the blend price lower than the truth (12×12 night-city
// 0.778 → 0, 16×16 misty-pines 0.969 → 0.605).
//
// Not above 16×16: on the 32×32 tables it changed many answers, by other
// paths, for worse as often as for better (docs/solver.md, "Band rotations").
//
// Every block and shift is priced exactly by the seams it changes: across
// its two edges, from running sums along the diagonals of each pair of
// neighbouring lines, and in each line the seam it closes (its last piece
// beside its first), the one it opens, and the two at its ends.

// rotateBands turns the block of cells (cell → piece) that lowers the total
// cost most, in rows and then in columns, again while one does; it reports
// whether it turned any.
func (a *assembly) rotateBands(cells []int) bool {
	if a.shaped || a.n > reframeAllMax {
		return false // tabs do not interlock across a turned block; above 16×16, see the top
	}
	moved := false
	for _, vertical := range [2]bool{false, true} {
		for a.rotateBestBand(cells, vertical) {
			moved = true
		}
	}
	return moved
}

// rotateBestBand turns the cheapest block of rows (of columns if vertical)
// if that lowers the cost, and reports whether it did.
func (a *assembly) rotateBestBand(cells []int, vertical bool) bool {
	best, found := 0.0, bandTurn{}
	a.eachBandTurn(cells, vertical, func(d float64, tr bandTurn) {
		if d < best {
			best, found = d, tr
		}
	})
	if found.i1 == 0 {
		return false
	}
	before := a.cost(cells)
	old := append([]int(nil), cells...)
	found.apply(a.n, cells, old, vertical)
	if a.cost(cells) < before-1e-6 {
		return true
	}
	copy(cells, old) // a gain within rounding: not a move
	return false
}

// bandTurn is a turn of positions f…t−1 of lines i0…i1−1 by s (see the top).
type bandTurn struct{ i0, i1, f, t, s int }

// apply writes old (n×n, cell → piece) with tr made to cells.
func (tr bandTurn) apply(n int, cells, old []int, vertical bool) {
	l := tr.t - tr.f
	for i := tr.i0; i < tr.i1; i++ {
		for k := tr.f; k < tr.t; k++ {
			p := tr.f + (k-tr.f+tr.s)%l
			if vertical {
				cells[p*n+i] = old[k*n+i]
			} else {
				cells[i*n+p] = old[i*n+k]
			}
		}
	}
}

// eachBandTurn calls visit with every band of rows (of columns if
// vertical) and every block in a corner, at every shift, and what turning
// it changes the cost of cells by.
func (a *assembly) eachBandTurn(cells []int, vertical bool, visit func(d float64, tr bandTurn)) {
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
	seam := func(d []float32, x, y int) float64 { return float64(d[x*m+y]) }
	// upper[(b·w + δ+n−1)·(n+1) + p]: the seams between line b−1 and line
	// b at positions before p, with line b's piece taken from δ positions
	// back; lower: line b−1's piece taken from δ back.
	w := 2*n - 1
	upper, lower := make([]float64, n*w*(n+1)), make([]float64, n*w*(n+1))
	for b := 1; b < n; b++ {
		for δ := -(n - 1); δ < n; δ++ {
			o := (b*w + δ + n - 1) * (n + 1)
			for p := range n {
				upper[o+p+1], lower[o+p+1] = upper[o+p], lower[o+p]
				if q := p - δ; q >= 0 && q < n {
					upper[o+p+1] += seam(cross, at(b-1, p), at(b, q))
					lower[o+p+1] += seam(cross, at(b-1, q), at(b, p))
				}
			}
		}
	}
	// edge is what turning positions f…t−1 of line b (of line b−1, with
	// lower) by s changes across boundary b: after the turn positions f+s…
	// hold the pieces from s back, f…f+s−1 those from t−f−s ahead.
	edge := func(d []float64, b, f, t, s int) float64 {
		run := func(δ, p0, p1 int) float64 {
			o := (b*w + δ + n - 1) * (n + 1)
			return d[o+p1] - d[o+p0]
		}
		return run(s, f+s, t) + run(s-(t-f), f, f+s) - run(0, f, t)
	}
	// inLine is what the turn changes along line i, inside and at its ends.
	inLine := func(i, f, t, s int) float64 {
		d := seam(along, at(i, t-1), at(i, f)) - seam(along, at(i, t-s-1), at(i, t-s))
		if f > 0 {
			d += seam(along, at(i, f-1), at(i, t-s)) - seam(along, at(i, f-1), at(i, f))
		}
		if t < n {
			d += seam(along, at(i, t-1-s), at(i, t)) - seam(along, at(i, t-1), at(i, t))
		}
		return d
	}
	lines := make([]float64, n+1) // running sums of inLine over the lines
	for f := range n - 1 {
		for t := f + 2; t <= n; t++ {
			if f > 0 && t < n {
				continue // not at the border along the lines
			}
			whole := f == 0 && t == n
			for s := 1; s < t-f; s++ {
				for i := range n {
					lines[i+1] = lines[i] + inLine(i, f, t, s)
				}
				for i0 := range n {
					top := 0.0 // the change across the upper edge, the same for every i1
					if i0 > 0 {
						top = edge(upper, i0, f, t, s)
					}
					for i1 := i0 + 1; i1 <= n; i1++ {
						if whole && i0 == 0 && i1 == n || !whole && i0 > 0 && i1 < n {
							continue // the whole grid (shiftFrame's), or not in a corner
						}
						d := lines[i1] - lines[i0] + top
						if i1 < n {
							d += edge(lower, i1, f, t, s)
						}
						visit(d, bandTurn{i0, i1, f, t, s})
					}
				}
			}
		}
	}
}
