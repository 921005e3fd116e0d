// Package rng holds the one bounded draw every seeded sampler in jigbench
// uses (puzzle permutations, score and agreement bootstraps), so a sequence
// never depends on a library's choice of algorithm.
package rng

import "math/bits"

// Source is what Below draws from: *math/rand/v2.Rand and *rand.PCG both fit.
type Source interface{ Uint64() uint64 }

// Below returns a uniform integer in [0, n) by Lemire's multiply-and-reject
// method ("Fast random integer generation in an interval", 2019). Unlike
// rand.Rand.IntN it takes the high word for every n, powers of two included.
// n must be positive.
func Below(r Source, n uint64) uint64 {
	hi, lo := bits.Mul64(r.Uint64(), n)
	if lo < n {
		threshold := -n % n
		for lo < threshold {
			hi, lo = bits.Mul64(r.Uint64(), n)
		}
	}
	return hi
}
