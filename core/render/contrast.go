package render

import (
	"image/color"
	"math"
)

// Contrast is the WCAG 2 contrast ratio of two opaque colours, 1 to 21.
func Contrast(a, b color.Color) float64 {
	la, lb := luminance(a), luminance(b)
	if la < lb {
		la, lb = lb, la
	}
	return (la + 0.05) / (lb + 0.05)
}

// luminance is WCAG 2's relative luminance of an sRGB colour.
func luminance(c color.Color) float64 {
	r, g, b, _ := color.NRGBAModel.Convert(c).RGBA()
	lin := func(v uint32) float64 {
		x := float64(v) / 0xffff
		if x <= 0.03928 {
			return x / 12.92
		}
		return math.Pow((x+0.055)/1.055, 2.4)
	}
	return 0.2126*lin(r) + 0.7152*lin(g) + 0.0722*lin(b)
}

// A series' marks lie on the plot panel (PlotStyle.Empty). Every colour of
// SeriesColour stands out from it by at least seriesMinContrast on both
// styles (the least: Okabe & Ito's orange on the light one, 1.7:1) except
// the near black on the dark one (1.1:1, invisible); a colour below it is
// lifted to seriesLiftContrast, a clear mark.
const (
	seriesMinContrast  = 1.5
	seriesLiftContrast = 3
)

// legible is c, or, where c does not stand out from the plot panel, c
// blended toward the ink in tenths until it does clearly, so a palette
// chosen before the style still shows on it.
func (st PlotStyle) legible(c color.RGBA) color.RGBA {
	if Contrast(c, st.Empty) >= seriesMinContrast {
		return c
	}
	out := c
	for k := 1; k <= 10 && Contrast(out, st.Empty) < seriesLiftContrast; k++ {
		out = towards(c, st.Ink, float64(k)/10)
	}
	return out
}

// towards is (1−t)·a + t·b, opaque.
func towards(a, b color.RGBA, t float64) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8(math.Round((1-t)*float64(x) + t*float64(y))) }
	return color.RGBA{mix(a.R, b.R), mix(a.G, b.G), mix(a.B, b.B), 0xFF}
}
