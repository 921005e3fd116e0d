package solve

import (
	"math"

	"github.com/jigbench/jigbench/core/puzzle"
)

// A seam is the cut between two pieces placed side by side: A on the left
// of (horizontal) or above (vertical) B. Its samples are the pairs of
// 4-neighbouring pixels p of A and q of B across the cut, with the direction
// d from p to q, and the pixels one and two steps further into each piece
// (p−d, p−2d in A; q+d, q+2d in B), as indices into the pieces' slots.
//
// With tabs the cut follows the tab's outline: the pixels of a tab are the
// neighbour's pixels, so the cut runs along the straight parts of the edge
// and around the arc, and every sample compares pixels that were neighbours
// in the picture. The cut is taken from the piece that owns the tab (its
// silhouette beyond the cell line), so it is exact whatever the tab style.
type seam struct {
	pa, pa1, pa2 []int32 // A's slot indices (−1: not in the slot)
	qb, qb1, qb2 []int32 // B's slot indices
	dir          []uint8 // each sample's normal: right, left, down, up
	soft         []bool  // a missing pixel is skipped, not charged (nil: none is)
	id           int     // index in seamSet.all
	dirOf        int     // dirRight or dirDown
	ownerB       bool    // the tab is B's
}

func (s *seam) add(pa, pa1, pa2, qb, qb1, qb2 int) {
	s.pa, s.pa1, s.pa2 = append(s.pa, int32(pa)), append(s.pa1, int32(pa1)), append(s.pa2, int32(pa2))
	s.qb, s.qb1, s.qb2 = append(s.qb, int32(qb)), append(s.qb1, int32(qb1)), append(s.qb2, int32(qb2))
}

// buildSeam computes the seam between A and B (vertical: B below A, else B
// right of A). lobe reports whether a pixel, in A's cell coordinates, is a
// tab pixel beyond the edge line: owned by A when it lies on B's side of the
// line, by B when on A's side. The band around the edge line is as wide as
// the pieces' reach plus two pixels.
func buildSeam(g *geometry, vertical bool, lobe func(x, y int) bool) *seam {
	// Work in "edge coordinates": u along the edge, v across it (v < 0 on A's
	// side of the line at v = 0, i.e. x = w or y = h in A's coordinates).
	length, reach := g.h, g.reachX
	if vertical {
		length, reach = g.w, g.reachY
	}
	toA := func(u, v int) (x, y int) {
		if vertical {
			return u, g.h + v
		}
		return g.w + v, u
	}
	inA := func(u, v int) bool { // does pixel (u, v) belong to A?
		x, y := toA(u, v)
		return (v < 0) != lobe(x, y)
	}
	idxA := func(u, v int) int { x, y := toA(u, v); return g.at(x, y) }
	idxB := func(u, v int) int {
		x, y := toA(u, v)
		if vertical {
			return g.at(x, y-g.h)
		}
		return g.at(x-g.w, y)
	}
	s := &seam{}
	band := reach + 2
	for u := 0; u < length; u++ {
		for v := -band; v < band; v++ {
			if !inA(u, v) {
				continue
			}
			for _, d := range [4][2]int{{0, 1}, {0, -1}, {1, 0}, {-1, 0}} {
				u2, v2 := u+d[0], v+d[1]
				if u2 < 0 || u2 >= length || v2 < -band || v2 >= band || inA(u2, v2) {
					continue
				}
				s.add(idxA(u, v), idxA(u-d[0], v-d[1]), idxA(u-2*d[0], v-2*d[1]),
					idxB(u2, v2), idxB(u2+d[0], v2+d[1]), idxB(u2+2*d[0], v2+2*d[1]))
			}
		}
	}
	return s
}

// seamOf builds the seam for A (left or top) and B given the side of the tab
// owner: owner is A when A's facing side is a tab, B when B's is, nil for
// straight cuts.
func seamOf(g *geometry, vertical bool, a, b *cutPiece) *seam {
	sideA, sideB := puzzle.Right, puzzle.Left
	if vertical {
		sideA, sideB = puzzle.Bottom, puzzle.Top
	}
	// A classic tab's neck and shoulders dip below the edge line too: there
	// the owner's silhouette says which pixels are the other piece's. Where
	// the tabs and blanks of the perpendicular sides (in the middle ±2.6k of
	// those sides, up to 3.4k deep) may reach into the seam's band, near the
	// ends of the edge, the cut is all but straight and only what lies
	// beyond the line counts.
	across, length, reach := g.w, g.h, g.reachX // across the seam, along it
	if vertical {
		across, length, reach = g.h, g.w, g.reachY
	}
	ends := 0
	if float64(across)/2+2.6*g.knob+1 >= float64(across-reach-2) {
		ends = int(math.Ceil(3.4*g.knob)) + 2
	}
	middle := func(x, y int) bool {
		u := y
		if vertical {
			u = x
		}
		return g.knob > 0 && u >= ends && u < length-ends
	}
	has := func(p *cutPiece, x, y int) bool { i := g.at(x, y); return i >= 0 && p.kind[i] != pxOutside }
	var s *seam
	switch {
	case a.sides[sideA] == puzzle.Tab:
		s = buildSeam(g, vertical, func(x, y int) bool {
			beyond := x >= g.w
			if vertical {
				beyond = y >= g.h
			}
			if middle(x, y) {
				return has(a, x, y) == beyond
			}
			return beyond && has(a, x, y)
		})
	case b.sides[sideB] == puzzle.Tab:
		s = buildSeam(g, vertical, func(x, y int) bool {
			// B's coordinates of the A-frame pixel.
			bx, by := x-g.w, y
			if vertical {
				bx, by = x, y-g.h
			}
			before := bx < 0
			if vertical {
				before = by < 0
			}
			if middle(x, y) {
				return has(b, bx, by) == before
			}
			return before && has(b, bx, by)
		})
	default:
		return buildSeam(g, vertical, func(int, int) bool { return false })
	}
	if g.knob > 0 {
		// Near the ends of a classic edge the cuts of the perpendicular
		// edges wander too (their shoulders, up to 0.4k): a pixel missing
		// there says nothing of this seam, so it is skipped, not charged as
		// a tab that does not fit its blank.
		// Where the two rules meet, a sample may pair pixels cut by each.
		soft := max(ends+1, int(math.Ceil(0.5*g.knob))+1)
		s.soft = make([]bool, len(s.pa))
		for k, i := range s.pa {
			u := int(i)/g.sw - g.offY
			if vertical {
				u = int(i)%g.sw - g.offX
			}
			s.soft[k] = u < soft || u >= length-soft
		}
	}
	return s
}

// Directions of a pairwise compatibility: B to the right of A, or below it.
const (
	dirRight = 0
	dirDown  = 1
)

// inf marks pairs that cannot be neighbours.
var inf = float32(math.Inf(1))

// compatMatrix holds D[dir][a*m+b] for all ordered pairs, m = N².
type compatMatrix struct {
	m int
	d [2][]float32
}

// canPair reports whether B may be A's neighbour in dir by shape alone: the
// facing sides interlock (or are both straight on a rectangular sheet) and,
// with tabs, both pieces share the flat sides across the seam's direction
// (two neighbours in a row are both on the top border or neither is).
func canPair(a, b *cutPiece, dir int, shaped bool) bool {
	if a == b {
		return false
	}
	if !shaped {
		return true
	}
	sa, sb, o1, o2 := puzzle.Right, puzzle.Left, puzzle.Top, puzzle.Bottom
	if dir == dirDown {
		sa, sb, o1, o2 = puzzle.Bottom, puzzle.Top, puzzle.Left, puzzle.Right
	}
	return a.sides[sa].Complements(b.sides[sb]) &&
		(a.sides[o1] == puzzle.Flat) == (b.sides[o1] == puzzle.Flat) &&
		(a.sides[o2] == puzzle.Flat) == (b.sides[o2] == puzzle.Flat)
}

// seamSet caches the seams: with tabs the cut of a pair is set by the piece
// that owns the tab, so each piece has one seam per direction it owns a tab
// in (as A, and as B); rectangular cuts share one straight seam. Seams with
// the same samples (all semicircular tabs of one orientation) are shared, so
// the statistics of a piece along a seam are computed once.
type seamSet struct {
	ownA [2][]*seam // [dir][a]: a's tab into its right/lower neighbour
	ownB [2][]*seam // [dir][b]: b's tab into its left/upper neighbour
	flat [2]*seam
	all  []*seam // distinct seams; seam.id indexes it
}

func newSeamSet(g *geometry, pcs []*cutPiece) *seamSet {
	ss := &seamSet{}
	for dir := range 2 {
		vertical := dir == dirDown
		ss.flat[dir] = buildSeam(g, vertical, func(int, int) bool { return false })
		ss.flat[dir].dirOf = dir
		ss.ownA[dir] = make([]*seam, len(pcs))
		ss.ownB[dir] = make([]*seam, len(pcs))
	}
	parallelFor(len(pcs), func(i int) error {
		p := pcs[i]
		for dir := range 2 {
			vertical := dir == dirDown
			sa, sb := puzzle.Right, puzzle.Left
			if vertical {
				sa, sb = puzzle.Bottom, puzzle.Top
			}
			if p.sides[sa] == puzzle.Tab {
				ss.ownA[dir][i] = seamOf(g, vertical, p, &cutPiece{})
				ss.ownA[dir][i].dirOf = dir
			}
			if p.sides[sb] == puzzle.Tab {
				ss.ownB[dir][i] = seamOf(g, vertical, &cutPiece{}, p)
				ss.ownB[dir][i].dirOf, ss.ownB[dir][i].ownerB = dir, true
			}
		}
		return nil
	})
	// Share identical seams and number them.
	canon := map[string]*seam{}
	share := func(s *seam) *seam {
		if s == nil {
			return nil
		}
		key := s.key()
		if c, ok := canon[key]; ok {
			return c
		}
		s.id = len(ss.all)
		s.prepare()
		ss.all = append(ss.all, s)
		canon[key] = s
		return s
	}
	for dir := range 2 {
		ss.flat[dir] = share(ss.flat[dir])
		for i := range pcs {
			ss.ownA[dir][i] = share(ss.ownA[dir][i])
			ss.ownB[dir][i] = share(ss.ownB[dir][i])
		}
	}
	return ss
}

func (ss *seamSet) of(a, b *cutPiece, dir int) *seam {
	if s := ss.ownA[dir][a.id]; s != nil {
		return s
	}
	if s := ss.ownB[dir][b.id]; s != nil {
		return s
	}
	return ss.flat[dir]
}

// key identifies a seam by its samples.
func (s *seam) key() string {
	b := make([]byte, 0, 24*len(s.pa))
	for _, list := range [][]int32{s.pa, s.pa1, s.qb, s.qb1} {
		for _, v := range list {
			b = append(b, byte(v), byte(v>>8), byte(v>>16), byte(v>>24))
		}
		b = append(b, 0xff)
	}
	return string(b)
}

// prepare classifies each sample by the direction of the seam's normal
// there (right, left, down, up): gradient statistics are kept per class.
func (s *seam) prepare() {
	s.dir = make([]uint8, len(s.pa))
	for k := range s.pa {
		switch d := s.pa[k] - s.pa1[k]; {
		case d == 1:
			s.dir[k] = 0
		case d == -1:
			s.dir[k] = 1
		case d > 1:
			s.dir[k] = 2
		default:
			s.dir[k] = 3
		}
	}
}

// seamSide is one piece's side of a seam, as the Mahalanobis gradient
// compatibility (Gallagher 2012) needs it: the piece's colours at the seam
// (NaN where the piece has no pixel), and the mean and the inverse covariance
// of its gradients across the seam (the colour at the seam minus the colour
// one step inside), means per normal direction.
type seamSide struct {
	v   []float32 // 3 per sample
	mu  [4][3]float32
	inv [3][3]float32
}

// sideOf computes p's side of seam s: as A (at, in = pa, pa1) or as B
// (qb, qb1).
func sideOf(p *cutPiece, s *seam, asA bool) *seamSide {
	sd := &seamSide{}
	sideInto(sd, p, s, asA)
	return sd
}

// sideInto is sideOf into sd, reusing its buffer.
func sideInto(sd *seamSide, p *cutPiece, s *seam, asA bool) {
	at, in := s.pa, s.pa1
	if !asA {
		at, in = s.qb, s.qb1
	}
	ok := func(i int32) bool { return i >= 0 && (p.kind[i] == pxInner || p.kind[i] == pxRing) }
	if cap(sd.v) < 3*len(at) {
		sd.v = make([]float32, 3*len(at))
	}
	sd.v, sd.mu = sd.v[:3*len(at)], [4][3]float32{}
	var sum [4][3]float64
	var cnt [4]int
	for k := range at {
		switch {
		case at[k] >= 0 && p.kind[at[k]] == pxLabel:
			sd.v[3*k] = -1 // unknown: the sample is skipped
			continue
		case !ok(at[k]) && s.soft != nil && s.soft[k]:
			sd.v[3*k] = -1
			continue
		case !ok(at[k]):
			for c := range 3 {
				sd.v[3*k+c] = float32(math.NaN())
			}
			continue
		}
		for c := range 3 {
			sd.v[3*k+c] = p.rgb[3*int(at[k])+c]
		}
		if ok(in[k]) {
			for c := range 3 {
				sum[s.dir[k]][c] += float64(p.rgb[3*int(at[k])+c] - p.rgb[3*int(in[k])+c])
			}
			cnt[s.dir[k]]++
		}
	}
	for d := range 4 {
		if cnt[d] >= 3 {
			for c := range 3 {
				sd.mu[d][c] = float32(sum[d][c] / float64(cnt[d]))
			}
		}
	}
	var cov [3][3]float64
	n := 0
	for k := range at {
		if !ok(at[k]) || !ok(in[k]) {
			continue
		}
		var g [3]float64
		for c := range 3 {
			g[c] = float64(p.rgb[3*int(at[k])+c]-p.rgb[3*int(in[k])+c]) - float64(sd.mu[s.dir[k]][c])
		}
		for i := range 3 {
			for j := range 3 {
				cov[i][j] += g[i] * g[j]
			}
		}
		n++
	}
	for i := range 3 {
		for j := range 3 {
			cov[i][j] /= float64(max(n, 1))
		}
		cov[i][i]++ // regularisation: a flat seam still has unit variance
	}
	inv := inv3(cov)
	for i := range 3 {
		for j := range 3 {
			sd.inv[i][j] = float32(inv[i][j])
		}
	}
}

// missingPenalty is added for a seam sample where a piece has no pixel (a
// tab that does not fit the blank; only with classic tabs).
const missingPenalty = 100

// mgc is the symmetric Mahalanobis gradient compatibility of a seam, per
// sample: for the colour step δ across the seam (B's colour minus A's),
// (δ − μA)ᵀ ΣA⁻¹ (δ − μA) + (−δ − μB)ᵀ ΣB⁻¹ (−δ − μB), where μ and Σ describe
// each piece's own gradient at the seam — a step that either piece's own
// texture predicts costs little.
func mgc(a, b *seamSide, dir []uint8) float32 {
	var sum float32
	used := 0
	// av and bv advance one sample (3 values) per step, which lets the
	// compiler drop the bounds checks; the arithmetic is the formula's,
	// in its order.
	av, bv := a.v[:3*len(dir)], b.v[:3*len(dir)]
	ia, ib := &a.inv, &b.inv
	for _, d := range dir {
		if len(av) < 3 || len(bv) < 3 {
			break
		}
		va0, va1, va2 := av[0], av[1], av[2]
		vb0, vb1, vb2 := bv[0], bv[1], bv[2]
		av, bv = av[3:], bv[3:]
		if va0 < 0 || vb0 < 0 { // under a label
			continue
		}
		used++
		if va0 != va0 || vb0 != vb0 { // NaN: a missing pixel
			sum += 2 * missingPenalty
			continue
		}
		ma, mb := &a.mu[d&3], &b.mu[d&3]
		d0, d1, d2 := vb0-va0, vb1-va1, vb2-va2
		x0, x1, x2 := d0-ma[0], d1-ma[1], d2-ma[2]
		sa := x0*(ia[0][0]*x0+ia[0][1]*x1+ia[0][2]*x2) +
			x1*(ia[1][0]*x0+ia[1][1]*x1+ia[1][2]*x2) +
			x2*(ia[2][0]*x0+ia[2][1]*x1+ia[2][2]*x2)
		y0, y1, y2 := -d0-mb[0], -d1-mb[1], -d2-mb[2]
		sb := y0*(ib[0][0]*y0+ib[0][1]*y1+ib[0][2]*y2) +
			y1*(ib[1][0]*y0+ib[1][1]*y1+ib[1][2]*y2) +
			y2*(ib[2][0]*y0+ib[2][1]*y1+ib[2][2]*y2)
		sum += min(sa+sb, sampleCap)
	}
	return sum / float32(max(used, 1))
}

// sampleCap truncates the cost of one seam sample (both sides' squared
// Mahalanobis distances, χ² with 6 degrees of freedom for a true seam, for
// which 30 has a probability of about 4·10⁻⁵): one outlier — a star, the
// corner of a lit window on the seam — must not outweigh the rest of a
// seam's evidence. Untruncated, night-city (12, 16) and moonlit-bay (16) were
// not solved; below 30 a photograph fails (measured in issue 4's note).
const sampleCap = 30

func inv3(m [3][3]float64) [3][3]float64 {
	a, b, c := m[0][0], m[0][1], m[0][2]
	d, e, f := m[1][0], m[1][1], m[1][2]
	g, h, i := m[2][0], m[2][1], m[2][2]
	A, B, C := e*i-f*h, -(d*i - f*g), d*h-e*g
	det := a*A + b*B + c*C
	return [3][3]float64{
		{A / det, -(b*i - c*h) / det, (b*f - c*e) / det},
		{B / det, (a*i - c*g) / det, -(a*f - c*d) / det},
		{C / det, -(a*h - b*g) / det, (a*e - b*d) / det},
	}
}

// newCompatMatrix scores every pair allowed by shape in both directions.
// Each piece's side of each seam it can be on is computed once.
func newCompatMatrix(ss *seamSet, pcs []*cutPiece, shaped bool) *compatMatrix {
	m := len(pcs)
	cm := &compatMatrix{m: m}
	for dir := range 2 {
		cm.d[dir] = make([]float32, m*m)
	}
	if len(ss.all) > 16 {
		// Classic tabs: one seam per tab.
		scorePerTab(cm, ss, pcs)
		return cm
	}
	// sideA[seam.id][piece], sideB likewise: each piece's side of every
	// seam it can be on (the seams are few: straight cuts, alike tabs).
	sideA := make([][]*seamSide, len(ss.all))
	sideB := make([][]*seamSide, len(ss.all))
	for i := range ss.all {
		sideA[i] = make([]*seamSide, m)
		sideB[i] = make([]*seamSide, m)
	}
	// Precompute in parallel: each piece's sides on every seam it can take.
	parallelFor(m, func(x int) error {
		for dir := range 2 {
			for _, s := range ss.all {
				if ss.usable(s, pcs[x], dir, true, shaped) {
					sideA[s.id][x] = sideOf(pcs[x], s, true)
				}
				if ss.usable(s, pcs[x], dir, false, shaped) {
					sideB[s.id][x] = sideOf(pcs[x], s, false)
				}
			}
		}
		return nil
	})
	// The precomputed B sides of each seam, packed for the lane kernel.
	var packed []*packedSides
	if haveLanes {
		packed = make([]*packedSides, len(ss.all))
		parallelFor(len(ss.all), func(i int) error {
			packed[i] = packSides(sideB[i], len(ss.all[i].pa))
			return nil
		})
	}
	parallelFor(m, func(a int) error {
		var lr laneRow
		var out [lanes]float32
		done := make([]bool, m)
		for dir := range 2 {
			row := cm.d[dir][a*m : (a+1)*m]
			if packed != nil {
				// Eight B sides at a time on every seam A's side is known
				// on; a lane counts where the pair's seam is that one.
				clear(done)
				for _, s := range ss.all {
					sa, p := sideA[s.id][a], packed[s.id]
					if sa == nil || p == nil || s.dirOf != dir {
						continue
					}
					lr.prepare(sa, s.dir)
					if !shaped {
						// One straight seam: every other piece pairs.
						for j := range len(p.ids) / lanes {
							lr.block(p, j, s.dir, &out)
							for l, b := range p.ids[j*lanes : (j+1)*lanes] {
								if b >= 0 && int(b) != a {
									row[b], done[b] = out[l], true
								}
							}
						}
						continue
					}
					for j := range len(p.ids) / lanes {
						ids := p.ids[j*lanes : (j+1)*lanes]
						use := false
						for _, b := range ids {
							if b >= 0 && !done[b] && canPair(pcs[a], pcs[b], dir, shaped) && ss.of(pcs[a], pcs[b], dir) == s {
								use = true
								break
							}
						}
						if !use {
							continue
						}
						lr.block(p, j, s.dir, &out)
						for l, b := range ids {
							if b >= 0 && !done[b] && canPair(pcs[a], pcs[b], dir, shaped) && ss.of(pcs[a], pcs[b], dir) == s {
								row[b], done[b] = out[l], true
							}
						}
					}
				}
			}
			for b := range m {
				if done[b] {
					continue
				}
				if !canPair(pcs[a], pcs[b], dir, shaped) {
					row[b] = inf
					continue
				}
				s := ss.of(pcs[a], pcs[b], dir)
				sa, sb := sideA[s.id][a], sideB[s.id][b]
				if sa == nil {
					sa = sideOf(pcs[a], s, true)
				}
				if sb == nil {
					sb = sideOf(pcs[b], s, false)
				}
				row[b] = mgc(sa, sb, s.dir)
			}
		}
		return nil
	})
	return cm
}

// scorePerTab fills cm where every tab has a seam of its own (classic
// tabs): the owner's side of its seam is computed once, the partner's for
// each pair that interlocks, into one buffer per worker — a table of every
// piece's side of every seam would be m² entries (537 MB at 64×64).
func scorePerTab(cm *compatMatrix, ss *seamSet, pcs []*cutPiece) {
	m := len(pcs)
	var ownA, ownB [2][]*seamSide // [dir][piece]: its side of the seam its tab owns
	for dir := range 2 {
		ownA[dir], ownB[dir] = make([]*seamSide, m), make([]*seamSide, m)
	}
	parallelFor(m, func(x int) error {
		for dir := range 2 {
			if s := ss.ownA[dir][x]; s != nil {
				ownA[dir][x] = sideOf(pcs[x], s, true)
			}
			if s := ss.ownB[dir][x]; s != nil {
				ownB[dir][x] = sideOf(pcs[x], s, false)
			}
		}
		return nil
	})
	parallelFor(m, func(a int) error {
		var partner seamSide
		for dir := range 2 {
			row := cm.d[dir][a*m : (a+1)*m]
			for b := range m {
				if !canPair(pcs[a], pcs[b], dir, true) {
					row[b] = inf
					continue
				}
				// Interlocking sides: one of the two owns the tab.
				switch s := ss.of(pcs[a], pcs[b], dir); s {
				case ss.ownA[dir][a]:
					sideInto(&partner, pcs[b], s, false)
					row[b] = mgc(ownA[dir][a], &partner, s.dir)
				default:
					sideInto(&partner, pcs[a], s, true)
					row[b] = mgc(&partner, ownB[dir][b], s.dir)
				}
			}
		}
		return nil
	})
}

// usable reports whether seam s can be piece x's seam in direction dir, as
// A (asA) or as B, so that its side is worth precomputing: the seam of a
// pair is the tab owner's, so A takes its own seam when it owns the tab and
// any B-owned seam of that direction otherwise (shared when tabs are alike).
func (ss *seamSet) usable(s *seam, x *cutPiece, dir int, asA, shaped bool) bool {
	if !shaped {
		return s == ss.flat[dir]
	}
	sa, sb := puzzle.Right, puzzle.Left
	if dir == dirDown {
		sa, sb = puzzle.Bottom, puzzle.Top
	}
	if asA {
		switch x.sides[sa] {
		case puzzle.Tab:
			return s == ss.ownA[dir][x.id]
		case puzzle.Blank:
			return s.dirOf == dir && s.ownerB
		}
		return false
	}
	switch x.sides[sb] {
	case puzzle.Tab:
		return s == ss.ownB[dir][x.id]
	case puzzle.Blank:
		return s.dirOf == dir && !s.ownerB && s != ss.flat[dir]
	}
	return false
}
