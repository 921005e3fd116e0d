package solve

import "math"

// grow places pieces one at a time where the evidence is strongest, the
// greedy of Paikin and Tal (2015): of all the empty cells next to placed
// pieces, it fills the one whose best piece beats its second best by the
// widest margin — a best buddy of all its placed neighbours first. Textured
// regions are so placed before featureless ones, whatever their position.
// It is for rectangular sheets, where no flat side anchors the frame: the
// pieces grow from the surest one on a canvas with room in every direction,
// as long as their extent stays within n×n.
func (a *assembly) grow() []int {
	n, m := a.n, a.m
	size := 2*n - 1
	g := a.newGrower()
	g.put(n-1, n-1, g.seed())
	for k := g.count; k < m; k++ {
		slot, x := g.next()
		if slot < 0 {
			break
		}
		g.put(slot/size, slot%size, x)
	}
	return g.finish()
}

// newGrower is an empty canvas of 2n−1 × 2n−1 cells with the buddies found.
func (a *assembly) newGrower() *grower {
	size := 2*a.n - 1
	g := &grower{a: a, size: size, cell: make([]int, size*size), placed: make([]bool, a.m),
		best: make([]slotChoice, size*size)}
	for i := range g.cell {
		g.cell[i] = -1
	}
	g.rmin, g.cmin, g.rmax, g.cmax = size, size, -1, -1
	g.buddies()
	return g
}

type slotChoice struct {
	valid        bool
	piece        int
	cost, second float64
	buddy        bool
}

type grower struct {
	a                      *assembly
	size                   int
	cell                   []int // canvas cell → piece or −1
	placed                 []bool
	count                  int
	rmin, cmin, rmax, cmax int
	best                   []slotChoice // cached per empty canvas cell
	// bestRight[a] is the piece a prefers on its right, bestLeft[b] the
	// piece b prefers on its left, and so on: best buddies agree both ways.
	bestRight, bestLeft, bestDown, bestUp []int
}

func argmin(m int, f func(i int) float32) int {
	best, v := -1, float32(math.Inf(1))
	for i := range m {
		if d := f(i); d < v {
			best, v = i, d
		}
	}
	return best
}

// buddies finds every piece's preferred neighbour in each direction.
func (g *grower) buddies() {
	b := g.a.bestMatches()
	g.bestRight, g.bestLeft, g.bestDown, g.bestUp = b.right, b.left, b.down, b.up
}

// seed is the piece with the most best buddies (a textured spot): where a
// rectangular sheet starts growing.
func (g *grower) seed() int {
	best, most := 0, -1
	for x := range g.a.m {
		k := 0
		if y := g.bestRight[x]; y >= 0 && g.bestLeft[y] == x {
			k++
		}
		if y := g.bestLeft[x]; y >= 0 && g.bestRight[y] == x {
			k++
		}
		if y := g.bestDown[x]; y >= 0 && g.bestUp[y] == x {
			k++
		}
		if y := g.bestUp[x]; y >= 0 && g.bestDown[y] == x {
			k++
		}
		if k > most {
			best, most = x, k
		}
	}
	return best
}

func (g *grower) put(r, c, x int) {
	g.cell[r*g.size+c] = x
	g.placed[x] = true
	g.count++
	extent := [4]int{g.rmin, g.rmax, g.cmin, g.cmax}
	g.rmin, g.rmax = min(g.rmin, r), max(g.rmax, r)
	g.cmin, g.cmax = min(g.cmin, c), max(g.cmax, c)
	grew := extent != [4]int{g.rmin, g.rmax, g.cmin, g.cmax}
	// The choices of the cells around change, and of every cell that
	// wanted x.
	for i := range g.best {
		if g.best[i].valid && g.best[i].piece == x {
			g.best[i].valid = false
		}
	}
	for _, d := range [4][2]int{{-1, 0}, {1, 0}, {0, -1}, {0, 1}} {
		if rr, cc := r+d[0], c+d[1]; rr >= 0 && cc >= 0 && rr < g.size && cc < g.size {
			g.best[rr*g.size+cc].valid = false
		}
	}
	if grew {
		// The extent changed: cells beyond it may have become impossible.
		for i := range g.best {
			g.best[i].valid = false
		}
	}
}

// open reports whether canvas cell (r, c) can take a piece at all: empty,
// next to a placed piece, and keeping the extent within n×n.
func (g *grower) open(r, c int) bool {
	s, n := g.size, g.a.n
	if g.cell[r*s+c] >= 0 {
		return false
	}
	if max(g.rmax, r)-min(g.rmin, r) >= n || max(g.cmax, c)-min(g.cmin, c) >= n {
		return false
	}
	return g.at(r-1, c) >= 0 || g.at(r+1, c) >= 0 || g.at(r, c-1) >= 0 || g.at(r, c+1) >= 0
}

// price is the mean dissimilarity of x at canvas cell (r, c) with its
// placed neighbours and whether it is every such neighbour's best buddy;
// ok is false when the cell has no placed neighbour.
func (g *grower) price(r, c, x int) (cost float64, buddy, ok bool) {
	a, m := g.a, g.a.m
	var sum float64
	k := 0
	buddy = true
	add := func(v float32, mutual bool) {
		sum += float64(v)
		k++
		buddy = buddy && mutual
	}
	if y := g.at(r, c-1); y >= 0 {
		add(a.right[y*m+x], g.bestRight[y] == x && g.bestLeft[x] == y)
	}
	if y := g.at(r, c+1); y >= 0 {
		add(a.right[x*m+y], g.bestRight[x] == y && g.bestLeft[y] == x)
	}
	if y := g.at(r-1, c); y >= 0 {
		add(a.down[y*m+x], g.bestDown[y] == x && g.bestUp[x] == y)
	}
	if y := g.at(r+1, c); y >= 0 {
		add(a.down[x*m+y], g.bestDown[x] == y && g.bestUp[y] == x)
	}
	if k == 0 {
		return 0, false, false
	}
	return sum / float64(k), buddy, true
}

// at is the piece on canvas cell (r, c), or −1 (empty or off the canvas).
func (g *grower) at(r, c int) int {
	if r < 0 || c < 0 || r >= g.size || c >= g.size {
		return -1
	}
	return g.cell[r*g.size+c]
}

// choose computes the best and second best piece for canvas cell i.
func (g *grower) choose(i int) slotChoice {
	r, c := i/g.size, i%g.size
	ch := slotChoice{valid: true, piece: -1, cost: math.Inf(1), second: math.Inf(1)}
	for x := range g.a.m {
		if g.placed[x] {
			continue
		}
		d, buddy, ok := g.price(r, c, x)
		if !ok {
			continue
		}
		switch {
		case d < ch.cost:
			ch.second = ch.cost
			ch.piece, ch.cost, ch.buddy = x, d, buddy
		case d < ch.second:
			ch.second = d
		}
	}
	return ch
}

// next returns the cell to fill and its piece: best buddies first, then the
// widest margin over the second best; −1 when no open cell has a piece.
func (g *grower) next() (int, int) {
	bestSlot, bestPiece := -1, -1
	bestBuddy, bestConf := false, math.Inf(-1)
	for i := range g.cell {
		if !g.open(i/g.size, i%g.size) {
			continue
		}
		if !g.best[i].valid {
			g.best[i] = g.choose(i)
		}
		ch := g.best[i]
		if ch.piece < 0 {
			continue
		}
		conf := 1 - ch.cost/(ch.second+1e-6)
		if math.IsInf(ch.second, 1) {
			conf = 1
		}
		if ch.buddy && !bestBuddy || ch.buddy == bestBuddy && conf > bestConf {
			bestSlot, bestPiece, bestBuddy, bestConf = i, ch.piece, ch.buddy, conf
		}
	}
	return bestSlot, bestPiece
}

// finish maps the canvas to the grid (cell → piece) and puts any piece
// left over into the empty cells.
func (g *grower) finish() []int {
	n, s := g.a.n, g.size
	// An extent short of n (not expected) is padded at the far side.
	r0, c0 := min(g.rmin, s-n), min(g.cmin, s-n)
	cells := make([]int, n*n)
	var left []int
	for x := range g.a.m {
		if !g.placed[x] {
			left = append(left, x)
		}
	}
	for r := range n {
		for c := range n {
			x := g.cell[(r+r0)*s+c+c0]
			if x < 0 {
				x, left = left[0], left[1:]
			}
			cells[r*n+c] = x
		}
	}
	return cells
}
