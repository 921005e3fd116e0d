package ui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// worker runs the app's background work. Heavy work (rendering, decoding,
// writing files) runs on its own goroutine; what it hands back is applied on
// the UI goroutine. In the app that is fyne.Do. Tests and screenshots use
// Fyne's test driver, whose fyne.Do runs the callback on the calling
// goroutine; there the callbacks are queued instead and run by settle on the
// goroutine that drives the UI, so widgets are touched from one goroutine only.
type worker struct {
	queued bool // queue callbacks for settle instead of fyne.Do

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func()
	running int // work started and not yet handed back
}

func newWorker(queued bool) *worker {
	w := &worker{queued: queued}
	w.cond = sync.NewCond(&w.mu)
	return w
}

// Go runs work off the UI goroutine, then its result (if not nil) on it.
func (w *worker) Go(work func() (apply func())) { w.After(0, work) }

// After is Go, started after a delay.
func (w *worker) After(d time.Duration, work func() (apply func())) {
	w.mu.Lock()
	w.running++
	w.mu.Unlock()
	run := func() {
		apply := work()
		if !w.queued {
			if apply != nil {
				fyne.Do(apply)
			}
			w.finish(nil)
			return
		}
		w.finish(apply)
	}
	if d <= 0 {
		go run()
	} else {
		time.AfterFunc(d, run)
	}
}

func (w *worker) finish(apply func()) {
	w.mu.Lock()
	if apply != nil {
		w.queue = append(w.queue, apply)
	}
	w.running--
	w.cond.Broadcast()
	w.mu.Unlock()
}

// settle runs queued callbacks on the calling goroutine until no work is
// left (queued mode); in the app it waits for running work to finish.
func (w *worker) settle() {
	w.mu.Lock()
	defer w.mu.Unlock()
	for w.running > 0 || len(w.queue) > 0 {
		if len(w.queue) == 0 {
			w.cond.Wait()
			continue
		}
		apply := w.queue[0]
		w.queue = w.queue[1:]
		w.mu.Unlock()
		apply()
		w.mu.Lock()
	}
}

// Post applies f on the UI goroutine soon, from any goroutine (progress
// updates). In queued mode settle runs it.
func (w *worker) Post(f func()) {
	if !w.queued {
		fyne.Do(f)
		return
	}
	w.mu.Lock()
	w.queue = append(w.queue, f)
	w.cond.Broadcast()
	w.mu.Unlock()
}
