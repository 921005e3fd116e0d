package solve

import (
	"cmp"
	"slices"
)

// Segment moves for rectangular sheets: a large-neighbourhood search on a
// complete answer. The answer's segments are its regions joined by
// best-buddy seams (buddyComponents); a segment that grew in the wrong
// place is still right inside, and the best buddies of its border pieces,
// placed elsewhere, say where it belongs. Each translation that two or more
// of them agree on is tried: the segment moves as a block, the pieces it
// lands on take the cells it left by exact assignment layer by layer
// (fillByLayers), and the move is kept only when the total cost falls.

// segmentMoveVotes is how many border seams must agree on a translation
// before it is tried.
const segmentMoveVotes = 2

// segmentMovePasses is the most rounds of moves over all segments.
const segmentMovePasses = 4

// moveSegments moves segments of cells in place as above and reports
// whether it moved any.
func (a *assembly) moveSegments(cells []int, best *matches) bool {
	moved := false
	for range segmentMovePasses {
		if !a.moveSegmentsOnce(cells, best) {
			break
		}
		moved = true
	}
	return moved
}

// segmentMove is a translation of a segment and the seams that vote for it.
type segmentMove struct {
	dr, dc, votes int
}

func (a *assembly) moveSegmentsOnce(cells []int, best *matches) bool {
	m := a.m
	_, _, find := a.buddyComponents(cells, best)
	members := map[int][]int{} // root → cells, in cell order
	var roots []int
	for c := range cells {
		r := find(c)
		if members[r] == nil {
			roots = append(roots, r)
		}
		members[r] = append(members[r], c)
	}
	// Largest segments first (ties by root): they carry the most evidence.
	slices.SortStableFunc(roots, func(p, q int) int { return cmp.Compare(len(members[q]), len(members[p])) })
	cur := a.cost(cells)
	moved := false
	trial := make([]int, m)
	inSeg := make([]bool, m)
	where := make([]int, m) // piece → cell
	for _, root := range roots {
		seg := members[root]
		if len(seg) < 2 || len(seg) > m/2 {
			continue
		}
		// The segment's cells may have changed with an earlier move: take
		// them as they are now only if the segment is still whole.
		for c, x := range cells {
			where[x] = c
		}
		for _, c := range seg {
			inSeg[c] = true
		}
		for _, mv := range a.segmentMoves(cells, seg, inSeg, where, best) {
			copy(trial, cells)
			if !a.translate(trial, cells, seg, inSeg, mv.dr, mv.dc) {
				continue
			}
			if c := a.cost(trial); c < cur-1e-6 {
				copy(cells, trial)
				cur, moved = c, true
				break
			}
		}
		for _, c := range seg {
			inSeg[c] = false
		}
	}
	return moved
}

// segmentMoves lists the translations that the best buddies of seg's
// border pieces, placed outside seg, agree on (at least segmentMoveVotes)
// and that keep it on the grid, most votes first.
func (a *assembly) segmentMoves(cells, seg []int, inSeg []bool, where []int, best *matches) []segmentMove {
	n := a.n
	votes := map[[2]int]int{}
	vote := func(c, y, dr, dc int) {
		// x at cell c wants to be at y's cell minus (dr, dc).
		cy := where[y]
		if inSeg[cy] {
			return
		}
		tr, tc := cy/n-dr, cy%n-dc
		votes[[2]int{tr - c/n, tc - c%n}]++
	}
	for _, c := range seg {
		x := cells[c]
		if y := best.right[x]; best.left[y] == x {
			vote(c, y, 0, 1)
		}
		if y := best.left[x]; best.right[y] == x {
			vote(c, y, 0, -1)
		}
		if y := best.down[x]; best.up[y] == x {
			vote(c, y, 1, 0)
		}
		if y := best.up[x]; best.down[y] == x {
			vote(c, y, -1, 0)
		}
	}
	rmin, rmax, cmin, cmax := n, -1, n, -1
	for _, c := range seg {
		rmin, rmax = min(rmin, c/n), max(rmax, c/n)
		cmin, cmax = min(cmin, c%n), max(cmax, c%n)
	}
	var out []segmentMove
	for d, v := range votes {
		if rmin+d[0] < 0 || rmax+d[0] >= n || cmin+d[1] < 0 || cmax+d[1] >= n {
			continue // off the grid
		}
		if v >= segmentMoveVotes && d != [2]int{0, 0} {
			out = append(out, segmentMove{d[0], d[1], v})
		}
	}
	slices.SortFunc(out, func(p, q segmentMove) int {
		if c := cmp.Compare(q.votes, p.votes); c != 0 {
			return c
		}
		if c := cmp.Compare(p.dr, q.dr); c != 0 {
			return c
		}
		return cmp.Compare(p.dc, q.dc)
	})
	return out
}

// translate writes into trial (a copy of cells) seg moved by (dr, dc), the
// pieces it displaces refilled into the cells it vacates by fillByLayers;
// false (trial unchanged) if the segment would leave the grid.
func (a *assembly) translate(trial, cells, seg []int, inSeg []bool, dr, dc int) bool {
	vacated := shiftPart(a.n, trial, cells, seg, inSeg, dr, dc)
	if vacated == nil {
		return false
	}
	a.fillByLayers(trial, vacated)
	return true
}

// shiftPart writes into trial (a copy of cells) the cells of part (inPart
// marks them) moved by (dr, dc), the pieces they land on put into the cells
// they leave, in cell order, and returns those cells; nil (trial
// unchanged) if the part would leave the grid or not move.
func shiftPart(n int, trial, cells, part []int, inPart []bool, dr, dc int) []int {
	for _, c := range part {
		r, col := c/n+dr, c%n+dc
		if r < 0 || col < 0 || r >= n || col >= n {
			return nil
		}
	}
	d := dr*n + dc
	var displaced, vacated []int
	for _, c := range part {
		if t := c + d; !inPart[t] {
			displaced = append(displaced, cells[t])
		}
		if s := c - d; s < 0 || s >= len(cells) || !inPart[s] { // no cell of part lands on c
			vacated = append(vacated, c)
		}
	}
	for _, c := range part {
		trial[c+d] = cells[c]
	}
	for i, c := range vacated {
		trial[c] = displaced[i]
	}
	return vacated
}
