package solve

import (
	"image"
	"os"
	"path/filepath"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// Hard variants of a photograph, made from its prepared (resized, cropped)
// image: low-texture regions of the kinds that break content solvers.
var hardVariants = map[string]func(img *image.RGBA){
	// haze: fog blended over the top half, thickest at the top (85 %).
	"haze": func(img *image.RGBA) {
		b := img.Rect
		half := b.Dy() / 2
		for y := range half {
			t := 0.85 * float64(half-y) / float64(half)
			blendRow(img, y, t, func(int) [3]float64 { return [3]float64{222, 224, 228} })
		}
	},
	// dusk: a smooth orange-to-violet sky over the top 45 %, the photo
	// showing through at 20 %.
	"dusk": func(img *image.RGBA) {
		h := img.Rect.Dy() * 45 / 100
		for y := range h {
			f := float64(y) / float64(h)
			c := [3]float64{60 + 190*f, 40 + 110*f, 110 - 20*f}
			blendRow(img, y, 0.8, func(int) [3]float64 { return c })
		}
	},
	// water: a mirror-calm band over 60–85 % of the height: the rows above
	// reflected, darkened and flattened towards a still blue.
	"water": func(img *image.RGBA) {
		h := img.Rect.Dy()
		top, bottom := h*60/100, h*85/100
		src := image.NewRGBA(img.Rect)
		copy(src.Pix, img.Pix)
		for y := top; y < bottom; y++ {
			my := max(2*top-y-1, 0)
			blendRow(img, y, 0.65, func(x int) [3]float64 {
				i := src.PixOffset(x, my)
				p := src.Pix[i : i+3]
				return [3]float64{0.5*float64(p[0]) + 20, 0.5*float64(p[1]) + 35, 0.5*float64(p[2]) + 55}
			})
		}
	},
}

// blendRow mixes row y of img with colour c(x) at weight t.
func blendRow(img *image.RGBA, y int, t float64, c func(x int) [3]float64) {
	for x := range img.Rect.Dx() {
		i := img.PixOffset(x, y)
		cc := c(x)
		for k := range 3 {
			img.Pix[i+k] = uint8(float64(img.Pix[i+k])*(1-t) + cc[k]*t + 0.5)
		}
	}
}

// hardInstance generates photo's n×n instance with a hard variant applied.
func hardInstance(t testing.TB, photo, variant string, n int) *render.Generated {
	t.Helper()
	src := loadPhoto(t, photo)
	opt := puzzle.DefaultOptions()
	prep, err := render.Prepare(src, opt.Size, n)
	if err != nil {
		t.Fatal(err)
	}
	img := image.NewRGBA(prep.Image.Rect)
	copy(img.Pix, prep.Image.Pix)
	hardVariants[variant](img)
	gen, err := render.Generate(render.SourceFromImage(filepath.Base(photo)+"-"+variant, img), n, 2, opt)
	if err != nil {
		t.Fatal(err)
	}
	return gen
}

// TestContentHardVariants: exact on both sheets of Garden (and Dune, with
// JIGBENCH_LONG=1) at 16×16 under haze, a dusk sky and a band of still water.
func TestContentHardVariants(t *testing.T) {
	names := []string{"Garden.jpg"}
	if os.Getenv("JIGBENCH_LONG") != "" {
		names = append(names, "Dune.jpg")
	}
	variants := []string{"haze", "dusk", "water"}
	if raceEnabled || testing.Short() {
		names, variants = names[:1], variants[:1]
	}
	const n = 16
	for _, name := range names {
		for _, v := range variants {
			gen := hardInstance(t, name, v, n)
			for _, rect := range []bool{true, false} {
				if _, correct, _ := solveSheet(t, gen, rect); correct != n*n {
					t.Errorf("%s %s %d×%d rect=%v: %d of %d pieces in their cells", name, v, n, n, rect, correct, n*n)
				}
			}
		}
	}
}
