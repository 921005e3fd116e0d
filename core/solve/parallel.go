package solve

import (
	"context"

	"github.com/jigbench/jigbench/core/par"
)

// parallelFor calls f(i) for i in [0, n) with par.For and returns the error
// of the lowest i that failed. f must only write data owned by i.
func parallelFor(n int, f func(i int) error) error {
	return par.For(context.Background(), n, f)
}
