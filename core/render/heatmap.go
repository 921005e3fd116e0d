package render

import (
	"image"
	"image/color"
	"image/draw"
	"math"
	"strconv"
	"sync"

	"golang.org/x/image/font"
	"golang.org/x/image/font/gofont/gobold"
	"golang.org/x/image/font/gofont/goregular"
	"golang.org/x/image/font/opentype"
	"golang.org/x/image/math/fixed"
)

// Text is set in the Go fonts (golang.org/x/image/font/gofont), parsed once;
// faces are made per drawing call because a face is not safe for concurrent
// use.
var fonts struct {
	once          sync.Once
	regular, bold *opentype.Font
	err           error
}

func loadFonts() error {
	fonts.once.Do(func() {
		if fonts.regular, fonts.err = opentype.Parse(goregular.TTF); fonts.err != nil {
			return
		}
		fonts.bold, fonts.err = opentype.Parse(gobold.TTF)
	})
	return fonts.err
}

// faces makes faces on demand and remembers them for one drawing.
type faces map[[2]int]font.Face

// face returns the regular (bold false) or bold face of size px.
func (fs faces) face(px int, bold bool) font.Face {
	key := [2]int{px, 0}
	if bold {
		key[1] = 1
	}
	if f, ok := fs[key]; ok {
		return f
	}
	if loadFonts() != nil {
		panic("the built-in Go fonts do not parse: " + fonts.err.Error()) // a build error, not user input
	}
	src := fonts.regular
	if bold {
		src = fonts.bold
	}
	f, err := opentype.NewFace(src, &opentype.FaceOptions{Size: float64(px), DPI: 72, Hinting: font.HintingNone})
	if err != nil {
		panic("the built-in Go fonts: " + err.Error())
	}
	fs[key] = f
	return f
}

func textWidth(f font.Face, s string) int { return font.MeasureString(f, s).Ceil() }

// drawText draws s with its baseline's left end at (x, y).
func drawText(dst *image.RGBA, f font.Face, x, y int, s string, c color.RGBA) {
	d := font.Drawer{Dst: dst, Src: image.NewUniform(c), Face: f, Dot: fixed.P(x, y)}
	d.DrawString(s)
}

// drawTextCentred centres s on (cx, cy), using the face's cap height.
func drawTextCentred(dst *image.RGBA, f font.Face, cx, cy int, s string, c color.RGBA) {
	capH := f.Metrics().CapHeight.Ceil()
	if capH == 0 {
		capH = f.Metrics().Ascent.Ceil() * 7 / 10
	}
	drawText(dst, f, cx-textWidth(f, s)/2, cy+capH/2, s, c)
}

func fillRect(dst *image.RGBA, r image.Rectangle, c color.RGBA) {
	draw.Draw(dst, r, image.NewUniform(c), image.Point{}, draw.Over)
}

// strokeRect draws a border of width w inside r.
func strokeRect(dst *image.RGBA, r image.Rectangle, w int, c color.RGBA) {
	fillRect(dst, image.Rect(r.Min.X, r.Min.Y, r.Max.X, r.Min.Y+w), c)
	fillRect(dst, image.Rect(r.Min.X, r.Max.Y-w, r.Max.X, r.Max.Y), c)
	fillRect(dst, image.Rect(r.Min.X, r.Min.Y+w, r.Min.X+w, r.Max.Y-w), c)
	fillRect(dst, image.Rect(r.Max.X-w, r.Min.Y+w, r.Max.X, r.Max.Y-w), c)
}

// inkOn is black or white, whichever reads better on background c.
func inkOn(c color.RGBA) color.RGBA {
	l := 0.2126*lin(c.R) + 0.7152*lin(c.G) + 0.0722*lin(c.B)
	if l > 0.22 {
		return color.RGBA{0, 0, 0, 0xFF}
	}
	return color.RGBA{0xFF, 0xFF, 0xFF, 0xFF}
}

// lin is an sRGB channel's linear intensity.
func lin(v uint8) float64 {
	x := float64(v) / 255
	if x <= 0.04045 {
		return x / 12.92
	}
	return math.Pow((x+0.055)/1.055, 2.4)
}

// Heatmap colours.
var (
	heatBackground = color.RGBA{250, 250, 250, 0xFF}
	heatInk        = color.RGBA{30, 30, 30, 0xFF}
	heatMuted      = color.RGBA{95, 95, 95, 0xFF}
	heatFrame      = color.RGBA{120, 120, 120, 0xFF}
)

// HeatmapOptions size a heatmap picture.
type HeatmapOptions struct {
	// CellSize is the side of one grid cell in px; 0 picks one so the grid is
	// about 640 px (cells at least 44 px up to 16×16, so values fit).
	CellSize int
}

// heatmapMargin surrounds a heatmap picture.
const heatmapMargin = 24

// HeatmapChart is what Heatmap draws, as words and plain rates in [0, 1];
// *score.Heatmap is one. A nil Horizontal means whole cells (PA); otherwise
// Horizontal[r][c] is the edge between (r, c) and (r, c+1) and Vertical[r][c]
// the one between (r, c) and (r+1, c).
type HeatmapChart interface {
	// HeatmapText is the title, a subtitle and a line saying what a cell or
	// bar shows (empty: none).
	HeatmapText() (title, subtitle, legend string)
	HeatmapRates() (grid int, cells []float64, horizontal, vertical [][]float64)
}

type heatmapGeometry struct {
	cell   int
	origin image.Point // top-left corner of cell (0, 0)
	axisF  font.Face
}

func heatmapGrid(h HeatmapChart, o HeatmapOptions, fs faces) heatmapGeometry {
	grid, _, horizontal, _ := h.HeatmapRates()
	n := max(grid, 1)
	cell := o.CellSize
	if cell <= 0 {
		cell = HeatmapCellSize(n, horizontal != nil)
	}
	axisF := fs.face(min(13, max(9, cell/3)), false)
	axisW := textWidth(axisF, strconv.Itoa(n-1)) + 8
	const titleH = 30 + 22 + 20
	return heatmapGeometry{
		cell:   cell,
		origin: image.Pt(heatmapMargin+axisW, heatmapMargin+titleH+axisF.Metrics().Height.Ceil()+6),
		axisF:  axisF,
	}
}

// HeatmapGrid is where Heatmap draws the grid: cell (r, c) covers
// origin + (c·cell, r·cell) to one cell further. A GUI maps the pointer to
// cells with it.
func HeatmapGrid(h HeatmapChart, o HeatmapOptions) (origin image.Point, cell int) {
	g := heatmapGrid(h, o, faces{})
	return g.origin, g.cell
}

// HeatmapCellSize is the automatic cell size for an N×N heatmap, with or
// without edge bars.
func HeatmapCellSize(n int, edges bool) int {
	c := 640 / max(n, 1)
	switch {
	case n <= 16 && !edges:
		c = max(c, 44)
	case n <= 16:
		c = max(c, 52) // tiles and bars need a little more room
	}
	return max(c, 8)
}

// formatRate writes a rate in [0, 1] with two decimals; short drops the
// leading zero (".73") and writes 1 as "1", so no value is wider than ".00".
func formatRate(v float64, short bool) string {
	s := strconv.FormatFloat(v, 'f', 2, 64)
	switch {
	case short && s == "1.00":
		return "1"
	case short && s[0] == '0':
		return s[1:]
	}
	return s
}

// Heatmap draws h: an N×N grid coloured by the viridis scale, a legend with
// ticks from 0 to 1, and a title naming the metric, model, grid and
// condition. PA colours whole cells. AA and SC draw each cell as a tile
// coloured by the mean of its edges, and each edge as a bar between the two
// cell centres coloured by that edge's rate, visible between the tiles.
// Values are printed where they fit.
func Heatmap(h HeatmapChart, o HeatmapOptions) *image.RGBA {
	grid, cells, horizontal, vertical := h.HeatmapRates()
	n := max(grid, 1)
	fs := faces{}
	titleF, subF, smallF := fs.face(20, true), fs.face(14, false), fs.face(12, false)
	edges := horizontal != nil
	g := heatmapGrid(h, o, fs)
	cell, axisF := g.cell, g.axisF
	const margin = heatmapMargin
	axisW := g.origin.X - margin
	title, subtitle, legend := h.HeatmapText()
	lines := []string{title, subtitle}
	if legend != "" {
		lines = append(lines, legend)
	}
	gridX, gridY := g.origin.X, g.origin.Y
	gridW := n * cell
	legendX := gridX + gridW + 28
	const legendW = 18
	tickLabelW := textWidth(smallF, "0.75") + 10
	width := legendX + legendW + tickLabelW + margin
	for i, l := range lines {
		f := subF
		if i == 0 {
			f = titleF
		} else if i == 2 {
			f = smallF
		}
		width = max(width, margin+textWidth(f, l)+margin)
	}
	height := gridY + gridW + margin
	img := image.NewRGBA(image.Rect(0, 0, width, height))
	fillRect(img, img.Rect, heatBackground)

	// Title.
	drawText(img, titleF, margin, margin+20, lines[0], heatInk)
	drawText(img, subF, margin, margin+20+22, lines[1], heatMuted)
	drawText(img, smallF, margin, margin+20+22+20, lines[2], heatMuted)

	// Axis indices: columns above, rows to the left (every one that fits).
	step := 1
	for step*cell < textWidth(axisF, strconv.Itoa(n-1))+4 {
		step++
	}
	for i := 0; i < n; i += step {
		s := strconv.Itoa(i)
		drawText(img, axisF, gridX+i*cell+cell/2-textWidth(axisF, s)/2, gridY-6, s, heatMuted)
	}
	rowStep := 1
	for rowStep*cell < axisF.Metrics().Height.Ceil() {
		rowStep++
	}
	for i := 0; i < n; i += rowStep {
		s := strconv.Itoa(i)
		drawTextCentred(img, axisF, gridX-axisW/2-2, gridY+i*cell+cell/2, s, heatMuted)
	}

	cellRect := func(r, c int) image.Rectangle {
		return image.Rect(gridX+c*cell, gridY+r*cell, gridX+(c+1)*cell, gridY+(r+1)*cell)
	}
	if !edges {
		gap := 1
		if cell < 12 {
			gap = 0
		}
		valF := fs.face(min(22, max(9, cell*7/25)), false)
		for r := range n {
			for c := range n {
				v := cells[r*n+c]
				col := Viridis(v)
				cr := cellRect(r, c)
				fillRect(img, image.Rect(cr.Min.X+gap, cr.Min.Y+gap, cr.Max.X, cr.Max.Y), col)
				if s := formatRate(v, cell < 44); textWidth(valF, s)+4 <= cell-gap && cell >= 22 {
					drawTextCentred(img, valF, (cr.Min.X+gap+cr.Max.X)/2, (cr.Min.Y+gap+cr.Max.Y)/2, s, inkOn(col))
				}
			}
		}
	} else {
		drawEdgeHeatmap(img, heatmapRates{n, cells, horizontal, vertical}, fs, cellRect, cell)
	}
	strokeRect(img, image.Rect(gridX-1, gridY-1, gridX+gridW+1, gridY+gridW+1), 1, heatFrame)

	// Legend: the colour bar, 0 at the bottom, with ticks and labels.
	ly0, ly1 := gridY, gridY+gridW
	for y := ly0; y < ly1; y++ {
		v := float64(ly1-1-y) / float64(max(1, ly1-ly0-1))
		fillRect(img, image.Rect(legendX, y, legendX+legendW, y+1), Viridis(v))
	}
	strokeRect(img, image.Rect(legendX-1, ly0-1, legendX+legendW+1, ly1+1), 1, heatFrame)
	for _, t := range []float64{0, 0.25, 0.5, 0.75, 1} {
		y := ly1 - 1 - int(math.Round(t*float64(ly1-ly0-1)))
		fillRect(img, image.Rect(legendX+legendW, y, legendX+legendW+5, y+1), heatInk)
		s := strconv.FormatFloat(t, 'f', -1, 64)
		drawTextCentred(img, smallF, legendX+legendW+8+textWidth(smallF, s)/2, y, s, heatInk)
	}
	return img
}

// heatmapRates are a HeatmapChart's numbers.
type heatmapRates struct {
	grid                 int
	cells                []float64
	horizontal, vertical [][]float64
}

// drawEdgeHeatmap draws AA or SC: bars for edges, tiles for cell means.
func drawEdgeHeatmap(img *image.RGBA, h heatmapRates, fs faces, cellRect func(r, c int) image.Rectangle, cell int) {
	n := h.grid
	inset := max(2, int(math.Round(0.22*float64(cell))))
	thick := max(3, int(math.Round(0.34*float64(cell))))
	outline := color.RGBA{90, 90, 90, 0xFF}
	centre := func(r, c int) image.Point {
		cr := cellRect(r, c)
		return image.Pt((cr.Min.X+cr.Max.X)/2, (cr.Min.Y+cr.Max.Y)/2)
	}
	barF := fs.face(min(16, max(9, cell/5)), false)
	type bar struct {
		r image.Rectangle
		v float64
	}
	var bars []bar
	for r := range n {
		for c := range n - 1 {
			a, b := centre(r, c), centre(r, c+1)
			bars = append(bars, bar{image.Rect(a.X, a.Y-thick/2, b.X, a.Y-thick/2+thick), h.horizontal[r][c]})
		}
	}
	for r := range n - 1 {
		for c := range n {
			a, b := centre(r, c), centre(r+1, c)
			bars = append(bars, bar{image.Rect(a.X-thick/2, a.Y, a.X-thick/2+thick, b.Y), h.vertical[r][c]})
		}
	}
	for _, b := range bars {
		fillRect(img, b.r.Inset(-1), outline)
		fillRect(img, b.r, Viridis(b.v))
	}
	valF := fs.face(min(22, max(9, (cell-2*inset)*2/5)), true)
	for r := range n {
		for c := range n {
			cr := cellRect(r, c).Inset(inset)
			col := Viridis(h.cells[r*n+c])
			fillRect(img, cr.Inset(-1), outline)
			fillRect(img, cr, col)
			s := formatRate(h.cells[r*n+c], true)
			if cr.Dx() >= 20 && textWidth(valF, s)+4 <= cr.Dx() {
				drawTextCentred(img, valF, (cr.Min.X+cr.Max.X)/2, (cr.Min.Y+cr.Max.Y)/2, s, inkOn(col))
			}
		}
	}
	// Edge values in the visible part of each bar, when every one fits
	// (some with and some without would read as a pattern).
	gapLen := 2*inset - 2
	capH := barF.Metrics().CapHeight.Ceil()
	w := textWidth(barF, ".00")
	if w+4 > gapLen || capH+4 > thick || w+4 > thick || capH+4 > gapLen {
		return
	}
	for _, b := range bars {
		drawTextCentred(img, barF, (b.r.Min.X+b.r.Max.X)/2, (b.r.Min.Y+b.r.Max.Y)/2, formatRate(b.v, true), inkOn(Viridis(b.v)))
	}
}
