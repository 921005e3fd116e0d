package solve

import (
	"math"
	"math/rand/v2"

	"github.com/jigbench/jigbench/core/puzzle"
)

// annealLayout looks for a signature layout by local search over the
// internal edges' polarities instead of cell by cell: any choice of
// polarities interlocks everywhere, so only the multiset of the cells'
// signatures has to match the pieces'. It flips one edge at a time, keeping
// flips that bring the multisets closer and, with a probability that cools,
// some that do not. Backtracking has heavy-tailed running times on large
// grids (a wrong choice early is refuted rows later); this has none of that,
// but may not converge, and then returns nil.
func annealLayout(n int, sides []puzzle.Sides, seed uint64, maxFlips int) []int {
	var want [81]int
	for _, sd := range sides {
		want[sigCode(sd)]++
	}
	// h[r][c] is the edge right of (r, c): true = tab on the left piece's
	// right side; v[r][c] the edge below (r, c): true = tab on the upper
	// piece's bottom side.
	h := make([]bool, n*(n-1))
	v := make([]bool, (n-1)*n)
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	for i := range h {
		h[i] = rng.Uint64()&1 == 1
	}
	for i := range v {
		v[i] = rng.Uint64()&1 == 1
	}
	code := func(r, c int) int {
		var sd puzzle.Sides
		if r > 0 {
			sd[puzzle.Top] = tabSide(!v[(r-1)*n+c])
		}
		if c < n-1 {
			sd[puzzle.Right] = tabSide(h[r*(n-1)+c])
		}
		if r < n-1 {
			sd[puzzle.Bottom] = tabSide(v[r*n+c])
		}
		if c > 0 {
			sd[puzzle.Left] = tabSide(!h[r*(n-1)+c-1])
		}
		return sigCode(sd)
	}
	cells := make([]int, n*n)
	var have [81]int
	for r := range n {
		for c := range n {
			cells[r*n+c] = code(r, c)
			have[cells[r*n+c]]++
		}
	}
	dist := 0
	for k := range have {
		dist += abs(have[k] - want[k])
	}
	// delta of moving one cell from code a to code b.
	move := func(a, b int, d int) int {
		before := abs(have[a]-want[a]) + abs(have[b]-want[b])
		have[a] -= d
		have[b] += d
		after := abs(have[a]-want[a]) + abs(have[b]-want[b])
		return after - before
	}
	edges := len(h) + len(v)
	temp := 0.0
	for flip := 0; flip < maxFlips && dist > 0; flip++ {
		if sweep := flip / edges; flip%edges == 0 {
			// Cool from 2 to 0.05 over 120 sweeps, then heat up again: a
			// small grid with few layouts can hold the search in a local
			// minimum that only a reheat leaves.
			temp = max(0.05, 2*math.Pow(0.97, float64(sweep%120)))
		}
		e := int(rng.Uint64() % uint64(edges))
		horizontal := e < len(h)
		var p, q int // the two cells the edge touches
		if horizontal {
			r, c := e/(n-1), e%(n-1)
			p, q = r*n+c, r*n+c+1
		} else {
			e -= len(h)
			r, c := e/n, e%n
			p, q = r*n+c, (r+1)*n+c
		}
		toggle := func() {
			if horizontal {
				h[e] = !h[e]
			} else {
				v[e] = !v[e]
			}
		}
		toggle()
		np, nq := code(p/n, p%n), code(q/n, q%n)
		d := move(cells[p], np, 1) + move(cells[q], nq, 1)
		if d <= 0 || rng.Float64() < math.Exp(-float64(d)/temp) {
			cells[p], cells[q] = np, nq
			dist += d
			continue
		}
		move(cells[q], nq, -1) // undo
		move(cells[p], np, -1)
		toggle()
	}
	if dist != 0 {
		return nil
	}
	return cells
}

func tabSide(tab bool) puzzle.Side {
	if tab {
		return puzzle.Tab
	}
	return puzzle.Blank
}

func abs(x int) int {
	if x < 0 {
		return -x
	}
	return x
}
