package vigor

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// A record that names the other condition than its file was given as is
// left out with a problem, on the command line and in the app alike.
func TestGatherFixesEachFilesCondition(t *testing.T) {
	dir := t.TempDir()
	sp := handSplit(t)
	with := filepath.Join(dir, "with.jsonl")
	scores := `"scores": {"background_consistency": 1, "rule_obey": 0, "visual_quality": 1, "reasoning_success": 0}`
	if err := os.WriteFile(with, []byte(`{"id": "r1", `+scores+"}\n"+`{"id": "r1", "condition": "without_gt", `+scores+"}\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	in, probs, err := Gather(sp, Sources{Judge: []JudgeFile{{Path: with, Condition: WithGT}}, Stored: []Rating{{Annotator: "a", Item: "r1"}}})
	if err != nil {
		t.Fatal(err)
	}
	if len(in.Judge) != 1 || in.Judge[0].Condition != WithGT || in.Judge[0].Run != 1 {
		t.Fatalf("records %+v, want one with_gt record of run 1", in.Judge)
	}
	if len(probs) != 1 || !strings.Contains(probs[0].String(), "given as with_gt") {
		t.Fatalf("problems %v, want one saying the file was given as with_gt", probs)
	}
	if len(in.Humans) != 1 || in.Humans[0].Annotator != "a" {
		t.Fatalf("humans %+v, want the stored rating", in.Humans)
	}
}
