package solve

// rotateBlocksLarge is rotateBlocks above reframeAllMax, the same moves in
// the same order, each priced by what it changes instead of by every seam
// of the block: shifting a block along its lines keeps the seams between
// its lines and all but one seam inside each line, so a shift changes each
// line's two end seams and the one where it wraps, and the seams across
// the block's two outer edges. Those are ranges of "diagonals" (the piece
// at k beside the piece at k−δ of the next line), summed in advance per
// pair of neighbouring lines (lineDiagonals); a shift costs O(lines) to
// price, not O(cells). On 32×32 rotateBlocks was most of a repair.
func (a *assembly) rotateBlocksLarge(cells []int, best *matches) bool {
	n, m := a.n, a.m
	doubt := a.doubtful(cells, best)
	const maxBlock, maxLen = 4, 16
	const maxShift = 3
	doubtBefore := make([]int, n*(n+1))
	lineMajor := make([]int, n*n)
	diag := newLineDiagonals(n)
	moved := false
	for _, vertical := range [2]bool{false, true} {
		idx := func(line, k int) int {
			if vertical {
				return k*n + line
			}
			return line*n + k
		}
		along, cross := a.right, a.down
		if vertical {
			along, cross = a.down, a.right
		}
		for line := range n {
			for k := range n {
				d := 0
				if doubt[idx(line, k)] {
					d = 1
				}
				doubtBefore[line*(n+1)+k+1] = doubtBefore[line*(n+1)+k] + d
			}
		}
		anyDoubt := func(i0, i1, from, to int) bool {
			for i := i0; i < i1; i++ {
				if doubtBefore[i*(n+1)+to] > doubtBefore[i*(n+1)+from] {
					return true
				}
			}
			return false
		}
		// lines[line*n+k] is the piece at position k of line: cells in
		// line order, kept in step with cells.
		lines := lineMajor
		for line := range n {
			for k := range n {
				lines[line*n+k] = cells[idx(line, k)]
			}
		}
		for b := 1; b < n; b++ {
			diag.build(b, lines, cross, m)
		}
		at := func(line, k int) int { return lines[line*n+k] }
		seamAlong := func(x, y int) float64 { return float64(along[x*m+y]) }
		// delta is the change in total cost of shifting block (i0…i1−1,
		// from…to−1) by d cells, 0 < d < to−from.
		delta := func(i0, i1, from, to, d int) float64 {
			l := to - from
			var s float64
			for i := i0; i < i1; i++ {
				cut := seamAlong(at(i, to-d-1), at(i, to-d))
				wrap := seamAlong(at(i, to-1), at(i, from))
				s += wrap - cut
				if from > 0 {
					s += seamAlong(at(i, from-1), at(i, to-d)) - seamAlong(at(i, from-1), at(i, from))
				}
				if to < n {
					s += seamAlong(at(i, to-d-1), at(i, to)) - seamAlong(at(i, to-1), at(i, to))
				}
			}
			if i0 > 0 { // the lower line of boundary i0 moves
				s += diag.lower(i0, d-l, from, from+d) + diag.lower(i0, d, from+d, to) - diag.lower(i0, 0, from, to)
			}
			if i1 < n { // the upper line of boundary i1 moves
				s += diag.upper(i1, d-l, from, from+d) + diag.upper(i1, d, from+d, to) - diag.upper(i1, 0, from, to)
			}
			return s
		}
		seg := make([]int, n)
		apply := func(i0, i1, from, to, d int) {
			l := to - from
			for i := i0; i < i1; i++ {
				copy(seg, lines[i*n+from:i*n+to])
				for k := from; k < to; k++ {
					x := seg[(k-from-d+l)%l]
					lines[i*n+k] = x
					cells[idx(i, k)] = x
				}
			}
			for b := max(i0, 1); b <= min(i1, n-1); b++ {
				diag.build(b, lines, cross, m)
			}
		}
		for i0 := range n {
			for i1 := i0 + 1; i1 <= min(n, i0+maxBlock); i1++ {
				for from := 0; from < n-1; from++ {
					for to := from + 2; to <= n; to++ {
						if to-from > maxLen && to < n {
							continue // only whole lines are longer
						}
						if to-from > maxLen && from > 0 {
							break
						}
						if !anyDoubt(i0, i1, from, to) {
							continue
						}
						l := to - from
						shifts := min(maxShift, l-1)
						if l == n {
							shifts = n / 2
						}
						for d := 1; d <= shifts; d++ {
							for _, sd := range [2]int{d, -d} {
								dd := (sd%l + l) % l
								if dd == 0 {
									continue
								}
								if delta(i0, i1, from, to, dd) < -1e-6 {
									apply(i0, i1, from, to, dd)
									moved = true
								}
							}
						}
					}
				}
			}
		}
	}
	return moved
}

// lineDiagonals holds, for each boundary b between line b−1 (upper) and
// line b (lower) of an arrangement, prefix sums over k of the cross seam
// between the upper piece at k and the lower piece at k−δ (lo), and
// between the upper piece at k−δ and the lower piece at k (up), for every
// δ in (−n, n); a seam off the line counts 0.
type lineDiagonals struct {
	n      int
	lo, up [][]float64 // [b][(δ+n−1)·(n+1) + k]
}

func newLineDiagonals(n int) *lineDiagonals {
	d := &lineDiagonals{n: n, lo: make([][]float64, n), up: make([][]float64, n)}
	for b := 1; b < n; b++ {
		d.lo[b] = make([]float64, (2*n-1)*(n+1))
		d.up[b] = make([]float64, (2*n-1)*(n+1))
	}
	return d
}

func (d *lineDiagonals) build(b int, lines []int, cross []float32, m int) {
	n := d.n
	lo, up := d.lo[b], d.up[b]
	upper, lower := lines[(b-1)*n:b*n], lines[b*n:(b+1)*n]
	for delta := -(n - 1); delta < n; delta++ {
		off := (delta + n - 1) * (n + 1)
		sl, su := 0.0, 0.0
		lo[off], up[off] = 0, 0
		for k := range n {
			if j := k - delta; j >= 0 && j < n {
				sl += float64(cross[upper[k]*m+lower[j]])
				su += float64(cross[upper[j]*m+lower[k]])
			}
			lo[off+k+1], up[off+k+1] = sl, su
		}
	}
}

// lower sums over k in [k0, k1) the seam of the upper piece at k with the
// lower piece at k−δ; upper that of the upper piece at k−δ with the lower at k.
func (d *lineDiagonals) lower(b, delta, k0, k1 int) float64 {
	off := (delta + d.n - 1) * (d.n + 1)
	return d.lo[b][off+k1] - d.lo[b][off+k0]
}

func (d *lineDiagonals) upper(b, delta, k0, k1 int) float64 {
	off := (delta + d.n - 1) * (d.n + 1)
	return d.up[b][off+k1] - d.up[b][off+k0]
}
