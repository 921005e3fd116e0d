package solve

import (
	"fmt"
	"image"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// How core/render draws a sheet, as far as a solver needs to know it
// (render/sheet.go and label.go): a plain background, each piece's own
// boundary pixels (those with a 4-neighbour outside the piece) blended with a
// dark ink, the background pixels just outside blended more lightly, and the
// ID in a near-white pill centred on the cell.
const (
	sheetBackground = 236 // grey
	outlineInk      = 34  // grey
	outlineInner    = 200 // opacity of the ink over the piece's boundary pixels
	outlineOuter    = 70  // … and over the background just outside
	// outerRing is the background blended with the ink at outlineOuter:
	// (34·70 + 236·185 + 127) / 255.
	outerRing = (outlineInk*outlineOuter + sheetBackground*(255-outlineOuter) + 127) / 255
)

// Pixel kinds in a piece's slot.
const (
	pxOutside = iota // background, outline outside the piece, or label over background
	pxInner          // a piece pixel as drawn
	pxRing           // a piece pixel on its boundary, darkened by the outline (restored)
	pxLabel          // a piece pixel under the ID label: its colour is lost
)

// cutPiece is one piece cut from the sheet: its slot's pixels, which of them
// belong to the piece, their colours with the outline undone, and the side
// signature read from the silhouette.
type cutPiece struct {
	id    int
	kind  []uint8   // per slot pixel: pxOutside, pxInner or pxRing
	rgb   []float32 // per slot pixel, 3 values: the piece's colour (restored on the ring)
	sides puzzle.Sides
}

// geometry is the sheet layout in the terms the solver uses.
type geometry struct {
	n            int
	w, h         int // cell size
	r            int // tab radius
	sw, sh       int // slot size
	offX, offY   int // cell origin inside the slot
	reachX       int // how far a piece may extend beyond its cell, px
	reachY       int
	sheetW, shtH int
	originX      int // the first slot's top-left corner on the sheet
	originY      int
}

func newGeometry(pub *puzzle.PublicInstance) geometry {
	l := pub.Layout
	return geometry{
		n: pub.Grid, w: pub.Piece.Width, h: pub.Piece.Height, r: pub.Piece.TabRadius,
		sw: l.SlotWidth, sh: l.SlotHeight, offX: l.CellOffsetX, offY: l.CellOffsetY,
		reachX: l.CellOffsetX - l.OriginX, reachY: l.CellOffsetY - l.OriginY,
		sheetW: l.SheetWidth, shtH: l.SheetHeight, originX: l.OriginX, originY: l.OriginY,
	}
}

// at is the slot-pixel index of cell coordinates (x, y), or -1 outside the slot.
func (g *geometry) at(x, y int) int {
	sx, sy := x+g.offX, y+g.offY
	if sx < 0 || sy < 0 || sx >= g.sw || sy >= g.sh {
		return -1
	}
	return sy*g.sw + sx
}

// floodable reports whether a sheet pixel can be background seen from
// outside a piece: the background, the outer outline ring, or a label pill
// drawn over them (pure greys of 236 and above). A piece's own boundary
// pixels are darkened to at most 82 (or, under a label pill, at most 234), so
// a fill through floodable pixels never enters a piece.
func floodable(p []uint8) bool {
	if p[0] != p[1] || p[1] != p[2] {
		return false
	}
	return p[0] == outerRing || p[0] >= sheetBackground
}

// restoreRing undoes the outline blend of a boundary pixel: the drawn value v
// is ⌊(34·200 + 55·o + 127) / 255⌋, so o lies in an interval of width 255/55;
// its midpoint is returned.
func restoreRing(v uint8) float32 {
	o := (255*float32(v) - float32(outlineInk*outlineInner) - 0.5) / float32(255-outlineInner)
	return min(max(o, 0), 255)
}

// cutPieces cuts every slot of the sheet: silhouette by a flood fill of the
// background from the slot's border, boundary pixels restored, sides read.
func cutPieces(g *geometry, sheet *image.RGBA) ([]*cutPiece, error) {
	b := sheet.Rect
	if b.Dx() != g.sheetW || b.Dy() != g.shtH {
		return nil, fmt.Errorf("the sheet is %d×%d px, but instance.json describes a %d×%d sheet", b.Dx(), b.Dy(), g.sheetW, g.shtH)
	}
	pieces := make([]*cutPiece, g.n*g.n)
	err := parallelFor(len(pieces), func(id int) error {
		p, err := cutOne(g, sheet, id)
		pieces[id] = p
		return err
	})
	return pieces, err
}

func cutOne(g *geometry, sheet *image.RGBA, id int) (*cutPiece, error) {
	n := g.n
	ox := sheet.Rect.Min.X + g.originX + (id%n)*g.sw
	oy := sheet.Rect.Min.Y + g.originY + (id/n)*g.sh
	sw, sh := g.sw, g.sh
	p := &cutPiece{id: id, kind: make([]uint8, sw*sh), rgb: make([]float32, 3*sw*sh)}
	pix := func(sx, sy int) []uint8 {
		i := sheet.PixOffset(ox+sx, oy+sy)
		return sheet.Pix[i : i+3 : i+3]
	}
	// Flood the background from the slot's border.
	flooded := make([]bool, sw*sh)
	stack := make([]int32, 0, 2*(sw+sh))
	push := func(sx, sy int) {
		i := sy*sw + sx
		if !flooded[i] && floodable(pix(sx, sy)) {
			flooded[i] = true
			stack = append(stack, int32(i))
		}
	}
	for sx := 0; sx < sw; sx++ {
		push(sx, 0)
		push(sx, sh-1)
	}
	for sy := 0; sy < sh; sy++ {
		push(0, sy)
		push(sw-1, sy)
	}
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		sx, sy := i%sw, i/sw
		if sx > 0 {
			push(sx-1, sy)
		}
		if sx < sw-1 {
			push(sx+1, sy)
		}
		if sy > 0 {
			push(sx, sy-1)
		}
		if sy < sh-1 {
			push(sx, sy+1)
		}
	}
	// The piece is what the flood did not reach; its boundary is its ring.
	for sy := 0; sy < sh; sy++ {
		for sx := 0; sx < sw; sx++ {
			i := sy*sw + sx
			if flooded[i] {
				continue
			}
			ring := sx == 0 || sy == 0 || sx == sw-1 || sy == sh-1 ||
				flooded[i-1] || flooded[i+1] || flooded[i-sw] || flooded[i+sw]
			c := pix(sx, sy)
			if ring {
				p.kind[i] = pxRing
				p.rgb[3*i], p.rgb[3*i+1], p.rgb[3*i+2] = restoreRing(c[0]), restoreRing(c[1]), restoreRing(c[2])
			} else {
				p.kind[i] = pxInner
				p.rgb[3*i], p.rgb[3*i+1], p.rgb[3*i+2] = float32(c[0]), float32(c[1]), float32(c[2])
			}
		}
	}
	refineRing(p, sw, sh)
	// The label hides the picture under it.
	lb := render.LabelBounds(g.w, g.h, n, id)
	for y := lb.Min.Y; y < lb.Max.Y; y++ {
		for x := lb.Min.X; x < lb.Max.X; x++ {
			if i := g.at(x, y); i >= 0 && p.kind[i] != pxOutside {
				p.kind[i] = pxLabel
			}
		}
	}
	s, err := readSides(g, p)
	if err != nil {
		return nil, fmt.Errorf("piece %d: %w", id, err)
	}
	p.sides = s
	return p, nil
}

// readSides classifies each side of a cut piece from its silhouette. A tab
// puts piece pixels beyond the cell's edge, a blank leaves background inside
// it; both sit on the middle of the side. Each side is probed in a box of
// 2P×P px centred on its midpoint, P the tab radius, just outside the cell
// (tab) and just inside (blank): a semicircular tab fills π/4 of the box, a
// flat side leaves the outer box empty and the inner one full.
func readSides(g *geometry, p *cutPiece) (puzzle.Sides, error) {
	var s puzzle.Sides
	pr := max(g.r, 2)
	for side := range 4 {
		var tab, blank, area int
		// along: positions along the side; depth d ≥ 1 away from the edge line.
		for a := -pr; a < pr; a++ {
			for d := 1; d <= pr; d++ {
				var ox, oy, ix, iy int // outside and inside pixel, cell coordinates
				switch side {
				case puzzle.Top:
					ox, oy, ix, iy = g.w/2+a, -d, g.w/2+a, d-1
				case puzzle.Bottom:
					ox, oy, ix, iy = g.w/2+a, g.h-1+d, g.w/2+a, g.h-d
				case puzzle.Left:
					ox, oy, ix, iy = -d, g.h/2+a, d-1, g.h/2+a
				case puzzle.Right:
					ox, oy, ix, iy = g.w-1+d, g.h/2+a, g.w-d, g.h/2+a
				}
				area++
				if i := g.at(ox, oy); i >= 0 && p.kind[i] != pxOutside {
					tab++
				}
				if i := g.at(ix, iy); i >= 0 && p.kind[i] == pxOutside {
					blank++
				}
			}
		}
		const min = 0.25 // of the box; a semicircle fills 0.785
		isTab, isBlank := float64(tab) >= min*float64(area), float64(blank) >= min*float64(area)
		switch {
		case isTab && isBlank:
			return s, fmt.Errorf("the %s side looks like both a tab and a blank", sideName(side))
		case isTab:
			s[side] = puzzle.Tab
		case isBlank:
			s[side] = puzzle.Blank
		default:
			s[side] = puzzle.Flat
		}
	}
	return s, nil
}

func sideName(side int) string { return [...]string{"top", "right", "bottom", "left"}[side] }

// refineRing improves the restored boundary colours. The outline leaves
// each boundary colour known only to an interval 255/55 ≈ 4.6 levels wide;
// the pixels behind it, untouched, predict it (linear extrapolation along
// the inward normal, averaged over the normals), and the prediction clamped
// to the interval is kept. In smooth regions this recovers the colour to a
// fraction of a level; in texture it never strays outside the interval.
func refineRing(p *cutPiece, sw, sh int) {
	inner := func(x, y int) bool {
		return x >= 0 && y >= 0 && x < sw && y < sh && p.kind[y*sw+x] == pxInner
	}
	out := make([]float32, 0, 64)
	var idx []int
	for y := 0; y < sh; y++ {
		for x := 0; x < sw; x++ {
			i := y*sw + x
			if p.kind[i] != pxRing {
				continue
			}
			var sum [3]float32
			k := 0
			for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				ox, oy := x+d[0], y+d[1]
				if ox >= 0 && oy >= 0 && ox < sw && oy < sh && p.kind[oy*sw+ox] != pxOutside {
					continue // not an outward normal
				}
				x1, y1, x2, y2 := x-d[0], y-d[1], x-2*d[0], y-2*d[1]
				if !inner(x1, y1) {
					continue
				}
				j1 := y1*sw + x1
				for c := range 3 {
					v := p.rgb[3*j1+c]
					if inner(x2, y2) {
						v = 2*v - p.rgb[3*(y2*sw+x2)+c]
					}
					sum[c] += v
				}
				k++
			}
			if k == 0 {
				continue
			}
			idx = append(idx, i)
			for c := range 3 {
				out = append(out, sum[c]/float32(k))
			}
		}
	}
	for n, i := range idx {
		for c := range 3 {
			// p.rgb holds the interval's midpoint; recover the interval from it.
			mid := p.rgb[3*i+c]
			lo, hi := mid-2.3182, mid+2.3182
			lo, hi = max(lo, 0), min(hi, 255)
			p.rgb[3*i+c] = min(max(out[3*n+c], lo), hi)
		}
	}
}
