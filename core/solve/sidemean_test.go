package solve

import (
	"image"
	"image/color"
	"testing"
)

// TestSideMeansSeeThroughNoise: a slow ramp (red one level every four
// pixels to the right, green one every four down) under noise of up to ±12
// levels a pixel, twelve times the ramp's step from one pixel to the next.
// Averaged along a 64-pixel side the noise largely cancels: the true pair's
// side-mean step is a few levels (under 8), and every other partner of a
// piece, its colour off by a piece's worth of ramp or more (16 levels),
// costs more — each true partner ranks first, with the pieces' steps and
// without. (The residual, pixel by pixel, fails 25 of these checks on the
// same picture.)
func TestSideMeansSeeThroughNoise(t *testing.T) {
	const side = 256
	img := image.NewRGBA(image.Rect(0, 0, side, side))
	noise := uint32(1)
	jitter := func(v int) uint8 {
		noise = noise*1664525 + 1013904223 // a fixed LCG: the same picture every run
		return uint8(v + int(noise>>24)%25 - 12)
	}
	for y := range side {
		for x := range side {
			img.Set(x, y, color.RGBA{jitter(80 + x/4), jitter(80 + y/4), jitter(128), 255})
		}
	}
	for _, steps := range []bool{true, false} {
		measure := func(ss *seamSet, pcs []*cutPiece) [2][]float32 { return sideMeanCosts(ss, pcs, steps) }
		checkTrueFirst(t, img, "side-mean step", measure, 8)
	}
}

// TestSearchedSideMeans: Storm.jpg's dusk variant at 32×32 (rect sheet)
// is a smooth gradient over most of the sky; the search on the side-mean
// step places it (PA 0.963 → 0.998).
func TestSearchedSideMeans(t *testing.T) { wantRect32(t, "Storm.jpg", "dusk", 0.99) }

// TestSearchedSideMeanColours: its water variant, a calm band mirroring
// the sky, is placed by the search on the mean colours alone, after the
// one with steps (PA 0.484 → 0.655 with steps alone, 0.925 with both).
func TestSearchedSideMeanColours(t *testing.T) { wantRect32(t, "Storm.jpg", "water", 0.9) }

// TestSideMeansOverruleMGC: 32×32 fruit-market (rect sheet) — MGC's search
// leaves it in blocks; the search on the side-mean step places its lower
// two thirds, which both side means and the residual's blend price lower
// than the answer it replaces and MGC does not (PA 0.009 → 0.582 once MGC
// no longer judges it).
func TestSideMeansOverruleMGC(t *testing.T) { wantRect32(t, "fruit-market", "", 0.55) }
