package solve

import (
	"math"
	"slices"
)

// Segment merging for large shape sheets (after Gallagher 2012 and Son et
// al. 2014, "segment merging"): every piece starts as a segment of its own;
// the candidate seams are taken surest first (the lowest ratio of a pair's
// dissimilarity to the runner-up's of either piece), and each joins two
// segments at the relative offset it implies, kept only if the joined
// segment has no two pieces on one cell, every new pair of neighbours
// interlocks, and its flat sides still fit one n×n frame. A block that is
// right inside is so never placed apart from its own neighbours, which the
// cell-by-cell greedy does when it grows into a region from the wrong side.

// span is what a segment's pieces say about one axis (rows or columns), in
// the segment's own coordinates: the extreme lines, the line of the low and
// the high border (when a piece with that flat side is in it), and the
// extreme lines of the pieces without it.
type span struct {
	min, max              int
	low, high             int
	hasLow, hasHigh       bool
	minNotLow, maxNotHigh int
}

func pieceSpan(v int, low, high bool) span {
	s := span{min: v, max: v, low: v, high: v, hasLow: low, hasHigh: high,
		minNotLow: math.MaxInt, maxNotHigh: math.MinInt}
	if !low {
		s.minNotLow = v
	}
	if !high {
		s.maxNotHigh = v
	}
	return s
}

// join is the span of s and o shifted by d, and whether it still fits an
// n-line grid: a border line is the extreme line, only its border pieces
// lie on it, the two borders are n−1 apart, and no piece without a flat
// side sits where the extent makes it the border.
func (s span) join(o span, d, n int) (span, bool) {
	j := span{min: min(s.min, o.min+d), max: max(s.max, o.max+d),
		low: s.low, high: s.high, hasLow: s.hasLow, hasHigh: s.hasHigh,
		minNotLow: s.minNotLow, maxNotHigh: s.maxNotHigh}
	if o.minNotLow != math.MaxInt {
		j.minNotLow = min(j.minNotLow, o.minNotLow+d)
	}
	if o.maxNotHigh != math.MinInt {
		j.maxNotHigh = max(j.maxNotHigh, o.maxNotHigh+d)
	}
	if o.hasLow {
		if j.hasLow && j.low != o.low+d {
			return j, false
		}
		j.low, j.hasLow = o.low+d, true
	}
	if o.hasHigh {
		if j.hasHigh && j.high != o.high+d {
			return j, false
		}
		j.high, j.hasHigh = o.high+d, true
	}
	return j, j.ok(n)
}

func (s span) ok(n int) bool {
	if s.max-s.min > n-1 {
		return false
	}
	if s.hasLow && (s.low != s.min || s.minNotLow <= s.low) {
		return false
	}
	if s.hasHigh && (s.high != s.max || s.maxNotHigh >= s.high) {
		return false
	}
	if s.hasLow && s.hasHigh && s.high-s.low != n-1 {
		return false
	}
	if s.minNotLow != math.MaxInt && s.max-s.minNotLow >= n-1 {
		return false
	}
	return s.maxNotHigh == math.MinInt || s.maxNotHigh-s.min < n-1
}

// offsets lists the shifts that put the span's lines on an n-line grid
// with its border pieces, and only they, on the border lines.
func (sp span) offsets(n int) []int {
	var out []int
	for o := -sp.min; o+sp.max <= n-1; o++ {
		if sp.hasLow && o+sp.low != 0 || sp.minNotLow != math.MaxInt && o+sp.minNotLow == 0 {
			continue
		}
		if sp.hasHigh && o+sp.high != n-1 || sp.maxNotHigh != math.MinInt && o+sp.maxNotHigh == n-1 {
			continue
		}
		out = append(out, o)
	}
	return out
}

// segment is a set of pieces at fixed relative cells.
type segment struct {
	pieces     []int
	at         map[[2]int]int // relative cell → piece
	rows, cols span
}

type segmentSet struct {
	a    *assembly
	odds *seamOdds
	of   []int    // piece → its segment
	pos  [][2]int // piece → its cell in its segment
	segs []*segment
}

func (a *assembly) newSegmentSet() *segmentSet {
	m := a.m
	s := &segmentSet{a: a, of: make([]int, m), pos: make([][2]int, m), segs: make([]*segment, m)}
	for x := range m {
		f := sigFlats(a.sides[x])
		s.of[x] = x
		s.segs[x] = &segment{pieces: []int{x}, at: map[[2]int]int{{0, 0}: x},
			rows: pieceSpan(0, f[0], f[2]), cols: pieceSpan(0, f[3], f[1])}
	}
	return s
}

// pairCost is the dissimilarity of q at offset d (one step down or right)
// from p, +Inf where shape forbids it or d is not such a step.
func (a *assembly) pairCost(p, q int, d [2]int) float32 {
	switch d {
	case [2]int{0, 1}:
		return a.right[p*a.m+q]
	case [2]int{0, -1}:
		return a.right[q*a.m+p]
	case [2]int{1, 0}:
		return a.down[p*a.m+q]
	case [2]int{-1, 0}:
		return a.down[q*a.m+p]
	}
	return inf
}

var steps = [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}}

// join puts y at offset d from x, moving the smaller segment into the
// larger, if the result is a valid segment; it reports whether it did.
func (s *segmentSet) join(x, y int, d [2]int, strict bool) bool {
	sx, sy := s.of[x], s.of[y]
	if sx == sy {
		return false
	}
	// t moves sy's coordinates into sx's.
	t := [2]int{s.pos[x][0] + d[0] - s.pos[y][0], s.pos[x][1] + d[1] - s.pos[y][1]}
	big, small := sx, sy
	if len(s.segs[sy].pieces) > len(s.segs[sx].pieces) {
		big, small, t = sy, sx, [2]int{-t[0], -t[1]}
	}
	B, S := s.segs[big], s.segs[small]
	rows, ok := B.rows.join(S.rows, t[0], s.a.n)
	if !ok {
		return false
	}
	cols, ok := B.cols.join(S.cols, t[1], s.a.n)
	if !ok {
		return false
	}
	var sum float64
	k := 0
	for _, p := range S.pieces {
		q := [2]int{s.pos[p][0] + t[0], s.pos[p][1] + t[1]}
		if _, taken := B.at[q]; taken {
			return false
		}
		for _, st := range steps {
			o, near := B.at[[2]int{q[0] + st[0], q[1] + st[1]}]
			if !near {
				continue
			}
			if math.IsInf(float64(s.a.pairCost(p, o, st)), 1) {
				return false
			}
			sum += float64(s.odds.of(p, o, st))
			k++
		}
	}
	if k >= 2 && sum/float64(k) > mergeMaxOdds {
		return false
	}
	// One seam alone joins two pieces of a segment only when they are
	// best buddies, and any two pieces so in the first round.
	if k == 1 && (strict || len(S.pieces) > 1) && sum >= mergeSingleOdds {
		return false
	}
	for _, p := range S.pieces {
		q := [2]int{s.pos[p][0] + t[0], s.pos[p][1] + t[1]}
		s.pos[p] = q
		s.of[p] = big
		B.at[q] = p
	}
	B.pieces = append(B.pieces, S.pieces...)
	B.rows, B.cols = rows, cols
	s.segs[small] = nil
	return true
}

// mergeMaxOdds is the most a join's new seams may cost on average, each
// over the best alternative either piece has (seamOdds).
const mergeMaxOdds, mergeSingleOdds = 1.25, 1.0

// seamOdds holds, per direction, every piece's cheapest and second
// cheapest partner's dissimilarity, as the left or upper piece (row) and as
// the right or lower one (col).
type seamOdds struct {
	a                                      *assembly
	rowBest, rowSecond, colBest, colSecond [2][]float32
}

func (a *assembly) newSeamOdds() *seamOdds {
	m := a.m
	o := &seamOdds{a: a}
	for dir, d := range [2][]float32{a.right, a.down} {
		rowBest, rowSecond := make([]float32, m), make([]float32, m)
		colBest, colSecond := make([]float32, m), make([]float32, m)
		for i := range m {
			rowBest[i], rowSecond[i], colBest[i], colSecond[i] = inf, inf, inf, inf
		}
		for x := range m {
			for y, v := range d[x*m : (x+1)*m] {
				if v < rowBest[x] {
					rowBest[x], rowSecond[x] = v, rowBest[x]
				} else if v < rowSecond[x] {
					rowSecond[x] = v
				}
				if v < colBest[y] {
					colBest[y], colSecond[y] = v, colBest[y]
				} else if v < colSecond[y] {
					colSecond[y] = v
				}
			}
		}
		o.rowBest[dir], o.rowSecond[dir], o.colBest[dir], o.colSecond[dir] = rowBest, rowSecond, colBest, colSecond
	}
	return o
}

// weight is the dissimilarity of y right of (dir = dirRight) or below x
// over the best alternative of either piece: below 1 for best buddies.
func (o *seamOdds) weight(x, y, dir int) float32 {
	d := o.a.right
	if dir == dirDown {
		d = o.a.down
	}
	v := d[x*o.a.m+y]
	alt := o.rowBest[dir][x]
	if v <= alt {
		alt = o.rowSecond[dir][x]
	}
	altCol := o.colBest[dir][y]
	if v <= altCol {
		altCol = o.colSecond[dir][y]
	}
	return (v + 1e-3) / (min(alt, altCol) + 1e-3)
}

// of is weight for q at step d from p.
func (o *seamOdds) of(p, q int, d [2]int) float32 {
	switch d {
	case [2]int{0, 1}:
		return o.weight(p, q, dirRight)
	case [2]int{0, -1}:
		return o.weight(q, p, dirRight)
	case [2]int{1, 0}:
		return o.weight(p, q, dirDown)
	}
	return o.weight(q, p, dirDown)
}

type candidateSeam struct {
	x, y int32
	down bool
	w    float32
}

// candidateSeams lists every piece's cheapest partners in both directions,
// weighted by the pair's dissimilarity over the best alternative either
// piece has (below 1: best buddies), surest first.
func (a *assembly) candidateSeams(odds *seamOdds) []candidateSeam {
	m := a.m
	var out []candidateSeam
	for dir, d := range [2][]float32{a.right, a.down} {
		weight := func(x, y int) float32 { return odds.weight(x, y, dir) }
		// x's cheapest partners: a row of d; y's: a column.
		var top [mergeCandidates]int
		var topV [mergeCandidates]float32
		pick := func(start, stride int) []int {
			found := 0
			for i := range m {
				v := d[start+i*stride]
				if math.IsInf(float64(v), 1) || found == mergeCandidates && v >= topV[found-1] {
					continue
				}
				if found < mergeCandidates {
					found++
				}
				j := found - 1
				for j > 0 && topV[j-1] > v {
					top[j], topV[j] = top[j-1], topV[j-1]
					j--
				}
				top[j], topV[j] = i, v
			}
			return top[:found]
		}
		for x := range m {
			for _, y := range pick(x*m, 1) {
				out = append(out, candidateSeam{int32(x), int32(y), dir == dirDown, weight(x, y)})
			}
		}
		for y := range m {
			for _, x := range pick(y, m) {
				out = append(out, candidateSeam{int32(x), int32(y), dir == dirDown, weight(x, y)})
			}
		}
	}
	slices.SortStableFunc(out, func(p, q candidateSeam) int {
		switch {
		case p.w < q.w:
			return -1
		case p.w > q.w:
			return 1
		}
		return 0
	})
	return out
}

// mergeSegments joins segments along the candidate seams, surest first.
// They depend on the pieces alone, so they are merged once per assembly
// (growFramed starts from the largest; mendSplitSegments reads them all).
func (a *assembly) mergeSegments() *segmentSet {
	if a.segs == nil {
		a.segs = a.listSegments()
	}
	return a.segs
}

func (a *assembly) listSegments() *segmentSet {
	s := a.newSegmentSet()
	s.odds = a.newSeamOdds()
	seams := a.candidateSeams(s.odds)
	for _, strict := range []bool{true, false} {
		for _, e := range seams {
			d := [2]int{0, 1}
			if e.down {
				d = [2]int{1, 0}
			}
			s.join(int(e.x), int(e.y), d, strict)
		}
	}
	return s
}

// frameSegments places the segments in the frame, largest first, each
// where its flat sides put it (and, where they leave it free, at the
// offset whose new seams with the pieces placed cost least on average),
// never on a taken cell nor next to a piece it does not interlock with;
// segments smaller than minSize are left out. It returns cell → piece, −1
// where none is placed.
func (s *segmentSet) frameSegments(minSize int) []int {
	a, n := s.a, s.a.n
	cells := make([]int, n*n)
	for i := range cells {
		cells[i] = -1
	}
	var segs []*segment
	for _, sg := range s.segs {
		if sg != nil && len(sg.pieces) >= minSize {
			segs = append(segs, sg)
		}
	}
	slices.SortStableFunc(segs, func(p, q *segment) int { return len(q.pieces) - len(p.pieces) })
	for i, sg := range segs {
		bestCost, best := math.Inf(1), [2]int{}
		for _, dr := range sg.rows.offsets(n) {
		next:
			for _, dc := range sg.cols.offsets(n) {
				var sum float64
				k := 0
				for _, p := range sg.pieces {
					r, c := s.pos[p][0]+dr, s.pos[p][1]+dc
					if cells[r*n+c] >= 0 {
						continue next
					}
					for _, st := range steps {
						rr, cc := r+st[0], c+st[1]
						if rr < 0 || cc < 0 || rr >= n || cc >= n || cells[rr*n+cc] < 0 {
							continue
						}
						v := a.pairCost(p, cells[rr*n+cc], st)
						if math.IsInf(float64(v), 1) {
							continue next
						}
						sum += float64(v)
						k++
					}
				}
				if k == 0 && i > 0 {
					continue
				}
				cost := sum / float64(max(k, 1))
				if cost < bestCost {
					bestCost, best = cost, [2]int{dr, dc}
				}
			}
		}
		if math.IsInf(bestCost, 1) {
			continue
		}
		for _, p := range sg.pieces {
			cells[(s.pos[p][0]+best[0])*n+s.pos[p][1]+best[1]] = p
		}
	}
	return cells
}

// largestFramed is cell → piece with only the largest segment placed (−1
// elsewhere), where its flat sides put it.
func (s *segmentSet) largestFramed() []int {
	size := 0
	for _, sg := range s.segs {
		if sg != nil {
			size = max(size, len(sg.pieces))
		}
	}
	return s.frameSegments(size)
}
