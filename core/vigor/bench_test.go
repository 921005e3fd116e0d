package vigor

import (
	"context"
	"testing"
)

// BenchmarkAgreementPaperSplit is the full analysis of a paper-sized study
// (1,080 result + 540 process items, 3 annotators, 3 runs × 2 conditions)
// with 2,000 bootstrap replicates; BenchmarkAgreementPaperSplitNoBootstrap
// is the same analysis without the bootstrap — the floor beside it.
func BenchmarkAgreementPaperSplit(b *testing.B) {
	benchAnalyze(b, DefaultReplicates)
}

func BenchmarkAgreementPaperSplitNoBootstrap(b *testing.B) {
	benchAnalyze(b, 0)
}

func benchAnalyze(b *testing.B, replicates int) {
	in := PaperStudy(1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Analyze(ctx, in, Options{Replicates: replicates, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}

func TestBenchAgreement(t *testing.T) {
	if testing.Short() {
		t.Skip("timing")
	}
	full, floor, err := BenchAgreement(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	// Timings are reported, not asserted (a shared machine is noisy); the
	// speed target is checked by `jigbench bench` and BenchmarkAgreement*.
	t.Logf("full analysis %v, without bootstrap %v", full, floor)
	if full <= 0 || floor <= 0 {
		t.Errorf("full %v, floor %v", full, floor)
	}
}
