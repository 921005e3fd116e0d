package demo

import "math"

// ridge1 is ridged 1-D fBm in [0, 1]: sharp crests, rounded valleys (mountain ranges).
func ridge1(x float64, seed uint32, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for i := range octaves {
		r := 1 - math.Abs(float64(2*noise1(x, seed+uint32(i)*101))-1)
		sum += float64(amp * r * r)
		norm += amp
		x = float64(x*2.1) + 31.7
		amp /= 2
	}
	return sum / norm
}

// pineTop is the top of a row of conifer silhouettes standing on ground(x): one tree per
// cell of the given spacing, heights hashed in [hMin, hMax], stepped sides like branch
// tiers. It returns ground(x) where no tree stands.
func pineTop(x float64, ground func(float64) float64, spacing, hMin, hMax float64, seed uint32) float64 {
	top := ground(x)
	c := int(math.Floor(x / spacing))
	for i := c - 2; i <= c+2; i++ {
		cx := float64((float64(i) + 0.2 + float64(0.6*rnd(i, 0, seed))) * spacing)
		h := hMin + float64((hMax-hMin)*rnd(i, 1, seed))
		half := float64(h * 0.3)
		t := math.Abs(x-cx) / half
		if t >= 1 {
			continue
		}
		y := ground(cx) - h + float64(h*t) - float64(float64(h*0.08)*fract(float64(t*4)))
		top = min(top, y)
	}
	return top
}

// box is the signed distance from (x, y) to an axis-aligned rectangle with corner radius r.
func box(x, y, x0, y0, x1, y1, r float64) float64 {
	cx, cy := (x0+x1)/2, (y0+y1)/2
	dx := math.Abs(x-cx) - (x1-x0)/2 + r
	dy := math.Abs(y-cy) - (y1-y0)/2 + r
	out := length(max(dx, 0), max(dy, 0))
	return out + min(max(dx, dy), 0) - r
}

// stop is one colour of a gradient.
type stop struct {
	t float64
	c rgb
}

// gradient interpolates smoothly between stops sorted by t; outside them it holds the
// end colours.
func gradient(stops []stop, t float64) rgb {
	if t <= stops[0].t {
		return stops[0].c
	}
	for i := 1; i < len(stops); i++ {
		if t < stops[i].t {
			a, b := stops[i-1], stops[i]
			return mix(a.c, b.c, fade((t-a.t)/(b.t-a.t)))
		}
	}
	return stops[len(stops)-1].c
}

// convex is the signed distance (exact near the edges, which is all anti-aliasing needs)
// from (x, y) to a convex polygon whose vertices run clockwise on screen (y down).
func convex(x, y float64, pts ...[2]float64) float64 {
	d := math.Inf(-1)
	for i, a := range pts {
		b := pts[(i+1)%len(pts)]
		ex, ey := b[0]-a[0], b[1]-a[1]
		// Outward normal of a clockwise (on screen) edge is (ey, −ex).
		dd := (float64((x-a[0])*ey) - float64((y-a[1])*ex)) / length(ex, ey)
		d = max(d, dd)
	}
	return d
}

// segment is the distance from (x, y) to the segment from (ax, ay) to (bx, by), and the
// position t in [0, 1] of the nearest point along it.
func segment(x, y, ax, ay, bx, by float64) (dist, t float64) {
	px, py, ex, ey := x-ax, y-ay, bx-ax, by-ay
	t = clamp01((float64(px*ex) + float64(py*ey)) / (float64(ex*ex) + float64(ey*ey)))
	return length(px-float64(ex*t), py-float64(ey*t)), t
}
