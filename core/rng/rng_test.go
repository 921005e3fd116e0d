package rng

import (
	"math/rand/v2"
	"testing"
)

// fixed returns its values in turn.
type fixed []uint64

func (f *fixed) Uint64() uint64 { v := (*f)[0]; *f = (*f)[1:]; return v }

func TestBelowHandWorked(t *testing.T) {
	// 2^63 * 3 / 2^64 = 1.5 → high word 1.
	r := fixed{1 << 63}
	if got := Below(&r, 3); got != 1 {
		t.Fatalf("Below(2^63, 3) = %d, want 1", got)
	}
	// x = 1: low word 3 < threshold (2^64 mod 3 = 1)? 3 ≥ 1, so accepted: hi 0.
	r = fixed{1}
	if got := Below(&r, 3); got != 0 {
		t.Fatalf("Below(1, 3) = %d, want 0", got)
	}
	// x = 0: low word 0 < threshold 1 → rejected, the next draw decides.
	r = fixed{0, ^uint64(0)}
	if got := Below(&r, 3); got != 2 || len(r) != 0 {
		t.Fatalf("Below(0, max; 3) = %d with %d left, want 2 with 0", got, len(r))
	}
	// A power of two takes the high bits, not the low ones.
	r = fixed{0xC000_0000_0000_0001}
	if got := Below(&r, 4); got != 3 {
		t.Fatalf("Below(0xC0..01, 4) = %d, want 3", got)
	}
}

func TestBelowUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var counts [7]int
	const draws = 70000
	for range draws {
		counts[Below(r, 7)]++
	}
	for v, c := range counts {
		if c < draws/7-500 || c > draws/7+500 {
			t.Fatalf("value %d drawn %d times of %d, want about %d", v, c, draws, draws/7)
		}
	}
}
