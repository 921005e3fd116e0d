package solve

import (
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// randomRectAssembly is randomSeams made a rect sheet's assembly, with the
// index the refill beam reads.
func randomRectAssembly(n int, rng *rand.Rand) *assembly {
	r := randomSeams(n, rng)
	return newAssembly(n, make([]puzzle.Sides, n*n), &compatMatrix{m: n * n, d: [2][]float32{r.right, r.down}}, false)
}

// TestRefillLinesRestoresLines: on grids of random seams whose true seams
// are the cheapest, the pieces of three rows, or of three columns, none
// beside another, each put in a random order within their line are all
// put back (a refill of rows alone would leave the columns).
func TestRefillLinesRestoresLines(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 13))
		n := 8 + int(seed%2)*4
		a := randomRectAssembly(n, rng)
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

// TestTurnAndRefillRestoresWrappedBand: on grids of random seams whose true
// seams are the cheapest, a band of whole rows (of columns) turned round
// its wrap, its last line turned only in part — some of its pieces left in
// place, the rest in another order — is put back by a band turn and the
// refill of a line at its edge, which neither makes alone.
func TestTurnAndRefillRestoresWrappedBand(t *testing.T) {
	for seed := range uint64(8) {
		rng := rand.New(rand.NewPCG(seed, 17))
		n := 8 + int(seed%2)*4
		a := randomRectAssembly(n, rng)
		vertical := seed%4 >= 2
		thick, shift := 2+rng.IntN(n/2), 1+rng.IntN(n-1)
		cells := turnBand(n, identity(n*n), vertical, 0, thick, 0, n, shift)
		// The band's last line: three of its pieces back in their cells,
		// the others shuffled over the cells left.
		last := make([]int, n) // its cells, which are also its true pieces
		for j := range n {
			if vertical {
				last[j] = j*n + thick - 1
			} else {
				last[j] = (thick-1)*n + j
			}
		}
		home := rng.Perm(n)[:3]
		var free, pieces []int
		for j, c := range last {
			if slices.Contains(home, j) {
				cells[c] = c
			} else {
				free, pieces = append(free, c), append(pieces, c)
			}
		}
		rng.Shuffle(len(pieces), func(i, j int) { pieces[i], pieces[j] = pieces[j], pieces[i] })
		for k, c := range free {
			cells[c] = pieces[k]
		}
		got := a.turnAndRefill(cells)
		if w := differ(got, identity(n*n)); w > 0 {
			t.Errorf("seed %d, %d×%d, vertical %v, %d lines turned by %d: %d pieces out of place", seed, n, n, vertical, thick, shift, w)
		}
	}
}

// TestPolishReachesFogAndReflections: the polish puts back the top rows of
// 16×16 misty-pines, whose fog holds each row's pieces in the wrong order
// (211 pieces before; the 12 left out are tied pairs of identical fog),
// the block of 12×12 night-city's reflections two columns over (113
// before; the 6 left are a swap MGC and the side means price lower than
// the truth) and, under another shuffle (seed 5), misty-pines 12×12's top
// five rows five columns over but for six pieces of the fifth (85 before;
// turnAndRefill); under seed 7, 16×16 misty-pines's fog rows three columns
// round their wrap, which a band turn puts back only once the rows are
// refilled (155 before; the turns tried again, polishTurnRounds).
func TestPolishReachesFogAndReflections(t *testing.T) {
	for _, c := range []struct {
		scene string
		n     int
		seed  uint64
		least int // pieces in their cells
	}{{"misty-pines", 16, 1, 244}, {"night-city", 12, 1, 138}, {"misty-pines", 12, 5, 142}, {"misty-pines", 16, 7, 225}} {
		_, correct, _ := solveSheet(t, generateDemo(t, c.scene, c.n, c.seed), true)
		if correct < c.least {
			t.Errorf("%s %d×%d rect, seed %d: %d pieces in their cells, want at least %d", c.scene, c.n, c.n, c.seed, correct, c.least)
		}
	}
}
