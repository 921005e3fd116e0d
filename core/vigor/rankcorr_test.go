package vigor

import (
	"math"
	"math/rand/v2"
	"testing"
)

// tauGamma is Kendall's τ-b in his generalised-correlation form ("Rank
// Correlation Methods", ch. 3): Σ a_ij b_ij / √(Σ a_ij² Σ b_ij²) over all
// ordered pairs i ≠ j, a_ij = sign(x_i − x_j), b_ij = sign(y_i − y_j). It
// is an independent computation of what KendallTauB counts pair by pair.
func tauGamma(x, y []float64) float64 {
	var ab, aa, bb float64
	for i := range x {
		for j := range x {
			if i == j {
				continue
			}
			a, b := float64(sign(x[i]-x[j])), float64(sign(y[i]-y[j]))
			ab += a * b
			aa += a * a
			bb += b * b
		}
	}
	return ab / math.Sqrt(aa*bb)
}

// rhoTieCorrected is Spearman's ρ by Kendall's tie-corrected formula
// (ibid.): (Sx + Sy − Σd²) / (2√(Sx·Sy)), Sx = (n³ − n)/12 − Σ(t³ − t)/12
// over x's tie groups of size t, likewise Sy; d are the average-rank
// differences. Ties are counted here by brute force, not by AverageRanks.
func rhoTieCorrected(x, y []float64) float64 {
	n := float64(len(x))
	s := func(v []float64) float64 {
		sum := (n*n*n - n) / 12
		done := make([]bool, len(v))
		for i := range v {
			if done[i] {
				continue
			}
			t := 0.0
			for j := range v {
				if v[j] == v[i] {
					t++
					done[j] = true
				}
			}
			sum -= (t*t*t - t) / 12
		}
		return sum
	}
	// rank by counting: rank = 1 + #smaller + (#equal − 1)/2.
	rank := func(v []float64, i int) float64 {
		less, eq := 0.0, 0.0
		for j := range v {
			if v[j] < v[i] {
				less++
			} else if v[j] == v[i] {
				eq++
			}
		}
		return 1 + less + (eq-1)/2
	}
	var d2 float64
	for i := range x {
		d := rank(x, i) - rank(y, i)
		d2 += d * d
	}
	sx, sy := s(x), s(y)
	return (sx + sy - d2) / (2 * math.Sqrt(sx*sy))
}

func closeTo(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func TestRankCorrelationPublishedExamples(t *testing.T) {
	for _, c := range []struct {
		name     string
		x, y     []float64
		tau, rho float64
	}{
		// Hollander & Wolfe, "Nonparametric Statistical Methods" (1973),
		// pp. 185–187, the example R's ?cor.test runs: no ties. By hand:
		// of the 36 pairs 26 are concordant and 10 discordant, τ = 16/36 =
		// 4/9; Σd² = 48, ρ = 1 − 6·48/(9·80) = 0.6.
		{"Hollander-Wolfe", []float64{44.4, 45.9, 41.9, 53.3, 44.7, 44.1, 50.7, 45.2, 60.1},
			[]float64{2.6, 3.1, 2.5, 5.0, 3.6, 4.0, 5.2, 2.8, 3.8}, 4.0 / 9, 0.6},
		// SciPy's scipy.stats.kendalltau reference example, with ties in
		// both: x = (12, 2, 1, 12, 2), y = (1, 4, 7, 1, 0); SciPy prints
		// τ-b = −0.47140452079103173. By hand: 10 pairs; x ties 2 of them
		// (12,12) and (2,2), y ties 1 (1,1); C = 3, D = 7, so τ-b =
		// (3 − 7)/√(8·9) = −4/√72.
		{"SciPy kendalltau", []float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}, -4 / math.Sqrt(72), math.NaN()},
		// SciPy's scipy.stats.spearmanr reference example, a tie in y:
		// (1, 2, 3, 4, 5) against (5, 6, 7, 8, 7); SciPy prints ρ =
		// 0.8207826816681233. By hand: y's ranks are (1, 2, 3.5, 5, 3.5);
		// deviations from 3 give Σdxdy = 8, Σdx² = 10, Σdy² = 9.5, so
		// ρ = 8/√95. τ-b: C = 8, D = 1, one y tie: 7/√(10·9).
		{"SciPy spearmanr", []float64{1, 2, 3, 4, 5}, []float64{5, 6, 7, 8, 7}, 7 / math.Sqrt(90), 8 / math.Sqrt(95)},
	} {
		tau := KendallTauB(c.x, c.y)
		if v, ok := tau.Get(); !ok || !closeTo(v, c.tau) || !closeTo(v, tauGamma(c.x, c.y)) {
			t.Errorf("%s: τ-b %v, want %.15f (pair form %.15f)", c.name, tau, c.tau, tauGamma(c.x, c.y))
		}
		rho := SpearmanRho(c.x, c.y)
		want := c.rho
		if math.IsNaN(want) {
			want = rhoTieCorrected(c.x, c.y)
		}
		if v, ok := rho.Get(); !ok || !closeTo(v, want) || !closeTo(v, rhoTieCorrected(c.x, c.y)) {
			t.Errorf("%s: ρ %v, want %.15f (tie-corrected formula %.15f)", c.name, rho, want, rhoTieCorrected(c.x, c.y))
		}
	}
	// The SciPy kendalltau data's ρ by hand: x ranks (4.5, 2.5, 1, 4.5,
	// 2.5), y ranks (2.5, 4, 5, 2.5, 1); about the mean 3 the products
	// are −0.75, −0.5, −4, −0.75, 1: Σdxdy = −5, Σdx² = 9, Σdy² = 9.5,
	// ρ = −5/√85.5.
	if v, _ := SpearmanRho([]float64{12, 2, 1, 12, 2}, []float64{1, 4, 7, 1, 0}).Get(); !closeTo(v, -5/math.Sqrt(85.5)) {
		t.Errorf("SciPy kendalltau data: ρ %v, want %v", v, -5/math.Sqrt(85.5))
	}
}

func TestRankCorrelationHandCases(t *testing.T) {
	up := []float64{1, 2, 3, 4}
	down := []float64{4, 3, 2, 1}
	flat := []float64{2, 2, 2, 2}
	for _, c := range []struct {
		name     string
		x, y     []float64
		tau, rho Value
	}{
		{"identical", up, up, Defined(1), Defined(1)},
		{"reversed", up, down, Defined(-1), Defined(-1)},
		{"one side all tied", up, flat, Undefined, Undefined},
		{"one value", []float64{1}, []float64{2}, Undefined, Undefined},
		{"lengths differ", up, []float64{1, 2}, Undefined, Undefined},
		// Three models, two tied for the judge: pairs (1,2) tie in x, (1,3)
		// and (2,3) concordant; τ-b = 2/√(2·3).
		{"judge tie", []float64{0.5, 0.5, 0.9}, []float64{0.1, 0.2, 0.3}, Defined(2 / math.Sqrt(6)), Defined(math.Sqrt(3) / 2)},
	} {
		if got := KendallTauB(c.x, c.y); got.OK() != c.tau.OK() || !closeTo(got.Or(0), c.tau.Or(0)) {
			t.Errorf("%s: τ-b %v, want %v", c.name, got, c.tau)
		}
		if got := SpearmanRho(c.x, c.y); got.OK() != c.rho.OK() || !closeTo(got.Or(0), c.rho.Or(0)) {
			t.Errorf("%s: ρ %v, want %v", c.name, got, c.rho)
		}
	}
	if r := AverageRanks([]float64{10, 30, 20, 30, 10}); r[0] != 1.5 || r[4] != 1.5 || r[2] != 3 || r[1] != 4.5 || r[3] != 4.5 {
		t.Errorf("average ranks %v", r)
	}
}

// Random vectors with many ties: both statistics agree with the
// independent formulas and stay in [−1, 1].
func TestRankCorrelationRandomTies(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 19))
	for trial := range 500 {
		n := 2 + r.IntN(12)
		x, y := make([]float64, n), make([]float64, n)
		for i := range n {
			x[i], y[i] = float64(r.IntN(4)), float64(r.IntN(5))
		}
		tau, rho := KendallTauB(x, y), SpearmanRho(x, y)
		wantTau, wantRho := tauGamma(x, y), rhoTieCorrected(x, y)
		if math.IsNaN(wantTau) != !tau.OK() || tau.OK() && !closeTo(tau.Or(0), wantTau) {
			t.Fatalf("trial %d %v %v: τ-b %v, pair form %v", trial, x, y, tau, wantTau)
		}
		if math.IsNaN(wantRho) != !rho.OK() || rho.OK() && math.Abs(rho.Or(0)-wantRho) > 1e-9 {
			t.Fatalf("trial %d %v %v: ρ %v, tie-corrected %v", trial, x, y, rho, wantRho)
		}
	}
}
