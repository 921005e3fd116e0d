package solve

import (
	"cmp"
	"math"
	mathbits "math/bits"
	"math/rand/v2"
	"slices"
	"sync"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Placement turns the pairwise dissimilarities into an arrangement by beam
// search over row-major fillings of the grid.
//
// A state is a partial filling of cells 0…pos−1. Extending it puts a piece in
// cell pos: on a shape sheet only a piece whose flat sides fit the cell and
// whose top and left sides interlock with the pieces placed there, and only
// when the pieces left over still satisfy the counting invariants
// (sideCounts.balanced) — so a shape sheet's fillings never run into a dead
// end the invariants can see. The extension costs the dissimilarities of the
// new piece with its top and left neighbours; the beam keeps the cheapest
// states, and of states with the same pieces used and the same frontier (the
// last piece of every column) only the cheapest, since their futures are
// alike.
//
// Where content cannot choose — a row of uniform sky — many fillings cost
// the same; the beam keeps the alternatives of every shape configuration
// alive (the cheapest few extensions per signature) until the rows below
// tell them apart. Pieces that look exactly alike (same sides, same
// dissimilarities to everything) are interchangeable: only the first unused
// one of such a group is tried, so the beam does not fill up with copies.
//
// Row-major filling from the top is blind to what comes below; the search
// therefore runs on the grid as it is and mirrored top to bottom (and left to
// right), and keeps the cheapest complete arrangement.

// assembly is the placement problem in one orientation.
type assembly struct {
	n, m   int
	shaped bool
	sides  []puzzle.Sides
	// right[a*m+b], down[a*m+b]: dissimilarity of b right of / below a;
	// +Inf where shape forbids it.
	right, down []float32
	// prevTwin[x] is the piece before x (by ID) that looks exactly like it,
	// or −1: look-alikes are used in ID order.
	prevTwin []int
	all      []int // 0…m−1
	// byCode lists the pieces of each signature code, in ID order;
	// codeMask[code] and allMask are the same sets (and all pieces) as
	// bitsets, for the beam to skip the used ones a word at a time.
	byCode   [81][]int
	codeMask [81][]uint64
	allMask  []uint64
	// downClass[x] and rightClass[x] are the first piece whose dissimilarity
	// to every piece below (right) is x's: for what comes after, a frontier
	// of x is one of it.
	downClass, rightClass []int // see frontClasses
	classesOnce           sync.Once
	best                  *matches    // bestMatches, once computed
	seams                 []mergeSeam // mergeSeams, once computed
	segs                  *segmentSet // mergeSegments, once computed
	zUsed                 []uint64    // Zobrist keys of the used set, per piece
	zFront                []uint64    // [col*m + class]: keys of the frontier
	zRight                []uint64    // [class]: key of the newest piece's right side
	zSig                  [81]uint64
	// spare, when set, tells whether a core is idle beside this search.
	spare *spareCores
	// positive: no pair costs less than 0, so a partial sum of seams only
	// grows and setCostUnder may stop early (nonNegative).
	positive bool
	// leftOf and above are right and down transposed (see columns).
	leftOf, above []float32
	columnsOnce   sync.Once
	floors        *seamFloor // seamFloors, once computed
	floorsOnce    sync.Once
	// rightLow and downLow are right and down as levels of lowLevel, each
	// level's value at most the seam's (lowerSeams); built once, for
	// setCostUnder.
	rightLow, downLow []uint8
	lowLevel          [256]float64
	lowOnce           sync.Once
	// leftLow and aboveLow are rightLow and downLow transposed (as leftOf
	// and above are right and down), built once for swapBlocks.
	leftLow, aboveLow []uint8
	lowTOnce          sync.Once
}

// columns returns right and down transposed, built on first use:
// leftOf[y·m+x] = right[x·m+y] and above[y·m+x] = down[x·m+y], so the
// seams of every piece beside one fixed piece are read along a row, not
// m floats apart each (the same values). Above columnsMax pieces it
// returns nil and callers copy the columns they read (see column): at
// 64×64 the two transposes are 128 MB, which raised a rect solve's peak
// memory from 400 to 691 MB.
func (a *assembly) columns() (leftOf, above []float32) {
	if a.m > columnsMax {
		return nil, nil
	}
	a.columnsOnce.Do(func() {
		a.leftOf, a.above = make([]float32, len(a.right)), make([]float32, len(a.down))
		parallelFor(2, func(i int) error {
			if i == 0 {
				transpose(a.m, a.right, a.leftOf)
			} else {
				transpose(a.m, a.down, a.above)
			}
			return nil
		})
	})
	return a.leftOf, a.above
}

// columnsMax is the most pieces whose seam matrices columns transposes.
const columnsMax = 1024

// column returns the seams of every piece x beside y, col[x] = d[x·m+y]:
// the row y of t, d transposed, or where t is nil (see columns) d's
// column copied into buf (made if it is too small).
func (a *assembly) column(t, d []float32, y int, buf []float32) []float32 {
	m := a.m
	if t != nil {
		return t[y*m : (y+1)*m]
	}
	if cap(buf) < m {
		buf = make([]float32, m)
	}
	buf = buf[:m]
	for x := range buf {
		buf[x] = d[x*m+y]
	}
	return buf
}

// transpose sets t[y·m+x] = d[x·m+y], in tiles of 8×8: the rows of a
// larger tile, m floats apart (4 KB at 32×32), fall on the same few cache
// sets and evict each other (7 ms for 32×32 with tiles of 32, under 1 ms).
// Of bytes (the seams' levels) 8×8 is as fast as 16 to 64 (2.4–3.0 ms).
func transpose[T any](m int, d, t []T) {
	const tile = 8
	for y0 := 0; y0 < m; y0 += tile {
		for x0 := 0; x0 < m; x0 += tile {
			x1 := min(x0+tile, m)
			for y := y0; y < min(y0+tile, m); y++ {
				out := t[y*m : (y+1)*m]
				for x := x0; x < x1; x++ {
					out[x] = d[x*m+y]
				}
			}
		}
	}
}

// beamNode is a partial filling: the piece at the newest cell and its parent.
type beamNode struct {
	parent *beamNode
	piece  int32
}

type beamState struct {
	node  *beamNode
	front []int32 // front[c]: the last piece placed in column c
	used  []uint64
	cnt   sideCounts
	cost  float64
	// usedKey and frontKey hash the used set and the frontier's classes;
	// key adds the newest piece's right class: states with equal keys have
	// the same futures.
	usedKey, frontKey, key uint64
	sigSum                 uint64
}

// extension is a candidate child: piece x in the next cell of state s.
type extension struct {
	s                      int32
	x                      int32
	cost                   float64
	usedKey, frontKey, key uint64
}

// beamBranch is the most extensions kept per state and signature;
// beamPerUsed the most states kept with the same pieces used (differing in
// their order), so that ties in featureless regions do not crowd out the
// states that used other pieces.
const (
	beamBranch   = 4
	beamPerUsed  = 8
	beamPerShape = 4
)

func newAssembly(n int, sides []puzzle.Sides, cm *compatMatrix, shaped bool) *assembly {
	m := n * n
	a := &assembly{n: n, m: m, shaped: shaped, sides: sides, right: cm.d[dirRight], down: cm.d[dirDown]}
	a.index()
	return a
}

// matrix returns a's seams as a compatMatrix (the same slices, not copies).
func (a *assembly) matrix() *compatMatrix {
	return &compatMatrix{m: a.m, d: [2][]float32{dirRight: a.right, dirDown: a.down}}
}

// index builds the twin groups, the signature buckets and the hash keys.
func (a *assembly) index() {
	m := a.m
	a.prevTwin = a.twinLinksBucketed()
	a.all = make([]int, m)
	for x := range m {
		a.all[x] = x
	}
	for i := range a.byCode {
		a.byCode[i] = nil
	}
	words := (m + 63) / 64
	a.allMask = make([]uint64, words)
	for i := range a.codeMask {
		a.codeMask[i] = nil
	}
	for x := range m {
		code := sigCode(a.sides[x])
		a.byCode[code] = append(a.byCode[code], x)
		if a.codeMask[code] == nil {
			a.codeMask[code] = make([]uint64, words)
		}
		a.codeMask[code][x/64] |= 1 << (x % 64)
		a.allMask[x/64] |= 1 << (x % 64)
	}
	rng := rand.New(rand.NewPCG(uint64(m), 0x6a6967))
	a.zUsed = make([]uint64, m)
	for i := range a.zUsed {
		a.zUsed[i] = rng.Uint64()
	}
	a.zFront = make([]uint64, a.n*m)
	for i := range a.zFront {
		a.zFront[i] = rng.Uint64()
	}
	a.zRight = make([]uint64, m)
	for i := range a.zRight {
		a.zRight[i] = rng.Uint64()
	}
	for i := range a.zSig {
		a.zSig[i] = rng.Uint64()
	}
	a.positive = nonNegative(a.right) && nonNegative(a.down)
}

// frontClasses computes downClass and rightClass, once: only the beam's
// state keys read them, and no beam runs on the larger grids (each of a
// 32×32 rect search's assemblies spent about 20 ms on them, in profiles of
// the benchmark).
func (a *assembly) frontClasses() {
	a.classesOnce.Do(func() {
		a.downClass = classesBucketed(a.m, a.down)
		a.rightClass = classesBucketed(a.m, a.right)
	})
}

// classes groups the pieces x whose rows d[x*m+·] are equal everywhere but
// at x and at the piece compared with, and returns each piece's first.
func classes(m int, d []float32) []int {
	class := make([]int, m)
	var reps []int
	same := func(x, y int) bool {
		rx, ry := d[x*m:(x+1)*m], d[y*m:(y+1)*m]
		// A cheap filter first: most pieces differ at the first few.
		for z, k := 0, 0; z < m && k < 8; z++ {
			if z != x && z != y {
				if rx[z] != ry[z] {
					return false
				}
				k++
			}
		}
		for z := range m {
			if z != x && z != y && rx[z] != ry[z] {
				return false
			}
		}
		return true
	}
next:
	for x := range m {
		for _, y := range reps {
			if same(x, y) {
				class[x] = y
				continue next
			}
		}
		class[x] = x
		reps = append(reps, x)
	}
	return class
}

// alike reports whether x and y are interchangeable: same sides and the same
// dissimilarity to and from every other piece in both directions.
func (a *assembly) alike(x, y int) bool {
	if a.sides[x] != a.sides[y] {
		return false
	}
	m := a.m
	// A cheap filter first: a few partners.
	for z, k := 0, 0; z < m && k < 8; z++ {
		if z != x && z != y {
			if a.right[x*m+z] != a.right[y*m+z] || a.down[z*m+x] != a.down[z*m+y] {
				return false
			}
			k++
		}
	}
	for z := range m {
		if z == x || z == y {
			continue
		}
		if a.right[x*m+z] != a.right[y*m+z] || a.down[x*m+z] != a.down[y*m+z] ||
			a.right[z*m+x] != a.right[z*m+y] || a.down[z*m+x] != a.down[z*m+y] {
			return false
		}
	}
	return a.right[x*m+y] == a.right[y*m+x] && a.down[x*m+y] == a.down[y*m+x]
}

// mirrored returns the problem flipped top to bottom (vertical) or left to
// right; cell (r, c) of the mirror is (n−1−r, c) or (r, n−1−c) of a.
func (a *assembly) mirrored(vertical bool) *assembly {
	m := a.m
	b := &assembly{n: a.n, m: m, shaped: a.shaped, sides: make([]puzzle.Sides, m),
		right: a.right, down: a.down}
	transpose := func(d []float32) []float32 {
		t := make([]float32, len(d))
		for x := range m {
			for y := range m {
				t[y*m+x] = d[x*m+y]
			}
		}
		return t
	}
	for x, sd := range a.sides {
		if vertical {
			sd[puzzle.Top], sd[puzzle.Bottom] = sd[puzzle.Bottom], sd[puzzle.Top]
		} else {
			sd[puzzle.Left], sd[puzzle.Right] = sd[puzzle.Right], sd[puzzle.Left]
		}
		b.sides[x] = sd
	}
	if vertical {
		b.down = transpose(a.down)
	} else {
		b.right = transpose(a.right)
	}
	b.index()
	return b
}

// unmirror maps a mirrored cell → piece list back to a's cells.
func (a *assembly) unmirror(cells []int, vertical bool) []int {
	n := a.n
	out := make([]int, len(cells))
	for i, x := range cells {
		r, c := i/n, i%n
		if vertical {
			r = n - 1 - r
		} else {
			c = n - 1 - c
		}
		out[r*n+c] = x
	}
	return out
}

// cost is the total dissimilarity of a full filling (cell → piece).
func (a *assembly) cost(cells []int) float64 { return fillingCost(a.n, a.right, a.down, cells) }

func fillingCost(n int, right, down []float32, cells []int) float64 {
	m := n * n
	var sum float64
	// Cell by cell in order, its right seam then its lower one.
	for r := range n {
		row := cells[r*n : (r+1)*n]
		for c, x := range row {
			if c+1 < n {
				sum += float64(right[x*m+row[c+1]])
			}
			if r+1 < n {
				sum += float64(down[x*m+cells[(r+1)*n+c]])
			}
		}
	}
	return sum
}

// beam fills the grid and returns cell → piece, or nil when every filling
// died (a shape sheet whose pieces admit no arrangement the invariants
// allow within the beam) and then the cheapest partial filling, −1 in the
// cells it leaves empty (nil if it died in the first two rows).
func (a *assembly) beam(width int) (cells, partial []int) {
	n, m := a.n, a.m
	a.frontClasses()
	words := (m + 63) / 64
	root := beamState{front: make([]int32, n), used: make([]uint64, words)}
	for x := range m {
		root.cnt.add(a.sides[x], 1)
	}
	states := []beamState{root}
	var exts []extension
	var order []uint64
	bottom := make([]puzzle.Side, n)
	var seen, perUsed, perShape keyCounts
	// The states, their frontiers and used sets live in two slabs, one for
	// the states of this cell and one for their children, swapped cell by
	// cell.
	var nexts [2][]beamState
	var fronts [2][]int32
	var useds [2][]uint64
	for pos := range m {
		r, c := pos/n, pos%n
		w := width
		if !a.shaped && pos < n {
			w = max(width, m) // the first row of a rectangular sheet: any start
		}
		exts = exts[:0]
		for si := range states {
			s := &states[si]
			exts = a.extend(exts, int32(si), s, r, c)
		}
		// Rank by cost (float32 precision is plenty to rank; equal ranks keep
		// the order of generation), as plain integers: sorting is the beam's
		// inner loop.
		order = order[:0]
		for i, e := range exts {
			order = append(order, uint64(math.Float32bits(float32(e.cost)))<<32|uint64(i))
		}
		// The beam fills from about the first 1.3·w of several thousand
		// (32×32): only the 2·w smallest are sorted first, the rest only if
		// they are reached. The keys are distinct, so the order is the full
		// sort's.
		sorted := min(len(order), 2*w)
		selectSmallest(order, sorted)
		slices.Sort(order[:sorted])
		size := min(w, len(exts))
		seen.reset(size)
		perUsed.reset(size)
		perShape.reset(size)
		slab := pos % 2
		if cap(nexts[slab]) < size {
			nexts[slab] = make([]beamState, 0, size)
			fronts[slab], useds[slab] = make([]int32, size*n), make([]uint64, size*words)
		}
		next, front, used := nexts[slab][:0], fronts[slab], useds[slab]
		for oi, o := range order {
			if oi == sorted {
				slices.Sort(order[sorted:])
				sorted, o = len(order), order[oi]
			}
			e := exts[uint32(o)]
			if len(next) == w {
				break
			}
			if seen.get(e.key) > 0 || perUsed.get(e.usedKey) >= beamPerUsed {
				continue
			}
			p := &states[e.s]
			sigSum := p.sigSum + a.zSig[sigCode(a.sides[e.x])]
			sk := a.shapeKey(sigSum, p.front, e.x, c)
			if a.shaped && perShape.get(sk) >= beamPerShape {
				continue
			}
			child := beamState{cnt: p.cnt, cost: e.cost, usedKey: e.usedKey, frontKey: e.frontKey, key: e.key, sigSum: sigSum}
			sd := a.sides[e.x]
			if a.shaped {
				child.cnt.add(sd, -1)
				for j, f := range p.front {
					bottom[j] = a.sides[f][puzzle.Bottom]
				}
				bottom[c] = sd[puzzle.Bottom]
				if !child.cnt.balanced(n, pos+1, bottom, sd[puzzle.Right]) {
					continue
				}
			}
			seen.add(e.key)
			perUsed.add(e.usedKey)
			perShape.add(sk)
			child.node = &beamNode{parent: p.node, piece: e.x}
			k := len(next)
			child.front = front[k*n : (k+1)*n : (k+1)*n]
			copy(child.front, p.front)
			child.front[c] = e.x
			child.used = used[k*words : (k+1)*words : (k+1)*words]
			copy(child.used, p.used)
			child.used[e.x/64] |= 1 << (e.x % 64)
			next = append(next, child)
		}
		if len(next) == 0 && r < 2 {
			return nil, nil
		}
		if len(next) == 0 {
			// A dead end the invariants did not see, all but always in
			// the last rows: the cheapest filling so far, but for the
			// row above the one that died, is what the beam knows.
			partial := make([]int, m)
			for i := range partial {
				partial[i] = -1
			}
			a.fillFrom(partial, states[0].node, pos-1)
			for i := (r - 1) * n; i < pos; i++ {
				partial[i] = -1
			}
			return nil, partial
		}
		states = next
	}
	cells = make([]int, m)
	a.fillFrom(cells, states[0].node, m-1)
	return cells, nil
}

// fillFrom writes the filling that ends with node at cell last into cells.
func (a *assembly) fillFrom(cells []int, node *beamNode, last int) {
	for i := last; node != nil; node = node.parent {
		cells[i] = int(node.piece)
		i--
	}
}

// extend appends the plausible extensions of s at cell (r, c).
func (a *assembly) extend(out []extension, si int32, s *beamState, r, c int) []extension {
	n, m := a.n, a.m
	top, left := int32(-1), int32(-1)
	if r > 0 {
		top = s.front[c]
	}
	if c > 0 {
		left = s.front[c-1]
	}
	// The seams with the top and left neighbours, a row of down and right
	// each (nil where there is none); scan is the beam's innermost loop,
	// written out by hand (the closures it called were not inlined).
	var downRow, rightRow []float32
	if top >= 0 {
		downRow = a.down[int(top)*m : int(top+1)*m]
	}
	if left >= 0 {
		rightRow = a.right[int(left)*m : int(left+1)*m]
	}
	used, prevTwin := s.used, a.prevTwin
	inf := float32(math.Inf(1))
	// scan offers the pieces of set (a bitset) in ID order.
	scan := func(set []uint64) {
		// The beamBranch cheapest usable pieces, in order of cost, ties in
		// ID order.
		var bestX [beamBranch]int32
		var bestCost [beamBranch]float64
		k := 0
		for w, bits := range set {
			bits &^= used[w]
			for ; bits != 0; bits &= bits - 1 {
				x := w*64 + mathbits.TrailingZeros64(bits)
				// usable: x is free and no earlier look-alike of x is.
				if t := prevTwin[x]; t >= 0 && used[t>>6]&(1<<(t&63)) == 0 {
					continue
				}
				var d float64
				if downRow != nil {
					v := downRow[x]
					if v == inf {
						continue
					}
					d += float64(v)
				}
				if rightRow != nil {
					v := rightRow[x]
					if v == inf {
						continue
					}
					d += float64(v)
				}
				cost := s.cost + d
				// Insert into the sorted best list.
				if k < beamBranch {
					k++
				} else if cost >= bestCost[k-1] {
					continue
				}
				j := k - 1
				for j > 0 && bestCost[j-1] > cost {
					bestCost[j], bestX[j] = bestCost[j-1], bestX[j-1]
					j--
				}
				bestCost[j], bestX[j] = cost, int32(x)
			}
		}
		for i := range k {
			e := extension{s: si, x: bestX[i], cost: bestCost[i]}
			e.usedKey = s.usedKey ^ a.zUsed[e.x]
			e.frontKey = s.frontKey ^ a.zFront[c*m+a.downClass[e.x]]
			if r > 0 {
				e.frontKey ^= a.zFront[c*m+a.downClass[s.front[c]]]
			}
			e.key = e.usedKey ^ e.frontKey
			if c+1 < n {
				e.key ^= a.zRight[a.rightClass[e.x]]
			}
			out = append(out, e)
		}
	}
	if !a.shaped {
		scan(a.allMask)
		return out
	}
	// The sides the placed neighbours fix: the opposite of theirs.
	topSide, leftSide := puzzle.Flat, puzzle.Flat
	if top >= 0 {
		topSide = opposite(a.sides[top][puzzle.Bottom])
	}
	if left >= 0 {
		leftSide = opposite(a.sides[left][puzzle.Right])
	}
	var codes [4]int
	for _, code := range fittingCodes(n, r, c, topSide, leftSide, &codes) {
		scan(a.codeMask[code])
	}
	return out
}

// arrange solves the placement in every orientation the grid can be filled
// from (top-down, bottom-up, right-to-left) and returns the cheapest
// complete arrangement, cell → piece, or nil if none completed, and the
// look-alike links it placed by (assembly.prevTwin).
func arrange(n int, sides []puzzle.Sides, cm *compatMatrix, shaped bool, width int) (cells, twins []int) {
	return arrangeSparing(n, sides, cm, shaped, width, nil)
}

// arrangeSparing is arrange told by spare (nil: never) whether a core is
// idle beside it — another search's that has ended, or one no other search
// uses — for its rejoin to make its next try on.
func arrangeSparing(n int, sides []puzzle.Sides, cm *compatMatrix, shaped bool, width int, spare *spareCores) (cells, twins []int) {
	base := newAssembly(n, sides, cm, shaped)
	base.spare = spare
	return arrangeOn(base, cm, width), base.prevTwin
}

// arrangeOn is arrange on base, the assembly of cm (which it keeps what it
// computes in, for the caller to use again).
func arrangeOn(base *assembly, cm *compatMatrix, width int) []int {
	n, sides, shaped := base.n, base.sides, base.shaped
	type run struct {
		asm      *assembly
		vertical bool
		mirror   bool
	}
	var runs []run // none on large grids: the greedy below wins there, at a fraction of the time
	if shaped && n <= shapeBeamMax || !shaped && n <= rectBeamMax {
		runs = []run{{asm: base}, {asm: base.mirrored(true), vertical: true, mirror: true}, {asm: base.mirrored(false), mirror: true}}
	}
	results := make([][]int, len(runs), len(runs)+1)
	// On a shape sheet the framed greedy below is built alongside the
	// beams, for the case that one dies: three beams on two cores leave
	// one core idle for about a beam's time, and the greedy fits in it.
	var framed []int
	framedBuilt := false
	jobs := len(runs)
	if shaped && jobs > 0 {
		jobs++
	}
	parallelFor(jobs, func(i int) error {
		if i == len(runs) {
			framed, framedBuilt = base.growFramed(), true
			return nil
		}
		cells, _ := runs[i].asm.beam(width)
		if cells != nil && runs[i].mirror {
			cells = base.unmirror(cells, runs[i].vertical)
		}
		results[i] = cells
		return nil
	})
	beamDied := len(results) == 0 || slices.ContainsFunc(results, func(r []int) bool { return r == nil })
	if shaped && beamDied {
		// The greedy inside the frame: where the beams do not run, or one
		// of them dies (on large grids their row-major fill meets shape dead
		// ends the invariants miss, and in fog their cheapest states). A
		// beam that dies says the others may have been led astray too: one
		// that fills a featureless sky first can complete a consistent
		// arrangement in the wrong place (the 32×32 of YellowFlower at 640
		// px: PA 0.67, where the greedy places 0.80).
		if !framedBuilt {
			framed = base.growFramed()
		}
		results = append(results, framed)
	}
	if shaped && n <= shapeBeamMax && !anyConsistent(base, results) {
		// Every beam died and the greedy left pieces that do not
		// interlock: start from a shape-consistent layout as well. Above
		// 32×32 the greedy's few misfits cost far less than a layout that
		// ignores content (and polishing it costs seconds), so it is not tried.
		if pred, err := SolveShape(n, sides); err == nil {
			cells := make([]int, len(pred))
			for id, c := range pred {
				cells[c] = id
			}
			results = append(results, cells)
		}
	}
	if !shaped {
		// Without flat sides the frame is unknown: the greedy that grows
		// from the surest spot finds it far better than a fill from a corner.
		// Merging clusters along the surest seams (cluster.go) has no frame
		// to wrap around at all. Above reframeAllMax, merging the
		// loop-checked seams first (mergeLoops) goes wrong elsewhere than
		// either (autumn-forest 32×32: PA 0.015 → 0.74); up to it, where
		// every candidate is repaired, it won nothing on the survey.
		//
		// The candidates are built, and repaired, on both cores at once
		// (they share only the best matches and the merge seams, computed
		// first).
		base.bestMatches()
		base.mergeSeams()
		build := []func() []int{base.grow, base.mergeClusters}
		if n > reframeAllMax {
			build = append(build, base.mergeLoops)
		}
		more := make([][]int, len(build))
		parallelFor(len(build), func(i int) error {
			more[i] = build[i]()
			return nil
		})
		results = append(results, more...)
	}
	if !shaped {
		parallelFor(len(results), func(i int) error {
			if results[i] == nil {
				return nil
			}
			results[i] = bestRotation(n, base.right, base.down, results[i])
			if n <= reframeAllMax {
				// The frame is decided globally on every candidate
				// (frame.go): the greedy's and the merge's answers go
				// wrong in different places, and repaired either may be
				// the cheaper.
				results[i] = base.reframe(results[i])
			}
			return nil
		})
	}
	var best []int
	bestCost := math.Inf(1)
	for _, cells := range results {
		if cells == nil {
			continue
		}
		if shaped {
			base.reassign(cells)
			base.improve(cells)
		}
		if c := penalisedCost(n, base.right, base.down, cells); c < bestCost {
			best, bestCost = cells, c
		}
	}
	if shaped && n <= shapeBeamMax && best != nil && base.shiftBlocks(best) {
		base.reassign(best)
		base.improve(best)
	}
	if shaped && beamDied && n <= shapeBeamMax && best != nil && base.reorderLines(best) {
		// Where a beam died the rows of a sky or a sea are often each
		// right but wrongly ordered (lines.go). Above 32×32, where no
		// beam runs, it changed none of three 64×64 answers but took
		// 3–5 s (measured on rows and columns).
		base.reassign(best)
		base.improve(best)
	}
	if shaped && beamDied && n <= refillMax && best != nil {
		// What the greedy grew last, outside the region its seams vouch
		// for, is filled again by a beam framed by that region (refill.go).
		base.refillDoubtful(best)
	}
	if shaped && n > reframeAllMax && best != nil && base.vouched(best) {
		// A block right inside can sit in the wrong place within the
		// region the refill trusts — grown so where no beam runs, and on
		// 32×32 left so by the beams too (moonlit-bay under seed 7: a
		// block of sky three columns off, one of water a row and four
		// columns); the segments merged from the pieces alone find it
		// (mend.go). Only from a region that vouches for most of the
		// grid: the refill after each move needs it.
		base.mendSplitSegments(best)
	}
	if shaped && beamDied && n <= shapeBeamMax && best != nil && !base.vouched(best) {
		// The greedy went wrong nearly everywhere (32×32 misty-pines: its
		// seams vouch for 142 of 1,024 cells, the answer costs twice the
		// truth), so there is nothing to refill from. The rectangular
		// search — clusters merged along whole boundaries, frame repair,
		// segment rejoin — is run on the shape sheet's costs with every
		// pair that does not interlock priced at gapPenalty (it moves
		// blocks the framed greedy cannot), and its answer, polished and
		// refilled as the greedy's, is kept if it costs less.
		if alt, _ := arrangeContent(n, sides, cm.penalised(), false, nil); alt != nil {
			base.reassign(alt)
			base.improve(alt)
			base.refillDoubtful(alt)
			if penalisedCost(n, base.right, base.down, alt) < penalisedCost(n, base.right, base.down, best)-1e-6 {
				best = alt
			}
		}
	}
	// A 32×32 shape answer that is wrong somewhere (refillPays) is filled
	// again a half of the grid at a time before the windows below, and a
	// quarter after them (window.go).
	shapeMid := shaped && n > reframeAllMax && n <= shapeBeamMax && best != nil // 17×17 to 32×32
	if shapeMid && base.refillPays(best) && base.refillHalves(best) {
		base.reassign(best)
		base.improve(best)
	}
	if shapeMid && shapeWindows(base.buddyShare(best)) {
		// A 32×32 answer right in most of the grid can keep pieces of a
		// calm sea or sky shuffled within their rows, a few cells from
		// their own, where no exchange of two pieces interlocks: windows
		// of it are filled again as on rect sheets, then bands of two
		// rows (window.go).
		base.refillWindows(best, shapeWindowSides)
		base.refillBands(best, 2)
	}
	if shapeMid && base.refillPays(best) && base.refillQuarters(best) {
		base.reassign(best)
		base.improve(best)
	}
	if !shaped && best != nil {
		if n > reframeAllMax {
			best = base.reframe(best) // on the cheapest only
			best = base.rejoinAnnealed(best)
		}
		base.cutBySureness(best, base.seamFloors())
	}
	return best
}

// anyConsistent reports whether one of the arrangements interlocks everywhere.
func anyConsistent(a *assembly, rs [][]int) bool {
	for _, r := range rs {
		if r != nil && !math.IsInf(a.cost(r), 1) {
			return true
		}
	}
	return false
}

// penalisedCost is fillingCost with every pair that shape forbids costing
// gapPenalty: of arrangements that do not all interlock, the one with the
// fewest misfits and the best seams wins.
func penalisedCost(n int, right, down []float32, cells []int) float64 {
	m := n * n
	var sum float64
	add := func(v float32) {
		if math.IsInf(float64(v), 1) {
			sum += gapPenalty
		} else {
			sum += float64(v)
		}
	}
	for i, x := range cells {
		if i%n+1 < n {
			add(right[x*m+cells[i+1]])
		}
		if i+n < m {
			add(down[x*m+cells[i+n]])
		}
	}
	return sum
}

// improveAllMax is the most pieces on which improve tries every exchange.
const improveAllMax = 1024

// shapeBeamMax is the largest grid on which shape sheets run the beams:
// above it every beam died on the 64×64 photographs (docs/solver.md, "Large
// grids and speed") after most of a minute, and the framed greedy alone is used.
const shapeBeamMax = 32

// shapeWindows reports whether a shape answer whose largest best-buddy
// region covers share of the grid has its windows refilled: vouched for
// (there is a frame to fill from) but not mostly (32×32 moonlit-bay 0.72,
// desert-dunes 0.80, sunset-sea 0.89). The exact answers' regions cover
// 0.93–1 of the grid and the benchmark's harbor-town 0.92, where windows
// place nothing (harbor-town at 1024 px: 0.6 s for no change;
// docs/solver.md, "Refilling windows of a shape answer").
func shapeWindows(share float64) bool { return share >= vouchedShare && share < shapeWindowsBelow }

const shapeWindowsBelow = 0.9

// rectBeamMax is the largest grid on which rectangular sheets also run the
// row-by-row beams. Above it they cost most of a solve (3 beams took 18 s of
// CPU at 32×32 on Garden.jpg, 1.8 of 2.3 s at 16×16 on harbor-town), while
// from a corner, with no frame to go by, they rarely beat the greedy with
// its frame repair.
const rectBeamMax = 8

// reframeAllMax is the largest grid on which every candidate arrangement of
// a rect sheet is repaired (frame.go) before the cheapest is chosen; above
// it only the cheapest is, the repair costing most of a 32×32 solve.
const reframeAllMax = 16

// aroundCell sums pair(p, q) (p left of or above q) over the pairs of
// cell c of an n×n grid with its neighbours.
func aroundCell(n, c int, pair func(p, q int) float64) float64 {
	r, col := c/n, c%n
	var sum float64
	if col > 0 {
		sum += pair(c-1, c)
	}
	if col+1 < n {
		sum += pair(c, c+1)
	}
	if r > 0 {
		sum += pair(c-n, c)
	}
	if r+1 < n {
		sum += pair(c, c+n)
	}
	return sum
}

// improve swaps pieces of the same signature — a swap that keeps every
// shape constraint — while a swap lowers the total dissimilarity, and
// returns the number of swaps made.
func (a *assembly) improve(cells []int) int {
	n, m := a.n, a.m
	pairCost := func(p, q int) float64 { // p left of or above q
		if q == p+1 {
			return float64(a.right[cells[p]*m+cells[q]])
		}
		return float64(a.down[cells[p]*m+cells[q]])
	}
	// local is the cost of the pairs touching cell p or q (p < q), each once.
	local := func(p, q int) float64 {
		var sum float64
		for _, c := range [2]int{p, q} {
			sum += aroundCell(n, c, pairCost)
		}
		if q == p+1 && q%n != 0 || q == p+n {
			sum -= pairCost(p, q) // counted from both cells
		}
		return sum
	}
	byCode := map[int][]int{} // signature → cells holding it
	for c, x := range cells {
		code := sigCode(a.sides[x])
		byCode[code] = append(byCode[code], c)
	}
	codes := make([]int, 0, len(byCode))
	for code := range byCode {
		codes = append(codes, code)
	}
	slices.Sort(codes)
	// On large grids only exchanges with a doubtful cell (one with a
	// neighbour not its best buddy) are tried: elsewhere the arrangement's
	// own evidence agrees, and all pairs cost O(m²/16) per pass.
	var doubt []bool
	if m > improveAllMax {
		doubt = a.doubtful(cells, a.bestMatches())
	}
	swaps := 0
	for pass := 0; pass < 8; pass++ {
		improved := false
		for _, code := range codes {
			cs := byCode[code]
			for i, p := range cs {
				for _, q := range cs[i+1:] {
					if doubt != nil && !doubt[p] && !doubt[q] {
						continue
					}
					before := local(p, q)
					cells[p], cells[q] = cells[q], cells[p]
					if local(p, q) < before-1e-6 {
						swaps++
						improved = true
					} else {
						cells[p], cells[q] = cells[q], cells[p]
					}
				}
			}
		}
		if !improved {
			break
		}
	}
	return swaps
}

// shapeKey hashes what shape alone sees of a state: the signatures used (a
// multiset: summed keys) and the frontier's bottom sides and newest right side.
func (a *assembly) shapeKey(sigSum uint64, front []int32, x int32, c int) uint64 {
	h := sigSum
	for j, f := range front {
		if j == c {
			f = x
		}
		h = h*31 + uint64(a.sides[f][puzzle.Bottom])
	}
	return h*31 + uint64(a.sides[x][puzzle.Right])
}

// bestRotation returns the cyclic shift of the rows and columns of cells
// with the least total dissimilarity: without flat sides an arrangement can
// be right but for where it wraps around, which its dearest seams show.
//
// Every shift's seams are seams of cells on the torus: each cell's with the
// cell after it and the one below it, cyclically (wrapR, wrapD), looked up
// once. A shift's cost is fillingCost's sum of them, in its order. It is
// also every seam of the torus but the column and the row the shift cuts:
// a shift that costs more than the cheapest yet by that count, by more
// than summing in another order can change (under 10⁻¹² of the seams'
// magnitude; the margin is 10⁻⁹), is not summed seam by seam, and the same
// shift wins.
func bestRotation(n int, right, down []float32, cells []int) []int {
	m := n * n
	best, bestCost := cells, fillingCost(n, right, down, cells)
	wrapR, wrapD := make([]float32, m), make([]float32, m)
	var torus, magnitude float64
	cutR, cutD := make([]float64, n), make([]float64, n) // by column, by row
	for c, x := range cells {
		r, col := c/n, c%n
		wrapR[c] = right[x*m+cells[r*n+(col+1)%n]]
		wrapD[c] = down[x*m+cells[(r+1)%n*n+col]]
		torus += float64(wrapR[c]) + float64(wrapD[c])
		magnitude += math.Abs(float64(wrapR[c])) + math.Abs(float64(wrapD[c]))
		cutR[col] += float64(wrapR[c])
		cutD[r] += float64(wrapD[c])
	}
	margin := 1e-9 * magnitude
	col := make([]int, n) // col[C]: the column of cells shifted to C
	for dr := range n {
		for dc := range n {
			if dr == 0 && dc == 0 {
				continue
			}
			// The shift's last column and row are those of cells before
			// column n−dc and row n−dr: their wrapping seams are cut.
			if torus-cutR[(2*n-1-dc)%n]-cutD[(2*n-1-dr)%n] >= bestCost+margin {
				continue
			}
			for C := range col {
				col[C] = (C - dc + n) % n
			}
			// Cell (R, C) of the shift holds cell (R−dr, C−dc) of cells;
			// its seams summed in fillingCost's order, right then down.
			var cost float64
			for R := range n {
				row := (R - dr + n) % n * n
				wr, wd := wrapR[row:row+n], wrapD[row:row+n]
				if R+1 < n {
					for _, c := range col[:n-1] {
						cost += float64(wr[c])
						cost += float64(wd[c])
					}
					cost += float64(wd[col[n-1]])
				} else {
					for _, c := range col[:n-1] {
						cost += float64(wr[c])
					}
				}
			}
			if cost < bestCost {
				rot := make([]int, m)
				for r := range n {
					rr := (r + dr) % n
					for c, x := range cells[r*n : (r+1)*n] {
						rot[rr*n+(c+dc)%n] = x
					}
				}
				best, bestCost = rot, cost
			}
		}
	}
	return best
}

// seamsAt sums price over the seams piece x would make at cell c with the
// pieces placed around it (cells[·] ≥ 0; −1 is an empty cell).
func (a *assembly) seamsAt(cells []int, c, x int, price func(float32) float64) float64 {
	n, m := a.n, a.m
	r, col := c/n, c%n
	var d float64
	if col > 0 && cells[c-1] >= 0 {
		d += price(a.right[cells[c-1]*m+x])
	}
	if col+1 < n && cells[c+1] >= 0 {
		d += price(a.right[x*m+cells[c+1]])
	}
	if r > 0 && cells[c-n] >= 0 {
		d += price(a.down[cells[c-n]*m+x])
	}
	if r+1 < n && cells[c+n] >= 0 {
		d += price(a.down[x*m+cells[c+n]])
	}
	return d
}

// seamCost prices a seam at its dissimilarity.
func seamCost(v float32) float64 { return float64(v) }

// gapPriced prices a seam at its dissimilarity, and one shape forbids
// (+Inf) at gapPenalty, so a sum stays finite and comparable.
func gapPriced(v float32) float64 {
	if math.IsInf(float64(v), 1) {
		return gapPenalty
	}
	return float64(v)
}

// selectSmallest reorders keys so that its first k are its k smallest, in
// no particular order (quickselect, median-of-three pivots).
func selectSmallest[T cmp.Ordered](keys []T, k int) {
	lo, hi := 0, len(keys)-1
	for lo < hi && k > lo && k <= hi {
		mid := lo + (hi-lo)/2
		if keys[mid] < keys[lo] {
			keys[mid], keys[lo] = keys[lo], keys[mid]
		}
		if keys[hi] < keys[lo] {
			keys[hi], keys[lo] = keys[lo], keys[hi]
		}
		if keys[hi] < keys[mid] {
			keys[hi], keys[mid] = keys[mid], keys[hi]
		}
		pivot := keys[mid]
		i, j := lo, hi
		for i <= j {
			for keys[i] < pivot {
				i++
			}
			for keys[j] > pivot {
				j--
			}
			if i <= j {
				keys[i], keys[j] = keys[j], keys[i]
				i++
				j--
			}
		}
		// keys[lo..j] ≤ pivot ≤ keys[i..hi], and keys[j+1..i-1] = pivot.
		switch {
		case k <= j:
			hi = j
		case k >= i:
			lo = i
		default:
			return
		}
	}
}
