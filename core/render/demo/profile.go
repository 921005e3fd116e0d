package demo

import "math"

// profile is a silhouette edge given per pixel column: the region below top(x) is
// inside. Precomputing it turns 1-D fBm ridgelines into array look-ups.
type profile struct {
	top []float64 // y of the edge at each column centre
	inv []float64 // 1/√(1+slope²): turns a vertical distance into a normal one
}

// newProfile samples f at every column centre.
func newProfile(f func(x float64) float64) profile {
	p := profile{top: make([]float64, width), inv: make([]float64, width)}
	for i := range p.top {
		p.top[i] = f(float64(i) + 0.5)
	}
	for i := range p.top {
		a, b := p.top[max(i-1, 0)], p.top[min(i+1, width-1)]
		slope := (b - a) / 2
		p.inv[i] = 1 / math.Sqrt(1+float64(slope*slope))
	}
	return p
}

// col is the column index for x, clamped to the image.
func col(x float64) int {
	if !(x > 0) {
		return 0
	}
	return min(int(x), width-1)
}

// at is the edge height at x.
func (p profile) at(x float64) float64 { return p.top[col(x)] }

// depth is how far (x, y) lies below the edge, in pixels (negative above it).
func (p profile) depth(x, y float64) float64 { return y - p.top[col(x)] }

// cover is the anti-aliased coverage of the region below the edge at (x, y).
func (p profile) cover(x, y float64) float64 {
	i := col(x)
	return cover(float64((p.top[i] - y) * p.inv[i]))
}

// field is a smooth function sampled on a coarse grid and interpolated bilinearly, so
// low-frequency fBm costs a few look-ups per pixel instead of many noise calls.
type field struct {
	x0, y0, sx, sy float64
	nx, ny         int
	v              []float64
}

// newField samples f every sx, sy pixels over [x0, x1] × [y0, y1].
func newField(x0, y0, x1, y1, sx, sy float64, f func(x, y float64) float64) *field {
	nx, ny := int(math.Ceil((x1-x0)/sx))+2, int(math.Ceil((y1-y0)/sy))+2
	fl := &field{x0: x0, y0: y0, sx: sx, sy: sy, nx: nx, ny: ny, v: make([]float64, nx*ny)}
	parallel(ny, func(j int) {
		for i := range nx {
			fl.v[j*nx+i] = f(x0+float64(float64(i)*sx), y0+float64(float64(j)*sy))
		}
	})
	return fl
}

// at interpolates the field at (x, y), holding the edge values outside it.
func (f *field) at(x, y float64) float64 {
	u := clampTo((x-f.x0)/f.sx, float64(f.nx-1)-1e-9)
	v := clampTo((y-f.y0)/f.sy, float64(f.ny-1)-1e-9)
	i, j := int(u), int(v)
	tu, tv := u-float64(i), v-float64(j)
	k := j*f.nx + i
	top := lerp(f.v[k], f.v[k+1], tu)
	bot := lerp(f.v[k+f.nx], f.v[k+f.nx+1], tu)
	return lerp(top, bot, tv)
}

// clampTo clamps x to [0, hi] (NaN to 0).
func clampTo(x, hi float64) float64 {
	if !(x > 0) {
		return 0
	}
	if x > hi {
		return hi
	}
	return x
}

// rays holds light shafts slanting across the image: a 1-D function of x + k·y,
// tabulated per pixel so a whole-image effect costs one look-up.
type rays struct {
	k   float64
	off int
	v   []float64
}

// newRays tabulates f(s) for s = x + k·y over the image.
func newRays(k float64, f func(s float64) float64) rays {
	lo := int(math.Floor(min(0, float64(k*height)))) - 1
	hi := int(math.Ceil(max(width, width+float64(k*height)))) + 1
	r := rays{k: k, off: -lo, v: make([]float64, hi-lo+1)}
	for i := range r.v {
		r.v[i] = f(float64(i + lo))
	}
	return r
}

// at is the shaft intensity at (x, y).
func (r rays) at(x, y float64) float64 {
	i := int(math.Floor(x+float64(r.k*y))) + r.off
	return r.v[max(0, min(i, len(r.v)-1))]
}
