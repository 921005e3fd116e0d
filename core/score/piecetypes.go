package score

import "fmt"

// Piece types (docs/analysis.md §3): corners have two flat sides, border
// pieces one, interior pieces none. Whether a model uses flat sides shows in
// how much better it places corners and borders than chance.

// PieceType is corner, border or interior.
type PieceType int

// The piece types, in report order.
const (
	Corner PieceType = iota
	Border
	Interior
)

var pieceTypeNames = [3]string{"corner", "border", "interior"}

func (t PieceType) String() string { return pieceTypeNames[t] }

// TypeOfCell is the type of the piece that belongs at cell (row*n + col).
func TypeOfCell(cell, n int) PieceType {
	flat := 0
	if r := cell / n; r == 0 || r == n-1 {
		flat++
	}
	if c := cell % n; c == 0 || c == n-1 {
		flat++
	}
	return [3]PieceType{Interior, Border, Corner}[min(flat, 2)]
}

// PieceTypeCount is how many pieces of type t an n×n grid has: 4 corners,
// 4(n−2) border pieces, (n−2)² interior pieces (n ≥ 2).
func PieceTypeCount(t PieceType, n int) int {
	if n < 2 {
		return [3]int{n * n, 0, 0}[t]
	}
	return [3]int{4, 4 * (n - 2), (n - 2) * (n - 2)}[t]
}

// TypeScore is one piece type's scores for a model × grid × condition.
type TypeScore struct {
	Type string `json:"type"`
	// Pieces and Adjacencies count the type's pieces and the true
	// adjacencies with at least one piece of the type, per instance.
	Pieces      int `json:"pieces"`
	Adjacencies int `json:"adjacencies"`
	// PA: correct pieces of the type / pieces of the type; AA: kept
	// adjacencies / adjacencies of the type; means over instances (invalid
	// and missing answers score 0), with bootstrap intervals.
	PA   float64  `json:"pa"`
	PACI Interval `json:"pa_ci"`
	AA   float64  `json:"aa"`
	AACI Interval `json:"aa_ci"`
	// Baselines of a uniformly random permutation (PA 1/N², AA the grid's
	// AA baseline, as any two pieces land on a uniform pair of cells) and of
	// one random within each type (PA 1/pieces).
	BaselinePA  float64 `json:"baseline_pa"`
	BaselineAA  float64 `json:"baseline_aa"`
	TypeAwarePA float64 `json:"type_aware_pa"`
}

// PieceTypeGroup is the piece-type breakdown of one model × grid × condition.
type PieceTypeGroup struct {
	Model     string      `json:"model"`
	Grid      int         `json:"grid"`
	Condition string      `json:"condition"`
	N         int         `json:"n"`
	Types     []TypeScore `json:"types"`
}

// typeRates are one answer's PA and AA per type (pieces 0–2, adjacencies
// 3–5); counts are the denominators.
func typeRates(t *Truth, pred []int) (rates, counts [6]float64) {
	n := t.Grid
	var hits [6]float64
	for k, c := range t.Cell {
		ty := TypeOfCell(c, n)
		counts[ty]++
		if pred != nil && pred[k] == c {
			hits[ty]++
		}
	}
	occ := make([]int, n*n)
	for k, c := range t.Cell {
		occ[c] = k
	}
	edge := func(a, b, dr, dc int) {
		ta, tb := TypeOfCell(a, n), TypeOfCell(b, n)
		kept := 0
		if pred != nil {
			kept, _ = neighbours(pred[occ[a]], pred[occ[b]], n, dr, dc)
		}
		counts[3+ta]++
		hits[3+ta] += float64(kept)
		if tb != ta {
			counts[3+tb]++
			hits[3+tb] += float64(kept)
		}
	}
	for r := range n {
		for c := range n {
			if c+1 < n {
				edge(r*n+c, r*n+c+1, 0, 1)
			}
			if r+1 < n {
				edge(r*n+c, (r+1)*n+c, 1, 0)
			}
		}
	}
	for i := range rates {
		if counts[i] > 0 {
			rates[i] = hits[i] / counts[i]
		}
	}
	return rates, counts
}

// pieceTypeGroups breaks every group's PA and AA down by piece type, over the
// same instances as the groups. It needs the report's truth and the
// answers' predictions.
func (r *Report) pieceTypeGroups() ([]PieceTypeGroup, error) {
	if r.Truth == nil {
		return nil, fmt.Errorf("the report has no truth to find piece types in")
	}
	opt := r.Bootstrap.withDefaults()
	var out []PieceTypeGroup
	for _, g := range r.Groups {
		var cols [6][]float64
		var counts [6]float64
		for i := range r.Instances {
			s := &r.Instances[i]
			if s.Model != g.Model || s.Grid != g.Grid || s.Condition != g.Condition {
				continue
			}
			ti, ok := r.Truth.Find(s.ID)
			if !ok {
				return nil, fmt.Errorf("instance %s of %s is not in the truth", s.ID, s.Model)
			}
			var pred []int
			if s.Valid {
				pred = s.Pred
			}
			rates, c := typeRates(ti.Truth, pred)
			counts = c
			for j := range cols {
				cols[j] = append(cols[j], rates[j])
			}
		}
		ci := bootstrapMeans(cols[:], opt, groupStream(g.Model, g.Grid, g.Condition+" piece types"))
		pg := PieceTypeGroup{Model: g.Model, Grid: g.Grid, Condition: g.Condition, N: len(cols[0])}
		base := ExactBaseline(g.Grid)
		for ty := Corner; ty <= Interior; ty++ {
			pieces := PieceTypeCount(ty, g.Grid)
			if pieces == 0 {
				continue
			}
			pg.Types = append(pg.Types, TypeScore{
				Type: ty.String(), Pieces: pieces, Adjacencies: int(counts[3+ty]),
				PA: mean(cols[ty]), PACI: ci[ty], AA: mean(cols[3+ty]), AACI: ci[3+ty],
				BaselinePA: base.PA, BaselineAA: base.AA, TypeAwarePA: 1 / float64(pieces),
			})
		}
		out = append(out, pg)
	}
	return out, nil
}
