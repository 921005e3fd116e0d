package vigor

import (
	"fmt"
	"math"
	"slices"
	"strings"
)

// cellStat sums the integer scores one (item, dimension) received from one
// source (the humans, or one condition's judge runs). Keeping integer sums
// makes the rounding and majority rules exact.
type cellStat struct {
	n     int64
	sum   int64
	sumSq int64
}

func (c *cellStat) add(v int) {
	c.n++
	c.sum += int64(v)
	c.sumSq += int64(v) * int64(v)
}

// mean is the mean on the 0–1 scale (scale = the track's maximum).
func (c cellStat) mean(scale int) float64 {
	return float64(c.sum) / float64(c.n) / float64(scale)
}

// variance is the population (÷n) or sample (÷(n−1)) variance on the 0–1
// scale; ok is false for fewer than two scores.
func (c cellStat) variance(scale int, sample bool) (v float64, ok bool) {
	if c.n < 2 {
		return 0, false
	}
	num := float64(c.n*c.sumSq - c.sum*c.sum) // exact in int64 for our scales
	den := float64(c.n * c.n)
	if sample {
		den = float64(c.n * (c.n - 1))
	}
	return num / den / float64(scale*scale), true
}

// class is the category Table 2's accuracy compares: on the result track
// the majority (1 iff the mean ≥ 0.5), on the process track the bucket of
// the mean put on 0–100 and rounded half up (docs/metrics.md, "Agreement statistics").
func (c cellStat) class(t Track) int {
	if t == TrackResult {
		if 2*c.sum >= c.n {
			return 1
		}
		return 0
	}
	// round(sum/n) half up, in integers: floor((2·sum + n) / (2n)).
	return Bucket(int((2*c.sum + c.n) / (2 * c.n)))
}

// The process buckets.
const (
	Bad      = 0 // 0–33
	Moderate = 1 // 34–67
	Good     = 2 // 68–100
)

// MaxProcessScore is the top of the process track's 0–100 scale.
const MaxProcessScore = 100

// BucketLabels names the process buckets in order; BucketTops holds the
// highest score of each.
var (
	BucketLabels = [...]string{"bad", "moderate", "good"}
	BucketTops   = [...]int{33, 67, MaxProcessScore}
)

// Bucket puts a 0–100 integer score in Bad (0–33), Moderate (34–67) or
// Good (68–100).
func Bucket(score int) int {
	for b, top := range BucketTops[:len(BucketTops)-1] {
		if score <= top {
			return b
		}
	}
	return len(BucketTops) - 1
}

// BucketRanges spells the buckets for people: "bad 0–33, moderate 34–67,
// good 68–100".
func BucketRanges() string {
	var b strings.Builder
	lo := 0
	for i, top := range BucketTops {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, "%s %d–%d", BucketLabels[i], lo, top)
		lo = top + 1
	}
	return b.String()
}

// RoundHalfUp rounds a non-negative x to the nearest integer, halves up —
// the rule for putting a mean on the 0–100 scale before bucketing. Use it
// on values that are exact (a mean of integers is computed exactly by the
// statistics; this is for callers holding a float).
func RoundHalfUp(x float64) int { return int(math.Floor(x + 0.5)) }

// percentile returns the p-quantile (0 ≤ p ≤ 1) of sorted xs with linear
// interpolation between order statistics (R's type 7).
func percentile(sorted []float64, p float64) float64 {
	n := len(sorted)
	if n == 1 {
		return sorted[0]
	}
	h := p * float64(n-1)
	lo := int(math.Floor(h))
	if lo >= n-1 {
		return sorted[n-1]
	}
	return sorted[lo] + (h-float64(lo))*(sorted[lo+1]-sorted[lo])
}

// percentileInterval is the central (level) interval of the replicates that
// are defined (not NaN). It is undefined when fewer than half are defined:
// then the resamples mostly lack the data the statistic needs.
func percentileInterval(reps []float64, level float64) Interval {
	xs := make([]float64, 0, len(reps))
	for _, x := range reps {
		if !math.IsNaN(x) {
			xs = append(xs, x)
		}
	}
	if len(xs) == 0 || 2*len(xs) < len(reps) {
		return Interval{}
	}
	slices.Sort(xs)
	a := (1 - level) / 2
	return Interval{Lo: Defined(percentile(xs, a)), Hi: Defined(percentile(xs, 1-a))}
}
