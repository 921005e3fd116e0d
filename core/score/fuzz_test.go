package score

import (
	"context"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Seeds for the answer fuzzers: every accepted form and some broken ones.
var answerSeeds = []string{
	plainMapping,
	`{0: (1, 1), 1: [0, 0], 'piece 2': {"row": 0, "col": 1}, "3": [1e0, 0.0],}`,
	`{"answer": {"mapping": {"0": [1, 1]}}, "placements": [{"piece_id": 1, "position": [0, 0]}]}`,
	`[{"id": "2", "row": 0, "col": 1}, {"piece": 3, "position": {"r": 1, "c": 0}}]`,
	"```json\n{\"0\": [1, 1]}\n```\nthen {\"1\": [0, 0]",
	`{"answer": "{\"0\": [1, 1], \"1\": \"[0, 0]\"}"}`,
	`{"0": [1, 1], "0": [9, 9], "7": [0, 0], "x": [1, 2]}`,
	`[[[[{"a": [{"0": [0, 0]}]}]]]]`,
	`{"\ud83d\ude00": [0, 0], "\u0031": [1, 1]}`,
	`{"0": [1e999, -0], "1": [0.5, 1], "2": [99999999999999999999, 1]}`,
	"{[{[{[",
	"",
}

// FuzzParseAnswer: any bytes, any grid: no panic; a valid answer has N²
// cells, each on the grid or Missing; its scores stay in [0, 1].
func FuzzParseAnswer(f *testing.F) {
	for i, s := range answerSeeds {
		f.Add([]byte(s), uint8(i))
	}
	f.Fuzz(func(t *testing.T, data []byte, g uint8) {
		n := 2 + int(g%7)
		a, err := ParseAnswer(data, n)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line reason %q", err)
			}
			return
		}
		if len(a.Cells) != n*n || a.Unknown < 0 || a.BadPositions < 0 || a.BadPositions > n*n {
			t.Fatalf("answer %+v for grid %d", a, n)
		}
		for _, c := range a.Cells {
			if c < Missing || c >= n*n {
				t.Fatalf("cell %d on a %d×%d grid", c, n, n)
			}
		}
		tr := randomTruth("f", n, rand.New(rand.NewPCG(uint64(len(data)), 1)))
		for _, v := range metricVector(Score(tr, a.Cells)) {
			if !(v >= 0 && v <= 1) {
				t.Fatalf("score %v", v)
			}
		}
	})
}

// FuzzStrictJSONParser: the parser's strict mode agrees with encoding/json
// on what is valid JSON, and decodes it to the same values.
func FuzzStrictJSONParser(f *testing.F) {
	for _, s := range append(strictCorpus, answerSeeds...) {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		checkStrict(t, data)
		var p jparser
		p.lenient = true
		p.parseAll(data) // lenient mode must not panic either
	})
}

// FuzzJSONLAnswers: any bytes as a JSONL answers file: no panic, and either
// a one-line error or every record names a known instance.
func FuzzJSONLAnswers(f *testing.F) {
	f.Add([]byte(`{"id": "a", "prediction": {"0": [1, 1]}}` + "\n" + `{"id": "b", "response": "{\"3\": [0, 0]}"}`))
	f.Add([]byte(`{"id": "a", "prediction": {"0": [1,` + "\n\x00\x01\n" + `{"id": "b"}`))
	f.Add([]byte("\n\n{}\n[]\n\"x\"\n"))
	rng := rand.New(rand.NewPCG(1, 2))
	ts, _ := NewTruthSet(randomTruth("a", 2, rng), randomTruth("b", 3, rng))
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "answers.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := LoadAnswers(context.Background(), Source{Model: "m", Path: path, Condition: "shape"}, ts, nil)
		if err != nil {
			if strings.Contains(err.Error(), "\n") {
				t.Fatalf("multi-line error %q", err)
			}
			return
		}
		for _, r := range set.Records {
			ti, ok := ts.Find(r.ID)
			if !ok || r.Valid() && len(r.Cells) != ti.Grid*ti.Grid {
				t.Fatalf("record %+v", r)
			}
		}
		scores, _ := ScoreAnswers(ts, set)
		for _, s := range scores {
			if s.Valid != (s.Reason == "") {
				t.Fatalf("score %+v", s)
			}
		}
	})
}
