package vigor

import (
	"fmt"
	"io"
	"strconv"

	"github.com/jigbench/jigbench/core/safecsv"
)

// This file holds what the desktop app needs beyond the CLI: the report as
// tables of display strings (formatted exactly as WriteText and
// WriteMarkdown format them), a CSV export, and the data behind the
// agreement pictures. Every number comes from the same code as Analyze.

// TextTable is a table of statistics formatted for people.
type TextTable struct {
	Title  string
	Note   string // what the figures mean, if the title does not say
	Header []string
	Rows   [][]string
}

// TextTables returns the report as display tables, in reading order:
// Table 2, the items used, the bootstrap intervals, the human ceiling,
// reliability, bias and the per-dimension breakdown. The strings are those
// WriteText prints.
func (rep *Report) TextTables() []TextTable {
	var ts []TextTable
	t2 := TextTable{
		Title:  "Table 2",
		Note:   "Scores on a 0–1 scale; Var = mean per-item " + rep.varianceNote() + ". " + HumanExpertsNote,
		Header: []string{"", "Process MAE", "Process Acc", "Process Var", "Result MAE", "Result Acc", "Result Var"},
	}
	for i, row := range rep.rows() {
		t2.Rows = append(t2.Rows, []string{rowNames[i],
			fmtNum(row.Process.MAE), fmtPct(row.Process.Accuracy), fmtNum(row.Process.Variance),
			fmtNum(row.Result.MAE), fmtPct(row.Result.Accuracy), fmtNum(row.Result.Variance)})
	}
	ts = append(ts, t2)

	used := TextTable{
		Title:  "Items used",
		Note:   "Excluded: fewer than 2 human ratings / no judge score.",
		Header: []string{"", "Process", "Result"},
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

	ci := TextTable{
		Title:  fmt.Sprintf("%.0f%% bootstrap intervals", 100*rep.CI.Level),
		Header: []string{"", "Process MAE", "Process Acc", "Process Var", "Result MAE", "Result Acc", "Result Var"},
	}
	if rep.CI.Replicates > 0 {
		ci.Note = fmt.Sprintf("%d replicates, seed %d; %s.", rep.CI.Replicates, rep.CI.Seed, rep.CI.Method)
		for i, row := range rep.ciRows() {
			ci.Rows = append(ci.Rows, []string{rowNames[i],
				row.Process.MAE.Format(3), pctInterval(row.Process.Accuracy), row.Process.Variance.Format(3),
				row.Result.MAE.Format(3), pctInterval(row.Result.Accuracy), row.Result.Variance.Format(3)})
		}
		d := &rep.CI.WithMinusWithoutGT
		ci.Rows = append(ci.Rows, []string{"With − without GT",
			fmtSigned(d.Process.MAE.Estimate) + " " + d.Process.MAE.CI.Format(3),
			fmtSignedPct(d.Process.Accuracy.Estimate) + " " + pctInterval(d.Process.Accuracy.CI),
			fmtSigned(d.Process.Variance.Estimate) + " " + d.Process.Variance.CI.Format(3),
			fmtSigned(d.Result.MAE.Estimate) + " " + d.Result.MAE.CI.Format(3),
			fmtSignedPct(d.Result.Accuracy.Estimate) + " " + pctInterval(d.Result.Accuracy.CI),
			fmtSigned(d.Result.Variance.Estimate) + " " + d.Result.Variance.CI.Format(3)})
	} else {
		ci.Note = "No bootstrap intervals (0 replicates)."
	}
	ts = append(ts, ci)

	hc := &rep.HumanCeiling
	ceil := TextTable{
		Title:  "Human ceiling",
		Note:   "Leave-one-out: each annotator against the mean of the others.",
		Header: []string{"", "Process MAE", "Process Acc", "Result MAE", "Result Acc"},
		Rows: [][]string{{"All annotators", fmtNum(hc.Process.MAE), fmtPct(hc.Process.Accuracy),
			fmtNum(hc.Result.MAE), fmtPct(hc.Result.Accuracy)}},
	}
	for _, a := range hc.PerAnnotator {
		ceil.Rows = append(ceil.Rows, []string{a.Annotator, fmtNum(a.Process.MAE), fmtPct(a.Process.Accuracy),
			fmtNum(a.Result.MAE), fmtPct(a.Result.Accuracy)})
	}
	ts = append(ts, ceil)

	rel := TextTable{
		Title:  "Inter-rater reliability",
		Note:   "All dimensions; each item × dimension a unit.",
		Header: []string{"", "Process α (interval)", "Result α (nominal)", "Result Fleiss κ", "Result Gwet AC1"},
	}
	for i, set := range rep.reliabilitySets() {
		rel.Rows = append(rel.Rows, []string{reliabilityNames[i], fmtNum(set.Process.All.KrippendorffAlpha),
			fmtNum(set.Result.All.KrippendorffAlpha), optValue(set.Result.All.FleissKappa), optValue(set.Result.All.GwetAC1)})
	}
	ts = append(ts, rel)

	bias := TextTable{
		Title:  "Bias",
		Note:   "Mean of judge − humans, signed: above 0 the judge is more lenient.",
		Header: []string{"", "Process", "Result"},
	}
	for _, cond := range Conditions {
		b := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
		bias.Rows = append(bias.Rows, []string{condRowName(cond), fmtSigned(b.Process.Overall), fmtSigned(b.Result.Overall)})
	}
	ts = append(ts, bias)

	dims := TextTable{
		Title:  "By dimension",
		Header: []string{"", "Track", "Condition", "MAE", "Acc", "Judge var", "Human var", "Bias", "Cells"},
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
	cw := safecsv.NewWriter(w)
	cw.Write(CSVColumns[:])
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
		cw.Write([]string{section, by, group, string(t), string(cond), stat, num(v), lo, hi, items, cells})
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
					cw.Write([]string{"confusion", "humans/judge", cf.Labels[h] + "/" + cf.Labels[j], string(t), string(cond),
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
	cw.Flush()
	return cw.Error()
}

// PlotData is what the agreement pictures show, computed with Analyze's
// own definitions (the same cells, means, classes and accuracy).
type PlotData struct {
	Split string
	// Conditions are the judge conditions in Table 2 order
	// (OrderConditions); the paper's two when no judge run is given.
	Conditions []Condition
	// Accuracy is one grid per condition and track that has items: the
	// judge's accuracy by subdomain (rows) and dimension (columns).
	Accuracy []AccuracyGrid
	// Confusion is one matrix per condition and track that has items.
	Confusion []ConditionConfusion
	// Points are the (item, dimension) cells Table 2 compares: the
	// humans' mean against the judge's mean, both on the 0–1 scale.
	Points []ScatterPoint
}

// AccuracyGrid is the judge's accuracy for one condition and track.
type AccuracyGrid struct {
	Condition Condition
	Track     Track
	Rows      []string // subdomains, sorted; "(none)" for items without one
	Dims      []string // the dimensions' short names on the track
	Accuracy  [][]Value
	Cells     [][]int // the (item, dimension) cells behind each figure
}

// ConditionConfusion is the confusion matrix of one condition and track.
type ConditionConfusion struct {
	Condition Condition
	Track     Track
	Confusion
}

// ScatterPoint is one (item, dimension) cell under one condition.
type ScatterPoint struct {
	Condition Condition
	Track     Track
	Dim       Dim
	Item      string
	Human     float64 // h̄, 0–1
	Judge     float64 // j̄, 0–1
}

// Plots computes the picture data for in, for every judge condition;
// sampleVariance is Options' SampleVariance (it does not change these
// figures but is passed through so the same preparation runs).
func Plots(in Input, sampleVariance bool) (*PlotData, error) {
	// The whole input is checked once, as Analyze checks it; each
	// condition is then measured in the with-GT slot on its own.
	all, err := prepare(in, sampleVariance)
	if err != nil {
		return nil, err
	}
	pd := &PlotData{Split: all.sp.Name, Conditions: OrderConditions(in.Judge)}
	if len(pd.Conditions) == 0 {
		pd.Conditions = Conditions[:]
	}
	c := condIndex(WithGT)
	for _, cond := range pd.Conditions {
		one := in
		one.Judge = in.slotted("", cond)
		a, err := prepare(one, sampleVariance)
		if err != nil {
			return nil, err
		}
		for _, t := range Tracks {
			if a.sp.Count(t) == 0 {
				continue
			}
			g := AccuracyGrid{Condition: cond, Track: t}
			for _, d := range Dims {
				g.Dims = append(g.Dims, d.Short(t))
			}
			for _, sub := range a.groupValues(t, func(it *Item) string { return it.Subdomain }) {
				accs, cells := make([]Value, NumDims), make([]int, NumDims)
				for _, dim := range Dims {
					s, _, _ := a.collect(func(d *itemData) bool { return d.it.Track == t && d.it.Subdomain == sub }, []Dim{dim}, c)
					accs[dim], cells[dim] = s.accuracy(), s.cells
				}
				g.Rows = append(g.Rows, groupName(sub))
				g.Accuracy = append(g.Accuracy, accs)
				g.Cells = append(g.Cells, cells)
			}
			pd.Accuracy = append(pd.Accuracy, g)
			pd.Confusion = append(pd.Confusion, ConditionConfusion{Condition: cond, Track: t, Confusion: a.confusion(t, c)})
		}
		for i := range a.items {
			d := &a.items[i]
			for _, dim := range Dims {
				if !d.ev[dim].j[c].ok {
					continue
				}
				pd.Points = append(pd.Points, ScatterPoint{Condition: cond, Track: d.it.Track, Dim: dim, Item: d.it.ID,
					Human: d.human[dim].mean(d.scale), Judge: d.judge[c][dim].mean(d.scale)})
			}
		}
	}
	return pd, nil
}

// ConfusionOf returns the confusion matrix of cond and t, if the split has
// items on t.
func (pd *PlotData) ConfusionOf(cond Condition, t Track) (Confusion, bool) {
	for _, cf := range pd.Confusion {
		if cf.Condition == cond && cf.Track == t {
			return cf.Confusion, true
		}
	}
	return Confusion{}, false
}

// Grid returns the accuracy grid of cond and t, if the split has items on t.
func (pd *PlotData) Grid(cond Condition, t Track) (AccuracyGrid, bool) {
	for _, g := range pd.Accuracy {
		if g.Condition == cond && g.Track == t {
			return g, true
		}
	}
	return AccuracyGrid{}, false
}
