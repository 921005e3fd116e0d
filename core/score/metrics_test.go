package score

import (
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// The hand-worked cases use 4×4 puzzles where piece k belongs at cell k
// (row k div 4, column k mod 4), so "piece 5" and "cell (1,1)" name the same
// square. E = 2·4·3 = 24 true adjacencies / neighbouring cell pairs.
//
// uniformTruth has every polarity +1: each piece's tab points right and
// down, so a piece's right and bottom sides are tabs and its left and top
// sides blanks, except flat sides on the boundary. Two neighbouring predicted
// cells are then shape-compatible exactly when no flat side faces: for a
// horizontal pair, the left piece does not belong in column 3 and the right
// one not in column 0; for a vertical pair, the upper piece not in row 3 and
// the lower one not in row 0.
func uniformTruth() *Truth {
	return truthWith(4, func(r, c int) int { return 1 }, func(r, c int) int { return 1 })
}

// alternatingTruth flips the horizontal polarities column by column
// (+1, −1, +1): sides, per true column, are col 0: right tab; col 1: left
// blank, right blank; col 2: left tab, right tab; col 3: left blank. Vertical
// polarities stay +1 (bottom tab, top blank). Here two tabs or two blanks can
// face each other.
func alternatingTruth() *Truth {
	return truthWith(4, func(r, c int) int { return 1 - 2*(c%2) }, func(r, c int) int { return 1 })
}

func truthWith(n int, h, v func(r, c int) int) *Truth {
	hor := make([][]int, n)
	for r := range hor {
		hor[r] = make([]int, n-1)
		for c := range hor[r] {
			hor[r][c] = h(r, c)
		}
	}
	ver := make([][]int, n-1)
	for r := range ver {
		ver[r] = make([]int, n)
		for c := range ver[r] {
			ver[r][c] = v(r, c)
		}
	}
	t := &Truth{ID: "hand", Grid: n, Cell: make([]int, n*n), Sides: make([]puzzle.Sides, n*n)}
	for k := range t.Cell {
		t.Cell[k] = k
		t.Sides[k] = puzzle.SidesOf(hor, ver, puzzle.Cell{Row: k / n, Col: k % n})
	}
	return t
}

func identity(n int) []int {
	p := make([]int, n*n)
	for k := range p {
		p[k] = k
	}
	return p
}

// ans builds a 4×4 answer text: the perfect mapping with changes applied
// (a nil position removes the piece).
func ans(changes map[int][]int) string {
	var b strings.Builder
	b.WriteString("{")
	for k := range 16 {
		pos := []int{k / 4, k % 4}
		if ch, ok := changes[k]; ok {
			if ch == nil {
				continue
			}
			pos = ch
		}
		if b.Len() > 1 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"%d": [%d, %d]`, k, pos[0], pos[1])
	}
	b.WriteString("}")
	return b.String()
}

func near(a, b float64) bool { return math.Abs(a-b) < 1e-12 }

func checkMetrics(t *testing.T, name string, got, want Metrics) {
	t.Helper()
	if !near(got.PA, want.PA) || !near(got.EM, want.EM) || !near(got.AA, want.AA) || !near(got.AADirected, want.AADirected) || !near(got.SC, want.SC) {
		t.Errorf("%s:\n got  PA %.4f EM %.0f AA %.4f AA-dir %.4f SC %.4f\n want PA %.4f EM %.0f AA %.4f AA-dir %.4f SC %.4f",
			name, got.PA, got.EM, got.AA, got.AADirected, got.SC, want.PA, want.EM, want.AA, want.AADirected, want.SC)
	}
}

func TestHandWorked4x4(t *testing.T) {
	cases := []struct {
		name   string
		truth  *Truth
		answer string
		want   Metrics
		// expected parse counts
		unknown, bad int
	}{
		{
			// Everything in place: 16/16 pieces, 24/24 adjacencies, and every
			// neighbouring pair is the true pair, so tab meets blank.
			name: "perfect", truth: uniformTruth(), answer: ans(nil),
			want: Metrics{PA: 1, EM: 1, AA: 1, AADirected: 1, SC: 1},
		},
		{
			// Pieces 0 and 1 swapped: cells 0,1 hold pieces 1,0.
			// PA: 14/16. AA: of the four adjacencies touching 0 or 1 —
			// {0,1} still side by side (reversed, so only undirected counts);
			// {1,2}: cells 0 and 2, apart; {0,4}: cells 1 and 4, diagonal;
			// {1,5}: cells 0 and 5, diagonal — 3 lost undirected, 4 directed:
			// AA 21/24, AA-dir 20/24.
			// SC: pair (0,1) has piece 1 left of piece 0, whose left side is
			// flat → incompatible; (1,2) piece 0 (right tab) beside piece 2
			// (left blank) fits; (0,4) and (1,5) have row-0 pieces (bottom
			// tabs) over row-1 pieces (top blanks) → fit. SC 23/24.
			name: "one swap", truth: uniformTruth(), answer: ans(map[int][]int{0: {0, 1}, 1: {0, 0}}),
			want: Metrics{PA: 14.0 / 16, AA: 21.0 / 24, AADirected: 20.0 / 24, SC: 23.0 / 24},
		},
		{
			// The same kind of swap under alternating polarities, pieces 1 and
			// 2: row 0 reads 0, 2, 1, 3. PA 14/16.
			// AA: {0,1}: cells 0,2 apart; {1,2}: cells 2,1 side by side
			// (reversed); {2,3}: cells 1,3 apart; {1,5}: cells 2,5 diagonal;
			// {2,6}: cells 1,6 diagonal — 4 lost, 5 directed: 20/24, 19/24.
			// SC: (0,1) piece 0's right tab meets piece 2's left tab → no;
			// (1,2) piece 2's right tab meets piece 1's left blank → fits;
			// (2,3) piece 1's right blank meets piece 3's left blank → no;
			// (1,5), (2,6): bottom tabs over top blanks → fit. SC 22/24.
			name: "swap: tab meets tab", truth: alternatingTruth(), answer: ans(map[int][]int{1: {0, 2}, 2: {0, 1}}),
			want: Metrics{PA: 14.0 / 16, AA: 20.0 / 24, AADirected: 19.0 / 24, SC: 22.0 / 24},
		},
		{
			// The whole grid shifted one column right, wrapping: piece at
			// (r,c) placed at (r,(c+1) mod 4). PA 0. AA: horizontal pairs
			// with c = 0,1 stay side by side (8), c = 2 splits across the
			// wrap (columns 3 and 0: lost, 4); every vertical pair moves
			// together (12): AA = AA-dir = 20/24.
			// SC: cells in column 0 hold column-3 pieces, whose right side is
			// flat: pairs (r,0)-(r,1) fail (4); (r,1)-(r,2) and (r,2)-(r,3)
			// hold true neighbours (8); vertical pairs hold true neighbours
			// (12). SC 20/24.
			name: "shift with wrap", truth: uniformTruth(),
			answer: ans(map[int][]int{3: {0, 0}, 7: {1, 0}, 11: {2, 0}, 15: {3, 0},
				0: {0, 1}, 4: {1, 1}, 8: {2, 1}, 12: {3, 1}, 1: {0, 2}, 5: {1, 2}, 9: {2, 2}, 13: {3, 2},
				2: {0, 3}, 6: {1, 3}, 10: {2, 3}, 14: {3, 3}}),
			want: Metrics{PA: 0, AA: 20.0 / 24, AADirected: 20.0 / 24, SC: 20.0 / 24},
		},
		{
			// Shifted right off the grid: column-3 pieces go to column 4,
			// out of the grid, so those 4 pieces are missing. PA 0.
			// AA: horizontal pairs with c = 0,1 kept (8), c = 2 lost (a
			// missing piece); vertical pairs in columns 0–2 kept (9), column 3
			// lost: AA = AA-dir = 17/24. SC: column 0 is empty; (r,1)-(r,2)
			// and (r,2)-(r,3) fit (8); vertical pairs in columns 1–3 hold true
			// neighbours (9): 17/24.
			name: "shift off the grid", truth: uniformTruth(),
			answer: ans(map[int][]int{3: {0, 4}, 7: {1, 4}, 11: {2, 4}, 15: {3, 4},
				0: {0, 1}, 4: {1, 1}, 8: {2, 1}, 12: {3, 1}, 1: {0, 2}, 5: {1, 2}, 9: {2, 2}, 13: {3, 2},
				2: {0, 3}, 6: {1, 3}, 10: {2, 3}, 14: {3, 3}}),
			want: Metrics{PA: 0, AA: 17.0 / 24, AADirected: 17.0 / 24, SC: 17.0 / 24},
			bad:  4,
		},
		{
			// Two pieces on one cell: piece 5 placed on cell 6, where piece 6
			// also is; cell 5 is empty. PA 15/16 (piece 6 is still right).
			// AA: piece 5's four adjacencies are lost — {1,5}: cells 1,6
			// diagonal; {4,5}: cells 4,6 two apart; {5,6}: the same cell, not
			// neighbours; {5,9}: cells 6,9 diagonal: 20/24 both ways.
			// SC: cell 5 is empty and cell 6 holds two pieces, so neither is
			// filled: the 4 pairs around cell 5 and the 3 further pairs around
			// cell 6 fail: 17/24.
			name: "two pieces on one cell", truth: uniformTruth(), answer: ans(map[int][]int{5: {1, 2}}),
			want: Metrics{PA: 15.0 / 16, AA: 20.0 / 24, AADirected: 20.0 / 24, SC: 17.0 / 24},
		},
		{
			// A partial answer: the bottom row (pieces 12–15) not given, so
			// four holes. PA 12/16. AA: horizontal pairs in rows 0–2 (9) and
			// vertical pairs between rows 0–1 and 1–2 (8) kept: 17/24. SC: the
			// same 17 pairs are filled true neighbours: 17/24.
			name: "holes", truth: uniformTruth(), answer: ans(map[int][]int{12: nil, 13: nil, 14: nil, 15: nil}),
			want: Metrics{PA: 12.0 / 16, AA: 17.0 / 24, AADirected: 17.0 / 24, SC: 17.0 / 24},
		},
		{
			// Out-of-grid and non-integer positions: pieces 0, 1, 2 at
			// [4, 0], [-1, 2], [0, 9]; piece 3 at [0.5, 3]. All four missing,
			// the rest right. PA 12/16. AA loses every adjacency touching
			// 0–3: {0,1} {1,2} {2,3} {0,4} {1,5} {2,6} {3,7}: 17/24. SC: row 0
			// empty, the same 7 pairs fail: 17/24.
			name: "out of grid", truth: uniformTruth(),
			answer: strings.Replace(ans(map[int][]int{0: {4, 0}, 1: {-1, 2}, 2: {0, 9}}), `"3": [0, 3]`, `"3": [0.5, 3]`, 1),
			want:   Metrics{PA: 12.0 / 16, AA: 17.0 / 24, AADirected: 17.0 / 24, SC: 17.0 / 24},
			bad:    4,
		},
		{
			// Unknown IDs are ignored and counted: 16, 99 and −1 are no pieces
			// of a 4×4 puzzle; "16" would otherwise have collided with piece
			// 0. Metrics are perfect.
			name: "unknown IDs", truth: uniformTruth(),
			answer: strings.Replace(ans(nil), "{", `{"16": [0, 0], "99": [1, 1], "-1": [2, 2], `, 1),
			want:   Metrics{PA: 1, EM: 1, AA: 1, AADirected: 1, SC: 1}, unknown: 3,
		},
		{
			// One piece only, in place: PA 1/16; no adjacency has both
			// pieces; one filled cell has no filled neighbour: AA 0, SC 0.
			name: "partial: one piece", truth: uniformTruth(), answer: `{"5": [1, 1]}`,
			want: Metrics{PA: 1.0 / 16},
		},
		{
			// A duplicate key: the last occurrence counts. Piece 5 is first
			// sent to (3,3), then to (1,1): perfect.
			name: "duplicate key", truth: uniformTruth(), answer: strings.Replace(ans(nil), "{", `{"5": [3, 3], `, 1),
			want: Metrics{PA: 1, EM: 1, AA: 1, AADirected: 1, SC: 1},
		},
		{
			// Duplicate key, the last one bad: piece 5 at (1,1) then at
			// (7,7) — it is missing. PA 15/16; AA loses {1,5} {4,5} {5,6}
			// {5,9}: 20/24; SC: cell 5 empty, its 4 pairs fail: 20/24.
			name: "duplicate key, last off the grid", truth: uniformTruth(), answer: strings.Replace(ans(nil), "}", `, "5": [7, 7]}`, 1),
			want: Metrics{PA: 15.0 / 16, AA: 20.0 / 24, AADirected: 20.0 / 24, SC: 20.0 / 24}, bad: 1,
		},
	}
	for _, c := range cases {
		a, err := ParseAnswer([]byte(c.answer), 4)
		if err != nil {
			t.Errorf("%s: %v", c.name, err)
			continue
		}
		if a.Unknown != c.unknown || a.BadPositions != c.bad {
			t.Errorf("%s: unknown %d bad %d, want %d and %d", c.name, a.Unknown, a.BadPositions, c.unknown, c.bad)
		}
		checkMetrics(t, c.name, Score(c.truth, a.Cells), c.want)
	}
}

// TestRelabellingIDs: scores do not depend on which IDs the pieces carry.
func TestRelabellingIDs(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		n := 2 + rng.IntN(7)
		tr := randomTruth("x", n, rng)
		pred := randomAnswer(n, rng)
		perm := rng.Perm(n * n) // new ID of old piece k
		t2 := &Truth{Grid: n, Cell: make([]int, n*n), Sides: make([]puzzle.Sides, n*n)}
		p2 := make([]int, n*n)
		for k := range perm {
			t2.Cell[perm[k]] = tr.Cell[k]
			t2.Sides[perm[k]] = tr.Sides[k]
			p2[perm[k]] = pred[k]
		}
		if a, b := Score(tr, pred), Score(t2, p2); a != b {
			t.Fatalf("relabelled: %+v vs %+v", a, b)
		}
	}
}

// randomTruth is a random n×n puzzle: fair polarities, a random permutation.
func randomTruth(id string, n int, rng *rand.Rand) *Truth {
	coin := func(int, int) int { return 2*rng.IntN(2) - 1 }
	t := truthWith(n, coin, coin)
	t.ID = id
	perm := rng.Perm(n * n)
	sides := make([]puzzle.Sides, n*n)
	for k := range perm {
		t.Cell[k] = perm[k]
		sides[k] = t.Sides[perm[k]]
	}
	t.Sides = sides
	return t
}

// randomAnswer places some pieces anywhere (collisions allowed), leaves
// others out.
func randomAnswer(n int, rng *rand.Rand) []int {
	p := make([]int, n*n)
	for k := range p {
		if rng.IntN(8) == 0 {
			p[k] = Missing
		} else {
			p[k] = rng.IntN(n * n)
		}
	}
	return p
}

// TestTrueSolutionScoresOne: for random puzzles of every size the answer
// key, written as JSON and parsed, scores 1 on every metric.
func TestTrueSolutionScoresOne(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for n := 2; n <= 20; n++ {
		for range 5 {
			tr := randomTruth("x", n, rng)
			var b strings.Builder
			b.WriteString("{")
			for k, c := range tr.Cell {
				if k > 0 {
					b.WriteString(",")
				}
				fmt.Fprintf(&b, `"%d":[%d,%d]`, k, c/n, c%n)
			}
			b.WriteString("}")
			a, err := ParseAnswer([]byte(b.String()), n)
			if err != nil {
				t.Fatal(err)
			}
			checkMetrics(t, fmt.Sprintf("N=%d", n), Score(tr, a.Cells), Perfect)
		}
	}
}

// TestMetricsStayInRange: any answer, however broken, scores in [0, 1],
// and below 1 unless it is the solution.
func TestMetricsStayInRange(t *testing.T) {
	rng := rand.New(rand.NewPCG(5, 6))
	for range 2000 {
		n := 2 + rng.IntN(10)
		tr := randomTruth("x", n, rng)
		m := Score(tr, randomAnswer(n, rng))
		for _, v := range metricVector(m) {
			if v < 0 || v > 1 || math.IsNaN(v) {
				t.Fatalf("out of range: %+v", m)
			}
		}
		if m.AADirected > m.AA || m.EM == 1 && m.PA != 1 {
			t.Fatalf("inconsistent: %+v", m)
		}
	}
}
