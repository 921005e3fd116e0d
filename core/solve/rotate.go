package solve

import "slices"

// rotateBlocks shifts a block of whole segments — lines i0…i1−1, positions
// from…to−1 of each — by d cells along the lines, the pieces pushed out at
// one end coming back in at the other, in rows and in columns, while that
// lowers the total cost; it reports whether it shifted any. A region that
// grew from a wrong seam sits a few cells off as a whole; this moves it back.
// Blocks are at most maxBlock lines thick (a thicker one moves in steps)
// and maxLen long, and move up to maxShift cells (whole lines: any). Only
// blocks with a doubtful cell (see doubtful) move: where every seam of a
// block is a best-buddy seam, no shift is cheaper, and the search stays
// small on a nearly right arrangement.
//
// Each shift is priced by what it changes, not by every seam of the block
// (rotateBlocksBySets, the plain pricing the tests compare with, makes the
// same moves; up to 16×16 it ran until 2026-12-06: docs/solver.md, "Speed
// against generating"):
// shifting a block along its lines keeps the seams between its lines and
// all but one seam inside each line, so a shift changes each
// line's two end seams and the one where it wraps, and the seams across
// the block's two outer edges. Those are ranges of "diagonals" (the piece
// at k beside the piece at k−δ of the next line), summed in advance per
// pair of neighbouring lines (lineDiagonals); a shift costs O(lines) to
// price, not O(cells). On 32×32 rotateBlocks was most of a repair.
//
// The seams along a line are looked up in a table of every pair of its
// positions (linePairs), kept in step with the moves: each price reads
// the same float32 values in the same order, from a few kilobytes instead
// of all over the n²×n² seam matrix.
//
// With memo (nil: none), a block whose cells and those beside it are as
// they were when the same pass of the previous call began, and that pass
// shifted none of them, is passed over if that pass priced it too: it was
// priced on the same seams then and not shifted, so it would not be now.
// A repair calls this up to eight times, mostly after moves elsewhere; the
// pass's tables are kept too, and built again only where lines changed.
func (a *assembly) rotateBlocks(cells []int, best *matches, memo *shiftMemo) bool {
	n, m := a.n, a.m
	doubt := a.doubtful(cells, best)
	const maxBlock, maxLen = 4, 16
	const maxShift = 3
	lineMajor := make([]int, n*n)
	var diag *lineDiagonals // the tables, made in the first pass (see below)
	var pairs linePairs
	// Blocks up to maxLen long take 2·maxShift shifts each, whole lines n.
	slots := n*n*2*maxShift + n
	prefix, stamp := make([]float64, slots), make([]int, slots)
	epoch := 0
	// The terms of a boundary's diagonals, by shift (slot): those of the
	// lower boundary (i0, the same for every i1) and of the upper one (i1,
	// the same for up to maxBlock values of i0, kept for each i1 modulo
	// maxBlock+1), valid while stamped with the boundary's last build
	// (built[b], a number no other build has).
	lowTerm, lowStamp := make([]float64, slots), make([]int, slots)
	upTerm, upStamp := make([]float64, (maxBlock+1)*slots), make([]int, (maxBlock+1)*slots)
	built, builds := make([]int, n), 0
	rebuild := func(b int, lines []int, cross []float32) {
		diag.build(b, lines, cross, m)
		builds++
		built[b] = builds
	}
	moved := false
	for pass, vertical := range [2]bool{false, true} {
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
		doubtBefore := make([]int, n*(n+1))
		for line := range n {
			for k := range n {
				d := 0
				if doubt[idx(line, k)] {
					d = 1
				}
				doubtBefore[line*(n+1)+k+1] = doubtBefore[line*(n+1)+k] + d
			}
		}
		anyDoubt := func(doubtBefore []int, i0, i1, from, to int) bool {
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
		// The previous pass (see shiftMemo). A dirty cell (line-major)
		// differs from that pass's start or was shifted in it;
		// dirtyBefore[i*(n+1)+k] counts those in lines < i at positions < k.
		var prev shiftPass
		if memo != nil {
			prev = memo.passes[pass]
		}
		dirty, dirtyBefore := make([]bool, n*n), make([]int, (n+1)*(n+1))
		if prev.lines != nil {
			for c := range dirty {
				dirty[c] = prev.shifted[c] || lines[c] != prev.lines[c]
			}
			countBefore(n, dirty, dirtyBefore)
		}
		cur := shiftPass{lines: slices.Clone(lines), shifted: make([]bool, n*n), doubtBefore: doubtBefore}
		// unchanged reports whether block (i0…i1−1, from…to−1) was priced
		// in the previous pass on the seams it has now: those of its lines
		// and the two beside them, at its positions and the two beside them.
		unchanged := func(i0, i1, from, to int) bool {
			if prev.lines == nil {
				return false
			}
			l0, l1, k0, k1 := max(i0-1, 0), min(i1+1, n), max(from-1, 0), min(to+1, n)
			at := func(i, k int) int { return dirtyBefore[i*(n+1)+k] }
			return at(l1, k1)-at(l0, k1)-at(l1, k0)+at(l0, k0) == 0 && anyDoubt(prev.doubtBefore, i0, i1, from, to)
		}
		// The tables as the previous pass left them, built again only for
		// the lines changed since (see shiftMemo); each pass keeps its own.
		if prev.diag != nil {
			diag, pairs = prev.diag, prev.pairs
		} else if diag == nil || memo != nil {
			diag, pairs = newLineDiagonals(n), linePairs{n: n, seam: make([]float32, n*n*n)}
		}
		changed := make([]bool, n)
		for i := range n {
			changed[i] = prev.end == nil || !slices.Equal(lines[i*n:(i+1)*n], prev.end[i*n:(i+1)*n])
			if changed[i] {
				pairs.build(i, lines, along, m)
			}
		}
		for b := 1; b < n; b++ {
			if changed[b-1] || changed[b] {
				rebuild(b, lines, cross)
			} else {
				builds++ // as built, but not for this call's kept terms
				built[b] = builds
			}
		}
		// delta is the change in total cost of shifting block (i0…i1−1,
		// from…to−1) by d cells, 0 < d < to−from. Its sum over the lines
		// runs from i0 on, so the blocks one line thicker (the next i1)
		// go on from the sum kept for this one: prefix[slot], slot the
		// shift's place in the order of every i1's (from, to, d), when
		// stamped with the epoch — a new one for each i0 and after each
		// shift.
		delta := func(i0, i1, from, to, d, slot int) float64 {
			l := to - from
			var s float64
			i := i0
			if stamp[slot] == epoch*(maxBlock+1)+i1-1-i0 {
				s, i = prefix[slot], i1-1
			}
			for ; i < i1; i++ {
				seam := pairs.line(i)
				cut := float64(seam[(to-d-1)*n+to-d])
				wrap := float64(seam[(to-1)*n+from])
				s += wrap - cut
				if from > 0 {
					s += float64(seam[(from-1)*n+to-d]) - float64(seam[(from-1)*n+from])
				}
				if to < n {
					s += float64(seam[(to-d-1)*n+to]) - float64(seam[(to-1)*n+to])
				}
			}
			prefix[slot], stamp[slot] = s, epoch*(maxBlock+1)+i1-i0
			if i0 > 0 { // the lower line of boundary i0 moves
				if lowStamp[slot] != built[i0] {
					lowTerm[slot] = diag.lower(i0, d-l, from, from+d) + diag.lower(i0, d, from+d, to) - diag.lower(i0, 0, from, to)
					lowStamp[slot] = built[i0]
				}
				s += lowTerm[slot]
			}
			if i1 < n { // the upper line of boundary i1 moves
				k := i1%(maxBlock+1)*slots + slot
				if upStamp[k] != built[i1] {
					upTerm[k] = diag.upper(i1, d-l, from, from+d) + diag.upper(i1, d, from+d, to) - diag.upper(i1, 0, from, to)
					upStamp[k] = built[i1]
				}
				s += upTerm[k]
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
				pairs.build(i, lines, along, m)
				for k := from; k < to; k++ {
					dirty[i*n+k], cur.shifted[i*n+k] = true, true
				}
			}
			countBefore(n, dirty, dirtyBefore)
			for b := max(i0, 1); b <= min(i1, n-1); b++ {
				rebuild(b, lines, cross)
			}
			epoch++
		}
		for i0 := range n {
			epoch++
			for i1 := i0 + 1; i1 <= min(n, i0+maxBlock); i1++ {
				slot := 0
				for from := 0; from < n-1; from++ {
					for to := from + 2; to <= n; to++ {
						if to-from > maxLen && to < n {
							continue // only whole lines are longer
						}
						if to-from > maxLen && from > 0 {
							break
						}
						l := to - from
						shifts := min(maxShift, l-1)
						if l == n {
							shifts = n / 2
						}
						if !anyDoubt(doubtBefore, i0, i1, from, to) || unchanged(i0, i1, from, to) {
							slot += 2 * shifts // d < l: no shift is 0
							continue
						}
						for d := 1; d <= shifts; d++ { // d < l
							for _, dd := range [2]int{d, l - d} { // by d, and by −d round the block
								slot++
								if delta(i0, i1, from, to, dd, slot-1) < -1e-6 {
									apply(i0, i1, from, to, dd)
									moved = true
								}
							}
						}
					}
				}
			}
		}
		if memo != nil {
			cur.end, cur.diag, cur.pairs = slices.Clone(lines), diag, pairs
			memo.passes[pass] = cur
		}
	}
	return moved
}

// shiftMemo is what rotateBlocks' passes (along rows, along columns)
// saw in its previous call, for the next: see there.
type shiftMemo struct {
	passes [2]shiftPass
}

type shiftPass struct {
	lines       []int  // the pieces, line by line, as the pass began; nil before any
	shifted     []bool // the cells (line by line) a shift moved in the pass
	doubtBefore []int  // the pass's count of doubtful cells (which blocks it priced)
	// end is the pieces as the pass ended, diag and pairs its tables then.
	end   []int
	diag  *lineDiagonals
	pairs linePairs
}

// lineDiagonals holds, for each boundary b between line b−1 (upper) and
// line b (lower) of an arrangement, prefix sums over k of the cross seam
// between the upper piece at k and the lower piece at k−δ (lo), and
// between the upper piece at k−δ and the lower piece at k (up), for every
// δ in (−n, n); a seam off the line counts 0.
type lineDiagonals struct {
	n      int
	lo, up [][]float64 // [b][(δ+n−1)·(n+1) + k]
	// cross[k·n + j]: the seam of the upper piece at k with the lower at j,
	// looked up once for both sums.
	cross []float32
}

func newLineDiagonals(n int) *lineDiagonals {
	d := &lineDiagonals{n: n, lo: make([][]float64, n), up: make([][]float64, n), cross: make([]float32, n*n)}
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
	t := d.cross
	for k, x := range upper {
		row := cross[x*m : (x+1)*m]
		for j, y := range lower {
			t[k*n+j] = row[y]
		}
	}
	for delta := -(n - 1); delta < n; delta++ {
		off := (delta + n - 1) * (n + 1)
		sl, su := 0.0, 0.0
		lo[off], up[off] = 0, 0
		for k := range n {
			if j := k - delta; j >= 0 && j < n {
				sl += float64(t[k*n+j])
				su += float64(t[j*n+k])
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

// linePairs holds, for each line of an arrangement, the seam along the
// lines between the pieces at every two of its positions: seam[(line·n +
// p)·n + q] is that of the piece at q right after (below) the one at p.
type linePairs struct {
	n    int
	seam []float32
}

// build fills line's table from its pieces (lines: n per line, in order).
func (t *linePairs) build(line int, lines []int, along []float32, m int) {
	n := t.n
	pieces, seam := lines[line*n:(line+1)*n], t.line(line)
	for p, x := range pieces {
		row := along[x*m : (x+1)*m]
		for q, y := range pieces {
			seam[p*n+q] = row[y]
		}
	}
}

// line is line's n×n table.
func (t *linePairs) line(line int) []float32 {
	return t.seam[line*t.n*t.n : (line+1)*t.n*t.n]
}
