package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"slices"
	"strconv"

	"github.com/fogleman/gg"
	"golang.org/x/image/font"
)

// The pictures of the ViGoR agreement study: a grid of rates (accuracy by
// subdomain × dimension), a confusion matrix of counts and a scatter of
// judge against human means. They take plain numbers, so this package does
// not depend on the statistics that produce them, and draw at any size a
// window asks for: w×h device pixels, text scaled by PlotStyle.Scale.

// PlotStyle colours and scales a chart.
type PlotStyle struct {
	Background, Ink, Muted, Frame, Empty color.RGBA
	// Scale is device pixels per logical pixel (the window's scale); text
	// and strokes grow with it.
	Scale float64
}

// LightPlotStyle is for light backgrounds and files.
func LightPlotStyle(scale float64) PlotStyle {
	return PlotStyle{Background: heatBackground, Ink: heatInk, Muted: heatMuted, Frame: heatFrame,
		Empty: color.RGBA{224, 224, 224, 0xFF}, Scale: plotScale(scale)}
}

// DarkPlotStyle is for dark backgrounds.
func DarkPlotStyle(scale float64) PlotStyle {
	return PlotStyle{Background: color.RGBA{30, 30, 32, 0xFF}, Ink: color.RGBA{236, 236, 236, 0xFF},
		Muted: color.RGBA{170, 170, 170, 0xFF}, Frame: color.RGBA{120, 120, 120, 0xFF},
		Empty: color.RGBA{64, 64, 66, 0xFF}, Scale: plotScale(scale)}
}

func plotScale(s float64) float64 {
	if s <= 0 || math.IsNaN(s) || math.IsInf(s, 0) {
		return 1
	}
	return min(s, 8)
}

// px scales a logical size to device pixels.
func (st PlotStyle) px(v float64) int { return max(1, int(math.Round(v*st.Scale))) }

// GridChart is a table of rates in [0, 1], each cell coloured on the
// viridis scale and labelled as a percentage.
type GridChart struct {
	Title, Subtitle string
	Rows, Cols      []string
	Values          [][]float64 // [row][col]
	Defined         [][]bool    // false: no data (drawn grey, "–")
	Counts          [][]int     // what each rate rests on, shown as "n=…" where it fits
}

// MatrixChart is a square matrix of counts: rows one rater's classes,
// columns another's. Cells are shaded by their share of the row.
type MatrixChart struct {
	Title, Subtitle    string
	RowTitle, ColTitle string
	Labels             []string
	Counts             [][]int
}

// ScatterChart plots points in the unit square with the diagonal y = x.
type ScatterChart struct {
	Title, Subtitle string
	XLabel, YLabel  string
	Series          []ScatterSeries
}

// ScatterSeries is one colour of points. Jitter, if positive, moves each
// point by up to that much in x and y (deterministically), so points that
// coincide stay countable.
type ScatterSeries struct {
	Name   string
	Colour color.RGBA
	Points [][2]float64
	Jitter float64
}

// chartText sets up a picture with its title lines; it returns the picture,
// the faces and the y where the body starts.
func chartText(w, h int, title, subtitle string, st PlotStyle, fs faces) (*image.RGBA, int) {
	img := image.NewRGBA(image.Rect(0, 0, max(w, 1), max(h, 1)))
	fillRect(img, img.Rect, st.Background)
	m := st.px(10)
	y := m
	if title != "" {
		f := fs.face(st.px(15), true)
		y += f.Metrics().Ascent.Ceil()
		drawText(img, f, m, y, fitText(f, title, w-2*m), st.Ink)
		y += f.Metrics().Descent.Ceil() + st.px(4)
	}
	if subtitle != "" {
		f := fs.face(st.px(12), false)
		y += f.Metrics().Ascent.Ceil()
		drawText(img, f, m, y, fitText(f, subtitle, w-2*m), st.Muted)
		y += f.Metrics().Descent.Ceil() + st.px(6)
	}
	return img, y + st.px(4)
}

// fitText shortens s with an ellipsis until it is at most w pixels wide.
func fitText(f font.Face, s string, w int) string {
	if textWidth(f, s) <= w {
		return s
	}
	r := []rune(s)
	for len(r) > 0 && textWidth(f, string(r)+"…") > w {
		r = r[:len(r)-1]
	}
	if len(r) == 0 {
		return ""
	}
	return string(r) + "…"
}

func lineHeight(f font.Face) int { return f.Metrics().Height.Ceil() }

// DrawGridChart draws c into a w×h picture: row labels on the left, column
// labels on top, a legend from 0 % to 100 % on the right.
func DrawGridChart(c GridChart, w, h int, st PlotStyle) *image.RGBA {
	fs := faces{}
	img, top := chartText(w, h, c.Title, c.Subtitle, st, fs)
	m := st.px(10)
	labelF, valF, smallF := fs.face(st.px(12), false), fs.face(st.px(13), true), fs.face(st.px(10), false)
	if len(c.Rows) == 0 || len(c.Cols) == 0 {
		drawText(img, labelF, m, top+lineHeight(labelF), "No data.", st.Muted)
		return img
	}
	legendW := st.px(12) + st.px(6) + textWidth(smallF, "100%")
	rowW := 0
	for _, r := range c.Rows {
		rowW = max(rowW, textWidth(labelF, r))
	}
	rowW = min(rowW+st.px(8), w*2/5)
	x0 := m + rowW
	y0 := top + lineHeight(labelF) + st.px(4)
	gridW := w - x0 - m - legendW - st.px(14)
	gridH := h - y0 - m
	if gridW < 10 || gridH < 10 {
		return img
	}
	cw := gridW / len(c.Cols)
	ch := min(gridH/len(c.Rows), st.px(72), max(cw, st.px(22)))
	if cw < 2 || ch < 2 {
		return img
	}
	for j, name := range c.Cols {
		s := fitText(labelF, name, cw-2)
		drawText(img, labelF, x0+j*cw+cw/2-textWidth(labelF, s)/2, y0-st.px(6), s, st.Ink)
	}
	for i, name := range c.Rows {
		yc := y0 + i*ch + ch/2
		s := fitText(labelF, name, rowW-st.px(8))
		drawTextCentred(img, labelF, m+textWidth(labelF, s)/2, yc, s, st.Ink)
		for j := range c.Cols {
			r := image.Rect(x0+j*cw+1, y0+i*ch+1, x0+(j+1)*cw, y0+(i+1)*ch)
			ok := i < len(c.Defined) && j < len(c.Defined[i]) && c.Defined[i][j]
			if !ok {
				fillRect(img, r, st.Empty)
				drawTextCentred(img, valF, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, "–", st.Muted)
				continue
			}
			v := c.Values[i][j]
			col := Viridis(v)
			fillRect(img, r, col)
			label := strconv.Itoa(int(math.Round(100*v))) + "%"
			count := ""
			if i < len(c.Counts) && j < len(c.Counts[i]) {
				count = "n=" + strconv.Itoa(c.Counts[i][j])
			}
			two := count != "" && r.Dy() >= lineHeight(valF)+lineHeight(smallF)+st.px(2) && textWidth(smallF, count) < r.Dx()-2
			if textWidth(valF, label) >= r.Dx()-2 || r.Dy() < lineHeight(valF)*3/4 {
				continue
			}
			if two {
				cy := (r.Min.Y + r.Max.Y) / 2
				drawTextCentred(img, valF, (r.Min.X+r.Max.X)/2, cy-lineHeight(smallF)/2, label, inkOn(col))
				drawTextCentred(img, smallF, (r.Min.X+r.Max.X)/2, cy+lineHeight(valF)/2, count, inkOn(col))
			} else {
				drawTextCentred(img, valF, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, label, inkOn(col))
			}
		}
	}
	gridR := image.Rect(x0, y0, x0+cw*len(c.Cols)+1, y0+ch*len(c.Rows)+1)
	strokeRect(img, gridR.Inset(-1), 1, st.Frame)

	// Legend.
	lx := gridR.Max.X + st.px(14)
	ly0, ly1 := y0, y0+min(ch*len(c.Rows), st.px(220))
	if ly1-ly0 >= st.px(40) {
		lw := st.px(12)
		for y := ly0; y < ly1; y++ {
			v := float64(ly1-1-y) / float64(max(1, ly1-ly0-1))
			fillRect(img, image.Rect(lx, y, lx+lw, y+1), Viridis(v))
		}
		strokeRect(img, image.Rect(lx-1, ly0-1, lx+lw+1, ly1+1), 1, st.Frame)
		for _, t := range []float64{0, 0.5, 1} {
			y := ly1 - 1 - int(math.Round(t*float64(ly1-ly0-1)))
			drawTextCentred(img, smallF, lx+lw+st.px(4)+textWidth(smallF, "100%")/2, y, strconv.Itoa(int(100*t))+"%", st.Ink)
		}
	}
	return img
}

// DrawMatrixChart draws c into a w×h picture.
func DrawMatrixChart(c MatrixChart, w, h int, st PlotStyle) *image.RGBA {
	fs := faces{}
	img, top := chartText(w, h, c.Title, c.Subtitle, st, fs)
	m := st.px(10)
	labelF, valF, smallF := fs.face(st.px(12), false), fs.face(st.px(14), true), fs.face(st.px(10), false)
	n := len(c.Labels)
	if n == 0 {
		return img
	}
	rowW := textWidth(labelF, c.RowTitle)
	for _, l := range c.Labels {
		rowW = max(rowW, textWidth(labelF, l))
	}
	rowW = min(rowW+st.px(10), w/3)
	x0 := m + rowW
	y0 := top + 2*lineHeight(labelF) + st.px(6)
	side := min(w-x0-m, h-y0-m)
	if side < n*4 {
		return img
	}
	cell := side / n
	drawText(img, labelF, x0, top+lineHeight(labelF)-st.px(2), fitText(labelF, c.ColTitle, w-x0-m), st.Muted)
	drawText(img, labelF, m, y0-st.px(6), fitText(labelF, c.RowTitle, rowW-st.px(4)), st.Muted)
	for j, l := range c.Labels {
		s := fitText(labelF, l, cell-2)
		drawText(img, labelF, x0+j*cell+cell/2-textWidth(labelF, s)/2, y0-st.px(6), s, st.Ink)
	}
	for i := range n {
		total := 0
		for j := range n {
			total += c.Counts[i][j]
		}
		s := fitText(labelF, c.Labels[i], rowW-st.px(10))
		drawTextCentred(img, labelF, m+textWidth(labelF, s)/2, y0+i*cell+cell/2, s, st.Ink)
		for j := range n {
			r := image.Rect(x0+j*cell+1, y0+i*cell+1, x0+(j+1)*cell, y0+(i+1)*cell)
			count := c.Counts[i][j]
			col := st.Empty
			share := ""
			if total > 0 {
				col = Viridis(float64(count) / float64(total))
				share = strconv.Itoa(int(math.Round(100*float64(count)/float64(total)))) + "% of row"
			}
			fillRect(img, r, col)
			if i == j {
				strokeRect(img, r, max(1, st.px(2)), st.Ink)
			}
			cs := strconv.Itoa(count)
			cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
			if share != "" && r.Dy() >= lineHeight(valF)+lineHeight(smallF) && textWidth(smallF, share) < r.Dx()-4 {
				drawTextCentred(img, valF, cx, cy-lineHeight(smallF)/2, cs, inkOn(col))
				drawTextCentred(img, smallF, cx, cy+lineHeight(valF)/2, share, inkOn(col))
			} else if textWidth(valF, cs) < r.Dx()-2 {
				drawTextCentred(img, valF, cx, cy, cs, inkOn(col))
			}
		}
	}
	strokeRect(img, image.Rect(x0-1, y0-1, x0+n*cell+2, y0+n*cell+2), 1, st.Frame)
	return img
}

// DrawScatterChart draws c into a w×h picture: a square plot of [0, 1]²
// with ticks, the diagonal and a legend.
func DrawScatterChart(c ScatterChart, w, h int, st PlotStyle) *image.RGBA {
	c.Series = slices.Clone(c.Series)
	for i := range c.Series {
		c.Series[i].Colour = st.legible(c.Series[i].Colour)
	}
	fs := faces{}
	img, top := chartText(w, h, c.Title, c.Subtitle, st, fs)
	m := st.px(10)
	labelF, smallF := fs.face(st.px(12), false), fs.face(st.px(10), false)
	tickW := textWidth(smallF, "0.75") + st.px(6)
	left := m + lineHeight(labelF) + tickW
	bottom := h - m - lineHeight(labelF) - lineHeight(smallF) - st.px(4)
	side := min(w-left-m, bottom-top)
	if side < st.px(40) {
		return img
	}
	x0, y1 := left, top+side // plot box: x0..x0+side, top..y1
	px := func(x float64) float64 { return float64(x0) + x*float64(side) }
	py := func(y float64) float64 { return float64(y1) - y*float64(side) }

	dc := gg.NewContextForRGBA(img)
	dc.SetColor(st.Empty)
	dc.DrawRectangle(float64(x0), float64(top), float64(side), float64(side))
	dc.Fill()
	for _, t := range []float64{0.25, 0.5, 0.75} {
		dc.SetColor(st.Background)
		dc.SetLineWidth(float64(st.px(1)))
		dc.DrawLine(px(t), py(0), px(t), py(1))
		dc.DrawLine(px(0), py(t), px(1), py(t))
		dc.Stroke()
	}
	dc.SetColor(st.Muted)
	dc.SetLineWidth(float64(st.px(1.5)))
	dc.SetDash(float64(st.px(5)), float64(st.px(4)))
	dc.DrawLine(px(0), py(0), px(1), py(1))
	dc.Stroke()
	dc.SetDash()
	r := float64(st.px(3.5))
	for _, s := range c.Series {
		for k, p := range s.Points {
			x, y := p[0], p[1]
			if s.Jitter > 0 {
				jx, jy := jitter(k)
				x += s.Jitter * jx
				y += s.Jitter * jy
			}
			x, y = min(max(x, -0.02), 1.02), min(max(y, -0.02), 1.02)
			dc.SetRGBA255(int(s.Colour.R), int(s.Colour.G), int(s.Colour.B), 150)
			dc.DrawCircle(px(x), py(y), r)
			dc.Fill()
		}
	}
	strokeRect(img, image.Rect(x0-1, top-1, x0+side+1, y1+1), 1, st.Frame)

	// Ticks and axis labels.
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		s := strconv.FormatFloat(t, 'f', -1, 64)
		drawTextCentred(img, smallF, int(px(t)), y1+st.px(4)+lineHeight(smallF)/2, s, st.Muted)
		drawTextCentred(img, smallF, x0-st.px(4)-textWidth(smallF, s)/2, int(py(t)), s, st.Muted)
	}
	xl := fitText(labelF, c.XLabel, side)
	drawText(img, labelF, x0+side/2-textWidth(labelF, xl)/2, h-m, xl, st.Ink)
	drawVerticalText(img, labelF, m, top+side/2, fitText(labelF, c.YLabel, side), st.Ink)

	// Legend, top left inside the plot, on a backdrop so points under it
	// do not hide it.
	sw, gap, pad := st.px(10), st.px(6), st.px(4)
	var named []ScatterSeries
	textW := 0
	for _, s := range c.Series {
		if s.Name != "" {
			named = append(named, s)
			textW = max(textW, textWidth(smallF, s.Name))
		}
	}
	if len(named) > 0 {
		lx, ly := x0+st.px(8), top+st.px(6)
		boxW := min(sw+st.px(4)+textW, side-2*st.px(8))
		back := image.Rect(lx-pad, ly-pad, lx+boxW+pad, ly+len(named)*(sw+gap)-gap+pad)
		fillRect(img, back.Intersect(image.Rect(x0, top, x0+side, y1)), st.Background)
		for _, s := range named {
			fillRect(img, image.Rect(lx, ly, lx+sw, ly+sw), s.Colour)
			name := fitText(smallF, s.Name, boxW-sw-st.px(4))
			drawTextCentred(img, smallF, lx+sw+st.px(4)+textWidth(smallF, name)/2, ly+sw/2, name, st.Ink)
			ly += sw + gap
		}
	}
	return img
}

// jitter gives point k a fixed offset in [-1, 1]² (a hash, no randomness).
func jitter(k int) (float64, float64) {
	x := uint64(k)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	x ^= x >> 31
	x *= 0xBF58476D1CE4E5B9
	x ^= x >> 29
	a := float64(x&0xFFFF)/0xFFFF*2 - 1
	b := float64((x>>16)&0xFFFF)/0xFFFF*2 - 1
	return a, b
}

// drawVerticalText draws s rotated a quarter turn anticlockwise, centred on
// y, its baseline's left at x + ascent.
func drawVerticalText(dst *image.RGBA, f font.Face, x, cy int, s string, c color.RGBA) {
	tw, th := textWidth(f, s), lineHeight(f)
	if tw == 0 {
		return
	}
	tmp := image.NewRGBA(image.Rect(0, 0, tw, th))
	drawText(tmp, f, 0, f.Metrics().Ascent.Ceil(), s, c)
	for ty := 0; ty < th; ty++ {
		for tx := 0; tx < tw; tx++ {
			a := tmp.Pix[ty*tmp.Stride+4*tx+3]
			if a == 0 {
				continue
			}
			dx, dy := x+ty, cy+tw/2-tx
			if !(image.Point{dx, dy}.In(dst.Rect)) {
				continue
			}
			blend(dst, dx, dy, [3]uint8{c.R, c.G, c.B}, a)
		}
	}
}

// ChartSheet tiles charts (all the same size is best) into one picture,
// cols to a row, separated by gap pixels of bg: several charts in one file.
func ChartSheet(charts []*image.RGBA, cols, gap int, bg color.RGBA) *image.RGBA {
	cols = max(cols, 1)
	cw, ch := 1, 1
	for _, c := range charts {
		cw, ch = max(cw, c.Rect.Dx()), max(ch, c.Rect.Dy())
	}
	rows := (len(charts) + cols - 1) / cols
	out := image.NewRGBA(image.Rect(0, 0, cols*cw+(cols+1)*gap, max(rows, 1)*ch+(max(rows, 1)+1)*gap))
	fillRect(out, out.Rect, bg)
	for i, c := range charts {
		x, y := gap+(i%cols)*(cw+gap), gap+(i/cols)*(ch+gap)
		draw.Draw(out, c.Rect.Sub(c.Rect.Min).Add(image.Pt(x, y)), c, c.Rect.Min, draw.Src)
	}
	return out
}
