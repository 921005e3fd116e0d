package vigor

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
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

// WriteText writes the report for a terminal: the Table 2 layout as an
// aligned table, then the statistics beyond the paper. Breakdowns other
// than by dimension are in the JSON and Markdown reports.
func (rep *Report) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	p := func(format string, a ...any) { fmt.Fprintf(tw, format, a...) }

	p("ViGoR agreement — split %s: %d process items, %d result items; %d annotators; judge runs without GT: %s, with GT: %s\n",
		rep.Split, rep.Items.Process, rep.Items.Result, len(rep.Annotators), RunList(rep.Runs.WithoutGT), RunList(rep.Runs.WithGT))
	p("Scores on a 0–1 scale; Var = mean per-item %s.\n\n", rep.varianceNote())

	p("\tProcess\t\t\tResult\n")
	p("\tMAE\tAcc\tVar\tMAE\tAcc\tVar\n")
	for i, row := range rep.rows() {
		p("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", rowNames[i],
			fmtNum(row.Process.MAE), fmtPct(row.Process.Accuracy), fmtNum(row.Process.Variance),
			fmtNum(row.Result.MAE), fmtPct(row.Result.Accuracy), fmtNum(row.Result.Variance))
	}
	p("\nItems used (excluded: fewer than 2 human ratings / no judge score)\n")
	p("\tProcess\tResult\n")
	for i, row := range rep.rows() {
		cell := func(c *Cell) string {
			s := fmt.Sprintf("%d items, %d cells (excluded %d", c.Items, c.Cells, c.Excluded.FewHumans)
			if i > 0 {
				s += fmt.Sprintf(" / %d", c.Excluded.NoJudge)
			}
			return s + ")"
		}
		p("%s\t%s\t%s\n", rowNames[i], cell(&row.Process), cell(&row.Result))
	}

	if rep.CI.Replicates > 0 {
		p("\n%.0f%% bootstrap intervals (%d replicates, seed %d; %s)\n", 100*rep.CI.Level, rep.CI.Replicates, rep.CI.Seed, rep.CI.Method)
		p("\tProcess MAE\tProcess Acc\tProcess Var\tResult MAE\tResult Acc\tResult Var\n")
		for i, row := range rep.ciRows() {
			p("%s\t%s\t%s\t%s\t%s\t%s\t%s\n", rowNames[i],
				row.Process.MAE.Format(3), pctInterval(row.Process.Accuracy), row.Process.Variance.Format(3),
				row.Result.MAE.Format(3), pctInterval(row.Result.Accuracy), row.Result.Variance.Format(3))
		}
		d := &rep.CI.WithMinusWithoutGT
		p("With − without GT\t%s %s\t%s %s\t%s %s\t%s %s\t%s %s\t%s %s\n",
			fmtSigned(d.Process.MAE.Estimate), d.Process.MAE.CI.Format(3),
			fmtSignedPct(d.Process.Accuracy.Estimate), pctInterval(d.Process.Accuracy.CI),
			fmtSigned(d.Process.Variance.Estimate), d.Process.Variance.CI.Format(3),
			fmtSigned(d.Result.MAE.Estimate), d.Result.MAE.CI.Format(3),
			fmtSignedPct(d.Result.Accuracy.Estimate), pctInterval(d.Result.Accuracy.CI),
			fmtSigned(d.Result.Variance.Estimate), d.Result.Variance.CI.Format(3))
	} else {
		p("\nNo bootstrap intervals (0 replicates).\n")
	}

	p("\nHuman ceiling (leave-one-out: each annotator against the mean of the others)\n")
	p("\tProcess MAE\tProcess Acc\tResult MAE\tResult Acc\n")
	hc := &rep.HumanCeiling
	p("All annotators\t%s\t%s\t%s\t%s\n", fmtNum(hc.Process.MAE), fmtPct(hc.Process.Accuracy), fmtNum(hc.Result.MAE), fmtPct(hc.Result.Accuracy))
	for _, a := range hc.PerAnnotator {
		p("%s\t%s\t%s\t%s\t%s\n", a.Annotator, fmtNum(a.Process.MAE), fmtPct(a.Process.Accuracy), fmtNum(a.Result.MAE), fmtPct(a.Result.Accuracy))
	}

	p("\nInter-rater reliability (all dimensions; each item × dimension a unit)\n")
	p("\tProcess α (interval)\tResult α (nominal)\tResult Fleiss κ\tResult Gwet AC1\n")
	for i, set := range []*ReliabilitySet{&rep.Reliability.Humans, &rep.Reliability.JudgeWithoutGT, &rep.Reliability.JudgeWithGT} {
		name := []string{"Humans", "Judge runs without GT", "Judge runs with GT"}[i]
		p("%s\t%s\t%s\t%s\t%s\n", name, fmtNum(set.Process.All.KrippendorffAlpha), fmtNum(set.Result.All.KrippendorffAlpha),
			optValue(set.Result.All.FleissKappa), optValue(set.Result.All.GwetAC1))
	}

	p("\nBias (mean of judge − humans, signed)\n")
	p("\tProcess\tResult\n")
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		p("%s\t%s\t%s\n", condRowName(cond), fmtSigned(b.Process.Overall), fmtSigned(b.Result.Overall))
	}

	p("\nBy dimension\n")
	p("\tTrack\tCondition\tMAE\tAcc\tJudge var\tHuman var\tBias\tCells\n")
	for _, b := range rep.Breakdowns {
		if b.By != "dimension" {
			continue
		}
		p("%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%d\n", b.Group, b.Track, b.Condition, fmtNum(b.MAE), fmtPct(b.Accuracy),
			fmtNum(b.JudgeVariance), fmtNum(b.HumanVariance), fmtSigned(b.Bias), b.Cells)
	}

	p("\nConfusion (rows: humans, columns: judge; all dimensions)\n")
	for _, cond := range Conditions {
		cs := byCond(cond, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
		for _, t := range Tracks {
			cf := byTrack(t, &cs.Process, &cs.Result)
			p("%s, %s\t%s\n", condRowName(cond), t, strings.Join(cf.Labels, "\t"))
			for i, row := range cf.Matrix {
				cells := make([]string, len(row))
				for j, n := range row {
					cells[j] = strconv.Itoa(n)
				}
				p("  %s\t%s\n", cf.Labels[i], strings.Join(cells, "\t"))
			}
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
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

// WriteMarkdown writes the full report as Markdown tables, breakdowns
// included.
func (rep *Report) WriteMarkdown(w io.Writer) error {
	bw := bufio.NewWriter(w)
	p := func(format string, a ...any) { fmt.Fprintf(bw, format, a...) }
	row := func(cells ...string) {
		for i, c := range cells {
			cells[i] = mdEscape(c)
		}
		p("| %s |\n", strings.Join(cells, " | "))
	}
	sep := func(n int) { p("|%s\n", strings.Repeat("---|", n)) }

	p("# ViGoR agreement: %s\n\n", rep.Split)
	p("%d process items, %d result items; annotators: %s; judge runs without GT: %s, with GT: %s. "+
		"Scores on a 0–1 scale; variance is the mean per-item %s.\n\n",
		rep.Items.Process, rep.Items.Result, strings.Join(rep.Annotators, ", "),
		RunList(rep.Runs.WithoutGT), RunList(rep.Runs.WithGT), rep.varianceNote())

	p("## Table 2\n\n")
	row("", "Process MAE", "Process Acc", "Process Var", "Result MAE", "Result Acc", "Result Var")
	sep(7)
	for i, r := range rep.rows() {
		row(rowNames[i], fmtNum(r.Process.MAE), fmtPct(r.Process.Accuracy), fmtNum(r.Process.Variance),
			fmtNum(r.Result.MAE), fmtPct(r.Result.Accuracy), fmtNum(r.Result.Variance))
	}
	p("\n")
	row("Items used", "Process items", "Process cells", "Process excluded (<2 humans / no judge)",
		"Result items", "Result cells", "Result excluded (<2 humans / no judge)")
	sep(7)
	for i, r := range rep.rows() {
		ex := func(c *Cell) string {
			if i == 0 {
				return strconv.Itoa(c.Excluded.FewHumans)
			}
			return fmt.Sprintf("%d / %d", c.Excluded.FewHumans, c.Excluded.NoJudge)
		}
		row(rowNames[i], strconv.Itoa(r.Process.Items), strconv.Itoa(r.Process.Cells), ex(&r.Process),
			strconv.Itoa(r.Result.Items), strconv.Itoa(r.Result.Cells), ex(&r.Result))
	}

	p("\n## %.0f%% bootstrap intervals\n\n%d replicates, seed %d; %s.\n\n", 100*rep.CI.Level, rep.CI.Replicates, rep.CI.Seed, rep.CI.Method)
	row("", "Process MAE", "Process Acc", "Process Var", "Result MAE", "Result Acc", "Result Var")
	sep(7)
	for i, r := range rep.ciRows() {
		row(rowNames[i], r.Process.MAE.Format(3), pctInterval(r.Process.Accuracy), r.Process.Variance.Format(3),
			r.Result.MAE.Format(3), pctInterval(r.Result.Accuracy), r.Result.Variance.Format(3))
	}
	d := &rep.CI.WithMinusWithoutGT
	row("With − without GT",
		fmtSigned(d.Process.MAE.Estimate)+" "+d.Process.MAE.CI.Format(3),
		fmtSignedPct(d.Process.Accuracy.Estimate)+" "+pctInterval(d.Process.Accuracy.CI),
		fmtSigned(d.Process.Variance.Estimate)+" "+d.Process.Variance.CI.Format(3),
		fmtSigned(d.Result.MAE.Estimate)+" "+d.Result.MAE.CI.Format(3),
		fmtSignedPct(d.Result.Accuracy.Estimate)+" "+pctInterval(d.Result.Accuracy.CI),
		fmtSigned(d.Result.Variance.Estimate)+" "+d.Result.Variance.CI.Format(3))

	p("\n## Human ceiling\n\nLeave-one-out: each annotator against the mean of the others.\n\n")
	row("", "Process MAE", "Process Acc", "Result MAE", "Result Acc")
	sep(5)
	hc := &rep.HumanCeiling
	row("All annotators", fmtNum(hc.Process.MAE), fmtPct(hc.Process.Accuracy), fmtNum(hc.Result.MAE), fmtPct(hc.Result.Accuracy))
	for _, a := range hc.PerAnnotator {
		row(a.Annotator, fmtNum(a.Process.MAE), fmtPct(a.Process.Accuracy), fmtNum(a.Result.MAE), fmtPct(a.Result.Accuracy))
	}

	p("\n## Inter-rater reliability\n\n")
	row("Coders", "Track", "Dimension", "Krippendorff α", "Fleiss κ", "Gwet AC1", "Units")
	sep(7)
	for i, set := range []*ReliabilitySet{&rep.Reliability.Humans, &rep.Reliability.JudgeWithoutGT, &rep.Reliability.JudgeWithGT} {
		name := []string{"Humans", "Judge runs without GT", "Judge runs with GT"}[i]
		for _, t := range Tracks {
			tr := byTrack(t, &set.Process, &set.Result)
			c := tr.All
			row(name, string(t), "all ("+tr.Metric+")", fmtNum(c.KrippendorffAlpha), optValue(c.FleissKappa), optValue(c.GwetAC1), strconv.Itoa(c.Units))
			for _, dc := range tr.ByDimension {
				row(name, string(t), dc.Dimension, fmtNum(dc.KrippendorffAlpha), optValue(dc.FleissKappa), optValue(dc.GwetAC1), strconv.Itoa(dc.Units))
			}
		}
	}

	p("\n## Bias (judge − humans)\n\n")
	row("Condition", "Track", "Group", "Bias", "Cells")
	sep(5)
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		for _, t := range Tracks {
			tb := byTrack(t, &b.Process, &b.Result)
			row(string(cond), string(t), "overall", fmtSigned(tb.Overall), "")
			for _, g := range tb.ByDimension {
				row(string(cond), string(t), g.Group, fmtSigned(g.Value), strconv.Itoa(g.Cells))
			}
			for _, g := range tb.ByModel {
				row(string(cond), string(t), "model "+g.Group, fmtSigned(g.Value), strconv.Itoa(g.Cells))
			}
		}
	}

	p("\n## Confusion matrices\n\nRows: the humans' class; columns: the judge's.\n")
	for _, cond := range Conditions {
		cs := byCond(cond, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
		for _, t := range Tracks {
			cf := byTrack(t, &cs.Process, &cs.Result)
			p("\n%s, %s:\n\n", condRowName(cond), t)
			row(append([]string{"humans / judge"}, cf.Labels...)...)
			sep(len(cf.Labels) + 1)
			for i, r := range cf.Matrix {
				cells := []string{cf.Labels[i]}
				for _, n := range r {
					cells = append(cells, strconv.Itoa(n))
				}
				row(cells...)
			}
		}
	}

	p("\n## Breakdowns\n\n")
	row("By", "Group", "Track", "Condition", "MAE", "Acc", "Judge var", "Human var", "Bias", "Items", "Cells")
	sep(11)
	for _, b := range rep.Breakdowns {
		row(b.By, b.Group, string(b.Track), string(b.Condition), fmtNum(b.MAE), fmtPct(b.Accuracy),
			fmtNum(b.JudgeVariance), fmtNum(b.HumanVariance), fmtSigned(b.Bias), strconv.Itoa(b.Items), strconv.Itoa(b.Cells))
	}
	return bw.Flush()
}

func mdEscape(s string) string { return strings.ReplaceAll(s, "|", `\|`) }
