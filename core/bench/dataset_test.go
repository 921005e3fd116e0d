package bench

import "testing"

// BenchmarkDataset reports dataset throughput over 4 sources × grids 4–16
// (size 1024) with 1 and 2 workers, and the ratios to their targets: 1 worker
// per instance ≤ 1.5 × the floor (decode + encode 3 PNGs), 2 workers ≥ 1.7 ×
// 1 worker. Run: go test -run '^$' -bench Dataset -benchtime 3x ./core/bench/
func BenchmarkDataset(b *testing.B) {
	srcs, err := DatasetSources(4)
	if err != nil {
		b.Fatal(err)
	}
	rs, err := Dataset(srcs, max(3, b.N), b.TempDir())
	if err != nil {
		b.Fatal(err)
	}
	one, two := rs[0], rs[1]
	b.ReportMetric(1000/one.WorkMS, "inst/s-1w")
	b.ReportMetric(1000/two.WorkMS, "inst/s-2w")
	b.ReportMetric(1000/one.FloorMS, "inst/s-floor")
	b.ReportMetric(one.Ratio, "x-floor-1w")
	b.ReportMetric(two.FloorMS/two.WorkMS, "speedup-2w")
	for _, r := range rs {
		b.Log(r)
	}
}
