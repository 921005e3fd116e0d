// Package score measures answers to JigShape puzzles: the four metrics of
// docs/metrics.md, "Puzzle metrics" (Piece Accuracy, Exact Match, Adjacency Accuracy, Shape
// Compatibility, plus directed AA), their random baselines, and (with the
// prediction parser and aggregation) the reports built on them. It is the one
// definition of every metric; the CLI and the GUI call it.
package score

import "github.com/jigbench/jigbench/core/puzzle"

// Missing marks a piece with no usable predicted cell.
const Missing = -1

// Truth is what scoring needs to know of an instance.
type Truth struct {
	ID   string
	Grid int
	// Cell[k] is the true cell index (row*N + col) of piece k.
	Cell []int
	// Sides[k] are the sides of piece k.
	Sides []puzzle.Sides
	// Revealed[k] is true when the prompt gave piece k's cell away
	// (hints.revealed); nil without such hints. See remaining.go.
	Revealed []bool
	// Exchange holds the exchangeable classes once scoring has computed
	// them (Options.Exchange); nil before, and for truth without images.
	Exchange *TruthExchange
}

// TruthOf extracts the answer from an instance.
func TruthOf(inst *puzzle.Instance) *Truth {
	n := inst.Grid
	t := &Truth{ID: inst.ID, Grid: n, Cell: inst.Solution.Indices(n), Sides: inst.Sides()}
	t.Revealed = revealedOf(inst)
	return t
}

// Metrics are one answer's scores, fractions in [0, 1].
type Metrics struct {
	PA         float64 `json:"pa"`
	EM         float64 `json:"em"`
	AA         float64 `json:"aa"`
	AADirected float64 `json:"aa_directed"`
	SC         float64 `json:"sc"`
}

// Perfect is the score of the true solution.
var Perfect = Metrics{1, 1, 1, 1, 1}

// Score computes the metrics of pred, where pred[k] is piece k's predicted
// cell index (row*N + col) or Missing. len(pred) must be N².
func Score(t *Truth, pred []int) Metrics {
	var s scratch
	return s.score(t, pred)
}

// scratch holds buffers reused across answers of one grid size.
type scratch struct {
	occupant []int // per cell: the piece predicted there, -1 none, -2 several
}

func (s *scratch) score(t *Truth, pred []int) Metrics {
	n := t.Grid
	cells := n * n
	var m Metrics

	correct := 0
	for k, c := range pred {
		if c == t.Cell[k] {
			correct++
		}
	}
	m.PA = float64(correct) / float64(cells)
	if correct == cells {
		m.EM = 1
	}

	// AA: every true-adjacent pair whose predictions are 4-neighbours.
	// trueAt inverts Cell so pairs can be walked in cell order.
	if cap(s.occupant) < cells {
		s.occupant = make([]int, cells)
	}
	occ := s.occupant[:cells]
	for i := range occ {
		occ[i] = -1
	}
	for k, c := range t.Cell {
		occ[c] = k // temporarily: the true occupant of each cell
	}
	adj, directed := 0, 0
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			a := occ[r*n+c]
			if c+1 < n {
				u, d := neighbours(pred[a], pred[occ[r*n+c+1]], n, 0, 1)
				adj += u
				directed += d
			}
			if r+1 < n {
				u, d := neighbours(pred[a], pred[occ[(r+1)*n+c]], n, 1, 0)
				adj += u
				directed += d
			}
		}
	}
	edges := float64(2 * n * (n - 1))
	m.AA = float64(adj) / edges
	m.AADirected = float64(directed) / edges

	// SC: neighbouring cells both filled by exactly one piece, facing sides interlocking.
	for i := range occ {
		occ[i] = -1
	}
	for k, c := range pred {
		if c < 0 {
			continue
		}
		if occ[c] == -1 {
			occ[c] = k
		} else {
			occ[c] = -2
		}
	}
	compatible := 0
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			x := occ[r*n+c]
			if x < 0 {
				continue
			}
			if c+1 < n {
				if y := occ[r*n+c+1]; y >= 0 && t.Sides[x][puzzle.Right].Complements(t.Sides[y][puzzle.Left]) {
					compatible++
				}
			}
			if r+1 < n {
				if y := occ[(r+1)*n+c]; y >= 0 && t.Sides[x][puzzle.Bottom].Complements(t.Sides[y][puzzle.Top]) {
					compatible++
				}
			}
		}
	}
	m.SC = float64(compatible) / edges
	return m
}

// neighbours reports whether predicted cells a and b (indices, or Missing)
// are 4-neighbours (undirected), and whether b is at a + (dr, dc) (directed).
func neighbours(a, b, n, dr, dc int) (undirected, directed int) {
	if a < 0 || b < 0 {
		return 0, 0
	}
	ar, ac, br, bc := a/n, a%n, b/n, b%n
	dy, dx := br-ar, bc-ac
	if dy*dy+dx*dx != 1 {
		return 0, 0
	}
	if dy == dr && dx == dc {
		return 1, 1
	}
	return 1, 0
}
