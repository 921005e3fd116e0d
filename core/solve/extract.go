package solve

import (
	"fmt"
	"image"
	"math"
	"sync"

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
	// unread says why the sides could not be read (sides are then all
	// flat): tabs too small to draw, or a sheet of another instance.
	unread error
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
	labels       *render.LabelPainter
	// knob is a classic tab's size unit, ½·ratio·(shorter cell side); 0
	// for semicircle tabs (puzzle.newClassicLobe).
	knob float64
}

func newGeometry(pub *puzzle.PublicInstance) geometry {
	l := pub.Layout
	return geometry{
		n: pub.Grid, w: pub.Piece.Width, h: pub.Piece.Height, r: pub.Piece.TabRadius,
		sw: l.SlotWidth, sh: l.SlotHeight, offX: l.CellOffsetX, offY: l.CellOffsetY,
		reachX: l.CellOffsetX - l.OriginX, reachY: l.CellOffsetY - l.OriginY,
		sheetW: l.SheetWidth, shtH: l.SheetHeight, originX: l.OriginX, originY: l.OriginY,
		labels: render.NewLabelPainter(pub.Piece.Width, pub.Piece.Height, pub.Grid),
		knob:   classicKnob(pub.Options, pub.Piece.Width, pub.Piece.Height),
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
	// Under a label the flood compares each pixel with the labels drawn over
	// the background (labelSeen); elsewhere a pixel's colour alone says
	// whether the flood may enter it, judged for the whole slot first in one
	// sweep of its rows. The flood runs on the slot with a closed border of
	// one pixel all round (state, row stride sw+2), so no step of it tests
	// the slot's edges.
	seen := newLabelSeen(g, id)
	const (
		closed = iota
		open   // background by its colour
		ask    // under the labels' bounds: judged when the flood reaches it
		filled // reached by the flood
	)
	stride := sw + 2
	state := make([]uint8, stride*(sh+2))
	for sy := range sh {
		row := sheet.Pix[sheet.PixOffset(ox, oy+sy):]
		st := state[(sy+1)*stride+1 : (sy+1)*stride+1+sw]
		for sx := range st {
			if floodable(row[4*sx : 4*sx+3 : 4*sx+3]) {
				st[sx] = open
			}
		}
	}
	if r := seen.rect.Intersect(image.Rect(0, 0, sw, sh)); !r.Empty() {
		for sy := r.Min.Y; sy < r.Max.Y; sy++ {
			st := state[(sy+1)*stride:]
			for sx := r.Min.X; sx < r.Max.X; sx++ {
				st[sx+1] = ask
			}
		}
	}
	stack := make([]int32, 0, 2*(sw+sh))
	// reach floods pixel j (state open or ask) if it is background.
	reach := func(j int) {
		if state[j] == ask {
			sx, sy := j%stride-1, j/stride-1
			var ok bool
			if k, under := seen.under(sx, sy); under {
				ok = seen.background(k, pix(sx, sy))
			} else {
				ok = floodable(pix(sx, sy))
			}
			if !ok {
				state[j] = closed
				return
			}
		}
		state[j] = filled
		stack = append(stack, int32(j))
	}
	// Flood the background from the slot's border.
	for _, j := range slotBorder(sw, sh, stride) {
		if v := state[j]; v == open || v == ask {
			reach(j)
		}
	}
	for len(stack) > 0 {
		j := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		if v := state[j-1]; v == open || v == ask {
			reach(j - 1)
		}
		if v := state[j+1]; v == open || v == ask {
			reach(j + 1)
		}
		if v := state[j-stride]; v == open || v == ask {
			reach(j - stride)
		}
		if v := state[j+stride]; v == open || v == ask {
			reach(j + stride)
		}
	}
	flooded := make([]bool, sw*sh)
	for sy := range sh {
		st := state[(sy+1)*stride+1 : (sy+1)*stride+1+sw]
		for sx, v := range st {
			flooded[sy*sw+sx] = v == filled
		}
	}
	if seen.drawn {
		seen.settle(flooded, sw, func(sx, sy int) bool {
			k, under := seen.under(sx, sy)
			return under && seen.hidden(k, pix(sx, sy))
		})
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
	// A label hides the picture under it: the piece's own over the whole
	// of its bounds, a neighbour's where it spills into the slot.
	lb := g.labels.Bounds(id).Add(image.Pt(g.offX, g.offY))
	hidden := lb
	if seen.drawn {
		hidden = hidden.Union(seen.rect)
	}
	hidden = hidden.Intersect(image.Rect(0, 0, sw, sh))
	for sy := hidden.Min.Y; sy < hidden.Max.Y; sy++ {
		for sx := hidden.Min.X; sx < hidden.Max.X; sx++ {
			q := image.Point{sx, sy}
			if i := sy*sw + sx; p.kind[i] != pxOutside && (q.In(lb) || seen.drawn && seen.covers(q)) {
				p.kind[i] = pxLabel
			}
		}
	}
	if g.knob > 0 {
		p.sides, p.unread = readClassicSides(g, p)
	} else {
		p.sides, p.unread = readSides(g, p)
	}
	seeThroughLabel(g, p, id, lb, pix)
	if p.unread != nil {
		p.sides, p.unread = puzzle.Sides{}, fmt.Errorf("piece %d: %w", id, p.unread)
	}
	return p, nil
}

// slotBorder lists the pixels along a sw×sh slot's edges, as indices of a
// grid of row stride stride with a border of one pixel all round.
func slotBorder(sw, sh, stride int) []int {
	js := make([]int, 0, 2*(sw+sh))
	for sx := 1; sx <= sw; sx++ {
		js = append(js, stride+sx, sh*stride+sx)
	}
	for sy := 1; sy <= sh; sy++ {
		js = append(js, sy*stride+1, sy*stride+sw)
	}
	return js
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

// classicKnob is the size unit k of a sheet's classic tabs, 0 for any other.
func classicKnob(o puzzle.Options, w, h int) float64 {
	if o.TabStyle != puzzle.StyleClassic {
		return 0
	}
	return 0.5 * o.TabRatio * float64(min(w, h))
}

// readClassicSides classifies the sides of a piece with classic tabs
// (puzzle.newClassicLobe, k = g.knob): a knob that reaches 1.8k–3.2k beyond
// the edge line, on a neck and between shoulders whose jitter puts pixels up
// to 0.7k on either side of it; and on small pieces the knob is a few pixels
// that a fixed box at the midpoint misses. So each side looks at the depths
// between 0.9k and 1.8k, which only a knob reaches, along the middle stretch
// any knob can take (±1.9k: its neck, the position jitter and the skew), for
// piece pixels outside the cell (a tab) or background inside it (a blank).
// Knobs of k under about 0.85 px leave no depth to look at, and those
// little over it may be misread: the sheet is then solved from content
// alone.
func readClassicSides(g *geometry, p *cutPiece) (puzzle.Sides, error) {
	var s puzzle.Sides
	k := g.knob
	spread := int(math.Ceil(1.9 * k))
	// Pixel d (1 = next to the line) has its centre at depth d − ½.
	first, last := int(math.Ceil(0.9*k+0.5)), int(math.Floor(1.8*k+0.5))
	if first > last {
		return s, fmt.Errorf("classic tabs this small (knobs under %.1f px deep) cannot be read", 1.8*k)
	}
	for side := range 4 {
		length := g.w
		if side == puzzle.Left || side == puzzle.Right {
			length = g.h
		}
		var tab, blank int
		for a := max(0, length/2-spread); a < min(length, length/2+spread+1); a++ {
			for d := first; d <= last; d++ {
				var ox, oy, ix, iy int // outside and inside pixel, cell coordinates
				switch side {
				case puzzle.Top:
					ox, oy, ix, iy = a, -d, a, d-1
				case puzzle.Bottom:
					ox, oy, ix, iy = a, g.h-1+d, a, g.h-d
				case puzzle.Left:
					ox, oy, ix, iy = -d, a, d-1, a
				case puzzle.Right:
					ox, oy, ix, iy = g.w-1+d, a, g.w-d, a
				}
				if i := g.at(ox, oy); i >= 0 && p.kind[i] != pxOutside {
					tab++
				}
				if i := g.at(ix, iy); i >= 0 && p.kind[i] == pxOutside {
					blank++
				}
			}
		}
		switch {
		case tab > 0 && blank > 0:
			return s, fmt.Errorf("the %s side looks like both a tab and a blank", sideName(side))
		case tab > 0:
			s[side] = puzzle.Tab
		case blank > 0:
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
	out := make([]float32, 0, 3*2*(sw+sh))
	idx := make([]int, 0, 2*(sw+sh))
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
				j1, j2, two := y1*sw+x1, y2*sw+x2, inner(x2, y2)
				for c := range 3 {
					v := p.rgb[3*j1+c]
					if two {
						v = 2*v - p.rgb[3*j2+c]
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

// labelSeen tells, under the labels drawn over a slot, the background from
// the piece. A label is a translucent pill (the picture shows through at
// about 12 %) with opaque digits; on small pieces it reaches past the
// piece's edge, over the background and into the neighbouring slots in its
// row. The labels are drawn again (render.LabelPainter, exactly as the sheet
// was) over the background and over the outline's outer ring: a pixel is
// background where the sheet shows what they show. The piece's own outline,
// darkened under a pill, stays a wall the flood cannot cross. Where a digit
// hides everything the pixel is hidden, and settle gives it the side its
// neighbours are on.
type labelSeen struct {
	g     *geometry
	rect  image.Rectangle // the labels' bounds, slot coordinates
	ids   []int           // the labels, in the order they were drawn
	cells []image.Point   // … and their cells' corners, slot coordinates
	// Drawn when the flood first reaches rect (on large pieces it never
	// does: their labels lie inside them).
	drawn    bool
	covered  []bool      // a label is drawn on the pixel
	opaque   []bool      // … and nothing under it shows through
	overBg   *image.RGBA // the labels over the sheet's background
	overRing *image.RGBA // … over the outline's outer ring
}

// newLabelSeen draws the labels that reach slot id: its own and those of the
// slots left and right of it (drawn before and after it, in ID order).
func newLabelSeen(g *geometry, id int) *labelSeen {
	slot := image.Rect(0, 0, g.sw, g.sh)
	cell := image.Pt(g.offX, g.offY)
	ls := &labelSeen{g: g}
	for _, k := range []int{id - 1, id, id + 1} {
		if k < 0 || k >= g.n*g.n || k/g.n != id/g.n {
			continue
		}
		c := cell.Add(image.Pt((k-id)*g.sw, 0))
		if r := g.labels.Bounds(k).Add(c).Intersect(slot); !r.Empty() {
			ls.ids, ls.cells, ls.rect = append(ls.ids, k), append(ls.cells, c), ls.rect.Union(r)
		}
	}
	return ls
}

func (ls *labelSeen) draw() {
	over := func(v uint8) *image.RGBA {
		img := image.NewRGBA(ls.rect)
		for i := 0; i < len(img.Pix); i += 4 {
			img.Pix[i], img.Pix[i+1], img.Pix[i+2], img.Pix[i+3] = v, v, v, 0xff
		}
		for i, k := range ls.ids {
			ls.g.labels.Draw(img, k, ls.cells[i])
		}
		return img
	}
	ls.overBg, ls.overRing = over(sheetBackground), over(outerRing)
	black, white := over(0), over(255)
	ls.covered = make([]bool, ls.rect.Dx()*ls.rect.Dy())
	ls.opaque = make([]bool, len(ls.covered))
	for i := range ls.covered {
		b, w := black.Pix[4*i:4*i+3], white.Pix[4*i:4*i+3]
		ls.covered[i] = b[0]|b[1]|b[2] != 0 || w[0]&w[1]&w[2] != 0xff
		// Black and white underneath drawn alike: nothing shows through.
		ls.opaque[i] = b[0] == w[0] && b[1] == w[1] && b[2] == w[2]
	}
	ls.drawn = true
}

// under reports whether a label is drawn on slot pixel (sx, sy), and its
// index in the label pixels.
func (ls *labelSeen) under(sx, sy int) (int, bool) {
	if !(image.Point{sx, sy}).In(ls.rect) {
		return 0, false
	}
	if !ls.drawn {
		ls.draw()
	}
	i := (sy-ls.rect.Min.Y)*ls.rect.Dx() + sx - ls.rect.Min.X
	return i, ls.covered[i]
}

// covers reports whether a label is drawn on slot pixel q.
func (ls *labelSeen) covers(q image.Point) bool {
	_, under := ls.under(q.X, q.Y)
	return under
}

// background reports whether sheet pixel c, under a label (index i), shows
// the labels drawn over the background or over the outer outline ring.
func (ls *labelSeen) background(i int, c []uint8) bool {
	if ls.opaque[i] {
		return false
	}
	for _, img := range []*image.RGBA{ls.overBg, ls.overRing} {
		if c[0] == img.Pix[4*i] && c[1] == img.Pix[4*i+1] && c[2] == img.Pix[4*i+2] {
			return true
		}
	}
	return false
}

// hidden reports whether the flood could not judge a pixel under a label: a
// digit covers it, or it looks like background but the flood did not reach
// it (the inside of a 0, or a piece pixel the pill makes look so).
func (ls *labelSeen) hidden(i int, c []uint8) bool {
	return ls.opaque[i] || ls.background(i, c)
}

// settle decides the unflooded hidden pixels under the label from their
// 4-neighbours, layer by layer from those the flood judged: background when
// more neighbours are background than piece.
func (ls *labelSeen) settle(flooded []bool, sw int, hidden func(sx, sy int) bool) {
	sh := len(flooded) / sw
	var open []image.Point
	for sy := max(ls.rect.Min.Y, 0); sy < min(ls.rect.Max.Y, sh); sy++ {
		for sx := max(ls.rect.Min.X, 0); sx < min(ls.rect.Max.X, sw); sx++ {
			if !flooded[sy*sw+sx] && hidden(sx, sy) {
				open = append(open, image.Pt(sx, sy))
			}
		}
	}
	pending := make(map[image.Point]bool, len(open))
	for _, q := range open {
		pending[q] = true
	}
	for len(open) > 0 {
		var next []image.Point
		var decided []image.Point
		var bg []bool
		for _, q := range open {
			back, piece := 0, 0
			for _, d := range [4]image.Point{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
				r := q.Add(d)
				if r.X < 0 || r.Y < 0 || r.X >= sw || r.Y >= sh {
					back++ // the slot's border is background
					continue
				}
				if pending[r] {
					continue
				}
				if flooded[r.Y*sw+r.X] {
					back++
				} else {
					piece++
				}
			}
			if back+piece == 0 {
				next = append(next, q)
				continue
			}
			decided, bg = append(decided, q), append(bg, back > piece)
		}
		if len(decided) == 0 {
			break // enclosed by hidden pixels only: left to the piece
		}
		for k, q := range decided {
			delete(pending, q)
			flooded[q.Y*sw+q.X] = bg[k]
		}
		open = next
	}
}

// seamDepth is how deep into a piece the seam measure reads: the pixel on
// the cut and the one inside it (compat.go).
const seamDepth = 2

// seeThroughLabel gives back the colours under a piece's own label pill
// where it lies near the piece's edges, as it does on small pieces (on a
// 20×12-px piece it hides 8 of the 12 pixels of each side seam, and PA on
// 32×32 photographs falls from 1 to 0.3–0.5). The pill is white at opacity
// a (at most 224/255): its pixel D tells the colour under it to an interval
// about 255/(255−a) ≈ 8 levels wide (about 40 under the outline's ink), which
// pillInverse gives. Each such pixel is then set to the value in its
// interval closest to the mean of its neighbours, again and again, from the
// visible pixels around inwards: a smooth picture comes back to within a
// level or so, texture within its interval. Under a digit, or where a
// neighbour's label spills over it too, the colour stays unknown (pxLabel).
func seeThroughLabel(g *geometry, p *cutPiece, id int, lb image.Rectangle, pix func(sx, sy int) []uint8) {
	cell := image.Rect(g.offX, g.offY, g.offX+g.w, g.offY+g.h)
	if lb.Intersect(cell).In(cell.Inset(seamDepth)) {
		return // the label keeps clear of the seams
	}
	black, white := image.NewRGBA(lb), image.NewRGBA(lb)
	for i := range white.Pix {
		white.Pix[i] = 0xff
	}
	g.labels.Draw(black, id, cell.Min)
	g.labels.Draw(white, id, cell.Min)
	var spills []image.Rectangle // the neighbours' labels, slot coordinates
	for _, k := range []int{id - 1, id + 1} {
		if k >= 0 && k < g.n*g.n && k/g.n == id/g.n {
			spills = append(spills, g.labels.Bounds(k).Add(cell.Min).Add(image.Pt((k-id)*g.sw, 0)))
		}
	}
	spill := func(q image.Point) bool { // a neighbour's label over q too
		for _, r := range spills {
			if q.In(r) {
				return true
			}
		}
		return false
	}
	type unknown struct {
		i      int
		lo, hi [3]float32
	}
	var open []unknown
	ring := func(sx, sy int) bool {
		for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
			x, y := sx+d[0], sy+d[1]
			if x < 0 || y < 0 || x >= g.sw || y >= g.sh || p.kind[y*g.sw+x] == pxOutside {
				return true
			}
		}
		return false
	}
	for sy := max(lb.Min.Y, 0); sy < min(lb.Max.Y, g.sh); sy++ {
		for sx := max(lb.Min.X, 0); sx < min(lb.Max.X, g.sw); sx++ {
			i := sy*g.sw + sx
			o := black.PixOffset(sx, sy)
			if p.kind[i] != pxLabel || white.Pix[o] != 0xff || spill(image.Pt(sx, sy)) {
				continue // not the piece's, or a digit is drawn here
			}
			u := unknown{i: i}
			inv := pillInverse(black.Pix[o], ring(sx, sy))
			c := pix(sx, sy)
			for ch := range 3 {
				u.lo[ch], u.hi[ch] = float32(inv[c[ch]][0]), float32(inv[c[ch]][1])
				p.rgb[3*i+ch] = (u.lo[ch] + u.hi[ch]) / 2
			}
			open = append(open, u)
		}
	}
	for _, u := range open {
		p.kind[u.i] = pxInner
	}
	// Each unknown's neighbours on the piece, then 40 sweeps.
	var nb [][4]int32
	for _, u := range open {
		var list [4]int32
		k := 0
		for _, d := range [4]int{1, -1, g.sw, -g.sw} {
			if j := u.i + d; j >= 0 && j < len(p.kind) && (p.kind[j] == pxInner || p.kind[j] == pxRing) {
				list[k] = int32(j)
				k++
			}
		}
		for ; k < 4; k++ {
			list[k] = -1
		}
		nb = append(nb, list)
	}
	for range 40 {
		for n, u := range open {
			var sum [3]float32
			k := 0
			for _, j := range nb[n] {
				if j < 0 {
					break
				}
				sum[0], sum[1], sum[2] = sum[0]+p.rgb[3*j], sum[1]+p.rgb[3*j+1], sum[2]+p.rgb[3*j+2]
				k++
			}
			if k == 0 {
				continue
			}
			for ch := range 3 {
				p.rgb[3*u.i+ch] = min(max(sum[ch]/float32(k), u.lo[ch]), u.hi[ch])
			}
		}
	}
}

// pillInverses[ring][a][D] is the range of colours v that the label's
// pill at opacity a draws as D — over the outline's ink first where ring.
var pillInverses struct {
	once sync.Once
	t    [2][256][256][2]uint8
}

func pillInverse(a uint8, ring bool) *[256][2]uint8 {
	pillInverses.once.Do(func() {
		for r := range 2 {
			for a := range 256 {
				t := &pillInverses.t[r][a]
				for d := range 256 {
					t[d] = [2]uint8{255, 0}
				}
				for v := range 256 {
					u := v
					if r == 1 { // render.blendRow's arithmetic, ink at outlineInner
						u = (outlineInk*outlineInner + v*(255-outlineInner) + 127) / 255
					}
					d := (255*a + u*(255-a) + 127) / 255
					t[d][0], t[d][1] = min(t[d][0], uint8(v)), max(t[d][1], uint8(v))
				}
				for d := range 256 { // a value no colour draws: the nearest that is drawn
					if t[d][0] > t[d][1] {
						t[d] = [2]uint8{0, 255}
					}
				}
			}
		}
	})
	r := 0
	if ring {
		r = 1
	}
	return &pillInverses.t[r][a]
}
