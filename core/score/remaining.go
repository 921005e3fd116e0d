package score

import "github.com/jigbench/jigbench/core/puzzle"

// revealedOf marks the pieces an instance's hints reveal (nil for none).
func revealedOf(inst *puzzle.Instance) []bool {
	if inst.Hints == nil || len(inst.Hints.Revealed) == 0 {
		return nil
	}
	out := make([]bool, len(inst.Pieces))
	for _, rp := range inst.Hints.Revealed {
		out[rp.ID] = true
	}
	return out
}

// ScoreRemaining computes the metrics "on the remaining pieces", leaving out
// what the prompt gave away (docs/ambiguity-and-hints.md): PA over the
// unrevealed pieces, EM = 1 when all of them are right, AA (both readings)
// over the true adjacencies whose two pieces are not both revealed, SC over
// the neighbouring cell pairs whose true pieces are not both revealed. With
// nothing revealed it equals Score.
func ScoreRemaining(t *Truth, pred []int) Metrics {
	n := t.Grid
	cells := n * n
	revealed := func(k int) bool { return t.Revealed != nil && t.Revealed[k] }
	var m Metrics

	pieces, correct := 0, 0
	for k, c := range pred {
		if revealed(k) {
			continue
		}
		pieces++
		if c == t.Cell[k] {
			correct++
		}
	}
	if pieces > 0 {
		m.PA = float64(correct) / float64(pieces)
	}
	if correct == pieces {
		m.EM = 1
	}

	trueAt := make([]int, cells)
	for k, c := range t.Cell {
		trueAt[c] = k
	}
	occ := make([]int, cells)
	fillOccupants(occ, pred)
	pairs, adj, directed, compatible := 0, 0, 0, 0
	for p := range cells {
		r, c := p/n, p%n
		for _, d := range [2]struct{ dr, dc, from, to int }{{0, 1, puzzle.Right, puzzle.Left}, {1, 0, puzzle.Bottom, puzzle.Top}} {
			if r+d.dr >= n || c+d.dc >= n {
				continue
			}
			q := p + d.dr*n + d.dc
			a, b := trueAt[p], trueAt[q]
			if revealed(a) && revealed(b) {
				continue
			}
			pairs++
			u, dd := neighbours(pred[a], pred[b], n, d.dr, d.dc)
			adj += u
			directed += dd
			if x, y := occ[p], occ[q]; x >= 0 && y >= 0 && t.Sides[x][d.from].Complements(t.Sides[y][d.to]) {
				compatible++
			}
		}
	}
	if pairs > 0 {
		m.AA = float64(adj) / float64(pairs)
		m.AADirected = float64(directed) / float64(pairs)
		m.SC = float64(compatible) / float64(pairs)
	}
	return m
}

// fillOccupants sets occ[c] to the piece predicted in cell c: -1 when none
// is, -2 when several are (a collision; the cell is not filled).
func fillOccupants(occ, pred []int) {
	for i := range occ {
		occ[i] = -1
	}
	for k, c := range pred {
		switch {
		case c < 0:
		case occ[c] == -1:
			occ[c] = k
		default:
			occ[c] = -2
		}
	}
}
