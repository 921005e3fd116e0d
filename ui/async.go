package ui

import (
	"sync"
	"time"

	"fyne.io/fyne/v2"
)

// Dispatcher runs the app's background work. Heavy work (rendering,
// decoding, writing files) runs on its own goroutine; what it hands back is
// applied on the UI goroutine. The window chooses one when it is built
// (Options.Dispatcher): the app's applies results with fyne.Do; a Queue
// holds them for Fyne's test driver.
type Dispatcher interface {
	// Go runs work off the UI goroutine, then its result (if not nil) on it.
	Go(work func() (apply func()))
	// After is Go, started after a delay.
	After(d time.Duration, work func() (apply func()))
	// Post applies f on the UI goroutine soon, from any goroutine
	// (progress updates).
	Post(f func())

	// settle finishes the work started and applies its results.
	settle()
	// relayout lays o out again where the driver does not (see Queue).
	relayout(o fyne.CanvasObject)
}

// start runs f on its own goroutine, after d.
func start(d time.Duration, f func()) {
	if d <= 0 {
		go f()
		return
	}
	time.AfterFunc(d, f)
}

// fyneDispatcher is the app's: results go through fyne.Do.
type fyneDispatcher struct{}

func (fyneDispatcher) Go(work func() func()) { fyneDispatcher{}.After(0, work) }

func (fyneDispatcher) After(d time.Duration, work func() func()) {
	start(d, func() {
		if apply := work(); apply != nil {
			fyne.Do(apply)
		}
	})
}

func (fyneDispatcher) Post(f func()) { fyne.Do(f) }

// settle does nothing: in the app results land when they are ready.
func (fyneDispatcher) settle() {}

// relayout does nothing: Fyne's window drivers lay out containers whose
// children's minimum size changed on every frame.
func (fyneDispatcher) relayout(fyne.CanvasObject) {}

// Queue is the dispatcher for Fyne's test driver (tests, `jigbench
// screenshot`), whose fyne.Do runs a callback on the calling goroutine:
// results are queued instead and applied by settle on the goroutine that
// drives the UI, so widgets are touched from one goroutine only.
type Queue struct {
	// layout makes relayout lay out again (the test driver does not); the
	// benchmark of moving between items leaves it off to measure what the
	// app does.
	layout bool

	mu      sync.Mutex
	cond    *sync.Cond
	queue   []func()
	running int // work started and not yet handed back
}

// NewQueue makes a queue for Fyne's test driver.
func NewQueue() *Queue { return newQueue(true) }

func newQueue(layout bool) *Queue {
	q := &Queue{layout: layout}
	q.cond = sync.NewCond(&q.mu)
	return q
}

// Go implements Dispatcher.
func (q *Queue) Go(work func() func()) { q.After(0, work) }

// After implements Dispatcher.
func (q *Queue) After(d time.Duration, work func() func()) {
	q.mu.Lock()
	q.running++
	q.mu.Unlock()
	start(d, func() { q.finish(work()) })
}

func (q *Queue) finish(apply func()) {
	q.mu.Lock()
	if apply != nil {
		q.queue = append(q.queue, apply)
	}
	q.running--
	q.cond.Broadcast()
	q.mu.Unlock()
}

// Post implements Dispatcher.
func (q *Queue) Post(f func()) {
	q.mu.Lock()
	q.queue = append(q.queue, f)
	q.cond.Broadcast()
	q.mu.Unlock()
}

// Settle runs queued results on the calling goroutine until no work is left.
func (q *Queue) Settle() { q.settle() }

func (q *Queue) settle() {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.running > 0 || len(q.queue) > 0 {
		if len(q.queue) == 0 {
			q.cond.Wait()
			continue
		}
		apply := q.queue[0]
		q.queue = q.queue[1:]
		q.mu.Unlock()
		apply()
		q.mu.Lock()
	}
}

// relayout lays o out again, which Fyne's window drivers do on every frame
// for containers whose children's minimum size changed (a label got longer
// text) and its test driver does not: two passes, the first sizes wrapped
// text to its width, the second stacks it.
func (q *Queue) relayout(o fyne.CanvasObject) {
	if q.layout && o != nil {
		o.Refresh()
		o.Refresh()
	}
}
