package vigor

import (
	"bytes"
	"context"
	"encoding/csv"
	"strings"
	"testing"
)

// TestDisagreementsHandWorked uses lbInput (leaderboard_test.go) plus one
// text_gt_only record for d1 scoring {0, 1, 1, 1} where the humans gave
// {1, 1, 1, 0}. By hand: text_gt_only d1 has gaps 1 on background
// consistency and on reasoning; with_gt reasoning has gaps ½ on a2
// (humans 1, judge ½), b1 (humans ½, judge 1) and c2 (humans ½, judge 0);
// every other cell agrees exactly.
func TestDisagreementsHandWorked(t *testing.T) {
	in := lbInput(t)
	in.Judge = append(in.Judge, JudgeRecord{Item: "d1", Run: 1, Condition: "text_gt_only", Scores: Scores{0, 1, 1, 1}})
	ds, err := Disagreements(in)
	if err != nil {
		t.Fatal(err)
	}
	if len(ds) != 8*4+4 {
		t.Fatalf("%d cells, want 36", len(ds))
	}
	want := []struct {
		item string
		dim  Dim
		cond Condition
		h, j float64
	}{
		{"d1", BackgroundConsistency, "text_gt_only", 1, 0},
		{"d1", Reasoning, "text_gt_only", 0, 1},
		{"a2", Reasoning, WithGT, 1, 0.5},
		{"b1", Reasoning, WithGT, 0.5, 1},
		{"c2", Reasoning, WithGT, 0.5, 0},
		{"a1", BackgroundConsistency, WithGT, 1, 1}, // gap 0: split order, then dimension
		{"a1", RuleObey, WithGT, 1, 1},
	}
	for i, w := range want {
		d := ds[i]
		if d.Item != w.item || d.Dim != w.dim || d.Condition != w.cond || d.Human != w.h || d.Judge != w.j {
			t.Errorf("row %d: %s %s %s humans %v judge %v; want %s %s %s %v %v", i, d.Item, d.Dimension(), d.Condition, d.Human, d.Judge,
				w.item, w.dim.Name(TrackResult), w.cond, w.h, w.j)
		}
	}
	if ds[2].Raters != 2 || ds[2].Runs != 2 || ds[0].Runs != 1 || ds[2].Model != "A" {
		t.Errorf("a2: raters %d runs %d model %q; d1: runs %d", ds[2].Raters, ds[2].Runs, ds[2].Model, ds[0].Runs)
	}
	for i := 1; i < len(ds); i++ {
		if ds[i].Gap() > ds[i-1].Gap() {
			t.Fatalf("row %d gap %v after %v", i, ds[i].Gap(), ds[i-1].Gap())
		}
	}

	got := FilterDisagreements(ds, DisagreementFilter{Dim: Reasoning, Condition: WithGT})
	if len(got) != 8 || got[0].Item != "a2" || got[1].Item != "b1" || got[2].Item != "c2" {
		t.Errorf("reasoning with_gt: %d rows starting %v", len(got), got[:min(3, len(got))])
	}
	if got := FilterDisagreements(ds, DisagreementFilter{Dim: -1, Model: "D"}); len(got) != 8+4 {
		t.Errorf("model D: %d rows, want 12", len(got))
	}
	if got := FilterDisagreements(ds, DisagreementFilter{Dim: -1, Track: TrackProcess}); len(got) != 0 {
		t.Errorf("process track: %d rows, want 0", len(got))
	}
	if got := FilterDisagreements(ds, AnyDisagreement); len(got) != len(ds) {
		t.Errorf("any: %d rows", len(got))
	}
}

func TestDisagreementsCSV(t *testing.T) {
	ds := []Disagreement{{Item: "x1", Track: TrackResult, Model: "=cmd()", Dim: Reasoning, Condition: WithGT, Human: 0.5, Judge: 0, Raters: 2, Runs: 3}}
	var buf bytes.Buffer
	if err := WriteDisagreementsCSV(&buf, ds); err != nil {
		t.Fatal(err)
	}
	rows, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := []string{"1", "x1", "result", "'=cmd()", "", "", "reasoning_success", "with_gt", "0.5", "0", "0.5", "2", "3"}
	if len(rows) != 2 || len(rows[0]) != len(DisagreementCSVColumns) {
		t.Fatalf("rows %q", rows)
	}
	for i := range want {
		if rows[1][i] != want[i] {
			t.Errorf("column %s = %q, want %q", rows[0][i], rows[1][i], want[i])
		}
	}
}

func TestReviewItem(t *testing.T) {
	in := lbInput(t)
	in.Judge = append(in.Judge, JudgeRecord{Item: "a2", Run: 1, Condition: "text_gt_only", Scores: Scores{0, 1, 1, 1}})
	rv, ok := ReviewItem(in, "a2")
	if !ok || rv.Item.ID != "a2" || len(rv.Ratings) != 2 || len(rv.Judge) != 3 {
		t.Fatalf("review a2: %v %+v", ok, rv)
	}
	if rv.Ratings[0].Annotator != "H1" || rv.Judge[0].Condition != "text_gt_only" || rv.Judge[1].Run != 1 || rv.Judge[2].Run != 2 {
		t.Errorf("order: %+v", rv)
	}
	if _, ok := ReviewItem(in, "nope"); ok {
		t.Error("unknown item reviewed")
	}
}

func TestJudgeExplanation(t *testing.T) {
	in := lbInput(t)
	data := `{"id":"a1","run":1,"scores":{"reasoning_success":1},"explanation":{"reasoning_success":"the path is right","visual_quality":"sharp"}}
{"id":"a2","run":1,"scores":{"reasoning_success":0},"explanation":"wrong turn"}
`
	recs, probs, err := ReadJudge(bytes.NewReader([]byte(data)), in.Split, JudgeOptions{Condition: WithGT})
	if err != nil || len(probs) != 0 || len(recs) != 2 {
		t.Fatalf("%v %v %d", err, probs, len(recs))
	}
	if recs[0].Explanation != "reasoning_success: the path is right\nvisual_quality: sharp" || recs[1].Explanation != "wrong turn" {
		t.Errorf("explanations %q, %q", recs[0].Explanation, recs[1].Explanation)
	}
}

func TestReportMissing(t *testing.T) {
	in := lbInput(t)
	var one []Rating
	for _, r := range in.Humans {
		if r.Annotator == "H1" {
			one = append(one, r)
		}
	}
	in.Humans, in.Judge = one, nil
	rep, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	got := rep.Missing()
	if len(got) != 3 || !strings.HasPrefix(got[0], "Only 1 rater (H1)") ||
		!strings.Contains(got[1], "without GT") || !strings.Contains(got[2], "with GT") {
		t.Errorf("missing: %q", got)
	}
	if m := analyzed(t, lbInput(t)).Missing(); len(m) != 1 || !strings.Contains(m[0], "without GT") {
		t.Errorf("two raters, with-GT runs only: %q", m)
	}
}

// analyzed analyses in without intervals.
func analyzed(t *testing.T, in Input) *Report {
	t.Helper()
	rep, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	return rep
}
