package score

import (
	"bytes"
	"context"
	"encoding/json"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/rng"
)

func TestSignFlipExactByHand(t *testing.T) {
	for _, c := range []struct {
		d    []float64
		want float64
	}{
		// ±1 ±2 ±3 ∈ {6, 4, 2, 0, 0, −2, −4, −6}: |sum| ≥ 6 twice in 8.
		{[]float64{1, 2, 3}, 2.0 / 8},
		// Zeros change nothing.
		{[]float64{0, 0.25, 0, 0.5, 0.75}, 2.0 / 8},
		// Five ±½: |#plus − #minus| ≥ 3 for #plus ∈ {0, 1, 4, 5}: 12 of 32.
		{[]float64{0.5, 0.5, 0.5, 0.5, -0.5}, 12.0 / 32},
		// Sum 0: every pattern reaches it.
		{[]float64{0.25, -0.25}, 1},
		{[]float64{0, 0}, 1},
		{nil, 1},
		// One difference: both patterns reach |d|.
		{[]float64{-1}, 1},
		// Sixteen equal differences (2^16 ≤ 100,000, still exact): only the
		// all-plus and all-minus patterns reach 16.
		{slices.Repeat([]float64{1.0 / 16}, 16), 2.0 / 65536},
	} {
		p, exact, _ := signFlipP(c.d, rand.NewPCG(1, 2))
		if !exact || math.Abs(p-c.want) > 1e-15 {
			t.Errorf("signFlipP(%v) = %v (exact %v), want %v", c.d, p, exact, c.want)
		}
	}
}

// bruteSignFlip counts every sign pattern of d directly.
func bruteSignFlip(d []float64) float64 {
	obs := 0.0
	for _, v := range d {
		obs += v
	}
	hits := 0
	for mask := range 1 << len(d) {
		s := 0.0
		for i, v := range d {
			if mask>>i&1 == 1 {
				s -= v
			} else {
				s += v
			}
		}
		if math.Abs(s) >= math.Abs(obs)-1e-9 {
			hits++
		}
	}
	return float64(hits) / float64(int(1)<<len(d))
}

func TestSignFlipAgainstBruteForce(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for trial := range 20 {
		n := 1 + trial%14
		d := make([]float64, n)
		for i := range d {
			d[i] = float64(rng.IntN(9)-3) / 16 // multiples of 1/16, some zero, some tied
		}
		p, exact, _ := signFlipP(d, rand.NewPCG(1, 2))
		if want := bruteSignFlip(d); !exact || math.Abs(p-want) > 1e-12 {
			t.Errorf("%v: p = %v (exact %v), brute force %v", d, p, exact, want)
		}
	}
	// Seventeen non-zero differences: 2^17 > 100,000, so random flips,
	// within sampling error of the exact value (sd ≈ 0.0015 here).
	d := []float64{3, -1, 2, 1, 1, -2, 1, 3, -1, 1, 2, -1, 1, 1, -3, 2, 1}
	for i := range d {
		d[i] /= 16
	}
	p, exact, flips := signFlipP(d, rand.NewPCG(1, 2))
	want := bruteSignFlip(d)
	if exact || flips != RandomFlips || math.Abs(p-want) > 0.01 {
		t.Errorf("17 differences: p = %v (exact %v, %d flips), brute force %v", p, exact, flips, want)
	}
	again, _, _ := signFlipP(d, rand.NewPCG(1, 2))
	if again != p {
		t.Error("random flips are not reproducible from the seed")
	}
}

// TestBootstrapMeansBruteForce checks the interval two ways: against the
// draw written out (same seed, same stream, same Lemire draws), exactly; and
// against the exact bootstrap distribution, all 4⁴ = 256 equally likely
// resamples enumerated, whose 2.5% and 97.5% points it must hit.
func TestBootstrapMeansBruteForce(t *testing.T) {
	// Cases where the exact distribution's CDF steps far across 0.025 and
	// 0.975, so 4000 replicates land on the exact points: (−1, −1, −1, .5)
	// gives [−1, .125] (CDF .949 below .125, .996 at it), (−1, −.5, −.5, −.5)
	// gives [−.875, −.5] (CDF .004 below −.875, .051 at it).
	for _, d := range [][]float64{{-1, -1, -1, 0.5}, {-1, -0.5, -0.5, -0.5}} {
		checkBootstrap(t, d)
	}
}

func checkBootstrap(t *testing.T, d []float64) {
	opt := BootstrapOptions{Replicates: 4000, Seed: 9}
	got := bootstrapMeans([][]float64{d, {1, 1, 1, 1}}, opt, 77)

	src := rand.NewPCG(9, 77)
	means := make([]float64, 4000)
	for r := range means {
		s := 0.0
		for range 4 {
			s += d[rng.Below(src, 4)]
		}
		means[r] = s / 4
	}
	slices.Sort(means)
	if want := (Interval{quantile(means, 0.025), quantile(means, 0.975)}); got[0] != want {
		t.Fatalf("%v: interval %v, written-out draw gives %v", d, got[0], want)
	}
	if got[1] != (Interval{1, 1}) {
		t.Errorf("a constant column's interval is %v", got[1])
	}

	var exact []float64
	for a := range 4 {
		for b := range 4 {
			for c := range 4 {
				for e := range 4 {
					exact = append(exact, (d[a]+d[b]+d[c]+d[e])/4)
				}
			}
		}
	}
	slices.Sort(exact)
	cdf := func(x float64) float64 {
		k, _ := slices.BinarySearch(exact, x+1e-12)
		return float64(k) / 256
	}
	lo, hi := exact[int(math.Ceil(0.025*256))-1], exact[int(math.Ceil(0.975*256))-1]
	if cdf(lo-1e-9) > 0.015 || cdf(lo) < 0.035 || cdf(hi-1e-9) > 0.965 || cdf(hi) < 0.985 {
		t.Fatalf("%v does not separate the quantiles: %v %v %v %v", d, cdf(lo-1e-9), cdf(lo), cdf(hi-1e-9), cdf(hi))
	}
	if math.Abs(got[0][0]-lo) > 1e-12 || math.Abs(got[0][1]-hi) > 1e-12 {
		t.Errorf("%v: interval %v, exact bootstrap [%v, %v]", d, got[0], lo, hi)
	}
}

// handScores: model m at 4×4. Shape answers a, b, c; rect answers b, c, d
// and misses a. PA per instance: shape a .5 b .75 c .25; rect b .25 c .5 d 1.
func handScores() []InstanceScore {
	s := func(model, id, cond string, pa float64, missing bool) InstanceScore {
		return InstanceScore{Model: model, ID: id, Grid: 4, Condition: cond, Valid: !missing, Missing: missing,
			Metrics: Metrics{PA: pa, EM: 0, AA: pa / 2, AADirected: pa / 4, SC: 0.5}}
	}
	return []InstanceScore{
		s("m", "a", "shape", 0.5, false), s("m", "b", "shape", 0.75, false), s("m", "c", "shape", 0.25, false),
		s("m", "a", "rect", 0, true), s("m", "b", "rect", 0.25, false), s("m", "c", "rect", 0.5, false), s("m", "d", "rect", 1, false),
		s("q", "a", "shape", 0.25, false), s("q", "b", "shape", 0.25, false),
	}
}

func TestAblateByHand(t *testing.T) {
	ab, notes, err := Ablate(context.Background(), handScores(), BootstrapOptions{Seed: 1})
	if err != nil || len(notes) != 0 {
		t.Fatal(err, notes)
	}
	if len(ab) != 1 {
		t.Fatalf("%d ablation rows, want 1 (q has no rect answers)", len(ab))
	}
	a := ab[0]
	// Pairs b (.75 − .25 = .5) and c (.25 − .5 = −.25): mean .125.
	if a.Model != "m" || a.Grid != 4 || a.Pairs != 2 || a.ShapeOnly != 1 || a.RectOnly != 1 {
		t.Fatalf("row %+v", a)
	}
	if a.PA.Diff != 0.125 || a.AA.Diff != 0.0625 || a.AADirected.Diff != 0.03125 || a.SC.Diff != 0 || a.EM.Diff != 0 {
		t.Errorf("diffs PA %v AA %v AA-dir %v SC %v EM %v", a.PA.Diff, a.AA.Diff, a.AADirected.Diff, a.SC.Diff, a.EM.Diff)
	}
	// Resamples of {.5, −.25}: means .5, .125, −.25 with probability ¼, ½, ¼,
	// so the 95% interval is [−.25, .5] (every bootstrap draw of 2000 hits
	// both ends far more than 2.5% of the time).
	if a.PA.CI != (Interval{-0.25, 0.5}) {
		t.Errorf("PA interval %v, want [−0.25, 0.5]", a.PA.CI)
	}
	// Sign flips of (.5, −.25): |±.5 ± .25| ∈ {.75, .25}; the observed .25 is
	// reached by all four patterns.
	if a.PA.P != 1 || !a.PA.Exact || a.PA.Flips != 4 {
		t.Errorf("PA p %v exact %v flips %d", a.PA.P, a.PA.Exact, a.PA.Flips)
	}
	if a.SC.P != 1 || a.SC.CI != (Interval{0, 0}) {
		t.Errorf("SC (no difference): p %v interval %v", a.SC.P, a.SC.CI)
	}
}

func TestCompareModelsByHand(t *testing.T) {
	c, err := CompareModels(context.Background(), handScores(), "m", "q", BootstrapOptions{Seed: 1})
	if err != nil {
		t.Fatal(err)
	}
	// Shape: a (.5 − .25) and b (.75 − .25); c only m. Rect: q has none.
	if len(c) != 1 || c[0].Condition != "shape" || c[0].Pairs != 2 || c[0].AOnly != 1 || c[0].BOnly != 0 {
		t.Fatalf("comparisons %+v", c)
	}
	if c[0].PA.Diff != 0.375 || c[0].PA.CI != (Interval{0.25, 0.5}) {
		t.Errorf("PA %v %v", c[0].PA.Diff, c[0].PA.CI)
	}
	// (.25, .5): |sum| = .75 only with equal signs: p = 2/4.
	if c[0].PA.P != 0.5 {
		t.Errorf("p %v, want 0.5", c[0].PA.P)
	}
	for _, bad := range [][2]string{{"m", "nobody"}, {"m", "m"}} {
		if _, err := CompareModels(context.Background(), handScores(), bad[0], bad[1], BootstrapOptions{}); err == nil {
			t.Errorf("compare %v: no error", bad)
		}
	}
}

func TestAboveChance(t *testing.T) {
	// GPT-5.5's 4×4 PA in the paper: (0.6965 − 1/16) / (15/16) = 0.634 / 0.9375.
	if got := AboveChance(0.6965, 1.0/16); math.Abs(got-0.6762666666666667) > 1e-12 {
		t.Errorf("above chance %v", got)
	}
	if AboveChance(0.2, 0.2) != 0 || AboveChance(1, 0.3) != 1 || AboveChance(0, 0.5) != -1 {
		t.Error("chance is not 0, perfect not 1, or zero not −b/(1−b)")
	}
	if !math.IsNaN(AboveChance(1, 1)) {
		t.Error("a baseline of 1 leaves nothing above chance")
	}
}

func TestPieceTypesByHand(t *testing.T) {
	// 3×3, piece k truly at cell k; the answer swaps the pieces of the two
	// top corners (cells 0 and 2) and places the rest right.
	tr := &Truth{ID: "t", Grid: 3, Cell: []int{0, 1, 2, 3, 4, 5, 6, 7, 8}, Sides: make([]puzzle.Sides, 9)}
	pred := []int{2, 1, 0, 3, 4, 5, 6, 7, 8}
	rates, counts := typeRates(tr, pred)
	// PA: corners 2/4, border 4/4, interior 1/1. Adjacencies: 8 touch a
	// corner, all 12 touch a border piece, 4 the centre. Lost: 0–3 (piece 0
	// now at cell 2, 3 at cell 3) and 2–5 (piece 2 at cell 0, 5 at cell 5);
	// 0–1 and 1–2 survive the swap.
	want := [6]float64{0.5, 1, 1, 6.0 / 8, 10.0 / 12, 1}
	wantCounts := [6]float64{4, 4, 1, 8, 12, 4}
	if rates != want || counts != wantCounts {
		t.Errorf("rates %v counts %v, want %v %v", rates, counts, want, wantCounts)
	}
	if r, _ := typeRates(tr, nil); r != [6]float64{} {
		t.Errorf("an invalid answer scores %v", r)
	}

	ts, _ := NewTruthSet(tr)
	rep := &Report{Truth: ts, Groups: []Group{{Model: "m", Grid: 3, Condition: "shape"}},
		Instances: []InstanceScore{{Model: "m", ID: "t", Grid: 3, Condition: "shape", Valid: true, Pred: pred}}}
	groups, err := rep.pieceTypeGroups()
	if err != nil || len(groups) != 1 || len(groups[0].Types) != 3 {
		t.Fatal(err, groups)
	}
	for i, w := range []struct {
		typ               string
		pieces            int
		pa, aa, typeAware float64
	}{{"corner", 4, 0.5, 0.75, 0.25}, {"border", 4, 1, 10.0 / 12, 0.25}, {"interior", 1, 1, 1, 1}} {
		g := groups[0].Types[i]
		if g.Type != w.typ || g.Pieces != w.pieces || g.PA != w.pa || g.AA != w.aa || g.TypeAwarePA != w.typeAware ||
			g.BaselinePA != 1.0/9 || g.BaselineAA != ExactBaseline(3).AA || g.PACI != (Interval{w.pa, w.pa}) {
			t.Errorf("type %d: %+v", i, g)
		}
	}
	for n, w := range map[int][3]int{2: {4, 0, 0}, 4: {4, 8, 4}, 16: {4, 56, 196}} {
		if got := [3]int{PieceTypeCount(Corner, n), PieceTypeCount(Border, n), PieceTypeCount(Interior, n)}; got != w {
			t.Errorf("%d×%d counts %v, want %v", n, n, got, w)
		}
	}
}

// TestReportAnalyses runs the whole path: a simulated model in both
// conditions, the ablation and piece types in the JSON, the table and the
// Markdown.
func TestReportAnalyses(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	var truths []*Truth
	for i := range 30 {
		truths = append(truths, randomTruth("p"+string(rune('a'+i/26))+string(rune('a'+i%26)), 4, rng))
	}
	ts, err := NewTruthSet(truths...)
	if err != nil {
		t.Fatal(err)
	}
	sets := []*AnswerSet{
		SimulateAnswers(ts, SimBorderAware, "shape", 1), SimulateAnswers(ts, SimRandom, "shape", 2),
		SimulateAnswers(ts, SimBorderAware, "rect", 3),
	}
	rep, err := EvaluateSets(context.Background(), ts, sets, Options{Bootstrap: BootstrapOptions{Seed: 5}}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if err := rep.Compare(context.Background(), SimBorderAware.Name, SimRandom.Name); err != nil {
		t.Fatal(err)
	}
	var js bytes.Buffer
	if err := rep.WriteJSON(&js); err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Ablation    []Ablation       `json:"ablation"`
		Comparisons []Comparison     `json:"comparisons"`
		PieceTypes  []PieceTypeGroup `json:"piece_types"`
	}
	if err := json.Unmarshal(js.Bytes(), &doc); err != nil {
		t.Fatal(err)
	}
	if len(doc.Ablation) != 1 || doc.Ablation[0].Pairs+doc.Ablation[0].ShapeOnly > 30 || len(doc.Comparisons) != 1 || len(doc.PieceTypes) != 3 {
		t.Fatalf("ablation %+v comparisons %d piece types %d", doc.Ablation, len(doc.Comparisons), len(doc.PieceTypes))
	}
	// The border-aware model: corners far above interior in both conditions.
	for _, g := range doc.PieceTypes {
		if g.Model == SimBorderAware.Name && !(g.Types[0].PA > 0.6 && g.Types[2].PA < 0.4) {
			t.Errorf("%s %s: corner PA %v interior %v", g.Model, g.Condition, g.Types[0].PA, g.Types[2].PA)
		}
	}
	var table, md bytes.Buffer
	rep.WriteTable(&table)
	rep.WriteMarkdown(&md)
	for _, want := range []string{"ablation: shape − rect", "model vs model: A − B", "piece types", "type-aware"} {
		if !strings.Contains(table.String(), want) {
			t.Errorf("table lacks %q", want)
		}
	}
	for _, want := range []string{"## Ablation: shape − rect", "## Model vs model", "## Piece types", "| simulated-border-aware | 4×4 | shape − rect |"} {
		if !strings.Contains(md.String(), want) {
			t.Errorf("Markdown lacks %q:\n%s", want, md.String())
		}
	}
	t.Log(table.String())
}

// BenchmarkAblate is one model × grid of the paper's size: 250 pairs, so
// every metric takes the 100,000 random sign flips.
func BenchmarkAblate(b *testing.B) {
	rng := rand.New(rand.NewPCG(1, 1))
	var scores []InstanceScore
	for i := range 250 {
		for _, cond := range []string{"shape", "rect"} {
			scores = append(scores, InstanceScore{Model: "m", ID: strconv.Itoa(i), Grid: 8, Condition: cond, Valid: true,
				Metrics: Metrics{PA: float64(rng.IntN(65)) / 64, EM: float64(rng.IntN(2)), AA: float64(rng.IntN(113)) / 112,
					AADirected: float64(rng.IntN(113)) / 112, SC: float64(rng.IntN(113)) / 112}})
		}
	}
	for b.Loop() {
		if _, _, err := Ablate(context.Background(), scores, BootstrapOptions{Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
