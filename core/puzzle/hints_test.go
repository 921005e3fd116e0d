package puzzle

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/rng"
)

func hinted(t *testing.T, reveal int, similarity bool) *Puzzle {
	t.Helper()
	opt := DefaultOptions()
	opt.Reveal = reveal
	if similarity {
		opt.Hints = HintsSimilarity
	}
	p, err := New(4, 9, [32]byte{1}, 160, 160, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// TestRevealDrawOrder: the revealed pieces are the first K of a partial
// Fisher–Yates shuffle drawn after the ID permutation, and the puzzle is
// the one of the same seed without hints.
func TestRevealDrawOrder(t *testing.T) {
	base := hinted(t, 0, false)
	p := hinted(t, 5, false)
	if !slices.Equal(p.IDAt, base.IDAt) || fmt.Sprint(p.Horizontal) != fmt.Sprint(base.Horizontal) {
		t.Fatal("--reveal changed the puzzle")
	}
	// Replay: the puzzle's draws (24 polarities, Fisher–Yates i = 15..1),
	// then the documented reveal draws.
	r := NewRNG(9, [32]byte{1}, 4)
	for range 2 * 4 * 3 {
		drawPolarity(r)
	}
	for i := 15; i > 0; i-- {
		rng.Below(r, uint64(i+1))
	}
	ids := make([]int, 16)
	for i := range ids {
		ids[i] = i
	}
	for i := range 5 {
		j := i + int(rng.Below(r, uint64(16-i)))
		ids[i], ids[j] = ids[j], ids[i]
	}
	want := slices.Sorted(slices.Values(ids[:5]))
	if !slices.Equal(p.Revealed, want) {
		t.Errorf("revealed %v, replay gives %v", p.Revealed, want)
	}
	if again := hinted(t, 5, false); !slices.Equal(again.Revealed, p.Revealed) {
		t.Error("the same seed revealed other pieces")
	}
}

// TestKmeans: two well-separated blobs come out as two groups whatever the
// generator; identical points share a group; the result depends only on
// the generator's state.
func TestKmeans(t *testing.T) {
	x := [][]float64{{0, 0}, {10, 10}, {0.1, 0}, {10, 9.9}, {0, 0.2}, {9.8, 10}, {0, 0}}
	for seed := range uint64(20) {
		got := groupsOf(kmeans(rand.New(rand.NewPCG(seed, 1)), x, 2))
		if fmt.Sprint(got) != "[[0 2 4 6] [1 3 5]]" {
			t.Fatalf("seed %d: %v", seed, got)
		}
	}
	// Three identical points and k = 3: only one distinct colour, one group.
	same := [][]float64{{1, 2}, {1, 2}, {1, 2}}
	if got := groupsOf(kmeans(rand.New(rand.NewPCG(1, 1)), same, 3)); fmt.Sprint(got) != "[[0 1 2]]" {
		t.Errorf("identical points: %v", got)
	}
	p := hinted(t, 2, true)
	features := make([][]float64, 16)
	for i := range features {
		features[i] = []float64{float64(i % 3), float64(i % 5)}
	}
	if err := p.GroupBySimilarity(features); err != nil {
		t.Fatal(err)
	}
	first := fmt.Sprint(p.Similarity)
	if err := p.GroupBySimilarity(features); err != nil || fmt.Sprint(p.Similarity) != first {
		t.Errorf("a second grouping differs: %v, then %v", first, p.Similarity)
	}
	if len(p.Similarity) > 2 { // ⌈4/2⌉
		t.Errorf("%d groups for grid 4", len(p.Similarity))
	}
	if err := hinted(t, 0, false).GroupBySimilarity(features); err == nil {
		t.Error("grouping a puzzle made without similarity hints worked")
	}
}

// TestHintsInInstance: hints are written, parsed and checked; without hints
// the file has no "hints" field; edited hints are refused.
func TestHintsInInstance(t *testing.T) {
	plain, _ := hinted(t, 0, false).Instance("x", 160, 160).MarshalIndent()
	if bytes.Contains(plain, []byte("hints")) || bytes.Contains(plain, []byte("reveal")) {
		t.Fatal("an instance without hints mentions them")
	}
	p := hinted(t, 3, true)
	groups := make([]int, 16)
	for i := range groups {
		groups[i] = i % 2
	}
	p.Similarity = groupsOf(groups)
	good, err := p.Instance("x", 160, 160).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	inst, err := ParseInstance(good)
	if err != nil {
		t.Fatal(err)
	}
	if ids := inst.Hints.RevealedIDs(); !slices.Equal(ids, p.Revealed) {
		t.Errorf("revealed %v, want %v", ids, p.Revealed)
	}
	if _, err := inst.Puzzle(); err != nil {
		t.Fatal(err)
	}
	rp := inst.Hints.Revealed[0]
	cell := fmt.Sprintf(`{"id":%d,"row":%d,"col":%d}`, rp.ID, rp.Row, rp.Col)
	wrongCell := fmt.Sprintf(`{"id":%d,"row":%d,"col":%d}`, rp.ID, (rp.Row+1)%4, rp.Col)
	for name, edit := range map[string][2]string{
		"wrong revealed cell": {cell, wrongCell},
		"fewer revealed":      {cell + ",", ""},
		"ID twice in groups":  {`"similarity":[[0,`, `"similarity":[[0,1,`},
		"no groups":           {`,"similarity":[[0,2,4,6,8,10,12,14],[1,3,5,7,9,11,13,15]]`, ""},
		"reveal option":       {`"reveal":3`, `"reveal":2`},
	} {
		bad := strings.Replace(string(good), edit[0], edit[1], 1)
		if bad == string(good) {
			t.Fatalf("%s: the edit did not apply", name)
		}
		if _, err := ParseInstance([]byte(bad)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	pub, err := ParsePublicInstance(good)
	if err != nil || len(pub.Hints.Revealed) != 3 {
		t.Fatalf("public hints: %v, %v", pub, err)
	}
	if _, err := ParseInstance(hintedInstance()); err != nil {
		t.Errorf("the fuzz seed is not valid: %v", err)
	}
	// Too many revealed pieces for the grid.
	opt := DefaultOptions()
	opt.Reveal = 16
	if _, err := New(4, 1, [32]byte{}, 160, 160, opt); err == nil {
		t.Error("revealing all 16 pieces of a 4×4 was accepted")
	}
}

// TestPromptHints: the hint paragraph states each revealed piece and each
// group of two or more; without hints the prompt is Prompt's.
func TestPromptHints(t *testing.T) {
	if PromptWithHints(4, ConditionShape, nil) != Prompt(4, ConditionShape) {
		t.Fatal("no hints changed the prompt")
	}
	h := &Hints{Revealed: []RevealedPiece{{ID: 3, Row: 0, Col: 2}}, Similarity: [][]int{{0, 3, 17}, {1}}}
	got := PromptWithHints(5, ConditionRect, h)
	for _, want := range []string{"Piece 3 belongs at [0, 2].\n", "Pieces 0, 3, 17 look alike in colour.\n"} {
		if !strings.Contains(got, want) {
			t.Errorf("prompt lacks %q", want)
		}
	}
	if strings.Contains(got, "Pieces 1 look") {
		t.Error("a group of one is stated")
	}
}
