package ui

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/theme"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// writeAnswersJSONL writes a simulated model's answers as a model would
// hand them in: a prediction per line, or its raw response when it gave no
// usable answer.
func writeAnswersJSONL(t *testing.T, path string, set *score.AnswerSet, n map[string]int, extra ...string) {
	t.Helper()
	var b bytes.Buffer
	for _, rec := range set.Records {
		line := map[string]any{"id": rec.ID}
		if rec.Valid() {
			pred := map[string][2]int{}
			for k, c := range rec.Cells {
				pred[fmt.Sprint(k)] = [2]int{c / n[rec.ID], c % n[rec.ID]}
			}
			line["prediction"] = pred
		} else {
			line["response"] = rec.Raw
		}
		j, err := json.Marshal(line)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(j)
		b.WriteByte('\n')
	}
	for _, e := range extra {
		b.WriteString(e + "\n")
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// scoreFixture writes instances and two models' answers to disk.
func scoreFixture(t *testing.T) (truthDir string, sources []score.Source) {
	t.Helper()
	truthDir = t.TempDir()
	writeInstances(t, truthDir, 4, 4, 5, 5)
	truth, err := score.LoadTruth(context.Background(), truthDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	grids := map[string]int{}
	for _, ti := range truth.Instances {
		grids[ti.ID] = ti.Grid
	}
	preds := t.TempDir()
	a := filepath.Join(preds, "border.jsonl")
	writeAnswersJSONL(t, a, score.SimulateAnswers(truth, score.SimBorderAware, puzzle.ConditionShape, 1), grids,
		`{"id": "scene-g5-s4", "response": "I cannot see the numbers on these pieces, sorry."}`)
	b := filepath.Join(preds, "random.jsonl")
	writeAnswersJSONL(t, b, score.SimulateAnswers(truth, score.SimRandom, puzzle.ConditionShape, 2), grids)
	return truthDir, []score.Source{
		{Model: "border", Path: a, Condition: puzzle.ConditionShape},
		{Model: "random", Path: b, Condition: puzzle.ConditionShape},
	}
}

func loadScore(t *testing.T, m *MainWindow, truthDir string, sources []score.Source) *ScorePane {
	t.Helper()
	m.Show(paneScore)
	m.settle()
	s := m.score
	for _, src := range sources {
		s.AddPredictions(src.Model, src.Path, src.Condition)
	}
	s.OpenTruth(truthDir)
	m.settle()
	if s.report == nil || s.memory != nil {
		t.Fatalf("no report after loading (status %q)", m.Status.Text())
	}
	return s
}

func TestScorePaneShowsWhatCoreComputes(t *testing.T) {
	truthDir, sources := scoreFixture(t)
	m := newTestWindow(t, &fakeChooser{})
	s := loadScore(t, m, truthDir, sources)

	truth, err := score.LoadTruth(context.Background(), truthDir, nil)
	if err != nil {
		t.Fatal(err)
	}
	want, err := score.Evaluate(context.Background(), truth, sources, score.Options{Exchange: render.InstanceExchange}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(want.Groups) != 4 {
		t.Fatalf("core made %d groups, want 2 models × 2 grids", len(want.Groups))
	}
	// Every group appears in the table with core's numbers, and each grid has a baseline row.
	for _, g := range want.Groups {
		found := false
		for row := range s.rows {
			if name, _, _ := s.cellText(row, 0); name != g.Model || s.rows[row].grid != g.Grid {
				continue
			}
			found = true
			for m, v := range [5]float64{g.PA, g.EM, g.AA, g.AADirected, g.SC} {
				text, _, _ := s.cellText(row, firstMetricColumn+m)
				ci := [5]score.Interval{g.CI.PA, g.CI.EM, g.CI.AA, g.CI.AADirected, g.CI.SC}[m]
				prefix := score.Percent(v) + " " + score.PercentInterval(ci)
				if !strings.HasPrefix(text, prefix) {
					t.Errorf("%s %d×%d metric %d: table shows %q, core says %q", g.Model, g.Grid, g.Grid, m, text, prefix)
				}
			}
			if n, _, _ := s.cellText(row, 3); n != fmt.Sprint(g.N) {
				t.Errorf("%s: n %s, want %d", g.Model, n, g.N)
			}
			if inv, _, _ := s.cellText(row, 4); inv != fmt.Sprint(g.Invalid) {
				t.Errorf("%s: invalid %s, want %d", g.Model, inv, g.Invalid)
			}
		}
		if !found {
			t.Errorf("group %s %d×%d is missing from the table", g.Model, g.Grid, g.Grid)
		}
	}
	baselines := 0
	for row := range s.rows {
		if name, _, muted := s.cellText(row, 0); name == "random baseline" && muted {
			baselines++
			if pa, _, _ := s.cellText(row, firstMetricColumn); pa != score.Percent(score.BaselineOf(s.rows[row].grid).PA) {
				t.Errorf("baseline PA %s", pa)
			}
		}
	}
	if baselines != 2 {
		t.Errorf("%d baseline rows, want one per grid", baselines)
	}
	// Sorting by PA puts the best group first.
	s.SortBy(firstMetricColumn)
	if top, _, _ := s.cellText(0, firstMetricColumn); !strings.HasSuffix(top, "★") {
		t.Errorf("sorted by PA, the first row %q is not marked best", top)
	}

	// Heatmaps follow metric, model and grid.
	s.tabs.SelectIndex(1)
	m.settle()
	h := s.heatmapShown()
	if h == nil || h.Metric != score.HeatmapPA {
		t.Fatalf("heatmap %v", h)
	}
	for _, step := range []struct {
		set   func()
		check func(*score.Heatmap) bool
	}{
		{func() { s.metric.SetSelected("AA") }, func(h *score.Heatmap) bool { return h.Metric == score.HeatmapAA && h.Horizontal != nil }},
		{func() { s.model.SetSelected("random") }, func(h *score.Heatmap) bool { return h.Model == "random" }},
		{func() { s.grid.SetSelected("5×5") }, func(h *score.Heatmap) bool { return h.Grid == 5 && len(h.Cells) == 25 }},
	} {
		step.set()
		m.settle()
		if h := s.heatmapShown(); h == nil || !step.check(h) {
			t.Fatalf("heatmap did not follow the change: %+v", h)
		}
	}
	wantH, err := want.Heatmap(score.HeatmapAA, "random", 5, puzzle.ConditionShape)
	if err != nil || wantH.Mean != s.heatmapShown().Mean {
		t.Errorf("shown heatmap mean %v, core %v (%v)", s.heatmapShown().Mean, wantH.Mean, err)
	}

	// The invalid answer shows its reason and the model's words.
	s.tabs.SelectIndex(2)
	s.onlyInvalid.SetChecked(true)
	m.settle()
	shown := false
	for i, ri := range s.instRows {
		is := s.report.Instances[ri]
		if is.Model == "border" && is.ID == "scene-g5-s4" {
			s.instList.Select(i)
			m.settle()
			shown = true
		}
	}
	if !shown {
		t.Fatal("the invalid answer is not listed under 'Invalid only'")
	}
	if s.rawText.Text != "I cannot see the numbers on these pieces, sorry." || !strings.Contains(s.instInfo.Text, "invalid") {
		t.Fatalf("raw %q, info %q", s.rawText.Text, s.instInfo.Text)
	}

	// Exports are core's writers: the JSON is what `jigbench score --json` writes.
	out := t.TempDir()
	for _, f := range []string{"r.json", "r.csv", "r.md", "h.png"} {
		if f == "h.png" {
			s.ExportHeatmap(filepath.Join(out, f))
		} else {
			s.ExportReport(filepath.Join(out, f))
		}
	}
	m.settle()
	var wantJSON bytes.Buffer
	if err := want.WriteJSON(&wantJSON); err != nil {
		t.Fatal(err)
	}
	got, err := os.ReadFile(filepath.Join(out, "r.json"))
	if err != nil || !bytes.Equal(got, wantJSON.Bytes()) {
		t.Fatalf("exported JSON differs from core's report (%v)", err)
	}
	for _, f := range []string{"r.csv", "r.md", "h.png"} {
		if fi, err := os.Stat(filepath.Join(out, f)); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", f, err)
		}
	}
}

// TestScoreLoadingKeepsTheWindowResponsive loads 1,000 instances × 3 models
// and holds the load half-way: the UI goroutine stays free, progress shows,
// and the result arrives when the load finishes.
func TestScoreLoadingKeepsTheWindowResponsive(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 1,000 instances")
	}
	truthDir := t.TempDir()
	var truths []*score.Truth
	for i := range 1000 {
		p, err := puzzle.New(4, uint64(i), [32]byte{byte(i), byte(i >> 8)}, 320, 320, puzzle.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		inst := p.Instance(fmt.Sprintf("synthetic%04d", i), 320, 320)
		data, err := inst.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		dir := filepath.Join(truthDir, inst.ID)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "instance.json"), data, 0o644); err != nil {
			t.Fatal(err)
		}
		truths = append(truths, score.TruthOf(inst))
	}
	truth, err := score.NewTruthSet(truths...)
	if err != nil {
		t.Fatal(err)
	}
	grids := map[string]int{}
	for _, tr := range truths {
		grids[tr.ID] = 4
	}
	preds := t.TempDir()
	var sources []score.Source
	for i, model := range []score.SimulatedModel{score.SimBorderAware, score.SimRandom, score.SimBorderAware} {
		path := filepath.Join(preds, fmt.Sprintf("m%d.jsonl", i))
		writeAnswersJSONL(t, path, score.SimulateAnswers(truth, model, puzzle.ConditionShape, uint64(i)), grids)
		sources = append(sources, score.Source{Model: fmt.Sprintf("model-%d", i+1), Path: path, Condition: puzzle.ConditionShape})
	}

	m := newTestWindow(t, &fakeChooser{})
	m.Show(paneScore)
	m.settle()
	s := m.score
	entered, release := make(chan struct{}), make(chan struct{})
	holdNextWork(m, func() {
		entered <- struct{}{}
		<-release
	})
	for _, src := range sources {
		s.sources = append(s.sources, src)
	}
	s.OpenTruth(truthDir)
	<-entered // the load is running on a worker, held here
	if !s.loading() {
		t.Fatal("no progress shown while loading")
	}
	s.tabs.SelectIndex(1)
	m.Status.Set("still responsive")
	if s.tabs.SelectedIndex() != 1 || m.Status.Text() != "still responsive" {
		t.Fatal("the UI did not respond during the load")
	}
	close(release)
	m.settle()
	if s.loading() || len(s.report.Instances) != 3000 || len(s.report.Groups) != 3 {
		t.Fatalf("after the load: loading %v, %d scores, %d groups (status %q)", s.loading(), len(s.report.Instances), len(s.report.Groups), m.Status.Text())
	}
}

func TestScoreLoadCanBeCancelled(t *testing.T) {
	truthDir, sources := scoreFixture(t)
	m := newTestWindow(t, &fakeChooser{})
	m.Show(paneScore)
	m.settle()
	s := m.score
	entered, release := make(chan struct{}), make(chan struct{})
	holdNextWork(m, func() {
		entered <- struct{}{}
		<-release
	})
	s.sources = sources
	s.OpenTruth(truthDir)
	<-entered
	s.cancelLoad()
	close(release)
	m.settle()
	if m.Status.Text() != "Scoring cancelled." || s.loading() {
		t.Fatalf("status %q", m.Status.Text())
	}
}

// TestScoreLook writes pictures of the Score pane with one and with four
// models, light and dark, to $JIGBENCH_LOOK for a person to look at.
func TestScoreLook(t *testing.T) {
	out := os.Getenv("JIGBENCH_LOOK")
	if out == "" {
		t.Skip("set JIGBENCH_LOOK=DIR to write pictures of the Score pane")
	}
	truthDir, two := scoreFixture(t)
	four := append(slices.Clone(two),
		score.Source{Model: "border-again", Path: two[0].Path, Condition: puzzle.ConditionRect},
		score.Source{Model: "random-rect", Path: two[1].Path, Condition: puzzle.ConditionRect})
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		for _, srcs := range [][]score.Source{two[:1], four} {
			m := newTestWindow(t, &fakeChooser{})
			m.App.Settings().SetTheme(ForcedVariant{Theme: theme.DefaultTheme(), Variant: variant})
			s := loadScore(t, m, truthDir, srcs)
			for i, v := range append([]tourView{{Show: func() { s.tabs.SelectIndex(0) }}}, s.tourViews()...) {
				v.Show()
				m.settle()
				name := filepath.Join(out, fmt.Sprintf("score-%dmodels-%d-%d.png", len(srcs), variant, i))
				if err := writeCapture(name, m.Window.Canvas().Capture()); err != nil {
					t.Fatal(err)
				}
			}
		}
	}
}
