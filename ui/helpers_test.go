package ui

import (
	"image"
	"image/png"
	"io"
	"sync/atomic"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
)

// settle finishes all background work and applies its results.
func (m *MainWindow) settle() { m.work.settle() }

// holdingQueue is a Queue that can hold the next piece of work as it
// begins, so a test can look at the UI while a worker is busy.
type holdingQueue struct {
	*Queue
	hold atomic.Pointer[func()]
}

// holdNext makes the next work started run f first, on its worker.
func (q *holdingQueue) holdNext(f func()) { q.hold.Store(&f) }

func (q *holdingQueue) Go(work func() func()) { q.After(0, work) }

func (q *holdingQueue) After(d time.Duration, work func() func()) {
	q.Queue.After(d, func() func() {
		if f := q.hold.Swap(nil); f != nil {
			(*f)()
		}
		return work()
	})
}

// holdNextWork holds m's next background work in f (m was made by
// newTestWindow).
func holdNextWork(m *MainWindow, f func()) { m.work.(*holdingQueue).holdNext(f) }

// fakeDeps are the parts a pane is given, all fakes: the test driver's
// window, a fake file chooser, a queue and ratings in memory.
func fakeDeps(t *testing.T, files FileChooser) deps {
	t.Helper()
	a := test.NewTempApp(t)
	w := a.NewWindow("test")
	w.Resize(fyne.NewSize(1280, 800))
	t.Cleanup(w.Close)
	store := vigor.NewMemStore()
	return deps{window: w, prefs: a.Preferences(), status: NewStatusLine().pane(0), work: NewQueue(), files: files,
		ratings: newRatingService(func() (RatingStore, error) { return store, nil }), recent: func(string) {}}
}

func writeCapture(path string, img image.Image) error {
	return fsutil.WriteWith(path, func(w io.Writer) error { return png.Encode(w, img) })
}
