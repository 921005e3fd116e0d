package app

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
)

// The leaderboard and the per-condition report from the command line, with
// three conditions: with_gt and without_gt named by the records, and
// text_gt_only given for a file whose records name none.
func TestVigorLeaderboardAndConditions(t *testing.T) {
	dir, sp := vigorTestSplit(t)
	tmp := t.TempDir()
	humans, judge := vigor.Simulate(sp, vigor.SimConfig{Seed: 9})
	hf := filepath.Join(tmp, "humans.csv")
	if err := vigor.WriteRatingsFile(hf, humans); err != nil {
		t.Fatal(err)
	}
	jf := filepath.Join(tmp, "judge.jsonl")
	if err := vigor.WriteJudgeFile(jf, sp, judge); err != nil {
		t.Fatal(err)
	}
	// text_gt_only: the with-GT run 1 without its condition field.
	var run1 []vigor.JudgeRecord
	for _, r := range judge {
		if r.Condition == vigor.WithGT && r.Run == 1 {
			run1 = append(run1, r)
		}
	}
	tf := filepath.Join(tmp, "text.jsonl")
	vigor.WriteJudgeFile(tf, sp, run1)
	data, _ := os.ReadFile(tf)
	os.WriteFile(tf, []byte(strings.ReplaceAll(string(data), `"condition":"with_gt",`, "")), 0o644)

	lbJSON, lbCSV, lbMD := filepath.Join(tmp, "lb.json"), filepath.Join(tmp, "lb.csv"), filepath.Join(tmp, "lb.md")
	code, out, errs := runCLI("vigor", "leaderboard", "--split", dir, "--humans", hf, "--judge", jf, "text_gt_only="+tf,
		"--bootstrap", "200", "--json", lbJSON, "--csv", lbCSV, "--markdown", lbMD)
	if code != 0 || !strings.Contains(out, "judge condition with_gt, runs 1,2,3") || !strings.Contains(out, "Kendall τ-b") {
		t.Fatalf("leaderboard: exit %d\n%s\n%s", code, out, errs)
	}
	var lb vigor.Leaderboard
	raw, _ := os.ReadFile(lbJSON)
	if err := json.Unmarshal(raw, &lb); err != nil || lb.Format != vigor.LeaderboardFormat || len(lb.Entries) == 0 {
		t.Fatalf("leaderboard JSON: %v %+v", err, lb.Format)
	}
	for _, p := range []string{lbCSV, lbMD} {
		if fi, err := os.Stat(p); err != nil || fi.Size() == 0 {
			t.Errorf("%s not written: %v", p, err)
		}
	}
	code, out, errs = runCLI("vigor", "leaderboard", "--split", dir, "--humans", hf, "--judge", jf, "text_gt_only="+tf,
		"--condition", "text_gt_only", "--bootstrap", "0")
	if code != 0 || !strings.Contains(out, "judge condition text_gt_only, runs 1") {
		t.Fatalf("leaderboard of text_gt_only: exit %d\n%s\n%s", code, out, errs)
	}

	crJSON := filepath.Join(tmp, "cond.json")
	code, out, errs = runCLI("vigor", "conditions", "--split", dir, "--humans", hf, "--judge", jf, "text_gt_only="+tf,
		"--diff", "with_gt,text_gt_only", "--bootstrap", "200", "--json", crJSON)
	if code != 0 {
		t.Fatalf("conditions: exit %d\n%s\n%s", code, out, errs)
	}
	for _, want := range []string{"Judge without_gt", "Judge text_gt_only", "Judge with_gt", "with_gt − text_gt_only"} {
		if !strings.Contains(out, want) {
			t.Errorf("conditions output lacks %q:\n%s", want, out)
		}
	}
	var cr vigor.ConditionsReport
	raw, _ = os.ReadFile(crJSON)
	if err := json.Unmarshal(raw, &cr); err != nil || len(cr.Rows) != 4 || len(cr.Diffs) != 1 {
		t.Fatalf("conditions JSON: %v rows %d diffs %d", err, len(cr.Rows), len(cr.Diffs))
	}
	code, _, errs = runCLI("vigor", "conditions", "--split", dir, "--humans", hf, "--judge", jf, "--diff", "with_gt")
	if code != 2 || !strings.Contains(errs, "--diff") {
		t.Errorf("bad --diff: exit %d %q", code, errs)
	}
}
