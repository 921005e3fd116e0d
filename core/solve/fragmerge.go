package solve

import (
	"math"
	"slices"
	"sync/atomic"
)

// Segment merging on a complete answer of a rectangular sheet. A greedy or
// cluster-merged answer of a large grid is often right in large pieces but
// wrong in how they sit to each other: on 32×32 bookshelf its best-buddy
// segments of 100 and 200 pieces are each right inside, PA 0 with NA 0.71.
// Single-seam moves cannot put such a segment elsewhere, and a seam-by-seam
// merge (cluster.go) judged each join by one seam's sureness; here the
// segments are the clusters, and they are joined by the whole boundary a
// join creates: of every pair of segments and every offset at which some
// seam between them is among either piece's cheapest (mergeSeams), the join
// whose new seams cost least against their pieces' best choices (at least
// two seams, within segmentSlack) is made first, again and again, then the
// greedy places the pieces of the largest cluster's surroundings as
// mergeClusters does. The caller keeps the result only if it is cheaper.

// rejoinTries is the most joins rejoin tries: each costs a repair (frame.go).
const rejoinTries = 6

// rejoin joins the segments of a repaired answer again (joinSegments),
// repairs the result and keeps it while that lowers the total cost, up to
// rejoinTries times, and returns the cheapest. On 32×32 sunset-sea the
// cost falls from 13881 to 11896, desert-dunes 8824 to 8111 (PA 0.49 →
// 0.82).
//
// A join that gives an arrangement already repaired here (another least
// size joining the same segments) is not repaired again: the repair is
// deterministic, so it would lose again. Nor is one that changes nothing:
// the answer came out of a repair, and repairing it once more won none of
// the 50 such tries on the 32×32 table (43 more were repeats; 210 in all).
func (a *assembly) rejoin(cells []int) []int { return a.rejoinThen(cells, false) }

// rejoinAnnealed returns anneal(rejoin(cells)), the same answer, sooner
// where a core is spare: each answer the rejoin holds is its last if every
// try after it loses (the benchmark's last two of six), so it anneals that
// answer on the spare core beside the tries, and gives that up when one
// wins. The annealing draws from a generator seeded by the grid alone, so
// begun early or late it gives the same answer.
func (a *assembly) rejoinAnnealed(cells []int) []int { return a.rejoinThen(cells, true) }

func (a *assembly) rejoinThen(cells []int, anneal bool) []int {
	cur := a.cost(cells)
	tries := 0
	repaired := [][]int{cells}
	join := func(i int) []int { return bestRotation(a.n, a.right, a.down, a.joinSegments(cells, rejoinMins[i])) }
	seen := func(x []int) bool {
		return slices.ContainsFunc(repaired, func(r []int) bool { return slices.Equal(r, x) })
	}
	// ahead is the next try's join and repair, made beside this one on a
	// spare core (a.spare): the one to come if this try loses.
	var ahead, aheadCand []int
	// early is cells' annealing, begun on the spare core (which the tries
	// made ahead then leave to it): at a try's start or once its join is
	// made if a core is spare then, else by the search that frees one
	// while the try's repair runs (2026-12-07: the benchmark's MGC search
	// ends during the fourth or fifth try).
	var early *annealAhead
	beginEarly := func() {
		if anneal && early == nil && a.spare.any() && a.loosePool(cells) != nil {
			early = a.annealAhead(cells)
		}
	}
	for i := 0; i < len(rejoinMins) && tries < rejoinTries; tries++ {
		beginEarly()
		joined := ahead
		if joined == nil {
			joined = join(i)
		}
		cand := aheadCand
		ahead, aheadCand = nil, nil
		if seen(joined) {
			i++
			continue
		}
		repaired = append(repaired, joined)
		if cand == nil {
			beginEarly()
			var next []int
			if a.spare.any() && early == nil && i+1 < len(rejoinMins) && tries+1 < rejoinTries {
				if next = join(i + 1); seen(next) {
					next = nil // the next try skips it as a repeat
				}
			}
			if next == nil {
				// With no core spare yet, the one freed during the repair
				// begins the annealing.
				var withdraw func() bool
				var begun chan *annealAhead
				if anneal && early == nil && a.spare != nil && !a.spare.any() {
					held := cells
					begun = make(chan *annealAhead, 1)
					withdraw = a.spare.whenFree(func() {
						var e *annealAhead
						if a.loosePool(held) != nil {
							e = a.annealAhead(held)
						}
						begun <- e
					})
				}
				cand = a.reframe(slices.Clone(joined))
				if withdraw != nil && withdraw() {
					early = <-begun
				}
			} else {
				var nextCand []int
				parallelFor(2, func(k int) error {
					if k == 0 {
						cand = a.reframe(slices.Clone(joined))
					} else {
						nextCand = a.reframe(slices.Clone(next))
					}
					return nil
				})
				ahead, aheadCand = next, nextCand
				atomic.AddInt32(&a.spare.aheads, 1)
			}
		}
		if c := a.cost(cand); c < cur-1e-6 {
			cells, cur, i = cand, c, 0 // from the first again
			repaired = append(repaired, cells)
			ahead, aheadCand = nil, nil // made from the cells replaced
			early.cancel()
			early = nil
		} else {
			i++
		}
	}
	switch {
	case !anneal:
		return cells
	case early != nil:
		atomic.AddInt32(&a.spare.early, 1)
		return early.wait()
	}
	return a.anneal(cells)
}

// annealAhead is an annealing begun on a spare core before it is known
// whether its result is wanted.
type annealAhead struct {
	stop stopFlag
	done chan struct{}
	out  []int
}

// annealAhead begins annealing a copy of cells on a goroutine of its own.
func (a *assembly) annealAhead(cells []int) *annealAhead {
	e := &annealAhead{done: make(chan struct{})}
	cells = slices.Clone(cells)
	go func() {
		defer close(e.done)
		e.out = a.annealUnless(cells, &e.stop)
	}()
	return e
}

// wait returns the annealed answer once it is done.
func (e *annealAhead) wait() []int {
	<-e.done
	return e.out
}

// cancel gives the annealing up; its goroutine ends at its next look at the
// flag (nil: none begun).
func (e *annealAhead) cancel() {
	if e != nil {
		e.stop.stop()
	}
}

// segmentSlack is the most the new seams of a segment join may cost over
// their pieces' best choices, together.
const segmentSlack = 1.5

// rejoinMins are the fewest pieces a segment needs to be joined as a whole
// (smaller ones are left to the greedy), tried in turn until one lowers the
// cost: each leaves a different set to the greedy.
var rejoinMins = []int{6, 16, 3}

// joinSegments returns cells' best-buddy segments joined as above and the
// rest grown around the largest (cell → piece).
func (a *assembly) joinSegments(cells []int, least int) []int {
	n, m := a.n, a.m
	_, _, find := a.buddyComponents(cells, a.bestMatches())
	seams, fl := a.mergeSeams()
	cl := &clustering{a: a, fl: fl, of: make([]int32, m), pos: make([][2]int32, m), cls: make([]*cluster, m)}
	for c, x := range cells {
		root := find(c)
		k := cells[root]
		cl.of[x] = int32(k)
		cl.pos[x] = [2]int32{int32(c / n), int32(c % n)}
		cc := cl.cls[k]
		r, col := int32(c/n), int32(c%n)
		if cc == nil {
			cc = &cluster{at: map[[2]int32]int32{}, rmin: r, rmax: r, cmin: col, cmax: col}
			cl.cls[k] = cc
		}
		cc.members = append(cc.members, int32(x))
		cc.at[cl.pos[x]] = int32(x)
		cc.rmin, cc.rmax = min(cc.rmin, r), max(cc.rmax, r)
		cc.cmin, cc.cmax = min(cc.cmin, col), max(cc.cmax, col)
	}
	type key struct{ ca, cb, dr, dc int32 }
	type cand struct {
		ok    bool
		score float64
	}
	cache := map[key]cand{}
	for {
		best, bestScore := -1, math.Inf(1)
		for i, s := range seams {
			ca, cb := cl.of[s.a], cl.of[s.b]
			if ca == cb || len(cl.cls[ca].members) < least || len(cl.cls[cb].members) < least {
				continue
			}
			want := cl.pos[s.a]
			if s.dir == dirRight {
				want[1]++
			} else {
				want[0]++
			}
			k := key{ca, cb, want[0] - cl.pos[s.b][0], want[1] - cl.pos[s.b][1]}
			cd, seen := cache[k]
			if !seen {
				if b, ok := cl.probe(s); ok && b.seams >= 2 && b.cost <= segmentSlack*b.floor {
					cd = cand{true, b.cost / b.floor}
				}
				cache[k] = cd
			}
			if cd.ok && cd.score < bestScore {
				best, bestScore = i, cd.score
			}
		}
		if best < 0 {
			break
		}
		s := seams[best]
		ca, cb := cl.of[s.a], cl.of[s.b]
		cl.join(s, func(boundary) bool { return true })
		for k := range cache {
			if k.ca == ca || k.cb == ca || k.ca == cb || k.cb == cb {
				delete(cache, k)
			}
		}
	}
	return cl.growLargest()
}

// probe is join without the merge: the boundary the join of s's clusters
// would create, and whether they can join at all (two clusters, the union
// within n×n, no cell taken twice).
func (cl *clustering) probe(s mergeSeam) (boundary, bool) {
	n, pos := int32(cl.a.n), cl.pos
	ca, cb := cl.of[s.a], cl.of[s.b]
	if ca == cb {
		return boundary{}, false
	}
	want := pos[s.a]
	if s.dir == dirRight {
		want[1]++
	} else {
		want[0]++
	}
	dr, dc := want[0]-pos[s.b][0], want[1]-pos[s.b][1]
	A, B := cl.cls[ca], cl.cls[cb]
	if max(A.rmax, B.rmax+dr)-min(A.rmin, B.rmin+dr) >= n || max(A.cmax, B.cmax+dc)-min(A.cmin, B.cmin+dc) >= n {
		return boundary{}, false
	}
	stay, move, sr, sc := A, B, dr, dc
	if len(B.members) > len(A.members) {
		stay, move, sr, sc = B, A, -dr, -dc
	}
	for _, x := range move.members {
		if _, taken := stay.at[[2]int32{pos[x][0] + sr, pos[x][1] + sc}]; taken {
			return boundary{}, false
		}
	}
	return cl.a.boundary(stay, move, pos, sr, sc, cl.fl), true
}
