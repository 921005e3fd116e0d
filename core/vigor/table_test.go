package vigor

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestTableRenderers(t *testing.T) {
	tables := []Table{
		{Title: "Scores", Note: "In %.", Columns: []string{"", "A", "B|C"}, Rows: [][]string{{"x", "1.0%", "22.5%"}, {"longer", "=1+1", "-0.5"}}},
		{Title: "Empty", Note: "Nothing yet."},
	}
	var text, md, csv bytes.Buffer
	if err := writeText(&text, "Intro.", tables, "Outro."); err != nil {
		t.Fatal(err)
	}
	wantText := "Intro.\n\nScores\nIn %.\n        A     B|C\nx       1.0%  22.5%\nlonger  =1+1  -0.5\n\nEmpty\nNothing yet.\n\nOutro.\n"
	if text.String() != wantText {
		t.Errorf("text:\n%q\nwant\n%q", text.String(), wantText)
	}
	if err := writeMarkdown(&md, "Head", "Intro.", tables); err != nil {
		t.Fatal(err)
	}
	wantMD := "# Head\n\nIntro.\n\n## Scores\n\nIn %.\n\n|  | A | B\\|C |\n|---|---|---|\n| x | 1.0% | 22.5% |\n| longer | =1+1 | -0.5 |\n\n## Empty\n\nNothing yet.\n"
	if md.String() != wantMD {
		t.Errorf("Markdown:\n%q\nwant\n%q", md.String(), wantMD)
	}
	if err := tables[0].writeCSV(&csv); err != nil {
		t.Fatal(err)
	}
	// A formula is written as text; a number stays a number.
	if want := ",A,B|C\nx,1.0%,22.5%\nlonger,'=1+1,-0.5\n"; csv.String() != want {
		t.Errorf("CSV %q, want %q", csv.String(), want)
	}
}

// TestReportsGolden pins the text and Markdown of the three agreement
// reports on the hand-worked input. Rerun with JIGBENCH_UPDATE_GOLDEN=1 if
// a change is intended, and read the diff.
func TestReportsGolden(t *testing.T) {
	in := handInput(t)
	ctx := context.Background()
	rep, err := Analyze(ctx, in, Options{Replicates: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	lb, err := BuildLeaderboard(ctx, in, LeaderboardOptions{Replicates: 50, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	cr, err := AnalyzeConditions(ctx, in, Options{Replicates: 50, Seed: 3}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for name, write := range map[string]func(*bytes.Buffer) error{
		"agree.txt":       func(b *bytes.Buffer) error { return rep.WriteText(b) },
		"agree.md":        func(b *bytes.Buffer) error { return rep.WriteMarkdown(b) },
		"leaderboard.txt": func(b *bytes.Buffer) error { return lb.WriteText(b) },
		"leaderboard.md":  func(b *bytes.Buffer) error { return lb.WriteMarkdown(b) },
		"conditions.txt":  func(b *bytes.Buffer) error { return cr.WriteText(b) },
		"conditions.md":   func(b *bytes.Buffer) error { return cr.WriteMarkdown(b) },
	} {
		var b bytes.Buffer
		if err := write(&b); err != nil {
			t.Fatal(err)
		}
		golden := filepath.Join("testdata", "golden", name)
		if os.Getenv("JIGBENCH_UPDATE_GOLDEN") != "" {
			os.MkdirAll(filepath.Dir(golden), 0o755)
			if err := os.WriteFile(golden, b.Bytes(), 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(golden)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(b.Bytes(), want) {
			t.Errorf("%s differs from %s; rerun with JIGBENCH_UPDATE_GOLDEN=1 if the change is intended:\n%s", name, golden, b.String())
		}
	}
	// Every table the app shows is in the terminal report and in the
	// Markdown, cell for cell: one model, three layouts.
	var text, md bytes.Buffer
	rep.WriteText(&text)
	rep.WriteMarkdown(&md)
	for _, tb := range rep.Tables() {
		if !strings.Contains(text.String(), "\n"+tb.Title+"\n") || !strings.Contains(md.String(), "\n## "+tb.Title+"\n") {
			t.Errorf("table %q is missing from the text or Markdown", tb.Title)
		}
		for _, r := range tb.Rows {
			if !strings.Contains(md.String(), "| "+strings.Join(r, " | ")+" |") {
				t.Errorf("%s: row %q is not in the Markdown", tb.Title, r)
			}
		}
	}
}
