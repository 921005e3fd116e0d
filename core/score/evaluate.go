package score

import (
	"context"
	"fmt"
	"slices"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// InstanceScore is one model's score on one instance.
type InstanceScore struct {
	Model     string `json:"model"`
	ID        string `json:"id"`
	Grid      int    `json:"grid"`
	Condition string `json:"condition"`
	Valid     bool   `json:"valid"`
	// Reason says why the answer is invalid ("" when valid).
	Reason string `json:"reason"`
	Metrics
	// Missing is true when no answer was given for the instance at all.
	Missing      bool `json:"missing"`
	UnknownIDs   int  `json:"unknown_ids"`
	BadPositions int  `json:"bad_positions"`
	// Pred is the parsed prediction (nil when invalid), for heatmaps and
	// the reassembly view.
	Pred []int `json:"-"`
	// Raw is an invalid answer's text, for display (see AnswerRecord.Raw).
	Raw string `json:"-"`
	// PAExchangeable is PA up to exchangeable pieces (exchange.go); nil
	// when the instance's classes are unknown.
	PAExchangeable *float64 `json:"pa_exchangeable,omitempty"`
	// Remaining are the metrics over the pieces the prompt did not reveal
	// (remaining.go); nil without revealed pieces.
	Remaining *Metrics `json:"remaining,omitempty"`
}

// ReasonNoAnswer is the reason recorded for an instance without an answer.
const ReasonNoAnswer = "no answer for this instance"

// ScoreAnswers scores a source's answers against the truth. Every instance
// of every grid the source answered at least once is scored: one without an
// answer counts as invalid (ReasonNoAnswer). Grids the source never answered
// are left out and listed in the returned notes, so a model evaluated only
// on 4×4 is not reported as scoring 0 on 16×16.
func ScoreAnswers(truth *TruthSet, set *AnswerSet) (scores []InstanceScore, notes []string) {
	answered := map[int]bool{}
	for _, rec := range set.Records {
		if ti, ok := truth.Find(rec.ID); ok {
			answered[ti.Grid] = true
		}
	}
	var s scratch
	skipped := map[int]int{}
	for i := range truth.Instances {
		ti := &truth.Instances[i]
		if !answered[ti.Grid] {
			skipped[ti.Grid]++
			continue
		}
		is := InstanceScore{Model: set.Model, ID: ti.ID, Grid: ti.Grid, Condition: set.Condition}
		rec, ok := set.Find(ti.ID)
		switch {
		case !ok:
			is.Reason, is.Missing = ReasonNoAnswer, true
		case !rec.Valid():
			is.Reason, is.Raw = rec.Reason, rec.Raw
		default:
			is.Valid = true
			is.Metrics = s.score(ti.Truth, rec.Cells)
			is.UnknownIDs, is.BadPositions = rec.Unknown, rec.BadPositions
			is.Pred = rec.Cells
		}
		is.scoreHintsAndExchange(ti.Truth)
		scores = append(scores, is)
	}
	for _, g := range sortedKeys(skipped) {
		notes = append(notes, fmt.Sprintf("%s (%s) has no answer for any %d×%d instance; that grid (%d instances) is left out of its report",
			set.Model, set.Condition, g, g, skipped[g]))
	}
	return scores, notes
}

func sortedKeys(m map[int]int) []int {
	k := make([]int, 0, len(m))
	for g := range m {
		k = append(k, g)
	}
	slices.Sort(k)
	return k
}

// Options control Evaluate.
type Options struct {
	Bootstrap BootstrapOptions
	// Exchange, if set, computes an instance folder's exchangeable classes
	// (render.InstanceExchange), for PA up to exchangeable pieces.
	Exchange ExchangeFunc
}

// Evaluate loads every source's answers, scores them against truth and
// aggregates them into a report. Sources with the same model and condition
// are merged (a later source's answer for an instance replaces an earlier
// one's), so a model's answers may come in several files.
func Evaluate(ctx context.Context, truth *TruthSet, sources []Source, opt Options, report progress.Func) (*Report, error) {
	report = progress.Serial(report)
	type key struct{ model, condition string }
	var order []key
	sets := map[key]*AnswerSet{}
	for i, src := range sources {
		if src.Condition == "" {
			src.Condition = puzzle.ConditionShape
		}
		loaded, err := LoadSources(ctx, src, truth, func(r progress.Report) {
			r.Stage = fmt.Sprintf("%s: %s (%d of %d)", r.Stage, src.Model, i+1, len(sources))
			report(r)
		})
		if err != nil {
			return nil, err
		}
		for _, set := range loaded {
			k := key{set.Model, set.Condition}
			if prev, ok := sets[k]; ok {
				prev.Problems = append(prev.Problems, set.Problems...)
				prev.Unmatched += set.Unmatched
				for _, rec := range set.Records {
					prev.put(rec)
				}
				prev.finish()
				continue
			}
			sets[k] = set
			order = append(order, k)
		}
	}
	ordered := make([]*AnswerSet, len(order))
	for i, k := range order {
		ordered[i] = sets[k]
	}
	return EvaluateSets(ctx, truth, ordered, opt, report)
}

// EvaluateSets scores answer sets already loaded (or simulated) against
// truth and aggregates them into a report, as Evaluate does after loading.
func EvaluateSets(ctx context.Context, truth *TruthSet, sets []*AnswerSet, opt Options, report progress.Func) (*Report, error) {
	report = progress.Serial(report)
	rep := &Report{Format: ReportFormat, Truth: truth}
	rep.Problems = append(rep.Problems, truth.Problems...)
	if opt.Exchange != nil {
		problems, err := truth.computeExchange(ctx, answeredIDs(sets), opt.Exchange, report)
		if err != nil {
			return nil, err
		}
		rep.Problems = append(rep.Problems, problems...)
	}
	for _, set := range sets {
		for _, p := range set.Problems {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: %s", set.Model, p))
		}
		if set.Unmatched > 0 {
			rep.Problems = append(rep.Problems, fmt.Sprintf("%s: answers for %d instance IDs the truth does not have", set.Model, set.Unmatched))
		}
		scores, notes := ScoreAnswers(truth, set)
		rep.Instances = append(rep.Instances, scores...)
		rep.Problems = append(rep.Problems, notes...)
	}
	groups, err := Aggregate(ctx, rep.Instances, opt.Bootstrap, report)
	if err != nil {
		return nil, err
	}
	markBest(groups)
	rep.Groups = groups
	rep.Usage = usageGroups(truth, sets)
	rep.Bootstrap = opt.Bootstrap.withDefaults()
	if err := rep.aggregateHintsAndExchange(ctx); err != nil {
		return nil, err
	}
	if err := rep.analyse(ctx); err != nil {
		return nil, err
	}
	return rep, nil
}
