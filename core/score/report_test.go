package score

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"path/filepath"
	"strings"
	"testing"
)

// sampleReport scores two models on 4×4 and 8×8 random puzzles: "oracle"
// answers perfectly except for a few invalid answers, "random" answers a
// random permutation.
func sampleReport(t *testing.T) *Report {
	t.Helper()
	rng := rand.New(rand.NewPCG(21, 22))
	var truths []*Truth
	var oracle, random []string
	for _, n := range []int{4, 8} {
		for i := range 40 {
			tr := randomTruth(fmt.Sprintf("s%d-%02d", n, i), n, rng)
			truths = append(truths, tr)
			if i%10 == 3 {
				oracle = append(oracle, fmt.Sprintf(`{"id": %q, "response": "no idea"}`, tr.ID))
			} else {
				oracle = append(oracle, fmt.Sprintf(`{"id": %q, "prediction": %s}`, tr.ID, MappingJSON(tr.Cell, n)))
			}
			random = append(random, fmt.Sprintf(`{"id": %q, "prediction": %s}`, tr.ID, MappingJSON(rng.Perm(n*n), n)))
		}
	}
	ts, err := NewTruthSet(truths...)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	o := writeFile(t, filepath.Join(dir, "oracle.jsonl"), strings.Join(oracle, "\n"))
	r := writeFile(t, filepath.Join(dir, "random.jsonl"), strings.Join(random, "\n"))
	rep, err := Evaluate(context.Background(), ts, []Source{{Model: "oracle", Path: o, Condition: "shape"}, {Model: "random", Path: r, Condition: "rect"}},
		Options{Bootstrap: BootstrapOptions{Seed: 3}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

func TestReportJSONSchema(t *testing.T) {
	rep := sampleReport(t)
	var buf bytes.Buffer
	if err := rep.WriteJSON(&buf); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Format string           `json:"format"`
		Groups []map[string]any `json:"groups"`
		Inst   []map[string]any `json:"instances"`
	}
	if err := json.Unmarshal(buf.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Format != "jigbench.score-report/v1" || len(doc.Groups) != 4 || len(doc.Inst) != 160 {
		t.Fatalf("format %q, %d groups, %d instances", doc.Format, len(doc.Groups), len(doc.Inst))
	}
	for _, g := range doc.Groups {
		for _, k := range []string{"model", "grid", "condition", "n", "invalid", "pa", "em", "aa", "aa_directed", "sc", "ci", "baseline"} {
			if _, ok := g[k]; !ok {
				t.Errorf("group lacks %q: %v", k, g)
			}
		}
		ci := g["ci"].(map[string]any)
		for _, k := range []string{"pa", "em", "aa", "aa_directed", "sc"} {
			iv, ok := ci[k].([]any)
			if !ok || len(iv) != 2 {
				t.Errorf("ci.%s = %v", k, ci[k])
			}
			for _, x := range iv {
				if f := x.(float64); f < 0 || f > 1 {
					t.Errorf("ci.%s = %v", k, iv)
				}
			}
		}
		base := g["baseline"].(map[string]any)
		for _, k := range []string{"pa", "em", "aa", "sc"} {
			if _, ok := base[k]; !ok {
				t.Errorf("baseline lacks %q", k)
			}
		}
	}
	for _, in := range doc.Inst {
		for _, k := range []string{"model", "id", "grid", "valid", "reason", "pa", "em", "aa", "aa_directed", "sc"} {
			if _, ok := in[k]; !ok {
				t.Errorf("instance lacks %q: %v", k, in)
			}
		}
	}
	g := rep.Groups[0]
	if g.Model != "oracle" || g.Grid != 4 || g.Condition != "shape" || g.N != 40 || g.Invalid != 4 || math.Abs(g.PA-0.9) > 1e-12 || math.Abs(g.EM-0.9) > 1e-12 {
		t.Errorf("oracle 4×4: %+v", g)
	}
}

func TestReportTextFormats(t *testing.T) {
	rep := sampleReport(t)
	var tab, md, cs bytes.Buffer
	if err := rep.WriteTable(&tab); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteCSV(&cs); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"condition shape", "condition rect", "oracle", "random baseline", "4x4", "8x8", "90.0%", "20.0%", "30.8%", "6.3%", "5.6%", "39.0%"} {
		if !strings.Contains(tab.String(), want) {
			t.Errorf("table lacks %q:\n%s", want, tab.String())
		}
	}
	for _, want := range []string{"## Condition: shape", "| oracle | 4×4 | 40 | 4 |", "*random baseline*", "90.00% ["} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("markdown lacks %q:\n%s", want, md.String())
		}
	}
	rows, err := csv.NewReader(&cs).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	if len(rows) != 5 || rows[0][0] != "model" || rows[1][0] != "oracle" || rows[1][8] != "0.9" {
		t.Errorf("csv:\n%v", rows)
	}
	var inst bytes.Buffer
	if err := rep.WriteInstancesCSV(&inst); err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(inst.String(), "\n"); n != 161 {
		t.Errorf("instances csv has %d lines", n)
	}
}

// TestHeatmapAgreesWithMetrics: the mean over a heatmap's cells (PA) or
// edges (AA, SC) is the group's mean metric, and cells hold their edges'
// means.
func TestHeatmapAgreesWithMetrics(t *testing.T) {
	rep := sampleReport(t)
	for _, g := range rep.Groups {
		for _, m := range []HeatmapMetric{HeatmapPA, HeatmapAA, HeatmapSC} {
			h, err := rep.Heatmap(m, g.Model, g.Grid, g.Condition)
			if err != nil {
				t.Fatal(err)
			}
			want := map[HeatmapMetric]float64{HeatmapPA: g.PA, HeatmapAA: g.AA, HeatmapSC: g.SC}[m]
			if math.Abs(h.Mean-want) > 1e-12 || h.Instances != g.N || h.Invalid != g.Invalid {
				t.Errorf("%s %d %s %s: heatmap mean %.6f, group %.6f (%d/%d instances)", g.Model, g.Grid, g.Condition, m, h.Mean, want, h.Instances, g.N)
			}
			if m == HeatmapPA {
				continue
			}
			n := g.Grid
			for r := range n {
				for c := range n {
					e := h.CellEdges(r, c)
					s := 0.0
					for _, v := range e {
						s += v
					}
					if math.Abs(h.Cells[r*n+c]-s/float64(len(e))) > 1e-12 {
						t.Fatalf("cell (%d,%d) is not its edges' mean", r, c)
					}
				}
			}
		}
	}
	// The oracle's valid answers are perfect: every PA cell is the share
	// of valid answers, 0.9.
	h, _ := rep.Heatmap(HeatmapPA, "oracle", 8, "shape")
	for _, v := range h.Cells {
		if math.Abs(v-0.9) > 1e-12 {
			t.Fatalf("oracle PA cell %v", v)
		}
	}
	if _, err := rep.Heatmap(HeatmapPA, "nobody", 8, "shape"); err == nil {
		t.Error("a heatmap of no instances")
	}
	if s, ok := rep.FindInstance("oracle", "s4-00", "shape"); !ok || !s.Valid || len(s.Pred) != 16 {
		t.Errorf("FindInstance: %+v %v", s, ok)
	}
	if s, ok := rep.FindInstance("oracle", "s4-03", "shape"); !ok || s.Valid || s.Pred != nil {
		t.Errorf("FindInstance of an invalid answer: %+v %v", s, ok)
	}
	if _, err := ParseHeatmapMetric("em"); err == nil {
		t.Error("em accepted as a heatmap metric")
	}
}

// TestHeatmapHandWorked: one 4×4 answer (uniform truth, pieces 0 and 1
// swapped, piece 15 missing) and one invalid answer.
//   - PA: cells 0, 1 and 15 are never right; the rest right in 1 of 2.
//   - AA: edge (0,0)-(0,1) kept (reversed) → 0.5; (0,1)-(0,2) lost → 0;
//     (0,0)-(1,0) lost (diagonal) → 0; (3,2)-(3,3) and (2,3)-(3,3) lost
//     (piece 15 missing) → 0; all others 0.5.
//   - SC: predicted pair (0,0)-(0,1) holds piece 1 then piece 0, whose left
//     is flat → 0; cell 15 is empty, so (3,2)-(3,3) and (2,3)-(3,3) → 0;
//     others 0.5.
func TestHeatmapHandWorked(t *testing.T) {
	tr := uniformTruth()
	ts, _ := NewTruthSet(tr, &Truth{ID: "other", Grid: 4, Cell: tr.Cell, Sides: tr.Sides})
	pred := identity(4)
	pred[0], pred[1], pred[15] = 1, 0, Missing
	scores := []InstanceScore{
		{Model: "m", ID: "hand", Grid: 4, Condition: "shape", Valid: true, Metrics: Score(tr, pred), Pred: pred},
		{Model: "m", ID: "other", Grid: 4, Condition: "shape", Reason: "bad"},
	}
	pa, _ := HeatmapOf(ts, scores, HeatmapPA, "m", 4, "shape")
	for c, v := range pa.Cells {
		want := 0.5
		if c == 0 || c == 1 || c == 15 {
			want = 0
		}
		if v != want {
			t.Errorf("PA cell %d = %v, want %v", c, v, want)
		}
	}
	aa, _ := HeatmapOf(ts, scores, HeatmapAA, "m", 4, "shape")
	if aa.Horizontal[0][0] != 0.5 || aa.Horizontal[0][1] != 0 || aa.Vertical[0][0] != 0 || aa.Horizontal[3][2] != 0 || aa.Vertical[2][3] != 0 || aa.Horizontal[1][1] != 0.5 {
		t.Errorf("AA edges %v %v", aa.Horizontal, aa.Vertical)
	}
	// Cell (0,0): edges right 0.5 and down 0 → 0.25. Cell (3,3): two lost edges → 0.
	if aa.Cells[0] != 0.25 || aa.Cells[15] != 0 {
		t.Errorf("AA cells %v", aa.Cells)
	}
	sc, _ := HeatmapOf(ts, scores, HeatmapSC, "m", 4, "shape")
	if sc.Horizontal[0][0] != 0 || sc.Horizontal[0][1] != 0.5 || sc.Vertical[0][0] != 0.5 || sc.Horizontal[3][2] != 0 || sc.Vertical[2][3] != 0 {
		t.Errorf("SC edges %v %v", sc.Horizontal, sc.Vertical)
	}
}
