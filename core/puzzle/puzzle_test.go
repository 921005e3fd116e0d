package puzzle

import (
	"bytes"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/rng"
)

func mustNew(t testing.TB, n int, seed uint64, opt Options) *Puzzle {
	t.Helper()
	p, err := New(n, seed, [32]byte{1, 2, 3}, n*40, n*24, opt)
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func TestSidesAgreeWithPolarities(t *testing.T) {
	for _, n := range []int{2, 3, 4, 8, 16, 32} {
		for seed := uint64(0); seed < 5; seed++ {
			p := mustNew(t, n, seed, DefaultOptions())
			for r := 0; r < n; r++ {
				for c := 0; c < n; c++ {
					s := p.Sides(Cell{r, c})
					flats := 0
					for _, side := range s {
						if side == Flat {
							flats++
						}
					}
					border := 0
					if r == 0 || r == n-1 {
						border++
					}
					if c == 0 || c == n-1 {
						border++
					}
					if flats != border {
						t.Fatalf("n=%d (%d,%d): %d flat sides, want %d", n, r, c, flats, border)
					}
					if c+1 < n {
						right := p.Sides(Cell{r, c + 1})
						if !s[Right].Complements(right[Left]) {
							t.Fatalf("n=%d (%d,%d) right %v vs left %v", n, r, c, s[Right], right[Left])
						}
						if (s[Right] == Tab) != (p.Horizontal[r][c] == 1) {
							t.Fatalf("n=%d (%d,%d): right side %v but polarity %d", n, r, c, s[Right], p.Horizontal[r][c])
						}
					}
					if r+1 < n {
						below := p.Sides(Cell{r + 1, c})
						if !s[Bottom].Complements(below[Top]) {
							t.Fatalf("n=%d (%d,%d) bottom %v vs top %v", n, r, c, s[Bottom], below[Top])
						}
						if (s[Bottom] == Tab) != (p.Vertical[r][c] == 1) {
							t.Fatalf("n=%d (%d,%d): bottom side %v but polarity %d", n, r, c, s[Bottom], p.Vertical[r][c])
						}
					}
				}
			}
		}
	}
}

func TestPermutationIsABijection(t *testing.T) {
	p := mustNew(t, 16, 3, DefaultOptions())
	seen := make([]bool, 256)
	for i, id := range p.IDAt {
		if seen[id] {
			t.Fatalf("ID %d used twice", id)
		}
		seen[id] = true
		if c := p.CellOf[id]; c.Row*16+c.Col != i {
			t.Fatalf("CellOf[%d] = %v, want cell %d", id, c, i)
		}
	}
}

// TestDocumentedDrawOrder replays the README's draw order by hand.
func TestDocumentedDrawOrder(t *testing.T) {
	for _, style := range []string{StyleSemicircle, StyleClassic} {
		n := 5
		opt := DefaultOptions()
		opt.TabStyle = style
		p := mustNew(t, n, 99, opt)
		r := NewRNG(99, [32]byte{1, 2, 3}, n)
		coin := func() int {
			if r.Uint64()>>63 == 1 {
				return 1
			}
			return -1
		}
		for i := 0; i < n; i++ {
			for j := 0; j < n-1; j++ {
				if coin() != p.Horizontal[i][j] {
					t.Fatalf("%s: horizontal[%d][%d] is not draw %d", style, i, j, i*(n-1)+j)
				}
			}
		}
		for i := 0; i < n-1; i++ {
			for j := 0; j < n; j++ {
				if coin() != p.Vertical[i][j] {
					t.Fatalf("%s: vertical[%d][%d] out of order", style, i, j)
				}
			}
		}
		if style == StyleClassic {
			for range 6 * p.EdgeCount() {
				r.Uint64()
			}
		}
		ids := make([]int, n*n)
		for i := range ids {
			ids[i] = i
		}
		for i := n*n - 1; i > 0; i-- {
			j := int(rng.Below(r, uint64(i+1)))
			ids[i], ids[j] = ids[j], ids[i]
		}
		if !reflect.DeepEqual(ids, p.IDAt) {
			t.Fatalf("%s: permutation does not follow the documented order", style)
		}
	}
}

func TestDrawBelowIsUniform(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	counts := make([]int, 7)
	const draws = 70000
	for range draws {
		counts[rng.Below(r, 7)]++
	}
	for v, c := range counts {
		if c < draws/7-600 || c > draws/7+600 { // ±6σ
			t.Errorf("value %d drawn %d times of %d", v, c, draws)
		}
	}
}

func TestSeedsAndSourcesGiveDifferentPuzzles(t *testing.T) {
	a := mustNew(t, 8, 1, DefaultOptions())
	b := mustNew(t, 8, 2, DefaultOptions())
	c, err := New(8, 1, [32]byte{9}, 320, 192, DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	if reflect.DeepEqual(a.IDAt, b.IDAt) || reflect.DeepEqual(a.IDAt, c.IDAt) {
		t.Fatal("different seed or source gave the same permutation")
	}
	if again := mustNew(t, 8, 1, DefaultOptions()); !reflect.DeepEqual(a.IDAt, again.IDAt) || !reflect.DeepEqual(a.Vertical, again.Vertical) {
		t.Fatal("same inputs gave different puzzles")
	}
}

func TestInstanceRoundTrip(t *testing.T) {
	for _, style := range []string{StyleSemicircle, StyleClassic} {
		opt := DefaultOptions()
		opt.TabStyle = style
		p := mustNew(t, 6, 5, opt)
		inst := p.Instance("photo", 1600, 1000)
		data, err := inst.MarshalIndent()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseInstance(data)
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(inst, back) {
			t.Fatalf("%s: instance changed in a round trip", style)
		}
		again, err := back.MarshalIndent()
		if err != nil || !bytes.Equal(data, again) {
			t.Fatalf("%s: re-encoding differs", style)
		}
		q, err := back.Puzzle()
		if err != nil {
			t.Fatal(err)
		}
		if !reflect.DeepEqual(q.IDAt, p.IDAt) || q.Layout != p.Layout {
			t.Fatalf("%s: rebuilt puzzle differs", style)
		}
	}
}

func TestParseInstanceRejectsBrokenFiles(t *testing.T) {
	p := mustNew(t, 3, 1, DefaultOptions())
	good, err := p.Instance("x", 120, 72).MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]string{
		"not json":       "{",
		"wrong format":   strings.Replace(string(good), InstanceFormat, "other/v9", 1),
		"grid too small": strings.Replace(string(good), `"grid": 3`, `"grid": 1`, 1),
		"slot mismatch":  strings.Replace(string(good), `"slot":{"row":0,"col":1}`, `"slot":{"row":2,"col":2}`, 1),
		"truncated":      string(good[:len(good)/2]),
	}
	for name, data := range cases {
		if _, err := ParseInstance([]byte(data)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
}

func TestOptionsValidate(t *testing.T) {
	bad := []Options{
		{Size: 1024, TabStyle: "zigzag", TabRatio: 0.2},
		{Size: 10, TabStyle: StyleSemicircle, TabRatio: 0.2},
		{Size: 1024, TabStyle: StyleSemicircle, TabRatio: 0.4},
		{Size: 1024, TabStyle: StyleClassic, TabRatio: 0.3},
	}
	for _, o := range bad {
		if o.Validate() == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if err := DefaultOptions().Validate(); err != nil {
		t.Error(err)
	}
}

func TestPromptsNameTheGridAndFormat(t *testing.T) {
	shape, rect := Prompt(8, ConditionShape), Prompt(8, ConditionRect)
	for _, p := range []string{shape, rect} {
		for _, want := range []string{"8×8", "63", "[row, col]", "at random", "JSON"} {
			if !strings.Contains(p, want) {
				t.Errorf("prompt lacks %q", want)
			}
		}
	}
	if !strings.Contains(shape, "tab") || strings.Contains(rect, "a tab (") {
		t.Error("shape prompt must explain tabs; the rect prompt must not")
	}
	if !strings.Contains(shape, "corner") || !strings.Contains(rect, "continue") {
		t.Error("prompts miss the condition-specific hints")
	}
}

func FuzzParseInstance(f *testing.F) {
	p, _ := New(3, 1, [32]byte{}, 120, 72, DefaultOptions())
	good, _ := p.Instance("x", 120, 72).MarshalIndent()
	f.Add(good)
	f.Add(hintedInstance())
	f.Add([]byte(`{"format":"jigbench.instance/v1","grid":2}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		inst, err := ParseInstance(data)
		if err != nil {
			return
		}
		_ = inst.Sides()
		_, _ = inst.Puzzle()
		if h := inst.Hints; h != nil {
			for _, rp := range h.Revealed {
				if (inst.Solution[rp.ID] != Cell{rp.Row, rp.Col}) {
					t.Fatalf("revealed piece %d is not at its true cell", rp.ID)
				}
			}
		}
	})
}

func FuzzParsePublicInstance(f *testing.F) {
	p, _ := New(3, 1, [32]byte{}, 120, 72, DefaultOptions())
	good, _ := p.Instance("x", 120, 72).MarshalIndent()
	f.Add(good)
	f.Add(hintedInstance())
	f.Add([]byte(`{"format":"jigbench.instance/v1","grid":2,"pieces":[{"id":0,"slot":{"row":0,"col":0}}]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		pub, err := ParsePublicInstance(data)
		if err != nil {
			return
		}
		if err := pub.Check(); err != nil {
			t.Fatalf("parsed but inconsistent: %v", err)
		}
		if len(pub.Slots) != pub.Grid*pub.Grid {
			t.Fatalf("%d slots for grid %d", len(pub.Slots), pub.Grid)
		}
		if h := pub.Hints; h != nil {
			for _, rp := range h.Revealed {
				if rp.ID >= len(pub.Slots) || rp.Row >= pub.Grid || rp.Col >= pub.Grid {
					t.Fatalf("revealed piece %+v outside a %d grid", rp, pub.Grid)
				}
			}
		}
	})
}

// hintedInstance is a valid instance.json with revealed pieces and
// similarity groups, a seed for the fuzz targets.
func hintedInstance() []byte {
	opt := DefaultOptions()
	opt.Reveal, opt.Hints = 2, HintsSimilarity
	p, _ := New(3, 1, [32]byte{}, 120, 72, opt)
	p.Similarity = [][]int{{0, 1, 2, 3}, {4, 5, 6, 7, 8}}
	data, _ := p.Instance("x", 120, 72).MarshalIndent()
	return data
}

// TestInstanceIDDiffersByTabStyle: the same image, grid and seed with
// semicircle and classic tabs are two instances with two IDs; the
// semicircle ID keeps the paper's form.
func TestInstanceIDDiffersByTabStyle(t *testing.T) {
	ids := map[string]string{}
	for _, style := range []string{StyleSemicircle, StyleClassic} {
		opt := DefaultOptions()
		opt.TabStyle = style
		opt.TabRatio = min(opt.TabRatio, MaxTabRatioFor(style))
		p, err := New(8, 42, [32]byte{1}, 1024, 1024, opt)
		if err != nil {
			t.Fatal(err)
		}
		ids[style] = p.Instance("alpine-lake", 1024, 1024).ID
	}
	if got := ids[StyleSemicircle]; got != "alpine-lake-g8-s42" {
		t.Errorf("semicircle ID = %q, want alpine-lake-g8-s42", got)
	}
	if got := ids[StyleClassic]; got != "alpine-lake-g8-s42-classic" {
		t.Errorf("classic ID = %q, want alpine-lake-g8-s42-classic", got)
	}
}
