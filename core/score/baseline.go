package score

import (
	"math"
	"math/big"
	"math/rand/v2"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Baseline is the expected score of a uniformly random full permutation on a
// puzzle with uniformly random edge polarities.
type Baseline struct {
	Grid       int     `json:"grid"`
	PA         float64 `json:"pa"`
	EM         float64 `json:"em"`
	AA         float64 `json:"aa"`
	SC         float64 `json:"sc"`
	AADirected float64 `json:"aa_directed"`
	// EMLog10 is log10 of EM, which underflows float64 from N = 16 on.
	EMLog10 float64 `json:"em_log10"`
}

// ExactBaseline derives the expectations in closed form. With M = N² pieces
// and E = 2N(N−1) true adjacencies, a random permutation puts any two pieces
// on a uniformly random ordered pair of distinct cells.
//
//   - PA = 1/M and EM = 1/M!.
//   - AA: a pair lands on 4-neighbours with probability 2E / (M(M−1)), so
//     AA = 2E/(M(M−1)) = 4/(N(N+1)); directed, only one of the two orders
//     counts: 1/(N(N+1)).
//   - SC: for neighbouring cells (p, q), q right of p, let X, Y be the pieces
//     placed there. Compatibility needs X not in the last column and Y not in
//     the first (else a flat side faces). If X is Y's true left neighbour the
//     facing sides are the two halves of one edge and always interlock;
//     otherwise they come from independent fair edges and interlock with
//     probability ½. Counting ordered pairs X ≠ Y with X outside the last
//     column and Y outside the first gives A = (N(N−1))² − N(N−2), of which
//     N(N−1) are true neighbours, so
//     P = (N(N−1) + (A − N(N−1))/2) / (M(M−1)) = (A + N(N−1)) / (2M(M−1)),
//     the same for vertical pairs by symmetry; SC = P.
func ExactBaseline(n int) Baseline {
	nn := float64(n)
	m := nn * nn
	a := (nn*(nn-1))*(nn*(nn-1)) - nn*(nn-2)
	lf, _ := new(big.Float).SetInt(new(big.Int).MulRange(1, int64(n*n))).Float64()
	b := Baseline{
		Grid:       n,
		PA:         1 / m,
		EM:         1 / lf,
		AA:         4 / (nn * (nn + 1)),
		AADirected: 1 / (nn * (nn + 1)),
		SC:         (a + nn*(nn-1)) / (2 * m * (m - 1)),
	}
	lg, _ := math.Lgamma(m + 1)
	b.EMLog10 = -lg / math.Ln10
	return b
}

// MonteCarlo is a simulated baseline: trials random puzzles each answered by
// a random permutation, scored with Score itself.
type MonteCarlo struct {
	Trials     int     `json:"trials"`
	AA         float64 `json:"aa"`
	SC         float64 `json:"sc"`
	PA         float64 `json:"pa"`
	AADirected float64 `json:"aa_directed"`
}

// SimulateBaseline estimates the baseline by simulation, deterministically
// from seed.
func SimulateBaseline(n, trials int, seed uint64) MonteCarlo {
	r := rand.New(rand.NewPCG(seed, uint64(n)))
	m := n * n
	t := &Truth{Grid: n, Cell: make([]int, m), Sides: make([]puzzle.Sides, m)}
	for k := range t.Cell {
		t.Cell[k] = k
	}
	h := make([][]int, n)
	for i := range h {
		h[i] = make([]int, n-1)
	}
	v := make([][]int, n-1)
	for i := range v {
		v[i] = make([]int, n)
	}
	coin := func() int { return int(r.Uint64()>>63)*2 - 1 }
	pred := make([]int, m)
	var s scratch
	out := MonteCarlo{Trials: trials}
	for range trials {
		for _, row := range h {
			for j := range row {
				row[j] = coin()
			}
		}
		for _, row := range v {
			for j := range row {
				row[j] = coin()
			}
		}
		for k := range t.Sides {
			t.Sides[k] = puzzle.SidesOf(h, v, puzzle.Cell{Row: k / n, Col: k % n})
		}
		for k := range pred {
			pred[k] = k
		}
		r.Shuffle(m, func(i, j int) { pred[i], pred[j] = pred[j], pred[i] })
		sc := s.score(t, pred)
		out.AA += sc.AA
		out.SC += sc.SC
		out.PA += sc.PA
		out.AADirected += sc.AADirected
	}
	if trials > 0 {
		f := float64(trials)
		out.AA, out.SC, out.PA, out.AADirected = out.AA/f, out.SC/f, out.PA/f, out.AADirected/f
	}
	return out
}
