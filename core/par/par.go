// Package par runs independent pieces of work on a bounded number of
// goroutines: jigbench's one bounded-parallel helper, built on
// golang.org/x/sync/errgroup with SetLimit.
package par

import (
	"context"
	"runtime"

	"golang.org/x/sync/errgroup"
)

// For calls f(i) for every i in [0, n) on at most GOMAXPROCS goroutines and
// returns the error of the lowest i that failed, else ctx's error. Once ctx
// is done no further i is started. f must only write data owned by i.
func For(ctx context.Context, n int, f func(i int) error) error {
	errs := make([]error, n)
	var g errgroup.Group
	g.SetLimit(runtime.GOMAXPROCS(0))
	for i := range n {
		if ctx.Err() != nil {
			break
		}
		g.Go(func() error {
			errs[i] = f(i)
			return nil
		})
	}
	g.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return ctx.Err()
}
