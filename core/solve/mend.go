package solve

import (
	"cmp"
	"slices"
)

// Mending segments that an answer splits. On shape sheets the framed greedy
// (above 32×32, where no beam runs) and the beams (from 17×17 to 32×32) can
// place a block that is right inside in the wrong place, and join it to the
// rest by seams that happen to be best buddies: on the 64×64 of Garden cut
// from a 1024-px square, 532 pieces sit three rows above their cells inside
// the region the refill trusts, so it keeps them. The segments merged from
// the pieces' surest seams alone (segments.go) know better: one of them
// holds 439 of those pieces and 223 placed right, and the answer puts the
// two parts three rows apart. Where an answer places a segment's pieces at
// two offsets, each part large, a part is moved to the other's offset (the
// pieces it lands on take the cells it leaves), polished and refilled
// (refillDoubtful), and kept if the total cost falls; the split segments
// are taken again until no move is kept (docs/solver.md, "Mending split
// segments"). Garden: PA 0.780 → 0.9995, cheaper than the truth; 32×32
// moonlit-bay under seed 7 0.773 → 0.981.

// mendTries is the most moves tried in all: each costs a polish and a
// refill of the whole answer, 1–8 s at 64×64 (Garden's mend tried four,
// two kept).
const mendTries = 5

// splitMove moves one part of a split segment.
type splitMove struct {
	segment int     // the segment's index in mergeSegments
	by      [2]int  // rows, columns
	size    int     // cells moved
	trial   []int   // the answer with the part moved, not yet refilled
	cost    float64 // trial's penalised cost
}

// mendSplitSegments mends cells (cell → piece) in place as above and
// reports whether it changed them.
func (a *assembly) mendSplitSegments(cells []int) bool {
	total := penalisedCost(a.n, a.right, a.down, cells)
	failed := map[[3]int]bool{} // segment, by: a move that was not kept
	changed, tries := false, 0
	for kept := true; kept && tries < mendTries; {
		kept = false
		for _, mv := range a.splitMoves(cells, total) {
			key := [3]int{mv.segment, mv.by[0], mv.by[1]}
			if failed[key] {
				continue
			}
			if tries == mendTries {
				break
			}
			tries++
			a.polish(mv.trial)
			a.refillDoubtful(mv.trial)
			if c := penalisedCost(a.n, a.right, a.down, mv.trial); c < total-1e-6 {
				copy(cells, mv.trial)
				total, kept, changed = c, true, true
				break
			}
			failed[key] = true
		}
	}
	return changed
}

// splitMinPart is the fewest cells of a part of a split segment worth
// moving in an m-cell grid: smaller ones are the refill's business.
func splitMinPart(m int) int { return max(8, m/256) }

// splitMoves lists the moves of the segments whose pieces cells places at
// two or more offsets with at least splitMinPart of them at each (parts):
// every part but the largest to the largest's offset, and the largest to
// the second's. They are ordered by what the move adds to total (cells'
// cost) before any refill, per cell moved: a part in the wrong place loses
// only its border seams, which were wrong anyway, while a right one also
// breaks its neighbours' (on Garden the misplaced 440 cells add 61 a cell,
// the right 453 moved away 70).
func (a *assembly) splitMoves(cells []int, total float64) []splitMove {
	n, m := a.n, a.m
	s := a.mergeSegments()
	// part is a segment's pieces that cells places at one offset (the
	// segment's origin at cell row, col).
	type part struct {
		segment, row, col int
		cells             []int
	}
	byKey := map[[3]int]*part{}
	var parts []*part
	for c, x := range cells {
		k := [3]int{s.of[x], c/n - s.pos[x][0], c%n - s.pos[x][1]}
		p := byKey[k]
		if p == nil {
			p = &part{segment: k[0], row: k[1], col: k[2]}
			byKey[k] = p
			parts = append(parts, p) // in the order of their first cell
		}
		p.cells = append(p.cells, c)
	}
	minPart := splitMinPart(m)
	parts = slices.DeleteFunc(parts, func(p *part) bool { return len(p.cells) < minPart })
	slices.SortStableFunc(parts, func(p, q *part) int {
		if c := cmp.Compare(p.segment, q.segment); c != 0 {
			return c
		}
		return cmp.Compare(len(q.cells), len(p.cells))
	})
	inPart := make([]bool, m)
	shifted := func(p *part, dr, dc int) *splitMove {
		for _, c := range p.cells {
			inPart[c] = true
		}
		trial := slices.Clone(cells)
		moved := shiftPart(n, trial, cells, p.cells, inPart, dr, dc) != nil
		for _, c := range p.cells {
			inPart[c] = false
		}
		if !moved {
			return nil
		}
		return &splitMove{segment: p.segment, by: [2]int{dr, dc}, size: len(p.cells), trial: trial,
			cost: penalisedCost(n, a.right, a.down, trial)}
	}
	var out []splitMove
	for i := 0; i < len(parts); {
		j := i + 1
		for j < len(parts) && parts[j].segment == parts[i].segment {
			j++
		}
		// parts[i:j] are one segment's, largest first: each other part
		// moves to the largest one's offset, or the largest to the
		// second's, whichever costs less before any refill.
		if j-i >= 2 {
			big, second := parts[i], parts[i+1]
			if mv := shifted(big, second.row-big.row, second.col-big.col); mv != nil {
				out = append(out, *mv)
			}
			for _, p := range parts[i+1 : j] {
				if mv := shifted(p, big.row-p.row, big.col-p.col); mv != nil {
					out = append(out, *mv)
				}
			}
		}
		i = j
	}
	perCell := func(mv splitMove) float64 { return (mv.cost - total) / float64(mv.size) }
	slices.SortStableFunc(out, func(u, v splitMove) int { return cmp.Compare(perCell(u), perCell(v)) })
	return out
}
