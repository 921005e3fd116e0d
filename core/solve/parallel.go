package solve

import (
	"runtime"
	"sync"
	"sync/atomic"
)

// parallelFor calls f(i) for i in [0, n) on GOMAXPROCS goroutines and returns
// the error of the lowest i that failed. f must only write data owned by i.
func parallelFor(n int, f func(i int) error) error {
	errs := make([]error, n)
	var next atomic.Int64
	var wg sync.WaitGroup
	for range min(runtime.GOMAXPROCS(0), n) {
		wg.Go(func() {
			for i := int(next.Add(1) - 1); i < n; i = int(next.Add(1) - 1) {
				errs[i] = f(i)
			}
		})
	}
	wg.Wait()
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
