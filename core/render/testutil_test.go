package render

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
)

// Helpers shared by the tests of package render and, through
// export_test.go, of package render_test.

func absDiff(a, b uint32) uint32 {
	if a > b {
		return a - b
	}
	return b - a
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// compareGolden compares img with testdata/name (JIGBENCH_UPDATE_GOLDEN=1
// rewrites it); anti-aliased text may differ by a step between
// architectures, so up to 1 pixel in 500 may differ by more than 2 levels.
func compareGolden(t *testing.T, name string, img *image.RGBA) {
	t.Helper()
	golden := filepath.Join("testdata", name)
	if os.Getenv("JIGBENCH_UPDATE_GOLDEN") != "" {
		writePNG(t, golden, img)
	}
	f, err := os.Open(golden)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	want, err := png.Decode(f)
	if err != nil {
		t.Fatal(err)
	}
	if want.Bounds() != img.Bounds() {
		t.Fatalf("%s: size %v, golden %v", name, img.Bounds(), want.Bounds())
	}
	differ := 0
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			r1, g1, b1, _ := img.At(x, y).RGBA()
			r2, g2, b2, _ := want.At(x, y).RGBA()
			if max(absDiff(r1, r2), absDiff(g1, g2), absDiff(b1, b2))>>8 > 2 {
				differ++
			}
		}
	}
	if limit := b.Dx() * b.Dy() / 500; differ > limit {
		t.Errorf("%d pixels differ from %s (at most %d may); rerun with JIGBENCH_UPDATE_GOLDEN=1 if the change is intended, and look at it", differ, golden, limit)
	}
}
