package solve

import (
	"slices"
	"testing"
)

// Pieces whose cells hold identical pixels are one tie class on a rect
// sheet, and a picture without them has no ties.
func TestTiesNameIdenticalPieces(t *testing.T) {
	gen := generateDemo(t, "alpine-lake", 4, 1)
	twins := rectTwins(gen)
	if len(twins) == 0 {
		t.Fatal("alpine-lake 4×4 was expected to have identical pieces")
	}
	res, _, _ := solveSheet(t, gen, true)
	classOf := map[int]int{}
	for i, c := range res.Ties {
		if len(c) < 2 || !slices.IsSorted(c) {
			t.Errorf("tie class %v: want two or more pieces in ID order", c)
		}
		for _, id := range c {
			classOf[id] = i + 1
		}
	}
	for _, p := range twins {
		if classOf[p[0]] == 0 || classOf[p[0]] != classOf[p[1]] {
			t.Errorf("pieces %d and %d hold identical pixels but are not one tie class (ties %v)", p[0], p[1], res.Ties)
		}
	}
	if res, _, _ := solveSheet(t, generateDemo(t, "stained-glass", 8, 1), true); len(res.Ties) != 0 {
		t.Errorf("stained-glass 8×8 has no identical pieces, yet ties %v", res.Ties)
	}
}
