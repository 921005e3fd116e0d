package app

import (
	"encoding/csv"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
)

func TestVigorDisagreements(t *testing.T) {
	dir := t.TempDir()
	files, err := vigordemo.Write(dir)
	if err != nil {
		t.Fatal(err)
	}
	rel := func(ps []string) []string {
		out := make([]string, len(ps))
		for i, p := range ps {
			out[i] = filepath.Join(dir, p)
		}
		return out
	}
	args := []string{"vigor", "disagreements", "--split", dir, "--humans"}
	args = append(args, rel(files.Humans)...)
	args = append(args, "--judge")
	args = append(args, rel(files.Judge[vigor.WithGT])...)
	args = append(args, "--judge-without-gt")
	args = append(args, rel(files.Judge[vigor.WithoutGT])...)
	out := filepath.Join(t.TempDir(), "dis.csv")
	code, stdout, stderr := runCLI(append(args, "--dimension", "reasoning", "--condition", "with_gt", "--top", "3", "--csv", out)...)
	if code != 0 || !strings.Contains(stdout, "largest |judge − humans| first") || !strings.Contains(stdout, "more (--top 0") {
		t.Fatalf("exit %d\n%s\n%s", code, stdout, stderr)
	}
	f, err := os.Open(out)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	rows, err := csv.NewReader(f).ReadAll()
	if err != nil || len(rows) < 5 {
		t.Fatalf("CSV: %v, %d rows", err, len(rows))
	}
	for _, r := range rows[1:] {
		if r[7] != "with_gt" || !strings.HasPrefix(r[6], "reasoning_") {
			t.Fatalf("row %q passes the filter", r)
		}
	}
	if code, _, stderr := runCLI(append(args, "--track", "sideways")...); code == 0 || !strings.Contains(stderr, "--track") {
		t.Errorf("bad track: exit %d, %s", code, stderr)
	}
}
