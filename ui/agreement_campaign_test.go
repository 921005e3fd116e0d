package ui

import (
	"encoding/csv"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
)

// computeFixture opens the fixture split in the pane and computes its
// report without intervals.
func computeFixture(t *testing.T, m *MainWindow, dir string, humans []string, judge map[vigor.Condition][]string) {
	t.Helper()
	a := m.agreement
	a.OpenSplit(dir)
	m.settle()
	a.AddHumans(humans...)
	for c, fs := range judge {
		a.AddJudge(c, fs...)
	}
	a.replicates.SetSelected("0")
	a.Compute()
	m.settle()
	if a.shownReport() == nil {
		t.Fatal("no report after Compute")
	}
}

func TestAgreementNewSplitClearsOldReport(t *testing.T) {
	dir, _, _ := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	a := m.agreement
	if a.shownReport() == nil || len(a.tables) == 0 || len(a.dis) == 0 || a.board == nil {
		t.Fatal("the demo's report, disagreements and leaderboard are not shown")
	}
	a.OpenSplit(dir)
	m.settle()
	if a.shownReport() != nil || len(a.tables) != 0 || len(a.tablesBox.Objects) != 0 {
		t.Fatal("the demo's report stays on screen after choosing another split")
	}
	if a.heat.Image() != nil || len(a.disShown) != 0 || a.board != nil || len(a.boardTabs) != 0 {
		t.Error("the demo's pictures, disagreements or leaderboard stay on screen")
	}
	for _, b := range append(a.exportBtns, a.disExport) {
		if !b.Disabled() {
			t.Errorf("export %q still enabled with no report", b.Text)
		}
	}
	if !strings.HasPrefix(a.summary.Text, "No report yet for") {
		t.Errorf("summary %q", a.summary.Text)
	}
}

func TestAgreementSaysWhyUndefined(t *testing.T) {
	dir, humans, _ := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	computeFixture(t, m, dir, humans[:1], nil)
	a := m.agreement
	if !a.missing.Visible() || !containsAll(a.missing.Text, "Only 1 rater", "No judge run loaded without GT", "No judge run loaded with GT") {
		t.Errorf("missing %q (visible %v)", a.missing.Text, a.missing.Visible())
	}
	if a.board != nil || !containsAll(a.boardNote.Text, "no judge run") {
		t.Errorf("leaderboard note %q", a.boardNote.Text)
	}
}

func TestAgreementThreeConditions(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	sp, err := vigor.LoadMeta(dir)
	if err != nil {
		t.Fatal(err)
	}
	// text_gt_only is a copy of with_gt: its row must equal with_gt's.
	for k, f := range judge[vigor.WithGT] {
		recs, _, err := vigor.ReadJudgeFile(f, sp, vigor.JudgeOptions{Condition: vigor.WithGT, Fixed: true, Run: k + 1})
		if err != nil {
			t.Fatal(err)
		}
		for i := range recs {
			recs[i].Condition = "text_gt_only"
		}
		path := filepath.Join(t.TempDir(), "text.jsonl")
		if err := vigor.WriteJudgeFile(path, sp, recs); err != nil {
			t.Fatal(err)
		}
		judge["text_gt_only"] = append(judge["text_gt_only"], path)
	}
	m := agreementWindow(t, openTestStore(t))
	computeFixture(t, m, dir, humans, judge)
	a := m.agreement
	var byCond *textTable
	for _, tt := range a.tables {
		if tt.title == "Table 2 by judge condition" {
			byCond = tt
		}
	}
	if byCond == nil {
		t.Fatal("no Table 2 by judge condition")
	}
	names := []string{}
	for _, row := range byCond.cells[1:5] {
		names = append(names, row[0].Text)
	}
	if want := []string{"Human experts", "Judge without_gt", "Judge text_gt_only", "Judge with_gt"}; !slices.Equal(names, want) {
		t.Fatalf("rows %q, want %q", names, want)
	}
	for c := 1; c < 7; c++ {
		if byCond.cells[3][c].Text != byCond.cells[4][c].Text {
			t.Errorf("column %d: text_gt_only %q, with_gt %q", c, byCond.cells[3][c].Text, byCond.cells[4][c].Text)
		}
	}
	if got := a.boardCond.Options; !slices.Equal(got, []string{"without_gt", "text_gt_only", "with_gt"}) {
		t.Errorf("leaderboard conditions %q", got)
	}
	if a.board == nil || a.board.Condition != vigor.WithGT {
		t.Fatal("leaderboard not by with_gt")
	}
	a.boardCond.SetSelected("text_gt_only")
	m.settle()
	if a.board.Condition != "text_gt_only" || len(a.boardTabs) == 0 {
		t.Errorf("leaderboard by %s, %d tables", a.board.Condition, len(a.boardTabs))
	}
	if got := a.disCond.Options; !slices.Equal(got, []string{anyChoice, "without_gt", "text_gt_only", "with_gt"}) {
		t.Errorf("disagreement conditions %q", got)
	}

	// The pictures offer every condition; the scatter has a series, a
	// legend entry in its own colour, per condition.
	if got := a.condSel.Options; !slices.Equal(got, []string{"without_gt", "text_gt_only", "with_gt"}) || a.condSel.Selected != "with_gt" {
		t.Errorf("picture conditions %q, %q chosen", got, a.condSel.Selected)
	}
	a.tabs.SelectIndex(1)
	m.settle()
	img, ok := a.scatt.Image().(*image.RGBA)
	if !ok {
		t.Fatal("no scatter drawn")
	}
	sw := int(10 * m.Window.Canvas().Scale())
	for i := range 4 {
		n := countColour(img, render.SeriesColour(i))
		if i < 3 && n < sw*sw {
			t.Errorf("condition %d's colour covers %d pixels, want its legend square", i, n)
		}
		if i == 3 && n != 0 {
			t.Errorf("a fourth series colour is drawn (%d pixels) for three conditions", n)
		}
	}
	first := a.heat.Image()
	a.condSel.SetSelected("text_gt_only")
	m.settle()
	if a.heat.Image() == first {
		t.Error("choosing text_gt_only did not redraw the heatmap")
	}
}

// countColour counts img's pixels within a small distance of c.
func countColour(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i+3 < len(img.Pix); i += 4 {
		d := 0
		for k, v := range []uint8{c.R, c.G, c.B} {
			d += max(int(img.Pix[i+k])-int(v), int(v)-int(img.Pix[i+k]))
		}
		if d < 6 {
			n++
		}
	}
	return n
}

func TestAgreementDisagreementsSortFilterCSV(t *testing.T) {
	dir, humans, judge := agreementFixture(t)
	m := agreementWindow(t, openTestStore(t))
	computeFixture(t, m, dir, humans, judge)
	a := m.agreement
	sp, _ := vigor.LoadMeta(dir)
	in, _, err := vigor.Gather(sp, vigor.Sources{HumanFiles: humans, Judge: vigor.JudgeFilesOf(judge)})
	if err != nil {
		t.Fatal(err)
	}
	want, err := vigor.Disagreements(in)
	if err != nil || len(want) == 0 {
		t.Fatal(err, len(want))
	}
	if !slices.Equal(a.disShown, want) {
		t.Fatalf("list of %d cells differs from core's %d", len(a.disShown), len(want))
	}
	for i := 1; i < len(a.disShown); i++ {
		if a.disShown[i].Gap() > a.disShown[i-1].Gap() {
			t.Fatalf("row %d is further apart than row %d", i, i-1)
		}
	}
	a.disDim.SetSelected("reasoning")
	a.disCond.SetSelected(string(vigor.WithoutGT))
	a.disTrak.SetSelected(string(vigor.TrackProcess))
	filtered := vigor.FilterDisagreements(want, vigor.DisagreementFilter{Dim: vigor.Reasoning, Condition: vigor.WithoutGT, Track: vigor.TrackProcess})
	if len(filtered) == 0 || !slices.Equal(a.disShown, filtered) {
		t.Fatalf("filtered list: %d cells, want %d", len(a.disShown), len(filtered))
	}
	for _, d := range a.disShown {
		if d.Dim != vigor.Reasoning || d.Condition != vigor.WithoutGT || d.Track != vigor.TrackProcess {
			t.Fatalf("cell %+v passes the filter", d)
		}
	}
	if a.disList.Length() != len(filtered) {
		t.Errorf("list shows %d rows", a.disList.Length())
	}

	path := filepath.Join(t.TempDir(), "dis.csv")
	a.ExportDisagreements(path)
	m.settle()
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != len(filtered)+1 || rows[0][1] != "item_id" || rows[1][1] != filtered[0].Item || rows[1][6] != "reasoning_accuracy" {
		t.Errorf("CSV: %d rows, first %q", len(rows), rows[min(1, len(rows)-1)])
	}

	a.Review(0)
	if a.review == nil {
		t.Fatal("no review opened")
	}
	rv, _ := vigor.ReviewItem(in, filtered[0].Item)
	if len(rv.Ratings) != 3 || len(rv.Judge) != 6 {
		t.Errorf("review of %s: %d ratings, %d judge records", filtered[0].Item, len(rv.Ratings), len(rv.Judge))
	}
	a.review.Hide()
}

func containsAll(s string, parts ...string) bool {
	for _, p := range parts {
		if !strings.Contains(s, p) {
			return false
		}
	}
	return true
}

func TestFitCell(t *testing.T) {
	for in, want := range map[string]string{
		"0.070":                          "0.070",
		"background_consistency":         "background_\nconsistency",
		"[0.049, 0.098]":                 "[0.049,\n0.098]",
		"+0.011 [0.003, 0.020]":          "+0.011\n[0.003,\n0.020]",
		"9 items, 36 cells (excluded 0)": "9 items, 36 cells\n(excluded 0)",
	} {
		if got := fitCell(in); got != want {
			t.Errorf("fitCell(%q) = %q, want %q", in, got, want)
		}
	}
}
