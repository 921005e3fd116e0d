package par

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
)

func TestForCallsEachIndexOnce(t *testing.T) {
	seen := make([]int32, 1000)
	if err := For(context.Background(), len(seen), func(i int) error { atomic.AddInt32(&seen[i], 1); return nil }); err != nil {
		t.Fatal(err)
	}
	for i, n := range seen {
		if n != 1 {
			t.Fatalf("index %d called %d times", i, n)
		}
	}
}

func TestForReturnsTheLowestIndexError(t *testing.T) {
	err := For(context.Background(), 100, func(i int) error {
		if i%7 == 3 {
			return fmt.Errorf("index %d", i)
		}
		return nil
	})
	if err == nil || err.Error() != "index 3" {
		t.Fatalf("error %v, want index 3", err)
	}
}

func TestForStopsWhenCancelled(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	var calls atomic.Int32
	err := For(ctx, 100, func(int) error { calls.Add(1); return nil })
	if !errors.Is(err, context.Canceled) || calls.Load() != 0 {
		t.Fatalf("error %v after %d calls, want Canceled after none", err, calls.Load())
	}
}
