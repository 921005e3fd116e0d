package score

import (
	"fmt"
	"math/rand/v2"
)

// SimulatedModel answers puzzles the way a simple, named-as-simulated model
// would, for demos, screenshots and tests.
type SimulatedModel struct {
	Name string
	// Place returns a prediction (a cell index per piece) for t.
	Place func(t *Truth, r *rand.Rand) []int
	// InvalidRate is the share of answers given as text with no usable mapping.
	InvalidRate float64
}

// SimBorderAware is right mostly at the corners (90 %) and along the
// borders (60 %), rarely inside (5 %) — how the paper's models behave.
var SimBorderAware = SimulatedModel{Name: "simulated-border-aware", Place: placeBorderAware, InvalidRate: 0.05}

// SimRandom answers with a uniformly random permutation: the baseline.
var SimRandom = SimulatedModel{Name: "simulated-random", Place: func(t *Truth, r *rand.Rand) []int { return r.Perm(t.Grid * t.Grid) }}

// invalidReplies are the texts a simulated model gives instead of an answer.
var invalidReplies = []string{
	"I'm sorry, but I can't make out the piece numbers clearly enough to solve this puzzle.",
	"The pieces seem to form a landscape. Piece 0 probably goes in the top-left corner, then the sky pieces…",
	"```json\n{\"0\": [0, 0], \"1\": [0, 1], \"2\": \n```\n(answer truncated)",
}

func placeBorderAware(t *Truth, r *rand.Rand) []int {
	n := t.Grid
	pred := make([]int, n*n)
	used := make([]bool, n*n)
	var rest []int
	for k, c := range t.Cell {
		border := 0
		if c/n == 0 || c/n == n-1 {
			border++
		}
		if c%n == 0 || c%n == n-1 {
			border++
		}
		if r.Float64() < [3]float64{0.05, 0.6, 0.9}[border] {
			pred[k], used[c] = c, true
		} else {
			rest = append(rest, k)
		}
	}
	var free []int
	for c, u := range used {
		if !u {
			free = append(free, c)
		}
	}
	r.Shuffle(len(free), func(i, j int) { free[i], free[j] = free[j], free[i] })
	for i, k := range rest {
		pred[k] = free[i]
	}
	return pred
}

// SimulateAnswers answers every instance of truth with m, deterministically
// from seed, as if loaded from a file named after the model.
func SimulateAnswers(truth *TruthSet, m SimulatedModel, condition string, seed uint64) *AnswerSet {
	r := rand.New(rand.NewPCG(seed, 0x73696d))
	set := &AnswerSet{Source: Source{Model: m.Name, Path: "(simulated)", Condition: condition}}
	for i, ti := range truth.Instances {
		rec := &AnswerRecord{ID: ti.ID, Where: fmt.Sprintf("(simulated answer %d)", i+1)}
		if r.Float64() < m.InvalidRate {
			reply := invalidReplies[r.IntN(len(invalidReplies))]
			if a, err := ParseAnswer([]byte(reply), ti.Grid); err != nil {
				rec.Reason, rec.Raw = err.Error(), reply // what the parser says of it
			} else {
				rec.Answer = a
			}
		} else {
			rec.Cells = m.Place(ti.Truth, r)
		}
		set.put(rec)
	}
	set.finish()
	return set
}
