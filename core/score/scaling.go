package score

import (
	"fmt"
	"slices"
)

// The scaling curve (docs/analysis.md §2): a metric against the grid, one
// curve per model × condition, beside the grid's random baseline.

// PlotMetric is a metric a scaling curve or paper table shows.
type PlotMetric string

// The plotted metrics, the paper's four.
const (
	PlotPA PlotMetric = "pa"
	PlotEM PlotMetric = "em"
	PlotAA PlotMetric = "aa"
	PlotSC PlotMetric = "sc"
)

// ParsePlotMetric reads "pa", "em", "aa" or "sc".
func ParsePlotMetric(s string) (PlotMetric, error) {
	m := PlotMetric(s)
	if m.index() < 0 || m == "aa_directed" {
		return "", fmt.Errorf("plot metric %q is not pa, em, aa or sc", s)
	}
	return m, nil
}

// index is the metric's place in report order (metricColumns), -1 if none.
func (m PlotMetric) index() int { return slices.Index(metricColumns[:], string(m)) }

// Short is the metric's abbreviation ("PA").
func (m PlotMetric) Short() string {
	if i := m.index(); i >= 0 {
		return MetricTitles[i]
	}
	return string(m)
}

// Title is the metric's full name.
func (m PlotMetric) Title() string {
	switch m {
	case PlotPA:
		return "Piece Accuracy (PA)"
	case PlotEM:
		return "Exact Match (EM)"
	case PlotAA:
		return "Adjacency Accuracy (AA)"
	case PlotSC:
		return "Shape Compatibility (SC)"
	}
	return string(m)
}

// Value is the group's mean of m, its interval and the grid's random
// baseline.
func (g *Group) Value(m PlotMetric) (mean float64, ci Interval, baseline float64) {
	i := m.index()
	if i < 0 {
		return 0, Interval{}, 0
	}
	return metricVector(g.Metrics)[i], g.CI.vector()[i], g.Baseline.vector()[i]
}

// CurvePoint is one grid of a curve.
type CurvePoint struct {
	Grid int
	N    int
	Mean float64
	CI   Interval
}

// Curve is one model × condition across grids (ascending).
type Curve struct {
	Model, Condition string
	Points           []CurvePoint
}

// Scaling is a metric's curves over the report's grids, and each grid's
// random baseline. AboveChance rescales every value v with its grid's
// baseline b as (v − b)/(1 − b) (so the baselines are 0), intervals by
// their ends.
type Scaling struct {
	Metric      PlotMetric
	AboveChance bool
	Grids       []int
	Baselines   []float64
	Curves      []Curve
}

// ScalingCurves collects metric m from the groups: a curve per model ×
// condition in group order.
func (r *Report) ScalingCurves(m PlotMetric, aboveChance bool) (*Scaling, error) {
	if _, err := ParsePlotMetric(string(m)); err != nil {
		return nil, err
	}
	s := &Scaling{Metric: m, AboveChance: aboveChance}
	seen := map[int]int{}
	index := map[[2]string]int{}
	for gi := range r.Groups {
		g := &r.Groups[gi]
		seen[g.Grid]++
		k := [2]string{g.Model, g.Condition}
		ci, ok := index[k]
		if !ok {
			ci = len(s.Curves)
			index[k] = ci
			s.Curves = append(s.Curves, Curve{Model: g.Model, Condition: g.Condition})
		}
		mean, iv, b := g.Value(m)
		if aboveChance {
			mean, iv = AboveChance(mean, b), Interval{AboveChance(iv[0], b), AboveChance(iv[1], b)}
		}
		s.Curves[ci].Points = append(s.Curves[ci].Points, CurvePoint{Grid: g.Grid, N: g.N, Mean: mean, CI: iv})
	}
	s.Grids = sortedKeys(seen)
	for _, n := range s.Grids {
		b := BaselineOf(n).vector()[m.index()]
		if aboveChance {
			b = 0
		}
		s.Baselines = append(s.Baselines, b)
	}
	for i := range s.Curves {
		slices.SortFunc(s.Curves[i].Points, func(a, b CurvePoint) int { return a.Grid - b.Grid })
	}
	return s, nil
}
