package vigor

import (
	"fmt"
	"slices"
)

// Metric is the level of measurement for Krippendorff's alpha.
type Metric int

// The four metrics of Krippendorff (2011).
const (
	MetricNominal Metric = iota
	MetricOrdinal
	MetricInterval
	MetricRatio
)

var metricNames = [...]string{"nominal", "ordinal", "interval", "ratio"}

func (m Metric) String() string {
	if m < 0 || int(m) >= len(metricNames) {
		return fmt.Sprintf("Metric(%d)", int(m))
	}
	return metricNames[m]
}

// ParseMetric parses "nominal", "ordinal", "interval" or "ratio".
func ParseMetric(s string) (Metric, error) {
	for i, n := range metricNames {
		if normKey(s) == n {
			return Metric(i), nil
		}
	}
	return 0, fmt.Errorf("unknown metric %q; want nominal, ordinal, interval or ratio", s)
}

// KrippendorffAlpha computes Krippendorff's alpha for reliability data given
// as units: units[u] holds the values the coders assigned to unit u, missing
// values simply left out. Units with fewer than two values are not pairable
// and do not count. It follows the coincidence-matrix formulation of
// Krippendorff (2011), "Computing Krippendorff's Alpha-Reliability":
//
//	α = 1 − (n − 1) · Σ o_ck δ²_ck / Σ n_c n_k δ²_ck
//
// Alpha is undefined when fewer than two pairable values exist or when the
// values do not vary (no expected disagreement). The ratio metric needs
// non-negative values; a negative one makes the result undefined.
func KrippendorffAlpha(units [][]float64, m Metric) Value {
	// The distinct values of the pairable units, sorted (ordinal needs the order).
	var vals []float64
	for _, u := range units {
		if len(u) >= 2 {
			vals = append(vals, u...)
		}
	}
	slices.Sort(vals)
	vals = slices.Compact(vals)
	V := len(vals)
	if V == 0 {
		return Undefined
	}
	if m == MetricRatio && vals[0] < 0 {
		return Undefined
	}
	index := func(v float64) int { i, _ := slices.BinarySearch(vals, v); return i }

	// Coincidence matrix: each ordered pair of values within a unit adds
	// 1/(m_u − 1).
	o := make([]float64, V*V)
	idx := make([]int, 0, 8)
	for _, u := range units {
		mu := len(u)
		if mu < 2 {
			continue
		}
		idx = idx[:0]
		for _, v := range u {
			idx = append(idx, index(v))
		}
		w := 1 / float64(mu-1)
		for i, c := range idx {
			for j, k := range idx {
				if i != j {
					o[c*V+k] += w
				}
			}
		}
	}
	nc := make([]float64, V)
	n := 0.0
	for c := range V {
		for k := range V {
			nc[c] += o[c*V+k]
		}
		n += nc[c]
	}
	if n < 2 {
		return Undefined
	}
	// cum[c] = n_0 + … + n_{c−1}, for the ordinal metric.
	cum := make([]float64, V+1)
	for c := range V {
		cum[c+1] = cum[c] + nc[c]
	}
	delta2 := func(c, k int) float64 {
		if c == k {
			return 0
		}
		switch m {
		case MetricNominal:
			return 1
		case MetricOrdinal:
			lo, hi := min(c, k), max(c, k)
			d := cum[hi+1] - cum[lo] - (nc[c]+nc[k])/2
			return d * d
		case MetricInterval:
			d := vals[c] - vals[k]
			return d * d
		case MetricRatio:
			d := (vals[c] - vals[k]) / (vals[c] + vals[k])
			return d * d
		}
		return 0
	}
	var do, de float64
	for c := range V {
		for k := range V {
			if c == k {
				continue
			}
			d := delta2(c, k)
			do += o[c*V+k] * d
			de += nc[c] * nc[k] * d
		}
	}
	if de == 0 {
		return Undefined
	}
	return Defined(1 - (n-1)*do/de)
}
