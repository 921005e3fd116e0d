package ui

import (
	"fmt"
	"image"
	"slices"

	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
)

// agreementPictures is the Agreement pane's pictures tab: the heatmap and
// the confusion matrix of one condition and track, and the scatter of
// every condition on that track.
type agreementPictures struct {
	condSel                *widget.Select
	trackSel               *widget.RadioGroup
	heat, confusion, scatt *chartView
}

// selected returns the condition and track the pictures show.
func (a *AgreementPane) selected() (vigor.Condition, vigor.Track) {
	c, t := vigor.Condition(a.condSel.Selected), vigor.TrackResult
	if a.trackSel.Selected == "Process" {
		t = vigor.TrackProcess
	}
	return c, t
}

// offerConditions lists the conditions of the computed pictures, keeping
// the one chosen when it is still there (else with_gt, else the last).
func (a *AgreementPane) offerConditions(conds []vigor.Condition) {
	opts := make([]string, len(conds))
	for i, c := range conds {
		opts[i] = string(c)
	}
	keep := a.condSel.Selected
	if !slices.Contains(opts, keep) {
		keep = string(vigor.WithGT)
		if !slices.Contains(opts, keep) && len(opts) > 0 {
			keep = opts[len(opts)-1]
		}
	}
	on := a.condSel.OnChanged
	a.condSel.OnChanged = nil
	a.condSel.SetOptions(opts)
	a.condSel.SetSelected(keep)
	a.condSel.OnChanged = on
}

// showPictures draws the heatmap and the confusion matrix of the chosen
// condition and track and the scatter of every condition on the track.
func (a *AgreementPane) showPictures() {
	if a.heat == nil || a.report == nil || a.plots == nil {
		return
	}
	cond, t := a.selected()
	a.heat.SetChart(a.heatmapChart(cond, t))
	a.confusion.SetChart(a.confusionChart(cond, t))
	a.scatt.SetChart(a.scatterChart(t))
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
	cf, ok := a.plots.ConfusionOf(cond, t)
	if !ok {
		return nil
	}
	sub := "majority of the scores, 0 or 1"
	if t == vigor.TrackProcess {
		sub = "buckets of the mean: " + vigor.BucketRanges()
	}
	c := render.MatrixChart{Title: "Confusion: " + trackWord(t) + ", " + condWords(cond),
		Subtitle: sub, RowTitle: "Humans ↓", ColTitle: "Judge →", Labels: cf.Labels, Counts: cf.Matrix}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawMatrixChart(c, w, h, st) }
}

// scatterChart plots every condition's cells on track t, one series (and
// colour) per condition in Table 2 order.
func (a *AgreementPane) scatterChart(t vigor.Track) chartFunc {
	if _, ok := a.plots.Grid(a.plots.Conditions[0], t); !ok {
		return nil // no items on t
	}
	c := render.ScatterChart{
		Title:    "Judge vs humans, " + trackWord(t),
		Subtitle: "one point per item × dimension (means, 0–1), a colour per judge condition",
		XLabel:   "humans' mean", YLabel: "judge's mean",
	}
	jitter := 0.0
	if t == vigor.TrackResult {
		c.Subtitle += "; jittered"
		jitter = 0.03
	}
	for i, cond := range a.plots.Conditions {
		var pts [][2]float64
		for _, p := range a.plots.Points {
			if p.Condition == cond && p.Track == t {
				pts = append(pts, [2]float64{p.Human, p.Judge})
			}
		}
		c.Series = append(c.Series, render.ScatterSeries{Name: fmt.Sprintf("%s (%d)", cond, len(pts)),
			Colour: render.SeriesColour(i), Points: pts, Jitter: jitter})
	}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawScatterChart(c, w, h, st) }
}
