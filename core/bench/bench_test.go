package bench

import (
	"fmt"
	"testing"

	"github.com/jigbench/jigbench/core/render"
)

// BenchmarkGenerate reports generation time per instance and its ratio to
// the floor measured in the same run (metric "x-floor", target ≤ 0.7).
func BenchmarkGenerate(b *testing.B) {
	src, err := SourceJPEG()
	if err != nil {
		b.Fatal(err)
	}
	for _, n := range []int{4, 8, 16, 32} {
		b.Run(fmt.Sprintf("N=%d", n), func(b *testing.B) {
			c, err := Generation(src, n, b.TempDir())
			reportCase(b, c, err, 3, "ms/instance", "floor-ms", "x-floor")
		})
	}
}

func TestMeasureComparesMedians(t *testing.T) {
	calls := 0
	r, err := Measure(Case{
		Name: "t", Target: 2,
		Work:  func() error { calls++; return nil },
		Floor: func() error { return nil },
	}, 5)
	if err != nil {
		t.Fatal(err)
	}
	if calls != 6 || r.Runs != 5 {
		t.Fatalf("work ran %d times (want 1 warm-up + 5), runs %d", calls, r.Runs)
	}
	if _, err := Measure(Case{Name: "bad", Work: func() error { return fmt.Errorf("boom") }, Floor: func() error { return nil }}, 1); err == nil {
		t.Fatal("a failing case must report its error")
	}
}

// BenchmarkPreview reports the preview update after a seed change (16×16)
// against encoding its sheet once (metric "x-floor", target < 1).
func BenchmarkPreview(b *testing.B) {
	src, err := SourceJPEG()
	if err != nil {
		b.Fatal(err)
	}
	c, err := Preview(src)
	reportCase(b, c, err, 5, "ms/preview", "floor-ms", "x-floor")
}

// BenchmarkSolve reports content-solve time of an N×N instance and its ratio
// to generating the same instance in the same run (metric "x-generate";
// targets in SolveTargets), for rect.png and shape.png.
func BenchmarkSolve(b *testing.B) {
	for _, sheet := range []string{render.FileRect, render.FileShape} {
		for _, n := range []int{16, 32} {
			b.Run(fmt.Sprintf("%s/N=%d", sheet, n), func(b *testing.B) {
				c, err := Solve(nil, n, sheet, b.TempDir())
				reportCase(b, c, err, 3, "ms/solve", "generate-ms", "x-generate")
			})
		}
	}
}

// reportCase measures a case built with err (at least minRuns runs, or
// b.N) and reports its work and floor times and their ratio under the given
// metric names.
func reportCase(b *testing.B, c Case, err error, minRuns int, work, floor, ratio string) {
	b.Helper()
	if err != nil {
		b.Fatal(err)
	}
	r, err := Measure(c, max(minRuns, b.N))
	if err != nil {
		b.Fatal(err)
	}
	b.ReportMetric(r.WorkMS, work)
	b.ReportMetric(r.FloorMS, floor)
	b.ReportMetric(r.Ratio, ratio)
}
