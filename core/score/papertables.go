package score

import (
	"bufio"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
)

// The paper's two result tables (docs/analysis.md §4): Table A PA and EM,
// Table B AA and SC; rows are the models and the random baseline, column
// groups the grids; one condition; percent with two decimals; the best
// model per column in bold (none where every model ties).

// paperTables are Table A and Table B's metrics.
var paperTables = [2]struct {
	name, label string
	metrics     [2]PlotMetric
}{
	{"Table A", "pa-em", [2]PlotMetric{PlotPA, PlotEM}},
	{"Table B", "aa-sc", [2]PlotMetric{PlotAA, PlotSC}},
}

// paperCell is one model's value in one column.
type paperCell struct {
	text    string // two decimals, percent
	defined bool
	best    bool
}

// paperTable is one table laid out: rows × (grid, metric) columns.
type paperTable struct {
	name, label, caption string
	metrics              [2]PlotMetric
	grids                []int
	models               []string
	cells                [][]paperCell // [model][grid*2 + metric]
	baseline             []paperCell
}

// percent2 writes a fraction as a percentage with two decimals (no sign);
// values that round to 0 but are not 0 are "<0.01".
func percent2(x float64) string {
	v := math.Round(x*1e4) / 100
	if v == 0 && x > 0 {
		return "<0.01"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

// paperLayout builds both tables for condition cond ("" means shape).
func (r *Report) paperLayout(cond string) ([2]paperTable, error) {
	if cond == "" {
		cond = "shape"
	}
	var models []string
	seen := map[int]int{}
	for _, g := range r.Groups {
		if g.Condition != cond {
			continue
		}
		if !contains(models, g.Model) {
			models = append(models, g.Model)
		}
		seen[g.Grid]++
	}
	var out [2]paperTable
	if len(models) == 0 {
		return out, fmt.Errorf("no scores in the %s condition for the paper tables", cond)
	}
	grids := sortedKeys(seen)
	for ti, spec := range paperTables {
		t := paperTable{name: spec.name, label: spec.label, metrics: spec.metrics, grids: grids, models: models}
		t.caption = fmt.Sprintf("%s and %s in percent, %s condition; best model per column in bold; the random baseline is the expectation of a uniformly random permutation.",
			spec.metrics[0].Title(), spec.metrics[1].Title(), cond)
		values := make([][]float64, len(models))
		t.cells = make([][]paperCell, len(models))
		for mi, model := range models {
			t.cells[mi] = make([]paperCell, 2*len(grids))
			values[mi] = make([]float64, 2*len(grids))
			for gi, n := range grids {
				for k, m := range spec.metrics {
					for i := range r.Groups {
						g := &r.Groups[i]
						if g.Model == model && g.Grid == n && g.Condition == cond {
							v, _, _ := g.Value(m)
							values[mi][2*gi+k] = math.Round(v*1e4) / 1e4 // bold what reads as best
							t.cells[mi][2*gi+k] = paperCell{text: percent2(v), defined: true}
						}
					}
				}
			}
		}
		for j := range 2 * len(grids) {
			best := math.Inf(-1)
			for mi := range models {
				if t.cells[mi][j].defined {
					best = max(best, values[mi][j])
				}
			}
			// A column where every model ties has no best.
			tied, defined := 0, 0
			for mi := range models {
				if t.cells[mi][j].defined {
					defined++
					if values[mi][j] == best {
						tied++
					}
				}
			}
			for mi := range models {
				t.cells[mi][j].best = tied < defined && t.cells[mi][j].defined && values[mi][j] == best
			}
		}
		for _, n := range grids {
			b := BaselineOf(n)
			for _, m := range spec.metrics {
				text := percent2(b.vector()[m.index()])
				if m == PlotEM && text == "0.00" { // 1/(N²)! underflows float64 from N = 13
					text = "<0.01"
				}
				t.baseline = append(t.baseline, paperCell{text: text, defined: true})
			}
		}
		out[ti] = t
	}
	return out, nil
}

// latexEscape escapes TeX's special characters in plain text, in forms the
// default (OT1) font encoding has: <, >, |, braces and backslash as math.
func latexEscape(s string) string {
	return strings.NewReplacer(`\`, `$\backslash$`, "&", `\&`, "%", `\%`, "$", `\$`, "#", `\#`, "_", `\_`,
		"{", `$\{$`, "}", `$\}$`, "~", `\~{}`, "^", `\^{}`, "<", `$<$`, ">", `$>$`, "|", `$|$`,
		"×", `$\times$`, "−", `--`).Replace(s)
}

// WriteLaTeX writes the two paper tables for condition cond ("" means
// shape) as a LaTeX document using booktabs (and graphicx, to shrink a
// table wider than the text); each table environment can be copied into a
// paper as it is.
func (r *Report) WriteLaTeX(w io.Writer, cond string) error {
	tables, err := r.paperLayout(cond)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%% jigbench score: the JigShape result tables (docs/analysis.md).\n")
	fmt.Fprintf(bw, "\\documentclass{article}\n\\usepackage{booktabs}\n\\usepackage{graphicx}\n\\begin{document}\n")
	for _, t := range tables {
		cols := len(t.grids) * 2
		fmt.Fprintf(bw, "\n\\begin{table}[t]\n\\centering\n\\small\n\\caption{%s}\n\\label{tab:jigshape-%s}\n\\medskip\n", latexEscape(t.caption), t.label)
		// Shrunk to the text width only when wider (long names, four grids).
		fmt.Fprintf(bw, "\\setlength{\\tabcolsep}{4pt}\n\\resizebox{\\ifdim\\width>\\linewidth\\linewidth\\else\\width\\fi}{!}{%%\n")
		fmt.Fprintf(bw, "\\begin{tabular}{l%s}\n\\toprule\n", strings.Repeat("rr", len(t.grids)))
		for _, n := range t.grids {
			fmt.Fprintf(bw, " & \\multicolumn{2}{c}{$%d\\times%d$}", n, n)
		}
		fmt.Fprintf(bw, " \\\\\n")
		for gi := range t.grids {
			fmt.Fprintf(bw, "\\cmidrule(lr){%d-%d}", 2+2*gi, 3+2*gi)
		}
		fmt.Fprintf(bw, "\nModel")
		for range t.grids {
			fmt.Fprintf(bw, " & %s & %s", t.metrics[0].Short(), t.metrics[1].Short())
		}
		fmt.Fprintf(bw, " \\\\\n\\midrule\n")
		cell := func(c paperCell) string {
			switch {
			case !c.defined:
				return "--"
			case c.best:
				return `\textbf{` + latexEscape(c.text) + `}`
			}
			return latexEscape(c.text)
		}
		for mi, model := range t.models {
			fmt.Fprintf(bw, "%s", latexEscape(model))
			for j := range cols {
				fmt.Fprintf(bw, " & %s", cell(t.cells[mi][j]))
			}
			fmt.Fprintf(bw, " \\\\\n")
		}
		fmt.Fprintf(bw, "\\midrule\n\\textit{Random baseline}")
		for _, c := range t.baseline {
			fmt.Fprintf(bw, " & %s", cell(c))
		}
		fmt.Fprintf(bw, " \\\\\n\\bottomrule\n\\end{tabular}}\n\\end{table}\n")
	}
	fmt.Fprintf(bw, "\n\\end{document}\n")
	return bw.Flush()
}

// WritePaperMarkdown writes the two paper tables for condition cond in
// Markdown, laid out as WriteLaTeX does (grid and metric in each column
// heading, as Markdown has no column groups).
func (r *Report) WritePaperMarkdown(w io.Writer, cond string) error {
	tables, err := r.paperLayout(cond)
	if err != nil {
		return err
	}
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# JigShape result tables\n")
	for _, t := range tables {
		fmt.Fprintf(bw, "\n## %s\n\n%s\n\n| Model |", t.name, t.caption)
		for _, n := range t.grids {
			fmt.Fprintf(bw, " %d×%d %s | %d×%d %s |", n, n, t.metrics[0].Short(), n, n, t.metrics[1].Short())
		}
		fmt.Fprintf(bw, "\n|---|%s\n", strings.Repeat("--:|", 2*len(t.grids)))
		cell := func(c paperCell) string {
			switch {
			case !c.defined:
				return "–"
			case c.best:
				return "**" + c.text + "**"
			}
			return c.text
		}
		for mi, model := range t.models {
			fmt.Fprintf(bw, "| %s |", mdEscape(model))
			for _, c := range t.cells[mi] {
				fmt.Fprintf(bw, " %s |", cell(c))
			}
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "| *Random baseline* |")
		for _, c := range t.baseline {
			fmt.Fprintf(bw, " *%s* |", c.text)
		}
		fmt.Fprintln(bw)
	}
	return bw.Flush()
}
