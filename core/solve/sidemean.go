package solve

import "math"

// The side-mean step: a third seam measure for rectangular sheets. MGC and
// the residual (residual.go) compare a seam pixel by pixel, and in a smooth
// sky, a haze or a dusk gradient what differs pixel by pixel is mostly
// noise (the sensor's, the JPEG's) that every candidate neighbour shares;
// the picture's own step across the seam is a small, slow change. Averaged
// along the side first, the noise cancels and that step is what is left:
// the measure is the colour step between the two pieces' mean colours on
// the seam, less the mean of their mean steps into it. On 32×32 rect
// answers that fail in a smooth region it prices the answer far above the
// truth where MGC's margin is a few per cent (Storm.jpg: 4,651 against
// 3,413, MGC 28,522 against 27,767; moonlit-bay 3,003 against 1,854), and
// prices autumn-forest's truth lower where MGC prices the answer lower. In
// texture the means say little, and as the measure of the whole search it
// loses what MGC finds (docs/solver.md, "A third seam measure"): it steers two more
// searches (with the steps and without), and judges them with the others.

// sideMeanCosts returns, per direction (dirRight, dirDown), the side-mean
// step of every pair of pieces of a rectangular sheet, d[a·m+b] for b
// right of or below a: the L2 norm over the three channels of
// μB − μA − (sA − sB)/2, where μA and μB are the pieces' mean colours on
// the seam and sA, sB their mean steps into it (the colour on the seam
// less the colour one pixel inside), each over the samples where both
// pixels are known (a label hides some). Without steps, sA = sB = 0: the
// mean colours alone, which a single pixel's step, noisy itself, does not
// blur (docs/solver.md, "A third seam measure"). A piece beside itself is +Inf.
func sideMeanCosts(ss *seamSet, pcs []*cutPiece, steps bool) [2][]float32 {
	m := len(pcs)
	known := func(p *cutPiece, i int32) bool { return i >= 0 && (p.kind[i] == pxInner || p.kind[i] == pxRing) }
	// side returns p's mean colour at the samples at and its mean step
	// from the samples in to them.
	side := func(p *cutPiece, at, in []int32) (mean, step [3]float64) {
		k := 0
		for j := range at {
			if !known(p, at[j]) || !known(p, in[j]) {
				continue
			}
			k++
			for c := range 3 {
				v := float64(p.rgb[3*int(at[j])+c])
				mean[c] += v
				if steps {
					step[c] += v - float64(p.rgb[3*int(in[j])+c])
				}
			}
		}
		if k > 0 {
			for c := range 3 {
				mean[c] /= float64(k)
				step[c] /= float64(k)
			}
		}
		return mean, step
	}
	var out [2][]float32
	for dir := range 2 {
		s := ss.flat[dir]
		meanA, stepA := make([][3]float64, m), make([][3]float64, m)
		meanB, stepB := make([][3]float64, m), make([][3]float64, m)
		for x, p := range pcs {
			meanA[x], stepA[x] = side(p, s.pa, s.pa1)
			meanB[x], stepB[x] = side(p, s.qb, s.qb1)
		}
		d := make([]float32, m*m)
		parallelFor(m, func(a int) error {
			for b := range m {
				if a == b {
					d[a*m+b] = inf
					continue
				}
				var r float64
				for c := range 3 {
					e := meanB[b][c] - meanA[a][c] - (stepA[a][c]-stepB[b][c])/2
					r += e * e
				}
				d[a*m+b] = float32(math.Sqrt(r))
			}
			return nil
		})
		out[dir] = d
	}
	return out
}

// sideMeanWeight is the side-mean step's weight added to MGC, each scaled
// by its median over all pairs (blended), for the searches run on it
// (searchSideMeans; the one weight measured there). As the first search's
// own measure 1 and 0.5 both lost more than they won.
const sideMeanWeight = 1
