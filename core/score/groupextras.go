package score

import (
	"bufio"
	"context"
	"fmt"
	"math/rand/v2"
	"slices"

	"github.com/jigbench/jigbench/core/rng"
)

// Estimate is a group mean with its bootstrap interval, over the N
// instances that have the value.
type Estimate struct {
	N    int      `json:"n"`
	Mean float64  `json:"mean"`
	CI   Interval `json:"ci"`
}

// RemainingGroup is a group's metrics on the remaining pieces, over the N
// instances with revealed pieces.
type RemainingGroup struct {
	N int `json:"n"`
	Metrics
	CI Intervals `json:"ci"`
}

// aggregateHintsAndExchange fills each group's PAExchangeable and Remaining
// from its instances. The bootstrap draws exactly as Aggregate does (same
// seed, stream and chunks), so when every instance of a group has the value
// the resamples are the very ones behind the group's other intervals.
func (r *Report) aggregateHintsAndExchange(ctx context.Context) error {
	type key struct {
		model, condition string
		grid             int
	}
	exch := map[key][][]float64{}
	rem := map[key][][]float64{}
	for _, s := range r.Instances {
		k := key{s.Model, s.Condition, s.Grid}
		if s.PAExchangeable != nil {
			exch[k] = append(exch[k], []float64{*s.PAExchangeable})
		}
		if s.Remaining != nil {
			v := metricVector(*s.Remaining)
			rem[k] = append(rem[k], v[:])
		}
	}
	for i := range r.Groups {
		g := &r.Groups[i]
		k := key{g.Model, g.Condition, g.Grid}
		stream := groupStream(g.Model, g.Grid, g.Condition)
		if vals := exch[k]; len(vals) > 0 {
			mean, ci, err := bootstrapRowMeans(ctx, vals, r.Bootstrap, stream)
			if err != nil {
				return err
			}
			g.PAExchangeable = &Estimate{N: len(vals), Mean: mean[0], CI: ci[0]}
		}
		if vals := rem[k]; len(vals) > 0 {
			mean, ci, err := bootstrapRowMeans(ctx, vals, r.Bootstrap, stream)
			if err != nil {
				return err
			}
			g.Remaining = &RemainingGroup{N: len(vals), Metrics: fromVector([5]float64(mean)),
				CI: Intervals{PA: ci[0], EM: ci[1], AA: ci[2], AADirected: ci[3], SC: ci[4]}}
		}
	}
	return nil
}

// bootstrapRowMeans returns the means of vals (one vector per instance, all of
// one length) and their percentile-bootstrap intervals, drawn as Aggregate
// draws: replicate chunk c from PCG(opt.Seed, stream+c), indices by below.
func bootstrapRowMeans(ctx context.Context, vals [][]float64, opt BootstrapOptions, stream uint64) (mean []float64, ci []Interval, err error) {
	opt = opt.withDefaults()
	width, n := len(vals[0]), len(vals)
	mean = make([]float64, width)
	for _, v := range vals {
		for j := range v {
			mean[j] += v[j]
		}
	}
	for j := range mean {
		mean[j] = min(1, max(0, mean[j]/float64(n)))
	}
	reps := make([][]float64, width) // [component][replicate]
	for j := range reps {
		reps[j] = make([]float64, opt.Replicates)
	}
	chunks := (opt.Replicates + replicateChunk - 1) / replicateChunk
	err = parallel(ctx, chunks, func(c int) {
		src := rand.NewPCG(opt.Seed, stream+uint64(c))
		sum := make([]float64, width)
		for rep := c * replicateChunk; rep < min((c+1)*replicateChunk, opt.Replicates); rep++ {
			clear(sum)
			for range n {
				v := vals[rng.Below(src, uint64(n))]
				for j := range sum {
					sum[j] += v[j]
				}
			}
			for j := range sum {
				reps[j][rep] = min(1, max(0, sum[j]/float64(n)))
			}
		}
	})
	if err != nil {
		return nil, nil, err
	}
	lo, hi := (1-opt.Level)/2, (1+opt.Level)/2
	ci = make([]Interval, width)
	for j, col := range reps {
		slices.Sort(col)
		ci[j] = Interval{quantile(col, lo), quantile(col, hi)}
	}
	return mean, ci, nil
}

// hasExtras reports whether any group has PA up to exchangeable pieces or
// metrics on the remaining pieces.
func (r *Report) hasExtras() (exchange, remaining bool) {
	for _, g := range r.Groups {
		exchange = exchange || g.PAExchangeable != nil
		remaining = remaining || g.Remaining != nil
	}
	return exchange, remaining
}

// writeExtrasTable appends the terminal table's sections for PA up to
// exchangeable pieces and for the remaining pieces, when there are any.
func (r *Report) writeExtrasTable(bw *bufio.Writer) {
	exchange, remaining := r.hasExtras()
	width := len("model")
	for _, g := range r.Groups {
		width = min(40, max(width, len([]rune(g.Model))))
	}
	if exchange {
		fmt.Fprintf(bw, "\nPA up to exchangeable pieces (a piece is right in any cell whose true piece is exchangeable with it)\n")
		fmt.Fprintf(bw, "%-*s %6s %-9s %5s %7s %7s\n", width, "model", "grid", "condition", "n", "PA", "PA-exch")
		for _, g := range r.Groups {
			if e := g.PAExchangeable; e != nil {
				fmt.Fprintf(bw, "%-*s %6s %-9s %5d %7s %7s\n", width, clip(g.Model, width), gridName(g.Grid), g.Condition, e.N, Percent(g.PA), Percent(e.Mean))
			}
		}
	}
	if remaining {
		fmt.Fprintf(bw, "\non the remaining pieces (the revealed ones left out)\n")
		fmt.Fprintf(bw, "%-*s %6s %-9s %5s", width, "model", "grid", "condition", "n")
		for _, t := range MetricTitles {
			fmt.Fprintf(bw, " %7s", t)
		}
		fmt.Fprintln(bw)
		for _, g := range r.Groups {
			if rg := g.Remaining; rg != nil {
				fmt.Fprintf(bw, "%-*s %6s %-9s %5d", width, clip(g.Model, width), gridName(g.Grid), g.Condition, rg.N)
				for _, v := range metricVector(rg.Metrics) {
					fmt.Fprintf(bw, " %7s", Percent(v))
				}
				fmt.Fprintln(bw)
			}
		}
	}
}

// writeExtrasMarkdown appends the Markdown sections of the same.
func (r *Report) writeExtrasMarkdown(bw *bufio.Writer) {
	exchange, remaining := r.hasExtras()
	if exchange {
		fmt.Fprintf(bw, "\n## PA up to exchangeable pieces\n\nA piece counts as right in any cell whose true piece is exchangeable with it (swapping them leaves the sheet byte-identical).\n\n")
		fmt.Fprintf(bw, "| model | grid | condition | n | PA | PA up to exchangeable pieces |\n|---|---|---|--:|--:|--:|\n")
		for _, g := range r.Groups {
			if e := g.PAExchangeable; e != nil {
				fmt.Fprintf(bw, "| %s | %d×%d | %s | %d | %s [%s, %s] | %s [%s, %s] |\n", mdEscape(g.Model), g.Grid, g.Grid, g.Condition, e.N,
					pct(g.PA), pct(g.CI.PA[0]), pct(g.CI.PA[1]), pct(e.Mean), pct(e.CI[0]), pct(e.CI[1]))
			}
		}
	}
	if remaining {
		fmt.Fprintf(bw, "\n## On the remaining pieces\n\nThe pieces the prompt revealed are left out: PA and EM over the others, AA and SC over the adjacencies and cell pairs not both revealed.\n\n")
		fmt.Fprintf(bw, "| model | grid | condition | n |")
		for _, t := range MetricTitles {
			fmt.Fprintf(bw, " %s |", t)
		}
		fmt.Fprintf(bw, "\n|---|---|---|--:|")
		for range MetricTitles {
			fmt.Fprintf(bw, "--:|")
		}
		fmt.Fprintln(bw)
		for _, g := range r.Groups {
			if rg := g.Remaining; rg != nil {
				fmt.Fprintf(bw, "| %s | %d×%d | %s | %d |", mdEscape(g.Model), g.Grid, g.Grid, g.Condition, rg.N)
				v, ci := metricVector(rg.Metrics), rg.CI.vector()
				for m := range v {
					fmt.Fprintf(bw, " %s [%s, %s] |", pct(v[m]), pct(ci[m][0]), pct(ci[m][1]))
				}
				fmt.Fprintln(bw)
			}
		}
	}
}
