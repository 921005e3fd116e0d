package vigor

import (
	"bytes"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/jigbench/jigbench/core/fsutil"
)

// The parsers of outside input must never panic, and what they accept must
// satisfy the checks they promise.

func FuzzParseSplit(f *testing.F) {
	f.Add([]byte(handSplitJSON))
	f.Add([]byte(`{"format":"jigbench.vigor-split/v1","name":"n","items":[{"id":"a","track":"process","frames":["../x"],"input":"/abs"}],"rubrics":{"s":{"result":{"RO":"x"}}}}`))
	f.Add([]byte(`{"items":[1,"x",null,{"id":5}],"rubrics":[]}`))
	f.Add([]byte(`[]`))
	f.Fuzz(func(t *testing.T, data []byte) {
		sp, probs := ParseSplit(data)
		if sp == nil {
			if len(probs) == 0 {
				t.Fatal("nil split without a problem")
			}
			return
		}
		fatal := false
		for _, p := range probs {
			fatal = fatal || p.Fatal
		}
		if fatal {
			return
		}
		// A split without fatal problems has what Load promises.
		for i := range sp.Items {
			it := &sp.Items[i]
			if !it.Track.Valid() || checkID(it.ID) != nil || it.Input == "" {
				t.Fatalf("accepted item %+v", it)
			}
			for _, p := range it.Paths() {
				if checkRelPath(p.Path) != nil {
					t.Fatalf("accepted path %q", p.Path)
				}
			}
			if got, ok := sp.Item(it.ID); !ok || got != it {
				t.Fatalf("index broken for %q", it.ID)
			}
			sp.Rubric(it)
		}
	})
}

func fuzzRatings(f *testing.F, format RatingsFormat, seeds ...string) {
	sp := handSplit(f)
	for _, s := range seeds {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		rs, err := ReadRatings(bytes.NewReader(data), format, sp)
		if err != nil {
			return
		}
		seen := map[[2]string]bool{}
		for _, r := range rs {
			if err := sp.CheckRating(r); err != nil {
				t.Fatalf("accepted %+v: %v", r, err)
			}
			k := [2]string{r.Annotator, r.Item}
			if seen[k] {
				t.Fatalf("accepted %v twice", k)
			}
			seen[k] = true
		}
		// What was accepted survives a write and a re-read unchanged.
		var buf bytes.Buffer
		if err := WriteRatings(&buf, format, rs); err != nil {
			t.Fatal(err)
		}
		back, err := ReadRatings(&buf, format, sp)
		if err != nil || len(back) != len(rs) {
			t.Fatalf("re-read: %v (%d of %d)", err, len(back), len(rs))
		}
		for i := range rs {
			if back[i].Scores != rs[i].Scores || back[i].Comment != rs[i].Comment || back[i].Annotator != rs[i].Annotator {
				t.Fatalf("%+v became %+v", rs[i], back[i])
			}
		}
	})
}

func FuzzReadRatingsCSV(f *testing.F) {
	fuzzRatings(f, CSV, handHumansCSV,
		"split,item_id,annotator,background_consistency,rule_obey,visual_quality,reasoning,flagged,comment,updated_at\nhand,p1,\"a\"\"b\",1,,3,4,yes,\"x\ny\",2026-01-01T00:00:00Z\n",
		"\ufeffsplit\n", "")
}

func FuzzReadRatingsJSONL(f *testing.F) {
	fuzzRatings(f, JSONL,
		`{"split":"hand","item_id":"p1","annotator":"a","background_consistency":5,"rule_obey":null,"flagged":true,"comment":"c","updated_at":"2026-01-01T00:00:00.5Z"}`+"\n",
		`{"split":"hand","item_id":"r1","annotator":"a","reasoning":1}`+"\n\n"+`{"split":"hand","item_id":"r2","annotator":"a"}`,
		"[1]\n", "")
}

func FuzzReadJudge(f *testing.F) {
	sp := handSplit(f)
	f.Add([]byte(handJudgeJSONL), false)
	f.Add([]byte(`[{"id":"r1","run":1,"scores":{"BC":1}}, {"id":"p1","response":"`+"```"+`{\"RA\": 5}`+"```"+`"}]`), true)
	f.Add([]byte(`[{"id":"r1"`), true)
	f.Add([]byte(`{"id":"r1","response":"{{{{\"BC\": 1}}}}"}`), false)
	f.Fuzz(func(t *testing.T, data []byte, fixed bool) {
		recs, probs, err := ReadJudge(bytes.NewReader(data), sp, JudgeOptions{Source: "f", Condition: WithGT, Fixed: fixed, Run: 1})
		if valid := utf8.Valid(fsutil.TrimBOM(data)); err != nil || !valid {
			if valid || err == nil { // a bytes.Reader never fails; only bad bytes refuse the file
				t.Fatalf("valid UTF-8 %v, error %v", valid, err)
			}
			return
		}
		lines := bytes.Count(data, []byte{'\n'}) + 1
		for _, p := range probs {
			if p.Line < 1 || p.Line > lines {
				t.Fatalf("problem on line %d of %d: %v", p.Line, lines, p)
			}
		}
		seen := map[judgeKey]bool{}
		for _, r := range recs {
			it, ok := sp.Item(r.Item)
			if !ok || r.Run < 1 || !ValidConditionName(string(r.Condition)) || !r.Scores.Any() {
				t.Fatalf("accepted %+v", r)
			}
			for _, v := range r.Scores {
				if v != NoScore && (v < 0 || v > it.Track.Max()) {
					t.Fatalf("accepted off-scale %+v", r)
				}
			}
			k := judgeKey{r.Item, r.Run, r.Condition}
			if seen[k] {
				t.Fatalf("accepted %v twice", k)
			}
			seen[k] = true
		}
	})
}

func FuzzScoresFromResponse(f *testing.F) {
	f.Add("```json\n{\"BC\": 1}\n```")
	f.Add(`a {"scores": {"RA": "85%"}} b {"x": {`)
	f.Add(strings.Repeat("{", 100) + `"BC":1` + strings.Repeat("}", 100))
	f.Fuzz(func(t *testing.T, text string) {
		ms, err := scoresFromResponse(text)
		if err == nil && !hasScore(ms) {
			t.Fatalf("returned members without a score: %v", ms)
		}
	})
}

func FuzzIRR(f *testing.F) {
	f.Add("1,2,3,3,2,1,4,1,2,,,\n1,2,3,3,2,2,4,1,2,5,,3\n*,3,3,3,2,3,4,2,2,5,1,\n", uint8(0))
	f.Add("a,b\nx,\"y\n", uint8(2))
	f.Fuzz(func(t *testing.T, data string, m uint8) {
		res, err := IRR(strings.NewReader(data), IRROptions{Metric: Metric(m % 4), Header: m&4 != 0, Labels: m&8 != 0})
		if err != nil {
			return
		}
		if a, ok := res.KrippendorffAlpha.Get(); ok && (a > 1+1e-9) {
			t.Fatalf("alpha %v > 1", a)
		}
	})
}
