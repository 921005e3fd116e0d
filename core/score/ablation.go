package score

import (
	"cmp"
	"context"
	"fmt"
	"math"
	"math/bits"
	"math/rand/v2"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/rng"
)

// Paired differences (docs/analysis.md §1): the shape ablation, shape − rect
// for one model and grid, and model vs model, A − B for one grid and
// condition, each over the instances both sides answered.

// MaxExactFlips is the most sign patterns the permutation test enumerates;
// with more it draws RandomFlips patterns instead.
const (
	MaxExactFlips = 100_000
	RandomFlips   = 100_000
)

// PairedTest is one metric's paired difference: the mean of d_i, its
// percentile-bootstrap interval over the pairs and the two-sided sign-flip
// permutation p-value.
type PairedTest struct {
	Diff float64  `json:"diff"`
	CI   Interval `json:"ci"`
	P    float64  `json:"p"`
	// Exact: P counts all 2^k sign patterns of the k non-zero differences;
	// otherwise it is (1 + hits) / (1 + RandomFlips) over seeded random
	// patterns. Flips is the number of patterns counted.
	Exact bool `json:"exact"`
	Flips int  `json:"flips"`
}

// PairedDiff is the paired difference of the five metrics over Pairs pairs.
type PairedDiff struct {
	Pairs      int        `json:"pairs"`
	PA         PairedTest `json:"pa"`
	EM         PairedTest `json:"em"`
	AA         PairedTest `json:"aa"`
	AADirected PairedTest `json:"aa_directed"`
	SC         PairedTest `json:"sc"`
}

func (d PairedDiff) vector() [5]PairedTest {
	return [5]PairedTest{d.PA, d.EM, d.AA, d.AADirected, d.SC}
}

// Ablation is shape − rect for one model and grid over the instances the
// model answered in both conditions. ShapeOnly and RectOnly count the
// instances answered in one condition only; they are left out.
type Ablation struct {
	Model     string `json:"model"`
	Grid      int    `json:"grid"`
	ShapeOnly int    `json:"shape_only"`
	RectOnly  int    `json:"rect_only"`
	PairedDiff
}

// Comparison is model A − model B for one grid and condition over the
// instances both answered. AOnly and BOnly count those only one answered.
type Comparison struct {
	A         string `json:"a"`
	B         string `json:"b"`
	Grid      int    `json:"grid"`
	Condition string `json:"condition"`
	AOnly     int    `json:"a_only"`
	BOnly     int    `json:"b_only"`
	PairedDiff
}

// answeredSide is one side of a pairing: a model's answered instances
// (Missing ones left out) at one grid and condition, by ID, in score order.
type answeredSide struct {
	ids  []string
	vals map[string][5]float64
}

func (s *answeredSide) add(sc *InstanceScore) {
	if s.vals == nil {
		s.vals = map[string][5]float64{}
	}
	if _, dup := s.vals[sc.ID]; !dup {
		s.ids = append(s.ids, sc.ID)
	}
	s.vals[sc.ID] = metricVector(sc.Metrics)
}

// pair returns d_i = a_i − b_i over the IDs both sides hold (in a's order),
// and how many IDs only a and only b hold.
func pair(a, b *answeredSide) (d [][5]float64, aOnly, bOnly int) {
	for _, id := range a.ids {
		bv, ok := b.vals[id]
		if !ok {
			aOnly++
			continue
		}
		av := a.vals[id]
		var di [5]float64
		for m := range di {
			di[m] = av[m] - bv[m]
		}
		d = append(d, di)
	}
	for _, id := range b.ids {
		if _, ok := a.vals[id]; !ok {
			bOnly++
		}
	}
	return d, aOnly, bOnly
}

// sideKey names one side: model, grid, condition.
type sideKey struct {
	model, condition string
	grid             int
}

// answeredSides collects every model × grid × condition's answered
// instances, and the models in order of first appearance.
func answeredSides(scores []InstanceScore) (map[sideKey]*answeredSide, []string) {
	sides := map[sideKey]*answeredSide{}
	var models []string
	for i := range scores {
		s := &scores[i]
		if !slices.Contains(models, s.Model) {
			models = append(models, s.Model)
		}
		if s.Missing {
			continue
		}
		k := sideKey{s.Model, s.Condition, s.Grid}
		if sides[k] == nil {
			sides[k] = &answeredSide{}
		}
		sides[k].add(s)
	}
	return sides, models
}

func sortedGrids(sides map[sideKey]*answeredSide) []int {
	seen := map[int]int{}
	for k := range sides {
		seen[k.grid]++
	}
	return sortedKeys(seen)
}

// Ablate computes shape − rect for every model and grid answered in both
// conditions (models in order of first appearance, grids ascending). A model
// and grid whose two conditions share no answered instance gives a note
// instead of a row.
func Ablate(ctx context.Context, scores []InstanceScore, opt BootstrapOptions) ([]Ablation, []string, error) {
	opt = opt.withDefaults()
	sides, models := answeredSides(scores)
	var out []Ablation
	var notes []string
	for _, model := range models {
		for _, grid := range sortedGrids(sides) {
			sh, re := sides[sideKey{model, puzzle.ConditionShape, grid}], sides[sideKey{model, puzzle.ConditionRect, grid}]
			if sh == nil || re == nil {
				continue
			}
			d, shapeOnly, rectOnly := pair(sh, re)
			if len(d) == 0 {
				notes = append(notes, fmt.Sprintf("%s answered no %d×%d instance in both conditions; no ablation for that grid", model, grid, grid))
				continue
			}
			pd, err := pairedDifference(ctx, d, opt, groupStream(model, grid, "ablation shape-rect"))
			if err != nil {
				return nil, nil, err
			}
			out = append(out, Ablation{Model: model, Grid: grid, ShapeOnly: shapeOnly, RectOnly: rectOnly, PairedDiff: pd})
		}
	}
	return out, notes, nil
}

// CompareModels computes a − b for every grid and condition both models
// answered (grids ascending, shape before rect).
func CompareModels(ctx context.Context, scores []InstanceScore, a, b string, opt BootstrapOptions) ([]Comparison, error) {
	opt = opt.withDefaults()
	sides, models := answeredSides(scores)
	for _, m := range []string{a, b} {
		if !slices.Contains(models, m) {
			return nil, fmt.Errorf("compare: no model %q among the scores", m)
		}
	}
	if a == b {
		return nil, fmt.Errorf("compare: %q is compared with itself; name two different models", a)
	}
	var keys []sideKey
	for k := range sides {
		if k.model == a {
			keys = append(keys, k)
		}
	}
	slices.SortFunc(keys, func(x, y sideKey) int {
		return cmp.Or(cmp.Compare(x.grid, y.grid), cmp.Compare(conditionRank(x.condition), conditionRank(y.condition)), cmp.Compare(x.condition, y.condition))
	})
	var out []Comparison
	for _, k := range keys {
		other := sides[sideKey{b, k.condition, k.grid}]
		if other == nil {
			continue
		}
		d, aOnly, bOnly := pair(sides[k], other)
		if len(d) == 0 {
			continue
		}
		pd, err := pairedDifference(ctx, d, opt, groupStream(a+"\x00"+b, k.grid, "compare "+k.condition))
		if err != nil {
			return nil, err
		}
		out = append(out, Comparison{A: a, B: b, Grid: k.grid, Condition: k.condition, AOnly: aOnly, BOnly: bOnly, PairedDiff: pd})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("compare: %s and %s answered no instance in common under one condition", a, b)
	}
	return out, nil
}

// conditionRank orders shape before rect before anything else.
func conditionRank(c string) int {
	switch c {
	case puzzle.ConditionShape:
		return 0
	case puzzle.ConditionRect:
		return 1
	}
	return 2
}

// pairedDifference summarises the differences d (one row per pair): means,
// bootstrap intervals from PCG(opt.Seed, stream), and for metric m the
// permutation test's random patterns, when needed, from
// PCG(opt.Seed, stream + 1 + m).
func pairedDifference(ctx context.Context, d [][5]float64, opt BootstrapOptions, stream uint64) (PairedDiff, error) {
	cols := make([][]float64, 5)
	for m := range cols {
		cols[m] = make([]float64, len(d))
		for i := range d {
			cols[m][i] = d[i][m]
		}
	}
	ci := bootstrapMeans(cols, opt, stream)
	var tests [5]PairedTest
	err := parallel(ctx, 5, func(m int) {
		p, exact, flips := signFlipP(cols[m], rand.NewPCG(opt.Seed, stream+1+uint64(m)))
		tests[m] = PairedTest{Diff: mean(cols[m]), CI: ci[m], P: p, Exact: exact, Flips: flips}
	})
	if err != nil {
		return PairedDiff{}, err
	}
	return PairedDiff{Pairs: len(d), PA: tests[0], EM: tests[1], AA: tests[2], AADirected: tests[3], SC: tests[4]}, nil
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	s := 0.0
	for _, v := range x {
		s += v
	}
	return s / float64(len(x))
}

// bootstrapMeans is the percentile bootstrap of the means of several columns
// of one sample (cols[j][i] is column j of row i): opt.Replicates times it
// draws len rows with replacement, the same rows for every column, by
// Lemire's method (below) from PCG(opt.Seed, stream), and records each
// column's mean; column j's interval is the (1−Level)/2 and (1+Level)/2
// quantiles of its means. An empty sample gives [0, 0].
func bootstrapMeans(cols [][]float64, opt BootstrapOptions, stream uint64) []Interval {
	opt = opt.withDefaults()
	out := make([]Interval, len(cols))
	if len(cols) == 0 || len(cols[0]) == 0 {
		return out
	}
	n := uint64(len(cols[0]))
	src := rand.NewPCG(opt.Seed, stream)
	means := make([][]float64, len(cols))
	for j := range means {
		means[j] = make([]float64, opt.Replicates)
	}
	sums := make([]float64, len(cols))
	for rep := range opt.Replicates {
		clear(sums)
		for range n {
			i := rng.Below(src, n)
			for j, c := range cols {
				sums[j] += c[i]
			}
		}
		for j := range cols {
			means[j][rep] = sums[j] / float64(n)
		}
	}
	lo, hi := (1-opt.Level)/2, (1+opt.Level)/2
	for j := range cols {
		slices.Sort(means[j])
		out[j] = Interval{quantile(means[j], lo), quantile(means[j], hi)}
	}
	return out
}

// signFlipP is the two-sided sign-flip permutation p-value of the mean of d:
// the share of sign patterns s with |Σ s_i d_i| ≥ |Σ d_i|. Zero differences
// are dropped first (flipping them changes nothing, so the p-value is the
// same); with k non-zero ones left, all 2^k patterns are counted when
// 2^k ≤ MaxExactFlips, otherwise RandomFlips patterns are drawn from rng (64
// signs per Uint64, low bit first) and p = (1 + hits) / (1 + RandomFlips).
// Sums within a relative 1e-9 of the observed one count as reaching it, so
// rounding does not decide ties.
func signFlipP(d []float64, rng *rand.PCG) (p float64, exact bool, flips int) {
	var nz []float64
	scale := 0.0
	for _, v := range d {
		if v != 0 {
			nz = append(nz, v)
			scale += math.Abs(v)
		}
	}
	k := len(nz)
	if k == 0 {
		return 1, true, 1
	}
	obs := 0.0
	for _, v := range nz {
		obs += v
	}
	threshold := math.Abs(obs) - 1e-9*scale
	if k < 63 && 1<<k <= MaxExactFlips {
		// Gray code: pattern g differs from the one before in one sign.
		total := 1 << k
		sum, hits := obs, 1
		sign := make([]float64, k)
		for i := range sign {
			sign[i] = 1
		}
		for g := 1; g < total; g++ {
			j := bits.TrailingZeros(uint(g))
			sum -= 2 * sign[j] * nz[j]
			sign[j] = -sign[j]
			if math.Abs(sum) >= threshold {
				hits++
			}
		}
		return float64(hits) / float64(total), true, total
	}
	// table[g][b] is the sum of the differences 8g…8g+7 whose bits are set
	// in b, so a pattern's flipped sum takes one look-up per 8 signs.
	table := make([][256]float64, (k+7)/8)
	for g := range table {
		for b := 1; b < 256; b++ {
			j := bits.TrailingZeros8(uint8(b))
			if i := 8*g + j; i < k {
				table[g][b] = table[g][b&(b-1)] + nz[i]
			} else {
				table[g][b] = table[g][b&(b-1)]
			}
		}
	}
	hits := 0
	for range RandomFlips {
		flipped := 0.0
		var word uint64
		for g := range table {
			if g%8 == 0 {
				word = rng.Uint64()
			}
			flipped += table[g][word&0xFF]
			word >>= 8
		}
		if math.Abs(obs-2*flipped) >= threshold {
			hits++
		}
	}
	return float64(1+hits) / float64(1+RandomFlips), false, RandomFlips
}

// Test is the paired test of metric m.
func (d PairedDiff) Test(m PlotMetric) PairedTest {
	if i := m.index(); i >= 0 {
		return d.vector()[i]
	}
	return PairedTest{}
}
