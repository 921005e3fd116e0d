package score

import (
	"math"
	"strconv"
	"strings"
)

// MappingJSON writes a prediction in the answer format the prompts ask for,
// {"<id>": [row, col], …}, in ID order; Missing pieces are left out. pred[k]
// is piece k's cell index in an n×n grid. Solvers and simulated models
// write their answers with it.
func MappingJSON(pred []int, n int) string {
	var b strings.Builder
	b.WriteByte('{')
	first := true
	for k, c := range pred {
		if c < 0 {
			continue
		}
		if !first {
			b.WriteString(", ")
		}
		first = false
		b.WriteByte('"')
		b.WriteString(strconv.Itoa(k))
		b.WriteString(`": [`)
		b.WriteString(strconv.Itoa(c / n))
		b.WriteString(", ")
		b.WriteString(strconv.Itoa(c % n))
		b.WriteByte(']')
	}
	b.WriteByte('}')
	return b.String()
}

// Percent writes a fraction as a percentage with one decimal ("69.7%"): the
// format of every table in the terminal and in the app. A value above 0
// that would round to 0.0 is written "<0.1%", so it is not taken for none.
func Percent(x float64) string {
	if x > 0 && x < 0.0005 {
		return "<0.1%"
	}
	return percentNumber(x) + "%"
}

// PercentInterval writes an interval as "[62.1–77.0]": both ends in
// percent with one decimal, the precision of Percent.
func PercentInterval(iv Interval) string {
	return "[" + percentNumber(iv[0]) + "–" + percentNumber(iv[1]) + "]"
}

func percentNumber(x float64) string {
	s := strconv.FormatFloat(math.Round(x*1000)/10, 'f', 1, 64)
	if s == "-0.0" {
		return "0.0"
	}
	return s
}

// SignedPoints writes a difference of fractions in percentage points with
// one decimal and a sign ("+12.3", "-4.0", "0.0"), Percent's precision.
func SignedPoints(x float64) string { return withSign(percentNumber(x)) }

// withSign puts a "+" before a formatted number that is neither negative
// nor zero at the precision it is written with ("0.0", "0.00").
func withSign(s string) string {
	if s == "" || s[0] == '-' || strings.Trim(s, "0.") == "" {
		return s
	}
	return "+" + s
}

// PairedText writes a paired difference in percentage points as
// "+12.3 [+4.1, +20.0] p=.024" (p with three decimals, or "p<.001").
func PairedText(t PairedTest) string {
	p := "p<.001"
	if t.P >= 0.001 {
		p = "p=" + strings.TrimPrefix(strconv.FormatFloat(t.P, 'f', 3, 64), "0")
	}
	return SignedPoints(t.Diff) + " [" + SignedPoints(t.CI[0]) + ", " + SignedPoints(t.CI[1]) + "] " + p
}
