package solve

import (
	"cmp"
	"slices"
)

// Polishing a rect answer from 9×9 to 16×16. The searches there end in a
// frame the repair keeps and, inside it, a few places where none of the
// repair's moves of whole lines, bands and blocks lowers the cost: a fog's
// rows each holding their own pieces in the wrong order (16×16
// misty-pines: the top six rows, 45 pieces), a reflection's block of three
// rows whose pieces sit two columns over (12×12 night-city), a band turned
// round its wrap but for a few pieces of its last line (12×12 misty-pines
// under another shuffle). Three moves reach them: each row and each column
// filled again by the refill beam between its fixed neighbours
// (refillLines), annealing the loose part (annealLoose, as the 32×32
// search ends), and a band of whole lines turned with the lines at its
// edges refilled (turnAndRefill). Each runs by MGC and by the blend, the
// six on both cores at once; a result is kept only where all four
// measures — MGC, the blend and both side means — price it lower, and of
// those MGC's cheapest wins; where that is an annealing's, the frame repair
// by either measure then runs on it, kept on the same terms. A result that
// moves more than one cell in polishReach is not a polish but a new frame,
// and is not kept: on 12×12 night-city the blend's annealing followed by
// its frame repair wraps the bottom three rows to the top, cheaper than
// the answer by every measure, and the answer's frame is the true one.
// (There MGC's result is cheaper still: on the survey, under three
// shuffles, nothing hangs on the bound; at one cell in four it refused
// misty-pines's band turn, 59 cells.) After a kept result the band turns
// alone are tried again (polishTurnRounds): lines refilled can make one
// pay. A second round of all three steps won only tied pieces more on the
// survey, for twice the time on the benchmark's answer (whose first round
// keeps a refill); filling 6 × 6 windows again (refillWindows) won little
// more for much more time (docs/solver.md, "Polishing up to 16×16").

// polishReach is as above; polishLineWidth is the refill beam's width for
// one line (8, 16 and 64 states won the same on the survey; 64 took six
// times as long); polishTurns is how many band turns turnAndRefill tries
// in each direction; polishTurnRounds how often it is tried again.
const (
	polishReach      = 2
	polishLineWidth  = 8
	polishTurns      = 8
	polishTurnRounds = 2
)

// polish returns cells (an n×n rect answer, cell → piece) polished as
// above, where MGC's best-buddy seams leave a large loose part
// (buddyShare under blendBelow); byMGC and byBlend are the assemblies of
// MGC's seams and the blend's.
func polish(byMGC, byBlend *assembly, ms *measures, cells []int) []int {
	n := byMGC.n
	cm, by := byMGC.matrix(), byBlend.matrix()
	searches := []*assembly{byMGC, byBlend}
	if !(searches[0].buddyShare(cells) < blendBelow) {
		return cells
	}
	for _, a := range searches {
		a.bestMatches() // shared by the steps below, built before they run at once
	}
	// better runs each step by each search on cells, all at once, and
	// returns the result kept as above and its step's index; nil if none
	// is kept.
	better := func(steps ...func(a *assembly, x []int) []int) ([]int, int) {
		tries := make([][]int, len(searches)*len(steps))
		parallelFor(len(tries), func(i int) error {
			tries[i] = steps[i%len(steps)](searches[i/len(steps)], slices.Clone(cells))
			return nil
		})
		var best []int
		step := -1
		for i, x := range tries {
			// The side means are built only for a result MGC and the
			// blend both price lower: most answers polished have none.
			if k := differ(x, cells); k == 0 || k > len(cells)/polishReach || !cheaperBy(n, x, cells, cm, by) ||
				!cheaperBy(n, x, cells, ms.sideMeans(0), ms.sideMeans(1)) {
				continue
			}
			if best == nil || cheaperBy(n, x, best, cm) {
				best, step = x, i%len(steps)
			}
		}
		return best, step
	}
	refillLines := func(a *assembly, x []int) []int { a.refillLines(x); return x }
	annealLoose := func(a *assembly, x []int) []int { x, _ = a.annealLoose(x); return x }
	const annealing = 1 // annealLoose's index below
	next, step := better(refillLines, annealLoose, (*assembly).turnAndRefill)
	if next == nil {
		return cells
	}
	cells = next
	if step == annealing {
		// What the exchanges brought near its place the frame repair's
		// moves finish, as after anneal. (A refill keeps each line's
		// pieces in their line: on the survey no repair after it won.)
		if next, _ := better((*assembly).reframe); next != nil {
			cells = next
		}
	}
	// Lines put in order can make a band turn pay that did not before
	// (16×16 misty-pines under another shuffle: its refilled fog rows then
	// turn three columns back, 103 cells, PA 0.606 → 0.895). The band turns
	// alone are tried again while they are kept.
	for range polishTurnRounds {
		next, _ := better((*assembly).turnAndRefill)
		if next == nil {
			break
		}
		cells = next
	}
	return cells
}

// refillLines fills each row and each column of cells again, in place, by
// the refill beam (refill.go) between the fixed cells beside it, from
// either end, keeping a filling where the total cost falls, pass after
// pass while a pass lowers it (at most windowPasses). Each pass takes the
// lines by the cost of the seams along them, each over the sum of its
// direction's, dearest first: the line out of order is the one whose own
// seams are dear, and a line refilled before it — a neighbour, or a line
// across it — would take its pieces on into the wrong order or the wrong
// line. It reports whether cells changed.
func (a *assembly) refillLines(cells []int) bool {
	n, m := a.n, a.m
	cur := a.cost(cells)
	best := a.bestMatches()
	type line struct {
		cells   []int
		along   float64 // the seams between its cells, then over its direction's sum
		vouched bool    // each of them a best-buddy seam
	}
	lines := make([]line, 2*n)
	for i := range lines {
		lines[i].cells = make([]int, n)
	}
	changed := false
	for range windowPasses {
		var total [2]float64 // rows', columns'
		for i := range lines {
			l := &lines[i]
			vertical := i >= n
			l.along, l.vouched = 0, true
			for j := range n {
				if vertical {
					l.cells[j] = j*n + i - n
				} else {
					l.cells[j] = i*n + j
				}
				if j == 0 {
					continue
				}
				x, y := cells[l.cells[j-1]], cells[l.cells[j]]
				if vertical {
					l.along += float64(a.down[x*m+y])
					l.vouched = l.vouched && best.down[x] == y && best.up[y] == x
				} else {
					l.along += float64(a.right[x*m+y])
					l.vouched = l.vouched && best.right[x] == y && best.left[y] == x
				}
			}
			total[i/n] += l.along
		}
		for i := range lines {
			if k := total[i/n]; k > 0 {
				lines[i].along /= k
			}
		}
		slices.SortStableFunc(lines, func(p, q line) int { return cmp.Compare(q.along, p.along) })
		moved := false
		for _, l := range lines {
			if l.vouched {
				continue // in order: only a shift of the whole line could move it
			}
			for range 2 {
				if f := a.refill(cells, l.cells, polishLineWidth); f != nil {
					if c := a.cost(f); c < cur-1e-6 {
						copy(cells, f)
						cur, moved = c, true
					}
				}
				slices.Reverse(l.cells)
			}
		}
		if !moved {
			break
		}
		changed = true
	}
	return changed
}

// turnAndRefill tries the polishTurns band turns (bands.go) of rows, and
// of columns, that lower the cost most or raise it least, each with the
// lines at its two edges, inside and out, filled again by the refill beam,
// and returns the cheapest result if it costs less than cells (else
// cells). A band that grew round the wrong side of a wrap often has one
// edge line only partly turned — its other pieces already in place — so
// that turning the band alone costs more and refilling the line alone
// cannot move the rest (12×12 misty-pines under another shuffle: its top
// five rows five columns over but for six pieces of the fifth).
func (a *assembly) turnAndRefill(cells []int) []int {
	n := a.n
	cur := a.cost(cells)
	best := cells
	for _, vertical := range [2]bool{false, true} {
		type cand struct {
			d  float64
			tr bandTurn
		}
		var turns []cand // the polishTurns cheapest, cheapest first
		a.eachBandTurn(cells, vertical, func(d float64, tr bandTurn) {
			if tr.f > 0 || tr.t < n || len(turns) == polishTurns && d >= turns[len(turns)-1].d {
				return
			}
			i, _ := slices.BinarySearchFunc(turns, d, func(c cand, d float64) int {
				if c.d <= d {
					return -1
				}
				return 1
			})
			turns = slices.Insert(turns, i, cand{d, tr})
			if len(turns) > polishTurns {
				turns = turns[:polishTurns]
			}
		})
		line := make([]int, n)
		for _, c := range turns {
			x := slices.Clone(cells)
			c.tr.apply(n, x, cells, vertical)
			xCost := a.cost(x)
			for k, b := range [4]int{c.tr.i0 - 1, c.tr.i0, c.tr.i1 - 1, c.tr.i1} {
				if b < 0 || b >= n || k == 2 && b == c.tr.i0 {
					continue // off the grid, or a band one line thick
				}
				for j := range n {
					if vertical {
						line[j] = j*n + b
					} else {
						line[j] = b*n + j
					}
				}
				for range 2 {
					if f := a.refill(x, line, polishLineWidth); f != nil {
						if fc := a.cost(f); fc < xCost-1e-6 {
							x, xCost = f, fc
						}
					}
					slices.Reverse(line)
				}
			}
			if xCost < cur-1e-6 {
				best, cur = x, xCost
			}
		}
	}
	return best
}
