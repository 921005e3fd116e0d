// Package scoreplot turns a score report's figures into core/render's
// plain-number charts: the scaling curve and the ablation's difference
// heatmap (docs/analysis.md). It is the one place that knows both, so
// core/render stays free of core/score and the CLI and the GUI draw the
// same pictures.
package scoreplot

import (
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// Scaling is the scaling curve of metric m: a line per model × condition
// (one colour per model; shape solid, rect dotted), bands of the 95%
// intervals and the random baseline dashed. With aboveChance every value is
// (v − b)/(1 − b) for its grid's baseline b.
func Scaling(rep *score.Report, m score.PlotMetric, aboveChance bool) (render.ScalingChart, error) {
	s, err := rep.ScalingCurves(m, aboveChance)
	if err != nil {
		return render.ScalingChart{}, err
	}
	level := 100 * rep.Bootstrap.Level
	if level == 0 {
		level = 95
	}
	c := render.ScalingChart{
		Title:        m.Title() + " by grid",
		Subtitle:     fmt.Sprintf("mean over instances (invalid answers score 0); bands and whiskers: %g%% bootstrap interval", level),
		YLabel:       m.Short(),
		Baseline:     s.Baselines,
		BaselineName: "random baseline",
	}
	if aboveChance {
		c.Title = m.Title() + " above chance, by grid"
		c.Subtitle = fmt.Sprintf("(m − b) / (1 − b), b the grid's random baseline: 0 is chance, 100%% perfect; %g%% intervals transformed alike", level)
		c.YLabel = m.Short() + " above chance"
		c.BaselineName = "chance (random baseline)"
	}
	col := map[int]int{}
	for i, n := range s.Grids {
		c.X = append(c.X, fmt.Sprintf("%d×%d", n, n))
		col[n] = i
	}
	models := map[string]int{}
	for _, cv := range s.Curves {
		if _, ok := models[cv.Model]; !ok {
			models[cv.Model] = len(models)
		}
		ser := render.ScalingSeries{Name: cv.Model + " · " + cv.Condition, Colour: render.SeriesColour(models[cv.Model]), Dotted: cv.Condition != "shape"}
		ser.Y, ser.Lo, ser.Hi = nans(len(s.Grids)), nans(len(s.Grids)), nans(len(s.Grids))
		for _, p := range cv.Points {
			i := col[p.Grid]
			ser.Y[i], ser.Lo[i], ser.Hi[i] = p.Mean, p.CI[0], p.CI[1]
		}
		c.Series = append(c.Series, ser)
	}
	return c, nil
}

func nans(n int) []float64 {
	v := make([]float64, n)
	for i := range v {
		v[i] = math.NaN()
	}
	return v
}

// ablationMetrics are the heatmap's columns within each grid.
var ablationMetrics = []score.PlotMetric{score.PlotPA, score.PlotEM, score.PlotAA, score.PlotSC}

// Ablation is the difference heatmap of the report's ablation: a row per
// model, columns PA, EM, AA, SC under each grid, shape − rect in percentage
// points with the sign-flip p beneath (the subtitle gives the pairs); grids a model has no pairs at are
// grey.
func Ablation(rep *score.Report) render.DiffChart {
	c := render.DiffChart{
		Title:    "Shape ablation: shape − rect",
		Subtitle: "paired over the instances answered in both conditions; cell: mean difference in percentage points, p from the sign-flip test",
	}
	grids := map[int]int{}
	rows := map[string]int{}
	pairs, mostPairs := math.MaxInt, 0
	for _, a := range rep.Ablation {
		grids[a.Grid]++
		if _, ok := rows[a.Model]; !ok {
			rows[a.Model] = len(c.Rows)
			c.Rows = append(c.Rows, a.Model)
		}
		pairs = min(pairs, a.Pairs)
		mostPairs = max(mostPairs, a.Pairs)
	}
	switch {
	case pairs == mostPairs:
		c.Subtitle += fmt.Sprintf(" (%d pairs each)", pairs)
	case mostPairs > 0:
		c.Subtitle += fmt.Sprintf(" (%d–%d pairs)", pairs, mostPairs)
	}
	var gridList []int
	for n := range grids {
		gridList = append(gridList, n)
	}
	slices.Sort(gridList)
	colOf := map[int]int{}
	for gi, n := range gridList {
		colOf[n] = gi * len(ablationMetrics)
		for _, m := range ablationMetrics {
			c.Cols = append(c.Cols, m.Short())
			c.ColGroups = append(c.ColGroups, fmt.Sprintf("%d×%d", n, n))
		}
	}
	for range c.Rows {
		c.Values = append(c.Values, make([]float64, len(c.Cols)))
		c.Defined = append(c.Defined, make([]bool, len(c.Cols)))
		c.Notes = append(c.Notes, make([]string, len(c.Cols)))
	}
	for _, a := range rep.Ablation {
		i := rows[a.Model]
		for k, m := range ablationMetrics {
			t := a.Test(m)
			j := colOf[a.Grid] + k
			c.Values[i][j], c.Defined[i][j] = t.Diff, true
			c.Notes[i][j] = pValue(t.P)
		}
	}
	return c
}

// pValue writes "p=.024", "p=1.000" or "p<.001".
func pValue(p float64) string {
	if p < 0.001 {
		return "p<.001"
	}
	return "p=" + strings.TrimPrefix(strconv.FormatFloat(p, 'f', 3, 64), "0")
}

// AblationAt is the ablation and metric behind cell (row, col) of c, the
// chart Ablation drew from rep (for a pointer readout); ok is false for a
// grey cell.
func AblationAt(rep *score.Report, c render.DiffChart, row, col int) (a score.Ablation, m score.PlotMetric, ok bool) {
	if row < 0 || row >= len(c.Rows) || col < 0 || col >= len(c.Cols) || col >= len(c.ColGroups) {
		return a, m, false
	}
	m = ablationMetrics[col%len(ablationMetrics)]
	for _, a := range rep.Ablation {
		if a.Model == c.Rows[row] && fmt.Sprintf("%d×%d", a.Grid, a.Grid) == c.ColGroups[col] {
			return a, m, true
		}
	}
	return a, m, false
}
