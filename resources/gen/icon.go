//go:build ignore

// Command icon draws resources/icon.png, the jigbench app icon: a 2×2 jigsaw
// with one piece lifted out, on a rounded tile. Run with `go generate ./resources`.
package main

import (
	"image/color"
	"log"
	"math"

	"github.com/fogleman/gg"
)

const size = 512

// piece traces a square piece of side s at (x, y). sides gives top, right,
// bottom, left: +1 a tab, -1 a blank, 0 flat; tabs are semicircles of radius r.
func piece(dc *gg.Context, x, y, s, r float64, sides [4]int) {
	corners := [5][2]float64{{x, y}, {x + s, y}, {x + s, y + s}, {x, y + s}, {x, y}}
	dc.MoveTo(x, y)
	for i := 0; i < 4; i++ {
		a, b := corners[i], corners[i+1]
		if sides[i] != 0 {
			mx, my := (a[0]+b[0])/2, (a[1]+b[1])/2
			dx, dy := (b[0]-a[0])/s, (b[1]-a[1])/s // unit direction along the side
			dc.LineTo(mx-dx*r, my-dy*r)
			start := math.Atan2(-dy, -dx)
			if sides[i] > 0 { // bulge outward: sweep one way; blanks the other
				dc.DrawArc(mx, my, r, start, start+math.Pi)
			} else {
				dc.DrawArc(mx, my, r, start, start-math.Pi)
			}
		}
		dc.LineTo(b[0], b[1])
	}
	dc.ClosePath()
}

func main() {
	dc := gg.NewContext(size, size)
	// Tile: a deep blue rounded square with a soft vertical gradient.
	grad := gg.NewLinearGradient(0, 0, 0, size)
	grad.AddColorStop(0, rgb(0x2b, 0x5c, 0xc9))
	grad.AddColorStop(1, rgb(0x17, 0x2f, 0x78))
	dc.DrawRoundedRectangle(16, 16, size-32, size-32, 96)
	dc.SetFillStyle(grad)
	dc.Fill()

	s, r := 150.0, 30.0
	x0, y0 := 106.0, 106.0
	colors := [][3]float64{{0.98, 0.78, 0.25}, {0.36, 0.80, 0.62}, {0.95, 0.45, 0.38}, {0.90, 0.93, 0.98}}
	// Three pieces in place, the fourth lifted up and to the right.
	cells := []struct {
		x, y, dx, dy float64
		sides        [4]int
	}{
		{0, 0, 0, 0, [4]int{0, 1, -1, 0}},
		{0, 1, 0, 0, [4]int{1, -1, 0, 0}},
		{1, 1, 0, 0, [4]int{1, 0, 0, 1}},
		{1, 0, 40, -36, [4]int{0, 0, -1, -1}},
	}
	for i, c := range cells {
		x, y := x0+c.x*s+c.dx, y0+c.y*s+c.dy
		if c.dx != 0 { // shadow under the lifted piece
			dc.SetRGBA(0, 0, 0, 0.25)
			dc.DrawRoundedRectangle(x+10, y+14, s, s, 10)
			dc.Fill()
		}
		piece(dc, x, y, s, r, c.sides)
		dc.SetRGB(colors[i][0], colors[i][1], colors[i][2])
		dc.FillPreserve()
		dc.SetRGBA(0.05, 0.08, 0.2, 0.9)
		dc.SetLineWidth(6)
		dc.Stroke()
	}
	if err := dc.SavePNG("icon.png"); err != nil {
		log.Fatal(err)
	}
}

func rgb(r, g, b uint8) color.RGBA { return color.RGBA{r, g, b, 255} }
