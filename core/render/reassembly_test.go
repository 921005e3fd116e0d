package render

import (
	"image"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestReassembly: a 4×4 answer with a swap, a collision, an unplaced piece
// and so two empty cells, checked by counts and by pixels.
func TestReassembly(t *testing.T) {
	g, err := Generate(testSource(320, 240), 4, 5, puzzle.Options{Size: 320, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	p, n := g.Puzzle, 4
	cellOf := func(id int) int { c := p.CellOf[id]; return c.Row*n + c.Col }
	idAt := func(cell int) int { return p.IDAt[cell] }
	pred := make([]int, n*n)
	for k := range pred {
		pred[k] = cellOf(k)
	}
	// Swap the pieces of cells 5 and 6; put cell 10's piece on cell 9; leave
	// cell 15's piece out. Cells 10 and 15 are empty, cell 9 holds two.
	a, b := idAt(5), idAt(6)
	pred[a], pred[b] = 6, 5
	pred[idAt(10)] = 9
	pred[idAt(15)] = -1
	stats, at := CountReassembly(p, pred)
	want := ReassemblyStats{Correct: 12, Wrong: 3, Holes: 2, Collisions: 1, CollidingPieces: 2, Unplaced: 1}
	if stats != want {
		t.Fatalf("stats %+v, want %+v", stats, want)
	}
	if len(at[9]) != 2 || len(at[10]) != 0 {
		t.Fatalf("cells: %v", at)
	}

	img := Reassembly(p, g.Solved, pred, ReassemblyOptions{Shaped: true, Title: "test"})
	origin, size := ReassemblyLayout(p, true)
	if img.Rect.Size() != size {
		t.Fatalf("size %v, layout says %v", img.Rect.Size(), size)
	}
	// A pixel a quarter into a cell: inside the piece drawn there, away
	// from outlines, tabs and the label.
	probe := func(cell int) (image.Point, image.Point) {
		x0, y0, _, _ := p.CellRect(puzzle.Cell{Row: cell / n, Col: cell % n})
		src := image.Pt(x0+p.PieceW/4, y0+p.PieceH/4)
		return src, src.Add(origin)
	}
	check := func(name string, cell, fromCell int, tint [3]uint8) {
		t.Helper()
		dst, at := probe(cell)
		src, _ := probe(fromCell)
		s := g.Solved.RGBAAt(src.X, src.Y)
		got := img.RGBAAt(at.X, at.Y)
		exp := [3]uint8{s.R, s.G, s.B}
		for k := range 3 {
			exp[k] = uint8((uint32(tint[k])*tintAlpha + uint32(exp[k])*(255-tintAlpha) + 127) / 255)
		}
		if got.R != exp[0] || got.G != exp[1] || got.B != exp[2] {
			t.Errorf("%s: pixel %v (cell %d) is %v, want %v", name, dst, cell, got, exp)
		}
	}
	check("a correct piece", 0, 0, tintCorrect)
	check("a swapped piece", 5, 6, tintWrong) // cell 5 shows cell 6's piece, tinted red
	// In a collision the lowest ID is on top.
	if idAt(9) < idAt(10) {
		check("the collision's top piece", 9, 9, tintCorrect)
	} else {
		check("the collision's top piece", 9, 10, tintWrong)
	}
	// Cell 9's frame is red; empty cells are hatched or plain.
	x0, y0, _, _ := p.CellRect(puzzle.Cell{Row: 2, Col: 1})
	if c := img.RGBAAt(x0+origin.X, y0+origin.Y+p.PieceH/2); c != collisionInk {
		t.Errorf("collision frame pixel is %v", c)
	}
	_, hole := probe(15)
	if c := img.RGBAAt(hole.X, hole.Y); c != holeFill && c.R != c.G {
		t.Errorf("hole pixel %v is neither background nor hatch", c)
	}
	// Straight cuts draw a different picture of the same answer.
	rect := Reassembly(p, g.Solved, pred, ReassemblyOptions{Title: "test"})
	if string(rect.Pix) == string(img.Pix) {
		t.Error("shape and rect views are identical")
	}
}
