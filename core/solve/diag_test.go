package solve

import (
	"math"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// TestDiagnoseRect (JIGBENCH_DIAG=photo.jpg,scene,…; grids from
// JIGBENCH_DIAG_GRIDS, variant from JIGBENCH_SURVEY_VARIANT) prints, per
// rect sheet: PA, neighbour accuracy, the answer's cost against the true
// arrangement's (truth cheaper: the search failed; answer cheaper: the
// measure did), the worst error of the cut pieces' colours against the
// picture (inside and on the outlined boundary), the label pixels on the
// cells' edges, and what merging clusters (cluster.go) alone reaches. It
// checks nothing.
func TestDiagnoseRect(t *testing.T) {
	eachDiagnosed(t, "JIGBENCH_DIAG", diagnose)
}

// eachDiagnosed logs diagnose's line for every instance named in the
// environment variable list (comma-separated, as JIGBENCH_TABLE) at every
// grid of JIGBENCH_DIAG_GRIDS (default 16, 32), with the hard variant of
// JIGBENCH_SURVEY_VARIANT; it skips when list is unset.
func eachDiagnosed(t *testing.T, list string, diagnose func(*testing.T, *render.Generated) string) {
	names := os.Getenv(list)
	if names == "" {
		t.Skip("set " + list + "=photo.jpg,scene to run")
	}
	grids := envGrids("JIGBENCH_DIAG_GRIDS", []int{16, 32})
	variant := os.Getenv("JIGBENCH_SURVEY_VARIANT")
	for _, name := range strings.Split(names, ",") {
		for _, n := range grids {
			gen := surveyInstance(t, name, variant, n)
			t.Log(name + " " + variant + " " + diagnose(t, gen))
		}
	}
}

func diagnose(t *testing.T, gen *render.Generated) string {
	pub := gen.Instance.Public()
	g := newGeometry(pub)
	pcs, err := cutPieces(&g, gen.Rect)
	if err != nil {
		t.Fatal(err)
	}
	n := g.n
	// Extraction: every cell pixel of every piece, against the picture.
	var worstInner, worstRing float64
	var outside, label int
	p := gen.Puzzle
	for id, pc := range pcs {
		cell := p.CellOf[id]
		for y := range g.h {
			for x := range g.w {
				i := g.at(x, y)
				switch pc.kind[i] {
				case pxOutside:
					outside++
					continue
				case pxLabel:
					label++
					continue
				}
				o := gen.Solved.PixOffset(cell.Col*g.w+x, cell.Row*g.h+y)
				for c := range 3 {
					e := math.Abs(float64(pc.rgb[3*i+c]) - float64(gen.Solved.Pix[o+c]))
					if pc.kind[i] == pxRing {
						worstRing = max(worstRing, e)
					} else {
						worstInner = max(worstInner, e)
					}
				}
			}
		}
	}
	// Label pixels on the cells' edge rows and columns (they hide seam samples).
	edgeLabel := 0
	for _, pc := range pcs {
		for x := range g.w {
			for _, y := range []int{0, g.h - 1} {
				if pc.kind[g.at(x, y)] == pxLabel {
					edgeLabel++
				}
			}
		}
		for y := range g.h {
			for _, x := range []int{0, g.w - 1} {
				if pc.kind[g.at(x, y)] == pxLabel {
					edgeLabel++
				}
			}
		}
	}
	t0 := time.Now()
	ss := newSeamSet(&g, pcs)
	cm := newCompatMatrix(ss, pcs, false)
	sides := make([]puzzle.Sides, len(pcs))
	cells, _ := arrangeContent(n, sides, cm, false, nil)
	el := time.Since(t0)
	base := newAssembly(n, sides, cm, false)
	t1 := time.Now()
	mc := base.mergeClusters()
	mcRaw := fillingCost(n, cm.d[dirRight], cm.d[dirDown], mc)
	mcPA := 0
	for c, id := range mc {
		if id == p.IDAt[c] {
			mcPA++
		}
	}
	mergeNote := " merge-only PA " + strconv.FormatFloat(float64(mcPA)/float64(n*n), 'f', 4, 64) + " cost " + strconv.FormatFloat(mcRaw, 'f', 1, 64) + " (" + time.Since(t1).Round(10*time.Millisecond).String() + ")"
	truth := make([]int, n*n)
	for id, c := range p.CellOf {
		truth[c.Row*n+c.Col] = id
	}
	correct := 0
	for c, id := range cells {
		if truth[c] == id {
			correct++
		}
	}
	// Neighbour accuracy: pairs of the answer that are true neighbours.
	m := n * n
	good, all := 0, 0
	for c, x := range cells {
		cx := p.CellOf[x]
		if c%n+1 < n {
			y := p.CellOf[cells[c+1]]
			all++
			if y.Row == cx.Row && y.Col == cx.Col+1 {
				good++
			}
		}
		if c+n < m {
			y := p.CellOf[cells[c+n]]
			all++
			if y.Col == cx.Col && y.Row == cx.Row+1 {
				good++
			}
		}
	}
	ca, ct := fillingCost(n, cm.d[dirRight], cm.d[dirDown], cells), fillingCost(n, cm.d[dirRight], cm.d[dirDown], truth)
	verdict := "exact"
	switch {
	case correct == m:
	case ct < ca-1e-6:
		verdict = "SEARCH fails (truth cheaper)"
	default:
		verdict = "MEASURE fails (answer cheaper or equal)"
	}
	return strconv.Itoa(n) + "×" + strconv.Itoa(n) +
		" PA " + strconv.FormatFloat(float64(correct)/float64(m), 'f', 4, 64) +
		" NA " + strconv.FormatFloat(float64(good)/float64(all), 'f', 4, 64) +
		" cost answer " + strconv.FormatFloat(ca, 'f', 1, 64) + " truth " + strconv.FormatFloat(ct, 'f', 1, 64) +
		" → " + verdict +
		"; extraction: worst inner " + strconv.FormatFloat(worstInner, 'f', 2, 64) +
		" ring " + strconv.FormatFloat(worstRing, 'f', 2, 64) +
		" outside-px " + strconv.Itoa(outside) + " label-px " + strconv.Itoa(label) + " on edges " + strconv.Itoa(edgeLabel) + " cell " + strconv.Itoa(g.w) + "x" + strconv.Itoa(g.h) +
		" (" + el.Round(10*time.Millisecond).String() + ")" + mergeNote
}
