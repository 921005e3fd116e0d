package ui

import (
	"cmp"
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/score"
)

// scoreTable is the Score pane's table of groups.
type scoreTable struct {
	table    *widget.Table
	rows     []scoreRow
	sortCol  int
	sortDesc bool
}

// Table columns.
type scoreColumn struct {
	title string
	width float32
}

var scoreColumns = append([]scoreColumn{
	{"Model", 190}, {"Grid", 56}, {"Condition", 84}, {"n", 52}, {"Invalid", 64},
}, append(metricColumns(), scoreColumn{"PA up to exch.", 150})...)

// exchangeColumn is PA up to exchangeable pieces (docs/analysis.md).
const exchangeColumn = firstMetricColumn + 5

// metricColumns are the metrics' columns, named as in the reports.
func metricColumns() []scoreColumn {
	var cols []scoreColumn
	for _, t := range score.MetricTitles {
		cols = append(cols, scoreColumn{t, 152}) // room for a bold "58.3% [56.3–62.0] ★"
	}
	return cols
}

const firstMetricColumn = 5

// scoreRow is one table row: a model's group, or a grid's random baseline.
type scoreRow struct {
	group    *score.Group // nil for a baseline row
	grid     int
	cond     string
	baseline score.GroupBaseline
	best     [5]bool // per metric: the best model in its grid and condition
}

func (r scoreRow) metric(i int) float64 {
	if r.group == nil {
		return [5]float64{r.baseline.PA, r.baseline.EM, r.baseline.AA, r.baseline.AADirected, r.baseline.SC}[i]
	}
	g := r.group
	return [5]float64{g.PA, g.EM, g.AA, g.AADirected, g.SC}[i]
}

func (r scoreRow) interval(i int) score.Interval {
	c := r.group.CI
	return [5]score.Interval{c.PA, c.EM, c.AA, c.AADirected, c.SC}[i]
}

func (s *ScorePane) tableView() fyne.CanvasObject {
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(s.rows), len(scoreColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			text, bold, muted := s.cellText(id.Row, id.Col)
			l.SetText(text)
			l.TextStyle = fyne.TextStyle{Bold: bold, Italic: muted}
			l.Importance = widget.MediumImportance
			if muted {
				l.Importance = widget.LowImportance
			}
			l.Refresh()
		},
	)
	s.table.ShowHeaderColumn = false
	s.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		return b
	}
	s.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*widget.Button)
		if id.Col < 0 {
			return
		}
		title := scoreColumns[id.Col].title
		if id.Col == s.sortCol {
			if s.sortDesc {
				title += " ▼"
			} else {
				title += " ▲"
			}
		}
		b.SetText(title)
		col := id.Col
		b.OnTapped = func() { s.SortBy(col) }
	}
	for i, c := range scoreColumns {
		s.table.SetColumnWidth(i, c.width)
	}
	legend := widget.NewLabel("Percent of pieces, edges or instances: mean over instances [95% bootstrap interval]; ★ best model in its grid and condition; " +
		"italic rows: a uniformly random permutation; PA up to exch.: a piece also counts in a cell whose true piece is indistinguishable from it. " +
		"Click a column title to sort within each grid.")
	legend.Wrapping = fyne.TextWrapWord
	legend.Importance = widget.LowImportance
	return container.NewBorder(nil, legend, nil, nil, s.table)
}

// cellText is what table cell (row, col) shows.
func (s *ScorePane) cellText(row, col int) (text string, bold, muted bool) {
	if row >= len(s.rows) {
		return "", false, false
	}
	r := s.rows[row]
	switch col {
	case 0:
		if r.group == nil {
			return "random baseline", false, true
		}
		return r.group.Model, false, false
	case 1:
		return fmt.Sprintf("%d×%d", r.grid, r.grid), false, r.group == nil
	case 2:
		return r.cond, false, r.group == nil
	case 3:
		if r.group == nil {
			return "", false, true
		}
		return fmt.Sprint(r.group.N), false, false
	case 4:
		if r.group == nil {
			return "", false, true
		}
		return fmt.Sprint(r.group.Invalid), false, false
	}
	if col == exchangeColumn {
		return exchangeText(r), false, r.group == nil
	}
	m := col - firstMetricColumn
	v := r.metric(m)
	if r.group == nil {
		return score.Percent(v), false, true
	}
	text = score.Percent(v) + " " + score.PercentInterval(r.interval(m))
	if r.best[m] {
		text += " ★"
	}
	return text, r.best[m], false
}

// exchangeText is a row's PA up to exchangeable pieces: its mean and
// interval, "…" while the solved images are read, "–" where there is none
// (the demo's puzzles in memory, a baseline row).
func exchangeText(r scoreRow) string {
	switch {
	case r.group == nil:
		return ""
	case r.group.PAExchangeable == nil:
		return "–"
	}
	e := r.group.PAExchangeable
	return score.Percent(e.Mean) + " " + score.PercentInterval(e.CI)
}

// buildRows turns the report's groups into rows with a baseline row per
// grid and condition, and marks the best model per metric.
func (s *ScorePane) buildRows() {
	s.rows = s.rows[:0]
	if s.report == nil {
		return
	}
	type block struct {
		grid int
		cond string
	}
	count := map[block]int{}
	for i := range s.report.Groups {
		g := &s.report.Groups[i]
		count[block{g.Grid, g.Condition}]++
		s.rows = append(s.rows, scoreRow{group: g, grid: g.Grid, cond: g.Condition, best: g.Best})
	}
	for b := range count {
		s.rows = append(s.rows, scoreRow{grid: b.grid, cond: b.cond, baseline: score.BaselineOf(b.grid)})
	}
	s.sortRows()
}

// SortBy sorts the table by column col (again: reverses).
func (s *ScorePane) SortBy(col int) {
	if s.sortCol == col {
		s.sortDesc = !s.sortDesc
	} else {
		s.sortCol, s.sortDesc = col, col >= firstMetricColumn
	}
	s.sortRows()
	s.table.Refresh()
}

func (s *ScorePane) sortRows() {
	key := func(r scoreRow) (float64, string) {
		switch s.sortCol {
		case 0:
			if r.group == nil {
				return 0, "\uffff" // baselines last among names
			}
			return 0, r.group.Model
		case 1:
			return float64(r.grid), ""
		case 2:
			return 0, r.cond
		case 3, 4:
			if r.group == nil {
				return -1, ""
			}
			return float64([2]int{r.group.N, r.group.Invalid}[s.sortCol-3]), ""
		}
		if s.sortCol == exchangeColumn {
			if r.group == nil || r.group.PAExchangeable == nil {
				return -1, ""
			}
			return r.group.PAExchangeable.Mean, ""
		}
		return r.metric(s.sortCol - firstMetricColumn), ""
	}
	// Rows stay in their grid and condition block, the baseline last in
	// it; the chosen column orders the models within a block (the Grid
	// column orders the blocks).
	gridDir := 1
	if s.sortCol == 1 && s.sortDesc {
		gridDir = -1
	}
	slices.SortStableFunc(s.rows, func(a, b scoreRow) int {
		if c := cmp.Or(gridDir*cmp.Compare(a.grid, b.grid), strings.Compare(a.cond, b.cond),
			cmp.Compare(boolInt(a.group == nil), boolInt(b.group == nil))); c != 0 {
			return c
		}
		ka, sa := key(a)
		kb, sb := key(b)
		c := cmp.Or(cmp.Compare(ka, kb), strings.Compare(sa, sb))
		if s.sortDesc && s.sortCol != 1 {
			c = -c
		}
		return cmp.Or(c, strings.Compare(modelOf(a), modelOf(b)))
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func modelOf(r scoreRow) string {
	if r.group == nil {
		return ""
	}
	return r.group.Model
}

// ---- heatmaps ----
