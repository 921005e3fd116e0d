package ui

import (
	"fmt"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// meter is a progress bar whose empty part looks empty: Fyne's ProgressBar
// fills its track with a tint of the primary colour, so at 0 % it reads as
// full, and writes its percentage in white across that tint (too faint).
// Here the track is the input background with a border, the bar the primary
// colour, and the percentage sits beside the track in the text colour.
type meter struct {
	widget.BaseWidget
	value float64 // 0 to 1
}

func newMeter() *meter {
	m := &meter{}
	m.ExtendBaseWidget(m)
	return m
}

// SetValue sets the fraction done, clamped to 0–1.
func (m *meter) SetValue(v float64) {
	m.value = min(1, max(0, v))
	m.Refresh()
}

// Value is the fraction done.
func (m *meter) Value() float64 { return m.value }

// CreateRenderer implements fyne.Widget.
func (m *meter) CreateRenderer() fyne.WidgetRenderer {
	r := &meterRenderer{m: m, track: canvas.NewRectangle(nil), bar: canvas.NewRectangle(nil), label: canvas.NewText("", nil)}
	r.label.Alignment = fyne.TextAlignTrailing
	r.Refresh()
	return r
}

type meterRenderer struct {
	m          *meter
	track, bar *canvas.Rectangle
	label      *canvas.Text
}

// labelWidth fits "100 %".
func (r *meterRenderer) labelWidth() float32 {
	return fyne.MeasureText("100 %", theme.TextSize(), fyne.TextStyle{}).Width + theme.Padding()
}

func (r *meterRenderer) Layout(s fyne.Size) {
	lw := r.labelWidth()
	trackW := max(0, s.Width-lw-theme.Padding())
	h := max(8, s.Height/2)
	y := (s.Height - h) / 2
	r.track.Move(fyne.NewPos(0, y))
	r.track.Resize(fyne.NewSize(trackW, h))
	r.bar.Move(fyne.NewPos(0, y))
	r.bar.Resize(fyne.NewSize(trackW*float32(r.m.value), h))
	r.label.Move(fyne.NewPos(trackW+theme.Padding(), 0))
	r.label.Resize(fyne.NewSize(lw, s.Height))
}

func (r *meterRenderer) MinSize() fyne.Size {
	return fyne.NewSize(r.labelWidth()+80, fyne.MeasureText("100 %", theme.TextSize(), fyne.TextStyle{}).Height+theme.Padding())
}

func (r *meterRenderer) Refresh() {
	r.track.FillColor = theme.Color(theme.ColorNameInputBackground)
	r.track.StrokeColor = theme.Color(theme.ColorNameInputBorder)
	r.track.StrokeWidth = 1
	r.track.CornerRadius = theme.InputRadiusSize()
	r.bar.FillColor = theme.Color(theme.ColorNamePrimary)
	r.bar.CornerRadius = theme.InputRadiusSize()
	r.label.Color = theme.Color(theme.ColorNameForeground)
	r.label.TextSize = theme.TextSize()
	r.label.Text = fmt.Sprintf("%.0f %%", 100*r.m.value)
	r.Layout(r.m.Size())
	r.track.Refresh()
	r.bar.Refresh()
	r.label.Refresh()
}

func (r *meterRenderer) Objects() []fyne.CanvasObject {
	return []fyne.CanvasObject{r.track, r.bar, r.label}
}

func (r *meterRenderer) Destroy() {}
