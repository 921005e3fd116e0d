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
	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
)

// agreementFixture writes a split, three simulated annotators' rating
// exports and three judge runs per condition (one file each).
func agreementFixture(t *testing.T) (dir string, humans []string, judge map[vigor.Condition][]string) {
	t.Helper()
	dir = t.TempDir()
	sp := writeTestSplit(t, dir, 10, 6, 1, 8, 8)
	h, j := vigor.Simulate(sp, vigor.SimConfig{Seed: 11})
	by := map[string][]vigor.Rating{}
	for _, r := range h {
		by[r.Annotator] = append(by[r.Annotator], r)
	}
	files := t.TempDir()
	for _, name := range []string{vigor.SimAnnotator(0), vigor.SimAnnotator(1), vigor.SimAnnotator(2)} {
		path := filepath.Join(files, name+".csv")
		if err := vigor.WriteRatingsFile(path, by[name]); err != nil {
			t.Fatal(err)
		}
		humans = append(humans, path)
	}
	judge = map[vigor.Condition][]string{}
	for _, c := range vigor.Conditions {
		for run := 1; run <= 3; run++ {
			var recs []vigor.JudgeRecord
			for _, r := range j {
				if r.Condition == c && r.Run == run {
					recs = append(recs, r)
				}
			}
			path := filepath.Join(files, fmt.Sprintf("judge-%s-%d.jsonl", c, run))
			if err := vigor.WriteJudgeFile(path, sp, recs); err != nil {
				t.Fatal(err)
			}
			judge[c] = append(judge[c], path)
		}
	}
	return dir, humans, judge
}

// expectedReport computes what the pane should show, straight from core.
func expectedReport(t *testing.T, dir string, humans []string, judge map[vigor.Condition][]string, extra []vigor.Rating, opt vigor.Options) *vigor.Report {
	t.Helper()
	sp, err := vigor.LoadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	in := vigor.Input{Split: sp}
	if in.Humans, err = vigor.ReadRatingsFiles(humans, sp); err != nil {
		t.Fatal(err)
	}
	in.Humans = append(in.Humans, extra...)
	for _, c := range vigor.Conditions {
		for k, f := range judge[c] {
			recs, _, err := vigor.ReadJudgeFile(f, sp, vigor.JudgeOptions{Condition: c, Fixed: true, Run: k + 1})
			if err != nil {
				t.Fatal(err)
			}
			in.Judge = append(in.Judge, recs...)
		}
	}
	rep, err := vigor.Analyze(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func agreementWindow(t *testing.T, store RatingStore) *MainWindow {
	t.Helper()
	a := test.NewTempApp(t)
	m := NewMainWindow(a, Options{Version: "test", Dispatcher: NewQueue(),
		Files:   func(FileChooser) FileChooser { return &fakeChooser{} },
		Ratings: func() (RatingStore, error) { return store, nil }})
	m.Window.Resize(fyne.NewSize(1280, 800))
	m.Window.Show()
	t.Cleanup(m.Window.Close)
	m.Show(paneAgreement)
	m.settle() // the pane opens on the demo split
	return m
}

func TestAgreementShowsWhatCoreComputes(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	a := m.agreement
	if a.shownReport() == nil || a.shownReport().Split != vigordemo.Name {
		t.Fatal("the pane did not open on the demo split's report")
	}
	a.OpenSplit(dir)
	m.settle()
	a.AddHumans(humans...)
	for _, c := range vigor.Conditions {
		a.AddJudge(c, judge[c]...)
	}
	a.replicates.SetSelected("500")
	a.seed.SetText("7")
	a.Compute()
	m.settle()
	want := expectedReport(t, dir, humans, judge, nil, vigor.Options{Replicates: 500, Seed: 7})

	got, _ := json.Marshal(a.shownReport())
	exp, _ := json.Marshal(want)
	if !bytes.Equal(got, exp) {
		t.Fatal("the pane's report differs from vigor.Analyze's on the same files")
	}
	// What is on screen: the Table 2 labels are the report's numbers,
	// formatted as the text and Markdown reports format them.
	t2 := a.tables[0]
	if t2.cells[0][1].Text != "Process\nMAE" || t2.cells[0][6].Text != "Result\nVar" {
		t.Fatalf("Table 2 header %q … %q", t2.cells[0][1].Text, t2.cells[0][6].Text)
	}
	rows := []struct {
		name string
		row  *vigor.Row
	}{{"Human experts", &want.Table2.HumanExperts}, {"Judge without GT", &want.Table2.JudgeWithoutGT}, {"Judge with GT", &want.Table2.JudgeWithGT}}
	for i, r := range rows {
		shown := make([]string, 7)
		for c := range shown {
			shown[c] = t2.cells[i+1][c].Text
		}
		wantRow := []string{r.name,
			r.row.Process.MAE.Format(3), r.row.Process.Accuracy.Percent(1), r.row.Process.Variance.Format(3),
			r.row.Result.MAE.Format(3), r.row.Result.Accuracy.Percent(1), r.row.Result.Variance.Format(3)}
		if !slices.Equal(shown, wantRow) {
			t.Errorf("Table 2 row %d shows %q, want %q", i, shown, wantRow)
		}
	}
	byTitle := map[string]*textTable{}
	for _, tt := range a.tables {
		byTitle[tt.title] = tt
	}
	ceil := byTitle["Human ceiling"]
	if ceil == nil || ceil.cells[1][1].Text != want.HumanCeiling.Process.MAE.Format(3) ||
		ceil.cells[1][4].Text != want.HumanCeiling.Result.Accuracy.Percent(1) {
		t.Errorf("human ceiling shown wrong")
	}
	rel := byTitle["Inter-rater reliability"]
	if rel == nil || rel.cells[1][1].Text != want.Reliability.Humans.Process.All.KrippendorffAlpha.Format(3) ||
		rel.cells[1][3].Text != want.Reliability.Humans.Result.All.FleissKappa.Format(3) {
		t.Errorf("reliability shown wrong")
	}
	bias := byTitle["Bias"]
	if bias == nil || !strings.HasSuffix(bias.cells[2][1].Text, want.Bias.JudgeWithGT.Process.Overall.Format(3)) {
		t.Errorf("bias shown wrong")
	}
	ci := byTitle["95% bootstrap intervals"]
	if ci == nil || ci.cells[3][4].Text != fitCell(want.CI.Table2.JudgeWithGT.Result.MAE.Format(3)) {
		t.Errorf("intervals shown wrong")
	}
	if !strings.Contains(a.summary.Text, "3 annotators") {
		t.Errorf("summary %q", a.summary.Text)
	}

	// The pictures: drawn by core/render at the views' size.
	a.tabs.SelectIndex(1)
	m.settle()
	for name, v := range map[string]*chartView{"heatmap": a.heat, "confusion": a.confusion, "scatter": a.scatt} {
		img := v.Image()
		if img == nil {
			t.Fatalf("no %s", name)
		}
		if b := img.Bounds(); b.Dx() != int(v.Size().Width) || b.Dy() != int(v.Size().Height) {
			t.Errorf("%s drawn at %v for a %v view", name, b, v.Size())
		}
	}
	first := a.heat.Image()
	a.condSel.SetSelected(string(vigor.WithoutGT))
	a.trackSel.SetSelected("Process")
	m.settle()
	if a.heat.Image() == first {
		t.Error("choosing another condition and track did not redraw the heatmap")
	}
}

func TestAgreementUsesThisMachinesStore(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	store := openTestStore(t)
	sp, _ := vigor.LoadMeta(dir)
	ctx := context.Background()
	var mine []vigor.Rating
	for i, it := range sp.Items {
		r := vigor.Rating{Split: sp.Name, Item: it.ID, Annotator: "zoe", Scores: vigor.Scores{i % 2, 1, 0, 1}}
		if it.Track == vigor.TrackProcess {
			r.Scores = vigor.Scores{(10 * i) % 101, 50, 90, 30}
		}
		saved, err := store.Save(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		mine = append(mine, saved)
	}
	m := agreementWindow(t, store)
	a := m.agreement
	a.OpenSplit(dir)
	m.settle()
	if !slices.Equal(a.storeNames, []string{"zoe"}) || !a.useStore["zoe"] {
		t.Fatalf("store raters %v", a.storeNames)
	}
	a.AddHumans(humans[:2]...)
	for _, c := range vigor.Conditions {
		a.AddJudge(c, judge[c]...)
	}
	a.replicates.SetSelected("0")
	a.Compute()
	m.settle()
	want := expectedReport(t, dir, humans[:2], judge, mine, vigor.Options{})
	if !slices.Contains(a.shownReport().Annotators, "zoe") {
		t.Fatalf("annotators %v", a.shownReport().Annotators)
	}
	if got, exp := a.tables[0].cells[3][4].Text, want.Table2.JudgeWithGT.Result.MAE.Format(3); got != exp {
		t.Fatalf("with zoe from the store: result MAE %s, want %s", got, exp)
	}
}

func TestAgreementExportsAndCancel(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	a := m.agreement
	a.OpenSplit(dir)
	m.settle()
	a.AddHumans(humans...)
	a.AddJudge(vigor.WithGT, judge[vigor.WithGT]...)
	a.replicates.SetSelected("200")
	a.Compute()
	m.settle()
	rep := a.shownReport()
	out := t.TempDir()
	for _, ext := range []string{"md", "csv", "json", "png"} {
		a.Export(filepath.Join(out, "report."+ext))
	}
	m.settle()
	var md, csvb, js bytes.Buffer
	rep.WriteMarkdown(&md)
	rep.WriteCSV(&csvb)
	rep.WriteJSON(&js)
	for ext, want := range map[string][]byte{"md": md.Bytes(), "csv": csvb.Bytes(), "json": js.Bytes()} {
		got, err := os.ReadFile(filepath.Join(out, "report."+ext))
		if err != nil || !bytes.Equal(got, want) {
			t.Errorf("report.%s is not the core writer's output (%v)", ext, err)
		}
	}
	img, err := render.LoadImage(filepath.Join(out, "report.png"))
	if err != nil || img.Rect.Dx() < 2*exportChartW {
		t.Fatalf("report.png: %v %v", err, img)
	}

	// Cancel: a long bootstrap stops, the last report stays.
	a.replicates.SetSelected("10000")
	a.Compute()
	if !a.progressBox.Visible() || a.compute.Disabled() == false {
		t.Fatal("no progress and Cancel while computing")
	}
	a.Cancel()
	m.settle()
	if a.shownReport() != rep || a.progressBox.Visible() || !strings.Contains(m.Status.Text(), "Cancelled") {
		t.Fatalf("after Cancel: report replaced %v, progress visible %v, status %q", a.shownReport() != rep, a.progressBox.Visible(), m.Status.Text())
	}
}

func TestAgreementReportsBadInputs(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	a := m.agreement
	a.OpenSplit(dir)
	m.settle()
	before := a.shownReport()
	a.Compute() // no ratings chosen
	m.settle()
	if !strings.Contains(m.Status.Text(), "no human ratings") || a.shownReport() != before {
		t.Fatalf("status %q", m.Status.Text())
	}
	// A judge file with an unreadable record: reported, left out, the rest scored.
	bad := filepath.Join(t.TempDir(), "bad.jsonl")
	data, _ := os.ReadFile(judge[vigor.WithGT][0])
	os.WriteFile(bad, append(data, []byte("{\"id\": \"r-01\", \"run\": 9, \"scores\": {\"rule_obey\": 7}}\nnot json\n")...), 0o644)
	a.AddHumans(humans...)
	a.AddJudge(vigor.WithGT, bad)
	a.Compute()
	m.settle()
	if a.shownReport() == before || !a.problems.Visible() || !strings.Contains(a.problems.Text, "2 judge record(s)") {
		t.Fatalf("problems %q", a.problems.Text)
	}
}
