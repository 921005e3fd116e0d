package vigor

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"
)

// ConditionsFormat tags the JSON per-condition report (docs/vigor-campaign.md).
const ConditionsFormat = "jigbench.vigor-conditions/v1"

// maxConditionLen bounds a condition name; it is a label, not a text.
const maxConditionLen = 64

// ValidConditionName reports whether s is a condition name: 1–64 lower-case
// ASCII letters, digits and underscores (docs/vigor-campaign.md, "Conditions").
func ValidConditionName(s string) bool {
	if s == "" || len(s) > maxConditionLen {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// OrderConditions lists the conditions of records in the order first seen,
// with_gt moved last when present (the paper's Table 2 order).
func OrderConditions(records []JudgeRecord) []Condition {
	var out []Condition
	for _, r := range records {
		if !slices.Contains(out, r.Condition) {
			out = append(out, r.Condition)
		}
	}
	if i := slices.Index(out, WithGT); i >= 0 {
		out = append(slices.Delete(out, i, i+1), WithGT)
	}
	return out
}

// ConditionsReport is Table 2 with one judge row per condition and the
// paired differences between chosen pairs of conditions.
type ConditionsReport struct {
	Format     string          `json:"format"`
	Split      string          `json:"split"`
	Variance   string          `json:"variance"`
	Conditions []Condition     `json:"conditions"`
	Runs       []ConditionRuns `json:"runs"`
	CI         ConditionsCI    `json:"ci"`
	Rows       []ConditionRow  `json:"rows"`
	Diffs      []ConditionDiff `json:"differences"`
}

// ConditionRuns lists one condition's judge run numbers.
type ConditionRuns struct {
	Condition Condition `json:"condition"`
	Runs      []int     `json:"runs"`
}

// ConditionsCI says how the intervals were made.
type ConditionsCI struct {
	Level      float64 `json:"level"`
	Replicates int     `json:"replicates"`
	Seed       uint64  `json:"seed"`
	Method     string  `json:"method"`
}

// ConditionRow is one Table 2 row: the human experts (Condition "") or one
// judge condition, with the bootstrap intervals of each cell.
type ConditionRow struct {
	Condition Condition `json:"condition"`
	Process   Cell      `json:"process"`
	Result    Cell      `json:"result"`
	ProcessCI CICell    `json:"process_ci"`
	ResultCI  CICell    `json:"result_ci"`
}

// ConditionDiff is the paired difference A − B of every Table 2 figure,
// both sides computed on the same resampled items.
type ConditionDiff struct {
	A       Condition `json:"a"`
	B       Condition `json:"b"`
	Process DiffCell  `json:"process"`
	Result  DiffCell  `json:"result"`
}

// Name is the row's label in tables.
func (r *ConditionRow) Name() string {
	if r.Condition == "" {
		return "Human experts"
	}
	return "Judge " + string(r.Condition)
}

// AnalyzeConditions computes Table 2 for every judge condition in the input
// and the paired differences A − B of pairs (nil: every condition minus
// the first one in order). It reuses Analyze's two-condition machinery:
// each comparison relabels its two conditions into Analyze's slots, so the
// figures and intervals are exactly Analyze's, with the same seed and the
// same resampled items in every comparison.
func AnalyzeConditions(ctx context.Context, in Input, opt Options, pairs [][2]Condition) (*ConditionsReport, error) {
	conds := OrderConditions(in.Judge)
	if len(conds) == 0 {
		return nil, fmt.Errorf("agreement: no judge records")
	}
	for _, p := range pairs {
		for _, c := range p {
			if !slices.Contains(conds, c) {
				return nil, fmt.Errorf("agreement: condition %q has no judge records (conditions: %s)", c, joinConditions(conds))
			}
		}
		if p[0] == p[1] {
			return nil, fmt.Errorf("agreement: a difference needs two different conditions, got %s twice", p[0])
		}
	}
	if pairs == nil {
		for _, c := range conds[1:] {
			pairs = append(pairs, [2]Condition{c, conds[0]})
		}
	}
	// compare runs Analyze with b in the without-GT slot and a in the
	// with-GT slot ("" leaves a slot empty).
	compare := func(a, b Condition) (*Report, error) {
		sub := in
		sub.Judge = in.slotted(b, a)
		return Analyze(ctx, sub, opt)
	}

	out := &ConditionsReport{Format: ConditionsFormat, Split: in.Split.Name, Conditions: conds,
		Runs: []ConditionRuns{}, Rows: []ConditionRow{}, Diffs: []ConditionDiff{}}
	for i := 0; i < len(conds); i += 2 {
		b, a := conds[i], Condition("")
		if i+1 < len(conds) {
			a = conds[i+1]
		}
		rep, err := compare(a, b)
		if err != nil {
			return nil, err
		}
		if i == 0 {
			out.Variance = rep.Variance
			out.CI = ConditionsCI{Level: rep.CI.Level, Replicates: rep.CI.Replicates, Seed: rep.CI.Seed, Method: rep.CI.Method}
			out.Rows = append(out.Rows, conditionRow("", &rep.Table2.HumanExperts, &rep.CI.Table2.HumanExperts))
		}
		out.Rows = append(out.Rows, conditionRow(b, &rep.Table2.JudgeWithoutGT, &rep.CI.Table2.JudgeWithoutGT))
		out.Runs = append(out.Runs, ConditionRuns{b, rep.Runs.WithoutGT})
		if a != "" {
			out.Rows = append(out.Rows, conditionRow(a, &rep.Table2.JudgeWithGT, &rep.CI.Table2.JudgeWithGT))
			out.Runs = append(out.Runs, ConditionRuns{a, rep.Runs.WithGT})
		}
	}
	for _, p := range pairs {
		rep, err := compare(p[0], p[1])
		if err != nil {
			return nil, err
		}
		d := &rep.CI.WithMinusWithoutGT
		out.Diffs = append(out.Diffs, ConditionDiff{A: p[0], B: p[1], Process: d.Process, Result: d.Result})
	}
	return out, nil
}

// slotted returns in's judge records of without and with relabelled into
// Analyze's two slots, without_gt and with_gt, and no others ("" leaves a
// slot empty): the two-condition machinery then measures any two.
func (in Input) slotted(without, with Condition) []JudgeRecord {
	out := make([]JudgeRecord, 0, len(in.Judge))
	for _, r := range in.Judge {
		switch {
		case r.Condition == without && without != "":
			r.Condition = WithoutGT
		case r.Condition == with && with != "":
			r.Condition = WithGT
		default:
			continue
		}
		out = append(out, r)
	}
	return out
}

func conditionRow(c Condition, r *Row, ci *CIRow) ConditionRow {
	return ConditionRow{Condition: c, Process: r.Process, Result: r.Result, ProcessCI: ci.Process, ResultCI: ci.Result}
}

func joinConditions(cs []Condition) string {
	s := make([]string, len(cs))
	for i, c := range cs {
		s[i] = string(c)
	}
	return strings.Join(s, ", ")
}

// ParseConditionPair reads "a-b" or "a,b" as the difference a − b.
func ParseConditionPair(s string) ([2]Condition, error) {
	for _, sep := range []string{",", " - ", "−", "-"} {
		if a, b, ok := strings.Cut(s, sep); ok {
			ca, okA := ParseCondition(a)
			cb, okB := ParseCondition(b)
			if okA && okB {
				return [2]Condition{ca, cb}, nil
			}
		}
	}
	return [2]Condition{}, fmt.Errorf("difference %q: want two condition names as A,B (for A − B)", s)
}

// WriteJSON writes the report as indented JSON.
func (cr *ConditionsReport) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(cr)
}

// Tables returns the report's tables as the app shows them and WriteText
// prints them: Table 2 with a row per condition and the paired differences
// below, then, with bootstrap replicates, the rows' intervals.
func (cr *ConditionsReport) Tables() []Table {
	t2 := Table{Title: "Table 2 by judge condition",
		Note:    "Judge runs " + cr.runsLine() + ". Paired differences A − B below the rows, estimate and interval.",
		Columns: table2Columns}
	ci := Table{Title: fmt.Sprintf("%.0f%% bootstrap intervals", 100*cr.CI.Level),
		Note:    fmt.Sprintf("%d replicates, seed %d; %s.", cr.CI.Replicates, cr.CI.Seed, cr.CI.Method),
		Columns: table2Columns}
	for i := range cr.Rows {
		r := &cr.Rows[i]
		t2.Rows = append(t2.Rows, table2Cells(r.Name(), &r.Process, &r.Result))
		ci.Rows = append(ci.Rows, ciCells(r.Name(), &r.ProcessCI, &r.ResultCI))
	}
	for i := range cr.Diffs {
		d := &cr.Diffs[i]
		t2.Rows = append(t2.Rows, diffCells(string(d.A)+" − "+string(d.B), &d.Process, &d.Result))
	}
	if cr.CI.Replicates == 0 {
		return []Table{t2}
	}
	return []Table{t2, ci}
}

func (cr *ConditionsReport) runsLine() string {
	parts := make([]string, len(cr.Runs))
	for i, r := range cr.Runs {
		parts[i] = string(r.Condition) + ": " + RunList(r.Runs)
	}
	return strings.Join(parts, "; ")
}

// WriteText writes Tables aligned for a terminal.
func (cr *ConditionsReport) WriteText(w io.Writer) error {
	intro := fmt.Sprintf("ViGoR agreement by judge condition — split %s; judge runs %s. Scores on a 0–1 scale; Var = mean per-item %s variance.",
		cr.Split, cr.runsLine(), cr.Variance)
	return writeText(w, intro, cr.Tables(), "")
}

// WriteMarkdown writes Tables as Markdown.
func (cr *ConditionsReport) WriteMarkdown(w io.Writer) error {
	intro := fmt.Sprintf("Judge runs %s. Scores on a 0–1 scale; variance is the mean per-item %s variance.", cr.runsLine(), cr.Variance)
	return writeMarkdown(w, "ViGoR agreement by judge condition: "+cr.Split, intro, cr.Tables())
}

// ConditionsCSVColumns is the header of WriteCSV.
var ConditionsCSVColumns = [...]string{"section", "condition", "versus", "track", "statistic", "value", "ci_low", "ci_high", "items", "cells"}

// WriteCSV writes every figure as one long table, one figure a row, at
// full precision ("undefined" where undefined).
func (cr *ConditionsReport) WriteCSV(w io.Writer) error {
	out := Table{Columns: ConditionsCSVColumns[:]}
	row := func(section string, c, versus Condition, t Track, stat string, v Value, ci Interval, items, cells string) {
		lo, hi := "", ""
		if ci.OK() {
			lo, hi = csvNum(ci.Lo), csvNum(ci.Hi)
		}
		name := string(c)
		if section == "table2" && c == "" {
			name = "human_experts"
		}
		out.Rows = append(out.Rows, []string{section, name, string(versus), string(t), stat, csvNum(v), lo, hi, items, cells})
	}
	for i := range cr.Rows {
		r := &cr.Rows[i]
		for _, t := range Tracks {
			c, ci := byTrack(t, &r.Process, &r.Result), byTrack(t, &r.ProcessCI, &r.ResultCI)
			items, cells := strconv.Itoa(c.Items), strconv.Itoa(c.Cells)
			row("table2", r.Condition, "", t, "mae", c.MAE, ci.MAE, items, cells)
			row("table2", r.Condition, "", t, "accuracy", c.Accuracy, ci.Accuracy, items, cells)
			row("table2", r.Condition, "", t, "variance", c.Variance, ci.Variance, items, cells)
		}
	}
	for _, d := range cr.Diffs {
		for _, t := range Tracks {
			dc := byTrack(t, &d.Process, &d.Result)
			row("difference", d.A, d.B, t, "mae", dc.MAE.Estimate, dc.MAE.CI, "", "")
			row("difference", d.A, d.B, t, "accuracy", dc.Accuracy.Estimate, dc.Accuracy.CI, "", "")
			row("difference", d.A, d.B, t, "variance", dc.Variance.Estimate, dc.Variance.CI, "", "")
		}
	}
	return out.writeCSV(w)
}

// csvNum writes a statistic at full precision, "undefined" where undefined.
func csvNum(v Value) string {
	if x, ok := v.Get(); ok {
		return strconv.FormatFloat(x, 'g', -1, 64)
	}
	return "undefined"
}
