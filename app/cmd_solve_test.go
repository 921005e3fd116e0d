package app

import (
	"encoding/json"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestSolveRowsInScoreReport: the classical solvers' answers, written by
// `jigbench solve`, are scored by `jigbench score` like any model's: the
// shape solver is shape-consistent (SC = 1) and the content solver exact on
// a textured demo image.
func TestSolveRowsInScoreReport(t *testing.T) {
	dir := t.TempDir()
	inst := generateCLI(t, dir, "--demo", "harbor-town", "--grid", "8", "--seed", "1", "--size", "512")
	shape, content := filepath.Join(dir, "shape.json"), filepath.Join(dir, "content.json")
	if code, _, stderr := runCLI("solve", inst, "--mode", "shape", "--out", shape); code != 0 {
		t.Fatalf("solve shape: %s", stderr)
	}
	if code, _, stderr := runCLI("solve", inst, "--mode", "content", "--out", content); code != 0 {
		t.Fatalf("solve content: %s", stderr)
	}
	report := filepath.Join(dir, "report.json")
	code, table, stderr := runCLI("score", "--truth", inst, "--pred", "classical-shape="+shape, "--pred", "classical-content="+content, "--json", report)
	if code != 0 {
		t.Fatalf("score: %s", stderr)
	}
	for _, row := range []string{"classical-shape", "classical-content", "random baseline"} {
		if !strings.Contains(table, row) {
			t.Errorf("the score table lacks a %q row:\n%s", row, table)
		}
	}
	data, err := os.ReadFile(report)
	if err != nil {
		t.Fatal(err)
	}
	var rep struct {
		Groups []struct {
			Model string  `json:"model"`
			PA    float64 `json:"pa"`
			EM    float64 `json:"em"`
			SC    float64 `json:"sc"`
		} `json:"groups"`
	}
	if err := json.Unmarshal(data, &rep); err != nil {
		t.Fatal(err)
	}
	if len(rep.Groups) != 2 {
		t.Fatalf("%d groups, want 2", len(rep.Groups))
	}
	if g := rep.Groups[0]; g.Model != "classical-shape" || g.SC != 1 {
		t.Errorf("classical-shape: %+v, want SC = 1", g)
	}
	if g := rep.Groups[1]; g.Model != "classical-content" || g.PA != 1 || g.EM != 1 || g.SC != 1 {
		t.Errorf("classical-content: %+v, want PA = EM = SC = 1", g)
	}
}

// The content solver's summary says how many pieces it cannot tell apart:
// alpine-lake's 4×4 rect sheet has four cells of one flat colour.
func TestSolveSummaryNamesTies(t *testing.T) {
	dir := t.TempDir()
	inst := generateCLI(t, dir, "--demo", "alpine-lake", "--grid", "4", "--seed", "1")
	code, _, stderr := runCLI("solve", inst, "--mode", "content", "--sheet", "rect")
	if want := "; 4 pieces in 1 class look alike to it and tie"; code != 0 || !strings.Contains(stderr, want) {
		t.Errorf("solve --sheet rect: code %d, stderr %q; want it to contain %q", code, stderr, want)
	}
	code, _, stderr = runCLI("solve", inst, "--mode", "content")
	if code != 0 || strings.Contains(stderr, "tie") {
		t.Errorf("solve on the shape sheet (tabs tell the flat cells apart): code %d, stderr %q; want no ties", code, stderr)
	}
}

// TestSolveCount: --count prints the exact count as a decimal string, which
// is the number of signature layouts times the orders of look-alike pieces.
func TestSolveCount(t *testing.T) {
	dir := t.TempDir()
	inst := generateCLI(t, dir, "--demo", "bookshelf", "--grid", "4", "--seed", "3", "--size", "256")
	code, out, stderr := runCLI("solve", inst, "--count")
	if code != 0 {
		t.Fatalf("solve --count: %s", stderr)
	}
	var rep struct {
		ID           string `json:"id"`
		Arrangements string `json:"consistent_arrangements"`
		Layouts      uint64 `json:"signature_layouts"`
		LimitReached bool   `json:"limit_reached"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	a, ok := new(big.Int).SetString(rep.Arrangements, 10)
	if !ok || a.Sign() <= 0 || rep.Layouts < 1 || rep.LimitReached || rep.ID != "bookshelf-g4-s3" {
		t.Fatalf("count report %+v", rep)
	}
	if new(big.Int).Mod(a, new(big.Int).SetUint64(rep.Layouts)).Sign() != 0 {
		t.Fatalf("%s arrangements is not a multiple of %d layouts", a, rep.Layouts)
	}
	if !strings.Contains(stderr, "exact") {
		t.Errorf("the summary does not say the count is exact: %s", stderr)
	}
}

// TestSolveBadInput: a folder without an instance, or a sheet that is not
// this instance's, fails with one line naming the file.
func TestSolveBadInput(t *testing.T) {
	dir := t.TempDir()
	code, _, stderr := runCLI("solve", dir, "--mode", "content")
	if code != 1 || !strings.Contains(stderr, "instance.json") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("empty folder: exit %d, %q", code, stderr)
	}
	inst := generateCLI(t, dir, "--demo", "bookshelf", "--grid", "4", "--seed", "1", "--size", "256")
	if err := os.WriteFile(filepath.Join(inst, "shape.png"), []byte("not a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = runCLI("solve", inst, "--mode", "content")
	if code != 1 || !strings.Contains(stderr, "shape.png") || strings.Count(stderr, "\n") != 1 {
		t.Errorf("broken sheet: exit %d, %q", code, stderr)
	}
	if code, _, _ := runCLI("solve", inst, "--mode", "colour"); code != 2 {
		t.Errorf("bad --mode: exit %d, want 2", code)
	}
}

// On large grids the count stops at its budget; that is a lower bound with
// limit_reached, exit 0 — never "the sides contradict each other" for a
// puzzle --mode shape solves (harbor-town 40×40 seed 2 used to say so).
func TestSolveCountOnALargeGridIsALowerBound(t *testing.T) {
	dir := t.TempDir()
	inst := generateCLI(t, dir, "--demo", "harbor-town", "--grid", "40", "--seed", "2")
	code, out, stderr := runCLI("solve", inst, "--mode", "shape", "--count")
	if code != 0 {
		t.Fatalf("solve --count: exit %d: %s", code, stderr)
	}
	var rep struct {
		Arrangements string `json:"consistent_arrangements"`
		Layouts      uint64 `json:"signature_layouts"`
		LimitReached bool   `json:"limit_reached"`
	}
	if err := json.Unmarshal([]byte(out), &rep); err != nil {
		t.Fatal(err)
	}
	if !rep.LimitReached || rep.Layouts == 0 || rep.Arrangements == "0" || !strings.Contains(stderr, "lower bound") {
		t.Errorf("count of a 40×40 = %+v (%s), want a positive lower bound with limit_reached", rep, stderr)
	}
}
