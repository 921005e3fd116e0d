package vigor

import (
	"bytes"
	"context"
	"encoding/csv"
	"fmt"
	"math"
	"strings"
	"testing"
)

// lbInput is a result-track split with four models, two items each, two
// annotators and two with-GT judge runs. Only reasoning_success varies;
// every other dimension is 1 for everyone.
//
//	item   humans RS   judge RS (run 1, 2)
//	a1     1 1         1 1
//	a2     1 1         0 1
//	b1     1 0         1 1
//	b2     1 1         1 1
//	c1     0 0         0 0
//	c2     1 0         0 0
//	d1     0 0         0 0
//	d2     0 0         0 0
//
// Per model (mean over items of the item means): humans A 1, B 3/4, C 1/4,
// D 0; judge A 3/4, B 1, C 0, D 0. Models A, B are in domain X, C, D in Y.
func lbInput(t testing.TB) Input {
	t.Helper()
	var items []string
	for _, m := range []string{"A", "B", "C", "D"} {
		dom := "X"
		if m > "B" {
			dom = "Y"
		}
		for i := 1; i <= 2; i++ {
			items = append(items, fmt.Sprintf(`{"id":"%s%d","track":"result","domain":"%s","subdomain":"S","model":"%s",
				"instruction":"i","input":"in.png","output":"out.png","gt_text":"t"}`, strings.ToLower(m), i, dom, m))
		}
	}
	sp, probs := ParseSplit([]byte(`{"format":"jigbench.vigor-split/v1","name":"lb","items":[` + strings.Join(items, ",") + `]}`))
	for _, p := range probs {
		if p.Fatal {
			t.Fatal(p)
		}
	}
	humanRS := map[string][2]int{"a1": {1, 1}, "a2": {1, 1}, "b1": {1, 0}, "b2": {1, 1}, "c1": {0, 0}, "c2": {1, 0}, "d1": {0, 0}, "d2": {0, 0}}
	judgeRS := map[string][2]int{"a1": {1, 1}, "a2": {0, 1}, "b1": {1, 1}, "b2": {1, 1}, "c1": {0, 0}, "c2": {0, 0}, "d1": {0, 0}, "d2": {0, 0}}
	in := Input{Split: sp}
	for _, it := range sp.Items {
		for k, who := range []string{"H1", "H2"} {
			in.Humans = append(in.Humans, Rating{Split: "lb", Item: it.ID, Annotator: who, Scores: Scores{1, 1, 1, humanRS[it.ID][k]}})
			in.Judge = append(in.Judge, JudgeRecord{Item: it.ID, Run: k + 1, Condition: WithGT, Scores: Scores{1, 1, 1, judgeRS[it.ID][k]}})
		}
	}
	return in
}

func TestLeaderboardHandComputed(t *testing.T) {
	lb, err := BuildLeaderboard(context.Background(), lbInput(t), LeaderboardOptions{Replicates: 2000, Seed: 3})
	if err != nil {
		t.Fatal(err)
	}
	if lb.Condition != WithGT || len(lb.Runs) != 2 {
		t.Fatalf("condition %s runs %v", lb.Condition, lb.Runs)
	}
	entry := func(by, group, dim, model string) LeaderEntry {
		t.Helper()
		for _, e := range lb.Entries {
			if e.By == by && e.Group == group && e.Dimension == dim && e.Model == model {
				return e
			}
		}
		t.Fatalf("no entry %s %s %s %s", by, group, dim, model)
		return LeaderEntry{}
	}
	ranking := func(by, group, dim string) RankAgreement {
		t.Helper()
		for _, r := range lb.Rankings {
			if r.By == by && r.Group == group && r.Dimension == dim {
				return r
			}
		}
		t.Fatalf("no ranking %s %s %s", by, group, dim)
		return RankAgreement{}
	}
	rs := "reasoning_success"
	for m, want := range map[string][2]float64{"A": {0.75, 1}, "B": {1, 0.75}, "C": {0, 0.25}, "D": {0, 0}} {
		e := entry("all", "all", rs, m)
		near(t, m+" judge", e.Judge, want[0])
		near(t, m+" human", e.Human, want[1])
		if e.Items != 2 {
			t.Errorf("%s: %d items", m, e.Items)
		}
		// The average column: the other three dimensions are 1.
		near(t, m+" judge average", entry("all", "all", DimAverage, m).Judge, (3+want[0])/4)
		for _, iv := range []Interval{e.JudgeCI, e.HumanCI} {
			lo, hi := iv.Lo.Or(math.NaN()), iv.Hi.Or(math.NaN())
			if !(lo <= hi && lo >= 0 && hi <= 1) {
				t.Errorf("%s: interval %v", m, iv.Format(3))
			}
		}
	}
	// Ranks, 1 for the best: judge B 1, A 2, C and D share 3.5; humans A 1,
	// B 2, C 3, D 4.
	for m, want := range map[string][2]float64{"A": {2, 1}, "B": {1, 2}, "C": {3.5, 3}, "D": {3.5, 4}} {
		e := entry("all", "all", rs, m)
		near(t, m+" judge rank", e.JudgeRank, want[0])
		near(t, m+" human rank", e.HumanRank, want[1])
	}
	// A model whose items all score 0 (or 1) on both sides has a
	// degenerate interval at that value.
	if e := entry("all", "all", rs, "D"); e.JudgeCI.Format(6) != "[0.000000, 0.000000]" || e.HumanCI.Format(6) != "[0.000000, 0.000000]" {
		t.Errorf("D intervals %s %s", e.JudgeCI.Format(6), e.HumanCI.Format(6))
	}
	if e := entry("all", "all", rs, "A"); e.HumanCI.Format(6) != "[1.000000, 1.000000]" {
		t.Errorf("A human interval %s", e.HumanCI.Format(6))
	}

	// Judge (A .75, B 1, C 0, D 0) against humans (1, .75, .25, 0): of the
	// six pairs AB is discordant, CD tied for the judge only, the other
	// four concordant: τ-b = (4 − 1)/√(5·6). Ranks (ascending) judge
	// (3, 4, 1.5, 1.5), humans (4, 3, 2, 1); about 2.5: Σdxdy = 3.5,
	// Σdx² = 4.5, Σdy² = 5: ρ = 3.5/√22.5.
	r := ranking("all", "all", rs)
	near(t, "τ-b", r.KendallTauB, 3/math.Sqrt(30))
	near(t, "ρ", r.SpearmanRho, 3.5/math.Sqrt(22.5))
	if r.Models != 4 || !r.KendallCI.OK() || !r.SpearmanCI.OK() {
		t.Errorf("ranking %+v", r)
	}
	if lo, hi := r.KendallCI.Lo.Or(2), r.KendallCI.Hi.Or(-2); lo < -1 || hi > 1 || lo > hi {
		t.Errorf("τ-b interval %s", r.KendallCI.Format(3))
	}
	// Stability: run 1 per model (A .5, B 1, C 0, D 0), run 2 (1, 1, 0, 0).
	// AC, AD, BC, BD concordant; AB tied in run 2; CD tied in both:
	// τ-b = 4/√(5·4).
	if len(r.RunStability) != 1 || r.RunStability[0].A != 1 || r.RunStability[0].B != 2 {
		t.Fatalf("run stability %+v", r.RunStability)
	}
	near(t, "run τ-b", r.RunStability[0].Tau, 4/math.Sqrt(20))
	near(t, "mean run τ-b", r.MeanRunTau, 4/math.Sqrt(20))

	// Every model scores 1 on BC on both sides: the rankings are all tied
	// and the correlations undefined, never 0 or 1.
	if r := ranking("all", "all", "background_consistency"); r.KendallTauB.OK() || r.SpearmanRho.OK() {
		t.Errorf("all-tied ranking gives τ %v ρ %v", r.KendallTauB, r.SpearmanRho)
	}
	// Domain Y holds C and D, which the judge ties: τ-b undefined; humans
	// C .25 > D 0.
	if r := ranking("domain", "Y", rs); r.Models != 2 || r.KendallTauB.OK() {
		t.Errorf("domain Y ranking %+v", r)
	}
	near(t, "domain Y C human", entry("domain", "Y", rs, "C").Human, 0.25)
	// Domain X: A, B reversed between judge and humans: τ-b = ρ = −1.
	near(t, "domain X τ-b", ranking("domain", "X", rs).KendallTauB, -1)
	near(t, "domain X ρ", ranking("domain", "X", rs).SpearmanRho, -1)
	ranking("subdomain", "S", rs) // every group is there
}

func TestLeaderboardDeterministicAndFormats(t *testing.T) {
	in := lbInput(t)
	render := func() [4]string {
		lb, err := BuildLeaderboard(context.Background(), in, LeaderboardOptions{Replicates: 2000, Seed: 11})
		if err != nil {
			t.Fatal(err)
		}
		var out [4]string
		for i, w := range []func(*bytes.Buffer) error{
			func(b *bytes.Buffer) error { return lb.WriteText(b) },
			func(b *bytes.Buffer) error { return lb.WriteJSON(b) },
			func(b *bytes.Buffer) error { return lb.WriteMarkdown(b) },
			func(b *bytes.Buffer) error { return lb.WriteCSV(b) },
		} {
			var b bytes.Buffer
			if err := w(&b); err != nil {
				t.Fatal(err)
			}
			out[i] = b.String()
		}
		return out
	}
	a, b := render(), render()
	if a != b {
		t.Fatal("two runs with the same seed differ")
	}
	for _, want := range []string{"Model", "RS judge", "75.0%", "Kendall τ-b", "0.548"} {
		if !strings.Contains(a[0], want) {
			t.Errorf("text lacks %q:\n%s", want, a[0])
		}
	}
	if !strings.Contains(a[1], `"format": "jigbench.vigor-leaderboard/v1"`) || !strings.Contains(a[1], `"kendall_tau_b": "undefined"`) {
		t.Errorf("JSON:\n%.600s", a[1])
	}
	if !strings.Contains(a[2], "## domain X, result track") {
		t.Errorf("Markdown:\n%.600s", a[2])
	}
	rows, err := csv.NewReader(strings.NewReader(a[3])).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	found := false
	for _, r := range rows {
		if len(r) != len(LeaderboardCSVColumns) {
			t.Fatalf("CSV row %v", r)
		}
		if r[0] == "ranking" && r[1] == "all" && r[4] == "reasoning_success" && r[6] == "kendall_tau_b" {
			found = r[7] == fmt.Sprint(3/math.Sqrt(30))
		}
	}
	if !found {
		t.Error("CSV lacks the τ-b of the whole split at full precision")
	}
}

func TestLeaderboardConditionChoice(t *testing.T) {
	in := lbInput(t)
	if _, err := BuildLeaderboard(context.Background(), in, LeaderboardOptions{Condition: "text_gt_only"}); err == nil ||
		!strings.Contains(err.Error(), "text_gt_only") {
		t.Errorf("unknown condition: %v", err)
	}
	// A second condition in which the judge copies the humans: its ranking
	// agrees perfectly.
	for _, h := range in.Humans {
		run := 1
		if h.Annotator == "H2" {
			run = 2
		}
		in.Judge = append(in.Judge, JudgeRecord{Item: h.Item, Run: run, Condition: "oracle", Scores: h.Scores})
	}
	lb, err := BuildLeaderboard(context.Background(), in, LeaderboardOptions{Condition: "oracle"})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range lb.Rankings {
		if r.By == "all" && r.Dimension == "reasoning_success" {
			near(t, "oracle τ-b", r.KendallTauB, 1)
			near(t, "oracle ρ", r.SpearmanRho, 1)
		}
	}
	if lb, _ := BuildLeaderboard(context.Background(), in, LeaderboardOptions{}); lb.Condition != WithGT {
		t.Errorf("default condition %s, want with_gt", lb.Condition)
	}
}
