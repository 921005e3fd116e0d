package vigor

import (
	"bytes"
	"context"
	"encoding/csv"
	"slices"
	"strings"
	"testing"
)

// Three conditions analysed in one run: the hand input's with_gt and
// without_gt records, and text_gt_only, a copy of without_gt. Its row must
// equal without_gt's, their difference be exactly 0, and with_gt −
// without_gt be Analyze's own figures.
func TestAnalyzeThreeConditions(t *testing.T) {
	in := handInput(t)
	var judge []JudgeRecord
	for _, r := range in.Judge {
		judge = append(judge, r)
		if r.Condition == WithoutGT {
			r.Condition = "text_gt_only"
			judge = append(judge, r)
		}
	}
	in.Judge = judge
	opt := Options{Replicates: 2000, Seed: 5}
	cr, err := AnalyzeConditions(context.Background(), in, opt,
		[][2]Condition{{WithGT, WithoutGT}, {"text_gt_only", WithoutGT}, {WithGT, "text_gt_only"}})
	if err != nil {
		t.Fatal(err)
	}
	// Order first seen, with_gt last.
	if want := []Condition{WithoutGT, "text_gt_only", WithGT}; !slices.Equal(cr.Conditions, want) {
		t.Fatalf("conditions %v, want %v", cr.Conditions, want)
	}
	if len(cr.Rows) != 4 || cr.Rows[0].Condition != "" || cr.Rows[3].Condition != WithGT {
		t.Fatalf("rows %+v", cr.Rows)
	}
	// The figures of the hand-computed Table 2 (agreement_test.go).
	near(t, "with GT result MAE", cr.Rows[3].Result.MAE, 5.0/48)
	near(t, "without GT result MAE", cr.Rows[1].Result.MAE, 11.0/24)
	near(t, "text GT only result MAE", cr.Rows[2].Result.MAE, 11.0/24)
	near(t, "human result variance", cr.Rows[0].Result.Variance, 11.0/144)
	if cr.Rows[1].Result != cr.Rows[2].Result || cr.Rows[1].ProcessCI != cr.Rows[2].ProcessCI {
		t.Errorf("the copied condition's row differs: %+v vs %+v", cr.Rows[1], cr.Rows[2])
	}

	rep, err := Analyze(context.Background(), handInput(t), opt)
	if err != nil {
		t.Fatal(err)
	}
	if d := cr.Diffs[0]; d.A != WithGT || d.B != WithoutGT || d.Process != rep.CI.WithMinusWithoutGT.Process || d.Result != rep.CI.WithMinusWithoutGT.Result {
		t.Errorf("with − without: %+v, Analyze %+v", d, rep.CI.WithMinusWithoutGT)
	}
	if cr.Rows[3].ResultCI != rep.CI.Table2.JudgeWithGT.Result {
		t.Errorf("with GT intervals %+v, Analyze %+v", cr.Rows[3].ResultCI, rep.CI.Table2.JudgeWithGT.Result)
	}
	zero := cr.Diffs[1].Result.MAE
	near(t, "copy − without", zero.Estimate, 0)
	if zero.CI.Format(9) != "[0.000000000, 0.000000000]" {
		t.Errorf("copy − without interval %s", zero.CI.Format(9))
	}
	if cr.Diffs[2].Result != cr.Diffs[0].Result {
		t.Errorf("with − copy %+v differs from with − without %+v", cr.Diffs[2].Result, cr.Diffs[0].Result)
	}

	var text, md, csvOut bytes.Buffer
	if err := cr.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := cr.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := cr.WriteCSV(&csvOut); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Judge text_gt_only", "Judge without_gt", "with_gt − without_gt", "text_gt_only: 1,2"} {
		if !strings.Contains(text.String(), want) || !strings.Contains(md.String(), want) {
			t.Errorf("text or Markdown lacks %q:\n%s", want, text.String())
		}
	}
	rows, err := csv.NewReader(&csvOut).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	// 4 rows × 2 tracks × 3 figures, 3 differences × 2 tracks × 3 figures.
	if len(rows) != 1+24+18 {
		t.Errorf("%d CSV rows", len(rows))
	}

	// Default pairs: every condition minus the first.
	cr, err = AnalyzeConditions(context.Background(), in, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(cr.Diffs) != 2 || cr.Diffs[0].B != WithoutGT || cr.Diffs[1].A != WithGT {
		t.Errorf("default differences %+v", cr.Diffs)
	}
	if _, err := AnalyzeConditions(context.Background(), in, Options{}, [][2]Condition{{"nope", WithGT}}); err == nil {
		t.Error("a difference naming an absent condition is accepted")
	}
}

func TestConditionNames(t *testing.T) {
	for s, want := range map[string]Condition{"with_gt": WithGT, "Without GT": WithoutGT, "text-gt-only": "text_gt_only", "img2": "img2"} {
		if c, ok := ParseCondition(s); !ok || c != want {
			t.Errorf("ParseCondition(%q) = %q, %v", s, c, ok)
		}
	}
	for _, s := range []string{"", "é", "a/b", strings.Repeat("a", 65)} {
		if c, ok := ParseCondition(s); ok {
			t.Errorf("ParseCondition(%q) accepted as %q", s, c)
		}
	}
	if p, err := ParseConditionPair("with_gt,text_gt_only"); err != nil || p != [2]Condition{WithGT, "text_gt_only"} {
		t.Errorf("pair %v %v", p, err)
	}
	if _, err := ParseConditionPair("with_gt"); err == nil {
		t.Error("a single name is accepted as a pair")
	}
}
