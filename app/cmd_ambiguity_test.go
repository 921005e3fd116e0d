package app

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestAmbiguityCommand: a gradient demo at 12×12 has exchangeable pieces
// (20 same-sided identical pairs, as core/solve found); the JSON and the
// table say so, and a model answering with two exchangeable pieces swapped
// scores below 100 % PA but 100 % PA up to exchangeable pieces.
func TestAmbiguityCommand(t *testing.T) {
	dir := t.TempDir()
	truth := filepath.Join(dir, "truth")
	inst := generateCLI(t, truth, "--demo", "alpine-lake", "--grid", "12", "--seed", "1")
	js := filepath.Join(dir, "amb.json")
	code, table, stderr := runCLI("ambiguity", truth, "--json", js)
	if code != 0 {
		t.Fatalf("ambiguity: %s", stderr)
	}
	var rep struct {
		Instances []struct {
			ID    string `json:"id"`
			Shape struct {
				Classes      [][]int `json:"classes"`
				Pairs        int     `json:"pairs"`
				Arrangements string  `json:"arrangements"`
			} `json:"shape"`
		} `json:"instances"`
	}
	data, err := os.ReadFile(js)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Instances) != 1 || rep.Instances[0].Shape.Pairs != 20 || rep.Instances[0].Shape.Arrangements != "221184" {
		t.Fatalf("report %+v", rep.Instances)
	}
	if !strings.Contains(table, "221184") || !strings.Contains(table, "unique shape") {
		t.Errorf("table:\n%s", table)
	}

	// An answer with the first class's first two pieces swapped.
	var doc struct {
		Solution map[string][2]int `json:"solution"`
	}
	raw, err := os.ReadFile(filepath.Join(inst, "instance.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	c := rep.Instances[0].Shape.Classes[0]
	a, b := fmt.Sprint(c[0]), fmt.Sprint(c[1])
	doc.Solution[a], doc.Solution[b] = doc.Solution[b], doc.Solution[a]
	pred, _ := json.Marshal(doc.Solution)
	answers := filepath.Join(dir, "swap.jsonl")
	line := fmt.Sprintf(`{"id": %q, "prediction": %s}`+"\n", rep.Instances[0].ID, pred)
	if err := os.WriteFile(answers, []byte(line), 0o644); err != nil {
		t.Fatal(err)
	}
	scoreJSON := filepath.Join(dir, "score.json")
	code, table, stderr = runCLI("score", "--truth", truth, "--pred", "swap="+answers, "--json", scoreJSON)
	if code != 0 {
		t.Fatalf("score: %s", stderr)
	}
	var sr struct {
		Groups []struct {
			PA             float64 `json:"pa"`
			PAExchangeable struct {
				Mean float64 `json:"mean"`
			} `json:"pa_exchangeable"`
		} `json:"groups"`
	}
	data, err = os.ReadFile(scoreJSON)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &sr); err != nil {
		t.Fatal(err)
	}
	if g := sr.Groups[0]; g.PA != 142.0/144 || g.PAExchangeable.Mean != 1 {
		t.Errorf("PA %v (want 142/144), up to exchangeable pieces %v (want 1)\n%s", g.PA, g.PAExchangeable.Mean, table)
	}
}

// TestGenerateHints: --reveal and --hints similarity reach instance.json
// and the prompts; bad values are usage errors.
func TestGenerateHints(t *testing.T) {
	dir := t.TempDir()
	inst := generateCLI(t, dir, "--demo", "alpine-lake", "--grid", "4", "--seed", "2", "--size", "256",
		"--reveal", "3", "--hints", "similarity", "--clusters", "3")
	prompt, err := os.ReadFile(filepath.Join(inst, "prompt-rect.txt"))
	if err != nil {
		t.Fatal(err)
	}
	if n := strings.Count(string(prompt), " belongs at ["); n != 3 {
		t.Errorf("the prompt reveals %d pieces, want 3", n)
	}
	if !strings.Contains(string(prompt), "look alike in colour.") {
		t.Error("the prompt has no colour groups")
	}
	// The oracle's answer, scored: a section on the remaining pieces, all 100 %.
	var doc struct {
		ID       string          `json:"id"`
		Solution json.RawMessage `json:"solution"`
	}
	raw, err := os.ReadFile(filepath.Join(inst, "instance.json"))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		t.Fatal(err)
	}
	answers := filepath.Join(t.TempDir(), "oracle.jsonl")
	if err := os.WriteFile(answers, []byte(fmt.Sprintf(`{"id": %q, "prediction": %s}`+"\n", doc.ID, doc.Solution)), 0o644); err != nil {
		t.Fatal(err)
	}
	code, table, stderr := runCLI("score", "--truth", dir, "--pred", "oracle="+answers)
	if code != 0 {
		t.Fatalf("score: %s", stderr)
	}
	i := strings.Index(table, "on the remaining pieces")
	section := ""
	if i >= 0 {
		section, _, _ = strings.Cut(table[i:], "\n\n")
	}
	if strings.Count(section, "100.0%") != 5 {
		t.Errorf("no remaining-pieces section, or not all 100 %%:\n%s", table)
	}
	for _, bad := range [][]string{{"--reveal", "16"}, {"--hints", "colour"}, {"--clusters", "2"}, {"--reveal", "-1"}} {
		args := append([]string{"generate", "--demo", "alpine-lake", "--grid", "4", "--seed", "2", "--out", dir}, bad...)
		if code, _, stderr := runCLI(args...); code != exitUsage {
			t.Errorf("%v: exit %d (%s), want a usage error", bad, code, stderr)
		}
	}
}
