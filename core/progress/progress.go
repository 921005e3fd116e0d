// Package progress is the one shape in which jigbench's long work (scoring,
// dataset generation, model runs, exports, bootstraps) says how far it is.
package progress

import "sync"

// Report is how far a piece of long work is.
type Report struct {
	// Stage says what is being done ("reading answers"); "" for work of
	// one stage.
	Stage string
	// Done of Total units are finished; Total is 0 while it is not known.
	// Units are the work's own (instances, requests, rows, replicates,
	// bytes); a unit that failed or was found done by an earlier run
	// counts as finished.
	Done, Total int64
	// Detail, when set, is the work's own one-line account of what it
	// counts beyond Done and Total (instances resumed and failed, rate,
	// ETA, tokens, retries), written for people: a caller shows it as it is.
	Detail string
}

// Fraction is Done/Total in [0, 1]; 0 while Total is unknown.
func (r Report) Fraction() float64 {
	if r.Total <= 0 {
		return 0
	}
	return min(1, max(0, float64(r.Done)/float64(r.Total)))
}

// Func receives reports. Work calls it one call at a time, perhaps from a
// worker goroutine, and waits while it runs: a GUI hands the report to its
// UI goroutine and returns.
type Func func(Report)

// Serial wraps f so that concurrent workers may call it: calls are made one
// at a time. A nil f gives a Func that does nothing.
func Serial(f Func) Func {
	if f == nil {
		return func(Report) {}
	}
	var mu sync.Mutex
	return func(r Report) {
		mu.Lock()
		defer mu.Unlock()
		f(r)
	}
}

// Call calls f with r when f is not nil.
func (f Func) Call(r Report) {
	if f != nil {
		f(r)
	}
}
