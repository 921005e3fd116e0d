package render

import (
	"image"
	"strconv"

	"github.com/jigbench/jigbench/core/puzzle"
)

// SheetOptions control what a sheet shows besides the pieces' pixels.
type SheetOptions struct {
	Outline bool // a thin dark line along each cut
	Labels  bool // each piece's ID
}

// DefaultSheet is what instance files use.
var DefaultSheet = SheetOptions{Outline: true, Labels: true}

// Sheet colours.
var (
	SheetBackground = [3]uint8{236, 236, 236}
	outlineInk      = [3]uint8{34, 34, 34}
)

// Outline strength: the piece's own edge pixels, and the background pixels
// just outside them (a cheap, exact anti-aliasing of a one-pixel line).
const (
	outlineInner = 200
	outlineOuter = 70
)

// Sheet draws the shuffled sheet of p from its solved image: piece ID k in
// slot (k div N, k mod N), cut with tabs (shaped) or straight (the ablation),
// everything else identical.
func Sheet(p *puzzle.Puzzle, solved *image.RGBA, shaped bool, o SheetOptions) *image.RGBA {
	l := p.Layout
	sheet := image.NewRGBA(image.Rect(0, 0, l.SheetWidth, l.SheetHeight))
	bg := SheetBackground
	for i := 0; i < len(sheet.Pix); i += 4 {
		sheet.Pix[i], sheet.Pix[i+1], sheet.Pix[i+2], sheet.Pix[i+3] = bg[0], bg[1], bg[2], 0xFF
	}
	var ls labelStyle
	if o.Labels {
		ls = newLabelStyle(p.PieceW, p.PieceH, p.N*p.N-1)
	}
	for id, c := range p.CellOf {
		m := PieceMask(p, c, shaped)
		cx, cy := l.CellOrigin(id, p.N)
		off := image.Pt(cx-c.Col*p.PieceW, cy-c.Row*p.PieceH) // solved → sheet
		drawPiece(sheet, solved, m, off, o.Outline)
		if o.Labels {
			drawLabel(sheet, ls, cx+p.PieceW/2, cy+p.PieceH/2, strconv.Itoa(id))
		}
	}
	return sheet
}

// drawPiece copies the pixels of mask m from solved to dst shifted by off,
// and outlines the region.
func drawPiece(dst, solved *image.RGBA, m *image.Alpha, off image.Point, outline bool) {
	b := m.Rect.Intersect(solved.Rect)
	for y := b.Min.Y; y < b.Max.Y; y++ {
		mrow := m.Pix[m.PixOffset(b.Min.X, y):]
		srow := solved.Pix[solved.PixOffset(b.Min.X, y):]
		drow := dst.Pix[dst.PixOffset(b.Min.X+off.X, y+off.Y):]
		for i := range b.Dx() {
			if mrow[i] != 0 {
				copy(drow[4*i:4*i+4], srow[4*i:4*i+4])
			}
		}
	}
	if !outline {
		return
	}
	in := func(x, y int) bool {
		return image.Pt(x, y).In(b) && m.Pix[m.PixOffset(x, y)] != 0
	}
	for y := b.Min.Y - 1; y <= b.Max.Y; y++ {
		for x := b.Min.X - 1; x <= b.Max.X; x++ {
			inside := in(x, y)
			edge := in(x-1, y) != inside || in(x+1, y) != inside || in(x, y-1) != inside || in(x, y+1) != inside
			if !edge {
				continue
			}
			if inside {
				blend(dst, x+off.X, y+off.Y, outlineInk, outlineInner)
			} else {
				blend(dst, x+off.X, y+off.Y, outlineInk, outlineOuter)
			}
		}
	}
}
