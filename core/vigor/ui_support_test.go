package vigor

import (
	"bytes"
	"context"
	"encoding/csv"
	"math"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"
)

func TestTablesMatchWriteText(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{Replicates: 200, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	tables := rep.Tables()
	if len(tables) != 7 || tables[0].Title != "Table 2" {
		t.Fatalf("%d tables, first %q", len(tables), tables[0].Title)
	}
	t2 := tables[0]
	want := [][]string{
		{"Human experts", rep.Table2.HumanExperts.Process.MAE.Format(3), rep.Table2.HumanExperts.Process.Accuracy.Percent(1),
			rep.Table2.HumanExperts.Process.Variance.Format(3), rep.Table2.HumanExperts.Result.MAE.Format(3),
			rep.Table2.HumanExperts.Result.Accuracy.Percent(1), rep.Table2.HumanExperts.Result.Variance.Format(3)},
		{"Judge with GT", rep.Table2.JudgeWithGT.Process.MAE.Format(3), rep.Table2.JudgeWithGT.Process.Accuracy.Percent(1),
			rep.Table2.JudgeWithGT.Process.Variance.Format(3), rep.Table2.JudgeWithGT.Result.MAE.Format(3),
			rep.Table2.JudgeWithGT.Result.Accuracy.Percent(1), rep.Table2.JudgeWithGT.Result.Variance.Format(3)},
	}
	for _, w := range want {
		found := false
		for _, r := range t2.Rows {
			if strings.Join(r, "|") == strings.Join(w, "|") {
				found = true
			}
		}
		if !found {
			t.Errorf("Table 2 lacks row %q; has %q", w, t2.Rows)
		}
	}
	// The hand-computed figure, as a person reads it: 5/48 = 0.104, 7/8 = 87.5%.
	if got := t2.Rows[2][4:6]; got[0] != "0.104" || got[1] != "87.5%" {
		t.Errorf("result with GT shows %q, want 0.104 and 87.5%%", got)
	}
	var text bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	// Every cell of every table appears in the terminal report too (the
	// same formatting), except the header words WriteText spells differently.
	for _, tb := range tables {
		for _, r := range tb.Rows {
			for _, c := range r {
				if !strings.Contains(text.String(), c) {
					t.Errorf("%s: %q is not in WriteText's output", tb.Title, c)
				}
			}
		}
	}
}

func TestTablesWithoutBootstrap(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	ci := rep.Tables()[2]
	if len(ci.Rows) != 0 || !strings.Contains(ci.Note, "0 replicates") {
		t.Fatalf("intervals table without bootstrap: %q / %q", ci.Note, ci.Rows)
	}
}

func TestWriteCSV(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{Replicates: 100, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := rep.WriteCSV(&buf); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&buf).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(recs[0], ",") != strings.Join(CSVColumns[:], ",") {
		t.Fatalf("header %q", recs[0])
	}
	find := func(section, group, track, stat string) []string {
		for _, r := range recs[1:] {
			if r[0] == section && r[2] == group && r[3] == track && r[5] == stat {
				return r
			}
		}
		t.Fatalf("no row %s/%s/%s/%s", section, group, track, stat)
		return nil
	}
	r := find("table2", "judge_with_gt", "result", "mae")
	if v, err := strconv.ParseFloat(r[6], 64); err != nil || math.Abs(v-5.0/48) > 1e-12 {
		t.Errorf("result with GT MAE in CSV: %q", r[6])
	}
	if r[4] != "with_gt" || r[9] != "2" || r[10] != "8" {
		t.Errorf("result with GT MAE row %q", r)
	}
	lo, hi := rep.CI.Table2.JudgeWithGT.Result.MAE.Lo, rep.CI.Table2.JudgeWithGT.Result.MAE.Hi
	if r[7] != strconv.FormatFloat(lo.Or(-1), 'g', -1, 64) || r[8] != strconv.FormatFloat(hi.Or(-1), 'g', -1, 64) {
		t.Errorf("interval %q %q, want %v %v", r[7], r[8], lo, hi)
	}
	// Undefined stays undefined: nobody scored the process track twice without GT
	// for p2, and p1's single run has no variance.
	if r := find("table2", "judge_without_gt", "process", "variance"); r[6] != "undefined" {
		t.Errorf("process without GT variance %q, want undefined", r[6])
	}
	if r := find("confusion", "1/1", "result", "count"); r[6] == "" {
		t.Error("confusion counts missing")
	}
	if r := find("breakdown", "Maze", "result", "accuracy"); r[1] != "subdomain" {
		t.Errorf("breakdown row %q", r)
	}
}

func TestPlotsAgreeWithTheReport(t *testing.T) {
	in := handInput(t)
	rep, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	pd, err := Plots(in, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(pd.Accuracy) != 4 {
		t.Fatalf("%d grids, want 2 conditions × 2 tracks", len(pd.Accuracy))
	}
	for _, cond := range Conditions {
		for _, tr := range Tracks {
			g, ok := pd.Grid(cond, tr)
			if !ok {
				t.Fatalf("no grid for %s %s", cond, tr)
			}
			if strings.Join(g.Rows, ",") != "Maze,Sorting" || g.Dims[3] != Reasoning.Short(tr) {
				t.Errorf("%s %s grid rows %q dims %q", cond, tr, g.Rows, g.Dims)
			}
			// Summed over subdomains, the grid gives the per-dimension breakdown.
			for _, dim := range Dims {
				var agree float64
				cells := 0
				for r := range g.Rows {
					if a, ok := g.Accuracy[r][dim].Get(); ok {
						agree += a * float64(g.Cells[r][dim])
					}
					cells += g.Cells[r][dim]
				}
				for _, b := range rep.Breakdowns {
					if b.By == "dimension" && b.Group == dim.Name(tr) && b.Track == tr && b.Condition == cond {
						if b.Cells != cells {
							t.Errorf("%s %s %s: grid has %d cells, breakdown %d", cond, tr, dim.Short(tr), cells, b.Cells)
						}
						if acc, ok := b.Accuracy.Get(); ok && math.Abs(acc*float64(cells)-agree) > 1e-9 {
							t.Errorf("%s %s %s: grid agreement %v, breakdown %v", cond, tr, dim.Short(tr), agree, acc*float64(cells))
						}
					}
				}
			}
			// The points are Table 2's cells: their mean |j̄ − h̄| is its MAE.
			var sum float64
			n := 0
			for _, p := range pd.Points {
				if p.Condition == cond && p.Track == tr {
					sum += math.Abs(p.Judge - p.Human)
					n++
				}
			}
			cell := rep.Table2.Judge(cond).Track(tr)
			if n != cell.Cells {
				t.Errorf("%s %s: %d points, Table 2 has %d cells", cond, tr, n, cell.Cells)
			}
			if mae, ok := cell.MAE.Get(); ok && math.Abs(sum/float64(n)-mae) > 1e-12 {
				t.Errorf("%s %s: points give MAE %v, Table 2 %v", cond, tr, sum/float64(n), mae)
			}
		}
	}
}

// A third condition is measured like the paper's two: a copy of with_gt
// named text_gt_only gives with_gt's grids, matrices and points, in the
// order Table 2 lists the conditions.
func TestPlotsAnyConditions(t *testing.T) {
	in := handInput(t)
	rep, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range in.Judge {
		if r.Condition == WithGT {
			r.Condition = "text_gt_only"
			in.Judge = append(in.Judge, r)
		}
	}
	pd, err := Plots(in, false)
	if err != nil {
		t.Fatal(err)
	}
	want := []Condition{WithoutGT, "text_gt_only", WithGT}
	if !slices.Equal(pd.Conditions, want) {
		t.Fatalf("conditions %q, want %q", pd.Conditions, want)
	}
	if len(pd.Accuracy) != 6 || len(pd.Confusion) != 6 {
		t.Fatalf("%d grids and %d matrices, want 3 conditions × 2 tracks", len(pd.Accuracy), len(pd.Confusion))
	}
	points := func(c Condition, tr Track) []ScatterPoint {
		var out []ScatterPoint
		for _, p := range pd.Points {
			if p.Condition == c && p.Track == tr {
				p.Condition = ""
				out = append(out, p)
			}
		}
		return out
	}
	for _, tr := range Tracks {
		// The paper's two conditions: the matrices are the report's.
		for _, c := range Conditions {
			cf, _ := pd.ConfusionOf(c, tr)
			cs := byCond(c, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
			if exp := byTrack(tr, &cs.Process, &cs.Result); !reflect.DeepEqual(cf, *exp) {
				t.Errorf("%s %s confusion %v, report %v", c, tr, cf.Matrix, exp.Matrix)
			}
		}
		g, _ := pd.Grid("text_gt_only", tr)
		w, _ := pd.Grid(WithGT, tr)
		g.Condition = WithGT
		if !reflect.DeepEqual(g, w) {
			t.Errorf("%s: text_gt_only grid %v, with_gt %v", tr, g.Accuracy, w.Accuracy)
		}
		cf, _ := pd.ConfusionOf("text_gt_only", tr)
		cw, _ := pd.ConfusionOf(WithGT, tr)
		if !reflect.DeepEqual(cf, cw) {
			t.Errorf("%s: text_gt_only confusion %v, with_gt %v", tr, cf.Matrix, cw.Matrix)
		}
		p, pw := points("text_gt_only", tr), points(WithGT, tr)
		if len(p) == 0 || !reflect.DeepEqual(p, pw) {
			t.Errorf("%s: text_gt_only has %d points, with_gt %d, or they differ", tr, len(p), len(pw))
		}
		if len(points(WithoutGT, tr)) == len(pw) && reflect.DeepEqual(points(WithoutGT, tr), pw) {
			t.Errorf("%s: without_gt's points are with_gt's; the conditions were mixed", tr)
		}
	}
}
