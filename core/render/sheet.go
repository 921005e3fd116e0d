package render

import (
	"bytes"
	"encoding/binary"
	"image"

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
	fillRGB(sheet, SheetBackground)
	var labels *LabelPainter
	if o.Labels {
		labels = NewLabelPainter(p.PieceW, p.PieceH, p.N)
	}
	for id, c := range p.CellOf {
		m := PieceMask(p, c, shaped)
		cx, cy := l.CellOrigin(id, p.N)
		off := image.Pt(cx-c.Col*p.PieceW, cy-c.Row*p.PieceH) // solved → sheet
		drawPiece(sheet, solved, m, off, o.Outline)
		if o.Labels {
			labels.Draw(sheet, id, image.Pt(cx, cy))
		}
	}
	return sheet
}

// drawPiece copies the pixels of mask m from solved to dst shifted by off,
// and outlines the region.
func drawPiece(dst, solved *image.RGBA, m *image.Alpha, off image.Point, outline bool) {
	b := m.Rect.Intersect(solved.Rect)
	// Clip to dst too: a piece moved to another cell may reach past its edge.
	b = b.Intersect(dst.Rect.Sub(off))
	for y := b.Min.Y; y < b.Max.Y; y++ {
		mrow := m.Pix[m.PixOffset(b.Min.X, y):][:b.Dx()]
		srow := solved.Pix[solved.PixOffset(b.Min.X, y):]
		drow := dst.Pix[dst.PixOffset(b.Min.X+off.X, y+off.Y):]
		// Copy each run of inside pixels (mask 0xFF; outside is 0) at once.
		for i := 0; i < len(mrow); {
			j := bytes.IndexByte(mrow[i:], 0xFF)
			if j < 0 {
				break
			}
			i += j
			j = bytes.IndexByte(mrow[i:], 0)
			if j < 0 {
				j = len(mrow) - i
			}
			copy(drow[4*i:4*(i+j)], srow[4*i:4*(i+j)])
			i += j
		}
	}
	if !outline {
		return
	}
	// A copy of the mask with a two-pixel empty border makes every
	// neighbour lookup a plain index.
	pw, ph := b.Dx()+4, b.Dy()+4
	in := make([]byte, pw*ph+8) // 8 spare bytes for the word loads below
	for y := b.Min.Y; y < b.Max.Y; y++ {
		copy(in[(y-b.Min.Y+2)*pw+2:], m.Pix[m.PixOffset(b.Min.X, y):][:b.Dx()])
	}
	for py := 1; py < ph-1; py++ {
		for px := 1; px < pw-1; px++ {
			i := py*pw + px
			// Eight pixels whose neighbours all match them, read as
			// words, are inside or outside together: skip them at once.
			if px+8 < pw {
				v := binary.LittleEndian.Uint64(in[i:])
				if binary.LittleEndian.Uint64(in[i-1:]) == v && binary.LittleEndian.Uint64(in[i+1:]) == v &&
					binary.LittleEndian.Uint64(in[i-pw:]) == v && binary.LittleEndian.Uint64(in[i+pw:]) == v {
					px += 7
					continue
				}
			}
			v := in[i]
			if in[i-1] == v && in[i+1] == v && in[i-pw] == v && in[i+pw] == v {
				continue
			}
			x, y := b.Min.X-2+px+off.X, b.Min.Y-2+py+off.Y
			if v != 0 {
				blend(dst, x, y, outlineInk, outlineInner)
			} else {
				blend(dst, x, y, outlineInk, outlineOuter)
			}
		}
	}
}

// fillRGB paints all of dst with an opaque colour: one row by hand, the rest
// copied from it.
func fillRGB(dst *image.RGBA, c [3]uint8) {
	row := dst.Pix[:4*dst.Rect.Dx()]
	for i := 0; i < len(row); i += 4 {
		row[i], row[i+1], row[i+2], row[i+3] = c[0], c[1], c[2], 0xFF
	}
	for y := 1; y < dst.Rect.Dy(); y++ {
		copy(dst.Pix[y*dst.Stride:], row)
	}
}
