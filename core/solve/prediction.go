package solve

import (
	"fmt"

	"github.com/jigbench/jigbench/core/puzzle"
)

// EncodePrediction writes an answer in the format of jigshape.md §3 that
// `jigbench score` reads: {"<id>": [row, col], …} in ID order, one object.
// pred[id] is the cell index row·n + col.
func EncodePrediction(n int, pred []int) ([]byte, error) {
	sol := make(puzzle.Solution, len(pred))
	for id, c := range pred {
		if c < 0 || c >= n*n {
			return nil, fmt.Errorf("piece %d has no cell", id)
		}
		sol[id] = puzzle.Cell{Row: c / n, Col: c % n}
	}
	b, err := sol.MarshalJSON()
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}
