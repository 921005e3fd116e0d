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

// nextPeaks returns, for every column, the column of the nearest crest peak (a local
// minimum of top within ±win columns) at or to its right; the last column if none.
func nextPeaks(top []float64, win int) []int {
	next := make([]int, len(top))
	p := len(top) - 1
	for i := len(top) - 1; i >= 0; i-- {
		peak := true
		for j := max(i-win, 0); j <= min(i+win, len(top)-1) && peak; j++ {
			peak = top[j] > top[i] || (top[j] == top[i] && j >= i)
		}
		if peak {
			p = i
		}
		next[i] = p
	}
	return next
}
