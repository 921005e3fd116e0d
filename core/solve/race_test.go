//go:build race

package solve

// raceEnabled shrinks the heaviest tests under the race detector, which
// slows this CPU-bound code about tenfold.
const raceEnabled = true
