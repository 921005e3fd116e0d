// Package demo paints the built-in demo images: procedural scenes generated in code, so
// that jigbench works without any image file.
//
// About half of the scenes are calm landscapes with large nearly-uniform regions (sky,
// still water, snow, fog, sand), where rectangular jigsaw cuts are ambiguous; the others
// are busy, high-detail scenes. Every scene is 1920×1200 and fully opaque.
//
// # Determinism
//
// Puzzles identify their source by a hash of its pixels, so a scene must come out
// bit-for-bit the same on every architecture and for any GOMAXPROCS. The rules:
//
//   - Floating point uses only +, −, ×, ÷, math.Sqrt, math.Floor, math.Abs and
//     min/max, which IEEE 754 makes exact everywhere. Trigonometry, exponentials and the
//     like are this package's own polynomials (paint.go): math.Sin, math.Exp, math.Pow …
//     differ between architectures.
//   - Every product that may be added to something is rounded explicitly, as in
//     float64(a*b) + c. Go may otherwise fuse a*b+c into one FMA instruction (it does on
//     arm64, ppc64, s390x and amd64 with GOAMD64=v3), even across statements.
//   - Floats are clamped before they are converted to integers.
//   - Randomness is either an integer hash of lattice coordinates or math/rand/v2 PCG
//     with a fixed seed, drawn in a fixed order before any pixel is painted. No global
//     rand, no map iteration, no clock.
//   - Each pixel is a pure function of its coordinates and of data prepared before
//     painting starts, so the rows can be painted in parallel in any order.
//
// TestNoFusedMultiplyAdd and TestMathAllowList enforce the first two rules on the
// source; TestGolden pins the hash of every scene.
package demo

import (
	"fmt"
	"image"
	"runtime"
	"sync"
	"sync/atomic"
)

// Native size of every scene.
const (
	width  = 1920
	height = 1200
)

// shader gives the colour at a pixel centre (x, y); it must be a pure function.
type shader func(x, y float64) rgb

// scene is one entry of the table.
type scene struct {
	name string
	desc string
	// calm scenes have large nearly-uniform regions (ambiguous under rectangular cuts);
	// the others are busy. The tests hold each kind to it.
	calm bool
	// paint prepares any read-only data (deterministically) and returns the shader.
	paint func() shader
}

// scenes is the table, in display order.
var scenes = []scene{
	{"alpine-lake", "snow-capped peaks mirrored in a still lake under a clear sky", true, alpineLake},
	{"desert-dunes", "sharp-crested sand dunes and distant mesas under a wide, warm sky", true, desertDunes},
	{"misty-pines", "ridges of pine forest fading into valley fog beneath a pale sun", true, mistyPines},
	{"snow-field", "a fence crossing a wide snow field to a red cabin under an overcast sky", true, snowField},
	{"sunset-sea", "the sun setting into a calm sea, a glitter path and a distant sailing boat", true, sunsetSea},
	{"iceberg-bay", "tabular icebergs and drifting floes on a glassy polar bay", true, icebergBay},
	{"balloon-sky", "hot-air balloons in a huge clear morning sky over patchwork hills", true, balloonSky},
	{"moonlit-bay", "a full moon over a dark bay, a headland lighthouse and far shore lights", true, moonlitBay},
	{"night-city", "a skyline at night, towers full of lit windows, mirrored in a harbour", false, nightCity},
	{"flower-meadow", "a meadow thick with poppies, daisies and cornflowers below a line of trees", false, flowerMeadow},
}

// Names returns the demo image names in display order.
func Names() []string {
	names := make([]string, len(scenes))
	for i, s := range scenes {
		names[i] = s.name
	}
	return names
}

// Describe returns a one-line description of the named scene ("" if unknown).
func Describe(name string) string {
	if s, ok := lookup(name); ok {
		return s.desc
	}
	return ""
}

// Image returns the named scene at its native size (1920×1200, fully opaque). The result
// is cached and shared: callers must not modify it.
func Image(name string) (*image.RGBA, error) {
	s, ok := lookup(name)
	if !ok {
		return nil, fmt.Errorf("unknown demo image %q (see 'jigbench demo list')", name)
	}
	cacheMu.Lock()
	e := cache[name]
	if e == nil {
		e = new(cached)
		cache[name] = e
	}
	cacheMu.Unlock()
	e.once.Do(func() { e.img = render(s) })
	return e.img, nil
}

type cached struct {
	once sync.Once
	img  *image.RGBA
}

var (
	cacheMu sync.Mutex
	cache   = map[string]*cached{}
)

// resetCache forgets every rendered image (for tests and benchmarks).
func resetCache() {
	cacheMu.Lock()
	cache = map[string]*cached{}
	cacheMu.Unlock()
}

func lookup(name string) (scene, bool) {
	for _, s := range scenes {
		if s.name == name {
			return s, true
		}
	}
	return scene{}, false
}

// render paints s, one row at a time, on GOMAXPROCS goroutines.
func render(s scene) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	shade := s.paint()
	parallel(height, func(y int) {
		row := img.Pix[y*img.Stride : y*img.Stride+4*width]
		fy := float64(y) + 0.5
		for x := 0; x < width; x++ {
			c := shade(float64(x)+0.5, fy)
			p := row[4*x : 4*x+4 : 4*x+4]
			p[0], p[1], p[2], p[3] = to8(c.r), to8(c.g), to8(c.b), 255
		}
	})
	return img
}

// parallel calls f(i) for every i in [0, n) on GOMAXPROCS goroutines. f must only write
// to data owned by index i.
func parallel(n int, f func(i int)) {
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				f(i)
			}
		})
	}
	wg.Wait()
}
