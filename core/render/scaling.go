package render

import (
	"image"
	"image/color"
	"math"
	"slices"
	"strconv"

	"github.com/fogleman/gg"
)

// The scaling curve (a metric against the grid, a line per model ×
// condition) and the difference heatmap (shape minus rect, diverging around
// 0), from plain numbers: docs/analysis.md §1–2.

// ScalingChart is one metric at a few grids: X are the category labels
// ("4×4", …), equally spaced; each series has a value and an interval per
// category (NaN: no point there).
type ScalingChart struct {
	Title, Subtitle string
	YLabel          string
	X               []string
	Series          []ScalingSeries
	// Baseline per category (NaN: none), drawn as a grey dashed line named
	// BaselineName in the legend.
	Baseline     []float64
	BaselineName string
	// YMin and YMax fix the axis; when equal it spans the data, from 0 (or
	// below, for negative values) up to a round number.
	YMin, YMax float64
}

// ScalingSeries is one line. Dotted lines get square markers, solid ones
// round markers, so two series of one colour stay apart in grey print too.
type ScalingSeries struct {
	Name      string
	Colour    color.RGBA
	Dotted    bool
	Y, Lo, Hi []float64
}

// SeriesColour is the i-th colour of a qualitative palette (Okabe & Ito's
// colour-blind-safe set without its yellow, which is too light on white).
func SeriesColour(i int) color.RGBA {
	p := [...]color.RGBA{
		{0, 114, 178, 255},   // blue
		{213, 94, 0, 255},    // vermillion
		{0, 158, 115, 255},   // bluish green
		{204, 121, 167, 255}, // reddish purple
		{230, 159, 0, 255},   // orange
		{86, 180, 233, 255},  // sky blue
		{60, 60, 60, 255},    // near black
	}
	return p[((i%len(p))+len(p))%len(p)]
}

// niceStep is a round tick step (1, 2, 2.5 or 5 × 10^k) giving about n ticks
// over span.
func niceStep(span float64, n int) float64 {
	if span <= 0 || math.IsNaN(span) || math.IsInf(span, 0) {
		return 0.25
	}
	raw := span / float64(max(n, 1))
	p := math.Pow(10, math.Floor(math.Log10(raw)))
	for _, m := range []float64{1, 2, 2.5, 5, 10} {
		if m*p >= raw {
			return m * p
		}
	}
	return 10 * p
}

// percentTick writes a fraction as a percentage with as few decimals as the
// step needs.
func percentTick(v, step float64) string {
	dec := 0
	for s := step * 100; dec < 3 && math.Abs(s-math.Round(s)) > 1e-9; s *= 10 {
		dec++
	}
	return strconv.FormatFloat(v*100, 'f', dec, 64) + "%"
}

// scalingRange is the y axis: the fixed range, or 0 (or below) to a round
// number above every value, interval and baseline (at most 1 when they are).
func (c ScalingChart) scalingRange() (lo, hi, step float64) {
	if c.YMax > c.YMin {
		return c.YMin, c.YMax, niceStep(c.YMax-c.YMin, 5)
	}
	lo, hi = 0, 0
	see := func(v float64) {
		if !math.IsNaN(v) && !math.IsInf(v, 0) {
			lo, hi = min(lo, v), max(hi, v)
		}
	}
	for _, s := range c.Series {
		for _, vs := range [][]float64{s.Y, s.Lo, s.Hi} {
			for _, v := range vs {
				see(v)
			}
		}
	}
	for _, v := range c.Baseline {
		see(v)
	}
	if hi-lo < 1e-9 {
		hi = lo + 0.01
	}
	step = niceStep(hi-lo, 5)
	top := math.Ceil(hi/step-1e-9) * step
	if hi <= 1 { // rates: no axis above 100 %
		top = min(top, 1)
	}
	return math.Floor(lo/step+1e-9) * step, top, step
}

// DrawScalingChart draws c into a w×h picture: the plot on the left with the
// categories along x and the y ticks in percent, intervals as translucent
// bands with whiskers, and the legend on the right. Series are spread a
// little along x so coinciding whiskers stay apart.
func DrawScalingChart(c ScalingChart, w, h int, st PlotStyle) *image.RGBA {
	fs := faces{}
	img, top := chartText(w, h, c.Title, c.Subtitle, st, fs)
	m := st.px(10)
	labelF, smallF := fs.face(st.px(12), false), fs.face(st.px(11), false)
	if len(c.X) == 0 {
		drawText(img, labelF, m, top+lineHeight(labelF), "No data.", st.Muted)
		return img
	}
	// Legend entries and width.
	type entry struct {
		name   string
		colour color.RGBA
		dotted bool
		dashed bool // the baseline
	}
	var entries []entry
	c.Series = slices.Clone(c.Series)
	for i := range c.Series {
		c.Series[i].Colour = st.legible(c.Series[i].Colour)
	}
	for _, s := range c.Series {
		entries = append(entries, entry{name: s.Name, colour: s.Colour, dotted: s.Dotted})
	}
	if c.BaselineName != "" && len(c.Baseline) > 0 {
		entries = append(entries, entry{name: c.BaselineName, colour: st.Muted, dashed: true})
	}
	sample := st.px(30)
	legendW := 0
	for _, e := range entries {
		legendW = max(legendW, textWidth(smallF, e.name))
	}
	legendW = min(legendW, w/3) + sample + st.px(8)

	ylo, yhi, step := c.scalingRange()
	tickW := 0
	for v := ylo; v <= yhi+step/2; v += step {
		tickW = max(tickW, textWidth(smallF, percentTick(v, step)))
	}
	left := m + lineHeight(labelF) + st.px(4) + tickW + st.px(6)
	right := w - m - legendW - st.px(14)
	bottom := h - m - lineHeight(labelF) - st.px(4)
	if right-left < st.px(60) || bottom-top < st.px(40) {
		return img
	}
	plot := image.Rect(left, top, right, bottom)
	fillRect(img, plot, st.Empty)
	nx := len(c.X)
	colW := float64(plot.Dx()) / float64(nx)
	xAt := func(i int, series int) float64 {
		x := float64(plot.Min.X) + (float64(i)+0.5)*colW
		if ns := len(c.Series); ns > 1 {
			spread := min(colW*0.3, float64(st.px(5))*float64(ns-1))
			x += (float64(series)/float64(ns-1) - 0.5) * spread
		}
		return x
	}
	yAt := func(v float64) float64 {
		return float64(plot.Max.Y) - (v-ylo)/(yhi-ylo)*float64(plot.Dy())
	}
	dc := gg.NewContextForRGBA(img)
	// Grid lines and y ticks.
	dc.SetLineWidth(float64(st.px(1)))
	for v := ylo; v <= yhi+step/2; v += step {
		y := math.Round(yAt(v)) + 0.5
		dc.SetColor(st.Background)
		dc.DrawLine(float64(plot.Min.X), y, float64(plot.Max.X), y)
		dc.Stroke()
		s := percentTick(v, step)
		drawTextCentred(img, smallF, plot.Min.X-st.px(6)-textWidth(smallF, s)/2, int(y), s, st.Muted)
	}
	if ylo < 0 && yhi > 0 { // the zero line stands out when the axis goes below it
		dc.SetColor(st.Frame)
		dc.DrawLine(float64(plot.Min.X), yAt(0), float64(plot.Max.X), yAt(0))
		dc.Stroke()
	}
	for i, x := range c.X {
		s := fitText(smallF, x, int(colW)-2)
		cx := int(float64(plot.Min.X) + (float64(i)+0.5)*colW)
		drawTextCentred(img, smallF, cx, plot.Max.Y+st.px(4)+lineHeight(smallF)/2, s, st.Ink)
	}
	dc.SetColor(st.Background)
	dc.SetLineWidth(float64(st.px(1)))
	for i := 1; i < nx; i++ {
		x := float64(plot.Min.X) + float64(i)*colW
		dc.DrawLine(x, float64(plot.Min.Y), x, float64(plot.Max.Y))
		dc.Stroke()
	}
	ok := func(vs []float64, i int) bool {
		return i < len(vs) && !math.IsNaN(vs[i]) && !math.IsInf(vs[i], 0)
	}
	dc.DrawRectangle(float64(plot.Min.X), float64(plot.Min.Y), float64(plot.Dx()), float64(plot.Dy()))
	dc.Clip()
	// Bands: one translucent polygon per run of points with intervals.
	for si, s := range c.Series {
		for i := 0; i < nx; {
			if !ok(s.Lo, i) || !ok(s.Hi, i) {
				i++
				continue
			}
			j := i
			for j+1 < nx && ok(s.Lo, j+1) && ok(s.Hi, j+1) {
				j++
			}
			if j > i {
				for k := i; k <= j; k++ {
					dc.LineTo(xAt(k, si), yAt(s.Hi[k]))
				}
				for k := j; k >= i; k-- {
					dc.LineTo(xAt(k, si), yAt(s.Lo[k]))
				}
				dc.ClosePath()
				dc.SetRGBA255(int(s.Colour.R), int(s.Colour.G), int(s.Colour.B), 40)
				dc.Fill()
			}
			i = j + 1
		}
	}
	// Baseline.
	dc.SetColor(st.Muted)
	dc.SetLineWidth(float64(st.px(1.5)))
	dc.SetDash(float64(st.px(6)), float64(st.px(4)))
	strokeRuns(dc, nx, func(i int) bool { return ok(c.Baseline, i) }, func(i int) (float64, float64) {
		return float64(plot.Min.X) + (float64(i)+0.5)*colW, yAt(c.Baseline[i])
	})
	if nx == 1 && ok(c.Baseline, 0) {
		dc.DrawLine(float64(plot.Min.X)+colW*0.15, yAt(c.Baseline[0]), float64(plot.Min.X)+colW*0.85, yAt(c.Baseline[0]))
		dc.Stroke()
	}
	// Lines, whiskers and markers.
	r := float64(st.px(3.5))
	for si, s := range c.Series {
		dc.SetColor(s.Colour)
		dc.SetLineWidth(float64(st.px(2)))
		setSeriesDash(dc, s.Dotted, st)
		strokeRuns(dc, nx, func(i int) bool { return ok(s.Y, i) }, func(i int) (float64, float64) { return xAt(i, si), yAt(s.Y[i]) })
		dc.SetDash()
		dc.SetLineWidth(float64(st.px(1.2)))
		for i := range nx {
			if ok(s.Lo, i) && ok(s.Hi, i) {
				x := xAt(i, si)
				dc.DrawLine(x, yAt(s.Lo[i]), x, yAt(s.Hi[i]))
				dc.Stroke()
			}
		}
	}
	dc.ResetClip()
	// Markers over the frame, so a value at the axis' end shows whole.
	for si, s := range c.Series {
		for i := range nx {
			if ok(s.Y, i) && s.Y[i] >= ylo && s.Y[i] <= yhi {
				drawMarker(dc, xAt(i, si), yAt(s.Y[i]), r, s.Dotted, s.Colour, st.Background)
			}
		}
	}
	strokeRect(img, plot.Inset(-1), 1, st.Frame)
	drawVerticalText(img, labelF, m, (plot.Min.Y+plot.Max.Y)/2, fitText(labelF, c.YLabel, plot.Dy()), st.Ink)

	// Legend, right of the plot, top-aligned.
	lx := plot.Max.X + st.px(14)
	ly := plot.Min.Y + st.px(2)
	rowH := max(lineHeight(smallF), st.px(14)) + st.px(4)
	for k, e := range entries {
		if ly+rowH > h-m && k < len(entries)-1 {
			drawText(img, smallF, lx, ly+lineHeight(smallF), fitText(smallF, "+"+strconv.Itoa(len(entries)-k)+" more", legendW), st.Muted)
			break
		}
		cy := float64(ly + rowH/2)
		dc.SetColor(e.colour)
		dc.SetLineWidth(float64(st.px(2)))
		switch {
		case e.dashed:
			dc.SetLineWidth(float64(st.px(1.5)))
			dc.SetDash(float64(st.px(6)), float64(st.px(4)))
		default:
			setSeriesDash(dc, e.dotted, st)
		}
		dc.DrawLine(float64(lx), cy, float64(lx+sample), cy)
		dc.Stroke()
		dc.SetDash()
		if !e.dashed {
			drawMarker(dc, float64(lx+sample/2), cy, r, e.dotted, e.colour, st.Background)
		}
		s := fitText(smallF, e.name, legendW-sample-st.px(8))
		drawTextCentred(img, smallF, lx+sample+st.px(6)+textWidth(smallF, s)/2, int(cy), s, st.Ink)
		ly += rowH
	}
	return img
}

func setSeriesDash(dc *gg.Context, dotted bool, st PlotStyle) {
	if dotted {
		dc.SetDash(float64(st.px(2)), float64(st.px(3)))
	} else {
		dc.SetDash()
	}
}

// strokeRuns strokes the polyline through consecutive defined points.
func strokeRuns(dc *gg.Context, n int, defined func(int) bool, at func(int) (float64, float64)) {
	for i := 0; i < n; i++ {
		if !defined(i) {
			continue
		}
		j := i
		for j+1 < n && defined(j+1) {
			j++
		}
		if j > i {
			for k := i; k <= j; k++ {
				dc.LineTo(at(k))
			}
			dc.Stroke()
		}
		i = j
	}
}

// drawMarker draws a round (square when square) marker with a thin outline
// of bg, so overlapping markers stay separate.
func drawMarker(dc *gg.Context, x, y, r float64, square bool, c, bg color.RGBA) {
	if square {
		dc.DrawRectangle(x-r, y-r, 2*r, 2*r)
	} else {
		dc.DrawCircle(x, y, r)
	}
	dc.SetColor(c)
	dc.FillPreserve()
	dc.SetColor(bg)
	dc.SetLineWidth(1)
	dc.Stroke()
}

// DiffChart is a table of signed differences (fractions, e.g. shape − rect),
// coloured on a diverging scale centred on 0: blue above, red below, white
// at 0. Columns may be grouped under a shared heading (ColGroups, one label
// per column; runs of one label are merged).
type DiffChart struct {
	Title, Subtitle string
	Rows            []string
	Cols, ColGroups []string
	Values          [][]float64 // [row][col]
	Defined         [][]bool    // false: no data (grey, "–")
	Notes           [][]string  // a second line per cell where it fits, e.g. "p=0.002"
	// Range is the scale's ±extent; 0 takes the largest |value| rounded up
	// to a round number.
	Range float64
}

// Diverging maps t in [−1, 1] to ColorBrewer's RdBu scale (red −1, white 0,
// blue +1), interpolated in linear light between its 11 colours.
func Diverging(t float64) color.RGBA {
	stops := [...][3]uint8{
		{103, 0, 31}, {178, 24, 43}, {214, 96, 77}, {244, 165, 130}, {253, 219, 199}, {247, 247, 247},
		{209, 229, 240}, {146, 197, 222}, {67, 147, 195}, {33, 102, 172}, {5, 48, 97},
	}
	if math.IsNaN(t) {
		t = 0
	}
	x := (min(1, max(-1, t)) + 1) / 2 * float64(len(stops)-1)
	i := min(int(x), len(stops)-2)
	f := x - float64(i)
	var out [3]uint8
	for k := range out {
		a, b := lin(stops[i][k]), lin(stops[i+1][k])
		out[k] = srgb(a + f*(b-a))
	}
	return color.RGBA{out[0], out[1], out[2], 255}
}

// srgb encodes a linear intensity as an sRGB channel.
func srgb(v float64) uint8 {
	v = min(1, max(0, v))
	if v <= 0.0031308 {
		v *= 12.92
	} else {
		v = 1.055*math.Pow(v, 1/2.4) - 0.055
	}
	return uint8(math.Round(v * 255))
}

// signedPP writes a difference of fractions in percentage points with a sign.
func signedPP(v float64, dec int) string {
	s := strconv.FormatFloat(v*100, 'f', dec, 64)
	if z, _ := strconv.ParseFloat(s, 64); z == 0 {
		return strconv.FormatFloat(0, 'f', dec, 64)
	}
	if s[0] != '-' {
		s = "+" + s
	}
	return s
}

// DiffChartRange is the ± extent DrawDiffChart colours c on.
func DiffChartRange(c DiffChart) float64 {
	if c.Range > 0 {
		return c.Range
	}
	biggest := 0.0
	for i, row := range c.Values {
		for j, v := range row {
			if i < len(c.Defined) && j < len(c.Defined[i]) && c.Defined[i][j] && !math.IsNaN(v) {
				biggest = max(biggest, math.Abs(v))
			}
		}
	}
	if biggest == 0 {
		return 0.01
	}
	step := niceStep(biggest, 2)
	return min(1, math.Ceil(biggest/step-1e-9)*step)
}

// DiffChartLayout is where DrawDiffChart puts the cells in a w×h picture:
// cell (i, j) covers Origin + (j·CellW, i·CellH) to one cell further. A GUI
// maps the pointer to cells with it.
type DiffChartLayout struct {
	Origin       image.Point
	CellW, CellH int
}

func diffChartLayout(c DiffChart, w, h int, st PlotStyle, fs faces) (l DiffChartLayout, top int, ok bool) {
	m := st.px(10)
	labelF, smallF := fs.face(st.px(12), false), fs.face(st.px(10), false)
	_, top = chartText(1, 1, c.Title, c.Subtitle, st, fs)
	if len(c.Rows) == 0 || len(c.Cols) == 0 {
		return l, top, false
	}
	rowW := 0
	for _, r := range c.Rows {
		rowW = max(rowW, textWidth(labelF, r))
	}
	rowW = min(rowW+st.px(8), w*2/5)
	headH := lineHeight(labelF) + st.px(4)
	if len(c.ColGroups) > 0 {
		headH += lineHeight(labelF) + st.px(4)
	}
	legendW := st.px(12) + st.px(6) + textWidth(smallF, "+100 pp")
	x0, y0 := m+rowW, top+headH
	gridW, gridH := w-x0-m-legendW-st.px(14), h-y0-m
	if gridW < 10 || gridH < 10 {
		return l, top, false
	}
	cw := gridW / len(c.Cols)
	ch := min(gridH/len(c.Rows), st.px(64), max(cw*3/4, st.px(26)))
	if cw < 2 || ch < 2 {
		return l, top, false
	}
	return DiffChartLayout{Origin: image.Pt(x0, y0), CellW: cw, CellH: ch}, top, true
}

// LayoutDiffChart is DrawDiffChart's cell layout; ok is false when nothing
// fits.
func LayoutDiffChart(c DiffChart, w, h int, st PlotStyle) (DiffChartLayout, bool) {
	l, _, ok := diffChartLayout(c, w, h, st, faces{})
	return l, ok
}

// DrawDiffChart draws c into a w×h picture: row labels on the left, column
// (and group) labels on top, each cell coloured and labelled in percentage
// points with its note beneath, and the legend from −Range to +Range on the
// right.
func DrawDiffChart(c DiffChart, w, h int, st PlotStyle) *image.RGBA {
	fs := faces{}
	img, _ := chartText(w, h, c.Title, c.Subtitle, st, fs)
	m := st.px(10)
	labelF, valF, smallF := fs.face(st.px(12), false), fs.face(st.px(13), true), fs.face(st.px(10), false)
	l, top, ok := diffChartLayout(c, w, h, st, fs)
	if !ok {
		if len(c.Rows) == 0 || len(c.Cols) == 0 {
			drawText(img, labelF, m, top+lineHeight(labelF), "No data.", st.Muted)
		}
		return img
	}
	x0, y0, cw, ch := l.Origin.X, l.Origin.Y, l.CellW, l.CellH
	rng := DiffChartRange(c)
	// Headings: groups (merged runs), then columns.
	for j := 0; j < len(c.ColGroups) && j < len(c.Cols); {
		k := j
		for k+1 < len(c.Cols) && k+1 < len(c.ColGroups) && c.ColGroups[k+1] == c.ColGroups[j] {
			k++
		}
		span := (k - j + 1) * cw
		s := fitText(labelF, c.ColGroups[j], span-2)
		y := y0 - lineHeight(labelF) - st.px(10)
		drawText(img, labelF, x0+j*cw+span/2-textWidth(labelF, s)/2, y, s, st.Ink)
		fillRect(img, image.Rect(x0+j*cw+st.px(3), y+st.px(3), x0+(k+1)*cw-st.px(3), y+st.px(3)+1), st.Frame)
		j = k + 1
	}
	for j, name := range c.Cols {
		s := fitText(labelF, name, cw-2)
		drawText(img, labelF, x0+j*cw+cw/2-textWidth(labelF, s)/2, y0-st.px(6), s, st.Ink)
	}
	for i, name := range c.Rows {
		s := fitText(labelF, name, x0-m-st.px(8))
		drawTextCentred(img, labelF, m+textWidth(labelF, s)/2, y0+i*ch+ch/2, s, st.Ink)
		for j := range c.Cols {
			r := image.Rect(x0+j*cw+1, y0+i*ch+1, x0+(j+1)*cw, y0+(i+1)*ch)
			if !(i < len(c.Defined) && j < len(c.Defined[i]) && c.Defined[i][j]) {
				fillRect(img, r, st.Empty)
				drawTextCentred(img, valF, (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2, "–", st.Muted)
				continue
			}
			v := c.Values[i][j]
			col := Diverging(v / rng)
			fillRect(img, r, col)
			label := signedPP(v, 1)
			if textWidth(valF, label) >= r.Dx()-2 {
				label = signedPP(v, 0)
			}
			if textWidth(valF, label) >= r.Dx()-2 || r.Dy() < lineHeight(valF)*3/4 {
				continue
			}
			note := ""
			if i < len(c.Notes) && j < len(c.Notes[i]) {
				note = c.Notes[i][j]
			}
			cx, cy := (r.Min.X+r.Max.X)/2, (r.Min.Y+r.Max.Y)/2
			if note != "" && r.Dy() >= lineHeight(valF)+lineHeight(smallF)+st.px(2) && textWidth(smallF, note) < r.Dx()-2 {
				drawTextCentred(img, valF, cx, cy-lineHeight(smallF)/2, label, inkOn(col))
				drawTextCentred(img, smallF, cx, cy+lineHeight(valF)/2, note, inkOn(col))
			} else {
				drawTextCentred(img, valF, cx, cy, label, inkOn(col))
			}
		}
	}
	gridR := image.Rect(x0, y0, x0+cw*len(c.Cols)+1, y0+ch*len(c.Rows)+1)
	strokeRect(img, gridR.Inset(-1), 1, st.Frame)

	// Legend: +Range at the top, −Range at the bottom, ticks in pp.
	lx := gridR.Max.X + st.px(14)
	ly0, ly1 := y0, y0+max(min(ch*len(c.Rows), st.px(240)), min(st.px(120), h-y0-m))
	lw := st.px(12)
	for y := ly0; y < ly1; y++ {
		t := 1 - 2*float64(y-ly0)/float64(max(1, ly1-ly0-1))
		fillRect(img, image.Rect(lx, y, lx+lw, y+1), Diverging(t))
	}
	strokeRect(img, image.Rect(lx-1, ly0-1, lx+lw+1, ly1+1), 1, st.Frame)
	for _, t := range []float64{1, 0.5, 0, -0.5, -1} {
		y := ly0 + int(math.Round((1-t)/2*float64(ly1-ly0-1)))
		fillRect(img, image.Rect(lx+lw, y, lx+lw+st.px(4), y+1), st.Ink)
		s := signedPP(t*rng, 0) + " pp"
		if math.Abs(math.Round(t*rng*100)-t*rng*100) > 1e-9 {
			s = signedPP(t*rng, 1) + " pp"
		}
		drawTextCentred(img, smallF, lx+lw+st.px(6)+textWidth(smallF, s)/2, y, s, st.Ink)
	}
	return img
}
