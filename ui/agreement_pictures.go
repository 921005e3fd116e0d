package ui

import (
	"fmt"
	"image"
	"image/color"

	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
)

// agreementPictures is the Agreement pane's pictures tab: one condition
// and track at a time.
type agreementPictures struct {
	condSel, trackSel      *widget.RadioGroup
	heat, confusion, scatt *chartView
}

// selected returns the condition and track the pictures show.
func (a *AgreementPane) selected() (vigor.Condition, vigor.Track) {
	c, t := vigor.WithGT, vigor.TrackResult
	if a.condSel.Selected == condTitle(vigor.WithoutGT) {
		c = vigor.WithoutGT
	}
	if a.trackSel.Selected == "Process" {
		t = vigor.TrackProcess
	}
	return c, t
}

// showPictures draws the heatmap, the confusion matrix and the scatter of
// the chosen condition and track.
func (a *AgreementPane) showPictures() {
	if a.heat == nil || a.report == nil {
		return
	}
	cond, t := a.selected()
	a.heat.SetChart(a.heatmapChart(cond, t))
	a.confusion.SetChart(a.confusionChart(cond, t))
	a.scatt.SetChart(a.scatterChart(cond))
}

type chartFunc = func(w, h int, st render.PlotStyle) *image.RGBA

func trackWord(t vigor.Track) string {
	if t == vigor.TrackProcess {
		return "process track"
	}
	return "result track"
}

func (a *AgreementPane) heatmapChart(cond vigor.Condition, t vigor.Track) chartFunc {
	g, ok := a.plots.Grid(cond, t)
	if !ok {
		return nil
	}
	c := render.GridChart{
		Title:    "Accuracy by subdomain × dimension",
		Subtitle: trackWord(t) + " · " + condWords(cond),
		Rows:     g.Rows, Cols: g.Dims, Counts: g.Cells,
	}
	for _, row := range g.Accuracy {
		vals, ok := make([]float64, len(row)), make([]bool, len(row))
		for j, v := range row {
			vals[j], ok[j] = v.Get()
		}
		c.Values, c.Defined = append(c.Values, vals), append(c.Defined, ok)
	}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawGridChart(c, w, h, st) }
}

func (a *AgreementPane) confusionChart(cond vigor.Condition, t vigor.Track) chartFunc {
	cs := &a.report.Confusion.JudgeWithGT
	if cond == vigor.WithoutGT {
		cs = &a.report.Confusion.JudgeWithoutGT
	}
	cf := cs.Result
	sub := "majority of the scores, 0 or 1"
	if t == vigor.TrackProcess {
		cf = cs.Process
		sub = "buckets of the mean: " + vigor.BucketRanges()
	}
	c := render.MatrixChart{Title: "Confusion: " + trackWord(t) + ", " + condWords(cond),
		Subtitle: sub, RowTitle: "Humans ↓", ColTitle: "Judge →", Labels: cf.Labels, Counts: cf.Matrix}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawMatrixChart(c, w, h, st) }
}

// Series colours of the scatter (readable on light and dark).
var (
	processColour = color.RGBA{240, 128, 32, 255}
	resultColour  = color.RGBA{40, 130, 230, 255}
)

func (a *AgreementPane) scatterChart(cond vigor.Condition) chartFunc {
	var proc, res [][2]float64
	for _, p := range a.plots.Points {
		if p.Condition != cond {
			continue
		}
		if p.Track == vigor.TrackProcess {
			proc = append(proc, [2]float64{p.Human, p.Judge})
		} else {
			res = append(res, [2]float64{p.Human, p.Judge})
		}
	}
	c := render.ScatterChart{
		Title:    "Judge vs humans, " + condWords(cond),
		Subtitle: "one point per item × dimension (means, 0–1); result points jittered",
		XLabel:   "humans' mean", YLabel: "judge's mean",
		Series: []render.ScatterSeries{
			{Name: fmt.Sprintf("process (%d)", len(proc)), Colour: processColour, Points: proc},
			{Name: fmt.Sprintf("result (%d)", len(res)), Colour: resultColour, Points: res, Jitter: 0.03},
		},
	}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawScatterChart(c, w, h, st) }
}

// Export.
