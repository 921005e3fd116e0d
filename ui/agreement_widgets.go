package ui

import (
	"image"
	"image/color"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
)

// tableLayout lays cells out in rows of cols, each column as wide as its
// widest cell, each row as tall as its tallest: a table sized to its text,
// whatever room it is given.
type tableLayout struct{ cols int }

func (t tableLayout) sizes(objs []fyne.CanvasObject) (ws, hs []float32) {
	ws = make([]float32, t.cols)
	hs = make([]float32, (len(objs)+t.cols-1)/t.cols)
	for i, o := range objs {
		s := o.MinSize()
		ws[i%t.cols] = max(ws[i%t.cols], s.Width)
		hs[i/t.cols] = max(hs[i/t.cols], s.Height)
	}
	return ws, hs
}

func (t tableLayout) Layout(objs []fyne.CanvasObject, _ fyne.Size) {
	ws, hs := t.sizes(objs)
	var y float32
	for r, h := range hs {
		var x float32
		for c, w := range ws {
			i := r*t.cols + c
			if i >= len(objs) {
				break
			}
			objs[i].Move(fyne.NewPos(x, y))
			objs[i].Resize(fyne.NewSize(w, h))
			x += w
		}
		y += h
	}
}

func (t tableLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	ws, hs := t.sizes(objs)
	var s fyne.Size
	for _, w := range ws {
		s.Width += w
	}
	for _, h := range hs {
		s.Height += h
	}
	return s
}

// textTable shows a vigor.Table: title, note, then a header row and the
// rows, numbers right-aligned. cells keeps the labels for tests.
type textTable struct {
	title string
	box   *fyne.Container
	cells [][]*widget.Label // [row][col]; row 0 is the header
}

func newTextTable(t vigor.Table) *textTable {
	tt := &textTable{title: t.Title}
	var objs []fyne.CanvasObject
	add := func(row []string, header bool) {
		var labels []*widget.Label
		for c, s := range row {
			align := fyne.TextAlignTrailing
			if c == 0 {
				align = fyne.TextAlignLeading
			}
			l := widget.NewLabelWithStyle(s, align, fyne.TextStyle{Bold: header || c == 0})
			if header {
				l.SizeName = theme.SizeNameCaptionText
			}
			labels = append(labels, l)
			objs = append(objs, l)
		}
		tt.cells = append(tt.cells, labels)
	}
	header := make([]string, len(t.Columns))
	for i, h := range t.Columns {
		// "Process MAE" over two lines keeps the columns narrow.
		if a, b, ok := strings.Cut(h, " "); ok && (a == "Process" || a == "Result" || !strings.Contains(b, " ")) {
			h = a + "\n" + b
		}
		header[i] = h
	}
	add(header, true)
	for _, r := range t.Rows {
		cells := make([]string, len(r))
		for i, c := range r {
			cells[i] = fitCell(c)
		}
		add(cells, false)
	}
	title := widget.NewLabelWithStyle(t.Title, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	title.SizeName = theme.SizeNameSubHeadingText
	parts := []fyne.CanvasObject{title}
	if t.Note != "" {
		note := widget.NewLabel(t.Note)
		note.Wrapping = fyne.TextWrapWord
		note.TextStyle.Italic = true
		note.SizeName = theme.SizeNameCaptionText
		parts = append(parts, note)
	}
	if len(t.Rows) > 0 {
		bg := canvas.NewRectangle(theme.Color(theme.ColorNameInputBackground))
		bg.CornerRadius = theme.InputRadiusSize()
		parts = append(parts, container.NewStack(bg, container.NewPadded(container.New(tableLayout{cols: len(t.Columns)}, objs...))))
	}
	tt.box = container.NewVBox(parts...)
	return tt
}

// chartView shows a chart drawn by core/render at the view's device size:
// it draws again, off the UI goroutine, when it is resized or the theme
// changes, and keeps the last picture (scaled) meanwhile.
type chartView struct {
	widget.BaseWidget
	work Dispatcher
	img  *canvas.Image

	draw    func(w, h int, st render.PlotStyle) *image.RGBA // nil: empty
	version uint64
	req     atomic.Uint64
	drawn   chartKey // what img shows
	wanted  chartKey // what was last asked for
}

type chartKey struct {
	w, h    int
	dark    bool
	version uint64
}

// chartDebounce lets a window resize settle before charts are drawn again.
const chartDebounce = 80 * time.Millisecond

func newChartView(work Dispatcher) *chartView {
	c := &chartView{work: work, img: canvas.NewImageFromImage(nil)}
	c.img.FillMode = canvas.ImageFillStretch
	c.ExtendBaseWidget(c)
	return c
}

// SetChart replaces what the view draws (nil: nothing).
func (c *chartView) SetChart(draw func(w, h int, st render.PlotStyle) *image.RGBA) {
	c.draw = draw
	c.version++
	if draw == nil {
		c.img.Image = nil
		c.img.Refresh()
		c.drawn = chartKey{}
		return
	}
	c.schedule()
}

// Image is the picture shown (nil before the first draw).
func (c *chartView) Image() image.Image { return c.img.Image }

func isDarkTheme() bool {
	r, g, b, _ := theme.Color(theme.ColorNameBackground).RGBA()
	return (r>>8)*299+(g>>8)*587+(b>>8)*114 < 128*1000
}

func (c *chartView) schedule() {
	if c.draw == nil {
		return
	}
	s := c.Size()
	scale := float32(1)
	if cv := fyne.CurrentApp().Driver().CanvasForObject(c); cv != nil {
		scale = cv.Scale()
	}
	w, h := int(s.Width*scale), int(s.Height*scale)
	if w < 8 || h < 8 {
		return
	}
	key := chartKey{w: w, h: h, dark: isDarkTheme(), version: c.version}
	if key == c.drawn || key == c.wanted {
		return
	}
	c.wanted = key
	st := render.LightPlotStyle(float64(scale))
	if key.dark {
		st = render.DarkPlotStyle(float64(scale))
	}
	bg := theme.Color(theme.ColorNameBackground)
	r, g, b, _ := bg.RGBA()
	st.Background = color.RGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 0xFF}
	draw, id := c.draw, c.req.Add(1)
	delay := chartDebounce
	if c.drawn == (chartKey{}) {
		delay = 0 // the first picture at once
	}
	c.work.After(delay, func() func() {
		if c.req.Load() != id {
			return nil
		}
		img := draw(w, h, st)
		return func() {
			if c.req.Load() != id {
				return
			}
			c.img.Image = img
			c.img.Refresh()
			c.drawn = key
		}
	})
}

// Resize draws again at the new size.
func (c *chartView) Resize(s fyne.Size) {
	c.BaseWidget.Resize(s)
	c.schedule()
}

// MinSize lets charts shrink with the window.
func (c *chartView) MinSize() fyne.Size { return fyne.NewSize(160, 120) }

// CreateRenderer implements fyne.Widget.
func (c *chartView) CreateRenderer() fyne.WidgetRenderer { return &chartRenderer{c: c} }

type chartRenderer struct{ c *chartView }

func (r *chartRenderer) Layout(s fyne.Size)           { r.c.img.Resize(s) }
func (r *chartRenderer) MinSize() fyne.Size           { return r.c.MinSize() }
func (r *chartRenderer) Objects() []fyne.CanvasObject { return []fyne.CanvasObject{r.c.img} }
func (r *chartRenderer) Destroy()                     {}

// Refresh follows theme changes.
func (r *chartRenderer) Refresh() {
	r.c.schedule()
	r.c.img.Refresh()
}

// fitCell puts a long cell over two lines, so wide tables fit the pane
// without scrolling sideways: an estimate above its interval, a count
// above its note in brackets, an interval's two ends one under the other.
func fitCell(c string) string {
	if len(c) < 12 {
		return c
	}
	for _, sep := range []string{" [", " ("} {
		if i := strings.Index(c, sep); i > 0 {
			return c[:i] + "\n" + fitCell(c[i+1:])
		}
	}
	if a, b, ok := strings.Cut(c, "_"); ok && !strings.Contains(c, " ") {
		return a + "_\n" + b // a dimension name: background_\nconsistency
	}
	if strings.HasPrefix(c, "[") {
		if i := strings.Index(c, ", "); i > 0 {
			return c[:i+1] + "\n" + c[i+2:]
		}
	}
	return c
}
