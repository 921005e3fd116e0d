package render

import (
	"fmt"
	"image"
	"image/color"
	"strconv"

	"github.com/jigbench/jigbench/core/puzzle"
)

// ReassemblyOptions control the per-instance view of an answer.
type ReassemblyOptions struct {
	// Shaped draws tab-and-blank pieces (the shape condition); false draws
	// straight cuts (rect).
	Shaped bool
	// Title heads the picture, e.g. "model · instance · condition"; a line
	// of counts follows it.
	Title string
	// Labels draws each piece's ID on it.
	Labels bool
}

// Reassembly colours.
var (
	tintCorrect  = [3]uint8{34, 170, 76}
	tintWrong    = [3]uint8{220, 40, 40}
	holeFill     = color.RGBA{246, 246, 246, 0xFF}
	holeHatch    = [3]uint8{150, 150, 150}
	collisionInk = color.RGBA{215, 25, 25, 0xFF}
	gridLine     = [3]uint8{150, 150, 150}
	// A mid grey, so a blank that no tab fills shows as a hole, unlike the
	// white ID labels.
	reassemblyBackground = [3]uint8{178, 178, 178}
)

func plural(k int, noun string) string {
	if k == 1 {
		return "1 " + noun
	}
	return strconv.Itoa(k) + " " + noun + "s"
}

// Tint strengths (of 255).
const (
	tintAlpha     = 80
	tintEdgeAlpha = 200 // a band along the piece's outline, so the verdict shows on any picture
)

// ReassemblyStats counts what a reassembly view shows.
type ReassemblyStats struct {
	Correct, Wrong  int // placed pieces in their true cell, elsewhere
	Holes           int // cells nobody was placed in
	Collisions      int // cells with two or more pieces
	CollidingPieces int // pieces in those cells
	Unplaced        int // pieces with no (usable) position
}

// CountReassembly counts an answer's placements: pred[k] is piece k's
// predicted cell index (row*N+col) or negative when missing.
func CountReassembly(p *puzzle.Puzzle, pred []int) (ReassemblyStats, [][]int) {
	n := p.N
	at := make([][]int, n*n) // pieces placed in each cell, in ID order
	var s ReassemblyStats
	for k := range n * n {
		c := -1
		if k < len(pred) {
			c = pred[k]
		}
		if c < 0 || c >= n*n {
			s.Unplaced++
			continue
		}
		at[c] = append(at[c], k)
		if t := p.CellOf[k]; t.Row*n+t.Col == c {
			s.Correct++
		} else {
			s.Wrong++
		}
	}
	for _, ks := range at {
		switch {
		case len(ks) == 0:
			s.Holes++
		case len(ks) > 1:
			s.Collisions++
			s.CollidingPieces += len(ks)
		}
	}
	return s, at
}

// Reassembly draws an answer as the model would have assembled it: every
// placed piece cut from the solved image (with its tabs, which may overlap a
// neighbour) and drawn in its predicted cell, tinted green when that is its
// true cell and red otherwise; empty cells hatched; cells holding several
// pieces outlined in red with a badge counting them (the lowest ID is drawn
// on top). pred[k] is piece k's predicted cell index or negative.
func Reassembly(p *puzzle.Puzzle, solved *image.RGBA, pred []int, o ReassemblyOptions) *image.RGBA {
	n := p.N
	stats, at := CountReassembly(p, pred)
	fs := faces{}
	titleF, subF := fs.face(18, true), fs.face(14, false)
	origin, size := ReassemblyLayout(p, o.Title != "")
	ox, oy := origin.X, origin.Y
	width := size.X
	img := image.NewRGBA(image.Rectangle{Max: size})
	fillRGB(img, reassemblyBackground)

	y := 12 + 18
	if o.Title != "" {
		drawText(img, titleF, 12, y, o.Title, heatInk)
		y += 22
	}
	summary := fmt.Sprintf("PA %s · %d correct (green) · %d wrong (red) · %s · %s with several pieces · %s not placed",
		formatRate(float64(stats.Correct)/float64(n*n), false), stats.Correct, stats.Wrong,
		plural(stats.Holes, "empty cell"), plural(stats.Collisions, "cell"), plural(stats.Unplaced, "piece"))
	if textWidth(subF, summary)+24 > width {
		summary = fmt.Sprintf("PA %s · %d right · %d wrong · %d empty · %d collisions · %d unplaced",
			formatRate(float64(stats.Correct)/float64(n*n), false), stats.Correct, stats.Wrong, stats.Holes, stats.Collisions, stats.Unplaced)
	}
	drawText(img, subF, 12, y, summary, heatMuted)

	// Empty cells: hatched; every cell: a faint outline, so the grid shows.
	for c := range n * n {
		x0, y0, x1, y1 := p.CellRect(puzzle.Cell{Row: c / n, Col: c % n})
		r := image.Rect(x0+ox, y0+oy, x1+ox, y1+oy)
		if len(at[c]) == 0 {
			fillRect(img, r, holeFill)
			for yy := r.Min.Y; yy < r.Max.Y; yy++ {
				for xx := r.Min.X; xx < r.Max.X; xx++ {
					if (xx+yy)%10 < 2 {
						blend(img, xx, yy, holeHatch, 160)
					}
				}
			}
		}
	}
	// Pieces, row-major by predicted cell; in a collision the lowest ID last
	// (on top).
	var ls labelStyle
	if o.Labels {
		ls = newLabelStyle(p.PieceW, p.PieceH, n*n-1)
	}
	for c := range n * n {
		ks := at[c]
		for i := len(ks) - 1; i >= 0; i-- {
			k := ks[i]
			t := p.CellOf[k]
			m := PieceMask(p, t, o.Shaped)
			off := image.Pt(ox+(c%n-t.Col)*p.PieceW, oy+(c/n-t.Row)*p.PieceH)
			tint := tintWrong
			if t.Row*n+t.Col == c {
				tint = tintCorrect
			}
			drawTintedPiece(img, solved, m, off, tint)
		}
	}
	for c := range n * n {
		x0, y0, x1, y1 := p.CellRect(puzzle.Cell{Row: c / n, Col: c % n})
		r := image.Rect(x0+ox, y0+oy, x1+ox, y1+oy)
		strokeBlend(img, r, gridLine, 60)
		if o.Labels && len(at[c]) > 0 {
			drawLabel(img, ls, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, strconv.Itoa(at[c][0]))
		}
	}
	// Collisions: a red frame and a count badge.
	badgeF := fs.face(min(20, max(12, min(p.PieceW, p.PieceH)/4)), true)
	for c := range n * n {
		if len(at[c]) < 2 {
			continue
		}
		x0, y0, x1, y1 := p.CellRect(puzzle.Cell{Row: c / n, Col: c % n})
		r := image.Rect(x0+ox, y0+oy, x1+ox, y1+oy)
		strokeRect(img, r, max(2, min(p.PieceW, p.PieceH)/20), collisionInk)
		s := "×" + strconv.Itoa(len(at[c]))
		bw := textWidth(badgeF, s) + 8
		bh := badgeF.Metrics().Height.Ceil() + 2
		b := image.Rect(r.Max.X-bw-2, r.Min.Y+2, r.Max.X-2, r.Min.Y+2+bh)
		fillRect(img, b, collisionInk)
		drawTextCentred(img, badgeF, (b.Min.X+b.Max.X)/2, (b.Min.Y+b.Max.Y)/2, s, color.RGBA{255, 255, 255, 255})
	}
	return img
}

// ReassemblyLayout is where Reassembly puts the grid: the solved image's
// top-left corner is at origin (cell (r, c) starts at origin + (c·PieceW,
// r·PieceH)) in a picture of the given size. A GUI maps clicks to cells
// with it.
func ReassemblyLayout(p *puzzle.Puzzle, title bool) (origin, size image.Point) {
	margin := p.Protrusion() + 12
	head := 12 + 20 + 8
	if title {
		head += 22
	}
	width := max(p.Width+2*margin, 480)
	origin = image.Pt((width-p.Width)/2, head+margin)
	return origin, image.Pt(width, origin.Y+p.Height+margin)
}

// drawTintedPiece draws the pixels of mask m from solved into dst shifted by
// off, blended with tint: lightly inside, strongly in a band along the
// outline.
func drawTintedPiece(dst, solved *image.RGBA, m *image.Alpha, off image.Point, tint [3]uint8) {
	drawPiece(dst, solved, m, off, false)
	b := m.Rect.Intersect(solved.Rect)
	band := max(2, min(b.Dx(), b.Dy())/16)
	inside := func(x, y int) bool {
		return image.Pt(x, y).In(m.Rect) && m.Pix[m.PixOffset(x, y)] != 0
	}
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X; x++ {
			if !inside(x, y) {
				continue
			}
			a := uint8(tintAlpha)
			if !inside(x-band, y) || !inside(x+band, y) || !inside(x, y-band) || !inside(x, y+band) {
				a = tintEdgeAlpha
			}
			blend(dst, x+off.X, y+off.Y, tint, a)
		}
	}
}

// strokeBlend outlines r with a one-pixel line of colour c at opacity a.
func strokeBlend(dst *image.RGBA, r image.Rectangle, c [3]uint8, a uint8) {
	for x := r.Min.X; x < r.Max.X; x++ {
		blend(dst, x, r.Min.Y, c, a)
		blend(dst, x, r.Max.Y-1, c, a)
	}
	for y := r.Min.Y + 1; y < r.Max.Y-1; y++ {
		blend(dst, r.Min.X, y, c, a)
		blend(dst, r.Max.X-1, y, c, a)
	}
}

// Assemble draws an answer as a plain picture, the way a generative model's
// output would look: every placed piece's pixels in its predicted cell (tabs
// and all when shaped), no tint, labels or marks; empty cells show the sheet
// background. pred[k] is piece k's predicted cell index or negative. The
// image has the solved image's size.
func Assemble(p *puzzle.Puzzle, solved *image.RGBA, pred []int, shaped bool) *image.RGBA {
	n := p.N
	img := image.NewRGBA(solved.Rect)
	fillRGB(img, SheetBackground)
	for k := len(pred) - 1; k >= 0; k-- { // lowest ID on top in a collision
		c := pred[k]
		if c < 0 || c >= n*n {
			continue
		}
		t := p.CellOf[k]
		off := image.Pt((c%n-t.Col)*p.PieceW, (c/n-t.Row)*p.PieceH)
		drawPiece(img, solved, PieceMask(p, t, shaped), off, false)
	}
	return img
}
