package render

import (
	"image"
	"image/color"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestGridOverlay: on a mid-grey 2×2 picture of 40 px cells the grid lines
// are dark, each cell's centre carries a light label pill, the corners of
// the cells stay as they were, and the input is left alone.
func TestGridOverlay(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 80, 80))
	grey := color.RGBA{128, 128, 128, 255}
	for i := 0; i < len(img.Pix); i += 4 {
		img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = 128, 128, 128, 255
	}
	sol := puzzle.Solution{{Row: 1, Col: 1}, {Row: 0, Col: 0}, {Row: 0, Col: 1}, {Row: 1, Col: 0}}
	out := GridOverlay(img, 2, 40, 40, sol)
	if img.RGBAAt(40, 10) != grey {
		t.Fatal("the input was changed")
	}
	if c := out.RGBAAt(40, 10); c.R > 60 {
		t.Errorf("grid line at x=40 is %v, want dark", c)
	}
	if c := out.RGBAAt(10, 40); c.R > 60 {
		t.Errorf("grid line at y=40 is %v, want dark", c)
	}
	if c := out.RGBAAt(3, 3); c != grey {
		t.Errorf("cell corner is %v, want untouched grey", c)
	}
	// The pill around the label is near white: look just inside its left end.
	for _, cell := range sol {
		x0, y0 := cell.Col*40, cell.Row*40
		lb := LabelBounds(40, 40, 2, 0)
		if c := out.RGBAAt(x0+lb.Min.X+lb.Dx()/2, y0+lb.Min.Y+1); c.R < 180 {
			t.Errorf("no label pill in cell %v: %v", cell, c)
		}
	}
}
