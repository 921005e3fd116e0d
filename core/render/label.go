package render

import (
	"bytes"
	"image"
	"image/png"
	"strconv"
	"sync"

	"github.com/jigbench/jigbench/resources"
)

// Piece labels are drawn from a pre-rendered atlas of the digits 0–9 (Go
// Bold, resources/digits.png) scaled down with the integer box filter, so a
// label's pixels never depend on a platform's floating point.

var atlas struct {
	once   sync.Once
	img    *image.Gray
	cellW  int
	err    error
	mu     sync.Mutex
	scaled map[int]*digitSet
}

// digitSet is the ten digits at one height, each w wide.
type digitSet struct {
	w, h  int
	glyph [10][]uint8 // coverage, row-major w×h
}

func loadAtlas() {
	atlas.once.Do(func() {
		img, err := png.Decode(bytes.NewReader(resources.Digits))
		if err != nil {
			atlas.err = err
			return
		}
		g, ok := img.(*image.Gray)
		if !ok {
			panic("resources/digits.png must be 8-bit grey") // a build error, not user input
		}
		atlas.img = g
		atlas.cellW = g.Rect.Dx() / 10
		atlas.scaled = map[int]*digitSet{}
	})
}

// digitsAt returns the digits scaled to height h px (cached).
func digitsAt(h int) *digitSet {
	loadAtlas()
	if atlas.err != nil {
		panic("resources/digits.png: " + atlas.err.Error())
	}
	atlas.mu.Lock()
	defer atlas.mu.Unlock()
	if d, ok := atlas.scaled[h]; ok {
		return d
	}
	src := atlas.img
	sh := src.Rect.Dy()
	w := max(1, (atlas.cellW*h+sh/2)/sh)
	d := &digitSet{w: w, h: h}
	for i := range 10 {
		d.glyph[i] = boxPlane(src.Pix[i*atlas.cellW:], src.Stride, atlas.cellW, sh, w, h)
	}
	atlas.scaled[h] = d
	return d
}

// labelStyle sizes the labels of one sheet so the widest ID fits its piece.
type labelStyle struct {
	digitH     int // height of a digit, px
	padX, padY int
	gap        int             // between digits
	pillAlpha  map[int][]uint8 // the pill's opacity (0–labelFillAlpha) by label length
}

// newLabelStyle picks the digit height: 30 % of the shorter cell side
// (7–40 px), reduced until the widest label fits in 85 % of the cell width.
func newLabelStyle(pieceW, pieceH, maxID int) labelStyle {
	loadAtlas()
	digits := len(strconv.Itoa(maxID))
	m := min(pieceW, pieceH)
	h := min(40, max(7, (3*m+5)/10))
	for {
		s := labelStyle{digitH: h, padX: max(2, (h+2)/3), padY: max(1, (h+3)/5), gap: max(1, h/12), pillAlpha: map[int][]uint8{}}
		if h <= 6 || s.size(digits).X <= (85*pieceW)/100 {
			return s
		}
		h--
	}
}

// LabelBounds is the rectangle the ID label of piece id covers, relative to
// the top-left corner of its cell, on a sheet of n×n pieces of pieceW×pieceH
// px (what a solver reading the sheet must not take for picture).
func LabelBounds(pieceW, pieceH, n, id int) image.Rectangle {
	return (&LabelPainter{style: newLabelStyle(pieceW, pieceH, n*n-1), pieceW: pieceW, pieceH: pieceH}).Bounds(id)
}

// LabelPainter draws piece labels exactly as Sheet does, for a sheet of
// n×n pieces of pieceW×pieceH px. A solver uses it to tell what lies under a
// label: on small pieces a label reaches past the piece's edge, over the
// background and into the neighbouring slots. It is safe for concurrent use.
type LabelPainter struct {
	style          labelStyle
	pieceW, pieceH int
}

// NewLabelPainter prepares the labels of a sheet.
func NewLabelPainter(pieceW, pieceH, n int) *LabelPainter {
	maxID := n*n - 1
	lp := &LabelPainter{style: newLabelStyle(pieceW, pieceH, maxID), pieceW: pieceW, pieceH: pieceH}
	// Every pill is made now, so Draw only reads the style.
	for k := 1; k <= len(strconv.Itoa(maxID)); k++ {
		lp.style.pill(k)
	}
	return lp
}

// Bounds is LabelBounds of piece id, from the prepared style.
func (lp *LabelPainter) Bounds(id int) image.Rectangle {
	size := lp.style.size(len(strconv.Itoa(id)))
	x0, y0 := lp.pieceW/2-size.X/2, lp.pieceH/2-size.Y/2
	return image.Rect(x0, y0, x0+size.X, y0+size.Y)
}

// Draw paints piece id's label on dst, centred on the cell whose top-left
// corner is cell.
func (lp *LabelPainter) Draw(dst *image.RGBA, id int, cell image.Point) {
	drawLabel(dst, lp.style, cell.X+lp.pieceW/2, cell.Y+lp.pieceH/2, strconv.Itoa(id))
}

// size is the pill's size for a label of n digits.
func (s labelStyle) size(n int) image.Point {
	cw := max(1, (atlas.cellW*s.digitH+atlas.img.Rect.Dy()/2)/atlas.img.Rect.Dy())
	return image.Pt(n*cw+(n-1)*s.gap+2*s.padX, s.digitH+2*s.padY)
}

// Label colours: a near-white pill with near-black digits.
var (
	labelFill = [3]uint8{255, 255, 255}
	labelInk  = [3]uint8{17, 17, 17}
)

const labelFillAlpha = 224

// drawLabel draws text centred at (cx, cy) on dst.
func drawLabel(dst *image.RGBA, s labelStyle, cx, cy int, text string) {
	size := s.size(len(text))
	alpha := s.pill(len(text))
	x0, y0 := cx-size.X/2, cy-size.Y/2
	for y := range size.Y {
		blendRow(dst, x0, y0+y, labelFill, alpha[y*size.X:(y+1)*size.X])
	}
	d := digitsAt(s.digitH)
	x := x0 + s.padX
	y := y0 + s.padY
	for _, ch := range text {
		g := d.glyph[ch-'0']
		for gy := range d.h {
			blendRow(dst, x, y+gy, labelInk, g[gy*d.w:(gy+1)*d.w])
		}
		x += d.w + s.gap
	}
}

// pill is the opacity of the pill of a label of k digits (made once).
func (s labelStyle) pill(k int) []uint8 {
	if alpha, ok := s.pillAlpha[k]; ok {
		return alpha
	}
	size := s.size(k)
	pill := pillCoverage(size.X, size.Y)
	alpha := make([]uint8, len(pill))
	for i, c := range pill {
		alpha[i] = uint8((labelFillAlpha*int(c) + 8) / 16)
	}
	s.pillAlpha[k] = alpha
	return alpha
}

// blendRow is blend along row y from x0, pixel i with opacity alpha[i]/255,
// clipped to dst once.
func blendRow(dst *image.RGBA, x0, y int, c [3]uint8, alpha []uint8) {
	if y < dst.Rect.Min.Y || y >= dst.Rect.Max.Y {
		return
	}
	lo, hi := max(x0, dst.Rect.Min.X), min(x0+len(alpha), dst.Rect.Max.X)
	if lo >= hi {
		return
	}
	alpha = alpha[lo-x0 : hi-x0]
	row := dst.Pix[dst.PixOffset(lo, y):][:4*len(alpha)]
	c0, c1, c2 := uint32(c[0]), uint32(c[1]), uint32(c[2])
	for i, a := range alpha {
		if a == 0 {
			continue
		}
		p := row[4*i : 4*i+3 : 4*i+3]
		a32, ia := uint32(a), 255-uint32(a)
		p[0] = uint8((c0*a32 + uint32(p[0])*ia + 127) / 255)
		p[1] = uint8((c1*a32 + uint32(p[1])*ia + 127) / 255)
		p[2] = uint8((c2*a32 + uint32(p[2])*ia + 127) / 255)
	}
}

// pillCoverage is the w×h coverage (in sixteenths) of a rectangle with fully
// rounded ends (radius h/2, at most w/2), from 4×4 samples per pixel in
// integer arithmetic.
func pillCoverage(w, h int) []uint8 {
	out := make([]uint8, w*h)
	r4 := 4 * (min(w, h) / 2) // the radius in quarter pixels
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			cover := 0
			for sy := 0; sy < 4; sy++ {
				for sx := 0; sx < 4; sx++ {
					// subsample centre in eighths of a pixel, distance to the nearest corner circle's centre
					px, py := 8*x+2*sx+1, 8*y+2*sy+1
					dx := max(0, 2*r4-px, px-(8*w-2*r4))
					dy := max(0, 2*r4-py, py-(8*h-2*r4))
					if dx*dx+dy*dy <= 4*r4*r4 {
						cover++
					}
				}
			}
			out[y*w+x] = uint8(cover)
		}
	}
	return out
}

// blend paints colour c over dst's pixel (x, y) with opacity a/255.
func blend(dst *image.RGBA, x, y int, c [3]uint8, a uint8) {
	if a == 0 || !(image.Point{x, y}.In(dst.Rect)) {
		return
	}
	blendRow(dst, x, y, c, []uint8{a})
}
