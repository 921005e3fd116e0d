package render

import (
	"image/color"
	"math"
	"testing"
)

func TestContrastWCAG(t *testing.T) {
	white, black := color.RGBA{255, 255, 255, 255}, color.RGBA{0, 0, 0, 255}
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{
		{white, black, 21},
		{black, white, 21},
		{white, white, 1},
		{color.RGBA{118, 118, 118, 255}, white, 4.54}, // the grey WCAG cites as just passing AA
	} {
		if got := Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
}

// Every series colour stands out from both plot backgrounds; the ones that
// already do are drawn as given, so a legend and its marks agree with the
// palette wherever it is legible.
func TestSeriesColoursLegibleOnBothStyles(t *testing.T) {
	for _, st := range []PlotStyle{LightPlotStyle(1), DarkPlotStyle(1)} {
		for i := range 7 {
			c := SeriesColour(i)
			got := st.legible(c)
			if r := Contrast(got, st.Empty); r < seriesMinContrast {
				t.Errorf("series %d on %v: contrast %.2f:1", i, st.Empty, r)
			}
			if Contrast(c, st.Empty) >= seriesMinContrast && got != c {
				t.Errorf("series %d on %v changed to %v though legible", i, st.Empty, got)
			}
		}
	}
	// The near black of the seventh condition was 1.1:1 on the dark panel;
	// it is lifted to a clear mark.
	dark := DarkPlotStyle(1)
	if c := dark.legible(SeriesColour(6)); Contrast(c, dark.Empty) < seriesLiftContrast {
		t.Errorf("series 6 on the dark plot is %v, %.2f:1 on its panel", c, Contrast(c, dark.Empty))
	}
}

// A scatter of seven conditions on the dark plot draws the seventh's
// legend square in the lifted colour, not in near black.
func TestScatterSeventhConditionVisibleOnDark(t *testing.T) {
	st := DarkPlotStyle(1)
	c := ScatterChart{Title: "seven"}
	for i := range 7 {
		c.Series = append(c.Series, ScatterSeries{Name: string(rune('a' + i)), Colour: SeriesColour(i),
			Points: [][2]float64{{0.1 * float64(i+1), 0.5}}})
	}
	img := DrawScatterChart(c, 640, 400, st)
	lifted, raw := st.legible(SeriesColour(6)), SeriesColour(6)
	var nLifted, nRaw int
	for y := img.Rect.Min.Y; y < img.Rect.Max.Y; y++ {
		for x := img.Rect.Min.X; x < img.Rect.Max.X; x++ {
			switch img.RGBAAt(x, y) {
			case lifted:
				nLifted++
			case raw:
				nRaw++
			}
		}
	}
	if nLifted < 25 || nRaw != 0 {
		t.Errorf("seventh condition: %d pixels in the lifted colour, %d in near black", nLifted, nRaw)
	}
}
