package vigor

import (
	"context"
	"testing"
)

// BenchmarkLeaderboardPaperSplit is the leaderboard of a paper-sized study
// (PaperStudy: 1,620 items, every group of domain and subdomain) with
// 2,000 replicates; ...NoBootstrap is the floor beside it.
func BenchmarkLeaderboardPaperSplit(b *testing.B) { benchLeaderboard(b, DefaultReplicates) }

func BenchmarkLeaderboardPaperSplitNoBootstrap(b *testing.B) { benchLeaderboard(b, 0) }

func benchLeaderboard(b *testing.B, replicates int) {
	in := PaperStudy(1)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if _, err := BuildLeaderboard(ctx, in, LeaderboardOptions{Replicates: replicates, Seed: 1}); err != nil {
			b.Fatal(err)
		}
	}
}
