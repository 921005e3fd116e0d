package score

import (
	"context"
	"fmt"
	"sync/atomic"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// ExchangeFunc computes the exchangeable classes of the instance in folder
// dir, in the shape and the rect condition. Pixels are core/render's
// business, so the caller passes render.InstanceExchange.
type ExchangeFunc func(dir string) (shape, rect puzzle.Exchange, err error)

// TruthExchange is one instance's exchangeable classes per condition.
type TruthExchange struct{ Shape, Rect puzzle.Exchange }

// Of returns the classes of a condition (false for a condition other than
// shape and rect).
func (te *TruthExchange) Of(condition string) (puzzle.Exchange, bool) {
	switch condition {
	case puzzle.ConditionShape:
		return te.Shape, true
	case puzzle.ConditionRect:
		return te.Rect, true
	}
	return puzzle.Exchange{}, false
}

// PAExchangeable is PA up to exchangeable pieces: piece k counts as right
// when its predicted cell holds, in the truth, a piece exchangeable with k
// (k itself included), so it is never below PA.
func PAExchangeable(t *Truth, pred []int, e puzzle.Exchange) float64 {
	cells := t.Grid * t.Grid
	trueAt := make([]int, cells)
	for k, c := range t.Cell {
		trueAt[c] = k
	}
	right := 0
	for k, c := range pred {
		if c >= 0 && c < cells && e.Same(k, trueAt[c]) {
			right++
		}
	}
	return float64(right) / float64(cells)
}

// answeredIDs lists the instances some set has a valid answer for.
func answeredIDs(sets []*AnswerSet) map[string]bool {
	ids := map[string]bool{}
	for _, set := range sets {
		for _, rec := range set.Records {
			if rec.Valid() {
				ids[rec.ID] = true
			}
		}
	}
	return ids
}

// computeExchange fills in Exchange for the instances read from folders
// that lack it (those in ids; all when ids is nil), in parallel. The result
// stays on the Truth, so scoring the same TruthSet again reuses it; do not
// call it on one TruthSet from two goroutines at once. Instances whose
// classes cannot be computed are returned as problems.
func (s *TruthSet) computeExchange(ctx context.Context, ids map[string]bool, f ExchangeFunc, report progress.Func) ([]string, error) {
	var todo []*TruthInstance
	for i := range s.Instances {
		ti := &s.Instances[i]
		if ti.Exchange == nil && ti.Dir != "" && (ids == nil || ids[ti.ID]) {
			todo = append(todo, ti)
		}
	}
	results := make([]*TruthExchange, len(todo))
	errs := make([]error, len(todo))
	var done atomic.Int64
	err := parallel(ctx, len(todo), func(i int) {
		shape, rect, err := f(todo[i].Dir)
		switch {
		case err != nil:
			errs[i] = err
		case shape.Pieces() != len(todo[i].Cell) || rect.Pieces() != len(todo[i].Cell):
			errs[i] = fmt.Errorf("the classes cover %d pieces, the instance has %d", shape.Pieces(), len(todo[i].Cell))
		default:
			results[i] = &TruthExchange{Shape: shape, Rect: rect}
		}
		report(progress.Report{Stage: "finding exchangeable pieces", Done: done.Add(1), Total: int64(len(todo))})
	})
	if err != nil {
		return nil, err
	}
	var problems []string
	failed := 0
	for i, ti := range todo {
		if errs[i] == nil {
			ti.Exchange = results[i]
			continue
		}
		if failed++; failed <= maxProblems {
			problems = append(problems, fmt.Sprintf("no exchangeable pieces computed for %s: %v", ti.ID, errs[i]))
		}
	}
	if failed > maxProblems {
		problems = append(problems, fmt.Sprintf("… and %d more instances without exchangeable pieces", failed-maxProblems))
	}
	return problems, nil
}

// scoreHintsAndExchange adds PA up to exchangeable pieces (when the classes
// are known) and the metrics on the remaining pieces (when pieces were
// revealed); an invalid answer scores 0 on both, as on every metric.
func (is *InstanceScore) scoreHintsAndExchange(t *Truth) {
	if t.Exchange != nil {
		if e, ok := t.Exchange.Of(is.Condition); ok {
			v := 0.0
			if is.Valid {
				v = PAExchangeable(t, is.Pred, e)
			}
			is.PAExchangeable = &v
		}
	}
	if t.Revealed != nil {
		var m Metrics
		if is.Valid {
			m = ScoreRemaining(t, is.Pred)
		}
		is.Remaining = &m
	}
}
