package solve

import (
	"math"
	"strconv"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// TestDiagnoseShape (JIGBENCH_SHAPEDIAG=photo.jpg,scene,…; grids from
// JIGBENCH_DIAG_GRIDS, variant from JIGBENCH_SURVEY_VARIANT) prints, per
// shape sheet, the PA and cost of every candidate arrangement (the three
// beams, polished by reassign and improve) beside the true arrangement's
// cost: truth cheaper than the chosen answer means the search failed,
// answer cheaper the measure did. It checks nothing.
func TestDiagnoseShape(t *testing.T) {
	eachDiagnosed(t, "JIGBENCH_SHAPEDIAG", diagnoseShape)
}

func diagnoseShape(t *testing.T, gen *render.Generated) string {
	pub := gen.Instance.Public()
	g := newGeometry(pub)
	pcs, err := cutPieces(&g, gen.Shape)
	if err != nil {
		t.Fatal(err)
	}
	n, m := g.n, g.n*g.n
	sides := make([]puzzle.Sides, len(pcs))
	for i, p := range pcs {
		sides[i] = p.sides
	}
	ss := newSeamSet(&g, pcs)
	cm := newCompatMatrix(ss, pcs, true)
	base := newAssembly(n, sides, cm, true)
	p := gen.Puzzle
	truth := make([]int, m)
	for id, c := range p.CellOf {
		truth[c.Row*n+c.Col] = id
	}
	pa := func(cells []int) string {
		k := 0
		for c, id := range cells {
			if truth[c] == id {
				k++
			}
		}
		return strconv.FormatFloat(float64(k)/float64(m), 'f', 4, 64)
	}
	cost := func(cells []int) string {
		return strconv.FormatFloat(penalisedCost(n, base.right, base.down, cells), 'f', 1, 64)
	}
	out := strconv.Itoa(n) + "×" + strconv.Itoa(n) + " truth " + cost(truth)
	for i, asm := range []*assembly{base, base.mirrored(true), base.mirrored(false)} {
		cells, partial := asm.beam(beamWidth(n, true))
		out += " | beam" + strconv.Itoa(i)
		if cells == nil {
			out += " died"
			if partial == nil {
				continue
			}
			if i > 0 {
				partial = base.unmirror(partial, i == 1)
			}
			filled, right := 0, 0
			for c, x := range partial {
				if x >= 0 {
					filled++
					if truth[c] == x {
						right++
					}
				}
			}
			out += " with " + strconv.Itoa(right) + " of " + strconv.Itoa(filled) + " filled cells right"
			continue
		}
		if i > 0 {
			cells = base.unmirror(cells, i == 1)
		}
		out += " raw PA " + pa(cells) + " cost " + cost(cells)
		base.reassign(cells)
		base.improve(cells)
		out += " polished PA " + pa(cells) + " cost " + cost(cells)
	}
	cells, _ := arrangeContent(n, sides, cm, true, nil)
	ca, ct := penalisedCost(n, base.right, base.down, cells), penalisedCost(n, base.right, base.down, truth)
	verdict := "exact"
	switch {
	case pa(cells) == pa(truth):
	case math.IsInf(ct, 1):
		verdict = "TRUTH does not interlock"
	case ct < ca-1e-6:
		verdict = "SEARCH fails (truth cheaper)"
	default:
		verdict = "MEASURE fails (answer cheaper or equal)"
	}
	// A map of the answer: '.' a piece in its cell, else the direction it
	// is off by (a piece one column right of its cell is '>').
	out += " | map"
	for c, id := range cells {
		if c%n == 0 {
			out += " /"
		}
		tc := p.CellOf[id]
		dr, dc := c/n-tc.Row, c%n-tc.Col
		switch {
		case dr == 0 && dc == 0:
			out += "."
		case dr == 0 && dc > 0:
			out += ">"
		case dr == 0:
			out += "<"
		case dc == 0 && dr > 0:
			out += "v"
		case dc == 0 && dr > -10:
			out += strconv.Itoa(-dr)
		default:
			out += "x"
		}
	}
	return out + " | answer PA " + pa(cells) + " cost " + cost(cells) + " → " + verdict
}
