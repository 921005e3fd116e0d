package solve

import (
	"math"
	"slices"
)

// Finding look-alikes (classes, twinLinks) compares rows of the matrices
// pair by pair: O(m²) comparisons, seconds at 64×64. Two pieces can only be
// alike when their rows agree at a few fixed key positions (all but the
// two pieces themselves), so the pieces are bucketed by their values there
// and only pieces of one bucket, or at a key position (where the key
// cannot be trusted), are compared. The answers are the pair-by-pair
// scan's (TestLookalikeBuckets).

// keyLen is the number of key positions, 0…keyLen−1.
const keyLen = 8

// keyBits is v's bits with −0 as +0, so that equal floats have equal keys;
// ok is false for NaN, which equals nothing.
func keyBits(v float32) (bits uint32, ok bool) {
	if v != v {
		return 0, false
	}
	if v == 0 {
		return 0, true
	}
	return math.Float32bits(v), true
}

// rowKey is the key of row x of the m×m matrices ds (keyLen values each),
// ok false when x is a key position or a key value is NaN: such a piece
// is compared with every candidate.
func rowKey(m, x int, ds ...[]float32) (key [2 * keyLen]uint32, ok bool) {
	if x < keyLen {
		return key, false
	}
	for i, d := range ds {
		for z := range keyLen {
			b, good := keyBits(d[x*m+z])
			if !good {
				return key, false
			}
			key[i*keyLen+z] = b
		}
	}
	return key, true
}

// classesBucketed is classes: the first representative (in ID order) whose
// row equals x's but at x and itself, among the representatives of x's
// bucket and the unkeyed ones.
func classesBucketed(m int, d []float32) []int {
	if m <= 4*keyLen {
		return classes(m, d)
	}
	class := make([]int, m)
	reps := map[[2 * keyLen]uint32][]int{}
	var loose []int // representatives without a key
	var cand []int
	for x := range m {
		key, ok := rowKey(m, x, d)
		cand = cand[:0]
		if ok {
			cand = append(cand, reps[key]...)
			cand = append(cand, loose...)
		} else {
			for _, list := range reps {
				cand = append(cand, list...)
			}
			cand = append(cand, loose...)
		}
		slices.Sort(cand)
		class[x] = x
		for _, y := range cand {
			if sameRow(m, d, x, y) {
				class[x] = y
				break
			}
		}
		if class[x] == x {
			if ok {
				reps[key] = append(reps[key], x)
			} else {
				loose = append(loose, x)
			}
		}
	}
	return class
}

// sameRow is classes' test: rows x and y of d are equal but at x and y.
func sameRow(m int, d []float32, x, y int) bool {
	rx, ry := d[x*m:(x+1)*m], d[y*m:(y+1)*m]
	for z := range m {
		if z != x && z != y && rx[z] != ry[z] {
			return false
		}
	}
	return true
}

// twinLinksBucketed is twinLinks: each piece's nearest earlier look-alike
// (alike), among the earlier pieces of its bucket (same sides, same right
// and down rows at the key positions) and the unkeyed ones.
func (a *assembly) twinLinksBucketed() []int {
	m := a.m
	if m <= 4*keyLen {
		return a.twinLinks()
	}
	type bucket struct {
		key   [2 * keyLen]uint32
		sides [4]uint8
	}
	prev := make([]int, m)
	seen := map[bucket][]int{}
	var loose, all, cand []int
	for x := range m {
		key, ok := rowKey(m, x, a.right, a.down)
		var bk bucket
		for s := range 4 {
			bk.sides[s] = uint8(a.sides[x][s])
		}
		bk.key = key
		cand = cand[:0]
		if ok {
			cand = append(cand, seen[bk]...)
			cand = append(cand, loose...)
			slices.Sort(cand)
		} else {
			cand = append(cand, all...) // every earlier piece, in order
		}
		prev[x] = -1
		for i := len(cand) - 1; i >= 0; i-- {
			if a.alike(x, cand[i]) {
				prev[x] = cand[i]
				break
			}
		}
		if ok {
			seen[bk] = append(seen[bk], x)
		} else {
			loose = append(loose, x)
		}
		all = append(all, x)
	}
	return prev
}
