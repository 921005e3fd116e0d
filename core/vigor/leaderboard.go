package vigor

import (
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"slices"

	"github.com/jigbench/jigbench/core/progress"
)

// LeaderboardFormat tags the JSON leaderboard (docs/vigor-campaign.md).
const LeaderboardFormat = "jigbench.vigor-leaderboard/v1"

// DimAverage names the leaderboard column that averages an item's four
// dimensions (the paper's Table 3 "Avg").
const DimAverage = "average"

// LeaderboardOptions tune BuildLeaderboard.
type LeaderboardOptions struct {
	// Condition is the judge condition ranked; "" takes with_gt when the
	// input has it, else the first condition in order.
	Condition  Condition
	Replicates int           // bootstrap replicates; 0 skips the intervals
	Seed       uint64        // seeds the bootstrap (PCG)
	Progress   progress.Func // counts (scope, track) bootstraps
}

// Leaderboard is the paper's Table 3 twice over — the judge's and the
// humans' mean score per model — with the agreement of the two rankings.
type Leaderboard struct {
	Format    string          `json:"format"`
	Split     string          `json:"split"`
	Condition Condition       `json:"condition"`
	Runs      []int           `json:"runs"`
	CI        ConditionsCI    `json:"ci"`
	Entries   []LeaderEntry   `json:"entries"`
	Rankings  []RankAgreement `json:"rankings"`
}

// LeaderEntry is one model's score in one group, track and dimension.
// Judge is the mean over items of the mean over runs, Human the mean over
// items of the mean over raters, both over the same items: those with at
// least one human and one judge score for the dimension. Ranks are average
// ranks among the group's models, 1 for the highest score.
type LeaderEntry struct {
	By        string   `json:"by"` // "all", "domain" or "subdomain"
	Group     string   `json:"group"`
	Track     Track    `json:"track"`
	Dimension string   `json:"dimension"` // a dimension name or "average"
	Model     string   `json:"model"`
	Items     int      `json:"items"`
	Judge     Value    `json:"judge"`
	JudgeCI   Interval `json:"judge_ci"`
	Human     Value    `json:"human"`
	HumanCI   Interval `json:"human_ci"`
	JudgeRank Value    `json:"judge_rank"`
	HumanRank Value    `json:"human_rank"`
}

// RankAgreement compares the judge's and the humans' ranking of the models
// in one group, track and dimension; RunStability compares the rankings of
// every pair of judge runs.
type RankAgreement struct {
	By           string    `json:"by"`
	Group        string    `json:"group"`
	Track        Track     `json:"track"`
	Dimension    string    `json:"dimension"`
	Models       int       `json:"models"`
	KendallTauB  Value     `json:"kendall_tau_b"`
	KendallCI    Interval  `json:"kendall_tau_b_ci"`
	SpearmanRho  Value     `json:"spearman_rho"`
	SpearmanCI   Interval  `json:"spearman_rho_ci"`
	RunStability []RunPair `json:"run_stability"`
	MeanRunTau   Value     `json:"mean_run_tau_b"`
}

// RunPair is Kendall's τ-b between the model rankings of runs A and B.
type RunPair struct {
	A      int   `json:"a"`
	B      int   `json:"b"`
	Models int   `json:"models"`
	Tau    Value `json:"tau_b"`
}

// lbCols is the number of leaderboard columns: the dimensions and the average.
const lbCols = NumDims + 1

// lbItem is one item's leaderboard values per column (0–1 scale).
type lbItem struct {
	ok   [lbCols]bool
	h, j [lbCols]float64
	runs map[int]*[lbCols]float64 // run → its scores; NaN where not scored
}

// BuildLeaderboard computes the leaderboard of docs/vigor-campaign.md, "Leaderboard" for one judge
// condition. Intervals resample items with replacement within each model
// (the models keep their item counts), all of an item's scores moving
// together; Kendall's τ-b and Spearman's ρ are recomputed on every
// replicate's model means.
func BuildLeaderboard(ctx context.Context, in Input, opt LeaderboardOptions) (*Leaderboard, error) {
	cond := opt.Condition
	conds := OrderConditions(in.Judge)
	if cond == "" && len(conds) > 0 {
		cond = conds[0]
		if slices.Contains(conds, WithGT) {
			cond = WithGT
		}
	}
	if !slices.Contains(conds, cond) {
		return nil, fmt.Errorf("leaderboard: no judge records for condition %q (conditions: %s)", cond, joinConditions(conds))
	}
	a, err := prepareCondition(in, cond)
	if err != nil {
		return nil, err
	}
	B := max(opt.Replicates, 0)
	lb := &Leaderboard{Format: LeaderboardFormat, Split: a.sp.Name, Condition: cond, Runs: a.runs[1],
		CI: ConditionsCI{Level: ciLevel, Replicates: B, Seed: opt.Seed,
			Method: "percentile; items resampled with replacement within each model"},
		Entries: []LeaderEntry{}, Rankings: []RankAgreement{}}
	if lb.Runs == nil {
		lb.Runs = []int{}
	}

	items := make([]lbItem, len(a.items))
	for i := range a.items {
		items[i] = leaderItem(&a.items[i])
	}
	type scope struct {
		by, group string
		keep      func(*Item) bool
	}
	scopes := []scope{{"all", "all", func(*Item) bool { return true }}}
	for _, g := range groupKeys[:2] { // domain, subdomain
		set := make(map[string]bool)
		for i := range a.sp.Items {
			set[g.key(&a.sp.Items[i])] = true
		}
		for _, v := range sortedKeys(set) {
			key := g.key
			scopes = append(scopes, scope{g.by, groupName(v), func(it *Item) bool { return key(it) == v }})
		}
	}
	// Progress counts whole (scope, track) bootstraps.
	total, done := 0, 0
	for _, s := range scopes {
		for _, t := range Tracks {
			if hasTrack(a, t, s.keep) {
				total++
			}
		}
	}
	for _, s := range scopes {
		for _, t := range Tracks {
			if !hasTrack(a, t, s.keep) {
				continue
			}
			models := a.groupValues(t, func(it *Item) string { return it.Model })
			pools := make([][]*lbItem, 0, len(models))
			var names []string
			for _, m := range models {
				var pool []*lbItem
				for i := range a.items {
					it := a.items[i].it
					if it.Track == t && it.Model == m && s.keep(it) && items[i].any() {
						pool = append(pool, &items[i])
					}
				}
				if len(pool) > 0 {
					pools = append(pools, pool)
					names = append(names, groupName(m))
				}
			}
			if len(pools) == 0 {
				continue
			}
			if err := lb.addGroup(ctx, s.by, s.group, t, names, pools, B, opt.Seed); err != nil {
				return nil, err
			}
			done++
			opt.Progress.Call(progress.Report{Done: int64(done), Total: int64(total)})
		}
	}
	return lb, nil
}

func hasTrack(a *analysis, t Track, keep func(*Item) bool) bool {
	for i := range a.sp.Items {
		if it := &a.sp.Items[i]; it.Track == t && keep(it) {
			return true
		}
	}
	return false
}

func (it *lbItem) any() bool { return slices.Contains(it.ok[:], true) }

// leaderItem takes an item's human and judge means per dimension; the
// average column needs all four dimensions.
func leaderItem(d *itemData) lbItem {
	var li lbItem
	li.runs = make(map[int]*[lbCols]float64)
	all := true
	for _, dim := range Dims {
		h, j := d.human[dim], d.judge[1][dim]
		if h.n < 1 || j.n < 1 {
			all = false
			continue
		}
		li.ok[dim], li.h[dim], li.j[dim] = true, h.mean(d.scale), j.mean(d.scale)
		li.h[NumDims] += li.h[dim] / NumDims
		li.j[NumDims] += li.j[dim] / NumDims
		for _, sv := range d.judgeVals[1][dim] {
			r := li.runs[sv.who]
			if r == nil {
				r = new([lbCols]float64)
				for k := range r {
					r[k] = math.NaN()
				}
				li.runs[sv.who] = r
			}
			r[dim] = float64(sv.v) / float64(d.scale)
		}
	}
	li.ok[NumDims] = all
	if !all {
		li.h[NumDims], li.j[NumDims] = 0, 0
	}
	for _, r := range li.runs {
		sum, n := 0.0, 0
		for _, dim := range Dims {
			if !math.IsNaN(r[dim]) {
				sum += r[dim]
				n++
			}
		}
		if all && n == NumDims {
			r[NumDims] = sum / NumDims
		}
	}
	return li
}

// poolMeans is the mean human and judge value of column k over items
// (NaN where no item has the column).
func poolMeans(items []*lbItem, k int) (h, j float64, n int) {
	for _, it := range items {
		if it.ok[k] {
			h += it.h[k]
			j += it.j[k]
			n++
		}
	}
	if n == 0 {
		return math.NaN(), math.NaN(), 0
	}
	return h / float64(n), j / float64(n), n
}

// definedPairs keeps the positions where both x and y are numbers.
func definedPairs(x, y []float64) (xs, ys []float64) {
	for i := range x {
		if !math.IsNaN(x[i]) && !math.IsNaN(y[i]) {
			xs = append(xs, x[i])
			ys = append(ys, y[i])
		}
	}
	return xs, ys
}

func nanOf(v Value) float64 { return v.Or(math.NaN()) }

// addGroup adds one (scope, track)'s entries and rankings, with a
// bootstrap over its models' items.
func (lb *Leaderboard) addGroup(ctx context.Context, by, group string, t Track, models []string, pools [][]*lbItem, B int, seed uint64) error {
	M := len(models)
	// reps[k][m][0|1][b]: human, judge mean; rank[k][0|1][b]: τ-b, ρ.
	reps := make([][][2][]float64, lbCols)
	rank := make([][2][]float64, lbCols)
	for k := range lbCols {
		reps[k] = make([][2][]float64, M)
		for m := range M {
			reps[k][m] = [2][]float64{make([]float64, B), make([]float64, B)}
		}
		rank[k] = [2][]float64{make([]float64, B), make([]float64, B)}
	}
	if B > 0 {
		err := runReplicates(ctx, B, seed, nil, func(r *rand.Rand, b int) {
			var draw []*lbItem
			hm, jm := make([][lbCols]float64, M), make([][lbCols]float64, M)
			for m, pool := range pools {
				draw = draw[:0]
				for range pool {
					draw = append(draw, pool[r.IntN(len(pool))])
				}
				for k := range lbCols {
					hm[m][k], jm[m][k], _ = poolMeans(draw, k)
					reps[k][m][0][b], reps[k][m][1][b] = hm[m][k], jm[m][k]
				}
			}
			for k := range lbCols {
				hs, js := make([]float64, M), make([]float64, M)
				for m := range M {
					hs[m], js[m] = hm[m][k], jm[m][k]
				}
				x, y := definedPairs(js, hs)
				rank[k][0][b] = nanOf(KendallTauB(x, y))
				rank[k][1][b] = nanOf(SpearmanRho(x, y))
			}
		})
		if err != nil {
			return err
		}
	}
	iv := func(xs []float64) Interval {
		if B == 0 {
			return Interval{}
		}
		return percentileInterval(xs, ciLevel)
	}
	runs := lb.Runs
	for k := range lbCols {
		dim := DimAverage
		if k < NumDims {
			dim = Dim(k).Name(t)
		}
		hs, js := make([]float64, M), make([]float64, M)
		ns := make([]int, M)
		for m, pool := range pools {
			hs[m], js[m], ns[m] = poolMeans(pool, k)
		}
		jr, hr := ranksDesc(js), ranksDesc(hs)
		for m := range M {
			lb.Entries = append(lb.Entries, LeaderEntry{By: by, Group: group, Track: t, Dimension: dim, Model: models[m], Items: ns[m],
				Judge: Defined(js[m]), JudgeCI: iv(reps[k][m][1]), Human: Defined(hs[m]), HumanCI: iv(reps[k][m][0]),
				JudgeRank: Defined(jr[m]), HumanRank: Defined(hr[m])})
		}
		x, y := definedPairs(js, hs)
		ra := RankAgreement{By: by, Group: group, Track: t, Dimension: dim, Models: len(x),
			KendallTauB: KendallTauB(x, y), KendallCI: iv(rank[k][0]),
			SpearmanRho: SpearmanRho(x, y), SpearmanCI: iv(rank[k][1]), RunStability: []RunPair{}}
		// Each run's per-model means over the items it scored.
		runMeans := make([][]float64, len(runs))
		for ri, run := range runs {
			runMeans[ri] = make([]float64, M)
			for m, pool := range pools {
				sum, n := 0.0, 0
				for _, it := range pool {
					if v := it.runs[run]; it.ok[k] && v != nil && !math.IsNaN(v[k]) {
						sum += v[k]
						n++
					}
				}
				runMeans[ri][m] = math.NaN()
				if n > 0 {
					runMeans[ri][m] = sum / float64(n)
				}
			}
		}
		var tauSum float64
		var tauN int
		for i := range runs {
			for j := i + 1; j < len(runs); j++ {
				x, y := definedPairs(runMeans[i], runMeans[j])
				tau := KendallTauB(x, y)
				ra.RunStability = append(ra.RunStability, RunPair{A: runs[i], B: runs[j], Models: len(x), Tau: tau})
				if v, ok := tau.Get(); ok {
					tauSum += v
					tauN++
				}
			}
		}
		ra.MeanRunTau = ratio(tauSum, float64(tauN))
		lb.Rankings = append(lb.Rankings, ra)
	}
	return nil
}

// ranksDesc gives average ranks with 1 for the largest value; NaN stays
// NaN and is not ranked.
func ranksDesc(xs []float64) []float64 {
	var neg []float64
	var at []int
	for i, x := range xs {
		if !math.IsNaN(x) {
			neg = append(neg, -x)
			at = append(at, i)
		}
	}
	out := make([]float64, len(xs))
	for i := range out {
		out[i] = math.NaN()
	}
	for i, r := range AverageRanks(neg) {
		out[at[i]] = r
	}
	return out
}
