package score

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// paperReport has three models: "gpt_5.5" at 4×4 and 8×8, "sft & co" at
// both, "tiny%" at 4×4 only, plus a rect group that the shape tables leave
// out. Values are the paper's where it gives them.
func paperReport() *Report {
	g := func(model string, grid int, cond string, pa, em, aa, sc float64) Group {
		return Group{Model: model, Grid: grid, Condition: cond, N: 250, Metrics: Metrics{PA: pa, EM: em, AA: aa, SC: sc}, Baseline: BaselineOf(grid)}
	}
	return &Report{Groups: []Group{
		g("gpt_5.5", 4, "shape", 0.6965, 0.264, 0.5422, 0.7133),
		g("gpt_5.5", 8, "shape", 0.0437, 0, 0.061, 0.394),
		g("sft & co", 4, "shape", 0.9782, 0.90, 0.95, 0.96),
		g("sft & co", 8, "shape", 0.3358, 0.004, 0.30, 0.50),
		g("tiny%", 4, "shape", 0.0662, 0, 0.20, 0.7133), // ties gpt_5.5's SC
		g("gpt_5.5", 4, "rect", 0.239, 0.01, 0.1, 0.3),
	}}
}

func TestPaperTablesByHand(t *testing.T) {
	var md bytes.Buffer
	if err := paperReport().WritePaperMarkdown(&md, ""); err != nil {
		t.Fatal(err)
	}
	got := md.String()
	for _, want := range []string{
		"| Model | 4×4 PA | 4×4 EM | 8×8 PA | 8×8 EM |",
		"| gpt_5.5 | 69.65 | 26.40 | 4.37 | 0.00 |",
		"| sft & co | **97.82** | **90.00** | **33.58** | **0.40** |",
		"| tiny% | 6.62 | 0.00 | – | – |",
		// EM baselines are 1/16! and 1/64!: not zero, below 0.01 %.
		"| *Random baseline* | *6.25* | *<0.01* | *1.56* | *<0.01* |",
		"| Model | 4×4 AA | 4×4 SC | 8×8 AA | 8×8 SC |",
		// SC at 4×4: sft best; at 8×8 sft's 50.00 beats gpt's 39.40.
		"| gpt_5.5 | 54.22 | 71.33 | 6.10 | 39.40 |",
		// 8×8 SC baseline: (56² − 48 + 56) / (2·64·63) = 3144/8064.
		"| *Random baseline* | *20.00* | *30.83* | *5.56* | *38.99* |",
	} {
		if !strings.Contains(got, want) {
			t.Errorf("Markdown lacks %q:\n%s", want, got)
		}
	}
	if strings.Contains(got, "23.90") {
		t.Error("the rect group leaked into the shape tables")
	}
	// Ties are all bold: with sft gone, gpt_5.5 and tiny% share 71.33 above
	// low's 30.00. A column where every model ties (8×8, gpt_5.5 alone) has
	// no best.
	rep := paperReport()
	rep.Groups = append(rep.Groups[:2], rep.Groups[4:]...)
	rep.Groups = append(rep.Groups, Group{Model: "low", Grid: 4, Condition: "shape", Metrics: Metrics{SC: 0.3}})
	md.Reset()
	rep.WritePaperMarkdown(&md, "shape")
	if s := md.String(); !strings.Contains(s, "| gpt_5.5 | **54.22** | **71.33** | 6.10 | 39.40 |") || !strings.Contains(s, "| tiny% | 20.00 | **71.33** | – | – |") ||
		!strings.Contains(s, "| low | 0.00 | 30.00 | – | – |") {
		t.Errorf("tied best not both bold, or a lone model bold:\n%s", s)
	}
	md.Reset()
	if err := paperReport().WritePaperMarkdown(&md, "rect"); err != nil || !strings.Contains(md.String(), "| gpt_5.5 | 23.90 | 1.00 |") {
		t.Errorf("rect tables: %v\n%s", err, md.String())
	}
	if err := (&Report{}).WritePaperMarkdown(&md, ""); err == nil {
		t.Error("no groups: no error")
	}

	var tex bytes.Buffer
	if err := paperReport().WriteLaTeX(&tex, ""); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{
		`\usepackage{booktabs}`, `\toprule`, `\midrule`, `\bottomrule`,
		` & \multicolumn{2}{c}{$4\times4$} & \multicolumn{2}{c}{$8\times8$} \\`,
		`\cmidrule(lr){2-3}\cmidrule(lr){4-5}`,
		`gpt\_5.5 & 69.65 & 26.40 & 4.37 & 0.00 \\`,
		`sft \& co & \textbf{97.82} & \textbf{90.00} & \textbf{33.58} & \textbf{0.40} \\`,
		`tiny\% & 6.62 & 0.00 & -- & -- \\`,
		`\textit{Random baseline} & 6.25 & $<$0.01 & 1.56 & $<$0.01 \\`,
	} {
		if !strings.Contains(tex.String(), want) {
			t.Errorf("LaTeX lacks %q:\n%s", want, tex.String())
		}
	}
}

// TestPaperTablesCompile runs pdflatex, an independent reader, on the
// LaTeX; JIGBENCH_WRITE_PAPER=DIR keeps the .tex and .pdf there to look at.
func TestPaperTablesCompile(t *testing.T) {
	if _, err := exec.LookPath("pdflatex"); err != nil {
		t.Skip("pdflatex is not installed (Debian: texlive-latex-recommended; `sh .ci/deps test` installs it)")
	}
	dir := t.TempDir()
	if keep := os.Getenv("JIGBENCH_WRITE_PAPER"); keep != "" {
		dir = keep
	}
	rep := paperReport()
	// Every character TeX treats specially, in a model name.
	rep.Groups = append(rep.Groups, Group{Model: `a\b{c}~^<>$#_&%|−×é`, Grid: 4, Condition: "shape", Baseline: BaselineOf(4)})
	// The paper's four grids and its longest model name must fit the page.
	for _, n := range []int{12, 16} {
		rep.Groups = append(rep.Groups, Group{Model: "Llama-4-Maverick-17B-128E-Instruct-FP8", Grid: n, Condition: "shape",
			Metrics: Metrics{PA: 0.0067, EM: 0, AA: 0.0261, SC: 0.4235}, Baseline: BaselineOf(n)})
	}
	var tex bytes.Buffer
	if err := rep.WriteLaTeX(&tex, ""); err != nil {
		t.Fatal(err)
	}
	// 1/256! underflows to 0 but is not 0.
	if !strings.Contains(tex.String(), ` & 0.39 & $<$0.01 \\`) {
		t.Errorf("the 16×16 EM baseline is not <0.01:\n%s", tex.String())
	}
	path := filepath.Join(dir, "tables.tex")
	if err := os.WriteFile(path, tex.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("pdflatex", "-interaction=nonstopmode", "-halt-on-error", "tables.tex")
	cmd.Dir = dir
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("pdflatex: %v\n%s", err, out)
	}
	if strings.Contains(string(out), "Overfull \\hbox") {
		t.Errorf("a table is wider than the text:\n%s", out)
	}
	if fi, err := os.Stat(filepath.Join(dir, "tables.pdf")); err != nil || fi.Size() == 0 {
		t.Fatalf("no PDF: %v", err)
	}
}
