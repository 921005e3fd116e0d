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

// mergeSeams lists the candidate seams, surest first.
func (a *assembly) mergeSeams() ([]mergeSeam, *seamFloor) {
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
			top = cheapest(top[:0], m, mergeCandidates, x, func(y int) float32 { return d[x*m+y] })
			for _, y := range top {
				add(x, y)
			}
		}
		for y := range m {
			top = cheapest(top[:0], m, mergeCandidates, y, func(x int) float32 { return d[x*m+y] })
			for _, x := range top {
				add(x, y)
			}
		}
	}
	slices.SortStableFunc(out, func(p, q mergeSeam) int {
		if p.buddy != q.buddy {
			if p.buddy {
				return -1
			}
			return 1
		}
		if c := cmp.Compare(p.w, q.w); c != 0 {
			return c
		}
		return cmp.Compare(p.a*int32(m)+p.b, q.a*int32(m)+q.b)
	})
	return out, fl
}

// seamFloor holds, per direction, every piece's two cheapest partners'
// costs as A (row: the piece on its right or below) and as B (col), the
// cheapest partner, and a typical true seam's cost (the median cheapest).
type seamFloor struct {
	row, rowSecond, col, colSecond [2][]float32
	rowArg, colArg                 [2][]int
	scale                          [2]float32
}

func (a *assembly) seamFloors() *seamFloor {
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

// cheapest appends to out the k indices i ≠ self of 0…m−1 with the least
// f(i), cheapest first.
func cheapest(out []int, m, k, self int, f func(int) float32) []int {
	for i := range m {
		if i == self {
			continue
		}
		v := f(i)
		if len(out) == k && v >= f(out[k-1]) {
			continue
		}
		if len(out) < k {
			out = append(out, i)
		} else {
			out[k-1] = i
		}
		for j := len(out) - 1; j > 0 && f(out[j-1]) > f(out[j]); j-- {
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
	n, m := int32(a.n), a.m
	of := make([]int32, m)     // piece → cluster
	pos := make([][2]int32, m) // piece → (row, col) in its cluster
	cls := make([]*cluster, m)
	for x := range m {
		of[x] = int32(x)
		cls[x] = &cluster{members: []int32{int32(x)}, at: map[[2]int32]int32{{0, 0}: int32(x)}}
	}
	seams, fl := a.mergeSeams()
	for _, s := range seams {
		ca, cb := of[s.a], of[s.b]
		if ca == cb {
			continue
		}
		// B's cluster moves by (dr, dc) to put b next to a.
		want := pos[s.a]
		if s.dir == dirRight {
			want[1]++
		} else {
			want[0]++
		}
		dr, dc := want[0]-pos[s.b][0], want[1]-pos[s.b][1]
		A, B := cls[ca], cls[cb]
		if max(A.rmax, B.rmax+dr)-min(A.rmin, B.rmin+dr) >= n || max(A.cmax, B.cmax+dc)-min(A.cmin, B.cmin+dc) >= n {
			continue
		}
		// The smaller moves into the larger.
		stay, move, sr, sc := A, B, dr, dc
		cs, cmv := ca, cb
		if len(B.members) > len(A.members) {
			stay, move, sr, sc, cs, cmv = B, A, -dr, -dc, cb, ca
		}
		clash := false
		for _, x := range move.members {
			if _, ok := stay.at[[2]int32{pos[x][0] + sr, pos[x][1] + sc}]; ok {
				clash = true
				break
			}
		}
		if clash || !a.mergeFits(stay, move, pos, sr, sc, fl) {
			continue
		}
		for _, x := range move.members {
			pos[x] = [2]int32{pos[x][0] + sr, pos[x][1] + sc}
			stay.at[pos[x]] = x
			of[x] = cs
		}
		stay.members = append(stay.members, move.members...)
		stay.rmin, stay.rmax = min(stay.rmin, move.rmin+sr), max(stay.rmax, move.rmax+sr)
		stay.cmin, stay.cmax = min(stay.cmin, move.cmin+sc), max(stay.cmax, move.cmax+sc)
		cls[cmv] = nil
	}
	var big *cluster
	for _, c := range cls {
		if c != nil && (big == nil || len(c.members) > len(big.members)) {
			big = c
		}
	}
	// The rest grows from the largest cluster, within n×n.
	g := a.newGrower()
	off := int32(a.n - 1 - a.n/2)
	for _, x := range big.members {
		g.put(int(pos[x][0]-big.rmin+off), int(pos[x][1]-big.cmin+off), int(x))
	}
	return growRest(g)
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

// mergeFits reports whether the seams that moving move by (sr, sc) next to
// stay creates cost, together, at most mergeSlack times what their pieces'
// best choices would (each plus a typical seam's cost, so flat regions
// compare as equal).
func (a *assembly) mergeFits(stay, move *cluster, pos [][2]int32, sr, sc int32, fl *seamFloor) bool {
	m := a.m
	var cost, floor float64
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
			cost += float64(d[p*m+q]) + sc
			floor += float64(max(fl.row[nb.dir][p], fl.col[nb.dir][q])) + sc
		}
	}
	return cost <= mergeSlack*floor
}
