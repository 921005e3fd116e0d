package score

import (
	"fmt"
	"strconv"

	"github.com/jigbench/jigbench/core/puzzle"
)

// HeatmapMetric selects what a heatmap shows.
type HeatmapMetric string

// The heatmap metrics (docs/metrics.md, "Heatmaps").
const (
	HeatmapPA HeatmapMetric = "pa"
	HeatmapAA HeatmapMetric = "aa"
	HeatmapSC HeatmapMetric = "sc"
)

// ParseHeatmapMetric reads "pa", "aa" or "sc".
func ParseHeatmapMetric(s string) (HeatmapMetric, error) {
	switch m := HeatmapMetric(s); m {
	case HeatmapPA, HeatmapAA, HeatmapSC:
		return m, nil
	}
	return "", fmt.Errorf("heatmap metric %q is not pa, aa or sc", s)
}

// Title is the metric's full name.
func (m HeatmapMetric) Title() string {
	switch m {
	case HeatmapPA:
		return "Piece Accuracy (PA)"
	case HeatmapAA:
		return "Adjacency Accuracy (AA)"
	case HeatmapSC:
		return "Shape Compatibility (SC)"
	}
	return string(m)
}

// Heatmap is one metric over the N×N grid for one model × grid × condition,
// over its instances (invalid ones count as 0):
//   - PA: Cells[r*N+c] is the fraction of instances whose piece belonging at
//     (r, c) was placed there.
//   - AA: Horizontal[r][c] is the recovery rate of the true adjacency between
//     the pieces belonging at (r, c) and (r, c+1) (predicted 4-neighbours, in
//     either direction); Vertical[r][c] that of (r, c) and (r+1, c). A cell's
//     value is the mean of its (two to four) edges.
//   - SC: Horizontal[r][c] is the rate at which predicted cells (r, c) and
//     (r, c+1) are both filled by exactly one piece with interlocking facing
//     sides; Vertical likewise downwards. A cell's value is the mean of its
//     pairs.
//
// The mean of Cells (PA) or of all edges (AA, SC) is Mean, the metric's
// mean over the instances, equal to the group's.
type Heatmap struct {
	Metric     HeatmapMetric
	Model      string
	Grid       int
	Condition  string
	Instances  int
	Invalid    int
	Cells      []float64
	Horizontal [][]float64 // N rows of N-1; nil for PA
	Vertical   [][]float64 // N-1 rows of N; nil for PA
	Mean       float64
}

// Heatmap computes a heatmap from the report's instances.
func (r *Report) Heatmap(metric HeatmapMetric, model string, grid int, condition string) (*Heatmap, error) {
	if r.Truth == nil {
		return nil, fmt.Errorf("the report has no truth to draw a heatmap from")
	}
	return HeatmapOf(r.Truth, r.Instances, metric, model, grid, condition)
}

// HeatmapOf computes the heatmap of metric over the scores of model at grid
// under condition.
func HeatmapOf(truth *TruthSet, scores []InstanceScore, metric HeatmapMetric, model string, grid int, condition string) (*Heatmap, error) {
	if _, err := ParseHeatmapMetric(string(metric)); err != nil {
		return nil, err
	}
	n := grid
	h := &Heatmap{Metric: metric, Model: model, Grid: n, Condition: condition, Cells: make([]float64, n*n)}
	if metric != HeatmapPA {
		h.Horizontal, h.Vertical = grid2(n, n-1), grid2(n-1, n)
	}
	occ := make([]int, n*n)
	for i := range scores {
		s := &scores[i]
		if s.Model != model || s.Grid != grid || s.Condition != condition {
			continue
		}
		ti, ok := truth.Find(s.ID)
		if !ok {
			return nil, fmt.Errorf("instance %s is not in the truth", s.ID)
		}
		h.Instances++
		if !s.Valid || s.Pred == nil {
			h.Invalid++
			continue // every cell and edge scores 0
		}
		h.add(ti.Truth, s.Pred, occ)
	}
	if h.Instances == 0 {
		return nil, fmt.Errorf("no %d×%d instances of %s (%s) to draw", grid, grid, model, condition)
	}
	h.finish()
	return h, nil
}

func grid2(rows, cols int) [][]float64 {
	g := make([][]float64, rows)
	for i := range g {
		g[i] = make([]float64, cols)
	}
	return g
}

// add counts one valid answer; occ is scratch of N² ints.
func (h *Heatmap) add(t *Truth, pred []int, occ []int) {
	n := h.Grid
	switch h.Metric {
	case HeatmapPA:
		for k, c := range pred {
			if c == t.Cell[k] {
				h.Cells[c]++
			}
		}
	case HeatmapAA:
		for k, c := range t.Cell {
			occ[c] = k // the true occupant of each cell
		}
		for r := range n {
			for c := range n {
				a := occ[r*n+c]
				if c+1 < n {
					if u, _ := neighbours(pred[a], pred[occ[r*n+c+1]], n, 0, 1); u == 1 {
						h.Horizontal[r][c]++
					}
				}
				if r+1 < n {
					if u, _ := neighbours(pred[a], pred[occ[(r+1)*n+c]], n, 1, 0); u == 1 {
						h.Vertical[r][c]++
					}
				}
			}
		}
	case HeatmapSC:
		fillOccupants(occ, pred)
		for r := range n {
			for c := range n {
				x := occ[r*n+c]
				if x < 0 {
					continue
				}
				if c+1 < n {
					if y := occ[r*n+c+1]; y >= 0 && t.Sides[x][puzzle.Right].Complements(t.Sides[y][puzzle.Left]) {
						h.Horizontal[r][c]++
					}
				}
				if r+1 < n {
					if y := occ[(r+1)*n+c]; y >= 0 && t.Sides[x][puzzle.Bottom].Complements(t.Sides[y][puzzle.Top]) {
						h.Vertical[r][c]++
					}
				}
			}
		}
	}
}

// finish turns counts into rates, cell means and the overall mean.
func (h *Heatmap) finish() {
	n, inst := h.Grid, float64(h.Instances)
	if h.Metric == HeatmapPA {
		sum := 0.0
		for i := range h.Cells {
			h.Cells[i] /= inst
			sum += h.Cells[i]
		}
		h.Mean = sum / float64(n*n)
		return
	}
	sum := 0.0
	for _, rows := range [][][]float64{h.Horizontal, h.Vertical} {
		for _, row := range rows {
			for i := range row {
				row[i] /= inst
				sum += row[i]
			}
		}
	}
	if n > 1 {
		h.Mean = sum / float64(2*n*(n-1))
	}
	for r := range n {
		for c := range n {
			s, k := 0.0, 0
			for _, e := range h.CellEdges(r, c) {
				s += e
				k++
			}
			if k > 0 {
				h.Cells[r*n+c] = s / float64(k)
			}
		}
	}
}

// CellEdges returns the rates of the edges around cell (r, c): top, right,
// bottom, left, those that exist.
func (h *Heatmap) CellEdges(r, c int) []float64 {
	n := h.Grid
	var out []float64
	if h.Horizontal == nil {
		return nil
	}
	if r > 0 {
		out = append(out, h.Vertical[r-1][c])
	}
	if c+1 < n {
		out = append(out, h.Horizontal[r][c])
	}
	if r+1 < n {
		out = append(out, h.Vertical[r][c])
	}
	if c > 0 {
		out = append(out, h.Horizontal[r][c-1])
	}
	return out
}

// HeatmapText is the heatmap's title, subtitle and legend line, for
// render.Heatmap.
func (h *Heatmap) HeatmapText() (title, subtitle, legend string) {
	title = fmt.Sprintf("%s — %s", h.Metric.Title(), h.Model)
	subtitle = fmt.Sprintf("%d×%d · %s condition · %s · mean %s",
		h.Grid, h.Grid, h.Condition, h.InstanceCount(), strconv.FormatFloat(h.Mean, 'f', 2, 64))
	switch h.Metric {
	case HeatmapPA:
		legend = "cell: fraction of instances whose piece belonging there was placed there"
	case HeatmapAA:
		legend = "bar: how often that true adjacency was kept (pieces predicted side by side, either way); tile: mean of its bars"
	case HeatmapSC:
		legend = "bar: how often that pair of predicted cells held interlocking pieces (tab meets blank); tile: mean of its bars"
	}
	return title, subtitle, legend
}

// InstanceCount says how many instances the heatmap averages and how many
// of them had no usable answer: "12 instances, 2 of them invalid (counted as 0)".
func (h *Heatmap) InstanceCount() string {
	s := fmt.Sprintf("%d instances", h.Instances)
	if h.Instances == 1 {
		s = "1 instance"
	}
	switch h.Invalid {
	case 0:
		return s + ", all answers valid"
	case h.Instances:
		return s + ", all invalid (counted as 0)"
	}
	return s + fmt.Sprintf(", %d of them invalid (counted as 0)", h.Invalid)
}

// HeatmapRates are the heatmap's numbers, for render.Heatmap.
func (h *Heatmap) HeatmapRates() (grid int, cells []float64, horizontal, vertical [][]float64) {
	return h.Grid, h.Cells, h.Horizontal, h.Vertical
}
