package render

import (
	"bytes"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

var revealLine = regexp.MustCompile(`Piece (\d+) belongs at \[(\d+), (\d+)\]\.`)

// TestHintsDeterministic: the same seed gives the same hints and files; the
// cells the prompts reveal are the true ones; the hint draws come after the
// puzzle's, so the puzzle and its sheets are those of the same seed without
// hints.
func TestHintsDeterministic(t *testing.T) {
	src := SourceFromImage("flat", flatTopImage(240, 240))
	plain := puzzle.Options{Size: 240, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2}
	hinted := plain
	hinted.Reveal, hinted.Hints, hinted.Clusters = 7, puzzle.HintsSimilarity, 5
	base, err := Generate(src, 6, 11, plain)
	if err != nil {
		t.Fatal(err)
	}
	var files [2]map[string][]byte
	for run := range files {
		g, err := Generate(src, 6, 11, hinted)
		if err != nil {
			t.Fatal(err)
		}
		if files[run], err = g.Files(); err != nil {
			t.Fatal(err)
		}
		if !slices.Equal(g.Puzzle.IDAt, base.Puzzle.IDAt) || fmt.Sprint(g.Puzzle.Horizontal, g.Puzzle.Vertical) != fmt.Sprint(base.Puzzle.Horizontal, base.Puzzle.Vertical) {
			t.Fatal("hints changed the puzzle")
		}
		if !bytes.Equal(g.Shape.Pix, base.Shape.Pix) || !bytes.Equal(g.Rect.Pix, base.Rect.Pix) {
			t.Fatal("hints changed a sheet")
		}
		for _, name := range []string{FilePromptShap, FilePromptRect} {
			lines := revealLine.FindAllStringSubmatch(string(files[run][name]), -1)
			if len(lines) != 7 {
				t.Fatalf("%s states %d revealed pieces, want 7", name, len(lines))
			}
			for _, l := range lines {
				id, _ := strconv.Atoi(l[1])
				r, _ := strconv.Atoi(l[2])
				c, _ := strconv.Atoi(l[3])
				if g.Puzzle.CellOf[id] != (puzzle.Cell{Row: r, Col: c}) {
					t.Errorf("%s: piece %d revealed at [%d, %d], truly at %v", name, id, r, c, g.Puzzle.CellOf[id])
				}
			}
		}
		groups := g.Instance.Hints.Similarity
		if len(groups) < 2 || len(groups) > 5 {
			t.Errorf("%d similarity groups, want 2–5", len(groups))
		}
		// Pieces with identical histograms (the flat top) share a group.
		hist := ColourHistograms(g.Puzzle, g.Solved)
		group := map[int]int{}
		for gi, ids := range groups {
			for _, id := range ids {
				group[id] = gi
			}
		}
		for a := range hist {
			for b := range hist {
				if slices.Equal(hist[a], hist[b]) && group[a] != group[b] {
					t.Fatalf("pieces %d and %d have the same colours but different groups", a, b)
				}
			}
		}
	}
	for name, data := range files[0] {
		if !bytes.Equal(data, files[1][name]) {
			t.Errorf("%s differs between runs with the same seed", name)
		}
	}
	other, err := Generate(src, 6, 12, hinted)
	if err != nil {
		t.Fatal(err)
	}
	if slices.Equal(other.Puzzle.Revealed, base.Puzzle.Revealed) {
		t.Error("seeds 11 and 12 revealed the same pieces")
	}
	if _, err := other.Instance.MarshalIndent(); err != nil {
		t.Fatal(err)
	}
}

// TestHintedInstanceRoundTrip: a hinted instance.json parses, validates
// and rebuilds its puzzle, revealed pieces and groups included.
func TestHintedInstanceRoundTrip(t *testing.T) {
	opt := puzzle.Options{Size: 160, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2, Reveal: 3, Hints: puzzle.HintsSimilarity}
	g, err := Generate(SourceFromImage("busy", testImage(160, 160)), 4, 5, opt)
	if err != nil {
		t.Fatal(err)
	}
	data, err := g.Instance.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := puzzle.ParseInstance(data)
	if err != nil {
		t.Fatal(err)
	}
	p, err := inst.Puzzle()
	if err != nil {
		t.Fatal(err)
	}
	if !slices.Equal(p.Revealed, g.Puzzle.Revealed) || len(p.Revealed) != 3 {
		t.Errorf("revealed %v, want %v", p.Revealed, g.Puzzle.Revealed)
	}
	if k := len(inst.Hints.Similarity); k < 1 || k > 2 { // ⌈4/2⌉ groups at most
		t.Errorf("%d similarity groups for grid 4", k)
	}
	pub, err := puzzle.ParsePublicInstance(data)
	if err != nil {
		t.Fatal(err)
	}
	if len(pub.Hints.Revealed) != 3 || pub.Hints.Revealed[0] != inst.Hints.Revealed[0] {
		t.Errorf("public hints %+v", pub.Hints)
	}
}

// TestHintsGolden pins the hints of one demo instance, so a change in the
// draw order, the histograms or k-means shows.
func TestHintsGolden(t *testing.T) {
	img, err := demo.Image("alpine-lake")
	if err != nil {
		t.Fatal(err)
	}
	opt := puzzle.DefaultOptions()
	opt.Reveal, opt.Hints = 3, puzzle.HintsSimilarity
	g, err := Generate(SourceFromImage("alpine-lake", img), 6, 1, opt)
	if err != nil {
		t.Fatal(err)
	}
	if got := fmt.Sprint(g.Puzzle.Revealed); got != "[16 30 33]" {
		t.Errorf("revealed %s", got)
	}
	want := "[[0 1 2 4 10 11 16 17 19 23 24 26 27 28 30 32 33 35] [3 6 7 8 12 13 14 15 18 21 29 34] [5 9 20 22 25 31]]"
	if got := fmt.Sprint(g.Instance.Hints.Similarity); got != want {
		t.Errorf("similarity groups %s, want %s", got, want)
	}
}
