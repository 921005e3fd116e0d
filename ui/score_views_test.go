package ui

import (
	"cmp"
	"image"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// demoScore opens the Score pane on its demo.
func demoScore(t *testing.T) (*MainWindow, *ScorePane) {
	t.Helper()
	m := newTestWindow(t, &fakeChooser{})
	m.Show(paneScore)
	m.settle()
	s := m.score
	if s.report == nil || s.memory == nil {
		t.Fatalf("no demo report (status %q)", m.Status.Text())
	}
	return m, s
}

// TestScoreNewTruthClearsStaleViews: after opening new truth and answers,
// no view shows the demo's instance or heatmap.
func TestScoreNewTruthClearsStaleViews(t *testing.T) {
	m, s := demoScore(t)
	s.tabs.SelectIndex(2)
	s.SelectInstance(0)
	m.settle()
	if s.solved.Image() == nil || s.selected != 0 {
		t.Fatal("the demo instance is not shown")
	}
	demoID := s.report.Instances[0].ID
	truthDir, sources := scoreFixture(t)
	loadScore(t, m, truthDir, sources)
	if s.selected != -1 || s.solved.Image() != nil || s.reassembly.Image() != nil {
		t.Errorf("the old instance is still shown (selected %d)", s.selected)
	}
	if strings.Contains(s.instInfo.Text, demoID) || s.rawText.Text != "" {
		t.Errorf("instance text still about the demo: %q / %q", s.instInfo.Text, s.rawText.Text)
	}
	if h := s.heatmapShown(); h == nil || (h.Model != "border" && h.Model != "random") {
		t.Errorf("heatmap shown: %+v", h)
	}
	// The second pass added PA up to exchangeable pieces to every group.
	for row, r := range s.rows {
		if r.group == nil {
			continue
		}
		e := r.group.PAExchangeable
		if e == nil {
			t.Fatalf("%s %d×%d: no PA up to exchangeable pieces", r.group.Model, r.grid, r.grid)
		}
		if got, _, _ := s.cellText(row, exchangeColumn); got != score.Percent(e.Mean)+" "+score.PercentInterval(e.CI) {
			t.Errorf("PA up to exch. cell %q, group %+v", got, *e)
		}
	}
	for _, o := range s.model.Options {
		if strings.HasPrefix(o, "simulated") {
			t.Errorf("model box still offers the demo's %s", o)
		}
	}
}

// TestScoreSortKeepsGridsAndBaselines: whatever column sorts, each grid
// and condition's rows stay together with the baseline last, and the
// column orders the models within it.
func TestScoreSortKeepsGridsAndBaselines(t *testing.T) {
	_, s := demoScore(t)
	for _, col := range []int{firstMetricColumn, firstMetricColumn + 4, 0, 3} {
		for range 2 { // ascending and descending
			s.SortBy(col)
			type block struct {
				grid int
				cond string
			}
			seen := map[block]bool{}
			for i, r := range s.rows {
				b := block{r.grid, r.cond}
				if i > 0 && (s.rows[i-1].grid != r.grid || s.rows[i-1].cond != r.cond) {
					if seen[b] {
						t.Fatalf("column %d: block %v split", col, b)
					}
					if s.rows[i-1].group != nil {
						t.Fatalf("column %d: block before row %d does not end with its baseline", col, i)
					}
				}
				seen[b] = true
				if i > 0 && s.rows[i-1].group == nil && r.group != nil && s.rows[i-1].grid == r.grid && s.rows[i-1].cond == r.cond {
					t.Fatalf("column %d: a model row after its baseline", col)
				}
			}
			if last := s.rows[len(s.rows)-1]; last.group != nil {
				t.Fatalf("column %d: the last row is not a baseline", col)
			}
			if col == firstMetricColumn {
				for i := 1; i < len(s.rows); i++ {
					a, b := s.rows[i-1], s.rows[i]
					if a.group == nil || b.group == nil || a.grid != b.grid || a.cond != b.cond {
						continue
					}
					if c := cmp.Compare(a.group.PA, b.group.PA); s.sortDesc && c < 0 || !s.sortDesc && c > 0 {
						t.Fatalf("PA not in order within %d×%d %s (desc %v)", a.grid, a.grid, a.cond, s.sortDesc)
					}
				}
			}
		}
	}
}

// TestScoreCompareExcludesChosenModel: Compare with offers every other
// model and says when the other model lacks the condition.
func TestScoreCompareExcludesChosenModel(t *testing.T) {
	m, s := demoScore(t)
	s.tabs.SelectIndex(1)
	models := s.reportModels()
	if len(models) < 2 {
		t.Fatalf("demo has models %v", models)
	}
	for _, chosen := range models {
		s.model.SetSelected(chosen)
		m.settle()
		if slices.Contains(s.model2.Options, chosen) {
			t.Errorf("Compare with offers the chosen %s: %v", chosen, s.model2.Options)
		}
		if len(s.model2.Options) != len(models) || s.model2.Options[0] != noComparison {
			t.Errorf("Compare with %v for %s", s.model2.Options, chosen)
		}
	}
	// simulated-random answered only the shape condition.
	s.model.SetSelected("simulated-border-aware")
	s.model2.SetSelected("simulated-random")
	s.cond.SetSelected(puzzle.ConditionRect)
	m.settle()
	if !strings.Contains(s.heatValue.Text, "simulated-random has no answers at") || s.heatData2 != nil {
		t.Errorf("a missing condition is not said: %q (model %q, compare %q of %v, cond %q of %v)", s.heatValue.Text,
			s.model.Selected, s.model2.Selected, s.model2.Options, s.cond.Selected, s.cond.Options)
	}
	// Hover names the instances counted.
	h := s.heatmapShown()
	origin, cell := render.HeatmapGrid(h, s.heatOpt)
	s.hoverHeat(h, s.heatOpt, float64(origin.X+cell/2), float64(origin.Y+cell/2), true)
	if !strings.Contains(s.heatValue.Text, h.InstanceCount()) || !strings.Contains(s.heatValue.Text, "row 0, column 0") {
		t.Errorf("hover readout %q", s.heatValue.Text)
	}
}

// TestScoreInstancesWorstFirst: the list names the condition and sorts
// worst PA first.
func TestScoreInstancesWorstFirst(t *testing.T) {
	m, s := demoScore(t)
	s.tabs.SelectIndex(2)
	s.instOrder.SetSelected(orderWorstPA)
	m.settle()
	if len(s.instRows) != len(s.report.Instances) {
		t.Fatalf("%d rows listed of %d", len(s.instRows), len(s.report.Instances))
	}
	for i := 1; i < len(s.instRows); i++ {
		if s.report.Instances[s.instRows[i-1]].PA > s.report.Instances[s.instRows[i]].PA {
			t.Fatalf("row %d: PA not worst first", i)
		}
	}
	item := s.instList.CreateItem()
	s.instList.UpdateItem(0, item)
	is := s.report.Instances[s.instRows[0]]
	if text := item.(*widget.Label).Text; !strings.Contains(text, is.ID+" · "+is.Condition) || !strings.Contains(text, score.Percent(is.PA)) {
		t.Errorf("list item %q", text)
	}
}

// TestScoreAblationView: the Ablation view lists the report's ablation and
// reads the difference heatmap's cells on hover.
func TestScoreAblationView(t *testing.T) {
	m, s := demoScore(t)
	s.tabs.SelectIndex(3)
	m.settle()
	if len(s.report.Ablation) == 0 || len(s.ablationData.Rows) == 0 {
		t.Fatal("the demo has no ablation")
	}
	a := s.report.Ablation[0]
	if got, want := s.ablationCell(0, 3), score.PairedText(a.PA); got != want {
		t.Errorf("table PA %q, want %q", got, want)
	}
	size := s.ablationChart.Size()
	l, ok := render.LayoutDiffChart(s.ablationData, int(size.Width), int(size.Height), render.LightPlotStyle(1))
	if !ok {
		t.Fatalf("nothing fits in %v", size)
	}
	centre := l.Origin.Add(image.Pt(l.CellW/2, l.CellH/2))
	s.hoverAblation(fyne.NewPos(float32(centre.X), float32(centre.Y)), true)
	if want := score.PairedText(a.PA); !strings.Contains(s.ablationValue.Text, a.Model) || !strings.Contains(s.ablationValue.Text, want) {
		t.Errorf("hover %q, want %s and %s", s.ablationValue.Text, a.Model, want)
	}
}
