package solve

import (
	"math"
	"slices"
)

// relativeCosts rescales each pair's cost by the cheapest alternative either
// piece has on that side (after Paikin and Tal 2015's confidence): a pair
// that is not both pieces' first choice costs more in proportion to how much
// cheaper the alternative is, so a smooth piece that is cheap beside
// everything no longer outbids a seam only its true partner continues. A
// pair that is both pieces' first choice keeps its MGC cost, so the costs
// stay on MGC's scale (a border side with no good partner stays dear).
func relativeCosts(cm *compatMatrix) {
	m := cm.m
	for dir := range 2 {
		d := cm.d[dir]
		r1, r2 := rowTwoSmallest(m, d)
		c1, c2 := columnTwoSmallest(m, d)
		parallelFor(m, func(a int) error {
			row := d[a*m : (a+1)*m]
			for b, v := range row {
				if v == inf {
					continue
				}
				alt := r1[a]
				if v <= alt {
					alt = r2[a]
				}
				ac := c1[b]
				if v <= ac {
					ac = c2[b]
				}
				row[b] = v * (min(r2[a], c2[b]) + relativeFloor) / (min(alt, ac) + relativeFloor)
			}
			return nil
		})
	}
}

// relativeFloor keeps the ratio finite where the alternatives cost nothing.
const relativeFloor = 0.5

// rowTwoSmallest returns, for each row a of the m×m matrix d, its smallest
// and second-smallest values (equal when the smallest occurs twice; NaN is
// never taken).
func rowTwoSmallest(m int, d []float32) (first, second []float32) {
	first, second = make([]float32, m), make([]float32, m)
	parallelFor(m, func(a int) error {
		f, s := inf, inf
		for _, v := range d[a*m : (a+1)*m] {
			f, s = twoSmallestAdd(f, s, v)
		}
		first[a], second[a] = f, s
		return nil
	})
	return first, second
}

// twoSmallestAdd is the smallest two of f ≤ s and v.
func twoSmallestAdd(f, s, v float32) (float32, float32) {
	switch {
	case v < f:
		return v, f
	case v < s:
		return f, v
	}
	return f, s
}

// columnTwoSmallest is rowTwoSmallest over the columns of d. The rows are
// read in order, in bands on both cores, and the bands' two smallest
// merged: the two smallest of a multiset do not depend on the order it is
// read in.
func columnTwoSmallest(m int, d []float32) (first, second []float32) {
	const bands = 8
	fs, ss := make([][]float32, bands), make([][]float32, bands)
	parallelFor(bands, func(k int) error {
		f, s := make([]float32, m), make([]float32, m)
		for b := range m {
			f[b], s[b] = inf, inf
		}
		for a := k * m / bands; a < (k+1)*m/bands; a++ {
			row := d[a*m : (a+1)*m]
			f, s := f[:len(row)], s[:len(row)]
			for b, v := range row {
				f[b], s[b] = twoSmallestAdd(f[b], s[b], v)
			}
		}
		fs[k], ss[k] = f, s
		return nil
	})
	first, second = fs[0], ss[0]
	for k := 1; k < bands; k++ {
		for b := range m {
			first[b], second[b] = twoSmallestAdd(first[b], second[b], fs[k][b])
			first[b], second[b] = twoSmallestAdd(first[b], second[b], ss[k][b])
		}
	}
	return first, second
}

// penalised returns a copy of cm with every pair that shape forbids (+Inf)
// priced at gapPenalty, so that a search made for rectangular sheets,
// which sums and compares costs freely, can run on a shape sheet: an
// arrangement without such a pair is one whose pieces all interlock (a
// flat side anywhere but on the border faces a neighbour it cannot pair
// with).
func (cm *compatMatrix) penalised() *compatMatrix {
	p := &compatMatrix{m: cm.m, d: [2][]float32{slices.Clone(cm.d[0]), slices.Clone(cm.d[1])}}
	for _, d := range p.d {
		for i, v := range d {
			if math.IsInf(float64(v), 1) {
				d[i] = gapPenalty
			}
		}
	}
	return p
}

// relative returns a copy of cm with relativeCosts applied.
func (cm *compatMatrix) relative() *compatMatrix {
	rel := &compatMatrix{m: cm.m, d: [2][]float32{slices.Clone(cm.d[0]), slices.Clone(cm.d[1])}}
	relativeCosts(rel)
	return rel
}
