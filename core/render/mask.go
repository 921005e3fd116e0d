package render

import (
	"image"

	"github.com/jigbench/jigbench/core/puzzle"
)

// PieceMask returns the region of the piece whose true cell is c, in solved-
// image coordinates: 255 inside, 0 outside. With straight cuts (shaped false)
// it is the bare cell.
//
// The mask starts as the cell and flips every pixel of the lobes of the
// cell's four edges: a lobe pixel inside the cell goes to the neighbour (the
// neighbour's tab), a lobe pixel outside joins this piece (its own tab). The
// pieces of a puzzle therefore tile the image exactly.
func PieceMask(p *puzzle.Puzzle, c puzzle.Cell, shaped bool) *image.Alpha {
	x0, y0, x1, y1 := p.CellRect(c)
	cell := image.Rect(x0, y0, x1, y1)
	if !shaped {
		m := image.NewAlpha(cell)
		for i := range m.Pix {
			m.Pix[i] = 0xFF
		}
		return m
	}
	bounds := cell
	edges := p.CellEdges(c)
	for _, e := range edges {
		if e >= 0 {
			bounds = bounds.Union(p.Lobe(e).Bounds())
		}
	}
	m := image.NewAlpha(bounds)
	for y := y0; y < y1; y++ {
		row := m.Pix[m.PixOffset(x0, y):]
		for i := range x1 - x0 {
			row[i] = 0xFF
		}
	}
	for _, e := range edges {
		if e < 0 {
			continue
		}
		p.Lobe(e).Spans(func(y, sx0, sx1 int) {
			if y < bounds.Min.Y || y >= bounds.Max.Y {
				return
			}
			sx0, sx1 = max(sx0, bounds.Min.X), min(sx1, bounds.Max.X)
			if sx0 >= sx1 {
				return
			}
			row := m.Pix[m.PixOffset(sx0, y):]
			for i := range sx1 - sx0 {
				row[i] ^= 0xFF
			}
		})
	}
	return m
}
