package score

import (
	"context"
	"os"
	"path/filepath"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestInvalidAnswersKeepTheirText: the GUI shows why an answer failed, so the
// model's own words must survive scoring.
func TestInvalidAnswersKeepTheirText(t *testing.T) {
	tr := &Truth{ID: "x", Grid: 2, Cell: []int{0, 1, 2, 3}, Sides: make([]puzzle.Sides, 4)}
	ts, err := NewTruthSet(tr)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	for name, content := range map[string]string{
		"chat.jsonl": `{"id":"x","response":"I am not sure where the pieces go."}` + "\n",
		"cut.jsonl":  `{"id":"x","prediction":{"0":[0,` + "\n",
	} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
		set, err := LoadAnswers(context.Background(), Source{Model: "m", Path: path, Condition: puzzle.ConditionShape}, ts, nil)
		if err != nil {
			t.Fatal(err)
		}
		scores, _ := ScoreAnswers(ts, set)
		if len(scores) != 1 || scores[0].Valid {
			t.Fatalf("%s: %+v", name, scores)
		}
		want := "I am not sure where the pieces go."
		if name == "cut.jsonl" {
			want = `{"id":"x","prediction":{"0":[0,`
		}
		if scores[0].Raw != want {
			t.Errorf("%s: raw text %q, want %q", name, scores[0].Raw, want)
		}
	}
}
