package vigor

import (
	"bytes"
	"slices"
	"strings"
	"testing"
)

func TestReadJudgeArrayAndProblems(t *testing.T) {
	sp := handSplit(t)
	data := `[
  {"id": "r1", "run": 1, "condition": "with_gt",
   "scores": {"background_consistency": 1, "rule_obey": 0, "visual_quality": 1, "reasoning_success": 0},
   "explanation": {"background_consistency": "kept"}},
  {"id": "nope", "run": 1, "scores": {"BC": 1}},
  {"id": "p1", "run": 1, "scores": {"BC": 101}},
  {"id": "p1", "run": 2, "scores": {"BC": 50.5}},
  {"id": "p1", "run": 3, "scores": {"overall": 3}},
  {"id": "r1", "run": 1, "condition": "with_gt", "scores": {"BC": 0}},
  {"id": "r2", "scores": {"BC": 1}},
  {"id": "r2", "run": 2, "condition": "with gt?", "scores": {"BC": 1}},
  "just a string",
  {"id": "p2", "run": 1, "Background Consistency": "85%", "Rule Obey": 70.0, "Visual Quality": "90", "Beneficial Action": 10}
]`
	recs, probs, err := ReadJudge(strings.NewReader(data), sp, JudgeOptions{Source: "run.json", Condition: WithGT})
	if err != nil {
		t.Fatal(err)
	}
	if len(recs) != 2 {
		t.Fatalf("kept %d records: %+v", len(recs), recs)
	}
	if recs[0].Item != "r1" || recs[0].Scores != (Scores{1, 0, 1, 0}) || recs[0].Line != 2 {
		t.Errorf("first record %+v", recs[0])
	}
	if recs[1].Scores != (Scores{85, 70, 90, 10}) || recs[1].Condition != WithGT || recs[1].Line != 13 {
		t.Errorf("top-level title-case scores: %+v", recs[1])
	}
	want := map[int]string{
		5: "not an item", 6: "0 to 100", 7: "not an integer", 8: "no dimension scores", 9: "again (first on line 2)",
		10: "no run number", 11: "condition: want", 12: "not a JSON object",
	}
	for line, msg := range want {
		if !slices.ContainsFunc(probs, func(p JudgeProblem) bool { return p.Line == line && strings.Contains(p.Msg, msg) }) {
			t.Errorf("no problem on line %d saying %q in %v", line, msg, probs)
		}
	}
	if !slices.ContainsFunc(probs, func(p JudgeProblem) bool { return strings.Contains(p.Msg, "not a JSON object") }) {
		t.Errorf("the string element was not reported: %v", probs)
	}
	if len(probs) != 8 {
		t.Errorf("%d problems, want 8: %v", len(probs), probs)
	}
	if s := probs[0].String(); !strings.HasPrefix(s, "run.json:5: item nope:") {
		t.Errorf("problem string %q", s)
	}
}

func TestReadJudgeLinesResponsesConditions(t *testing.T) {
	sp := handSplit(t)
	lines := []string{
		// Raw response in fences with prose; explanations carry the same keys as text.
		`{"id":"r1","response":"Here is my evaluation.\n` + "```json" + `\n{\"scores\": {\"Background Consistency\": 1, \"Rule Obey\": 1, \"Visual Quality\": 0, \"Reasoning Success\": 1}, \"explanation\": {\"Background Consistency\": \"fine\"}}\n` + "```" + `\nDone."}`,
		// Two objects: the last one that parses wins; a broken one after it does not count.
		`{"id":"r2","response":"Draft: {\"BC\": 0, \"RO\": 0, \"VQ\": 0, \"RS\": 0} Final: {\"BC\": 1, \"RO\": 1, \"VQ\": 1, \"RS\": 1} and {\"BC\": oops}"}`,
		// No score object at all.
		`{"id":"r3","response":"I cannot judge this image."}`,
		// Explanation-only object: not a score object.
		`{"id":"r4","response":"{\"background_consistency\": \"looks right\"}"}`,
		``,
		`not json`,
		// Condition given by the record, differing from the file's fixed one.
		`{"id":"p1","condition":"with_gt","scores":{"BC":10}}`,
		`{"id":"p2","condition":"Without GT","scores":{"RA":10}}`,
	}
	data := strings.Join(lines, "\n")
	recs, probs, err := ReadJudge(strings.NewReader(data), sp, JudgeOptions{Source: "r.jsonl", Condition: WithoutGT, Fixed: true, Run: 3})
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Scores{}
	for _, r := range recs {
		got[r.Item] = r.Scores
		if r.Run != 3 || r.Condition != WithoutGT {
			t.Errorf("%s: run %d condition %s", r.Item, r.Run, r.Condition)
		}
	}
	if got["r1"] != (Scores{1, 1, 0, 1}) || got["r2"] != (Scores{1, 1, 1, 1}) || got["p2"] != (Scores{NoScore, NoScore, NoScore, 10}) {
		t.Errorf("records: %v", got)
	}
	for line, msg := range map[int]string{3: "no JSON object with scores", 4: "no JSON object with scores", 6: "not a JSON object", 7: "file was given as without_gt"} {
		if !slices.ContainsFunc(probs, func(p JudgeProblem) bool { return p.Line == line && strings.Contains(p.Msg, msg) }) {
			t.Errorf("no problem on line %d saying %q in %v", line, msg, probs)
		}
	}
	// Without a file condition, a record must carry one.
	_, probs, _ = ReadJudge(strings.NewReader(`{"id":"r1","run":1,"scores":{"BC":1}}`), sp, JudgeOptions{})
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "no condition") {
		t.Errorf("missing condition: %v", probs)
	}
}

func TestWriteJudgeRoundTrip(t *testing.T) {
	in := handInput(t)
	var buf bytes.Buffer
	if err := WriteJudge(&buf, in.Split, in.Judge); err != nil {
		t.Fatal(err)
	}
	back, probs, err := ReadJudge(&buf, in.Split, JudgeOptions{})
	if err != nil || len(probs) > 0 || len(back) != len(in.Judge) {
		t.Fatalf("round trip: %d records, %v, %v", len(back), probs, err)
	}
	for i := range back {
		a, b := in.Judge[i], back[i]
		if a.Item != b.Item || a.Run != b.Run || a.Condition != b.Condition || a.Scores != b.Scores {
			t.Errorf("%+v came back as %+v", a, b)
		}
	}
}

func TestScoresFromResponse(t *testing.T) {
	for _, tc := range []struct {
		text string
		ok   bool
		bc   string
	}{
		{`{"BC": 1}`, true, "1"},
		{"```\n{\"BC\": 1}\n```", true, "1"},
		{`prose {"BC": 0} more prose {"BC": 1} end`, true, "1"},
		{`{"BC": 1} then {"BC": "text"}`, true, "1"},
		{`{"outer": {"BC": 1}}`, true, "1"}, // nested: the inner object is a candidate
		{`"quotes" in prose { "BC" : 1 }`, true, "1"},
		{`{{{{`, false, ""},
		{`}}}} {"BC": 1`, false, ""},
		{``, false, ""},
	} {
		ms, err := scoresFromResponse(tc.text)
		if (err == nil) != tc.ok {
			t.Errorf("%q: err %v", tc.text, err)
			continue
		}
		if tc.ok && string(ms[len(ms)-1].val) != tc.bc {
			t.Errorf("%q: got %s", tc.text, ms[len(ms)-1].val)
		}
	}
}
