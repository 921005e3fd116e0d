package scoredemo

import (
	"context"
	"errors"
	"testing"

	"github.com/jigbench/jigbench/core/progress"
)

func TestReportScoresEveryDemoInstance(t *testing.T) {
	var last progress.Report
	rep, mem, err := Report(context.Background(), func(r progress.Report) { last = r })
	if err != nil {
		t.Fatal(err)
	}
	if len(mem) == 0 || len(mem)%2 != 0 {
		t.Fatalf("%d instances in memory, want two grids per scene", len(mem))
	}
	// Three simulated answer sets, each answering every instance.
	if got, want := len(rep.Instances), 3*len(mem); got != want {
		t.Fatalf("%d scored instances, want %d", got, want)
	}
	for _, s := range rep.Instances {
		if _, ok := mem[s.ID]; !ok {
			t.Fatalf("scored %q, which was not generated", s.ID)
		}
	}
	if last.Total == 0 || last.Done != last.Total-1 {
		t.Fatalf("last progress %+v, want the scoring stage (done = total-1)", last)
	}
}

func TestReportStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, _, err := Report(ctx, nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("err = %v, want context.Canceled", err)
	}
}
