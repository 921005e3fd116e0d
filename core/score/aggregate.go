package score

import (
	"cmp"
	"context"
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"strconv"
	"sync/atomic"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/rng"
)

// Interval is a confidence interval [low, high].
type Interval [2]float64

// Intervals are the bootstrap intervals of the five metrics.
type Intervals struct {
	PA         Interval `json:"pa"`
	EM         Interval `json:"em"`
	AA         Interval `json:"aa"`
	AADirected Interval `json:"aa_directed"`
	SC         Interval `json:"sc"`
}

// GroupBaseline is the random-permutation expectation (ExactBaseline) shown
// beside a group.
type GroupBaseline struct {
	PA         float64 `json:"pa"`
	EM         float64 `json:"em"`
	AA         float64 `json:"aa"`
	AADirected float64 `json:"aa_directed"`
	SC         float64 `json:"sc"`
}

// BaselineOf is the exact random baseline for grid n.
func BaselineOf(n int) GroupBaseline {
	b := ExactBaseline(n)
	return GroupBaseline{PA: b.PA, EM: b.EM, AA: b.AA, AADirected: b.AADirected, SC: b.SC}
}

// Group aggregates one model × grid × condition: metric means over its
// instances (invalid ones count as 0), counts, bootstrap intervals and the
// random baseline.
type Group struct {
	Model     string `json:"model"`
	Grid      int    `json:"grid"`
	Condition string `json:"condition"`
	N         int    `json:"n"`
	Invalid   int    `json:"invalid"` // includes Missing
	Missing   int    `json:"missing"` // instances with no answer at all
	// UnknownIDs and BadPositions are summed over the valid answers.
	UnknownIDs   int `json:"unknown_ids"`
	BadPositions int `json:"bad_positions"`
	Metrics
	CI       Intervals     `json:"ci"`
	Baseline GroupBaseline `json:"baseline"`
	// PAExchangeable and Remaining summarise the instance fields of the
	// same names (groupextras.go); nil when no instance has them.
	PAExchangeable *Estimate       `json:"pa_exchangeable,omitempty"`
	Remaining      *RemainingGroup `json:"remaining,omitempty"`
	// Best marks, per metric in MetricTitles order, the best model of its
	// grid and condition (see markBest); not part of the JSON report.
	Best [5]bool `json:"-"`
}

// markBest sets Best: per metric, the groups with the highest mean among
// the groups of the same grid and condition, where there are at least two
// and the mean is above 0.
func markBest(groups []Group) {
	type block struct {
		grid int
		cond string
	}
	best := map[block][5]float64{}
	count := map[block]int{}
	for _, g := range groups {
		b := block{g.Grid, g.Condition}
		cur, v := best[b], metricVector(g.Metrics)
		for m := range v {
			if count[b] == 0 || v[m] > cur[m] {
				cur[m] = v[m]
			}
		}
		best[b] = cur
		count[b]++
	}
	for i := range groups {
		g := &groups[i]
		b := block{g.Grid, g.Condition}
		v := metricVector(g.Metrics)
		for m := range v {
			g.Best[m] = count[b] > 1 && v[m] == best[b][m] && v[m] > 0
		}
	}
}

// BootstrapOptions control the percentile bootstrap over instances.
type BootstrapOptions struct {
	Replicates int     `json:"replicates"` // at least MinReplicates
	Seed       uint64  `json:"seed"`
	Level      float64 `json:"level"` // 0.95 for 95% intervals
}

// MinReplicates is the fewest bootstrap replicates Aggregate draws.
const MinReplicates = 2000

func (o BootstrapOptions) withDefaults() BootstrapOptions {
	o.Replicates = max(o.Replicates, MinReplicates)
	if o.Level <= 0 || o.Level >= 1 {
		o.Level = 0.95
	}
	return o
}

// replicateChunk is how many replicates one generator draws; the chunks are
// the unit of parallel work, so results do not depend on the worker count.
const replicateChunk = 250

// Aggregate groups scores by model × grid × condition (models in order of
// first appearance, then grid, then shape before rect) and computes each
// group's means, counts and 95% percentile-bootstrap intervals.
//
// The bootstrap resamples a group's instances with replacement, Replicates
// times; each replicate's mean is recorded, and the interval is the
// (1−Level)/2 and (1+Level)/2 quantiles of those means (linear interpolation
// between order statistics). Replicates are drawn in chunks of 250, chunk c
// of a group from math/rand/v2 PCG(Seed, FNV-1a(model, grid, condition) + c),
// with indices drawn by Lemire's multiply-and-reject method, so the result
// depends only on the seed and the group's instances in order.
func Aggregate(ctx context.Context, scores []InstanceScore, opt BootstrapOptions, report progress.Func) ([]Group, error) {
	report = progress.Serial(report)
	opt = opt.withDefaults()
	type key struct {
		model, condition string
		grid             int
	}
	modelRank := map[string]int{}
	members := map[key][]int{}
	var keys []key
	for i, s := range scores {
		if _, ok := modelRank[s.Model]; !ok {
			modelRank[s.Model] = len(modelRank)
		}
		k := key{s.Model, s.Condition, s.Grid}
		if _, ok := members[k]; !ok {
			keys = append(keys, k)
		}
		members[k] = append(members[k], i)
	}
	slices.SortFunc(keys, func(a, b key) int {
		return cmp.Or(cmp.Compare(modelRank[a.model], modelRank[b.model]), cmp.Compare(a.grid, b.grid),
			cmp.Compare(conditionRank(a.condition), conditionRank(b.condition)), cmp.Compare(a.condition, b.condition))
	})

	groups := make([]Group, len(keys))
	values := make([][][5]float64, len(keys))
	for gi, k := range keys {
		g := Group{Model: k.model, Grid: k.grid, Condition: k.condition, Baseline: BaselineOf(k.grid)}
		vals := make([][5]float64, 0, len(members[k]))
		var sum [5]float64
		for _, i := range members[k] {
			s := &scores[i]
			g.N++
			if !s.Valid {
				g.Invalid++
			}
			if s.Missing {
				g.Missing++
			}
			g.UnknownIDs += s.UnknownIDs
			g.BadPositions += s.BadPositions
			v := metricVector(s.Metrics)
			for m := range v {
				sum[m] += v[m]
			}
			vals = append(vals, v)
		}
		g.Metrics = fromVector(meanOf(sum, g.N))
		groups[gi] = g
		values[gi] = vals
	}

	// Bootstrap: every (group, chunk) is one task.
	chunks := (opt.Replicates + replicateChunk - 1) / replicateChunk
	means := make([][][5]float64, len(keys)) // [group][replicate]
	for gi := range keys {
		means[gi] = make([][5]float64, opt.Replicates)
	}
	total := int64(len(keys) * chunks)
	var done atomic.Int64
	err := parallel(ctx, len(keys)*chunks, func(t int) {
		gi, c := t/chunks, t%chunks
		k := keys[gi]
		pcg := rand.NewPCG(opt.Seed, groupStream(k.model, k.grid, k.condition)+uint64(c))
		vals := values[gi]
		n := uint64(len(vals))
		for rep := c * replicateChunk; rep < min((c+1)*replicateChunk, opt.Replicates); rep++ {
			var sum [5]float64
			for range n {
				v := &vals[rng.Below(pcg, n)]
				sum[0] += v[0]
				sum[1] += v[1]
				sum[2] += v[2]
				sum[3] += v[3]
				sum[4] += v[4]
			}
			means[gi][rep] = meanOf(sum, int(n))
		}
		report(progress.Report{Stage: "bootstrap", Done: done.Add(1), Total: total})
	})
	if err != nil {
		return nil, err
	}
	lo, hi := (1-opt.Level)/2, (1+opt.Level)/2
	col := make([]float64, opt.Replicates)
	for gi := range groups {
		var iv [5]Interval
		for m := range 5 {
			for r := range col {
				col[r] = means[gi][r][m]
			}
			slices.Sort(col)
			iv[m] = Interval{quantile(col, lo), quantile(col, hi)}
		}
		groups[gi].CI = Intervals{PA: iv[0], EM: iv[1], AA: iv[2], AADirected: iv[3], SC: iv[4]}
	}
	return groups, nil
}

func metricVector(m Metrics) [5]float64 { return [5]float64{m.PA, m.EM, m.AA, m.AADirected, m.SC} }

func fromVector(v [5]float64) Metrics {
	return Metrics{PA: v[0], EM: v[1], AA: v[2], AADirected: v[3], SC: v[4]}
}

func meanOf(sum [5]float64, n int) [5]float64 {
	if n == 0 {
		return [5]float64{}
	}
	for m := range sum {
		sum[m] = min(1, max(0, sum[m]/float64(n)))
	}
	return sum
}

// groupStream is FNV-1a 64 of "model\x00grid\x00condition".
func groupStream(model string, grid int, condition string) uint64 {
	h := fnv.New64a()
	h.Write([]byte(model))
	h.Write([]byte{0})
	h.Write([]byte(strconv.Itoa(grid)))
	h.Write([]byte{0})
	h.Write([]byte(condition))
	return h.Sum64()
}

// quantile of sorted x at q in [0, 1], interpolating linearly between order
// statistics (Hyndman & Fan type 7).
func quantile(x []float64, q float64) float64 {
	if len(x) == 0 {
		return math.NaN()
	}
	h := q * float64(len(x)-1)
	i := int(math.Floor(h))
	if i >= len(x)-1 {
		return x[len(x)-1]
	}
	return x[i] + (h-float64(i))*(x[i+1]-x[i])
}
