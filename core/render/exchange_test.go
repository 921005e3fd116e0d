package render

import (
	"bytes"
	"image"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

// flatTopImage is w×h: a flat colour over the top three quarters, a busy
// picture below, so many pieces are identical and the rest are not.
func flatTopImage(w, h int) *image.RGBA {
	img := testImage(w, h)
	for y := range 3 * h / 4 {
		for x := range w {
			i := img.PixOffset(x, y)
			copy(img.Pix[i:i+4], []uint8{90, 140, 200, 255})
		}
	}
	return img
}

// swapped returns a copy of p in which pieces a and b trade true cells.
func swapped(p *puzzle.Puzzle, a, b int) *puzzle.Puzzle {
	q := *p
	q.CellOf = append([]puzzle.Cell(nil), p.CellOf...)
	q.IDAt = append([]int(nil), p.IDAt...)
	ca, cb := q.CellOf[a], q.CellOf[b]
	q.CellOf[a], q.CellOf[b] = cb, ca
	q.IDAt[ca.Row*q.N+ca.Col], q.IDAt[cb.Row*q.N+cb.Col] = b, a
	return &q
}

// TestExchangeClassesByBruteForce: for every pair of pieces, exchanging them
// and drawing the sheet again gives a byte-identical shape.png (rect.png)
// exactly when ExchangeClasses puts them in one class of the shape (rect)
// condition.
func TestExchangeClassesByBruteForce(t *testing.T) {
	alpine, err := demo.Image("alpine-lake")
	if err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		name string
		img  *image.RGBA
		n    int
		seed uint64
		size int
	}{
		{"flat-top", flatTopImage(160, 160), 4, 4, 160},
		{"flat-top", flatTopImage(160, 160), 5, 2, 160},
		{"alpine-lake", alpine, 5, 3, 192},
	}
	if testing.Short() {
		cases = cases[:2]
	}
	for _, tc := range cases {
		opt := puzzle.DefaultOptions()
		opt.Size = tc.size
		g, err := Generate(SourceFromImage(tc.name, tc.img), tc.n, tc.seed, opt)
		if err != nil {
			t.Fatal(err)
		}
		for _, shaped := range []bool{true, false} {
			e := ExchangeClasses(g.Puzzle, g.Solved, shaped)
			sheet := Sheet(g.Puzzle, g.Solved, shaped, DefaultSheet)
			orig, err := EncodePNG(sheet)
			if err != nil {
				t.Fatal(err)
			}
			same := 0
			for a := range g.Puzzle.CellOf {
				for b := a + 1; b < len(g.Puzzle.CellOf); b++ {
					// Different pixels cannot encode to the same PNG, so
					// only sheets with equal pixels need encoding.
					other := Sheet(swapped(g.Puzzle, a, b), g.Solved, shaped, DefaultSheet)
					identical := bytes.Equal(other.Pix, sheet.Pix)
					if identical {
						data, err := EncodePNG(other)
						if err != nil {
							t.Fatal(err)
						}
						identical = bytes.Equal(data, orig)
					}
					if identical != e.Same(a, b) {
						t.Errorf("%s %d×%d shaped=%v: exchanging %d and %d leaves the sheet identical: %v; same class: %v",
							tc.name, tc.n, tc.n, shaped, a, b, identical, e.Same(a, b))
					}
					if identical {
						same++
					}
				}
			}
			// All classes at once: each class's pieces rotated by one cell.
			q := swapped(g.Puzzle, 0, 0)
			for _, class := range e.Classes() {
				for i, id := range class {
					q.CellOf[id] = g.Puzzle.CellOf[class[(i+1)%len(class)]]
					q.IDAt[q.CellOf[id].Row*q.N+q.CellOf[id].Col] = id
				}
			}
			if data, err := EncodePNG(Sheet(q, g.Solved, shaped, DefaultSheet)); err != nil || !bytes.Equal(data, orig) {
				t.Errorf("%s %d×%d shaped=%v: rotating every class at once changed the sheet", tc.name, tc.n, tc.n, shaped)
			}
			if same == 0 || same != e.Pairs() {
				t.Errorf("%s %d×%d shaped=%v: %d exchangeable pairs by re-rendering, %d from the classes (want equal and > 0)",
					tc.name, tc.n, tc.n, shaped, same, e.Pairs())
			}
			t.Logf("%s %d×%d shaped=%v: %d classes, %d pairs, %s arrangements", tc.name, tc.n, tc.n, shaped, len(e.Classes()), e.Pairs(), e.Arrangements())
		}
	}
}

// TestExchangeClassesOnGradientDemos: the shape condition's exchangeable
// pairs on the gradient demos at 12×12, seed 1, are the same-sided
// identical pairs core/solve's TestIdenticalPiecesMakeExactnessImpossible
// finds: 20, 25, 5 and 18.
func TestExchangeClassesOnGradientDemos(t *testing.T) {
	want := map[string]int{"alpine-lake": 20, "balloon-sky": 25, "snow-field": 5, "iceberg-bay": 18}
	names := []string{"alpine-lake", "balloon-sky", "snow-field", "iceberg-bay"}
	if testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		img, err := demo.Image(name)
		if err != nil {
			t.Fatal(err)
		}
		g, err := Generate(SourceFromImage(name, img), 12, 1, puzzle.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		e := ExchangeClasses(g.Puzzle, g.Solved, true)
		if e.Pairs() != want[name] {
			t.Errorf("%s 12×12: %d exchangeable pairs in the shape condition, want %d", name, e.Pairs(), want[name])
		}
		rect := ExchangeClasses(g.Puzzle, g.Solved, false)
		t.Logf("%s 12×12: shape %d pairs in %d classes (%s arrangements); rect %d pairs (%s)",
			name, e.Pairs(), len(e.Classes()), e.Arrangements(), rect.Pairs(), rect.Arrangements())
	}
}

// TestInstanceExchangeReadsFolders: the classes read back from an instance
// folder are the ones computed in memory.
func TestInstanceExchangeReadsFolders(t *testing.T) {
	g, err := Generate(SourceFromImage("flat", flatTopImage(160, 160)), 4, 5, puzzle.Options{Size: 160, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	dir, err := g.WriteDir(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	shape, rect, err := InstanceExchange(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct {
		got    puzzle.Exchange
		shaped bool
	}{{shape, true}, {rect, false}} {
		want := ExchangeClasses(g.Puzzle, g.Solved, c.shaped)
		if got, w := c.got.Classes(), want.Classes(); !slices.EqualFunc(got, w, slices.Equal[[]int]) || len(w) == 0 {
			t.Errorf("shaped=%v: read %v, computed %v", c.shaped, got, w)
		}
	}
	if _, _, err := InstanceExchange(t.TempDir()); err == nil {
		t.Error("an empty folder gave classes")
	}
}

// BenchmarkInstanceExchange reads a 16×16 instance at size 1024 and finds
// its classes in both conditions, as scoring does for every answered instance.
func BenchmarkInstanceExchange(b *testing.B) {
	img, err := demo.Image("alpine-lake")
	if err != nil {
		b.Fatal(err)
	}
	g, err := Generate(SourceFromImage("alpine-lake", img), 16, 1, puzzle.DefaultOptions())
	if err != nil {
		b.Fatal(err)
	}
	dir, err := g.WriteDir(b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	b.Run("folder", func(b *testing.B) {
		for b.Loop() {
			if _, _, err := InstanceExchange(dir); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("classes", func(b *testing.B) {
		for b.Loop() {
			ExchangeClasses(g.Puzzle, g.Solved, true)
			ExchangeClasses(g.Puzzle, g.Solved, false)
		}
	})
	b.Run("load", func(b *testing.B) {
		for b.Loop() {
			if _, err := LoadImage(dir + "/" + FileSolved); err != nil {
				b.Fatal(err)
			}
		}
	})
}
