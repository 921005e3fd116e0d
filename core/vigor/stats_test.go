package vigor

import (
	"encoding/json"
	"math"
	"testing"
)

const tol = 1e-6

func near(t *testing.T, name string, got Value, want float64) {
	t.Helper()
	g, ok := got.Get()
	if !ok {
		t.Errorf("%s = undefined, want %.9f", name, want)
		return
	}
	if math.Abs(g-want) > tol {
		t.Errorf("%s = %.9f, want %.9f", name, g, want)
	}
}

func undefined(t *testing.T, name string, got Value) {
	t.Helper()
	if got.OK() {
		t.Errorf("%s = %v, want undefined", name, got)
	}
}

// unitsFromCoders turns a coder × unit table (NaN = missing) into units.
func unitsFromCoders(rows [][]float64) [][]float64 {
	units := make([][]float64, len(rows[0]))
	for _, row := range rows {
		for u, v := range row {
			if !math.IsNaN(v) {
				units[u] = append(units[u], v)
			}
		}
	}
	return units
}

var na = math.NaN()

// krippendorff2011 is the reliability data of Krippendorff, K. (2011).
// Computing Krippendorff's Alpha-Reliability. Annenberg School for
// Communication, University of Pennsylvania, section C ("Nominal data, any
// number of observers, missing data", reused for the other metrics): four
// observers A–D, twelve units, values 1–5, "*" missing.
var krippendorff2011 = [][]float64{
	{1, 2, 3, 3, 2, 1, 4, 1, 2, na, na, na}, // A
	{1, 2, 3, 3, 2, 2, 4, 1, 2, 5, na, 3},   // B
	{na, 3, 3, 3, 2, 3, 4, 2, 2, 5, 1, na},  // C
	{1, 2, 3, 3, 2, 4, 4, 1, 2, 5, 1, na},   // D
}

func TestKrippendorffAlpha2011(t *testing.T) {
	units := unitsFromCoders(krippendorff2011)
	// The paper prints α to three decimals: nominal .743, ordinal .815,
	// interval .849, ratio .797. The exact values are rationals, computed
	// here independently (exact fraction arithmetic on the coincidence
	// matrix, outside this package) and asserted to 1e-6.
	for _, tc := range []struct {
		m         Metric
		exact     float64
		published float64
	}{
		{MetricNominal, 113.0 / 152, 0.743},
		{MetricOrdinal, 108577.0 / 133160, 0.815},
		{MetricInterval, 951.0 / 1120, 0.849},
		{MetricRatio, 18222619.0 / 22852465, 0.797},
	} {
		got := KrippendorffAlpha(units, tc.m)
		near(t, "alpha "+tc.m.String(), got, tc.exact)
		if g, _ := got.Get(); math.Abs(g-tc.published) > 0.0005 {
			t.Errorf("alpha %s = %.4f, not the published %.3f", tc.m, g, tc.published)
		}
	}
}

// fleissWikipedia is the worked example of the Wikipedia article "Fleiss'
// kappa" (after Fleiss, J. L. (1971). Measuring nominal scale agreement
// among many raters. Psychological Bulletin 76(5):378–382): 10 subjects,
// 14 raters, 5 categories; each row counts the raters per category.
// Published: P̄ = 0.378, P̄e = 0.213, κ = 0.210.
var fleissWikipedia = [][5]int{
	{0, 0, 0, 0, 14},
	{0, 2, 6, 4, 2},
	{0, 0, 3, 5, 6},
	{0, 3, 9, 2, 0},
	{2, 2, 8, 1, 1},
	{7, 7, 0, 0, 0},
	{3, 2, 6, 3, 0},
	{2, 5, 3, 2, 2},
	{6, 5, 2, 1, 0},
	{0, 2, 2, 3, 7},
}

func unitsFromCounts(rows [][5]int) [][]float64 {
	var units [][]float64
	for _, row := range rows {
		var u []float64
		for cat, n := range row {
			for range n {
				u = append(u, float64(cat+1))
			}
		}
		units = append(units, u)
	}
	return units
}

func TestFleissKappaWikipedia(t *testing.T) {
	got := FleissKappa(unitsFromCounts(fleissWikipedia))
	// Exactly (0.378022 − 0.212755) / (1 − 0.212755) = 4211/20059.
	near(t, "kappa", got, 4211.0/20059)
	if g, _ := got.Get(); math.Abs(g-0.210) > 0.0005 {
		t.Errorf("kappa = %.4f, not the published 0.210", g)
	}
}

// abstractors3x3 is Gwet's cont3x3abstractors table (Gwet, K. L. (2014).
// Handbook of Inter-Rater Reliability, 4th ed., Advanced Analytics; shipped
// with his R package irrCAC): two abstractors classify 100 pregnancies as
// Ectopic, AIU or NIU. Rows: abstractor 1, columns: abstractor 2. The irrCAC
// vignette ("Calculating Chance-corrected Agreement Coefficients") prints
// Gwet's AC1 = 0.8493305, Scott's pi = 0.7962397 (which is Fleiss' kappa for
// two raters) and Krippendorff's alpha = 0.7972585.
var abstractors3x3 = [3][3]int{
	{13, 0, 0},
	{0, 20, 7},
	{0, 4, 56},
}

func unitsFromTable(tab [3][3]int) [][]float64 {
	var units [][]float64
	for i, row := range tab {
		for j, n := range row {
			for range n {
				units = append(units, []float64{float64(i), float64(j)})
			}
		}
	}
	return units
}

func TestGwetAC1Handbook(t *testing.T) {
	units := unitsFromTable(abstractors3x3)
	near(t, "AC1", GwetAC1(units, 0), 0.8493305)
	near(t, "AC1 with q=3 given", GwetAC1(units, 3), 0.8493305)
	near(t, "Fleiss kappa (= Scott's pi)", FleissKappa(units), 0.7962397)
	near(t, "Krippendorff alpha", KrippendorffAlpha(units, MetricNominal), 0.7972585)
}

func TestMissingDataFleissAndAC1(t *testing.T) {
	// With missing ratings, p_a runs over units with ≥ 2 ratings and π_k
	// over units with ≥ 1 (Gwet 2014). Krippendorff's data has 11 units with
	// ≥ 2 ratings (unit 12 has one). By hand, per unit Σ r_ik(r_ik−1)/(r_i(r_i−1)):
	// 1, 1/2, 1, 1, 1, 0, 1, 1/2, 1, 1, 1 → p_a = 9/11; and Σ_i r_ik/r_i per
	// category 1–5: 3, 3.25, 3.5, 1.25, 1 → π = those / 12.
	// Gwet's handbook uses this data set (irrCAC's cac.raw4raters); its
	// vignette prints for it pa = 0.8181818, pe = 0.1903212, AC1 = 0.77544.
	units := unitsFromCoders(krippendorff2011)
	pa := 9.0 / 11
	pi := []float64{3 / 12.0, 3.25 / 12, 3.5 / 12, 1.25 / 12, 1 / 12.0}
	peK, peG := 0.0, 0.0
	for _, p := range pi {
		peK += p * p
		peG += p * (1 - p) / 4
	}
	near(t, "Fleiss kappa", FleissKappa(units), (pa-peK)/(1-peK))
	ac1 := GwetAC1(units, 0)
	near(t, "Gwet AC1", ac1, (pa-peG)/(1-peG))
	if math.Abs(peG-0.1903212) > 1e-7 {
		t.Errorf("p_e = %.7f, not the published 0.1903212", peG)
	}
	if g, _ := ac1.Get(); math.Abs(g-0.77544) > 5e-6 {
		t.Errorf("AC1 = %.6f, not the published 0.77544", g)
	}
}

func TestUndefinedStatistics(t *testing.T) {
	same := [][]float64{{1, 1}, {1, 1, 1}, {1}}
	for _, m := range []Metric{MetricNominal, MetricOrdinal, MetricInterval, MetricRatio} {
		undefined(t, "alpha without variation, "+m.String(), KrippendorffAlpha(same, m))
		undefined(t, "alpha of unpairable data, "+m.String(), KrippendorffAlpha([][]float64{{1}, {2}, {}}, m))
	}
	undefined(t, "alpha of nothing", KrippendorffAlpha(nil, MetricInterval))
	undefined(t, "kappa with one category", FleissKappa(same))
	undefined(t, "kappa without pairs", FleissKappa([][]float64{{0}, {1}}))
	undefined(t, "AC1 with one category and q unknown", GwetAC1(same, 0))
	undefined(t, "ratio alpha of negative values", KrippendorffAlpha([][]float64{{-1, 2}, {3, 4}}, MetricRatio))
	// On a binary scale AC1 is defined without variation: p_e = 0, AC1 = p_a.
	near(t, "AC1 with one category, q = 2", GwetAC1(same, 2), 1)
	// Perfect agreement with variation: alpha = kappa = 1.
	perfect := [][]float64{{0, 0}, {1, 1, 1}, {0, 0}}
	near(t, "alpha perfect", KrippendorffAlpha(perfect, MetricNominal), 1)
	near(t, "kappa perfect", FleissKappa(perfect), 1)
}

func TestValueJSON(t *testing.T) {
	for _, tc := range []struct {
		v    Value
		want string
	}{
		{Defined(0.25), "0.25"},
		{Defined(0), "0"},
		{Undefined, `"undefined"`},
		{Defined(math.NaN()), `"undefined"`},
		{Defined(math.Inf(1)), `"undefined"`},
		{ratio(1, 0), `"undefined"`},
	} {
		b, err := json.Marshal(tc.v)
		if err != nil || string(b) != tc.want {
			t.Errorf("Marshal(%#v) = %s, %v; want %s", tc.v, b, err, tc.want)
		}
		var back Value
		if err := json.Unmarshal(b, &back); err != nil || back != tc.v && tc.v.OK() {
			t.Errorf("round trip of %s = %#v, %v", b, back, err)
		}
	}
	b, _ := json.Marshal(Interval{})
	if string(b) != `"undefined"` {
		t.Errorf("undefined interval marshals as %s", b)
	}
	b, _ = json.Marshal(Interval{Defined(0.1), Defined(0.2)})
	if string(b) != `[0.1,0.2]` {
		t.Errorf("interval marshals as %s", b)
	}
}

func TestClassRounding(t *testing.T) {
	// Process: the mean goes on 0–100, is rounded half up, then bucketed.
	for _, tc := range []struct {
		scores []int
		want   int
	}{
		{[]int{33, 34}, Moderate},     // 33.5 → 34
		{[]int{33, 33, 34}, Bad},      // 33.33 → 33
		{[]int{67, 68}, Good},         // 67.5 → 68
		{[]int{67, 67, 68}, Moderate}, // 67.33 → 67
		{[]int{0}, Bad},
		{[]int{100}, Good},
		{[]int{34}, Moderate},
		{[]int{68}, Good},
	} {
		var c cellStat
		for _, v := range tc.scores {
			c.add(v)
		}
		if got := c.class(TrackProcess); got != tc.want {
			t.Errorf("class(%v) = %s, want %s", tc.scores, BucketLabels[got], BucketLabels[tc.want])
		}
	}
	// Result: majority = 1 iff the mean ≥ 0.5.
	for _, tc := range []struct {
		scores []int
		want   int
	}{
		{[]int{1, 0}, 1}, {[]int{1, 0, 0}, 0}, {[]int{1, 1, 0}, 1}, {[]int{0}, 0}, {[]int{1}, 1},
	} {
		var c cellStat
		for _, v := range tc.scores {
			c.add(v)
		}
		if got := c.class(TrackResult); got != tc.want {
			t.Errorf("majority(%v) = %d, want %d", tc.scores, got, tc.want)
		}
	}
	if RoundHalfUp(33.5) != 34 || RoundHalfUp(66.5) != 67 || RoundHalfUp(33.49) != 33 {
		t.Error("RoundHalfUp does not round halves up")
	}
}

func TestPercentile(t *testing.T) {
	xs := []float64{1, 2, 3, 4, 5}
	for _, tc := range []struct{ p, want float64 }{{0, 1}, {1, 5}, {0.5, 3}, {0.25, 2}, {0.1, 1.4}} {
		if got := percentile(xs, tc.p); math.Abs(got-tc.want) > 1e-12 {
			t.Errorf("percentile(%v) = %v, want %v", tc.p, got, tc.want)
		}
	}
	iv := percentileInterval([]float64{math.NaN(), math.NaN(), 1}, 0.95)
	if iv.OK() {
		t.Error("an interval over mostly undefined replicates should be undefined")
	}
}

func TestBucketEdges(t *testing.T) {
	for score, want := range map[int]int{0: Bad, 33: Bad, 34: Moderate, 67: Moderate, 68: Good, 100: Good} {
		if got := Bucket(score); got != want {
			t.Errorf("Bucket(%d) = %d, want %d", score, got, want)
		}
	}
	if got := BucketRanges(); got != "bad 0–33, moderate 34–67, good 68–100" {
		t.Errorf("BucketRanges() = %q", got)
	}
}
