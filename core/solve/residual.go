package solve

import (
	"math"
	"slices"
	"sync"
)

// The prediction residual: a second seam measure for rectangular sheets.
// MGC (compat.go) compares the colour step across a seam with each piece's
// mean gradient along it; the residual compares it with each piece's own
// step at that pixel — what a straight continuation of the piece predicts
// there — so it sees an edge or a texture that crosses the seam at an
// angle, which a mean does not. Alone it ranks fewer true partners first
// than MGC; added to it, it ranks more on nearly every 32×32 rect sheet
// measured (night-city 0.49 → 0.57 of the sides, coral-reef 0.71 → 0.76),
// but the 32×32 search, whose gates were all measured on MGC, does worse
// on it. So it judges a second search up to 16×16, where the search is
// reliable, and above that only fills a large loose part a third time, MGC
// judging the filling (arrangeContent, refillLoose; docs/solver.md, "A second seam
// measure").

// residualCosts returns, per direction (dirRight, dirDown), the residual of
// every pair of pieces of a rectangular sheet, d[a·m+b] for b right of or
// below a: over the seam's samples, the mean of the L2 norm over the three
// channels of (δ − gA, −δ − gB), δ the colour step from A to B and gA, gB
// each piece's step into the seam at that sample (0 where the pixel one
// step inside is unknown). A sample under a label on either side is left
// out; a piece beside itself is +Inf.
func residualCosts(ss *seamSet, pcs []*cutPiece) [2][]float32 {
	m := len(pcs)
	ok := func(p *cutPiece, i int32) bool { return i >= 0 && (p.kind[i] == pxInner || p.kind[i] == pxRing) }
	var out [2][]float32
	for dir := range 2 {
		s := ss.flat[dir]
		k := len(s.pa)
		// Each piece's colour at every sample and its step into the seam,
		// as A and as B; the colour NaN where it is unknown.
		side := func(p *cutPiece, at, in []int32) (col, step []float32) {
			col, step = make([]float32, 3*k), make([]float32, 3*k)
			for j := range k {
				if !ok(p, at[j]) {
					col[3*j] = float32(math.NaN())
					continue
				}
				for c := range 3 {
					col[3*j+c] = p.rgb[3*int(at[j])+c]
					if ok(p, in[j]) {
						step[3*j+c] = col[3*j+c] - p.rgb[3*int(in[j])+c]
					}
				}
			}
			return col, step
		}
		colA, stepA := make([][]float32, m), make([][]float32, m)
		colB, stepB := make([][]float32, m), make([][]float32, m)
		parallelFor(m, func(x int) error {
			colA[x], stepA[x] = side(pcs[x], s.pa, s.pa1)
			colB[x], stepB[x] = side(pcs[x], s.qb, s.qb1)
			return nil
		})
		d := make([]float32, m*m)
		parallelFor(m, func(a int) error {
			ca, ga := colA[a], stepA[a]
			for b := range m {
				if a == b {
					d[a*m+b] = inf
					continue
				}
				cb, gb := colB[b], stepB[b]
				var sum float32
				used := 0
				for j := 0; j < 3*k; j += 3 {
					if ca[j] != ca[j] || cb[j] != cb[j] {
						continue
					}
					used++
					var r float32
					for c := j; c < j+3; c++ {
						step := cb[c] - ca[c]
						e1, e2 := step-ga[c], -step-gb[c]
						r += e1*e1 + e2*e2
					}
					sum += float32(math.Sqrt(float64(r)))
				}
				d[a*m+b] = sum / float32(max(used, 1))
			}
			return nil
		})
		out[dir] = d
	}
	return out
}

// blendWeight is the residual's weight where it is added to MGC, each
// scaled by its median over all pairs (0.25 and 1 measured: at 1 the
// 16×16 search's answers and the 32×32 refill's were better; whole 32×32
// searches on the blend were worse at either).
const blendWeight = 1

// searchBlendWeight is the residual's weight in the 32×32 search run again
// on the blend (searchBlended): a whole search on λ = 1 lost what MGC
// finds (Storm 0.594 → 0.003), a quarter keeps it.
const searchBlendWeight = 0.25

// measures are a rect sheet's seam measures beside MGC, each added to it
// (blended) and made once, on first use, whichever goroutine asks first;
// nil on shape sheets.
type measures struct {
	cm       *compatMatrix
	ss       *seamSet
	pcs      []*cutPiece
	mu       sync.Mutex
	residual [2][]float32
	made     map[float32]*compatMatrix // MGC with the residual, by weight
	means    [2]func() *compatMatrix   // MGC with the side means, with steps and without
}

func newMeasures(cm *compatMatrix, ss *seamSet, pcs []*cutPiece) *measures {
	ms := &measures{cm: cm, ss: ss, pcs: pcs, made: map[float32]*compatMatrix{}}
	for i, steps := range [2]bool{true, false} {
		ms.means[i] = sync.OnceValue(func() *compatMatrix { return cm.blended(sideMeanCosts(ss, pcs, steps), sideMeanWeight) })
	}
	return ms
}

// blend returns MGC's costs with the residual added at weight (blended).
func (ms *measures) blend(weight float32) *compatMatrix {
	ms.mu.Lock()
	defer ms.mu.Unlock()
	if ms.made[weight] == nil {
		if ms.residual[0] == nil {
			ms.residual = residualCosts(ms.ss, ms.pcs)
		}
		ms.made[weight] = ms.cm.blended(ms.residual, weight)
	}
	return ms.made[weight]
}

// allFour returns the four measures the solver judges a change by: MGC's
// costs mgc, the blend at blendWeight and both side means.
func (ms *measures) allFour(mgc *compatMatrix) []*compatMatrix {
	return []*compatMatrix{mgc, ms.blend(blendWeight), ms.sideMeans(0), ms.sideMeans(1)}
}

// sideMeans returns MGC's costs with the side-mean step (sidemean.go)
// added at sideMeanWeight: with the pieces' steps (0) and without (1).
func (ms *measures) sideMeans(i int) *compatMatrix { return ms.means[i]() }

// blended returns cm's costs with another measure's res added (the
// residual, the side means), scaled per direction so that its median over
// the pairs is weight times MGC's: the sum stays on MGC's scale.
func (cm *compatMatrix) blended(res [2][]float32, weight float32) *compatMatrix {
	out := &compatMatrix{m: cm.m}
	for dir := range 2 {
		var k float32
		if r := median(res[dir]); r > 0 {
			k = weight * median(cm.d[dir]) / r
		}
		d := slices.Clone(cm.d[dir])
		if k > 0 { // else the residual is 0 on most pairs: nothing to add
			for i := range d {
				d[i] += k * res[dir][i]
			}
		}
		out.d[dir] = d
	}
	return out
}

// median is the median of d's finite values, from a strided sample of at
// most 1<<16 of them (0 if there are none).
func median(d []float32) float32 {
	stride := max(1, len(d)>>16)
	var s []float32
	for i := 0; i < len(d); i += stride {
		if v := d[i]; !math.IsInf(float64(v), 0) && v == v {
			s = append(s, v)
		}
	}
	if len(s) == 0 {
		return 0
	}
	// The middle value by selection, not by sorting: blending the side
	// means at 16×16 spent most of its time sorting 65,536 costs.
	half := len(s) / 2
	selectSmallest(s, half+1)
	return slices.Max(s[:half+1])
}
