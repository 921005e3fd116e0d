package demo

import (
	"math"
	"math/rand/v2"
)

// The helpers here are the only maths the scenes use. Every product that may later be
// added is wrapped in float64(…) so that no compiler can fuse it into an FMA (see the
// package comment); TestNoFusedMultiplyAdd checks this mechanically.

// rgb is a colour with components in [0, 1], in sRGB: the scenes are painted, not lit.
type rgb struct{ r, g, b float64 }

// hex makes a colour from 0xRRGGBB.
func hex(v uint32) rgb {
	return rgb{float64(v>>16&255) / 255, float64(v>>8&255) / 255, float64(v&255) / 255}
}

// mix blends from a (t=0) to b (t=1).
func mix(a, b rgb, t float64) rgb {
	return rgb{lerp(a.r, b.r, t), lerp(a.g, b.g, t), lerp(a.b, b.b, t)}
}

// scale multiplies every component by k (brightens or darkens).
func (c rgb) scale(k float64) rgb {
	return rgb{float64(c.r * k), float64(c.g * k), float64(c.b * k)}
}

// add sums two colours component-wise (glows, highlights).
func (c rgb) add(d rgb) rgb { return rgb{c.r + d.r, c.g + d.g, c.b + d.b} }

// to8 converts a component to a byte. Out-of-range and NaN inputs are clamped first:
// converting such floats to integers is implementation-specific.
func to8(v float64) uint8 {
	if !(v > 0) {
		return 0
	}
	if v >= 1 {
		return 255
	}
	return uint8(float64(v*255) + 0.5)
}

// pick is a if cond, else b.
func pick(cond bool, a, b rgb) rgb {
	if cond {
		return a
	}
	return b
}

func lerp(a, b, t float64) float64 { return a + float64((b-a)*t) }

// clamp01 clamps x to [0, 1] (NaN to 0). Plain comparisons: the min and max builtins
// handle NaN and signed zeros and cost several times more in inner loops.
func clamp01(x float64) float64 {
	if !(x > 0) {
		return 0
	}
	if x > 1 {
		return 1
	}
	return x
}

// smoothstep is 0 below e0, 1 above e1 and a smooth cubic between (e0 > e1 reverses it).
func smoothstep(e0, e1, x float64) float64 {
	return fade(clamp01((x - e0) / (e1 - e0)))
}

// fade is the cubic 3t²−2t³ used for interpolation weights.
func fade(t float64) float64 { return float64(t * t * (3 - float64(2*t))) }

// cover is the anti-aliased coverage of a shape whose signed distance (in pixels,
// negative inside) at the pixel centre is d.
func cover(d float64) float64 { return clamp01(0.5 - d) }

func fract(x float64) float64 { return x - math.Floor(x) }

func sq(x float64) float64 { return float64(x * x) }

// length is the Euclidean norm of (x, y).
func length(x, y float64) float64 { return math.Sqrt(float64(x*x) + float64(y*y)) }

// hash mixes a lattice point and a seed into 32 well-distributed bits (integer
// arithmetic only, so it is the same everywhere).
func hash(x, y int, seed uint32) uint32 {
	h := seed ^ uint32(x)*0x85ebca6b
	h = (h ^ h>>15) * 0x2c1b3c6d
	h ^= uint32(y) * 0xc2b2ae35
	h = (h ^ h>>12) * 0x297a2d39
	h = (h ^ h>>15) * 0x846ca68b
	return h ^ h>>16
}

// unit maps hash bits to [0, 1).
func unit(h uint32) float64 { return float64(h>>8) / (1 << 24) }

// rnd is a uniform value in [0, 1) for a lattice point.
func rnd(x, y int, seed uint32) float64 { return unit(hash(x, y, seed)) }

// noise is 2-D value noise in [0, 1] with unit lattice spacing.
func noise(x, y float64, seed uint32) float64 {
	fx, fy := math.Floor(x), math.Floor(y)
	ix, iy := int(fx), int(fy)
	sx, sy := fade(x-fx), fade(y-fy)
	top := lerp(rnd(ix, iy, seed), rnd(ix+1, iy, seed), sx)
	bot := lerp(rnd(ix, iy+1, seed), rnd(ix+1, iy+1, seed), sx)
	return lerp(top, bot, sy)
}

// noise1 is 1-D value noise in [0, 1] with unit lattice spacing.
func noise1(x float64, seed uint32) float64 {
	fx := math.Floor(x)
	ix := int(fx)
	return lerp(rnd(ix, 0, seed), rnd(ix+1, 0, seed), fade(x-fx))
}

// fbm is fractal value noise in [0, 1]: octaves of halving amplitude, each rotated and
// doubled in frequency so that the lattice does not show.
func fbm(x, y float64, seed uint32, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for i := range octaves {
		sum += float64(amp * noise(x, y, seed+uint32(i)*101))
		norm += amp
		x, y = float64(1.6*x)-float64(1.2*y), float64(1.2*x)+float64(1.6*y)
		amp /= 2
	}
	return sum / norm
}

// fbm1 is fractal 1-D value noise in [0, 1].
func fbm1(x float64, seed uint32, octaves int) float64 {
	sum, amp, norm := 0.0, 1.0, 0.0
	for i := range octaves {
		sum += float64(amp * noise1(x, seed+uint32(i)*101))
		norm += amp
		x = float64(x*2.03) + 17.1
		amp /= 2
	}
	return sum / norm
}

const (
	pi    = math.Pi
	twoPi = 2 * math.Pi
)

// sin approximates math.Sin (error < 1e-7) with a Taylor polynomial after range reduction:
// math.Sin itself is implemented differently on different architectures.
func sin(x float64) float64 {
	x -= float64(twoPi * math.Floor(x/twoPi+0.5))
	if x > pi/2 {
		x = pi - x
	} else if x < -pi/2 {
		x = -pi - x
	}
	x2 := float64(x * x)
	p := -1.0 / 39916800
	p = float64(p*x2) + 1.0/362880
	p = float64(p*x2) - 1.0/5040
	p = float64(p*x2) + 1.0/120
	p = float64(p*x2) - 1.0/6
	p = float64(p*x2) + 1
	return float64(x * p)
}

func cos(x float64) float64 { return sin(x + pi/2) }

// atan2 approximates math.Atan2 (error < 1e-5 rad) with a polynomial on [0, 1] and
// octant symmetry.
func atan2(y, x float64) float64 {
	ax, ay := math.Abs(x), math.Abs(y)
	if ax == 0 && ay == 0 {
		return 0
	}
	a := min(ax, ay) / max(ax, ay)
	s := float64(a * a)
	p := float64(-0.0464964749*s) + 0.15931422
	p = float64(p*s) - 0.327622764
	r := a + float64(p*s*a)
	if ay > ax {
		r = pi/2 - r
	}
	if x < 0 {
		r = pi - r
	}
	if y < 0 {
		r = -r
	}
	return r
}

// expNeg approximates e^x for x ≤ 0 as (1 + x/1024)^1024 by repeated squaring
// (relative error about x²/2048, ample for fog and glows).
func expNeg(x float64) float64 {
	if x < -60 {
		return 0
	}
	y := 1 + x/1024
	for range 10 {
		y = float64(y * y)
	}
	return y
}

// newRand is the PCG generator for placing things; draw from it in a fixed order.
func newRand(seed uint64) *rand.Rand { return rand.New(rand.NewPCG(seed, 0x6a09e667f3bcc909)) }

// between draws a uniform value in [lo, hi).
func between(r *rand.Rand, lo, hi float64) float64 { return lo + float64((hi-lo)*r.Float64()) }
