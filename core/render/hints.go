package render

import (
	"image"
	"math"
	"sync"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Colour histograms for the similarity hints (docs/ambiguity-and-hints.md):
// CIE L*a*b* (D65 white), 8 bins per axis over the ranges the sRGB gamut
// spans, so each piece is a 512-bin histogram normalised to sum 1.
const labBins = 8

var labRange = [3][2]float64{{0, 100}, {-88, 100}, {-110, 96}} // L*, a*, b*

// ColourHistograms returns each piece's normalised L*a*b* histogram over its
// shaped region (tabs included, blanks left out), indexed by piece ID.
func ColourHistograms(p *puzzle.Puzzle, solved *image.RGBA) [][]float64 {
	out := make([][]float64, len(p.CellOf))
	for id, c := range p.CellOf {
		m := PieceMask(p, c, true)
		h := make([]float64, labBins*labBins*labBins)
		count := 0
		for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
			mrow := m.Pix[m.PixOffset(m.Rect.Min.X, y):]
			srow := solved.Pix[solved.PixOffset(m.Rect.Min.X, y):]
			for i := range m.Rect.Dx() {
				if mrow[i] != 0 {
					h[labBin(srow[4*i], srow[4*i+1], srow[4*i+2])]++
					count++
				}
			}
		}
		for i := range h {
			h[i] /= float64(count)
		}
		out[id] = h
	}
	return out
}

// labBin is the histogram bin of an sRGB colour.
func labBin(r, g, b uint8) int {
	lab := toLab(r, g, b)
	bin := 0
	for k, v := range lab {
		lo, hi := labRange[k][0], labRange[k][1]
		i := int(float64((v - lo) * labBins / (hi - lo)))
		bin = bin*labBins + min(labBins-1, max(0, i))
	}
	return bin
}

// srgbLinear maps an 8-bit sRGB value to linear light.
var srgbLinear = sync.OnceValue(func() (t [256]float64) {
	for i := range t {
		v := float64(i) / 255
		if v <= 0.04045 {
			t[i] = v / 12.92
		} else {
			t[i] = math.Pow((v+0.055)/1.055, 2.4)
		}
	}
	return t
})

// toLab converts sRGB to CIE L*a*b* (D65). Every product is rounded before
// it is added so no platform fuses the two.
func toLab(r8, g8, b8 uint8) [3]float64 {
	lin := srgbLinear()
	r, g, b := lin[r8], lin[g8], lin[b8]
	x := float64(0.4124564*r) + float64(0.3575761*g) + float64(0.1804375*b)
	y := float64(0.2126729*r) + float64(0.7151522*g) + float64(0.0721750*b)
	z := float64(0.0193339*r) + float64(0.1191920*g) + float64(0.9503041*b)
	fx, fy, fz := labF(x/0.95047), labF(y), labF(z/1.08883)
	return [3]float64{float64(116*fy) - 16, float64(500 * (fx - fy)), float64(200 * (fy - fz))}
}

func labF(t float64) float64 {
	const d = 6.0 / 29
	if t > d*d*d {
		return math.Cbrt(t)
	}
	return float64(t/(3*d*d)) + 4.0/29
}
