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
	if n < 2 {
		return false
	}
	doubt := a.doubtful(cells, best)
	const maxBlock, maxLen = 4, 16
	const maxShift = 3
	lineMajor := make([]int, n*n)
	var diag *lineDiagonals // the tables, made in the first pass (see below)
	var pairs linePairs
	blocks := shiftBlocks(n, maxLen, maxShift)
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
				diag.build(b, lines, cross, m)
			}
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
				diag.build(b, lines, cross, m)
			}
		}
		// The blocks from line i0 are priced in the order (i1, slot) —
		// thinner blocks first, then by place and shift — and each shift
		// that lowers the cost is made as it is met, the rest priced on the
		// arrangement it leaves. Each shift's sum is taken over the lines
		// from i0 down, so a block one line thicker (i1+1) goes on from the
		// thinner one's sum: a sweep runs slot by slot and i1 within each,
		// keeping that sum in a register, and finds the first shift in
		// (i1, slot) order that lowers the cost (pricing no (i1, slot)
		// after one found); that shift is made, and the next sweep begins
		// after it (start: the first (i1, slot) not priced yet). Each sum
		// adds the same terms in the same order as pricing block by block.
		skip := make([]bool, maxBlock+1)
		ups, upNow := make([][]float64, maxBlock+1), make([]float64, maxBlock+1)
		for i0 := range n {
			start := [2]int{i0 + 1, 0}
			for {
				top := min(n, i0+maxBlock)
				var at struct{ i1, slot, from, to, d int }
				for _, b := range blocks {
					if top == i0 {
						break // a shift of one line found: none comes before it
					}
					from, to := b.from, b.to
					l := to - from
					last := i0 // the thickest block to price here (i1)
					for i1 := i0 + 1; i1 <= top; i1++ {
						skip[i1-i0] = !anyDoubt(doubtBefore, i0, i1, from, to) || unchanged(i0, i1, from, to) ||
							i1 == start[0] && b.slot+2*b.shifts <= start[1] || i1 < start[0]
						if !skip[i1-i0] {
							last = i1
						}
					}
					if last == i0 {
						continue
					}
					// The diagonals' sums of boundary i0 and of each i1, and
					// their terms the shift takes away (diag.lower, diag.upper
					// read in place: the same sums).
					var lo []float64
					var loNow float64
					if i0 > 0 {
						lo, loNow = diag.lo[i0], diag.lower(i0, 0, from, to)
					}
					for i1 := i0 + 1; i1 <= min(last, n-1); i1++ {
						ups[i1-i0], upNow[i1-i0] = diag.up[i1], diag.upper(i1, 0, from, to)
					}
					for j := 0; j < 2*b.shifts && min(last, top) > i0; j++ {
						slot, d := b.slot+j, j/2+1 // by d, and by −d round the block
						if j%2 == 1 {
							d = l - d
						}
						// diag's offsets of the shifted diagonals: the part
						// wrapped round (d−l) and the rest (d)
						back, on := (d-l+n-1)*(n+1), (d+n-1)*(n+1)
						var s, low float64
						if i0 > 0 { // the lower line of boundary i0 moves
							low = (lo[back+from+d] - lo[back+from]) + (lo[on+to] - lo[on+from+d]) - loNow
						}
						for i1 := i0 + 1; i1 <= min(last, top); i1++ {
							seam := pairs.line(i1 - 1)
							cut := float64(seam[(to-d-1)*n+to-d])
							wrap := float64(seam[(to-1)*n+from])
							s += wrap - cut
							if from > 0 {
								s += float64(seam[(from-1)*n+to-d]) - float64(seam[(from-1)*n+from])
							}
							if to < n {
								s += float64(seam[(to-d-1)*n+to]) - float64(seam[(to-1)*n+to])
							}
							if skip[i1-i0] || i1 == start[0] && slot < start[1] {
								continue
							}
							v := s
							if i0 > 0 {
								v += low
							}
							if i1 < n { // the upper line of boundary i1 moves
								up := ups[i1-i0]
								v += (up[back+from+d] - up[back+from]) + (up[on+to] - up[on+from+d]) - upNow[i1-i0]
							}
							if v < -1e-6 {
								at = struct{ i1, slot, from, to, d int }{i1, slot, from, to, d}
								top = i1 - 1 // no later (i1, slot) is priced
								break
							}
						}
					}
				}
				if at.i1 == 0 {
					break
				}
				apply(i0, at.i1, at.from, at.to, at.d)
				moved = true
				start = [2]int{at.i1, at.slot + 1}
			}
		}
		if memo != nil {
			cur.end, cur.diag, cur.pairs = slices.Clone(lines), diag, pairs
			memo.passes[pass] = cur
		}
	}
	return moved
}

// shiftBlock is a place and length of block rotateBlocks shifts (positions
// from…to−1 of its lines) by 1…shifts cells each way, priced in slots
// slot…slot+2·shifts−1 (by 1, by −1, by 2, …).
type shiftBlock struct{ from, to, shifts, slot int }

// shiftBlocks lists rotateBlocks' blocks on n-cell lines in the order it
// prices them: up to maxLen cells long, moved up to maxShift cells, and
// whole lines, moved up to half round.
func shiftBlocks(n, maxLen, maxShift int) []shiftBlock {
	var bs []shiftBlock
	slot := 0
	for from := 0; from < n-1; from++ {
		for to := from + 2; to <= n; to++ {
			l := to - from
			if l > maxLen && (to < n || from > 0) {
				continue // only whole lines are longer
			}
			shifts := min(maxShift, l-1)
			if l == n {
				shifts = n / 2
			}
			bs = append(bs, shiftBlock{from, to, shifts, slot})
			slot += 2 * shifts
		}
	}
	return bs
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
