package score

import (
	"bufio"
	"context"
	"fmt"
	"math"
	"strconv"
)

// The report's analyses beyond the means (docs/analysis.md): the shape
// ablation and the piece types, computed with the groups, and model-vs-model
// comparisons added on request (Compare).

// analyse fills the ablation and the piece types.
func (r *Report) analyse(ctx context.Context) error {
	ab, notes, err := Ablate(ctx, r.Instances, r.Bootstrap)
	if err != nil {
		return err
	}
	r.Ablation = ab
	r.Problems = append(r.Problems, notes...)
	if r.Truth != nil {
		if r.PieceTypes, err = r.pieceTypeGroups(); err != nil {
			return err
		}
	}
	return nil
}

// Compare adds model a − model b, per grid and condition both answered, to
// the report's comparisons.
func (r *Report) Compare(ctx context.Context, a, b string) error {
	c, err := CompareModels(ctx, r.Instances, a, b, r.Bootstrap)
	if err != nil {
		return err
	}
	r.Comparisons = append(r.Comparisons, c...)
	return nil
}

// emptyAnalyses makes absent analyses empty lists in JSON, not null.
func (r *Report) emptyAnalyses() {
	if r.Ablation == nil {
		r.Ablation = []Ablation{}
	}
	if r.Comparisons == nil {
		r.Comparisons = []Comparison{}
	}
	if r.PieceTypes == nil {
		r.PieceTypes = []PieceTypeGroup{}
	}
}

// AboveChance rescales a score m against its random baseline b: 0 is
// chance, 1 is perfect, negative is worse than chance. It is increasing in
// m, so an interval maps to the interval of its mapped ends. b ≥ 1 leaves
// nothing above chance and gives NaN.
func AboveChance(m, b float64) float64 {
	if b >= 1 {
		return math.NaN()
	}
	return (m - b) / (1 - b)
}

// pp writes a difference of fractions in percentage points with a sign.
func pp(x float64) string {
	v := math.Round(x*1e4) / 100
	if v == 0 {
		return "0.00"
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func ppSigned(x float64) string { return withSign(pp(x)) }

// formatP writes a p-value with four decimals, or "<0.0001".
func formatP(p float64) string {
	if p < 0.0001 {
		return "<0.0001"
	}
	return strconv.FormatFloat(p, 'f', 4, 64)
}

// pairedRow is the label columns of an ablation or comparison row.
type pairedRow struct {
	label  [4]string // model(s), grid, condition or "", pairs
	grid   int
	counts string // the one-sided counts
	diff   PairedDiff
}

func (r *Report) ablationRows() []pairedRow {
	var rows []pairedRow
	for _, a := range r.Ablation {
		rows = append(rows, pairedRow{[4]string{a.Model, gridName(a.Grid), "", strconv.Itoa(a.Pairs)}, a.Grid,
			fmt.Sprintf("%d / %d", a.ShapeOnly, a.RectOnly), a.PairedDiff})
	}
	return rows
}

func (r *Report) comparisonRows() []pairedRow {
	var rows []pairedRow
	for _, c := range r.Comparisons {
		rows = append(rows, pairedRow{[4]string{c.A + " − " + c.B, gridName(c.Grid), c.Condition, strconv.Itoa(c.Pairs)}, c.Grid,
			fmt.Sprintf("%d / %d", c.AOnly, c.BOnly), c.PairedDiff})
	}
	return rows
}

// writeAnalysesTable writes the ablation, comparisons and piece types for a
// terminal, one line per metric or type.
func (r *Report) writeAnalysesTable(bw *bufio.Writer) {
	level := 100 * r.Bootstrap.withDefaults().Level
	paired := func(title, who, only string, rows []pairedRow) {
		if len(rows) == 0 {
			return
		}
		width := len(who)
		for _, row := range rows {
			width = min(max(width, len([]rune(row.label[0]))), 40)
		}
		fmt.Fprintf(bw, "\n%s (percentage points, %g%% paired bootstrap interval, sign-flip p)\n", title, level)
		condW := 5
		if rows[0].label[2] == "" { // the ablation: both conditions in every row
			condW = 0
		}
		fmt.Fprintf(bw, "%-*s %6s %*s %5s %9s %-6s %8s %20s %8s\n", width, who, "grid", condW, "cond"[:min(condW, 4)], "pairs", only, "metric", "diff", "interval", "p")
		for _, row := range rows {
			for m, t := range row.diff.vector() {
				l := row.label
				if m > 0 {
					l, row.counts = [4]string{}, ""
				}
				fmt.Fprintf(bw, "%-*s %6s %*s %5s %9s %-6s %8s %20s %8s\n", width, clip(l[0], width), l[1], condW, l[2], l[3], row.counts,
					MetricTitles[m], ppSigned(t.Diff), "["+ppSigned(t.CI[0])+", "+ppSigned(t.CI[1])+"]", formatP(t.P))
			}
		}
	}
	paired("ablation: shape − rect", "model", "only s/r", r.ablationRows())
	paired("model vs model: A − B", "models", "only A/B", r.comparisonRows())
	if len(r.PieceTypes) == 0 {
		return
	}
	width := len("model")
	for _, g := range r.PieceTypes {
		width = min(max(width, len([]rune(g.Model))), 40)
	}
	fmt.Fprintf(bw, "\npiece types (PA and AA by the type of the true cell; random: uniform permutation; type-aware: random within each type)\n")
	fmt.Fprintf(bw, "%-*s %6s %5s %-8s %6s %7s %7s %10s %7s %7s\n", width, "model", "grid", "cond", "type", "pieces", "PA", "random", "type-aware", "AA", "random")
	for _, g := range r.PieceTypes {
		for i, t := range g.Types {
			model, grid, cond := clip(g.Model, width), gridName(g.Grid), g.Condition
			if i > 0 {
				model, grid, cond = "", "", ""
			}
			fmt.Fprintf(bw, "%-*s %6s %5s %-8s %6d %7s %7s %10s %7s %7s\n", width, model, grid, cond, t.Type, t.Pieces,
				Percent(t.PA), Percent(t.BaselinePA), Percent(t.TypeAwarePA), Percent(t.AA), Percent(t.BaselineAA))
		}
	}
}

// writeAnalysesMarkdown writes the same as Markdown sections.
func (r *Report) writeAnalysesMarkdown(bw *bufio.Writer) {
	level := 100 * r.Bootstrap.withDefaults().Level
	paired := func(title, intro, who, only string, rows []pairedRow) {
		if len(rows) == 0 {
			return
		}
		fmt.Fprintf(bw, "\n## %s\n\n%s Differences in percentage points; brackets: %g%% paired bootstrap interval (resampling pairs); p: two-sided sign-flip permutation test.\n\n", title, intro, level)
		fmt.Fprintf(bw, "| %s | grid | condition | pairs | %s |", who, only)
		for _, t := range MetricTitles {
			fmt.Fprintf(bw, " Δ%s | p |", t)
		}
		fmt.Fprintf(bw, "\n|---|---|---|--:|--:|")
		for range MetricTitles {
			fmt.Fprintf(bw, "--:|--:|")
		}
		fmt.Fprintln(bw)
		for _, row := range rows {
			cond := row.label[2]
			if cond == "" {
				cond = "shape − rect"
			}
			fmt.Fprintf(bw, "| %s | %d×%d | %s | %s | %s |", mdEscape(row.label[0]), row.grid, row.grid, cond, row.label[3], row.counts)
			for _, t := range row.diff.vector() {
				fmt.Fprintf(bw, " %s [%s, %s] | %s |", ppSigned(t.Diff), ppSigned(t.CI[0]), ppSigned(t.CI[1]), formatP(t.P))
			}
			fmt.Fprintln(bw)
		}
	}
	paired("Ablation: shape − rect", "Per model and grid, over the instances answered in both conditions.", "model", "only shape / rect", r.ablationRows())
	paired("Model vs model", "Per grid and condition, over the instances both models answered.", "A − B", "only A / B", r.comparisonRows())
	if len(r.PieceTypes) == 0 {
		return
	}
	fmt.Fprintf(bw, "\n## Piece types\n\nPA and AA by the type of the piece's true cell (corner: two flat sides, border: one, interior: none); AA over the true adjacencies touching the type. Random: a uniformly random permutation (PA 1/N²); type-aware: a random permutation within each type (PA 1/pieces of the type). Brackets: %g%% bootstrap interval over instances.\n\n", level)
	fmt.Fprintf(bw, "| model | grid | condition | type | pieces | PA | random | type-aware | AA | random |\n|---|---|---|---|--:|--:|--:|--:|--:|--:|\n")
	for _, g := range r.PieceTypes {
		for _, t := range g.Types {
			fmt.Fprintf(bw, "| %s | %d×%d | %s | %s | %d | %s [%s, %s] | *%s* | *%s* | %s [%s, %s] | *%s* |\n", mdEscape(g.Model), g.Grid, g.Grid, g.Condition, t.Type, t.Pieces,
				pct(t.PA), pct(t.PACI[0]), pct(t.PACI[1]), pct(t.BaselinePA), pct(t.TypeAwarePA), pct(t.AA), pct(t.AACI[0]), pct(t.AACI[1]), pct(t.BaselineAA))
		}
	}
}
