package solve

import (
	"math"
	"math/rand/v2"
	"runtime"
	"slices"
	"sync/atomic"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// displaced is the true arrangement of an n×n synthetic puzzle with its
// left band (columns 0…7) rotated down by 6 cells and then its top band
// (rows 0…5) rotated right by 4: four segments, each right inside, placed
// wrongly against each other.
func displaced(n int) []int { return displacedFrom(n, identity(n*n)) }

// displacedFrom is displaced applied to the arrangement truth.
func displacedFrom(n int, truth []int) []int {
	cells := slices.Clone(truth)
	for r := range n {
		for c := range 8 {
			cells[((r+6)%n)*n+c] = truth[r*n+c]
		}
	}
	tmp := slices.Clone(cells)
	for r := range 6 {
		for c := range n {
			cells[r*n+(c+4)%n] = tmp[r*n+c]
		}
	}
	return cells
}

// TestJoinSegmentsPlacesDisplacedFragments: joining the segments of the
// displaced arrangement by whole boundaries, with no repair, rebuilds the
// true one; rejoin after a repair ends there too and never raises the cost.
func TestJoinSegmentsPlacesDisplacedFragments(t *testing.T) {
	const n = 20
	a := syntheticAssembly(n, 7)
	truth := identity(n * n)
	cells := displaced(n)
	got := bestRotation(n, a.right, a.down, a.joinSegments(cells, 6))
	if !slices.Equal(got, truth) {
		t.Fatalf("joinSegments: cost %v, truth %v", a.cost(got), a.cost(truth))
	}
	if got := a.rejoin(a.reframe(displaced(n))); !slices.Equal(got, truth) {
		t.Fatalf("rejoin: cost %v, truth %v", a.cost(got), a.cost(truth))
	}
	shuf := identity(n * n)
	rand.New(rand.NewPCG(1, 1)).Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
	if got := a.rejoin(slices.Clone(shuf)); a.cost(got) > a.cost(shuf) {
		t.Fatalf("rejoin raised the cost of a shuffle: %v > %v", a.cost(got), a.cost(shuf))
	}
}

// TestRejoinSpareCore: with a core spare, rejoin makes its next try beside
// each one (the one to come if it loses) and anneals the answer it holds
// beside its tries (the answer if every try after loses), and the search
// ends at the same answer as without (32×32 moonlit-bay's rect sheet by
// MGC, where the tries win and lose in turn and the answer keeps a loose
// part; under the race detector 24×24 by relative costs, which does both
// there). An annealing stopped before it begins leaves its answer as it was.
func TestRejoinSpareCore(t *testing.T) {
	n, relative := 32, false
	if raceEnabled || testing.Short() {
		n, relative = 24, true // the race detector checks the work done side by side
	}
	gen := surveyInstance(t, "moonlit-bay", "", n)
	g, pcs := cutSheet(t, gen, true)
	cm := newCompatMatrix(newSeamSet(g, pcs), pcs, false)
	if relative {
		cm = cm.relative()
	}
	sides := make([]puzzle.Sides, n*n)
	want, _ := arrange(n, sides, cm, false, beamWidth(n, false))
	spare := &spareCores{}
	spare.free()
	got, _ := arrangeSparing(n, sides, cm, false, beamWidth(n, false), spare)
	if !slices.Equal(got, want) {
		cost := func(x []int) float64 { return penalisedCost(n, cm.d[dirRight], cm.d[dirDown], x) }
		t.Fatalf("with a spare core the search ends at cost %v, without at %v", cost(got), cost(want))
	}
	if atomic.LoadInt32(&spare.aheads) == 0 {
		t.Error("no try was made ahead: the test does not exercise the spare core's tries")
	}
	if atomic.LoadInt32(&spare.early) == 0 {
		t.Error("no annealing begun ahead was kept: the test does not exercise the spare core's annealing")
	}
	// A core freed while a try's repair runs, as when the other search
	// ends: the annealing begins on it at once, and the answer is the same.
	late := &spareCores{}
	freed, searched := make(chan bool), make(chan struct{})
	go func() {
		for {
			late.mu.Lock()
			waiting := len(late.waiting)
			late.mu.Unlock()
			if waiting > 0 {
				late.free()
				freed <- true
				return
			}
			select {
			case <-searched:
				freed <- false
				return
			default:
				runtime.Gosched()
			}
		}
	}()
	got, _ = arrangeSparing(n, sides, cm, false, beamWidth(n, false), late)
	close(searched)
	if !<-freed {
		t.Fatal("no try waited for a spare core: the test does not exercise a core freed during a try")
	}
	if !slices.Equal(got, want) {
		t.Fatal("with a core freed during a try the search ends at another answer")
	}
	a := newAssembly(n, sides, cm, false)
	pool := a.loosePool(want)
	shaken := slices.Clone(want)
	for i := 0; i+1 < len(pool); i += 2 {
		shaken[pool[i]], shaken[pool[i+1]] = shaken[pool[i+1]], shaken[pool[i]]
	}
	if slices.Equal(a.anneal(slices.Clone(shaken)), shaken) {
		t.Fatal("the annealing left a shaken answer as it was: the test does not exercise stopping it")
	}
	var stop stopFlag
	stop.stop()
	if got := a.annealUnless(slices.Clone(shaken), &stop); !slices.Equal(got, shaken) {
		t.Fatal("an annealing stopped before it began changed its answer")
	}
}

// TestSpareCoresWhenFree: work waiting for a spare core runs on the
// goroutine that frees one, once; withdrawn before, never; asked for with a
// core spare already, at once; and each wait is withdrawn on its own.
func TestSpareCoresWhenFree(t *testing.T) {
	s := &spareCores{}
	ran := make(chan int, 4)
	first := s.whenFree(func() { ran <- 1 })
	second := s.whenFree(func() { ran <- 2 })
	if second() {
		t.Fatal("withdrawn before any core was freed, yet reported taken")
	}
	s.free()
	if got := <-ran; got != 1 {
		t.Fatalf("freeing a core ran work %d, want 1", got)
	}
	if !first() {
		t.Fatal("run when a core was freed, yet reported not taken")
	}
	third := s.whenFree(func() { ran <- 3 })
	if got := <-ran; got != 3 || !third() {
		t.Fatalf("with a core spare already, ran work %d (want 3 at once)", got)
	}
	s.free()
	select {
	case got := <-ran:
		t.Fatalf("work %d ran again, or after it was withdrawn", got)
	default:
	}
	var none *spareCores
	if none.whenFree(func() { t.Error("ran with no spare cores") })() {
		t.Fatal("with no spare cores work was reported taken")
	}
}

// TestRotateBlocksMatchesBySets: the shifts priced by the seams they
// change (rotateBlocks) are the moves of pricing every seam of the
// block (rotateBlocksBySets), on 20×20 arrangements from the truth with
// blocks displaced to a random shuffle.
func TestRotateBlocksMatchesBySets(t *testing.T) {
	const n = 20
	a := syntheticAssembly(n, 3)
	rng := rand.New(rand.NewPCG(5, 6))
	starts := [][]int{displaced(n), identity(n * n)}
	for k := range 4 {
		c := displaced(n)
		for range 3 * (k + 1) { // a few swaps on top
			i, j := rng.IntN(n*n), rng.IntN(n*n)
			c[i], c[j] = c[j], c[i]
		}
		starts = append(starts, c)
	}
	shuf := identity(n * n)
	rng.Shuffle(len(shuf), func(i, j int) { shuf[i], shuf[j] = shuf[j], shuf[i] })
	starts = append(starts, shuf)
	for i, start := range starts {
		x, y := slices.Clone(start), slices.Clone(start)
		mx := a.rotateBlocksBySets(x, a.bestMatches())
		my := a.rotateBlocks(y, a.bestMatches(), nil)
		if mx != my || !slices.Equal(x, y) {
			t.Fatalf("start %d: by sets moved %v to cost %v, by changes %v to cost %v", i, mx, a.cost(x), my, a.cost(y))
		}
	}
}

// TestRotateBlocksMatchesBySetsRandom is the same on seams of random
// fractions, true ones cheaper, from the truth with pieces exchanged and
// from shuffles, on grids from 4×4 to 18×18: no two prices alike, so a
// shift priced from another block's sums would show.
func TestRotateBlocksMatchesBySetsRandom(t *testing.T) {
	rng := rand.New(rand.NewPCG(11, 12))
	for _, n := range []int{4, 7, 12, 16, 18} {
		m := n * n
		a := randomSeams(n, rng)
		a.positive = nonNegative(a.right) && nonNegative(a.down)
		for k := range 6 {
			start := identity(m)
			if k < 4 {
				for range max(1, m/32) * (k + 1) {
					i, j := rng.IntN(m), rng.IntN(m)
					start[i], start[j] = start[j], start[i]
				}
			} else {
				rng.Shuffle(m, func(i, j int) { start[i], start[j] = start[j], start[i] })
			}
			x, y := slices.Clone(start), slices.Clone(start)
			mx := a.rotateBlocksBySets(x, a.bestMatches())
			my := a.rotateBlocks(y, a.bestMatches(), nil)
			if mx != my || !slices.Equal(x, y) {
				t.Fatalf("%d×%d, start %d: by sets moved %v to cost %v, by changes %v to cost %v", n, n, k, mx, a.cost(x), my, a.cost(y))
			}
		}
	}
}

// TestRotateBlocksMemo: passing over the blocks the previous call
// priced on the same seams (shiftMemo) makes the moves of pricing them
// again, over calls with a few pieces exchanged between them (or none, or
// the shifts undone).
func TestRotateBlocksMemo(t *testing.T) {
	const n = 20
	a := syntheticAssembly(n, 4)
	rng := rand.New(rand.NewPCG(7, 8))
	for trial := range 4 {
		x := displaced(n)
		for range 5 * (trial + 1) {
			i, j := rng.IntN(n*n), rng.IntN(n*n)
			x[i], x[j] = x[j], x[i]
		}
		y := slices.Clone(x)
		memo := &shiftMemo{}
		for call := range 6 {
			start := slices.Clone(x)
			mx := a.rotateBlocks(x, a.bestMatches(), memo)
			my := a.rotateBlocks(y, a.bestMatches(), nil)
			if mx != my || !slices.Equal(x, y) {
				t.Fatalf("trial %d, call %d: with the memo moved %v to cost %v, without %v to cost %v", trial, call, mx, a.cost(x), my, a.cost(y))
			}
			if call == 3 { // the shifts undone: each cell as the call began
				copy(x, start)
				copy(y, start)
			}
			for range call % 3 { // 0, 1 or 2 exchanges before the next call
				i, j := rng.IntN(n*n), rng.IntN(n*n)
				x[i], x[j] = x[j], x[i]
				y[i], y[j] = y[j], y[i]
			}
		}
	}
}

// TestBestRotationLikePlain: pricing every cyclic shift from the torus's
// seams looked up once (bestRotation) picks the shift that building and
// pricing each (bestRotationPlain) picks, on seams from 2⁻³⁰ to 2³⁰ and on
// small integers (ties: the first cheapest shift).
func TestBestRotationLikePlain(t *testing.T) {
	rng := rand.New(rand.NewPCG(13, 14))
	for trial := range 40 {
		n := 3 + trial%6
		m := n * n
		right, down := make([]float32, m*m), make([]float32, m*m)
		for i := range right {
			if trial%2 == 0 {
				right[i] = float32(math.Ldexp(rng.Float64(), rng.IntN(60)-30))
				down[i] = float32(math.Ldexp(rng.Float64(), rng.IntN(60)-30))
			} else {
				right[i], down[i] = float32(rng.IntN(3)), float32(rng.IntN(3))
			}
		}
		cells := rng.Perm(m)
		if got, want := bestRotation(n, right, down, cells), bestRotationPlain(n, right, down, cells); !slices.Equal(got, want) {
			t.Fatalf("trial %d (%d×%d): %v, building each shift %v", trial, n, n, got, want)
		}
	}
}

// bestRotationPlain is bestRotation as first written: each shift built and
// priced by fillingCost.
func bestRotationPlain(n int, right, down []float32, cells []int) []int {
	best, bestCost := cells, fillingCost(n, right, down, cells)
	rot := make([]int, len(cells))
	for dr := range n {
		for dc := range n {
			if dr == 0 && dc == 0 {
				continue
			}
			for r := range n {
				for c, x := range cells[r*n : (r+1)*n] {
					rot[(r+dr)%n*n+(c+dc)%n] = x
				}
			}
			if cost := fillingCost(n, right, down, rot); cost < bestCost {
				best, bestCost = slices.Clone(rot), cost
			}
		}
	}
	return best
}

// rotateBlocksBySets is rotateBlocks pricing each shift by every seam of
// its block: the plain reference the tests compare with (the solver's own
// up to 16×16 until 2026-12-06).
func (a *assembly) rotateBlocksBySets(cells []int, best *matches) bool {
	n := a.n
	doubt := a.doubtful(cells, best)
	const maxBlock, maxLen = 4, 16
	const maxShift = 3
	inSet := make([]bool, n*n)
	var set, seg []int
	// doubtBefore[line*(n+1)+k]: the doubtful cells among positions 0…k−1
	// of line, so a block without one is skipped before it is listed.
	doubtBefore := make([]int, n*(n+1))
	moved := false
	for _, vertical := range [2]bool{false, true} {
		idx := func(line, k int) int {
			if vertical {
				return k*n + line
			}
			return line*n + k
		}
		for line := range n {
			for k := range n {
				d := 0
				if doubt[idx(line, k)] {
					d = 1
				}
				doubtBefore[line*(n+1)+k+1] = doubtBefore[line*(n+1)+k] + d
			}
		}
		anyDoubt := func(i0, i1, from, to int) bool {
			for i := i0; i < i1; i++ {
				if doubtBefore[i*(n+1)+to] > doubtBefore[i*(n+1)+from] {
					return true
				}
			}
			return false
		}
		for i0 := range n {
			for i1 := i0 + 1; i1 <= min(n, i0+maxBlock); i1++ {
				for from := 0; from < n-1; from++ {
					for to := from + 2; to <= n; to++ {
						if to-from > maxLen && to < n {
							continue // only whole lines are longer
						}
						if to-from > maxLen && from > 0 {
							break
						}
						if !anyDoubt(i0, i1, from, to) {
							continue
						}
						set = set[:0]
						for i := i0; i < i1; i++ {
							for k := from; k < to; k++ {
								set = append(set, idx(i, k))
							}
						}
						seg = seg[:0]
						for _, c := range set {
							inSet[c] = true
							seg = append(seg, cells[c])
						}
						l := to - from
						// set lists the block line by line, so set[base+k] is
						// position from+k of line i0+base/l.
						shift := func(d int) {
							for base := 0; base < len(set); base += l {
								line, piece := set[base:base+l], seg[base:base+l]
								j := (d + l) % l
								for _, x := range piece {
									cells[line[j]] = x
									if j++; j == l {
										j = 0
									}
								}
							}
						}
						before := a.setCost(cells, set, inSet)
						// A shift is kept only below before−1e-6: past that
						// its sum may stop (exactly so with no negative pair).
						under := math.NaN()
						if a.positive {
							under = before - 1e-6
						}
						shifts := min(maxShift, l-1)
						if l == n {
							shifts = n / 2 // whole lines: every cyclic shift
						}
						// shift writes every cell of the block from seg, so a
						// rejected shift is undone once, after the last.
						undo := false
						for d := 1; d <= shifts; d++ {
							for _, sd := range [2]int{d, -d} {
								shift(sd)
								if after := a.setCostUnder(cells, set, inSet, under); after < before-1e-6 {
									moved, before, undo = true, after, false
									if a.positive {
										under = before - 1e-6
									}
									for j, c := range set {
										seg[j] = cells[c]
									}
								} else {
									undo = true
								}
							}
						}
						if undo {
							shift(0)
						}
						for _, c := range set {
							inSet[c] = false
						}
					}
				}
			}
		}
	}
	return moved
}
