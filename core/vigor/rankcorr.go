package vigor

import (
	"math"
	"slices"
)

// KendallTauB is Kendall's τ-b between x and y (equal lengths): (C − D) /
// √((P − Tx)(P − Ty)) over the P = n(n−1)/2 pairs, where C and D count the
// concordant and discordant pairs and Tx, Ty the pairs tied in x, in y. It
// is undefined for fewer than two values or when either side is all tied
// (docs/vigor-campaign.md). The count is over every pair: rankings compare
// tens of models, not millions.
func KendallTauB(x, y []float64) Value {
	n := len(x)
	if n != len(y) || n < 2 {
		return Undefined
	}
	var c, d, tx, ty int
	for i := range n {
		for j := i + 1; j < n; j++ {
			sx, sy := sign(x[i]-x[j]), sign(y[i]-y[j])
			if sx == 0 {
				tx++
			}
			if sy == 0 {
				ty++
			}
			switch p := sx * sy; {
			case p > 0:
				c++
			case p < 0:
				d++
			}
		}
	}
	pairs := n * (n - 1) / 2
	den := math.Sqrt(float64(pairs-tx) * float64(pairs-ty))
	return ratio(float64(c-d), den)
}

// SpearmanRho is Spearman's ρ: Pearson's correlation of the average ranks
// (tied values share the mean of the ranks they span). Undefined for fewer
// than two values or when either side is all tied.
func SpearmanRho(x, y []float64) Value {
	if len(x) != len(y) || len(x) < 2 {
		return Undefined
	}
	return pearson(AverageRanks(x), AverageRanks(y))
}

// AverageRanks ranks xs from 1 (smallest) to n, giving tied values the
// mean of their ranks.
func AverageRanks(xs []float64) []float64 {
	idx := make([]int, len(xs))
	for i := range idx {
		idx[i] = i
	}
	slices.SortStableFunc(idx, func(a, b int) int { return sign(xs[a] - xs[b]) })
	ranks := make([]float64, len(xs))
	for lo := 0; lo < len(idx); {
		hi := lo + 1
		for hi < len(idx) && xs[idx[hi]] == xs[idx[lo]] {
			hi++
		}
		r := float64(lo+1+hi) / 2 // mean of ranks lo+1 … hi
		for _, k := range idx[lo:hi] {
			ranks[k] = r
		}
		lo = hi
	}
	return ranks
}

func pearson(x, y []float64) Value {
	n := float64(len(x))
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx, my = mx/n, my/n
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return Undefined
	}
	return Defined(sxy / math.Sqrt(sxx*syy))
}

func sign(x float64) int {
	switch {
	case x > 0:
		return 1
	case x < 0:
		return -1
	}
	return 0
}
