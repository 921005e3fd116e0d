package render

import (
	"image"
	"strconv"

	"github.com/jigbench/jigbench/core/puzzle"
)

// gridInk is the colour of the grid lines: dark, drawn over a light halo
// like the cuts of EdgeOverlay, so they show on any picture.
var gridInk = [3]uint8{20, 20, 26}

// GridOverlay draws the n×n grid of cells over a copy of img (a solved
// image, with or without EdgeOverlay) and, in every cell, the ID of the
// piece that belongs there (solution[id] is its cell), in the sheets' label
// style. It is for display, not for instance files.
func GridOverlay(img *image.RGBA, n, pieceW, pieceH int, solution puzzle.Solution) *image.RGBA {
	out := image.NewRGBA(img.Rect)
	copy(out.Pix, img.Pix)
	b := out.Rect
	line := func(x0, y0, x1, y1 int) {
		for y := max(y0, b.Min.Y); y < min(y1, b.Max.Y); y++ {
			for x := max(x0, b.Min.X); x < min(x1, b.Max.X); x++ {
				blend(out, x, y, gridInk, 200)
			}
		}
	}
	halo := func(x0, y0, x1, y1 int) {
		for y := max(y0, b.Min.Y); y < min(y1, b.Max.Y); y++ {
			for x := max(x0, b.Min.X); x < min(x1, b.Max.X); x++ {
				blend(out, x, y, labelFill, 120)
			}
		}
	}
	w := max(1, min(pieceW, pieceH)/60)
	for k := 1; k < n; k++ {
		x, y := b.Min.X+k*pieceW, b.Min.Y+k*pieceH
		halo(x-w-1, b.Min.Y, x+w+1, b.Max.Y)
		halo(b.Min.X, y-w-1, b.Max.X, y+w+1)
	}
	for k := 1; k < n; k++ {
		x, y := b.Min.X+k*pieceW, b.Min.Y+k*pieceH
		line(x-w, b.Min.Y, x+w, b.Max.Y)
		line(b.Min.X, y-w, b.Max.X, y+w)
	}
	s := newLabelStyle(pieceW, pieceH, n*n-1)
	for id, c := range solution {
		drawLabel(out, s, b.Min.X+c.Col*pieceW+pieceW/2, b.Min.Y+c.Row*pieceH+pieceH/2, strconv.Itoa(id))
	}
	return out
}
