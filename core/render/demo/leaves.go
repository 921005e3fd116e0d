package demo

import (
	"cmp"
	"math"
	"slices"
)

// leafGrid is a carpet of pointed oval leaves, one per grid cell, laid out in advance.
// Where leaves overlap, the one with the larger hash lies on top. Each cell keeps the
// few leaves that can reach into it, topmost first, so a look-up usually stops at the
// first leaf it tries.
type leafGrid struct {
	u0, v0, s float64
	nx, ny    int
	leaves    []leaf
	start     []int32 // candidates of cell k: cand[start[k]:start[k+1]]
	cand      []int32
}

type leaf struct {
	cx, cy, ca, sa float64 // centre and orientation
	col            rgb
	h              uint32
}

// Leaf shape, in cells: half-length and greatest half-width.
const leafLen, leafWidth = 0.9, 0.45

// newLeafGrid covers [u0, u1] × [v0, v1] with cells of size s. density(cu, cv) is the
// chance that the cell centred at (cu, cv) holds a leaf.
func newLeafGrid(u0, v0, u1, v1, s float64, seed uint32, cols []rgb, density func(u, v float64) float64) *leafGrid {
	g := &leafGrid{u0: u0, v0: v0, s: s, nx: int(math.Ceil((u1-u0)/s)) + 2, ny: int(math.Ceil((v1-v0)/s)) + 2}
	idx := make([]int32, g.nx*g.ny) // leaf of each cell, -1 for none
	for j := range g.ny {
		for i := range g.nx {
			idx[j*g.nx+i] = -1
			h := hash(i, j, seed)
			ang := float64(twoPi * rnd(i, j, seed+3))
			l := leaf{
				cx: u0 + float64((float64(i-1)+0.1+float64(0.8*rnd(i, j, seed+1)))*s),
				cy: v0 + float64((float64(j-1)+0.1+float64(0.8*rnd(i, j, seed+2)))*s),
				ca: cos(ang), sa: sin(ang),
				col: cols[h>>20%uint32(len(cols))].scale(float64(0.85 + float64(0.3*rnd(i, j, seed+4)))),
				h:   h,
			}
			if unit(h) < density(l.cx, l.cy) {
				idx[j*g.nx+i] = int32(len(g.leaves))
				g.leaves = append(g.leaves, l)
			}
		}
	}
	// Candidates: leaves of the 3×3 neighbourhood whose bounding box (with a margin
	// for anti-aliasing) meets the cell.
	g.start = make([]int32, 0, g.nx*g.ny+1)
	for j := range g.ny {
		for i := range g.nx {
			g.start = append(g.start, int32(len(g.cand)))
			first := len(g.cand)
			x0, y0 := u0+float64(float64(i-1)*s), v0+float64(float64(j-1)*s)
			for jj := max(j-1, 0); jj <= min(j+1, g.ny-1); jj++ {
				for ii := max(i-1, 0); ii <= min(i+1, g.nx-1); ii++ {
					k := idx[jj*g.nx+ii]
					if k < 0 {
						continue
					}
					l := &g.leaves[k]
					ex := float64(float64(leafLen*s)*math.Abs(l.ca)) + float64(float64(leafWidth*s)*math.Abs(l.sa)) + float64(0.35*s)
					ey := float64(float64(leafLen*s)*math.Abs(l.sa)) + float64(float64(leafWidth*s)*math.Abs(l.ca)) + float64(0.35*s)
					if l.cx+ex > x0 && l.cx-ex < x0+s && l.cy+ey > y0 && l.cy-ey < y0+s {
						g.cand = append(g.cand, k)
					}
				}
			}
			slices.SortFunc(g.cand[first:], func(a, b int32) int {
				return cmp.Or(cmp.Compare(g.leaves[b].h, g.leaves[a].h), cmp.Compare(a, b))
			})
		}
	}
	g.start = append(g.start, int32(len(g.cand)))
	return g
}

// at is the leaf colour and coverage at (u, v); px is pixels per unit, for anti-aliasing.
func (g *leafGrid) at(u, v, px float64) (rgb, float64) {
	i := int(clampTo((u-g.u0)/g.s+1, float64(g.nx-1)))
	j := int(clampTo((v-g.v0)/g.s+1, float64(g.ny-1)))
	k := j*g.nx + i
	reach := float64(leafLen * g.s)
	var top *leaf
	var tw, thalf, a float64
	for _, c := range g.cand[g.start[k]:g.start[k+1]] {
		l := &g.leaves[c]
		dx, dy := u-l.cx, v-l.cy
		along := (float64(dx*l.ca) + float64(dy*l.sa)) / reach
		if along <= -1 || along >= 1 {
			continue
		}
		w := math.Abs(float64(dy*l.ca) - float64(dx*l.sa))
		half := float64(float64(leafWidth*g.s) * (1 - float64(along*along)))
		la := cover(float64((w - half) * px))
		if la <= 0 {
			continue
		}
		if top == nil {
			top, tw, thalf = l, w, half
		}
		// Under the top leaf's anti-aliased edge, another may cover more.
		a = max(a, la)
		if a >= 1 {
			break
		}
	}
	if top == nil {
		return rgb{}, 0
	}
	// Darker midrib, lighter towards the edge.
	lc := top.col.scale(float64(0.8 + float64(0.3*smoothstep(0, thalf, tw))))
	rib := cover(float64((tw - float64(0.04*g.s)) * px))
	return mix(lc, lc.scale(0.7), rib), a
}
