package score

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// batchTruth is two 2×2 instances whose solution is the identity.
func batchTruth(t testing.TB) *TruthSet {
	t.Helper()
	var ts []*Truth
	for _, id := range []string{"a-g2-s1", "b-g2-s2"} {
		ts = append(ts, &Truth{ID: id, Grid: 2, Cell: []int{0, 1, 2, 3}, Sides: make([]puzzle.Sides, 4)})
	}
	s, err := NewTruthSet(ts...)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

func okLine(customID, content, finish string, prompt, completion int) string {
	return fmt.Sprintf(`{"id":"x","custom_id":%q,"response":{"status_code":200,"body":{"choices":[{"message":{"content":%q},"finish_reason":%q}],"usage":{"prompt_tokens":%d,"completion_tokens":%d}}},"error":null}`,
		customID, content, finish, prompt, completion)
}

const solved = `The answer: {"0": [0, 0], "1": [0, 1], "2": [1, 0], "3": [1, 1]}`
const swapped = `{"0": [0, 1], "1": [0, 0], "2": [1, 0], "3": [1, 1]}`

func TestBatchOutputScoring(t *testing.T) {
	truth := batchTruth(t)
	lines := []string{
		`{"custom_id":"a-g2-s1:shape","response":null,"error":{"code":"timeout","message":"slow"}}`, // replaced by the answer below
		okLine("a-g2-s1:shape", solved, "stop", 100, 10),
		`{"custom_id":"a-g2-s1:shape","response":{"status_code":500,"body":{}},"error":null}`, // after an answer: ignored
		okLine("b-g2-s2:shape", `{"0": [0, 0], "1": [0`, "length", 100, 4096),
		okLine("a-g2-s1:rect", swapped, "stop", 50, 20),
		okLine("b-g2-s2:rect", swapped, "stop", 70, 40),
		okLine("b-g2-s2:rect", solved, "stop", 90, 60), // the last answer counts
		okLine("zzz-g2-s9:rect", solved, "stop", 1, 1), // not in the truth
		`{"custom_id":"nocondition","response":null,"error":"x"}`,
	}
	path := filepath.Join(t.TempDir(), "out.jsonl")
	if err := os.WriteFile(path, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	rep, err := Evaluate(context.Background(), truth, []Source{{Model: "m", Path: path, Condition: "rect"}}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]InstanceScore{}
	for _, s := range rep.Instances {
		got[s.ID+":"+s.Condition] = s
	}
	if len(got) != 4 {
		t.Fatalf("%d scored, want both instances in both conditions: %v", len(got), got)
	}
	if s := got["a-g2-s1:shape"]; !s.Valid || s.PA != 1 {
		t.Errorf("a shape: %+v", s)
	}
	if s := got["b-g2-s2:shape"]; s.Valid || !strings.HasPrefix(s.Reason, `truncated (finish_reason "length")`) {
		t.Errorf("b shape: %+v", s)
	}
	if s := got["a-g2-s1:rect"]; !s.Valid || s.PA != 0.5 {
		t.Errorf("a rect: %+v", s)
	}
	if s := got["b-g2-s2:rect"]; !s.Valid || s.PA != 1 {
		t.Errorf("b rect: %+v", s)
	}
	want := []UsageGroup{
		{Model: "m", Grid: 2, Condition: "shape", N: 2, PromptTokens: 100, CompletionTokens: (10 + 4096) / 2.0, TotalPromptTokens: 200, TotalCompletionTokens: 4106},
		{Model: "m", Grid: 2, Condition: "rect", N: 2, PromptTokens: 70, CompletionTokens: 40, TotalPromptTokens: 140, TotalCompletionTokens: 80},
	}
	if fmt.Sprint(rep.Usage) != fmt.Sprint(want) {
		t.Errorf("usage\n got %+v\nwant %+v", rep.Usage, want)
	}
	problems := strings.Join(rep.Problems, "\n")
	for _, p := range []string{`no instance "zzz-g2-s9"`, `custom_id "nocondition"`, "a second answer for b-g2-s2"} {
		if !strings.Contains(problems, p) {
			t.Errorf("problems lack %q:\n%s", p, problems)
		}
	}
	if strings.Contains(problems, "a second answer for a-g2-s1") {
		t.Errorf("an answer replacing a failure was reported as a duplicate:\n%s", problems)
	}

	// LoadAnswers (one condition) reads the same file for its condition.
	set, err := LoadAnswers(context.Background(), Source{Model: "m", Path: path, Condition: "rect"}, truth, nil)
	if err != nil || len(set.Records) != 2 || set.Condition != "rect" {
		t.Fatalf("LoadAnswers: %v %+v", err, set)
	}
}

// FuzzBatchOutputFile: any file that looks like a batch output is read
// without panicking, and every record belongs to the truth.
func FuzzBatchOutputFile(f *testing.F) {
	f.Add([]byte(okLine("a-g2-s1:shape", solved, "stop", 1, 2) + "\n" + okLine("b-g2-s2:rect", swapped, "length", 3, 4)))
	f.Add([]byte(`{"custom_id":"a-g2-s1:shape","response":{"status_code":200,"body":{"choices":[{"message":{"content":[{"type":"text","text":"{\"0\":[0,0]}"}]}}]}}}`))
	f.Add([]byte(`{"custom_id":"a-g2-s1:rect","error":{"code":1}}` + "\n{\"custom_id\":"))
	truth := batchTruth(f)
	dir := f.TempDir()
	f.Fuzz(func(t *testing.T, data []byte) {
		path := filepath.Join(dir, "fuzz.jsonl")
		if err := os.WriteFile(path, data, 0o644); err != nil {
			t.Fatal(err)
		}
		sets, err := LoadSources(context.Background(), Source{Model: "m", Path: path, Condition: "shape"}, truth, nil)
		if err != nil {
			return
		}
		for _, s := range sets {
			for _, r := range s.Records {
				if _, ok := truth.Find(r.ID); !ok {
					t.Fatalf("record for %q, not in the truth", r.ID)
				}
				if r.Valid() && len(r.Cells) != 4 {
					t.Fatalf("valid record with %d cells", len(r.Cells))
				}
			}
		}
	})
}
