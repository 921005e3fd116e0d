package vigor

import (
	"bytes"
	"context"
	"fmt"
	"math"
	"math/rand/v2"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
)

// SimConfig describes a simulated study: annotators and judge runs scoring
// a split around a hidden "true" quality per (item, dimension). It feeds
// the demo split and the benchmarks; everything it makes is named as
// simulated.
type SimConfig struct {
	Seed       uint64
	Annotators int // default 3
	Runs       int // judge runs per condition, default 3
	// Noise is the standard deviation, on the 0–1 scale, of a human's
	// score around the true quality; the judge has more without ground
	// truth than with it. Zero values take defaults (0.10, 0.15, 0.22).
	HumanNoise, JudgeNoiseWithGT, JudgeNoiseWithoutGT float64
	// Quality, when set, gives the true quality (0–1) of an item's
	// dimensions instead of a random draw — the demo knows how good each
	// of its outputs really is.
	Quality func(it *Item) [NumDims]float64
}

func (c SimConfig) withDefaults() SimConfig {
	if c.Annotators == 0 {
		c.Annotators = 3
	}
	if c.Runs == 0 {
		c.Runs = 3
	}
	if c.HumanNoise == 0 {
		c.HumanNoise = 0.10
	}
	if c.JudgeNoiseWithGT == 0 {
		c.JudgeNoiseWithGT = 0.15
	}
	if c.JudgeNoiseWithoutGT == 0 {
		c.JudgeNoiseWithoutGT = 0.22
	}
	return c
}

// SimAnnotator names the i-th (0-based) simulated annotator.
func SimAnnotator(i int) string { return fmt.Sprintf("simulated-annotator-%d", i+1) }

// Simulate returns simulated human ratings and judge runs (both
// conditions) for every item of sp. The same config gives the same data.
func Simulate(sp *Split, cfg SimConfig) ([]Rating, []JudgeRecord) {
	cfg = cfg.withDefaults()
	r := rand.New(rand.NewPCG(cfg.Seed, 0x73696d)) // "sim"
	stamp := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var humans []Rating
	var judge []JudgeRecord
	score := func(t Track, q, noise, bias float64) int {
		x := q + bias + noise*r.NormFloat64()
		if t == TrackResult {
			if x >= 0.5 {
				return 1
			}
			return 0
		}
		return int(math.Round(100 * min(max(x, 0), 1)))
	}
	for i := range sp.Items {
		it := &sp.Items[i]
		var truth [NumDims]float64
		for d := range truth {
			// Visual quality is usually good, reasoning usually poor (the
			// paper's "illusion of reasoning").
			a, b := 2.0, 2.0
			switch Dim(d) {
			case VisualQuality:
				a, b = 4, 1.5
			case Reasoning:
				a, b = 1.2, 3
			}
			truth[d] = betaSample(r, a, b)
		}
		if cfg.Quality != nil {
			truth = cfg.Quality(it)
		}
		for h := range cfg.Annotators {
			rt := Rating{Split: sp.Name, Item: it.ID, Annotator: SimAnnotator(h), Updated: stamp, Created: stamp}
			for _, d := range Dims {
				rt.Scores[d] = score(it.Track, truth[d], cfg.HumanNoise, 0)
			}
			humans = append(humans, rt)
		}
		for _, cond := range Conditions {
			noise, bias := cfg.JudgeNoiseWithGT, 0.02
			if cond == WithoutGT {
				noise, bias = cfg.JudgeNoiseWithoutGT, 0.08 // lenient without a reference
			}
			for run := 1; run <= cfg.Runs; run++ {
				jr := JudgeRecord{Item: it.ID, Run: run, Condition: cond, Source: "simulated"}
				for _, d := range Dims {
					jr.Scores[d] = score(it.Track, truth[d], noise, bias)
				}
				judge = append(judge, jr)
			}
		}
	}
	return humans, judge
}

// betaSample draws from Beta(a, b) via two gamma draws (a, b ≥ 1).
func betaSample(r *rand.Rand, a, b float64) float64 {
	x, y := gammaSample(r, a), gammaSample(r, b)
	return x / (x + y)
}

// gammaSample draws from Gamma(k, 1), k ≥ 1 (Marsaglia and Tsang 2000).
func gammaSample(r *rand.Rand, k float64) float64 {
	d := k - 1.0/3
	c := 1 / math.Sqrt(9*d)
	for {
		x := r.NormFloat64()
		v := 1 + c*x
		if v <= 0 {
			continue
		}
		v = v * v * v
		u := r.Float64()
		if math.Log(u) < 0.5*x*x+d-d*v+d*math.Log(v) {
			return d * v
		}
	}
}

// Subdomains of the paper's three domains, for synthetic splits.
var simDomains = []struct {
	domain     string
	subdomains []string
}{
	{"Physical", []string{"Sorting", "Stacking", "Tool Use", "Navigation", "Assembly", "Cleaning", "Cooking"}},
	{"Knowledge", []string{"Biology", "Geography", "History", "Chemistry", "Physics Diagram", "Astronomy"}},
	{"Symbolic", []string{"Jigsaw Puzzle", "Sudoku", "Maze Navigation", "Algebra", "Function Plotting", "Tangram", "Counting"}},
}

// SyntheticSplit builds an in-memory split of nResult result and nProcess
// process items spread over the paper's domains and ten models. It names
// no files: it is for statistics only (LoadMeta-level).
func SyntheticSplit(name string, nResult, nProcess int) *Split {
	sp := &Split{Format: SplitFormat, Name: name, index: make(map[string]int)}
	var subs [][2]string
	for _, d := range simDomains {
		for _, s := range d.subdomains {
			subs = append(subs, [2]string{d.domain, s})
		}
	}
	add := func(prefix string, t Track, n int) {
		for i := range n {
			ds := subs[i%len(subs)]
			it := Item{ID: fmt.Sprintf("%s-%04d", prefix, i+1), Track: t, Domain: ds[0], Subdomain: ds[1],
				Model: fmt.Sprintf("model-%02d", i%10+1), Instruction: "simulated", Input: "in.png", GTText: "simulated"}
			if t == TrackResult {
				it.Output = "out.png"
			} else {
				it.Frames = []string{"f0.png", "f1.png"}
			}
			sp.index[it.ID] = len(sp.Items)
			sp.Items = append(sp.Items, it)
		}
	}
	add("r", TrackResult, nResult)
	add("p", TrackProcess, nProcess)
	// Its files are imaginary: its identity hashes their names instead.
	sp.digest, _ = sp.canonicalDigest(func(p string) (string, error) { return "synthetic " + p, nil })
	return sp
}

// PaperStudy is a synthetic study the size of the paper's reliability
// analysis: 1,080 result and 540 process items, three annotators, three
// judge runs per condition.
func PaperStudy(seed uint64) Input {
	sp := SyntheticSplit("simulated-paper-size", 1080, 540)
	h, j := Simulate(sp, SimConfig{Seed: seed})
	return Input{Split: sp, Humans: h, Judge: j}
}

// BenchAgreement times the full analysis of PaperStudy with
// DefaultReplicates bootstrap replicates, and beside it the floor: the same
// analysis without the bootstrap. Each is the best of three runs.
func BenchAgreement(ctx context.Context) (full, floor time.Duration, err error) {
	in := PaperStudy(1)
	best := func(replicates int) (time.Duration, error) {
		b := time.Duration(math.MaxInt64)
		for range 3 {
			start := time.Now()
			if _, err := Analyze(ctx, in, Options{Replicates: replicates, Seed: 1}); err != nil {
				return 0, err
			}
			b = min(b, time.Since(start))
		}
		return b, nil
	}
	if floor, err = best(0); err != nil {
		return 0, 0, err
	}
	if full, err = best(DefaultReplicates); err != nil {
		return 0, 0, err
	}
	return full, floor, nil
}

// WriteJudgeFile writes records as a JSONL judge-run file, atomically.
func WriteJudgeFile(path string, sp *Split, records []JudgeRecord) error {
	var buf bytes.Buffer
	if err := WriteJudge(&buf, sp, records); err != nil {
		return err
	}
	return fsutil.WriteFile(path, buf.Bytes())
}
