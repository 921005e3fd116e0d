package ui

import (
	"fmt"
	"image"
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
	"github.com/jigbench/jigbench/core/scoreplot"
)

// scoreAnalyses is the Score pane's Ablation view (the paired shape − rect
// table and its difference heatmap) and Scaling view (metric against grid).
type scoreAnalyses struct {
	ablationTable *widget.Table
	ablationChart *chartView
	ablationData  render.DiffChart
	ablationValue *widget.Label

	scalingMetric *widget.Select
	aboveChance   *widget.Check
	scalingChart  *chartView
	scalingNote   *widget.Label
}

var ablationColumns = []scoreColumn{{"Model", 180}, {"Grid", 50}, {"Pairs", 50}, {"PA (pp)", 196}, {"EM (pp)", 196}, {"AA (pp)", 196}, {"SC (pp)", 196}}

// ablationMetrics are the Ablation table's metric columns, in order.
var ablationMetrics = []score.PlotMetric{score.PlotPA, score.PlotEM, score.PlotAA, score.PlotSC}

func (s *ScorePane) ablationView() fyne.CanvasObject {
	s.ablationTable = widget.NewTableWithHeaders(
		func() (int, int) {
			if s.report == nil {
				return 0, len(ablationColumns)
			}
			return len(s.report.Ablation), len(ablationColumns)
		},
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(s.ablationCell(id.Row, id.Col))
		},
	)
	s.ablationTable.ShowHeaderColumn = false
	s.ablationTable.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		if id.Col >= 0 {
			o.(*widget.Label).SetText(ablationColumns[id.Col].title)
		}
	}
	for i, c := range ablationColumns {
		s.ablationTable.SetColumnWidth(i, c.width)
	}
	s.ablationChart = newChartView(s.work)
	s.ablationValue = widget.NewLabel(ablationHint)
	s.ablationValue.Truncation = fyne.TextTruncateEllipsis
	hover := newHoverArea(s.hoverAblation)
	split := container.NewVSplit(s.ablationTable, container.NewStack(s.ablationChart, hover))
	split.SetOffset(0.3)
	return container.NewBorder(nil, s.ablationValue, nil, nil, split)
}

const ablationHint = "Shape − rect per model over the instances answered in both conditions (percentage points, 95% paired bootstrap interval, sign-flip p). Point at a cell to read it."

// ablationCell is what Ablation table cell (row, col) shows.
func (s *ScorePane) ablationCell(row, col int) string {
	if s.report == nil || row >= len(s.report.Ablation) {
		return ""
	}
	a := s.report.Ablation[row]
	switch col {
	case 0:
		return a.Model
	case 1:
		return fmt.Sprintf("%d×%d", a.Grid, a.Grid)
	case 2:
		return fmt.Sprint(a.Pairs)
	}
	return score.PairedText(a.Test(ablationMetrics[col-3]))
}

// updateAnalyses shows the report's ablation and scaling curves.
func (s *ScorePane) updateAnalyses() {
	if s.ablationTable == nil || s.report == nil {
		return
	}
	s.ablationTable.Refresh()
	s.ablationValue.SetText(ablationHint)
	if len(s.report.Ablation) == 0 {
		s.ablationData = render.DiffChart{}
		s.ablationChart.SetChart(nil)
		s.ablationValue.SetText("No ablation: no model was answered in both conditions (add its shape and its rect answers).")
	} else {
		c := scoreplot.Ablation(s.report)
		s.ablationData = c
		s.ablationChart.SetChart(func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawDiffChart(c, w, h, st) })
	}
	s.updateScaling()
}

// hoverAblation reads the difference heatmap's cell under p.
func (s *ScorePane) hoverAblation(p fyne.Position, ok bool) {
	if !ok || s.report == nil || len(s.ablationData.Rows) == 0 {
		return
	}
	scale := float32(1)
	if cv := fyne.CurrentApp().Driver().CanvasForObject(s.ablationChart); cv != nil {
		scale = cv.Scale()
	}
	size := s.ablationChart.Size()
	l, fits := render.LayoutDiffChart(s.ablationData, int(size.Width*scale), int(size.Height*scale), render.LightPlotStyle(float64(scale)))
	x, y := int(p.X*scale)-l.Origin.X, int(p.Y*scale)-l.Origin.Y
	if !fits || x < 0 || y < 0 {
		return
	}
	a, m, found := scoreplot.AblationAt(s.report, s.ablationData, y/l.CellH, x/l.CellW)
	if !found {
		return
	}
	s.ablationValue.SetText(fmt.Sprintf("%s · %d×%d · %s shape − rect: %s pp · %d pairs (%d shape only, %d rect only)",
		a.Model, a.Grid, a.Grid, m.Short(), score.PairedText(a.Test(m)), a.Pairs, a.ShapeOnly, a.RectOnly))
}

func (s *ScorePane) scalingView() fyne.CanvasObject {
	s.scalingMetric = widget.NewSelect([]string{"PA", "EM", "AA", "SC"}, func(string) { s.updateScaling() })
	s.scalingMetric.SetSelected("PA")
	s.aboveChance = widget.NewCheck("Above chance: (m − b)/(1 − b)", func(bool) { s.updateScaling() })
	s.scalingChart = newChartView(s.work)
	s.scalingNote = widget.NewLabel("")
	s.scalingNote.Truncation = fyne.TextTruncateEllipsis
	controls := container.NewHBox(widget.NewLabel("Metric"), s.scalingMetric, s.aboveChance)
	return container.NewBorder(container.NewHScroll(controls), s.scalingNote, nil, nil, s.scalingChart)
}

// updateScaling draws the chosen scaling curve.
func (s *ScorePane) updateScaling() {
	if s.scalingChart == nil || s.report == nil || s.scalingMetric.Selected == "" {
		return
	}
	m, err := score.ParsePlotMetric(strings.ToLower(s.scalingMetric.Selected))
	var c render.ScalingChart
	if err == nil {
		c, err = scoreplot.Scaling(s.report, m, s.aboveChance.Checked)
	}
	if err != nil {
		s.scalingChart.SetChart(nil)
		s.scalingNote.SetText(err.Error())
		return
	}
	s.scalingChart.SetChart(func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawScalingChart(c, w, h, st) })
	s.scalingNote.SetText("A line per model and condition (rect dotted), 95% bands, the random baseline dashed.")
}

// hoverArea is a transparent layer over a picture that reports the
// pointer's position in it.
type hoverArea struct {
	widget.BaseWidget
	onMove func(p fyne.Position, in bool)
}

func newHoverArea(onMove func(p fyne.Position, in bool)) *hoverArea {
	h := &hoverArea{onMove: onMove}
	h.ExtendBaseWidget(h)
	return h
}

func (h *hoverArea) CreateRenderer() fyne.WidgetRenderer {
	return widget.NewSimpleRenderer(canvas.NewRectangle(color.Transparent))
}

// MouseIn implements desktop.Hoverable.
func (h *hoverArea) MouseIn(e *desktop.MouseEvent) { h.onMove(e.Position, true) }

// MouseMoved implements desktop.Hoverable.
func (h *hoverArea) MouseMoved(e *desktop.MouseEvent) { h.onMove(e.Position, true) }

// MouseOut implements desktop.Hoverable.
func (h *hoverArea) MouseOut() { h.onMove(fyne.Position{}, false) }
