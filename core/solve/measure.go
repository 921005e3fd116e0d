package solve

import "slices"

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
		r1, r2 := twoSmallest(m, func(a, b int) float32 { return d[a*m+b] })
		c1, c2 := twoSmallest(m, func(b, a int) float32 { return d[a*m+b] })
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

// relative returns a copy of cm with relativeCosts applied.
func (cm *compatMatrix) relative() *compatMatrix {
	rel := &compatMatrix{m: cm.m, d: [2][]float32{slices.Clone(cm.d[0]), slices.Clone(cm.d[1])}}
	relativeCosts(rel)
	return rel
}
