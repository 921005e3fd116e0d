package bench

import "testing"

// BenchmarkScore reports the time to score 10,000 16×16 answers from JSONL
// and its ratio to decoding that JSONL with encoding/json, measured in the
// same run (metric "x-floor", target ≤ 1.5).
func BenchmarkScore(b *testing.B) {
	c, err := Scoring(b.TempDir())
	reportCase(b, c, err, 3, "ms/10k-answers", "floor-ms", "x-floor")
}

func TestScoringCaseRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("writes and scores 10,000 answers")
	}
	c, err := Scoring(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	if err := c.Work(); err != nil {
		t.Fatal(err)
	}
	if err := c.Floor(); err != nil {
		t.Fatal(err)
	}
}
