package solve

import "slices"

// relativeCosts rescales each pair's cost by the cheapest alternative either
// piece has on that side (Paikin and Tal 2015's confidence): a pair is
// cheap when it beats every other candidate of both pieces, not merely when
// its seam is smooth, so a smooth region where all partners are alike no
// longer outbids a textured seam that only its true partner continues. The
// ratio is scaled by the matrix's median alternative to stay on MGC's scale.
func relativeCosts(cm *compatMatrix) {
	m := cm.m
	for dir := range 2 {
		d := cm.d[dir]
		r1, r2 := twoSmallest(m, func(a, b int) float32 { return d[a*m+b] })
		c1, c2 := twoSmallest(m, func(b, a int) float32 { return d[a*m+b] })
		scale := medianFinite(r1)
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
				row[b] = v / (min(alt, ac) + relativeFloor) * scale
			}
			return nil
		})
	}
}

// relativeFloor keeps the ratio finite where the alternatives cost nothing.
const relativeFloor = 0.5

// twoSmallest returns, for each i, the smallest and second-smallest of
// at(i, j) over j.
func twoSmallest(m int, at func(i, j int) float32) (first, second []float32) {
	first, second = make([]float32, m), make([]float32, m)
	parallelFor(m, func(i int) error {
		f, s := inf, inf
		for j := range m {
			switch v := at(i, j); {
			case v < f:
				f, s = v, f
			case v < s:
				s = v
			}
		}
		first[i], second[i] = f, s
		return nil
	})
	return first, second
}

// medianFinite is the median of the finite values of xs (1 if none).
func medianFinite(xs []float32) float32 {
	var f []float32
	for _, x := range xs {
		if x != inf {
			f = append(f, x)
		}
	}
	if len(f) == 0 {
		return 1
	}
	slices.Sort(f)
	return f[len(f)/2]
}

// relativeRect turns relativeCosts on for rectangular sheets.
var relativeRect = true
