package solve

import (
	"context"
	"runtime"
	"slices"
	"sync"
	"sync/atomic"

	"github.com/jigbench/jigbench/core/par"
)

// parallelFor calls f(i) for i in [0, n) with par.For and returns the error
// of the lowest i that failed. f must only write data owned by i.
func parallelFor(n int, f func(i int) error) error {
	return par.For(context.Background(), n, f)
}

// spareCores counts the cores left idle by searches running side by side
// (arrangeBeside): when one ends, the other may use its core for work it
// would otherwise do later (rejoin's next try). Nil means none is spare.
type spareCores struct {
	n      atomic.Int32
	aheads int32 // the tries made ahead, counted atomically (tests read it)
	early  int32 // the annealings begun ahead and kept (tests read it)

	mu      sync.Mutex
	waiting []*func() // run by the next free (whenFree)
}

// any reports whether a core is spare.
func (s *spareCores) any() bool { return s != nil && s.n.Load() > 0 }

// free records that the caller's core is idle from now on, and runs on it
// the work waiting for one (whenFree).
func (s *spareCores) free() {
	if s == nil {
		return
	}
	s.mu.Lock()
	s.n.Add(1)
	waiting := s.waiting
	s.waiting = nil
	s.mu.Unlock()
	for _, f := range waiting {
		(*f)()
	}
}

// whenFree has f run by the goroutine that next frees a core (free), or at
// once on a goroutine of its own if one is spare already, unless withdrawn
// before: withdraw reports whether f was taken — it has then run, or is
// running — and after it f never will be. With none spare ever (nil) f
// never runs.
func (s *spareCores) whenFree(f func()) (withdraw func() bool) {
	if s == nil {
		return func() bool { return false }
	}
	w := &f
	s.mu.Lock()
	if s.n.Load() > 0 {
		s.mu.Unlock()
		go f()
		return func() bool { return true }
	}
	s.waiting = append(s.waiting, w)
	s.mu.Unlock()
	return func() bool {
		s.mu.Lock()
		defer s.mu.Unlock()
		k := slices.Index(s.waiting, w)
		if k < 0 {
			return true
		}
		s.waiting = slices.Delete(s.waiting, k, k+1)
		return false
	}
}

// idleBeside returns the cores spare beside one search: all but its own.
func idleBeside() *spareCores {
	s := &spareCores{}
	s.n.Store(int32(runtime.GOMAXPROCS(0) - 1))
	return s
}

// stopFlag tells work begun ahead on a spare core that its result is no
// longer wanted. A nil flag never stops.
type stopFlag struct{ atomic.Bool }

func (s *stopFlag) stopped() bool { return s != nil && s.Load() }

func (s *stopFlag) stop() {
	if s != nil {
		s.Store(true)
	}
}
