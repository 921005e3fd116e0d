package vigor

import (
	"context"
	"testing"
	"time"
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
	t.Logf("full analysis %v, without bootstrap %v", full, floor)
	if full <= 0 || floor <= 0 || floor > full {
		t.Errorf("full %v, floor %v", full, floor)
	}
	// "Interactive": well under a second even on a slow 2-core machine
	// (measured ≈ 0.1 s); a generous bound so a busy CI does not flake.
	if full > 900*time.Millisecond {
		t.Errorf("the full analysis took %v", full)
	}
}
