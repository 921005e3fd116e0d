package puzzle

import (
	"image"
	"math"
)

// Lobe is the region enclosed by an internal edge's straight line and its
// cut. A pixel inside a lobe belongs to the cell on the other side of the line
// from the one it lies in; every other pixel belongs to the cell it lies in.
// Membership is decided at pixel centres, so the pieces of a puzzle partition
// the image exactly.
type Lobe interface {
	// Spans calls fn for each run [x0, x1) of lobe pixels in row y, in
	// ascending rows.
	Spans(fn func(y, x0, x1 int))
	// Bounds contains every pixel of the lobe.
	Bounds() image.Rectangle
	// Reach is how many pixels the lobe extends past the edge line on the tab's side.
	Reach() int
	// Cut is the cut as a polyline in image pixel coordinates, from one end of
	// the edge to the other, for drawing outlines and overlays.
	Cut() []Point
}

// Point is a position in image pixel coordinates (pixel (x, y) covers [x, x+1)×[y, y+1)).
type Point struct{ X, Y float64 }

// edgeLine is an internal edge's straight line, from (x0, y0) of length l,
// running down (vertical) or right, with the tab on the side dir (+1: right or
// down, -1: left or up).
type edgeLine struct {
	x0, y0   int
	l        int
	vertical bool
	dir      int
}

// at maps edge-local coordinates (s along the edge, v towards the tab) to the image.
func (e edgeLine) at(s, v float64) Point {
	v = float64(e.dir) * v
	if e.vertical {
		return Point{float64(e.x0) + v, float64(e.y0) + s}
	}
	return Point{float64(e.x0) + s, float64(e.y0) + v}
}

// halfDisk is a semicircular tab: the half of the disk of radius r centred on a
// whole-pixel point of the edge line that lies on the tab's side. A pixel
// centre (x+½, y+½) is inside when (2(x-cx)+1)² + (2(y-cy)+1)² < 4r², an
// integer test, so every half-disk holds the same number of pixels whatever its
// orientation.
type halfDisk struct {
	edgeLine
	cx, cy, r int
}

func newHalfDisk(e edgeLine, r int) *halfDisk {
	h := &halfDisk{edgeLine: e, r: r}
	if e.vertical {
		h.cx, h.cy = e.x0, e.y0+e.l/2
	} else {
		h.cx, h.cy = e.x0+e.l/2, e.y0
	}
	return h
}

// halfWidth counts the dx ≥ 0 with (2dx+1)² < k.
func halfWidth(k int) int {
	if k <= 1 {
		return 0
	}
	return (isqrt(k-1) + 1) / 2
}

// isqrt is ⌊√n⌋ for n ≥ 0, exact.
func isqrt(n int) int {
	s := int(math.Sqrt(float64(n)))
	for s*s > n {
		s--
	}
	for (s+1)*(s+1) <= n {
		s++
	}
	return s
}

func (h *halfDisk) Spans(fn func(y, x0, x1 int)) {
	r2 := 4 * h.r * h.r
	if h.vertical {
		for y := h.cy - h.r; y < h.cy+h.r; y++ {
			d := 2*(y-h.cy) + 1
			w := halfWidth(r2 - d*d)
			if w == 0 {
				continue
			}
			if h.dir > 0 {
				fn(y, h.cx, h.cx+w)
			} else {
				fn(y, h.cx-w, h.cx)
			}
		}
		return
	}
	y0, y1 := h.cy, h.cy+h.r
	if h.dir < 0 {
		y0, y1 = h.cy-h.r, h.cy
	}
	for y := y0; y < y1; y++ {
		d := 2*(y-h.cy) + 1
		if w := halfWidth(r2 - d*d); w > 0 {
			fn(y, h.cx-w, h.cx+w)
		}
	}
}

func (h *halfDisk) Bounds() image.Rectangle {
	return image.Rect(h.cx-h.r, h.cy-h.r, h.cx+h.r, h.cy+h.r)
}

func (h *halfDisk) Reach() int { return h.r }

func (h *halfDisk) Cut() []Point {
	const steps = 48
	var s0 float64 // the centre's position along the edge
	if h.vertical {
		s0 = float64(h.cy - h.y0)
	} else {
		s0 = float64(h.cx - h.x0)
	}
	r := float64(h.r)
	pts := []Point{h.at(0, 0)}
	for i := 0; i <= steps; i++ {
		a := math.Pi * float64(i) / steps
		pts = append(pts, h.at(s0-r*math.Cos(a), r*math.Sin(a)))
	}
	return append(pts, h.at(float64(h.l), 0))
}

// classicJitter holds the six per-edge draws, each in [-1, 1): shoulder
// heights at both ends, knob position, knob height, neck skew and knob size.
type classicJitter [6]float64

// polyLobe is a classic knob-and-neck tab, flattened to a polygon that is
// closed by the straight edge line.
type polyLobe struct {
	pts    []Point // the cut, from one end of the edge to the other
	bounds image.Rectangle
	reach  int
}

// bezierSteps flattens each cubic into a fixed number of segments, so the
// polygon (and hence the pixels) never depend on floating-point tolerance tests.
const bezierSteps = 16

// newClassicLobe builds the knob for edge e from Draradech's three-cubic tab
// (CC0 jigsaw generator), sized from the shorter cell side m: k = ½·ratio·m
// scaled by ±10 % per edge; shoulders, position and neck jitter by up to 0.4k.
func newClassicLobe(e edgeLine, m int, ratio float64, j classicJitter) *polyLobe {
	base := float64(float64(0.5*ratio) * float64(m))
	k := float64(base * float64(1+float64(0.1*j[5])))
	jit := float64(0.4 * base)
	a := float64(jit * j[0])
	e2 := float64(jit * j[1])
	b := float64(jit * j[2])
	c := float64(jit * j[3])
	d := float64(float64(0.5*jit) * j[4])
	l := float64(e.l)
	mid := float64(0.5*l) + b

	type pt struct{ s, v float64 }
	ctrl := [10]pt{
		{0, 0},
		{float64(0.2 * l), a}, {mid + d, c - k}, {mid - k, k + c},
		{mid - float64(2*k) - d, float64(3*k) + c}, {mid + float64(2*k) - d, float64(3*k) + c}, {mid + k, k + c},
		{mid + d, c - k}, {float64(0.8 * l), e2}, {l, 0},
	}
	lobe := &polyLobe{pts: make([]Point, 0, 3*bezierSteps+1)}
	lobe.pts = append(lobe.pts, e.at(0, 0))
	maxV := 0.0
	for seg := 0; seg < 3; seg++ {
		p0, p1, p2, p3 := ctrl[3*seg], ctrl[3*seg+1], ctrl[3*seg+2], ctrl[3*seg+3]
		for i := 1; i <= bezierSteps; i++ {
			t := float64(i) / bezierSteps
			s := cubic(p0.s, p1.s, p2.s, p3.s, t)
			v := cubic(p0.v, p1.v, p2.v, p3.v, t)
			maxV = max(maxV, v)
			lobe.pts = append(lobe.pts, e.at(s, v))
		}
	}
	lobe.reach = int(math.Ceil(maxV))
	minX, minY := math.Inf(1), math.Inf(1)
	maxX, maxY := math.Inf(-1), math.Inf(-1)
	for _, p := range lobe.pts {
		minX, maxX = min(minX, p.X), max(maxX, p.X)
		minY, maxY = min(minY, p.Y), max(maxY, p.Y)
	}
	lobe.bounds = image.Rect(int(math.Floor(minX)), int(math.Floor(minY)), int(math.Ceil(maxX))+1, int(math.Ceil(maxY))+1)
	return lobe
}

// cubic evaluates a one-dimensional cubic Bézier; every product is rounded
// before it is added so no platform fuses it into a multiply-add.
func cubic(p0, p1, p2, p3, t float64) float64 {
	u := 1 - t
	b0 := float64(float64(u*u) * u)
	b1 := float64(float64(3*u) * float64(u*t))
	b2 := float64(float64(3*u) * float64(t*t))
	b3 := float64(float64(t*t) * t)
	return float64(b0*p0) + float64(b1*p1) + float64(b2*p2) + float64(b3*p3)
}

// Spans fills the polygon (the cut closed by the straight line) with the
// even-odd rule at pixel centres.
func (l *polyLobe) Spans(fn func(y, x0, x1 int)) {
	n := len(l.pts)
	var xs []float64
	for y := l.bounds.Min.Y; y < l.bounds.Max.Y; y++ {
		yc := float64(y) + 0.5
		xs = xs[:0]
		for i := 0; i < n; i++ {
			p, q := l.pts[i], l.pts[(i+1)%n]
			if (p.Y <= yc) == (q.Y <= yc) {
				continue
			}
			num := float64((yc - p.Y) * (q.X - p.X))
			xs = append(xs, p.X+num/(q.Y-p.Y))
		}
		for i := 1; i < len(xs); i++ { // insertion sort: a handful of crossings
			for j := i; j > 0 && xs[j] < xs[j-1]; j-- {
				xs[j], xs[j-1] = xs[j-1], xs[j]
			}
		}
		for i := 0; i+1 < len(xs); i += 2 {
			// pixel x is inside when xs[i] ≤ x+½ < xs[i+1]
			x0 := int(math.Ceil(xs[i] - 0.5))
			x1 := int(math.Ceil(xs[i+1] - 0.5))
			if x1 > x0 {
				fn(y, x0, x1)
			}
		}
	}
}

func (l *polyLobe) Bounds() image.Rectangle { return l.bounds }
func (l *polyLobe) Reach() int              { return l.reach }
func (l *polyLobe) Cut() []Point            { return l.pts }

// buildLobes makes the tab of every internal edge in EdgeIndex order.
func (p *Puzzle) buildLobes(jitter []classicJitter) []Lobe {
	lobes := make([]Lobe, 0, p.EdgeCount())
	m := min(p.PieceW, p.PieceH)
	add := func(e edgeLine) {
		if p.Options.TabStyle == StyleClassic {
			lobes = append(lobes, newClassicLobe(e, m, p.Options.TabRatio, jitter[len(lobes)]))
		} else {
			lobes = append(lobes, newHalfDisk(e, p.TabRadius))
		}
	}
	for r := 0; r < p.N; r++ {
		for c := 0; c < p.N-1; c++ {
			add(edgeLine{x0: (c + 1) * p.PieceW, y0: r * p.PieceH, l: p.PieceH, vertical: true, dir: p.Horizontal[r][c]})
		}
	}
	for r := 0; r < p.N-1; r++ {
		for c := 0; c < p.N; c++ {
			add(edgeLine{x0: c * p.PieceW, y0: (r + 1) * p.PieceH, l: p.PieceW, dir: p.Vertical[r][c]})
		}
	}
	return lobes
}
