package score

import (
	"context"
	"errors"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// TestPAExchangeableHandWorked: 4×4, piece k at cell k; classes {0, 5, 10}
// and {3, 12}. The answer swaps 0↔5, 3↔12 and 1↔2 and leaves 10 out.
// PA = 9/16 (the 9 untouched pieces); up to exchangeable pieces 0, 5, 3, 12
// count too (each sits where a piece of its class belongs): 13/16. Pieces
// 1 and 2 are not exchangeable and 10 has no cell.
func TestPAExchangeableHandWorked(t *testing.T) {
	tr := uniformTruth()
	e, err := puzzle.NewExchange([]int{0, 1, 2, 3, 4, 0, 6, 7, 8, 9, 0, 11, 3, 13, 14, 15})
	if err != nil {
		t.Fatal(err)
	}
	pred := identity(4)
	pred[0], pred[5] = 5, 0
	pred[3], pred[12] = 12, 3
	pred[1], pred[2] = 2, 1
	pred[10] = Missing
	if got := Score(tr, pred).PA; got != 9.0/16 {
		t.Errorf("PA %v, want 9/16", got)
	}
	if got := PAExchangeable(tr, pred, e); got != 13.0/16 {
		t.Errorf("PA up to exchangeable pieces %v, want 13/16", got)
	}
	if got := PAExchangeable(tr, pred, puzzle.Singletons(16)); got != 9.0/16 {
		t.Errorf("with no exchangeable pieces %v, want PA 9/16", got)
	}
}

// TestScoreRemainingHandWorked: 4×4 uniformTruth, pieces 0 and 1 revealed,
// the answer swaps 2 and 3. Remaining: 14 pieces, 12 right → PA 12/14, EM 0.
// Of the 24 adjacencies, {0,1} is both revealed: 23 remain. The swap breaks
// {1,2}, {2,6}, {3,7} (no longer neighbours) and reverses {2,3}: AA 20/23,
// AA-directed 19/23. Cell pairs: (cell 2, cell 3) now holds pieces 3 then 2,
// and piece 3's right side is flat; every other pair interlocks: SC 22/23.
func TestScoreRemainingHandWorked(t *testing.T) {
	tr := uniformTruth()
	tr.Revealed = make([]bool, 16)
	tr.Revealed[0], tr.Revealed[1] = true, true
	pred := identity(4)
	pred[2], pred[3] = 3, 2
	got := ScoreRemaining(tr, pred)
	want := Metrics{PA: 12.0 / 14, EM: 0, AA: 20.0 / 23, AADirected: 19.0 / 23, SC: 22.0 / 23}
	if got != want {
		t.Errorf("remaining %+v, want %+v", got, want)
	}
	// A revealed piece put elsewhere changes nothing of PA or EM on the
	// remaining pieces.
	pred = identity(4)
	pred[0], pred[1] = 1, 0
	if got := ScoreRemaining(tr, pred); got.PA != 1 || got.EM != 1 {
		t.Errorf("misplaced revealed pieces: %+v", got)
	}
}

// TestScoreRemainingWithoutHintsIsScore: with nothing revealed the metrics
// on the remaining pieces are the metrics, on random answers with missing
// and doubled cells.
func TestScoreRemainingWithoutHintsIsScore(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, tr := range []*Truth{uniformTruth(), alternatingTruth()} {
		for range 500 {
			pred := r.Perm(16)
			for k := range pred {
				switch r.IntN(8) {
				case 0:
					pred[k] = Missing
				case 1:
					pred[k] = r.IntN(16)
				}
			}
			if a, b := ScoreRemaining(tr, pred), Score(tr, pred); a != b {
				t.Fatalf("pred %v: remaining %+v, score %+v", pred, a, b)
			}
		}
	}
}

// TestReportExtras: EvaluateSets carries both figures into the instances
// and groups. With no exchangeable pieces PA up to exchangeable pieces is
// PA, interval included (the bootstrap draws the same resamples); an
// invalid answer scores 0 on both.
func TestReportExtras(t *testing.T) {
	var ts []*Truth
	for i := range 6 {
		tr := uniformTruth()
		tr.ID = "hand-" + string(rune('a'+i))
		tr.Revealed = make([]bool, 16)
		tr.Revealed[0], tr.Revealed[1] = true, true
		tr.Exchange = &TruthExchange{Shape: puzzle.Singletons(16), Rect: puzzle.Singletons(16)}
		ts = append(ts, tr)
	}
	truth, err := NewTruthSet(ts...)
	if err != nil {
		t.Fatal(err)
	}
	set := SimulateAnswers(truth, SimBorderAware, puzzle.ConditionShape, 7)
	set.Records[2].Reason, set.Records[2].Cells = "unreadable", nil
	rep, err := EvaluateSets(context.Background(), truth, []*AnswerSet{set}, Options{}, nil)
	if err != nil {
		t.Fatal(err)
	}
	g := rep.Groups[0]
	if g.PAExchangeable == nil || g.PAExchangeable.N != 6 || g.PAExchangeable.Mean != g.PA || g.PAExchangeable.CI != g.CI.PA {
		t.Errorf("PA up to exchangeable pieces %+v; PA %v %v", g.PAExchangeable, g.PA, g.CI.PA)
	}
	if g.Remaining == nil || g.Remaining.N != 6 {
		t.Fatalf("remaining %+v", g.Remaining)
	}
	sum := 0.0
	for _, s := range rep.Instances {
		if !s.Valid && (*s.PAExchangeable != 0 || *s.Remaining != (Metrics{})) {
			t.Errorf("invalid answer scored %v, %+v", *s.PAExchangeable, *s.Remaining)
		}
		sum += s.Remaining.PA
	}
	if g.Remaining.PA != sum/6 {
		t.Errorf("remaining PA %v, mean of instances %v", g.Remaining.PA, sum/6)
	}
	var table, md strings.Builder
	if err := rep.WriteTable(&table); err != nil {
		t.Fatal(err)
	}
	if err := rep.WriteMarkdown(&md); err != nil {
		t.Fatal(err)
	}
	for _, out := range []string{table.String(), md.String()} {
		if !strings.Contains(out, "exchangeable pieces") || !strings.Contains(out, "remaining pieces") {
			t.Errorf("report lacks the extra sections:\n%s", out)
		}
	}
}

// TestAmbiguityReport: classes, pairs, exact arrangements and the unique
// shares per grid, with an ExchangeFunc standing in for the pixels.
func TestAmbiguityReport(t *testing.T) {
	truth := &TruthSet{index: map[string]int{}}
	for _, id := range []string{"a", "b", "c"} {
		tr := uniformTruth()
		tr.ID = id
		if err := truth.add(TruthInstance{Truth: tr, Dir: "dir-" + id}); err != nil {
			t.Fatal(err)
		}
	}
	f := func(dir string) (shape, rect puzzle.Exchange, err error) {
		switch dir {
		case "dir-a":
			return puzzle.Singletons(16), puzzle.Singletons(16), nil
		case "dir-b":
			first := []int{0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15}
			first[9], first[14] = 4, 4 // {4, 9, 14}
			e, _ := puzzle.NewExchange(first)
			return puzzle.Singletons(16), e, nil
		}
		return shape, rect, errors.New("no solved.png")
	}
	rep, err := Ambiguity(context.Background(), truth, f, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(rep.Instances) != 2 || len(rep.Problems) != 1 {
		t.Fatalf("%d instances, problems %v", len(rep.Instances), rep.Problems)
	}
	b := rep.Instances[1]
	if b.Rect.Arrangements != "6" || b.Rect.Pairs != 3 || b.Rect.Unique || !b.Shape.Unique || b.Shape.Arrangements != "1" {
		t.Errorf("instance b: %+v", b)
	}
	g := rep.Grids[0]
	if g.Instances != 2 || g.UniqueShape != 2 || g.UniqueRect != 1 || g.UniqueRectShare != 0.5 {
		t.Errorf("grid summary %+v", g)
	}
}
