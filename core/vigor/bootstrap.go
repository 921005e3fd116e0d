package vigor

import (
	"context"
	"math"
	"math/rand/v2"
	"runtime"
	"sync"
	"sync/atomic"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/rng"
)

// ciLevel is the coverage of the bootstrap intervals.
const ciLevel = 0.95

// bootItem is one item's Table 2 sums over its dimensions, precomputed once
// so a replicate only adds numbers for the items it draws.
type bootItem struct {
	hVar float64
	hN   int
	j    [2]struct {
		cells, agree int
		abs, varJ    float64
		nVarJ        int
	}
}

// The statistics each replicate produces, per track.
const (
	bsHumanVar = iota
	bsMAE0     // without GT: MAE, accuracy, variance
	bsAcc0
	bsVar0
	bsMAE1 // with GT
	bsAcc1
	bsVar1
	bsDiffMAE // with − without
	bsDiffAcc
	bsDiffVar
	bsPerTrack
)

// bootstrap fills rep.CI. Items are resampled with replacement within each
// track (the tracks are separate populations of fixed size), all of an
// item's scores moving together. Replicate b draws from its own PCG stream
// seeded by (Seed, mix(b)), so the result does not depend on how the work
// is split across goroutines.
func (a *analysis) bootstrap(ctx context.Context, rep *Report, opt Options) error {
	B := max(opt.Replicates, 0)
	rep.CI = CIReport{Level: ciLevel, Replicates: B, Seed: opt.Seed,
		Method: "percentile; items resampled with replacement within each track"}

	// The resampling pools: per track, the items with at least one
	// (item, dimension) that has ≥ 2 human ratings — the others add nothing.
	var pools [2][]bootItem
	for i := range a.items {
		d := &a.items[i]
		var b bootItem
		for _, dim := range Dims {
			e := &d.ev[dim]
			if !e.hOK {
				continue
			}
			b.hVar += e.hVar
			b.hN++
			for c := range 2 {
				je := &e.j[c]
				if !je.ok {
					continue
				}
				bj := &b.j[c]
				bj.cells++
				bj.abs += je.abs
				if je.agree {
					bj.agree++
				}
				if je.varOK {
					bj.varJ += je.v
					bj.nVarJ++
				}
			}
		}
		if b.hN > 0 {
			ti := trackIndex(d.it.Track)
			pools[ti] = append(pools[ti], b)
		}
	}

	reps := make([][]float64, 2*bsPerTrack) // [track*bsPerTrack + stat][replicate]
	for i := range reps {
		reps[i] = make([]float64, B)
	}
	if B > 0 {
		if err := runReplicates(ctx, B, opt.Seed, opt.Progress, func(r *rand.Rand, b int) {
			for ti, pool := range pools {
				replicate(r, pool, reps[ti*bsPerTrack:(ti+1)*bsPerTrack], b)
			}
		}); err != nil {
			return err
		}
	}

	for _, t := range Tracks {
		ti := trackIndex(t)
		iv := func(stat int) Interval {
			if B == 0 {
				return Interval{}
			}
			return percentileInterval(reps[ti*bsPerTrack+stat], ciLevel)
		}
		h := byTrack(t, &rep.CI.Table2.HumanExperts.Process, &rep.CI.Table2.HumanExperts.Result)
		h.Variance = iv(bsHumanVar)
		if hc := rep.Table2.HumanExperts.Track(t); hc.MAE.OK() && B > 0 {
			h.MAE = Interval{Defined(0), Defined(0)}
			h.Accuracy = Interval{Defined(1), Defined(1)}
		}
		for c, cond := range Conditions {
			row := byCond(cond, &rep.CI.Table2.JudgeWithoutGT, &rep.CI.Table2.JudgeWithGT)
			cell := byTrack(t, &row.Process, &row.Result)
			cell.MAE, cell.Accuracy, cell.Variance = iv(bsMAE0+3*c), iv(bsAcc0+3*c), iv(bsVar0+3*c)
		}
		with, without := rep.Table2.JudgeWithGT.Track(t), rep.Table2.JudgeWithoutGT.Track(t)
		diff := byTrack(t, &rep.CI.WithMinusWithoutGT.Process, &rep.CI.WithMinusWithoutGT.Result)
		diff.MAE = Diff{Estimate: minus(with.MAE, without.MAE), CI: iv(bsDiffMAE)}
		diff.Accuracy = Diff{Estimate: minus(with.Accuracy, without.Accuracy), CI: iv(bsDiffAcc)}
		diff.Variance = Diff{Estimate: minus(with.Variance, without.Variance), CI: iv(bsDiffVar)}
	}
	return nil
}

func minus(x, y Value) Value {
	if !x.OK() || !y.OK() {
		return Undefined
	}
	return Defined(x.v - y.v)
}

// replicate draws len(pool) items with replacement and stores the track's
// statistics of replicate b in out[stat][b] (NaN where undefined).
func replicate(r *rand.Rand, pool []bootItem, out [][]float64, b int) {
	var hVar float64
	var hN int
	var j [2]struct {
		cells, agree int
		abs, varJ    float64
		nVarJ        int
	}
	n := len(pool)
	for range n {
		it := &pool[rng.Below(r, uint64(n))]
		hVar += it.hVar
		hN += it.hN
		for c := range 2 {
			j[c].cells += it.j[c].cells
			j[c].agree += it.j[c].agree
			j[c].abs += it.j[c].abs
			j[c].varJ += it.j[c].varJ
			j[c].nVarJ += it.j[c].nVarJ
		}
	}
	div := func(x float64, y int) float64 {
		if y == 0 {
			return math.NaN()
		}
		return x / float64(y)
	}
	out[bsHumanVar][b] = div(hVar, hN)
	var mae, acc, v [2]float64
	for c := range 2 {
		mae[c] = div(j[c].abs, j[c].cells)
		acc[c] = div(float64(j[c].agree), j[c].cells)
		v[c] = div(j[c].varJ, j[c].nVarJ)
		out[bsMAE0+3*c][b], out[bsAcc0+3*c][b], out[bsVar0+3*c][b] = mae[c], acc[c], v[c]
	}
	out[bsDiffMAE][b] = mae[1] - mae[0] // NaN propagates
	out[bsDiffAcc][b] = acc[1] - acc[0]
	out[bsDiffVar][b] = v[1] - v[0]
}

// replicateChunk is how many replicates a worker takes at a time; progress
// is reported per chunk.
const replicateChunk = 100

// runReplicates calls fn for replicates 0..B−1 on GOMAXPROCS goroutines,
// each replicate with its own deterministic PCG stream, reporting progress
// on the calling goroutine.
func runReplicates(ctx context.Context, B int, seed uint64, report progress.Func, fn func(r *rand.Rand, b int)) error {
	workers := min(runtime.GOMAXPROCS(0), (B+replicateChunk-1)/replicateChunk)
	var next atomic.Int64
	doneCh := make(chan int, workers)
	var wg sync.WaitGroup
	for range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			pcg := rand.NewPCG(0, 0)
			r := rand.New(pcg)
			for ctx.Err() == nil {
				start := int(next.Add(replicateChunk)) - replicateChunk
				if start >= B {
					return
				}
				end := min(start+replicateChunk, B)
				for b := start; b < end; b++ {
					pcg.Seed(seed, mix64(uint64(b)))
					fn(r, b)
				}
				doneCh <- end - start
			}
		}()
	}
	go func() { wg.Wait(); close(doneCh) }()
	done := 0
	for n := range doneCh {
		done += n
		report.Call(progress.Report{Done: int64(done), Total: int64(B)})
	}
	return ctx.Err()
}

// mix64 is SplitMix64's finaliser: it spreads consecutive replicate numbers
// over the PCG seed space so the streams are unrelated.
func mix64(x uint64) uint64 {
	x += 0x9e3779b97f4a7c15
	x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9
	x = (x ^ (x >> 27)) * 0x94d049bb133111eb
	return x ^ (x >> 31)
}
