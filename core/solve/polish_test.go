package solve

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestRefillLinesRestoresLines: on grids of random seams whose true seams
// are the cheapest, the pieces of three rows, or of three columns, none
// beside another, each put in a random order within their line are all
// put back (a refill of rows alone would leave the columns).
func TestRefillLinesRestoresLines(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 13))
		n := 8 + int(seed%2)*4
		r := randomSeams(n, rng)
		a := newAssembly(n, make([]puzzle.Sides, n*n), &compatMatrix{m: n * n, d: [2][]float32{r.right, r.down}}, false)
		cells := identity(n * n)
		vertical := seed%4 >= 2
		for _, i := range []int{1, n / 2, n - 2} {
			line := make([]int, n)
			for j := range n {
				if !vertical {
					line[j] = i*n + j
				} else {
					line[j] = j*n + i
				}
			}
			order := rng.Perm(n)
			old := slices.Clone(cells)
			for j, c := range line {
				cells[c] = old[line[order[j]]]
			}
		}
		if slices.Equal(cells, identity(n*n)) {
			continue
		}
		if !a.refillLines(cells) {
			t.Fatalf("seed %d, %d×%d: no line refilled", seed, n, n)
		}
		if w := differ(cells, identity(n*n)); w > 0 {
			t.Errorf("seed %d, %d×%d: %d pieces still out of place", seed, n, n, w)
		}
	}
}

// TestPolishReachesFogAndReflections: the polish puts back the top rows of
// 16×16 misty-pines, whose fog holds each row's pieces in the wrong order
// (211 pieces before; the 12 left out are tied pairs of identical fog),
// and the block of 12×12 night-city's reflections two columns over (113
// before; the 6 left are a swap MGC and the side means price lower than
// the truth).
func TestPolishReachesFogAndReflections(t *testing.T) {
	for _, c := range []struct {
		scene string
		n     int
		least int // pieces in their cells
	}{{"misty-pines", 16, 244}, {"night-city", 12, 138}} {
		_, correct, _ := solveSheet(t, generateDemo(t, c.scene, c.n, 1), true)
		if correct < c.least {
			t.Errorf("%s %d×%d rect: %d pieces in their cells, want at least %d", c.scene, c.n, c.n, correct, c.least)
		}
	}
}
