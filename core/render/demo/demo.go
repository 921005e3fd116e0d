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
//     min/max, which IEEE 754 rounds correctly, hence identically, everywhere.
//     Trigonometry, exponentials and the like are this package's own polynomials
//     (paint.go): math.Sin, math.Exp, math.Pow … differ between architectures.
//   - Every product that may be added to something is rounded explicitly, as in
//     float64(a*b) + c. Go may otherwise fuse a*b+c into one FMA instruction (it does on
//     arm64, ppc64, s390x, riscv64 and amd64 with GOAMD64=v3), even across statements.
//     The compiler itself turns x/2, x/1024 … into multiplications by powers of two and
//     may fuse those: that is harmless, as an exact product rounds the same either way.
//   - Floats are converted to integers only when in range (clamped where they might not
//     be): out-of-range and NaN conversions are implementation-specific.
//   - Randomness is either an integer hash of lattice coordinates or math/rand/v2 PCG
//     with a fixed seed, drawn in a fixed order before any pixel is painted. No global
//     rand, no map iteration, no clock.
//   - Each pixel is a pure function of its coordinates and of data prepared before
//     painting starts, so the rows can be painted in parallel in any order.
//
// TestNoFusedMultiplyAdd and TestDeterminismRules check the source for these rules;
// TestGolden pins the SHA-256 of every scene's pixels.
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

// scenes is the table, in display order: calm and busy alternate, so any prefix of
// Names (as in 'jigbench dataset --demo-count K') mixes both kinds.
var scenes = []scene{
	{name: "alpine-lake", calm: true, paint: alpineLake,
		desc: "snow-capped peaks mirrored in a still lake under a clear sky"},
	{name: "night-city", paint: nightCity,
		desc: "a skyline at blue hour, towers full of lit windows, mirrored in a harbour"},
	{name: "desert-dunes", calm: true, paint: desertDunes,
		desc: "sharp-crested sand dunes and distant mesas under a wide, warm sky"},
	{name: "flower-meadow", paint: flowerMeadow,
		desc: "a meadow thick with poppies, daisies and cornflowers below a line of trees"},
	{name: "misty-pines", calm: true, paint: mistyPines,
		desc: "ridges of pine forest fading into valley fog beneath a pale sun"},
	{name: "bookshelf", paint: bookshelf,
		desc: "a wooden bookcase packed with books, some leaning, some stacked, and plants"},
	{name: "snow-field", calm: true, paint: snowField,
		desc: "a fence crossing a wide snow field to a red cabin under an overcast sky"},
	{name: "fruit-market", paint: fruitMarket,
		desc: "market crates heaped with oranges, apples, lemons, plums and berries, from above"},
	{name: "sunset-sea", calm: true, paint: sunsetSea,
		desc: "the sun setting into a calm sea, a glitter path and a distant sailing boat"},
	{name: "coral-reef", paint: coralReef,
		desc: "a sunlit coral reef with sea fans, sponges, anemones, kelp and fish"},
	{name: "iceberg-bay", calm: true, paint: icebergBay,
		desc: "tabular icebergs and drifting floes on a glassy polar bay"},
	{name: "stained-glass", paint: stainedGlass,
		desc: "a leaded rose window of hundreds of irregular glass pieces around a golden centre"},
	{name: "balloon-sky", calm: true, paint: balloonSky,
		desc: "hot-air balloons in a huge clear morning sky over patchwork hills"},
	{name: "autumn-forest", paint: autumnForest,
		desc: "a beech wood in autumn: grey trunks, a blazing canopy and a leaf-strewn path"},
	{name: "moonlit-bay", calm: true, paint: moonlitBay,
		desc: "a full moon over a dark bay, a headland lighthouse and far shore lights"},
	{name: "harbor-town", paint: harborTown,
		desc: "tall gabled houses in many colours along a canal quay, boats and reflections"},
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

// resetCache forgets the rendered images of the named scenes, or of all scenes when
// none is named (for tests and benchmarks).
func resetCache(names ...string) {
	cacheMu.Lock()
	defer cacheMu.Unlock()
	if len(names) == 0 {
		cache = map[string]*cached{}
	}
	for _, n := range names {
		delete(cache, n)
	}
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
