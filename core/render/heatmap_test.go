package render

import (
	"image/color"
	"testing"
)

// TestViridisKnownValues checks the table against matplotlib's published
// colours: viridis(0) = #440154, viridis(0.5) = #21918C (entry 128),
// viridis(1) = #FDE725, and entry 64 = (0.229739, 0.322361, 0.545706) →
// #3B528B. It also checks what a mistyped entry would break: lightness rises
// monotonically and neighbouring entries differ by little.
func TestViridisKnownValues(t *testing.T) {
	for _, c := range []struct {
		v    float64
		want color.RGBA
	}{
		{0, color.RGBA{0x44, 0x01, 0x54, 0xFF}},
		{128.0 / 255, color.RGBA{0x21, 0x91, 0x8C, 0xFF}},
		{64.0 / 255, color.RGBA{0x3B, 0x52, 0x8B, 0xFF}},
		{1, color.RGBA{0xFD, 0xE7, 0x25, 0xFF}},
		{-3, color.RGBA{0x44, 0x01, 0x54, 0xFF}},
		{7, color.RGBA{0xFD, 0xE7, 0x25, 0xFF}},
	} {
		if got := Viridis(c.v); got != c.want {
			t.Errorf("Viridis(%g) = %v, want %v", c.v, got, c.want)
		}
	}
	prevL := -1.0
	for i, e := range viridisTable {
		l := 0.2126*e[0] + 0.7152*e[1] + 0.0722*e[2] // relative luminance of the sRGB values, roughly
		if l <= prevL-1e-9 {
			t.Errorf("entry %d is darker than entry %d", i, i-1)
		}
		prevL = l
		if i > 0 {
			for k := range 3 {
				if d := e[k] - viridisTable[i-1][k]; d > 0.011 || d < -0.011 {
					t.Errorf("entry %d channel %d jumps by %g", i, k, d)
				}
			}
		}
	}
}
