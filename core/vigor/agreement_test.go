package vigor

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/progress"
)

// handSplitJSON is a small split whose Table 2 figures are computed by hand
// below. Result items r1–r4, process items p1–p2.
const handSplitJSON = `{"format": "jigbench.vigor-split/v1", "name": "hand",
 "items": [
  {"id": "r1", "track": "result", "domain": "Symbolic", "subdomain": "Maze", "model": "m-a", "instruction": "i",
   "input": "in.png", "output": "out.png", "gt_text": "t"},
  {"id": "r2", "track": "result", "domain": "Symbolic", "subdomain": "Maze", "model": "m-b", "instruction": "i",
   "input": "in.png", "output": "out.png", "gt_text": "t"},
  {"id": "r3", "track": "result", "domain": "Physical", "subdomain": "Sorting", "model": "m-a", "instruction": "i",
   "input": "in.png", "output": "out.png", "gt_text": "t"},
  {"id": "r4", "track": "result", "domain": "Physical", "subdomain": "Sorting", "model": "m-b", "instruction": "i",
   "input": "in.png", "output": "out.png", "gt_text": "t"},
  {"id": "p1", "track": "process", "domain": "Symbolic", "subdomain": "Maze", "model": "m-a", "instruction": "i",
   "input": "in.png", "frames": ["f.png"], "gt_text": "t"},
  {"id": "p2", "track": "process", "domain": "Physical", "subdomain": "Sorting", "model": "m-b", "instruction": "i",
   "input": "in.png", "frames": ["f.png"], "gt_text": "t"}
 ]}`

// Human ratings: r1 by three annotators, r2 by two (the item with two human
// ratings), r3 by three, r4 by one (excluded); p1 by two, p2 by three.
const handHumansCSV = `split,item_id,annotator,background_consistency,rule_obey,visual_quality,reasoning,flagged,comment,updated_at
hand,r1,A,1,1,1,1,false,,
hand,r1,B,1,0,1,0,false,,
hand,r1,C,0,0,1,0,false,,
hand,r2,A,1,0,0,1,false,,
hand,r2,B,0,0,0,1,true,unsure,
hand,r3,A,1,1,1,1,false,,
hand,r3,B,1,1,1,1,false,,
hand,r3,C,1,1,1,1,false,,
hand,r4,A,0,0,0,0,false,,
hand,p1,A,33,50,80,10,false,,
hand,p1,B,34,50,70,20,false,,
hand,p2,A,100,100,100,100,false,,
hand,p2,B,90,90,90,90,false,,
hand,p2,C,80,80,80,80,false,,
`

// Judge runs. With GT: r1 three runs, r2 two, r4 one, p1 and p2 three.
// Without GT: r1 two runs, r2 one, p1 one. No judge scored r3 at all, and
// none scored p2 without GT.
const handJudgeJSONL = `{"id":"r1","run":1,"condition":"with_gt","scores":{"background_consistency":1,"rule_obey":0,"visual_quality":1,"reasoning_success":0}}
{"id":"r1","run":2,"condition":"with_gt","scores":{"BC":1,"RO":1,"VQ":1,"RS":0}}
{"id":"r1","run":3,"condition":"with_gt","response":"Looking at it...\n` + "```json" + `\n{\"Background Consistency\": 0, \"Rule Obey\": 0, \"Visual Quality\": 1, \"Reasoning Success\": 0}\n` + "```" + `"}
{"id":"r2","run":1,"condition":"with_gt","scores":{"background_consistency":1,"rule_obey":0,"visual_quality":0,"reasoning_success":1}}
{"id":"r2","run":2,"condition":"with_gt","scores":{"background_consistency":0,"rule_obey":1,"visual_quality":0,"reasoning_success":1}}
{"id":"r4","run":1,"condition":"with_gt","scores":{"background_consistency":0,"rule_obey":0,"visual_quality":0,"reasoning_success":0}}
{"id":"p1","run":1,"condition":"with_gt","scores":{"background_consistency":33,"rule_obey":60,"visual_quality":68,"beneficial_action":0}}
{"id":"p1","run":2,"condition":"with_gt","scores":{"background_consistency":33,"rule_obey":40,"visual_quality":66,"reasoning_accuracy":30}}
{"id":"p1","run":3,"condition":"with_gt","scores":{"background_consistency":33,"rule_obey":50,"visual_quality":67,"RA":20}}
{"id":"p2","run":1,"condition":"with_gt","scores":{"background_consistency":60,"rule_obey":70,"visual_quality":90,"reasoning_accuracy":100}}
{"id":"p2","run":2,"condition":"with_gt","scores":{"background_consistency":70,"rule_obey":70,"visual_quality":90,"reasoning_accuracy":100}}
{"id":"p2","run":3,"condition":"with_gt","scores":{"background_consistency":80,"rule_obey":70,"visual_quality":90,"reasoning_accuracy":100}}
{"id":"r1","run":1,"condition":"without_gt","scores":{"background_consistency":1,"rule_obey":1,"visual_quality":1,"reasoning_success":1}}
{"id":"r1","run":2,"condition":"without_gt","scores":{"background_consistency":1,"rule_obey":1,"visual_quality":1,"reasoning_success":0}}
{"id":"r2","run":1,"condition":"without_gt","scores":{"background_consistency":1,"rule_obey":1,"visual_quality":1,"reasoning_success":1}}
{"id":"p1","run":1,"condition":"without_gt","scores":{"background_consistency":100,"rule_obey":0,"visual_quality":100,"reasoning_accuracy":100}}
`

func handInput(t testing.TB) Input {
	t.Helper()
	sp, probs := ParseSplit([]byte(handSplitJSON))
	for _, p := range probs {
		if p.Fatal {
			t.Fatalf("hand split: %s", p)
		}
	}
	humans, err := ReadRatings(strings.NewReader(handHumansCSV), CSV, sp)
	if err != nil {
		t.Fatal(err)
	}
	judge, jprobs, err := ReadJudge(strings.NewReader(handJudgeJSONL), sp, JudgeOptions{Source: "hand.jsonl"})
	if err != nil || len(jprobs) > 0 {
		t.Fatalf("judge: %v %v", err, jprobs)
	}
	if len(judge) != 16 {
		t.Fatalf("read %d judge records, want 16", len(judge))
	}
	return Input{Split: sp, Humans: humans, Judge: judge}
}

func TestTable2HandComputed(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{})
	if err != nil {
		t.Fatal(err)
	}
	tb := &rep.Table2

	// Result track, judge with GT: r1 and r2 count (8 cells); r3 has no
	// judge score, r4 only one human rating.
	//  r1: h̄ = (2/3, 1/3, 1, 1/3), j̄ = (2/3, 1/3, 1, 0): |diff| = 0,0,0,1/3;
	//      majorities h (1,0,1,0), j (1,0,1,0): 4 agree.
	//  r2: h̄ = (1/2, 0, 0, 1), j̄ = (1/2, 1/2, 0, 1): |diff| = 0,1/2,0,0;
	//      majorities (mean ≥ 0.5 → 1; both BC means are exactly .5)
	//      h (1,0,0,1), j (1,1,0,1): 3 agree.
	//  MAE = (1/3 + 1/2)/8 = 5/48; accuracy = 7/8.
	//  Judge variance (÷n): r1 BC (1,1,0) 2/9, RO (0,1,0) 2/9; r2 BC, RO
	//  (1,0) 1/4 each; others 0: (4/9 + 1/2)/8 = 17/144.
	near(t, "result with GT MAE", tb.JudgeWithGT.Result.MAE, 5.0/48)
	near(t, "result with GT accuracy", tb.JudgeWithGT.Result.Accuracy, 7.0/8)
	near(t, "result with GT variance", tb.JudgeWithGT.Result.Variance, 17.0/144)
	checkCounts(t, "result with GT", tb.JudgeWithGT.Result, 2, 8, 1, 1)

	// Result track, without GT: r1 j̄ = (1, 1, 1, 1/2), r2 j̄ = (1,1,1,1).
	//  |diff| r1: 1/3, 2/3, 0, 1/6; r2: 1/2, 1, 1, 0 → MAE = (22/6)/8 = 11/24.
	//  Majorities j r1 (1,1,1,1) (RS mean exactly .5 → 1) vs h (1,0,1,0): 2;
	//  r2 j (1,1,1,1) vs h (1,0,0,1): 2 → accuracy 4/8.
	//  Variance: only r1 has two runs: RS (1,0) 1/4 → 1/16 over 4 cells.
	near(t, "result without GT MAE", tb.JudgeWithoutGT.Result.MAE, 11.0/24)
	near(t, "result without GT accuracy", tb.JudgeWithoutGT.Result.Accuracy, 0.5)
	near(t, "result without GT variance", tb.JudgeWithoutGT.Result.Variance, 1.0/16)
	checkCounts(t, "result without GT", tb.JudgeWithoutGT.Result, 2, 8, 1, 1)

	// Human experts, result: every item with ≥ 2 ratings (r1, r2, r3 — r3
	// counts though no judge scored it), 12 cells. Variances: r1 BC, RO, RS
	// 2/9 each; r2 BC 1/4; the rest 0 → (2/3 + 1/4)/12 = 11/144.
	near(t, "human result MAE", tb.HumanExperts.Result.MAE, 0)
	near(t, "human result accuracy", tb.HumanExperts.Result.Accuracy, 1)
	near(t, "human result variance", tb.HumanExperts.Result.Variance, 11.0/144)
	checkCounts(t, "human result", tb.HumanExperts.Result, 3, 12, 1, 0)

	// Process track, with GT (0–1 scale = score/100):
	//  p1: h̄ = (33.5, 50, 75, 15), j̄ = (33, 50, 67, 50/3).
	//      |diff| = .005, 0, .08, 1/60.
	//      Buckets: h̄ 33.5 rounds half up to 34 → Moderate, 50 Moderate,
	//      75 Good, 15 Bad; j̄ 33 Bad, 50 Moderate, 67 Moderate, 16.67 → 17
	//      Bad: 2 agree (RO, RA).
	//  p2: h̄ = 90 everywhere (Good), j̄ = (70, 70, 90, 100), all Good.
	//      |diff| = .2, .2, 0, .1; 4 agree.
	//  MAE = (0.585 + 1/60)/8 = 361/4800; accuracy 6/8.
	//  Judge variance (÷n, /100²): p1 RO (60,40,50) 200/3, VQ (68,66,67)
	//  2/3, RA (0,30,20) 1400/9; p2 BC (60,70,80) 200/3 →
	//  (200/3 + 2/3 + 1400/9 + 200/3)/10⁴/8 = 1303/360000.
	near(t, "process with GT MAE", tb.JudgeWithGT.Process.MAE, 361.0/4800)
	near(t, "process with GT accuracy", tb.JudgeWithGT.Process.Accuracy, 0.75)
	near(t, "process with GT variance", tb.JudgeWithGT.Process.Variance, 1303.0/360000)
	checkCounts(t, "process with GT", tb.JudgeWithGT.Process, 2, 8, 0, 0)

	// Process, without GT: only p1 (one run: 100, 0, 100, 100).
	//  |diff| = .665, .5, .25, .85 → MAE = 2.265/4 = 453/800.
	//  Buckets j (Good, Bad, Good, Good) vs h (Moderate, Moderate, Good,
	//  Bad): 1 agrees. One run per cell: the judge variance is undefined.
	near(t, "process without GT MAE", tb.JudgeWithoutGT.Process.MAE, 453.0/800)
	near(t, "process without GT accuracy", tb.JudgeWithoutGT.Process.Accuracy, 0.25)
	undefined(t, "process without GT variance (single run)", tb.JudgeWithoutGT.Process.Variance)
	checkCounts(t, "process without GT", tb.JudgeWithoutGT.Process, 1, 4, 0, 1)

	// Human experts, process: p1 BC (33,34) .25, VQ (80,70) 25, RA (10,20)
	// 25; p2 (100,90,80) 200/3 on each dimension; /10⁴, mean over 8 cells.
	near(t, "human process variance", tb.HumanExperts.Process.Variance, (0.25+25+25+4*200.0/3)/1e4/8)

	// Leave-one-out ceiling, result: 32 comparisons (r1 12, r2 8, r3 12);
	// Σ|x − mean of others| = r1 A 2.5, B 1.5, C 2, r2 1 + 1 → 8; 23 agree.
	near(t, "ceiling result MAE", rep.HumanCeiling.Result.MAE, 8.0/32)
	near(t, "ceiling result accuracy", rep.HumanCeiling.Result.Accuracy, 23.0/32)
	// Process: p1 A vs B and B vs A, |diff| .01, 0, .1, .1 each, BC buckets
	// (33 Bad vs 34 Moderate) disagree; p2 A 85→.15, B 90→0, C 95→.15 per
	// dimension, all Good: MAE (0.42 + 1.2)/20, accuracy 18/20.
	near(t, "ceiling process MAE", rep.HumanCeiling.Process.MAE, 1.62/20)
	near(t, "ceiling process accuracy", rep.HumanCeiling.Process.Accuracy, 0.9)
	if a := rep.HumanCeiling.PerAnnotator; len(a) != 3 || a[0].Annotator != "A" {
		t.Fatalf("per-annotator ceiling: %+v", a)
	} else {
		near(t, "ceiling A result MAE", a[0].Result.MAE, 7.0/24) // (2.5 + 1 + 0)/12
		near(t, "ceiling C process MAE", a[2].Process.MAE, 0.15) // p2 only: 80 vs 95
	}

	// Bias with GT, result: r1 RS −1/3, r2 RO +1/2 → (1/6)/8.
	near(t, "bias result with GT", rep.Bias.JudgeWithGT.Result.Overall, 1.0/48)

	// Confusion with GT, rows humans, columns judge.
	wantResult := [][]int{{3, 1}, {0, 4}}
	wantProcess := [][]int{{1, 0, 0}, {1, 1, 0}, {0, 1, 4}}
	if got := rep.Confusion.JudgeWithGT.Result.Matrix; !equalMatrix(got, wantResult) {
		t.Errorf("result confusion = %v, want %v", got, wantResult)
	}
	if got := rep.Confusion.JudgeWithGT.Process.Matrix; !equalMatrix(got, wantProcess) {
		t.Errorf("process confusion = %v, want %v", got, wantProcess)
	}

	// One breakdown row: result, with GT, rule_obey: r1 |0|, r2 |1/2|.
	found := false
	for _, b := range rep.Breakdowns {
		if b.By == "dimension" && b.Group == "rule_obey" && b.Track == TrackResult && b.Condition == WithGT {
			found = true
			near(t, "breakdown RO MAE", b.MAE, 0.25)
			near(t, "breakdown RO accuracy", b.Accuracy, 0.5)
			near(t, "breakdown RO human variance", b.HumanVariance, (2.0/9)/3) // r1 2/9, r2 0, r3 0
		}
		if b.By == "model" && b.Group == "m-b" && b.Track == TrackResult && b.Condition == WithGT {
			near(t, "breakdown m-b MAE", b.MAE, 0.5/4) // r2 only
		}
	}
	if !found {
		t.Error("no rule_obey breakdown")
	}
}

func TestTable2SampleVariance(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{SampleVariance: true})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Variance != "sample" {
		t.Errorf("variance label %q", rep.Variance)
	}
	// ÷(n−1): r1 BC, RO (3 runs) 1/3 each; r2 BC, RO (2 runs) 1/2 each → (5/3)/8.
	near(t, "result with GT sample variance", rep.Table2.JudgeWithGT.Result.Variance, 5.0/24)
	// Humans: r1 three cells 1/3 each, r2 BC 1/2 → (3/2)/12.
	near(t, "human result sample variance", rep.Table2.HumanExperts.Result.Variance, 1.0/8)
}

func checkCounts(t *testing.T, name string, c Cell, items, cells, fewHumans, noJudge int) {
	t.Helper()
	if c.Items != items || c.Cells != cells || c.Excluded.FewHumans != fewHumans || c.Excluded.NoJudge != noJudge {
		t.Errorf("%s: items %d cells %d excluded %d/%d; want %d %d %d/%d", name,
			c.Items, c.Cells, c.Excluded.FewHumans, c.Excluded.NoJudge, items, cells, fewHumans, noJudge)
	}
}

func equalMatrix(a, b [][]int) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if len(a[i]) != len(b[i]) {
			return false
		}
		for j := range a[i] {
			if a[i][j] != b[i][j] {
				return false
			}
		}
	}
	return true
}

func TestReliabilityInReport(t *testing.T) {
	in := handInput(t)
	rep, err := Analyze(context.Background(), in, Options{})
	if err != nil {
		t.Fatal(err)
	}
	// Humans, result track, rule_obey: units r1 (1,0,0), r2 (0,0), r3
	// (1,1,1), r4 (0) — the same numbers through the public functions.
	units := [][]float64{{1, 0, 0}, {0, 0}, {1, 1, 1}, {0}}
	var ro DimCoefficients
	for _, dc := range rep.Reliability.Humans.Result.ByDimension {
		if dc.Dimension == "rule_obey" {
			ro = dc
		}
	}
	if ro.Units != 3 {
		t.Errorf("rule_obey units = %d, want 3", ro.Units)
	}
	near(t, "alpha RO", ro.KrippendorffAlpha, KrippendorffAlpha(units, MetricNominal).Or(-9))
	near(t, "kappa RO", *ro.FleissKappa, FleissKappa(units).Or(-9))
	near(t, "AC1 RO", *ro.GwetAC1, GwetAC1(units, 2).Or(-9))
	if rep.Reliability.Humans.Process.All.FleissKappa != nil {
		t.Error("Fleiss' kappa should not apply to the process track")
	}
	if rep.Reliability.Humans.Process.Metric != "interval" || rep.Reliability.Humans.Result.Metric != "nominal" {
		t.Error("wrong metrics")
	}
	// Judge without GT on the process track: one run, nothing pairable.
	undefined(t, "alpha of single runs", rep.Reliability.JudgeWithoutGT.Process.All.KrippendorffAlpha)
}

func TestBootstrapDeterministicAndPaired(t *testing.T) {
	in := PaperStudy(7)
	opt := Options{Replicates: 500, Seed: 42}
	a, err := Analyze(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	b, err := Analyze(context.Background(), in, opt)
	if err != nil {
		t.Fatal(err)
	}
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	if !bytes.Equal(ja, jb) {
		t.Fatal("the same seed gave different reports")
	}
	opt.Seed = 43
	c, _ := Analyze(context.Background(), in, opt)
	if c.CI.Table2.JudgeWithGT.Result.MAE == a.CI.Table2.JudgeWithGT.Result.MAE {
		t.Error("a different seed gave the same interval")
	}
	for _, tc := range []struct {
		name string
		est  Value
		iv   Interval
	}{
		{"process MAE with GT", a.Table2.JudgeWithGT.Process.MAE, a.CI.Table2.JudgeWithGT.Process.MAE},
		{"result accuracy without GT", a.Table2.JudgeWithoutGT.Result.Accuracy, a.CI.Table2.JudgeWithoutGT.Result.Accuracy},
		{"human process variance", a.Table2.HumanExperts.Process.Variance, a.CI.Table2.HumanExperts.Process.Variance},
		{"paired MAE difference", a.CI.WithMinusWithoutGT.Result.MAE.Estimate, a.CI.WithMinusWithoutGT.Result.MAE.CI},
	} {
		e, _ := tc.est.Get()
		lo, _ := tc.iv.Lo.Get()
		hi, _ := tc.iv.Hi.Get()
		if !tc.iv.OK() || lo > e || e > hi || hi-lo > 0.2 {
			t.Errorf("%s: estimate %v, interval %s", tc.name, tc.est, tc.iv.Format(4))
		}
	}
	// The simulated judge is closer to the humans with GT: the paired
	// difference of MAE is negative and its interval excludes 0.
	if hi, _ := a.CI.WithMinusWithoutGT.Process.MAE.CI.Hi.Get(); hi >= 0 {
		t.Errorf("paired process MAE difference interval %s should be below 0", a.CI.WithMinusWithoutGT.Process.MAE.CI.Format(4))
	}
}

func TestBootstrapUndefinedAndCancel(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{Replicates: 200, Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.CI.Table2.JudgeWithoutGT.Process.Variance.OK() {
		t.Error("the interval of an undefined statistic should be undefined")
	}
	if !rep.CI.Table2.JudgeWithGT.Result.MAE.OK() {
		t.Error("with-GT result MAE interval should be defined")
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := Analyze(ctx, PaperStudy(1), Options{Replicates: 2000}); err == nil {
		t.Error("a cancelled analysis should fail")
	}
	calls, last := 0, 0
	_, err = Analyze(context.Background(), handInput(t), Options{Replicates: 250, Progress: func(r progress.Report) {
		calls++
		last = int(r.Done)
		if r.Total != 250 {
			t.Errorf("progress total %d", r.Total)
		}
	}})
	if err != nil || calls == 0 || last != 250 {
		t.Errorf("progress: %d calls, last %d, err %v", calls, last, err)
	}
}

func TestAnalyzeRefusesContradictions(t *testing.T) {
	in := handInput(t)
	dupH := in
	dupH.Humans = append(append([]Rating(nil), in.Humans...), in.Humans[0])
	dupJ := in
	dupJ.Judge = append(append([]JudgeRecord(nil), in.Judge...), in.Judge[0])
	unknown := in
	unknown.Judge = append(append([]JudgeRecord(nil), in.Judge...), JudgeRecord{Item: "zz", Run: 1, Condition: WithGT})
	offScale := in
	offScale.Humans = append([]Rating(nil), in.Humans...)
	offScale.Humans[0].Scores[0] = 2
	for name, bad := range map[string]Input{"duplicate rating": dupH, "duplicate run": dupJ, "unknown item": unknown, "off scale": offScale} {
		if _, err := Analyze(context.Background(), bad, Options{}); err == nil {
			t.Errorf("%s: no error", name)
		}
	}
}

func TestReportRenders(t *testing.T) {
	rep, err := Analyze(context.Background(), handInput(t), Options{Replicates: 100, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	var text, md, js bytes.Buffer
	if err := rep.WriteText(&text); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"Human experts", "Judge without GT", "Judge with GT", "100.0%", "undefined", "0.104"} {
		if !strings.Contains(text.String(), want) {
			t.Errorf("text report lacks %q:\n%s", want, text.String())
		}
	}
	if !strings.Contains(md.String(), "| Judge with GT |") {
		t.Errorf("markdown lacks the Table 2 row:\n%s", md.String())
	}
	var top map[string]json.RawMessage
	if err := json.Unmarshal(js.Bytes(), &top); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"format", "table2", "human_ceiling", "reliability", "bias", "breakdowns", "ci"} {
		if _, ok := top[k]; !ok {
			t.Errorf("JSON lacks %q", k)
		}
	}
	var t2 struct {
		JudgeWithoutGT struct {
			Process struct {
				Variance any `json:"variance"`
			} `json:"process"`
		} `json:"judge_without_gt"`
	}
	json.Unmarshal(top["table2"], &t2)
	if t2.JudgeWithoutGT.Process.Variance != "undefined" {
		t.Errorf("undefined variance marshals as %v", t2.JudgeWithoutGT.Process.Variance)
	}
}
