package vigor

import (
	"fmt"
	"io"
	"strconv"
	"strings"
)

// fmtNum and fmtPct format statistics for people: 3 decimals and a
// percentage with one, "undefined" where undefined.
func fmtNum(v Value) string { return v.Format(3) }
func fmtPct(v Value) string { return v.Percent(1) }

func fmtSigned(v Value) string {
	if x, ok := v.Get(); ok && x >= 0 {
		return "+" + v.Format(3)
	}
	return v.Format(3)
}

func fmtSignedPct(v Value) string {
	if x, ok := v.Get(); ok && x >= 0 {
		return "+" + v.Percent(1)
	}
	return v.Percent(1)
}

func pctInterval(iv Interval) string {
	if !iv.OK() {
		return "undefined"
	}
	return "[" + iv.Lo.Percent(1) + ", " + iv.Hi.Percent(1) + "]"
}

// RunList writes run numbers as "1,2,3", "none" for none.
func RunList(runs []int) string {
	if len(runs) == 0 {
		return "none"
	}
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, ",")
}

var rowNames = [...]string{"Human experts", "Judge without GT", "Judge with GT"}

// table2Columns head Table 2 and the tables laid out like it: its
// intervals and the paired differences.
var table2Columns = []string{"", "Process MAE", "Process Acc", "Process Var", "Result MAE", "Result Acc", "Result Var"}

// table2Cells is a Table 2 row: MAE, accuracy and variance per track.
func table2Cells(name string, process, result *Cell) []string {
	return []string{name, fmtNum(process.MAE), fmtPct(process.Accuracy), fmtNum(process.Variance),
		fmtNum(result.MAE), fmtPct(result.Accuracy), fmtNum(result.Variance)}
}

// ciCells is the intervals of a Table 2 row.
func ciCells(name string, process, result *CICell) []string {
	return []string{name, process.MAE.Format(3), pctInterval(process.Accuracy), process.Variance.Format(3),
		result.MAE.Format(3), pctInterval(result.Accuracy), result.Variance.Format(3)}
}

// diffCells is a paired difference of two Table 2 rows: each figure's
// signed estimate and its interval.
func diffCells(name string, process, result *DiffCell) []string {
	num := func(x Diff) string { return fmtSigned(x.Estimate) + " " + x.CI.Format(3) }
	pct := func(x Diff) string { return fmtSignedPct(x.Estimate) + " " + pctInterval(x.CI) }
	return []string{name, num(process.MAE), pct(process.Accuracy), num(process.Variance),
		num(result.MAE), pct(result.Accuracy), num(result.Variance)}
}

func (rep *Report) rows() [3]*Row {
	return [3]*Row{&rep.Table2.HumanExperts, &rep.Table2.JudgeWithoutGT, &rep.Table2.JudgeWithGT}
}

func (rep *Report) ciRows() [3]*CIRow {
	return [3]*CIRow{&rep.CI.Table2.HumanExperts, &rep.CI.Table2.JudgeWithoutGT, &rep.CI.Table2.JudgeWithGT}
}

func (rep *Report) varianceNote() string {
	if rep.Variance == "sample" {
		return "sample variance (divide by n−1)"
	}
	return "population variance (divide by n)"
}

// WriteText writes the report for a terminal: the tables the app shows
// (Tables), then the confusion matrices, aligned. Breakdowns other than by
// dimension are in the JSON, Markdown and CSV reports.
func (rep *Report) WriteText(w io.Writer) error {
	intro := fmt.Sprintf("ViGoR agreement — split %s: %d process items, %d result items; %d annotators; judge runs without GT: %s, with GT: %s",
		rep.Split, rep.Items.Process, rep.Items.Result, len(rep.Annotators), RunList(rep.Runs.WithoutGT), RunList(rep.Runs.WithGT))
	return writeText(w, intro, append(rep.Tables(), rep.confusionTables()...), "")
}

// WriteMarkdown writes the full report as Markdown: the tables of
// WriteText, then reliability and bias by dimension and model, and every
// breakdown.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	intro := fmt.Sprintf("%d process items, %d result items; annotators: %s; judge runs without GT: %s, with GT: %s.",
		rep.Items.Process, rep.Items.Result, strings.Join(rep.Annotators, ", "), RunList(rep.Runs.WithoutGT), RunList(rep.Runs.WithGT))
	tables := append(rep.Tables(), rep.confusionTables()...)
	return writeMarkdown(w, "ViGoR agreement: "+rep.Split, intro, append(tables, rep.detailTables()...))
}

// confusionTables are the confusion matrices, one per condition and track.
func (rep *Report) confusionTables() []Table {
	var ts []Table
	for _, cond := range Conditions {
		cs := byCond(cond, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
		for _, t := range Tracks {
			cf := byTrack(t, &cs.Process, &cs.Result)
			ct := Table{Title: fmt.Sprintf("Confusion: %s, %s track", condRowName(cond), t),
				Columns: append([]string{"humans / judge"}, cf.Labels...)}
			if len(ts) == 0 {
				ct.Note = "Rows: the humans' class; columns: the judge's; all dimensions."
			}
			for i, r := range cf.Matrix {
				cells := []string{cf.Labels[i]}
				for _, n := range r {
					cells = append(cells, strconv.Itoa(n))
				}
				ct.Rows = append(ct.Rows, cells)
			}
			ts = append(ts, ct)
		}
	}
	return ts
}

// detailTables are the full report's tables beyond the app's: reliability
// per dimension, bias per dimension and model, and every breakdown.
func (rep *Report) detailTables() []Table {
	rel := Table{Title: "Inter-rater reliability by dimension",
		Columns: []string{"Coders", "Track", "Dimension", "Krippendorff α", "Fleiss κ", "Gwet AC1", "Units"}}
	for i, set := range rep.reliabilitySets() {
		for _, t := range Tracks {
			tr := byTrack(t, &set.Process, &set.Result)
			c := tr.All
			rel.Rows = append(rel.Rows, []string{reliabilityNames[i], string(t), "all (" + tr.Metric + ")",
				fmtNum(c.KrippendorffAlpha), optValue(c.FleissKappa), optValue(c.GwetAC1), strconv.Itoa(c.Units)})
			for _, dc := range tr.ByDimension {
				rel.Rows = append(rel.Rows, []string{reliabilityNames[i], string(t), dc.Dimension,
					fmtNum(dc.KrippendorffAlpha), optValue(dc.FleissKappa), optValue(dc.GwetAC1), strconv.Itoa(dc.Units)})
			}
		}
	}

	bias := Table{Title: "Bias by dimension and model", Note: "Judge − humans, signed.",
		Columns: []string{"Condition", "Track", "Group", "Bias", "Cells"}}
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		for _, t := range Tracks {
			tb := byTrack(t, &b.Process, &b.Result)
			bias.Rows = append(bias.Rows, []string{string(cond), string(t), "overall", fmtSigned(tb.Overall), ""})
			for _, g := range tb.ByDimension {
				bias.Rows = append(bias.Rows, []string{string(cond), string(t), g.Group, fmtSigned(g.Value), strconv.Itoa(g.Cells)})
			}
			for _, g := range tb.ByModel {
				bias.Rows = append(bias.Rows, []string{string(cond), string(t), "model " + g.Group, fmtSigned(g.Value), strconv.Itoa(g.Cells)})
			}
		}
	}

	br := Table{Title: "Breakdowns",
		Columns: []string{"By", "Group", "Track", "Condition", "MAE", "Acc", "Judge var", "Human var", "Bias", "Items", "Cells"}}
	for _, b := range rep.Breakdowns {
		br.Rows = append(br.Rows, []string{b.By, b.Group, string(b.Track), string(b.Condition), fmtNum(b.MAE), fmtPct(b.Accuracy),
			fmtNum(b.JudgeVariance), fmtNum(b.HumanVariance), fmtSigned(b.Bias), strconv.Itoa(b.Items), strconv.Itoa(b.Cells)})
	}
	return []Table{rel, bias, br}
}

func condRowName(c Condition) string {
	if c == WithGT {
		return "Judge with GT"
	}
	return "Judge without GT"
}

func optValue(v *Value) string {
	if v == nil {
		return "n/a"
	}
	return fmtNum(*v)
}

// Tables returns the report's tables as the app shows them and WriteText
// prints them, in reading order: Table 2, the items used, the bootstrap
// intervals, the human ceiling, reliability, bias and the per-dimension
// breakdown.
func (rep *Report) Tables() []Table {
	var ts []Table
	t2 := Table{
		Title:   "Table 2",
		Note:    "Scores on a 0–1 scale; Var = mean per-item " + rep.varianceNote() + ". " + HumanExpertsNote,
		Columns: table2Columns,
	}
	for i, row := range rep.rows() {
		t2.Rows = append(t2.Rows, table2Cells(rowNames[i], &row.Process, &row.Result))
	}
	ts = append(ts, t2)

	used := Table{
		Title:   "Items used",
		Note:    "Excluded: fewer than 2 human ratings / no judge score.",
		Columns: []string{"", "Process", "Result"},
	}
	for i, row := range rep.rows() {
		cell := func(c *Cell) string {
			s := fmt.Sprintf("%d items, %d cells (excluded %d", c.Items, c.Cells, c.Excluded.FewHumans)
			if i > 0 {
				s += fmt.Sprintf(" / %d", c.Excluded.NoJudge)
			}
			return s + ")"
		}
		used.Rows = append(used.Rows, []string{rowNames[i], cell(&row.Process), cell(&row.Result)})
	}
	ts = append(ts, used)

	ci := Table{
		Title:   fmt.Sprintf("%.0f%% bootstrap intervals", 100*rep.CI.Level),
		Columns: table2Columns,
	}
	if rep.CI.Replicates > 0 {
		ci.Note = fmt.Sprintf("%d replicates, seed %d; %s.", rep.CI.Replicates, rep.CI.Seed, rep.CI.Method)
		for i, row := range rep.ciRows() {
			ci.Rows = append(ci.Rows, ciCells(rowNames[i], &row.Process, &row.Result))
		}
		d := &rep.CI.WithMinusWithoutGT
		ci.Rows = append(ci.Rows, diffCells("With − without GT", &d.Process, &d.Result))
	} else {
		ci.Note = "No bootstrap intervals (0 replicates)."
	}
	ts = append(ts, ci)

	hc := &rep.HumanCeiling
	ceil := Table{
		Title:   "Human ceiling",
		Note:    "Leave-one-out: each annotator against the mean of the others.",
		Columns: []string{"", "Process MAE", "Process Acc", "Result MAE", "Result Acc"},
		Rows: [][]string{{"All annotators", fmtNum(hc.Process.MAE), fmtPct(hc.Process.Accuracy),
			fmtNum(hc.Result.MAE), fmtPct(hc.Result.Accuracy)}},
	}
	for _, a := range hc.PerAnnotator {
		ceil.Rows = append(ceil.Rows, []string{a.Annotator, fmtNum(a.Process.MAE), fmtPct(a.Process.Accuracy),
			fmtNum(a.Result.MAE), fmtPct(a.Result.Accuracy)})
	}
	ts = append(ts, ceil)

	rel := Table{
		Title:   "Inter-rater reliability",
		Note:    "All dimensions; each item × dimension a unit.",
		Columns: []string{"", "Process α (interval)", "Result α (nominal)", "Result Fleiss κ", "Result Gwet AC1"},
	}
	for i, set := range rep.reliabilitySets() {
		rel.Rows = append(rel.Rows, []string{reliabilityNames[i], fmtNum(set.Process.All.KrippendorffAlpha),
			fmtNum(set.Result.All.KrippendorffAlpha), optValue(set.Result.All.FleissKappa), optValue(set.Result.All.GwetAC1)})
	}
	ts = append(ts, rel)

	bias := Table{
		Title:   "Bias",
		Note:    "Mean of judge − humans, signed: above 0 the judge is more lenient.",
		Columns: []string{"", "Process", "Result"},
	}
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		bias.Rows = append(bias.Rows, []string{condRowName(cond), fmtSigned(b.Process.Overall), fmtSigned(b.Result.Overall)})
	}
	ts = append(ts, bias)

	dims := Table{
		Title:   "By dimension",
		Columns: []string{"", "Track", "Condition", "MAE", "Acc", "Judge var", "Human var", "Bias", "Cells"},
	}
	for _, b := range rep.Breakdowns {
		if b.By != "dimension" {
			continue
		}
		dims.Rows = append(dims.Rows, []string{b.Group, string(b.Track), string(b.Condition), fmtNum(b.MAE), fmtPct(b.Accuracy),
			fmtNum(b.JudgeVariance), fmtNum(b.HumanVariance), fmtSigned(b.Bias), strconv.Itoa(b.Cells)})
	}
	ts = append(ts, dims)
	return ts
}

var reliabilityNames = [...]string{"Humans", "Judge runs without GT", "Judge runs with GT"}

func (rep *Report) reliabilitySets() [3]*ReliabilitySet {
	return [3]*ReliabilitySet{&rep.Reliability.Humans, &rep.Reliability.JudgeWithoutGT, &rep.Reliability.JudgeWithGT}
}

// CSVColumns are the columns of WriteCSV, in order.
var CSVColumns = [...]string{"section", "by", "group", "track", "condition", "statistic", "value", "ci_low", "ci_high", "items", "cells"}

// WriteCSV writes every figure of the report as one long ("tidy") table, one
// figure a row: section, what it is grouped by and the group, track,
// condition, the statistic, its value at full precision ("undefined" where
// undefined), its bootstrap interval where there is one, and the items and
// (item, dimension) cells it rests on.
func (rep *Report) WriteCSV(w io.Writer) error {
	out := Table{Columns: CSVColumns[:]}
	num := func(v Value) string {
		if x, ok := v.Get(); ok {
			return strconv.FormatFloat(x, 'g', -1, 64)
		}
		return "undefined"
	}
	count := func(n int) string { return strconv.Itoa(n) }
	row := func(section, by, group string, t Track, cond Condition, stat string, v Value, ci Interval, items, cells string) {
		lo, hi := "", ""
		if ci.OK() {
			lo, hi = num(ci.Lo), num(ci.Hi)
		}
		out.Rows = append(out.Rows, []string{section, by, group, string(t), string(cond), stat, num(v), lo, hi, items, cells})
	}
	rowKeys := [3]struct {
		group string
		cond  Condition
	}{{"human_experts", ""}, {"judge_without_gt", WithoutGT}, {"judge_with_gt", WithGT}}
	ciRows := rep.ciRows()
	for i, r := range rep.rows() {
		for _, t := range Tracks {
			c, ci := r.Track(t), byTrack(t, &ciRows[i].Process, &ciRows[i].Result)
			items, cells := count(c.Items), count(c.Cells)
			row("table2", "row", rowKeys[i].group, t, rowKeys[i].cond, "mae", c.MAE, ci.MAE, items, cells)
			row("table2", "row", rowKeys[i].group, t, rowKeys[i].cond, "accuracy", c.Accuracy, ci.Accuracy, items, cells)
			row("table2", "row", rowKeys[i].group, t, rowKeys[i].cond, "variance", c.Variance, ci.Variance, items, cells)
		}
	}
	for _, t := range Tracks {
		d := byTrack(t, &rep.CI.WithMinusWithoutGT.Process, &rep.CI.WithMinusWithoutGT.Result)
		row("with_minus_without_gt", "", "", t, "", "mae", d.MAE.Estimate, d.MAE.CI, "", "")
		row("with_minus_without_gt", "", "", t, "", "accuracy", d.Accuracy.Estimate, d.Accuracy.CI, "", "")
		row("with_minus_without_gt", "", "", t, "", "variance", d.Variance.Estimate, d.Variance.CI, "", "")
	}
	ceiling := func(group string, t Track, c CeilingCell) {
		row("human_ceiling", "annotator", group, t, "", "mae", c.MAE, Interval{}, "", count(c.Cells))
		row("human_ceiling", "annotator", group, t, "", "accuracy", c.Accuracy, Interval{}, "", count(c.Cells))
	}
	for _, t := range Tracks {
		ceiling("all", t, *byTrack(t, &rep.HumanCeiling.Process, &rep.HumanCeiling.Result))
	}
	for _, a := range rep.HumanCeiling.PerAnnotator {
		for _, t := range Tracks {
			ceiling(a.Annotator, t, *byTrack(t, &a.Process, &a.Result))
		}
	}
	coders := [3]string{"humans", "judge_without_gt", "judge_with_gt"}
	for i, set := range rep.reliabilitySets() {
		for _, t := range Tracks {
			tr := byTrack(t, &set.Process, &set.Result)
			coeffs := func(dim string, c Coefficients) {
				units := count(c.Units)
				row("reliability", coders[i], dim, t, "", "krippendorff_alpha_"+tr.Metric, c.KrippendorffAlpha, Interval{}, "", units)
				if c.FleissKappa != nil {
					row("reliability", coders[i], dim, t, "", "fleiss_kappa", *c.FleissKappa, Interval{}, "", units)
				}
				if c.GwetAC1 != nil {
					row("reliability", coders[i], dim, t, "", "gwet_ac1", *c.GwetAC1, Interval{}, "", units)
				}
			}
			coeffs("all", tr.All)
			for _, dc := range tr.ByDimension {
				coeffs(dc.Dimension, dc.Coefficients)
			}
		}
	}
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		for _, t := range Tracks {
			tb := byTrack(t, &b.Process, &b.Result)
			row("bias", "", "overall", t, cond, "bias", tb.Overall, Interval{}, "", "")
			for _, g := range tb.ByDimension {
				row("bias", "dimension", g.Group, t, cond, "bias", g.Value, Interval{}, "", count(g.Cells))
			}
			for _, g := range tb.ByModel {
				row("bias", "model", g.Group, t, cond, "bias", g.Value, Interval{}, "", count(g.Cells))
			}
		}
	}
	for _, cond := range Conditions {
		cs := byCond(cond, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
		for _, t := range Tracks {
			cf := byTrack(t, &cs.Process, &cs.Result)
			for h, r := range cf.Matrix {
				for j, n := range r {
					out.Rows = append(out.Rows, []string{"confusion", "humans/judge", cf.Labels[h] + "/" + cf.Labels[j], string(t), string(cond),
						"count", count(n), "", "", "", count(n)})
				}
			}
		}
	}
	for _, b := range rep.Breakdowns {
		items, cells := count(b.Items), count(b.Cells)
		for _, s := range []struct {
			name string
			v    Value
		}{{"mae", b.MAE}, {"accuracy", b.Accuracy}, {"judge_variance", b.JudgeVariance},
			{"human_variance", b.HumanVariance}, {"bias", b.Bias}} {
			row("breakdown", b.By, b.Group, b.Track, b.Condition, s.name, s.v, Interval{}, items, cells)
		}
	}
	return out.writeCSV(w)
}
