package vigor

import (
	"slices"
)

// categorical holds what Fleiss' kappa and Gwet's AC1 share: the percent
// agreement p_a and the category prevalences π_k, computed as Gwet (2014,
// Handbook of Inter-Rater Reliability, 4th ed.) does for ratings with
// missing values — the formulation of his R package irrCAC:
//
//	p_a = mean over units with r_i ≥ 2 of Σ_k r_ik (r_ik − 1) / (r_i (r_i − 1))
//	π_k = mean over units with r_i ≥ 1 of r_ik / r_i
//
// With every unit rated by the same number of raters this is exactly
// Fleiss (1971).
type categorical struct {
	pa  float64
	pi  []float64
	ok  bool // some unit has two or more ratings
	cat int  // number of categories observed
}

func categorize(units [][]float64) categorical {
	var cats []float64
	for _, u := range units {
		cats = append(cats, u...)
	}
	slices.Sort(cats)
	cats = slices.Compact(cats)
	q := len(cats)
	pi := make([]float64, q)
	counts := make([]int, q)
	var sumPa float64
	n1, n2 := 0, 0
	for _, u := range units {
		ri := len(u)
		if ri == 0 {
			continue
		}
		clear(counts)
		for _, v := range u {
			k, _ := slices.BinarySearch(cats, v)
			counts[k]++
		}
		n1++
		for k, c := range counts {
			pi[k] += float64(c) / float64(ri)
		}
		if ri >= 2 {
			n2++
			agree := 0
			for _, c := range counts {
				agree += c * (c - 1)
			}
			sumPa += float64(agree) / float64(ri*(ri-1))
		}
	}
	if n2 == 0 {
		return categorical{cat: q}
	}
	for k := range pi {
		pi[k] /= float64(n1)
	}
	return categorical{pa: sumPa / float64(n2), pi: pi, ok: true, cat: q}
}

// FleissKappa computes Fleiss' kappa (Fleiss 1971) for nominal ratings
// given as units (the values each unit received; missing ratings left
// out), κ = (p_a − p_e) / (1 − p_e) with p_e = Σ π_k². Undefined when no
// unit has two ratings or when only one category occurs (p_e = 1).
func FleissKappa(units [][]float64) Value {
	c := categorize(units)
	if !c.ok {
		return Undefined
	}
	pe := 0.0
	for _, p := range c.pi {
		pe += p * p
	}
	if pe >= 1 {
		return Undefined
	}
	return Defined((c.pa - pe) / (1 - pe))
}

// GwetAC1 computes Gwet's AC1 (Gwet 2008, "Computing inter-rater
// reliability and its variance in the presence of high agreement", BJMSP
// 61:29–48) for nominal ratings given as units, with
// p_e = Σ π_k (1 − π_k) / (q − 1). q is the number of categories raters
// could choose from (2 for a binary scale); 0 means the number observed.
// Unlike kappa, AC1 stays defined when every rating is the same category,
// provided q ≥ 2 is known. Undefined when no unit has two ratings or q < 2.
func GwetAC1(units [][]float64, q int) Value {
	c := categorize(units)
	q = max(q, c.cat)
	if !c.ok || q < 2 {
		return Undefined
	}
	pe := 0.0
	for _, p := range c.pi {
		pe += p * (1 - p)
	}
	pe /= float64(q - 1)
	if pe >= 1 {
		return Undefined
	}
	return Defined((c.pa - pe) / (1 - pe))
}
