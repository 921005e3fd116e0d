package solve

import (
	"slices"
	"testing"
)

// TestSwapSegmentsPutsBack: on a synthetic rect puzzle (each true seam
// costs 1, every other 5–9), a 2 × 3 block exchanged with one six rows
// down and five columns right, and two single pieces exchanged across the
// grid, are each put back by one exchange; the truth is left alone.
func TestSwapSegmentsPutsBack(t *testing.T) {
	const n = 12
	a := syntheticAssembly(n, 31)
	truth := identity(n * n)
	cells := slices.Clone(truth)
	exchange(cells, cellsIn(n, 1, 2, 1, 3), 6*n+5)
	cells[0*n+10], cells[11*n+2] = cells[11*n+2], cells[0*n+10]
	if countWrong(cells, truth) != 14 {
		t.Fatalf("%d cells moved, want 14", countWrong(cells, truth))
	}
	wantRestored(t, truth, cells, a.swapSegments)
}

// TestRectSegmentsExchanged: Wood.jpg's 32×32 rect answer (1024 px, seed
// 2) had two top-row pieces 23 columns apart exchanged (PA 0.998, 26.5
// dearer than the truth); the exchange puts them back.
func TestRectSegmentsExchanged(t *testing.T) { wantRect32(t, "Wood.jpg", "", 1) }

// TestRectBlocksExchanged: coral-reef's 32×32 rect answer (1024 px, seed
// 1) had a 5 × 3 block exchanged with one 25 columns away, split into four
// best-buddy segments (PA 0.951 after the piece and segment exchanges);
// the block's border pieces point to where it belongs (0.970), and the
// frame repair after the exchanges rotates the 4 × 4 block it leaves
// (0.985; 0.984 since the side-mean searches take one piece elsewhere).
func TestRectBlocksExchanged(t *testing.T) { wantRect32(t, "coral-reef", "", 0.98) }
