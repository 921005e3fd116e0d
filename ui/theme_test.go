package ui

import (
	"github.com/jigbench/jigbench/core/render"
	"image/color"
	"math"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"
)

// TestContrastMeetsWCAGAA computes every text/background pair of the theme
// in light and dark: each must reach 4.5:1.
func TestContrastMeetsWCAGAA(t *testing.T) {
	th := Theme()
	for _, v := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, p := range textPairs {
			if r := render.Contrast(th.Color(p.text, v), th.Color(p.background, v)); r < 4.5 {
				t.Errorf("variant %d: %s on %s has contrast %.2f:1, below 4.5:1", v, p.text, p.background, r)
			}
		}
	}
}

// TestContrastFormula checks the ratio on hand-worked pairs: black on white
// is 21:1, a colour on itself 1:1, and #767676 on white the well-known 4.54:1.
func TestContrastFormula(t *testing.T) {
	white, black := color.White, color.Black
	grey := color.NRGBA{R: 0x76, G: 0x76, B: 0x76, A: 0xff}
	for _, c := range []struct {
		a, b color.Color
		want float64
	}{{black, white, 21}, {white, white, 1}, {grey, white, 4.54}} {
		if got := render.Contrast(c.a, c.b); math.Abs(got-c.want) > 0.01 {
			t.Errorf("render.Contrast(%v, %v) = %.3f, want %.2f", c.a, c.b, got, c.want)
		}
	}
	// Fyne's default light theme fails for low-importance text: the
	// test can fail.
	if r := render.Contrast(theme.DefaultTheme().Color(theme.ColorNameDisabled, theme.VariantLight), white); r >= 4.5 {
		t.Errorf("default disabled text on white is %.2f:1; expected the failure this theme fixes", r)
	}
}
