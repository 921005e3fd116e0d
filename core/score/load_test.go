package score

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/puzzle"
)

// writeInstance writes out/<id>/instance.json for an n×n puzzle (no images:
// scoring reads only instance.json) and returns its truth.
func writeInstance(t testing.TB, out string, n int, seed uint64) *Truth {
	t.Helper()
	p, err := puzzle.New(n, seed, [32]byte{byte(n), 7}, n*32, n*24, puzzle.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	inst := p.Instance("test", n*32, n*24)
	js, err := inst.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(out, inst.ID)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "instance.json"), js, 0o644); err != nil {
		t.Fatal(err)
	}
	return TruthOf(inst)
}

func writeFile(t testing.TB, path, content string) string {
	t.Helper()
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

func TestLoadTruthLayouts(t *testing.T) {
	ctx := context.Background()
	root := t.TempDir()
	a := writeInstance(t, root, 4, 1)
	b := writeInstance(t, filepath.Join(root, "grid-8"), 8, 2) // one level down
	writeInstance(t, filepath.Join(root, ".tmp"), 4, 3)        // hidden: skipped
	writeFile(t, filepath.Join(root, "broken", "instance.json"), `{"format": "jigbench.instance/v1", "grid": 4`)
	ts, err := LoadTruth(ctx, root, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Instances) != 2 || ts.Instances[0].ID != a.ID || ts.Instances[1].ID != b.ID {
		t.Fatalf("instances %v", ts.Instances)
	}
	if len(ts.Problems) != 1 || !strings.Contains(ts.Problems[0], "broken") {
		t.Errorf("problems %q", ts.Problems)
	}
	if g := ts.Grids(); len(g) != 2 || g[0] != 4 || g[1] != 8 {
		t.Errorf("grids %v", g)
	}

	// A dataset: the manifest's paths are used, not a scan.
	ds := t.TempDir()
	c := writeInstance(t, filepath.Join(ds, "eval"), 4, 5)
	writeInstance(t, filepath.Join(ds, "train"), 4, 6) // not in the manifest
	writeFile(t, filepath.Join(ds, dataset.FileManifest), fmt.Sprintf(`{"id": %q, "grid": 4, "path": "eval/%s", "split": "eval"}`+"\n\nnot json\n", c.ID, c.ID))
	ts, err = LoadTruth(ctx, ds, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(ts.Instances) != 1 || ts.Instances[0].ID != c.ID || len(ts.Problems) != 1 {
		t.Errorf("manifest: %v %q", ts.Instances, ts.Problems)
	}

	// One instance folder.
	ts, err = LoadTruth(ctx, filepath.Join(ds, "eval", c.ID), nil)
	if err != nil || len(ts.Instances) != 1 {
		t.Errorf("single folder: %v %v", ts, err)
	}

	for name, dir := range map[string]string{"missing": filepath.Join(root, "nowhere"), "empty": t.TempDir()} {
		_, err := LoadTruth(ctx, dir, nil)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: %v", name, err)
		}
	}
}

// truthDir writes count n×n instances and loads them.
func truthDir(t testing.TB, n, count int) (*TruthSet, string) {
	t.Helper()
	root := t.TempDir()
	for i := range count {
		writeInstance(t, root, n, uint64(100+i))
	}
	ts, err := LoadTruth(context.Background(), root, nil)
	if err != nil {
		t.Fatal(err)
	}
	return ts, root
}

func TestLoadAnswersJSONL(t *testing.T) {
	ts, _ := truthDir(t, 4, 6)
	ids := make([]string, 6)
	for i, ti := range ts.Instances {
		ids[i] = ti.ID
	}
	solution := func(i int) string { return MappingJSON(ts.Instances[i].Cell, 4) }
	big := strings.Repeat("thinking… ", 20000) // a 200 KB response, longer than the read buffer
	lines := []string{
		fmt.Sprintf(`{"id": %q, "prediction": %s}`, ids[0], solution(0)),
		``,
		fmt.Sprintf(`{"id": %q, "response": %q}`, ids[1], big+"```json\n"+solution(1)+"\n```"),
		fmt.Sprintf(`{"id": %q, "prediction": {"0": [0, 0], "1": [`, ids[2]), // truncated
		`{"prediction": {"0": [0, 0]}}`,                                      // no id
		fmt.Sprintf(`{"id": "not-an-instance", "prediction": %s}`, solution(0)),
		"\x00\x01\x02 binary junk",
		fmt.Sprintf(`{"id": %q, "response": "I give up."}`, ids[3]),
		fmt.Sprintf(`{"id": %q, "prediction": {}}`, ids[4]),
		fmt.Sprintf(`{"id": %q, "prediction": %s}`, ids[4], solution(4)), // a second answer: this one counts
	}
	path := writeFile(t, filepath.Join(t.TempDir(), "gpt-x.jsonl"), strings.Join(lines, "\n")) // no final newline
	src, err := ParseSource(path, "")
	if err != nil || src.Model != "gpt-x" || src.Condition != "shape" {
		t.Fatalf("source %+v %v", src, err)
	}
	set, err := LoadAnswers(context.Background(), src, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]string{ids[0]: "", ids[1]: "", ids[2]: "not valid JSON", ids[3]: "no JSON", ids[4]: ""}
	for id, reason := range want {
		rec, ok := set.Find(id)
		if !ok {
			t.Errorf("%s: no record", id)
			continue
		}
		if reason == "" && !rec.Valid() || reason != "" && !strings.Contains(rec.Reason, reason) {
			t.Errorf("%s: reason %q, want %q", id, rec.Reason, reason)
		}
	}
	if _, ok := set.Find(ids[5]); ok {
		t.Error("an instance without a line has a record")
	}
	if set.Unmatched != 1 {
		t.Errorf("unmatched %d", set.Unmatched)
	}
	all := strings.Join(set.Problems, "\n")
	for _, want := range []string{":4: not valid JSON", ":5: no \"id\"", ":6: no instance \"not-an-instance\"", ":7: not valid JSON", ":10: a second answer"} {
		if !strings.Contains(all, want) {
			t.Errorf("problems lack %q:\n%s", want, all)
		}
	}
	scores, notes := ScoreAnswers(ts, set)
	if len(scores) != 6 || len(notes) != 0 {
		t.Fatalf("%d scores, notes %q", len(scores), notes)
	}
	for _, s := range scores {
		switch s.ID {
		case ids[0], ids[1], ids[4]:
			if s.Metrics != Perfect {
				t.Errorf("%s: %+v", s.ID, s.Metrics)
			}
		case ids[5]:
			if s.Valid || !s.Missing || s.Reason != ReasonNoAnswer {
				t.Errorf("missing instance: %+v", s)
			}
		default:
			if s.Valid || s.Metrics != (Metrics{}) {
				t.Errorf("%s should be invalid with zeros: %+v", s.ID, s)
			}
		}
	}
}

func TestLoadAnswersFolderAndFile(t *testing.T) {
	ctx := context.Background()
	ts, _ := truthDir(t, 4, 3)
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, ts.Instances[0].ID+".json"), MappingJSON(ts.Instances[0].Cell, 4))
	writeFile(t, filepath.Join(dir, ts.Instances[1].ID+".txt"), "Sure!\n```\n"+MappingJSON(ts.Instances[1].Cell, 4)+"\n```")
	writeFile(t, filepath.Join(dir, "stranger.json"), "{}")
	writeFile(t, filepath.Join(dir, "notes.md"), "ignored")
	set, err := LoadAnswers(ctx, Source{Model: "m", Path: dir, Condition: "rect"}, ts, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(set.Records) != 2 || set.Unmatched != 1 || len(set.Problems) != 2 {
		t.Fatalf("records %d unmatched %d problems %q", len(set.Records), set.Unmatched, set.Problems)
	}
	for _, r := range set.Records {
		if !r.Valid() {
			t.Errorf("%s: %s", r.ID, r.Reason)
		}
	}

	// One file named after its instance.
	one := writeFile(t, filepath.Join(t.TempDir(), ts.Instances[2].ID+".json"), MappingJSON(ts.Instances[2].Cell, 4))
	set, err = LoadAnswers(ctx, Source{Model: "m", Path: one}, ts, nil)
	if err != nil || len(set.Records) != 1 || set.Records[0].ID != ts.Instances[2].ID || !set.Records[0].Valid() {
		t.Fatalf("one file: %+v %v", set, err)
	}
	// A .json file holding JSONL records is read as JSONL.
	env := writeFile(t, filepath.Join(t.TempDir(), "answers.json"),
		fmt.Sprintf(`{"id": %q, "prediction": %s}`, ts.Instances[0].ID, MappingJSON(ts.Instances[0].Cell, 4)))
	set, err = LoadAnswers(ctx, Source{Model: "m", Path: env}, ts, nil)
	if err != nil || len(set.Records) != 1 || !set.Records[0].Valid() {
		t.Fatalf("envelope file: %+v %v", set, err)
	}

	bad := map[string]string{
		"ambiguous file": writeFile(t, filepath.Join(t.TempDir(), "answer.txt"), "{}"),
		"binary":         writeFile(t, filepath.Join(t.TempDir(), "x.jsonl"), "\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR"),
		"empty jsonl":    writeFile(t, filepath.Join(t.TempDir(), "x.jsonl"), ""),
		"empty folder":   t.TempDir(),
		"missing":        filepath.Join(dir, "nowhere.jsonl"),
	}
	for name, path := range bad {
		_, err := LoadAnswers(ctx, Source{Model: "m", Path: path}, ts, nil)
		if err == nil || strings.Contains(err.Error(), "\n") {
			t.Errorf("%s: error %v; want one line", name, err)
		}
	}
}

func TestParseSource(t *testing.T) {
	for spec, want := range map[string]Source{
		"gpt=runs/a.jsonl":   {Model: "gpt", Path: "runs/a.jsonl", Condition: "shape"},
		"runs/claude.jsonl":  {Model: "claude", Path: "runs/claude.jsonl", Condition: "shape"},
		"runs/gemini/":       {Model: "gemini", Path: "runs/gemini/", Condition: "shape"},
		"x = y/z.json":       {Model: "x", Path: " y/z.json", Condition: "shape"},
		"runs/answers.JSONL": {Model: "answers", Path: "runs/answers.JSONL", Condition: "shape"},
	} {
		got, err := ParseSource(spec, "")
		if err != nil || got != want {
			t.Errorf("%q: %+v %v, want %+v", spec, got, err, want)
		}
	}
	for _, c := range [][2]string{{"=x.jsonl", "shape"}, {"a.jsonl", "square"}, {"m=", "shape"}} {
		if _, err := ParseSource(c[0], c[1]); err == nil {
			t.Errorf("%q %q accepted", c[0], c[1])
		}
	}
}

// TestEvaluateRandomConvergesToBaseline scores uniformly random full
// permutations through the whole pipeline (JSONL, parser, Score,
// aggregation): the means approach ExactBaseline and the 95% intervals
// cover it.
func TestEvaluateRandomConvergesToBaseline(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{4, 8} {
		const count = 3000
		var truths []*Truth
		var lines []string
		for i := range count {
			tr := randomTruth(fmt.Sprintf("r%d-%d", n, i), n, rng)
			truths = append(truths, tr)
			lines = append(lines, fmt.Sprintf(`{"id": %q, "prediction": %s}`, tr.ID, MappingJSON(rng.Perm(n*n), n)))
		}
		ts, err := NewTruthSet(truths...)
		if err != nil {
			t.Fatal(err)
		}
		path := writeFile(t, filepath.Join(t.TempDir(), "random.jsonl"), strings.Join(lines, "\n")+"\n")
		rep, err := Evaluate(context.Background(), ts, []Source{{Model: "random", Path: path}}, Options{Bootstrap: BootstrapOptions{Seed: 1}}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Groups) != 1 {
			t.Fatalf("%d groups", len(rep.Groups))
		}
		g := rep.Groups[0]
		b := ExactBaseline(n)
		for _, m := range []struct {
			name      string
			got, want float64
			ci        Interval
		}{
			{"PA", g.PA, b.PA, g.CI.PA}, {"AA", g.AA, b.AA, g.CI.AA}, {"AA-dir", g.AADirected, b.AADirected, g.CI.AADirected}, {"SC", g.SC, b.SC, g.CI.SC},
		} {
			// 3,000 instances: the standard error is below 0.005 for each.
			if d := m.got - m.want; d > 0.012 || d < -0.012 {
				t.Errorf("N=%d %s: mean %.4f, baseline %.4f", n, m.name, m.got, m.want)
			}
			if m.want < m.ci[0]-0.003 || m.want > m.ci[1]+0.003 {
				t.Errorf("N=%d %s: baseline %.4f outside the interval %v", n, m.name, m.want, m.ci)
			}
			if !(m.ci[0] <= m.got && m.got <= m.ci[1]) {
				t.Errorf("N=%d %s: mean %.4f outside its interval %v", n, m.name, m.got, m.ci)
			}
		}
		if g.EM != 0 || g.N != count || g.Invalid != 0 || g.Baseline.AA != b.AA {
			t.Errorf("N=%d: %+v", n, g)
		}
	}
}

func TestAggregateBootstrap(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 1))
	var scores []InstanceScore
	for i := range 300 {
		m := Metrics{PA: rng.Float64(), AA: rng.Float64(), AADirected: rng.Float64() / 2, SC: rng.Float64()}
		if i%10 == 0 {
			m = Perfect
		}
		scores = append(scores, InstanceScore{Model: "a", ID: fmt.Sprint(i), Grid: 4, Condition: "shape", Valid: true, Metrics: m})
		scores = append(scores, InstanceScore{Model: "b", ID: fmt.Sprint(i), Grid: 8, Condition: "rect", Reason: "x", Missing: i%2 == 0})
		scores = append(scores, InstanceScore{Model: "a", ID: fmt.Sprint(i), Grid: 4, Condition: "rect", Valid: true, Metrics: m})
	}
	ctx := context.Background()
	g1, err := Aggregate(ctx, scores, BootstrapOptions{Seed: 7}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g2, _ := Aggregate(ctx, scores, BootstrapOptions{Seed: 7}, nil)
	g3, _ := Aggregate(ctx, scores, BootstrapOptions{Seed: 8}, nil)
	if fmt.Sprint(g1) != fmt.Sprint(g2) {
		t.Error("the same seed gave different intervals")
	}
	if fmt.Sprint(g1) == fmt.Sprint(g3) {
		t.Error("another seed gave the same intervals")
	}
	// Order: model a (shape, then rect), then b.
	if len(g1) != 3 || g1[0].Model != "a" || g1[0].Condition != "shape" || g1[1].Condition != "rect" || g1[2].Model != "b" {
		t.Fatalf("groups %+v", g1)
	}
	// Adding a group does not move another group's interval.
	g4, _ := Aggregate(ctx, scores[:len(scores)-1], BootstrapOptions{Seed: 7}, nil)
	if g4[2].CI != g1[2].CI && g4[2].N == g1[2].N {
		t.Error("intervals depend on other groups")
	}
	a := g1[0]
	if a.N != 300 || a.Invalid != 0 || a.EM != 0.1 {
		t.Errorf("group a: %+v", a)
	}
	for _, iv := range a.CI.vector() {
		if !(0 <= iv[0] && iv[0] <= iv[1] && iv[1] <= 1) {
			t.Errorf("interval %v", iv)
		}
	}
	// 300 draws of U(0,1) (mostly): the 95% interval of the mean is about ±0.033.
	if w := a.CI.PA[1] - a.CI.PA[0]; w < 0.04 || w > 0.09 {
		t.Errorf("PA interval %v has width %.3f", a.CI.PA, w)
	}
	b := g1[2]
	if b.N != 300 || b.Invalid != 300 || b.Missing != 150 || b.PA != 0 || b.CI.PA != (Interval{0, 0}) {
		t.Errorf("group b: %+v", b)
	}
	cctx, cancel := context.WithCancel(ctx)
	cancel()
	if _, err := Aggregate(cctx, scores, BootstrapOptions{}, nil); !errors.Is(err, context.Canceled) {
		t.Errorf("cancelled: %v", err)
	}
}

func TestScoreAnswersLeavesOutUnansweredGrids(t *testing.T) {
	rng := rand.New(rand.NewPCG(2, 2))
	t4, t8 := randomTruth("a4", 4, rng), randomTruth("a8", 8, rng)
	t4b := randomTruth("b4", 4, rng)
	ts, _ := NewTruthSet(t4, t8, t4b)
	set := &AnswerSet{Source: Source{Model: "m", Condition: "shape"}}
	a, _ := ParseAnswer([]byte(MappingJSON(t4.Cell, 4)), 4)
	set.put(&AnswerRecord{ID: "a4", Answer: a})
	scores, notes := ScoreAnswers(ts, set)
	if len(scores) != 2 || len(notes) != 1 || !strings.Contains(notes[0], "8×8") {
		t.Fatalf("scores %+v notes %q", scores, notes)
	}
	if scores[0].Metrics != Perfect || scores[1].Valid || !scores[1].Missing {
		t.Errorf("%+v", scores)
	}
}
