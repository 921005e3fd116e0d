package score

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/safecsv"
)

// ReportFormat names version 1 of the score report (docs/formats.md, "Reports").
const ReportFormat = "jigbench.score-report/v1"

// Report is the result of scoring: one entry per model × grid × condition
// and one per scored instance. Its JSON is the --json output of
// `jigbench score`; WriteCSV, WriteMarkdown and WriteTable render the same
// groups.
type Report struct {
	Format    string           `json:"format"`
	Groups    []Group          `json:"groups"`
	Instances []InstanceScore  `json:"instances"`
	Bootstrap BootstrapOptions `json:"bootstrap"`
	// Problems are things a person should know: skipped lines and files,
	// unmatched IDs, grids left out.
	Problems []string `json:"problems"`
	// Ablation, Comparisons and PieceTypes are the analyses of
	// docs/analysis.md (analysis.go).
	Ablation    []Ablation       `json:"ablation"`
	Comparisons []Comparison     `json:"comparisons"`
	PieceTypes  []PieceTypeGroup `json:"piece_types"`
	// Usage is the token usage batch outputs reported (batch.go).
	Usage []UsageGroup `json:"usage"`
	// Truth is what was scored against (for heatmaps and reassembly views).
	Truth *TruthSet `json:"-"`
}

// WriteJSON writes the report as indented JSON.
func (r *Report) WriteJSON(w io.Writer) error {
	out := *r
	if out.Groups == nil {
		out.Groups = []Group{}
	}
	if out.Instances == nil {
		out.Instances = []InstanceScore{}
	}
	if out.Problems == nil {
		out.Problems = []string{}
	}
	out.emptyAnalyses()
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	return enc.Encode(out)
}

// metricColumns names the five metrics in report order.
var metricColumns = [5]string{"pa", "em", "aa", "aa_directed", "sc"}

// WriteCSV writes one row per group: counts, the five means with their
// interval bounds, and the baselines.
func (r *Report) WriteCSV(w io.Writer) error {
	cw := safecsv.NewWriter(w)
	head := []string{"model", "grid", "condition", "n", "invalid", "missing", "unknown_ids", "bad_positions"}
	for _, m := range metricColumns {
		head = append(head, m, m+"_lo", m+"_hi")
	}
	for _, m := range metricColumns {
		head = append(head, "baseline_"+m)
	}
	// The analyses' figures per group (docs/analysis.md); empty where the
	// group has none.
	head = append(head, "pa_exchangeable_n", "pa_exchangeable", "pa_exchangeable_lo", "pa_exchangeable_hi", "remaining_n")
	for _, m := range metricColumns {
		head = append(head, "remaining_"+m, "remaining_"+m+"_lo", "remaining_"+m+"_hi")
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, g := range r.Groups {
		row := []string{g.Model, strconv.Itoa(g.Grid), g.Condition, strconv.Itoa(g.N), strconv.Itoa(g.Invalid),
			strconv.Itoa(g.Missing), strconv.Itoa(g.UnknownIDs), strconv.Itoa(g.BadPositions)}
		v, ci := metricVector(g.Metrics), g.CI.vector()
		for m := range v {
			row = append(row, num(v[m]), num(ci[m][0]), num(ci[m][1]))
		}
		for _, b := range g.Baseline.vector() {
			row = append(row, num(b))
		}
		if e := g.PAExchangeable; e != nil {
			row = append(row, strconv.Itoa(e.N), num(e.Mean), num(e.CI[0]), num(e.CI[1]))
		} else {
			row = append(row, "", "", "", "")
		}
		if rg := g.Remaining; rg != nil {
			row = append(row, strconv.Itoa(rg.N))
			v, ci := metricVector(rg.Metrics), rg.CI.vector()
			for m := range v {
				row = append(row, num(v[m]), num(ci[m][0]), num(ci[m][1]))
			}
		} else {
			row = append(row, make([]string, 1+3*len(metricColumns))...)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

// WriteInstancesCSV writes one row per scored instance.
func (r *Report) WriteInstancesCSV(w io.Writer) error {
	cw := safecsv.NewWriter(w)
	head := append([]string{"model", "id", "grid", "condition", "valid", "reason"}, metricColumns[:]...)
	head = append(head, "missing", "unknown_ids", "bad_positions", "pa_exchangeable")
	for _, m := range metricColumns {
		head = append(head, "remaining_"+m)
	}
	if err := cw.Write(head); err != nil {
		return err
	}
	for _, s := range r.Instances {
		row := []string{s.Model, s.ID, strconv.Itoa(s.Grid), s.Condition, strconv.FormatBool(s.Valid), s.Reason}
		for _, v := range metricVector(s.Metrics) {
			row = append(row, num(v))
		}
		row = append(row, strconv.FormatBool(s.Missing), strconv.Itoa(s.UnknownIDs), strconv.Itoa(s.BadPositions), "")
		if s.PAExchangeable != nil {
			row[len(row)-1] = num(*s.PAExchangeable)
		}
		if s.Remaining != nil {
			for _, v := range metricVector(*s.Remaining) {
				row = append(row, num(v))
			}
		} else {
			row = append(row, make([]string, len(metricColumns))...)
		}
		if err := cw.Write(row); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

func (iv Intervals) vector() [5]Interval {
	return [5]Interval{iv.PA, iv.EM, iv.AA, iv.AADirected, iv.SC}
}

func (b GroupBaseline) vector() [5]float64 { return [5]float64{b.PA, b.EM, b.AA, b.AADirected, b.SC} }

// num writes a fraction with up to 6 decimals (exact 0 and 1 stay short);
// values too small for that are written in exponent form.
func num(x float64) string {
	if x != 0 && math.Abs(x) < 1e-6 {
		return strconv.FormatFloat(x, 'g', 4, 64)
	}
	return strconv.FormatFloat(math.Round(x*1e6)/1e6, 'f', -1, 64)
}

// pct formats a fraction as a percentage with two decimals, as the paper
// reports them.
func pct(x float64) string {
	if x != 0 && x < 0.00005 {
		return "<0.01%"
	}
	return strconv.FormatFloat(math.Round(x*1e4)/100, 'f', 2, 64) + "%"
}

// MetricTitles are the short names of the five metrics, in the order every
// report and the app's table show them (docs/metrics.md).
var MetricTitles = [5]string{"PA", "EM", "AA", "AA-dir", "SC"}

// WriteMarkdown writes a table per condition (model × grid rows, each metric
// with its 95% interval, the random baseline below each grid's models) and
// the problems.
func (r *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	level := r.Bootstrap.withDefaults().Level
	fmt.Fprintf(bw, "# JigShape scores\n\nMeans over instances (invalid answers score 0); brackets: %g%% percentile bootstrap interval over instances (%d replicates, seed %d); ★ best model in its grid and condition. Random baseline: a uniformly random permutation (exact expectation).\n",
		100*level, r.Bootstrap.withDefaults().Replicates, r.Bootstrap.Seed)
	for _, cond := range r.conditions() {
		fmt.Fprintf(bw, "\n## Condition: %s\n\n", cond)
		fmt.Fprintf(bw, "| model | grid | n | invalid |")
		for _, t := range MetricTitles {
			fmt.Fprintf(bw, " %s |", t)
		}
		fmt.Fprintf(bw, "\n|---|---|--:|--:|")
		for range MetricTitles {
			fmt.Fprintf(bw, "--:|")
		}
		fmt.Fprintln(bw)
		for _, grid := range r.grids(cond) {
			for _, g := range r.Groups {
				if g.Condition != cond || g.Grid != grid {
					continue
				}
				fmt.Fprintf(bw, "| %s | %d×%d | %d | %d |", mdEscape(g.Model), g.Grid, g.Grid, g.N, g.Invalid)
				v, ci := metricVector(g.Metrics), g.CI.vector()
				for m := range v {
					mark := ""
					if g.Best[m] {
						mark = " ★"
					}
					fmt.Fprintf(bw, " %s [%s, %s]%s |", pct(v[m]), pct(ci[m][0]), pct(ci[m][1]), mark)
				}
				fmt.Fprintln(bw)
			}
			fmt.Fprintf(bw, "| *random baseline* | %d×%d | | |", grid, grid)
			for _, b := range BaselineOf(grid).vector() {
				fmt.Fprintf(bw, " *%s* |", pct(b))
			}
			fmt.Fprintln(bw)
		}
	}
	r.writeExtrasMarkdown(bw)
	r.writeAnalysesMarkdown(bw)
	if len(r.Problems) > 0 {
		fmt.Fprintf(bw, "\n## Problems\n\n")
		for _, p := range r.Problems {
			fmt.Fprintf(bw, "- %s\n", mdEscape(p))
		}
	}
	return bw.Flush()
}

func mdEscape(s string) string { return strings.NewReplacer("|", `\|`, "\n", " ").Replace(s) }

// conditions in report order; grids of one condition ascending.
func (r *Report) conditions() []string {
	var out []string
	for _, c := range []string{"shape", "rect"} {
		for _, g := range r.Groups {
			if g.Condition == c {
				out = append(out, c)
				break
			}
		}
	}
	for _, g := range r.Groups {
		if g.Condition != "shape" && g.Condition != "rect" && !contains(out, g.Condition) {
			out = append(out, g.Condition)
		}
	}
	return out
}

func (r *Report) grids(cond string) []int {
	seen := map[int]int{}
	for _, g := range r.Groups {
		if g.Condition == cond {
			seen[g.Grid]++
		}
	}
	return sortedKeys(seen)
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// WriteTable writes the plain-text model × grid table for a terminal:
// per condition, each grid's models and then its random baseline.
func (r *Report) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	width := len("random baseline")
	for _, g := range r.Groups {
		width = max(width, len([]rune(g.Model)))
	}
	width = min(width, 40)
	for ci, cond := range r.conditions() {
		if ci > 0 {
			fmt.Fprintln(bw)
		}
		fmt.Fprintf(bw, "condition %s\n", cond)
		fmt.Fprintf(bw, "%-*s %6s %5s %7s", width, "model", "grid", "n", "invalid")
		for _, t := range MetricTitles {
			fmt.Fprintf(bw, " %7s", t)
		}
		fmt.Fprintln(bw)
		for _, grid := range r.grids(cond) {
			for _, g := range r.Groups {
				if g.Condition != cond || g.Grid != grid {
					continue
				}
				fmt.Fprintf(bw, "%-*s %6s %5d %7d", width, clip(g.Model, width), gridName(g.Grid), g.N, g.Invalid)
				for _, v := range metricVector(g.Metrics) {
					fmt.Fprintf(bw, " %7s", Percent(v))
				}
				fmt.Fprintln(bw)
			}
			fmt.Fprintf(bw, "%-*s %6s %5s %7s", width, "random baseline", gridName(grid), "", "")
			for _, b := range BaselineOf(grid).vector() {
				fmt.Fprintf(bw, " %7s", Percent(b))
			}
			fmt.Fprintln(bw)
		}
	}
	r.writeExtrasTable(bw)
	r.writeAnalysesTable(bw)
	return bw.Flush()
}

func gridName(n int) string { return strconv.Itoa(n) + "x" + strconv.Itoa(n) }

func clip(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n-1]) + "…"
}

// FindInstance returns the score of one model's answer to one instance
// under one condition (for the reassembly view: its Pred, and the truth's
// instance folder via Truth.Find).
func (r *Report) FindInstance(model, id, condition string) (*InstanceScore, bool) {
	for i := range r.Instances {
		s := &r.Instances[i]
		if s.Model == model && s.ID == id && s.Condition == condition {
			return s, true
		}
	}
	return nil, false
}
