package solve

import (
	"cmp"
	"slices"
)

// Cluster merging for rectangular sheets (after Gallagher 2012's
// constrained tree): every piece starts as its own cluster, and the seams
// are taken from the surest to the least sure, a seam joining the two
// clusters of its pieces when they fit together — no two pieces on one
// cell, and the union no wider or taller than the grid. Nothing fixes a
// frame or a start: the border of the picture is where the clusters end,
// so a frame cannot wrap, and a featureless region (whose seams are all
// unsure) is joined last, between textured parts already in place.
//
// A seam's sureness is its dissimilarity over the best alternative either
// piece has that way (the ratio of Gallagher's and of Paikin and Tal's
// confidence): a seam ten times cheaper than any other choice comes first,
// a seam in fog, where every choice costs about the same, last.

// mergeCandidates is how many of its cheapest partners per direction each
// piece offers as seams to merge along, in cluster merging (rect sheets)
// and segment merging (segments.go, large shape sheets) alike.
const mergeCandidates = 4

type mergeSeam struct {
	buddy bool // each piece the other's cheapest partner that way
	w     float32
	a, b  int32 // b right of (dirRight) or below (dirDown) a
	dir   uint8
}

// mergeSeams lists the candidate seams, surest first (computed once per
// assembly; the caller must not change them).
func (a *assembly) mergeSeams() ([]mergeSeam, *seamFloor) {
	if a.seams == nil {
		a.seams = a.listMergeSeams()
	}
	return a.seams, a.seamFloors()
}

func (a *assembly) listMergeSeams() []mergeSeam {
	m := a.m
	var out []mergeSeam
	fl := a.seamFloors()
	for dir, d := range [2][]float32{a.right, a.down} {
		scale := fl.scale[dir]
		seen := map[[2]int32]bool{}
		add := func(x, y int) {
			k := [2]int32{int32(x), int32(y)}
			if seen[k] {
				return
			}
			seen[k] = true
			out = append(out, mergeSeam{buddy: fl.rowArg[dir][x] == y && fl.colArg[dir][y] == x,
				w: (d[x*m+y] + scale) / (fl.alt(dir, x, y) + scale), a: int32(x), b: int32(y), dir: uint8(dir)})
		}
		var top []int
		for x := range m {
			top = cheapest(top[:0], d[x*m:(x+1)*m], mergeCandidates, x)
			for _, y := range top {
				add(x, y)
			}
		}
		t, above := a.columns() // d's columns as rows
		if dir == dirDown {
			t = above
		}
		var col []float32
		for y := range m {
			col = a.column(t, d, y, col)
			top = cheapest(top[:0], col, mergeCandidates, y)
			for _, x := range top {
				add(x, y)
			}
		}
	}
	// A total order (a pair is listed once per direction, right first), so
	// the unstable sort gives what a stable one would.
	slices.SortFunc(out, func(p, q mergeSeam) int {
		if p.buddy != q.buddy {
			if p.buddy {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(p.w, q.w); c != 0 {
			return c
		}
		return cmp.Or(cmp.Compare(p.a*int32(m)+p.b, q.a*int32(m)+q.b), cmp.Compare(p.dir, q.dir))
	})
	return out
}

// seamFloor holds, per direction, every piece's two cheapest partners'
// costs as A (row: the piece on its right or below) and as B (col), the
// cheapest partner, and a typical true seam's cost (the median cheapest).
type seamFloor struct {
	row, rowSecond, col, colSecond [2][]float32
	rowArg, colArg                 [2][]int
	scale                          [2]float32
}

// seamFloors returns a's seamFloor, computed on first use (every search
// and repair of a's seams reads the same one).
func (a *assembly) seamFloors() *seamFloor {
	a.floorsOnce.Do(func() { a.floors = a.newSeamFloor() })
	return a.floors
}

func (a *assembly) newSeamFloor() *seamFloor {
	m := a.m
	fl := &seamFloor{}
	for dir, d := range [2][]float32{a.right, a.down} {
		rowBest, rowSecond, rowArg := make([]float32, m), make([]float32, m), make([]int, m)
		colBest, colSecond, colArg := make([]float32, m), make([]float32, m), make([]int, m)
		for i := range m {
			rowBest[i], rowSecond[i], colBest[i], colSecond[i] = inf, inf, inf, inf
			rowArg[i], colArg[i] = -1, -1
		}
		for x := range m {
			row := d[x*m : (x+1)*m]
			for y, v := range row {
				if y == x {
					continue
				}
				if v < rowBest[x] {
					rowSecond[x], rowBest[x], rowArg[x] = rowBest[x], v, y
				} else if v < rowSecond[x] {
					rowSecond[x] = v
				}
				if v < colBest[y] {
					colSecond[y], colBest[y], colArg[y] = colBest[y], v, x
				} else if v < colSecond[y] {
					colSecond[y] = v
				}
			}
		}
		// A seam in a flat region, where every choice costs next to
		// nothing, is as unsure as it is cheap: sureness compares costs
		// plus this scale.
		c := slices.Clone(rowBest)
		slices.Sort(c)
		fl.scale[dir] = max(c[len(c)/2], 1e-3)
		fl.row[dir], fl.rowSecond[dir], fl.rowArg[dir] = rowBest, rowSecond, rowArg
		fl.col[dir], fl.colSecond[dir], fl.colArg[dir] = colBest, colSecond, colArg
	}
	return fl
}

// alt is the best other choice x (as A) or y (as B) has in dir than each
// other.
func (fl *seamFloor) alt(dir, x, y int) float32 {
	ax, ay := fl.row[dir][x], fl.col[dir][y]
	if fl.rowArg[dir][x] == y {
		ax = fl.rowSecond[dir][x]
	}
	if fl.colArg[dir][y] == x {
		ay = fl.colSecond[dir][y]
	}
	return min(ax, ay)
}

// mergeSlack is how much dearer than their pieces' best choices the seams
// a merge creates may be, together: a merge along one sure seam that puts
// many other pieces side by side badly is refused.
const mergeSlack = 1.25

// cheapest appends to out the k indices i ≠ self of vals with the least
// vals[i], cheapest first.
func cheapest(out []int, vals []float32, k, self int) []int {
	for i, v := range vals {
		if i == self {
			continue
		}
		if len(out) == k && v >= vals[out[k-1]] {
			continue
		}
		if len(out) < k {
			out = append(out, i)
		} else {
			out[k-1] = i
		}
		for j := len(out) - 1; j > 0 && vals[out[j-1]] > vals[out[j]]; j-- {
			out[j-1], out[j] = out[j], out[j-1]
		}
	}
	return out
}

// cluster is a set of pieces at fixed relative cells.
type cluster struct {
	members                []int32
	at                     map[[2]int32]int32 // (row, col) → piece
	rmin, rmax, cmin, cmax int32
}

// mergeClusters joins the pieces along the surest seams as above and
// returns the largest cluster's pieces as a region of the grid with every
// other piece placed by the greedy from it (cell → piece).
func (a *assembly) mergeClusters() []int {
	cl := a.newClustering()
	seams, fl := a.mergeSeams()
	for _, s := range seams {
		cl.join(s, func(b boundary) bool { return b.fits(fl) })
	}
	return cl.growLargest()
}

// mergeLoops is mergeClusters with the seams taken in passes, after Son,
// Hays and Cooper (2014): a best-buddy seam is often wrong on small pieces
// (a fifth of them on the 32×32 photographs), but one that closes a 2×2
// loop of best buddies almost never is (loopSeams: 15 wrong of 521 on
// Storm.jpg), so those join first; then, again and again, any merge whose
// new boundary holds two best-buddy seams or more (two clusters that agree
// in two places: a loop across them); then any whose new boundary has two
// seams or more, each between pieces among the other's two cheapest
// partners; and last the single seams in order of sureness, as
// mergeClusters takes them. Each merge is bounded by mergeFits.
func (a *assembly) mergeLoops() []int {
	cl := a.newClustering()
	seams, fl := a.mergeSeams()
	loop := a.loopSeams(seams)
	for i, s := range seams {
		if loop[i] {
			cl.join(s, func(b boundary) bool { return b.fits(fl) })
		}
	}
	for _, agree := range []func(boundary) bool{
		func(b boundary) bool { return b.buddies >= 2 },
		func(b boundary) bool { return b.seams >= 2 && b.good == b.seams },
	} {
		for merged := true; merged; {
			merged = false
			for _, s := range seams {
				if cl.join(s, func(b boundary) bool { return agree(b) && b.fits(fl) }) {
					merged = true
				}
			}
		}
	}
	for _, s := range seams {
		cl.join(s, func(b boundary) bool { return b.fits(fl) })
	}
	return cl.growLargest()
}

// clustering is the state of cluster merging: every piece's cluster and
// cell in it.
type clustering struct {
	a   *assembly
	fl  *seamFloor
	of  []int32    // piece → cluster
	pos [][2]int32 // piece → (row, col) in its cluster
	cls []*cluster
}

func (a *assembly) newClustering() *clustering {
	m := a.m
	cl := &clustering{a: a, fl: a.seamFloors(), of: make([]int32, m), pos: make([][2]int32, m), cls: make([]*cluster, m)}
	for x := range m {
		cl.of[x] = int32(x)
		cl.cls[x] = &cluster{members: []int32{int32(x)}, at: map[[2]int32]int32{{0, 0}: int32(x)}}
	}
	return cl
}

// join merges the clusters of seam s's pieces, b next to a, if they are
// two, the union fits in n×n without two pieces on one cell, and ok accepts
// the seams the merge creates; it reports whether it merged.
func (cl *clustering) join(s mergeSeam, ok func(boundary) bool) bool {
	n, pos := int32(cl.a.n), cl.pos
	ca, cb := cl.of[s.a], cl.of[s.b]
	if ca == cb {
		return false
	}
	// B's cluster moves by (dr, dc) to put b next to a.
	want := pos[s.a]
	if s.dir == dirRight {
		want[1]++
	} else {
		want[0]++
	}
	dr, dc := want[0]-pos[s.b][0], want[1]-pos[s.b][1]
	A, B := cl.cls[ca], cl.cls[cb]
	if max(A.rmax, B.rmax+dr)-min(A.rmin, B.rmin+dr) >= n || max(A.cmax, B.cmax+dc)-min(A.cmin, B.cmin+dc) >= n {
		return false
	}
	// The smaller moves into the larger.
	stay, move, sr, sc := A, B, dr, dc
	cs, cmv := ca, cb
	if len(B.members) > len(A.members) {
		stay, move, sr, sc, cs, cmv = B, A, -dr, -dc, cb, ca
	}
	for _, x := range move.members {
		if _, taken := stay.at[[2]int32{pos[x][0] + sr, pos[x][1] + sc}]; taken {
			return false
		}
	}
	if !ok(cl.a.boundary(stay, move, pos, sr, sc, cl.fl)) {
		return false
	}
	for _, x := range move.members {
		pos[x] = [2]int32{pos[x][0] + sr, pos[x][1] + sc}
		stay.at[pos[x]] = x
		cl.of[x] = cs
	}
	stay.members = append(stay.members, move.members...)
	stay.rmin, stay.rmax = min(stay.rmin, move.rmin+sr), max(stay.rmax, move.rmax+sr)
	stay.cmin, stay.cmax = min(stay.cmin, move.cmin+sc), max(stay.cmax, move.cmax+sc)
	cl.cls[cmv] = nil
	return true
}

// growLargest places the largest cluster on the grid and every other piece
// by the greedy from it, within n×n (cell → piece).
func (cl *clustering) growLargest() []int {
	var big *cluster
	for _, c := range cl.cls {
		if c != nil && (big == nil || len(c.members) > len(big.members)) {
			big = c
		}
	}
	g := cl.a.newGrower()
	off := int32(cl.a.n - 1 - cl.a.n/2)
	for _, x := range big.members {
		g.put(int(cl.pos[x][0]-big.rmin+off), int(cl.pos[x][1]-big.cmin+off), int(x))
	}
	return growRest(g)
}

// loopSeams marks the best-buddy seams of seams (each piece the other's
// cheapest partner that way) that close a 2×2 loop of best buddies with
// the pieces below (or above; for a vertical seam, right or left of) them.
func (a *assembly) loopSeams(seams []mergeSeam) []bool {
	b := a.bestMatches()
	right := func(x, y int) bool { return x >= 0 && y >= 0 && b.right[x] == y && b.left[y] == x }
	down := func(x, y int) bool { return x >= 0 && y >= 0 && b.down[x] == y && b.up[y] == x }
	out := make([]bool, len(seams))
	for i, s := range seams {
		if !s.buddy {
			continue
		}
		x, y := int(s.a), int(s.b)
		if s.dir == dirRight {
			u, v := b.down[x], b.down[y]
			p, q := b.up[x], b.up[y]
			out[i] = down(x, u) && down(y, v) && right(u, v) || down(p, x) && down(q, y) && right(p, q)
		} else {
			u, v := b.right[x], b.right[y]
			p, q := b.left[x], b.left[y]
			out[i] = right(x, u) && right(y, v) && down(u, v) || right(p, x) && right(q, y) && down(p, q)
		}
	}
	return out
}

// growRest places every piece not yet on g's canvas by the greedy and
// returns the grid (cell → piece).
func growRest(g *grower) []int {
	for g.count < g.a.m {
		slot, x := g.next()
		if slot < 0 {
			break
		}
		g.put(slot/g.size, slot%g.size, x)
	}
	return g.finish()
}

// boundary is what moving one cluster next to another creates: the summed
// cost of the new seams, their pieces' best choices (each plus a typical
// seam's cost, so flat regions compare as equal), and how many seams, and
// best-buddy seams, there are.
type boundary struct {
	cost, floor    float64
	seams, buddies int
	good           int // seams where each piece is among the other's two cheapest
}

// fits reports whether the new seams cost, together, at most mergeSlack
// times what their pieces' best choices would.
func (b boundary) fits(*seamFloor) bool { return b.cost <= mergeSlack*b.floor }

// boundary measures the seams that moving move by (sr, sc) next to stay
// creates.
func (a *assembly) boundary(stay, move *cluster, pos [][2]int32, sr, sc int32, fl *seamFloor) boundary {
	m := a.m
	var b boundary
	for _, x := range move.members {
		r, c := pos[x][0]+sr, pos[x][1]+sc
		for _, nb := range [4]struct {
			dr, dc int32
			dir    int
			after  bool
		}{{0, 1, dirRight, true}, {0, -1, dirRight, false}, {1, 0, dirDown, true}, {-1, 0, dirDown, false}} {
			y, ok := stay.at[[2]int32{r + nb.dr, c + nb.dc}]
			if !ok {
				continue
			}
			d := a.right
			if nb.dir == dirDown {
				d = a.down
			}
			p, q := int(x), int(y) // p left of / above q
			if !nb.after {
				p, q = q, p
			}
			sc := float64(fl.scale[nb.dir])
			b.cost += float64(d[p*m+q]) + sc
			b.floor += float64(max(fl.row[nb.dir][p], fl.col[nb.dir][q])) + sc
			b.seams++
			if fl.rowArg[nb.dir][p] == q && fl.colArg[nb.dir][q] == p {
				b.buddies++
			}
			if v := d[p*m+q]; v <= fl.rowSecond[nb.dir][p] && v <= fl.colSecond[nb.dir][q] {
				b.good++
			}
		}
	}
	return b
}
