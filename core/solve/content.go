package solve

import (
	"fmt"
	"image"
	"path/filepath"
	"slices"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// ContentInput is all the content solver may see: the public fields of
// instance.json and the pixels of one sheet (shape.png or rect.png). The
// answer is not reachable from it.
type ContentInput struct {
	Instance *puzzle.PublicInstance
	Sheet    *image.RGBA
}

// ContentResult is the content solver's answer and what it read on the way.
type ContentResult struct {
	// Pred[id] is the cell index (row·N + col) the solver puts piece id in.
	Pred []int
	// Sides are the side signatures read from the silhouettes, by piece ID.
	Sides []puzzle.Sides
	// Shaped is false when every piece has four straight sides (rect.png):
	// only content could be used.
	Shaped bool
	// Cost is the sum of the dissimilarities of all neighbour pairs of Pred,
	// a pair that does not interlock counting as the dearest seam.
	Cost float64
	// Misfits is the number of neighbour pairs of Pred whose sides do not
	// interlock (0 unless the greedy of a large shape sheet left some that
	// no exchange repaired).
	Misfits int
	// Ties are the classes of pieces the solver cannot tell apart, each in
	// ID order (tieClasses): which of a class goes where is a tie.
	Ties [][]int
	// Unread, when not nil, says why the pieces' sides could not be read
	// from a sheet with tabs; it was then solved from content alone.
	Unread error
}

// SolveContent solves a sheet from its pixels: it cuts every slot, reads
// each piece's silhouette and side signature, scores how well every pair of
// pieces continues across each seam, and places the pieces under the shape
// constraints the signatures impose (none on a rectangular sheet).
func SolveContent(in ContentInput) (*ContentResult, error) {
	pub := in.Instance
	if pub == nil || in.Sheet == nil {
		return nil, fmt.Errorf("the content solver needs an instance and a sheet")
	}
	if err := pub.Check(); err != nil {
		return nil, err
	}
	g := newGeometry(pub)
	pcs, err := cutPieces(&g, in.Sheet)
	if err != nil {
		return nil, err
	}
	res := &ContentResult{Sides: make([]puzzle.Sides, len(pcs))}
	for i, p := range pcs {
		res.Sides[i] = p.sides
		if p.sides != (puzzle.Sides{}) || p.unread != nil {
			res.Shaped = true
		}
		if p.unread != nil && res.Unread == nil {
			res.Unread = p.unread
		}
	}
	if res.Shaped && res.Unread == nil {
		if err := checkClasses(g.n, res.Sides); err != nil {
			res.Unread = fmt.Errorf("the side signatures read are inconsistent: %w", err)
		}
	}
	if res.Unread != nil {
		// Content alone still solves it: classic tabs a pixel across are
		// all but invisible on the sheet (tab ratio × cell side < 1.5).
		res.Shaped = false
		clear(res.Sides)
	}
	ss := newSeamSet(&g, pcs)
	cm := newCompatMatrix(ss, pcs, res.Shaped)
	var ms *measures
	if !res.Shaped {
		ms = newMeasures(cm, ss, pcs)
	}
	cells, twins := arrangeContent(g.n, res.Sides, cm, res.Shaped, ms)
	if cells == nil {
		return nil, fmt.Errorf("no arrangement of the pieces fits their shapes: %w", ErrNoArrangement)
	}
	res.Pred = make([]int, len(pcs))
	for cell, id := range cells {
		res.Pred[id] = cell
	}
	res.Cost = penalisedCost(g.n, cm.d[dirRight], cm.d[dirDown], cells)
	res.Misfits = misfits(g.n, cm.d[dirRight], cm.d[dirDown], cells)
	res.Ties = tieClasses(twins)
	return res, nil
}

// arrangeContent is arrange, with a second search on rect sheets above
// 16×16 that places by the relative costs (measure.go) and wins when its
// arrangement costs less by MGC: relative costs rank more true partners
// first where pieces are small and smooth (32×32 Storm.jpg PA 0.002 → 0.567,
// autumn-forest 0.740 → 0.929), but searched alone they lose frames MGC
// keeps, so MGC judges. Up to 16×16 every candidate is repaired and MGC's
// own search is exact where relative costs add nothing; the two searches
// run on both cores at once. Above 16×16 the winner's loose part is then
// filled again (refillLoose). The look-alike links are MGC's.
//
// ms (nil: none) gives MGC with the prediction residual added
// (residual.go) and with the side-mean step (sidemean.go). Above the rect
// beams' grids and up to 16×16, where the search finds the cheapest
// arrangement of either measure all but always, a second search runs on
// the residual's blend beside MGC's, and the blend judges: it ranks more
// true partners first, and the answers MGC loses there cost less than the
// truth by MGC, not by the blend (fruit-market 16×16 0.965 → 1, moonlit-bay
// 0.969 → 0.984); the blend's frame is cut by MGC's sureness first. Where
// the two answers differ in more of the grid than blendOverrules allows,
// both side means must price the blend's lower too (alpine-lake 12×12 and
// 16×16: the truth's picture). Then the bands and corner blocks the blend
// would turn are turned where both side means agree (turnByBlend), and the
// answer is polished (polish.go). Above 16×16 it fills a large loose part
// a third time (refillLoose), the whole search runs again on a lighter
// blend and then on the side means (searchBlended, searchSideMeans), and
// windows of the answer, small then large, are filled again
// (refillWindows). Then pieces, segments and blocks of a vouched-for
// answer are exchanged across the grid (swapSegments) and, where that
// changed it, the frame repair runs once more. Last, where a large loose
// part is left, the quarter along each edge is filled again by the blend
// (refillEdgeQuarters), the frame repair runs once more, and two pieces are
// exchanged wherever every measure prices that lower (exchangeAgreed).
func arrangeContent(n int, sides []puzzle.Sides, cm *compatMatrix, shaped bool, ms *measures) (cells, twins []int) {
	if !shaped && ms != nil && n > rectBeamMax && n <= reframeAllMax {
		// The searches' assemblies, one of each measure, serve the frame
		// cut, the band turns and the polish below.
		var alt []int
		var byMGC, byBlend *assembly
		cells, alt, byMGC, byBlend = arrangeBeside(n, sides, cm, func() *compatMatrix { return ms.blend(blendWeight) })
		twins = byMGC.prevTwin
		by := byBlend.matrix()
		floors := byMGC.seamFloors() // for both frame cuts below
		if alt != nil {
			// The blend's frame is cut where MGC's seams are least sure,
			// as MGC's own is (cutBySureness): the blend, which rewards a
			// smooth continuation, can price a wrap through two plain
			// strips below the true border (12×12 fruit-market under
			// another shuffle: its brown top and bottom strips joined and
			// its rows of crates cut between, PA 0 → 1).
			byMGC.cutBySureness(alt, floors)
		}
		if alt != nil && (cells == nil || cheaperBy(n, alt, cells, by) && (differ(alt, cells) <= len(cells)/blendOverrules ||
			cheaperBy(n, alt, cells, ms.sideMeans(0), ms.sideMeans(1)))) {
			cells = alt
		}
		if cells != nil {
			before := cells
			cells = turnByBlend(byBlend, ms, cells)
			cells = polish(byMGC, byBlend, ms, cells)
			if differ(before, cells) > 0 {
				// A turn can leave the whole answer round its wrap, which
				// no turn or polish moves (768-pixel 12×12 bookshelf: four
				// columns over, PA 0 → 1): it is cut again as above, kept
				// only where all four measures price the cut lower (on
				// 12×12 night-city MGC's sureness alone cut its polished
				// answer wrongly, 0.958 → 0).
				cut := slices.Clone(cells)
				byMGC.cutBySureness(cut, floors)
				if differ(cut, cells) > 0 && cheaperBy(n, cut, cells, ms.allFour(cm)...) {
					cells = cut
				}
			}
			if !byMGC.vouched(cells) {
				// In fog an answer can stay in fragments the polish does
				// not join (16×16 misty-pines under seed 5: best-buddy
				// seams join 0.33 of it, PA 0.746): windows and bands of
				// two rows refilled by MGC place most of it (0.953, at the
				// truth's cost), kept only where all four measures agree
				// (window.go; docs/solver.md, "Refilling windows of a shape
				// answer").
				try := slices.Clone(cells)
				byMGC.refillWindows(try, fragmentWindowSides)
				byMGC.refillBands(try, 2)
				if differ(try, cells) > 0 && cheaperBy(n, try, cells, ms.allFour(cm)...) {
					cells = try
				}
			}
		}
		return cells, twins
	}
	if shaped || n <= reframeAllMax {
		return arrange(n, sides, cm, shaped, beamWidth(n, shaped))
	}
	if n > relativeMax {
		// One search: the other cores are spare for its rejoin.
		return arrangeSparing(n, sides, cm, shaped, beamWidth(n, shaped), idleBeside())
	}
	cells, alt, byMGC, byRel := arrangeBeside(n, sides, cm, cm.relative)
	twins = byMGC.prevTwin
	if alt != nil && (cells == nil ||
		penalisedCost(n, cm.d[dirRight], cm.d[dirDown], alt) < penalisedCost(n, cm.d[dirRight], cm.d[dirDown], cells)) {
		cells = alt
	}
	if cells != nil {
		refillLoose(byMGC, byRel, cells, ms)
		if ms != nil { // a rect sheet's own search, not the shape restart's
			cells = searchBlended(byMGC, ms, cells)
			cells = searchSideMeans(byMGC, ms, cells)
			if largeLoosePart(byMGC.buddyShare(cells)) {
				byMGC.refillWindows(cells, windowSides)
			}
			if byMGC.vouched(cells) && byMGC.swapSegments(cells) {
				// Not on an answer in fragments: there nothing is right to
				// exchange pieces into (the benchmark's harbor-town). What
				// an exchange brings near its place the frame repair's
				// block moves finish (coral-reef: a 4 × 4 block with its
				// columns rotated by one, left by a block exchange).
				copy(cells, byMGC.reframe(cells))
			}
			cells = finishAgreed(byMGC, ms, cells)
		}
	}
	return cells, twins
}

// finishRounds bounds finishAgreed's rounds.
const finishRounds = 2

// finishAgreed ends the search on a rect answer (cell → piece) that still
// has a large loose part: the quarter along each edge, which the windows
// leave, is filled again (refillEdgeQuarters); the frame repair, which
// last ran before the windows and edges were filled, runs once more and is
// kept where every measure prices it lower; then the exchanges every
// measure agrees to (exchangeAgreed). A round that changed the answer is
// followed by one more (docs/solver.md, "The frame repair once more").
func finishAgreed(byMGC *assembly, ms *measures, cells []int) []int {
	if !largeLoosePart(byMGC.buddyShare(cells)) {
		return cells // so exact answers and fragments (the benchmark) never build the blend
	}
	n := byMGC.n
	byBlend := newAssembly(n, byMGC.sides, ms.blend(blendWeight), false)
	for round := range finishRounds {
		if round > 0 && !largeLoosePart(byMGC.buddyShare(cells)) {
			break
		}
		before := slices.Clone(cells)
		cells = refillEdgeQuarters(byMGC, byBlend, ms, cells)
		if try := byMGC.reframe(slices.Clone(cells)); cheaperBy(n, try, cells, ms.allFour(byMGC.matrix())...) {
			cells = try
		}
		exchangeAgreed(byMGC, ms, cells)
		if differ(before, cells) == 0 {
			break
		}
	}
	return cells
}

// searchBlended runs the whole search (arrangeContent) again on MGC with
// the residual added at searchBlendWeight, where MGC's best-buddy seams
// vouch for a large part of the rect answer cells but leave a large loose
// part (largeLoosePart), and returns its answer instead of cells only if
// three things say so: MGC and the blend at blendWeight both price it
// lower, and MGC's best-buddy seams join more of it into one region. The
// search on the blend places what MGC's loses (Storm.jpg 32×32 0.594 →
// 0.758, its dusk variant 0.723 → 0.959), but on sunset-sea it finds an
// answer cheaper by both measures and further from the truth (PA 0.744 →
// 0.439), whose own evidence vouches for less of it (docs/solver.md, "A second
// seam measure").
func searchBlended(byMGC *assembly, ms *measures, cells []int) []int {
	n := byMGC.n
	share := byMGC.buddyShare(cells)
	if !largeLoosePart(share) {
		return cells
	}
	alt, _ := arrangeContent(n, byMGC.sides, ms.blend(searchBlendWeight), false, nil)
	if alt != nil && cheaper(byMGC, alt, cells, ms.blend(blendWeight)) && byMGC.buddyShare(alt) > share {
		return alt
	}
	return cells
}

// searchSideMeans runs the whole search again on MGC with the side-mean
// step added (measures.sideMeans), where the answer cells still has a large
// loose part — on the step with the pieces' own steps, then on their mean
// colours alone — and takes each search's answer where both side means'
// blends and the residual's price it lower. MGC is not asked: the answer
// it replaces is MGC's own search's, and where that search fails MGC can
// price its answer below the truth while the three blends price the truth
// lower (32×32 autumn-forest: 0.953 → 0.961 with MGC left out; fruit-market
// 0.009 → 0.582). Its gains are in smooth gradients (Storm.jpg's dusk
// variant 0.963 → 0.998, the first; its water variant 0.484 → 0.925, the
// second). Where it loses — a few pieces of a near-identical sky or blur,
// or an answer in fragments for another (fruit-market under seed 7, 0.076
// → 0.001) — nothing the solver measures but MGC says the answer it
// replaces was better (docs/solver.md, "A third seam measure").
func searchSideMeans(byMGC *assembly, ms *measures, cells []int) []int {
	for i := range ms.means {
		if !largeLoosePart(byMGC.buddyShare(cells)) {
			break // so exact answers and fragments (the benchmark) never build the side means
		}
		alt, _ := arrangeContent(byMGC.n, byMGC.sides, ms.sideMeans(i), false, nil)
		if alt != nil && cheaperBy(byMGC.n, alt, cells, ms.sideMeans(0), ms.sideMeans(1), ms.blend(blendWeight)) {
			cells = alt
		}
	}
	return cells
}

// cheaper reports whether arrangement x costs less than y by a's seams and
// by each of by's (penalisedCost).
func cheaper(a *assembly, x, y []int, by ...*compatMatrix) bool {
	return penalisedCost(a.n, a.right, a.down, x) < penalisedCost(a.n, a.right, a.down, y) && cheaperBy(a.n, x, y, by...)
}

// cheaperBy reports whether n×n arrangement x costs less than y by each of
// by's seams (penalisedCost).
func cheaperBy(n int, x, y []int, by ...*compatMatrix) bool {
	for _, cm := range by {
		if penalisedCost(n, cm.d[dirRight], cm.d[dirDown], x) >= penalisedCost(n, cm.d[dirRight], cm.d[dirDown], y) {
			return false
		}
	}
	return true
}

// arrangeBeside runs arrange on a rect sheet's MGC costs cm and on the
// costs other builds (in its own goroutine, so that building them overlaps
// MGC's search) at once, on the two cores, and returns both answers and the
// assemblies the searches ran on (the look-alike links MGC's,
// byMGC.prevTwin), whose seams and what was computed from them the steps
// after use again: building an assembly takes about 12 ms at 32×32. The
// search that ends first leaves its core to the other (spareCores).
func arrangeBeside(n int, sides []puzzle.Sides, cm *compatMatrix, other func() *compatMatrix) (cells, alt []int, byMGC, byOther *assembly) {
	spare := &spareCores{}
	parallelFor(2, func(i int) error {
		defer spare.free()
		if i == 0 {
			byMGC = newAssembly(n, sides, cm, false)
			byMGC.spare = spare
			cells = arrangeOn(byMGC, cm, beamWidth(n, false))
		} else {
			by := other()
			byOther = newAssembly(n, sides, by, false)
			byOther.spare = spare
			alt = arrangeOn(byOther, by, beamWidth(n, false))
		}
		return nil
	})
	byMGC.spare, byOther.spare = nil, nil // no search runs beside the steps after
	return cells, alt, byMGC, byOther
}

// blendOverrules: the blend's answer replaces MGC's up to 16×16 on the
// blend's word alone only where they differ in at most one cell in
// blendOverrules — pieces MGC cannot tell apart, not its frame (12×12
// night-city: a whole answer one column off, cheaper by the blend, PA
// 0.778 → 0; the side means price it dearer). Elsewhere both side means
// must agree: the three measures that see through noise, against MGC.
const blendOverrules = 10

// differ counts the cells where a and b hold different pieces.
func differ(a, b []int) int {
	k := 0
	for i := range a {
		if a[i] != b[i] {
			k++
		}
	}
	return k
}

// relativeMax is the largest grid the relative search runs on: at 64×64 a
// second search would double a minute of CPU.
const relativeMax = 32

// beamWidth is the beam's width for an n×n grid: wider on small grids, where
// a step is cheap. On a rectangular sheet no shape prunes the fillings, and
// up to rectBeamMax, where its beams run, they keep 4096 states (1024 at
// 8×8 before): on 8×8 night-city the beam then keeps the still-water band
// of reflections in order (PA 0.70 → 1), for about 0.4 s more.
func beamWidth(n int, shaped bool) int {
	if !shaped && n <= rectBeamMax {
		return 4096
	}
	return max(128, 8192/n)
}

// SolveContentDir solves the instance in dir from one of its sheets
// (render.FileShape or render.FileRect) and the public fields of its
// instance.json — what `jigbench solve --mode content` does.
func SolveContentDir(dir, sheetFile string) (*puzzle.PublicInstance, *ContentResult, error) {
	pub, err := puzzle.ReadPublicInstance(filepath.Join(dir, render.FileInstance))
	if err != nil {
		return nil, nil, err
	}
	sheet, err := render.LoadImage(filepath.Join(dir, sheetFile))
	if err != nil {
		return nil, nil, err
	}
	res, err := SolveContent(ContentInput{Instance: pub, Sheet: sheet})
	if err != nil {
		return nil, nil, fmt.Errorf("%s (%s): %w", pub.ID, sheetFile, err)
	}
	return pub, res, nil
}

// turnByBlend turns the bands and corner blocks of cells (bands.go) that the
// blend by prices lowest, each only where both side means price it lower
// too: where MGC alone prices the truth dearer, MGC's own repair cannot
// turn it back (12×12 fruit-market: its bottom four rows seven columns
// over, 40 below the truth by MGC and 40 above it by the other three). a
// is the blend's assembly.
func turnByBlend(a *assembly, ms *measures, cells []int) []int {
	n := a.n
	for moved := true; moved; {
		moved = false
		for _, vertical := range [2]bool{false, true} {
			try := slices.Clone(cells)
			if a.rotateBestBand(try, vertical) && cheaperBy(n, try, cells, ms.sideMeans(0), ms.sideMeans(1)) {
				cells, moved = try, true
			}
		}
	}
	return cells
}
