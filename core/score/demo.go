package score

import (
	"context"

	"github.com/jigbench/jigbench/core/puzzle"
)

// DemoReport scores the app's demo models on truth: a border-aware and a
// random simulated model in the shape condition, and the border-aware one
// in the rectangular condition too, so every view of a report has
// something to show before any file is chosen.
func DemoReport(ctx context.Context, truth *TruthSet) (*Report, error) {
	sets := []*AnswerSet{
		SimulateAnswers(truth, SimBorderAware, puzzle.ConditionShape, 1),
		SimulateAnswers(truth, SimRandom, puzzle.ConditionShape, 2),
		SimulateAnswers(truth, SimBorderAware, puzzle.ConditionRect, 3),
	}
	return EvaluateSets(ctx, truth, sets, Options{}, nil)
}
