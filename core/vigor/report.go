package vigor

import (
	"encoding/json"
	"io"
)

// AgreementFormat tags the JSON agreement report (docs/formats.md, "Reports").
const AgreementFormat = "jigbench.vigor-agreement/v1"

// Report is the result of Analyze: the paper's Table 2 and everything
// docs/metrics.md, "Agreement statistics" adds. It marshals to the JSON layout of docs/formats.md, "Reports"; statistics that
// are undefined marshal as "undefined".
type Report struct {
	Format     string      `json:"format"`
	Split      string      `json:"split"`
	Variance   string      `json:"variance"` // "population" (÷n) or "sample" (÷(n−1))
	Items      TrackCounts `json:"items"`    // items in the split per track
	Annotators []string    `json:"annotators"`
	Runs       CondRuns    `json:"runs"`

	Table2       Table2        `json:"table2"`
	HumanCeiling Ceiling       `json:"human_ceiling"`
	Reliability  Reliability   `json:"reliability"`
	Bias         BiasReport    `json:"bias"`
	Confusion    ConfusionSets `json:"confusion"`
	Breakdowns   []Breakdown   `json:"breakdowns"`
	CI           CIReport      `json:"ci"`
}

// WriteJSON writes the report as indented JSON (docs/formats.md, "Reports").
func (rep *Report) WriteJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(rep)
}

// TrackCounts counts per track.
type TrackCounts struct {
	Process int `json:"process"`
	Result  int `json:"result"`
}

// CondRuns lists the judge run numbers seen per condition.
type CondRuns struct {
	WithoutGT []int `json:"without_gt"`
	WithGT    []int `json:"with_gt"`
}

// Table2 is the paper's layout: three rows, each with a process and a
// result cell.
type Table2 struct {
	HumanExperts   Row `json:"human_experts"`
	JudgeWithoutGT Row `json:"judge_without_gt"`
	JudgeWithGT    Row `json:"judge_with_gt"`
}

// Judge returns the row of condition c.
func (t *Table2) Judge(c Condition) *Row { return byCond(c, &t.JudgeWithoutGT, &t.JudgeWithGT) }

// Row is one Table 2 row.
type Row struct {
	Process Cell `json:"process"`
	Result  Cell `json:"result"`
}

// Track returns the cell of track t.
func (r *Row) Track(t Track) *Cell { return byTrack(t, &r.Process, &r.Result) }

// Cell is one Table 2 entry. For the Human experts row MAE and accuracy are
// 0 and 1 by construction (the humans against their own mean) and Variance
// is the humans' mean per-cell variance over every item with ≥ 2 ratings;
// for a judge row they compare the judge's mean with the humans' mean over
// the (item, dimension) cells with ≥ 2 human ratings and ≥ 1 judge run, and
// Variance is the judge runs' mean per-cell variance over those cells that
// have ≥ 2 runs.
type Cell struct {
	MAE      Value    `json:"mae"`
	Accuracy Value    `json:"accuracy"`
	Variance Value    `json:"variance"`
	Items    int      `json:"items"` // items that contribute
	Cells    int      `json:"cells"` // (item, dimension) pairs that contribute
	Excluded Excluded `json:"excluded"`
}

// Excluded counts the track's items that contribute nothing, by reason.
type Excluded struct {
	FewHumans int `json:"fewer_than_2_human_ratings"`
	NoJudge   int `json:"no_judge_score"` // judge rows only
}

// Ceiling is the leave-one-out human ceiling: each annotator against the
// mean of the others, with Table 2's MAE and accuracy.
type Ceiling struct {
	Process      CeilingCell        `json:"process"`
	Result       CeilingCell        `json:"result"`
	PerAnnotator []AnnotatorCeiling `json:"per_annotator"`
}

// CeilingCell pools every (annotator, item, dimension) comparison.
type CeilingCell struct {
	MAE      Value `json:"mae"`
	Accuracy Value `json:"accuracy"`
	Cells    int   `json:"cells"`
}

// AnnotatorCeiling is one annotator against the others.
type AnnotatorCeiling struct {
	Annotator string      `json:"annotator"`
	Process   CeilingCell `json:"process"`
	Result    CeilingCell `json:"result"`
}

// Reliability holds inter-rater reliability among the humans and among
// each condition's judge runs.
type Reliability struct {
	Humans         ReliabilitySet `json:"humans"`
	JudgeWithoutGT ReliabilitySet `json:"judge_without_gt"`
	JudgeWithGT    ReliabilitySet `json:"judge_with_gt"`
}

// ReliabilitySet is one set of coders' reliability per track.
type ReliabilitySet struct {
	Process TrackReliability `json:"process"`
	Result  TrackReliability `json:"result"`
}

// TrackReliability is reliability on one track: over all dimensions (each
// (item, dimension) a unit) and per dimension.
type TrackReliability struct {
	Metric      string            `json:"metric"` // alpha's metric: interval (process), nominal (result)
	Coders      int               `json:"coders"`
	All         Coefficients      `json:"all"`
	ByDimension []DimCoefficients `json:"by_dimension"`
}

// Coefficients are the reliability statistics of one set of units. Fleiss'
// kappa and Gwet's AC1 apply to the binary result track only; elsewhere
// they are nil (JSON null).
type Coefficients struct {
	KrippendorffAlpha Value  `json:"krippendorff_alpha"`
	FleissKappa       *Value `json:"fleiss_kappa"`
	GwetAC1           *Value `json:"gwet_ac1"`
	Units             int    `json:"units"` // units with ≥ 2 values
}

// DimCoefficients are one dimension's coefficients.
type DimCoefficients struct {
	Dimension string `json:"dimension"`
	Coefficients
}

// BiasReport is the signed mean of j̄ − h̄ per condition.
type BiasReport struct {
	JudgeWithoutGT BiasSet `json:"judge_without_gt"`
	JudgeWithGT    BiasSet `json:"judge_with_gt"`
}

// BiasSet is one condition's bias per track.
type BiasSet struct {
	Process TrackBias `json:"process"`
	Result  TrackBias `json:"result"`
}

// TrackBias is the bias overall, per dimension and per model.
type TrackBias struct {
	Overall     Value        `json:"overall"`
	ByDimension []GroupValue `json:"by_dimension"`
	ByModel     []GroupValue `json:"by_model"`
}

// GroupValue is a statistic for one group.
type GroupValue struct {
	Group string `json:"group"`
	Value Value  `json:"value"`
	Cells int    `json:"cells"`
}

// ConfusionSets holds the judge-vs-human class matrices per condition.
type ConfusionSets struct {
	JudgeWithoutGT ConfusionSet `json:"judge_without_gt"`
	JudgeWithGT    ConfusionSet `json:"judge_with_gt"`
}

// ConfusionSet is one condition's matrices per track.
type ConfusionSet struct {
	Process Confusion `json:"process"`
	Result  Confusion `json:"result"`
}

// Confusion counts (item, dimension) cells by the humans' class (row) and
// the judge's class (column): buckets bad/moderate/good on the process
// track, majority 0/1 on the result track.
type Confusion struct {
	Labels      []string       `json:"labels"`
	Matrix      [][]int        `json:"matrix"` // [human][judge]
	ByDimension []DimConfusion `json:"by_dimension"`
}

// DimConfusion is one dimension's matrix.
type DimConfusion struct {
	Dimension string  `json:"dimension"`
	Matrix    [][]int `json:"matrix"`
}

// Breakdown is every Table 2 figure for one group of items or one
// dimension, one track and one judge condition.
type Breakdown struct {
	By            string    `json:"by"` // "dimension", "domain", "subdomain" or "model"
	Group         string    `json:"group"`
	Track         Track     `json:"track"`
	Condition     Condition `json:"condition"`
	MAE           Value     `json:"mae"`
	Accuracy      Value     `json:"accuracy"`
	JudgeVariance Value     `json:"judge_variance"`
	HumanVariance Value     `json:"human_variance"`
	Bias          Value     `json:"bias"`
	Items         int       `json:"items"`
	Cells         int       `json:"cells"`
}

// CIReport holds the bootstrap intervals: items are resampled with
// replacement within each track, all of an item's human and judge scores
// moving together; percentile intervals.
type CIReport struct {
	Level      float64  `json:"level"`
	Replicates int      `json:"replicates"`
	Seed       uint64   `json:"seed"`
	Method     string   `json:"method"`
	Table2     CITable2 `json:"table2"`
	// WithMinusWithoutGT is the paired difference judge_with_gt −
	// judge_without_gt, both computed on the same resampled items.
	WithMinusWithoutGT DiffRow `json:"with_minus_without_gt"`
}

// CITable2 mirrors Table2 with intervals.
type CITable2 struct {
	HumanExperts   CIRow `json:"human_experts"`
	JudgeWithoutGT CIRow `json:"judge_without_gt"`
	JudgeWithGT    CIRow `json:"judge_with_gt"`
}

// CIRow is one row's intervals.
type CIRow struct {
	Process CICell `json:"process"`
	Result  CICell `json:"result"`
}

// CICell holds the intervals of one Table 2 cell.
type CICell struct {
	MAE      Interval `json:"mae"`
	Accuracy Interval `json:"accuracy"`
	Variance Interval `json:"variance"`
}

// DiffRow is the with-GT minus without-GT difference per track.
type DiffRow struct {
	Process DiffCell `json:"process"`
	Result  DiffCell `json:"result"`
}

// DiffCell is the difference of each Table 2 figure.
type DiffCell struct {
	MAE      Diff `json:"mae"`
	Accuracy Diff `json:"accuracy"`
	Variance Diff `json:"variance"`
}

// Diff is a point difference with its paired interval.
type Diff struct {
	Estimate Value    `json:"estimate"`
	CI       Interval `json:"ci"`
}

// byTrack picks the process or result member of a report struct.
func byTrack[T any](t Track, process, result *T) *T {
	if t == TrackProcess {
		return process
	}
	return result
}

// byCond picks the without-GT or with-GT member of a report struct.
func byCond[T any](c Condition, without, with *T) *T {
	if c == WithGT {
		return with
	}
	return without
}
