package native

import (
	"os"
	"testing"
	"time"

	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/ui"
)

type recorder struct{ called chan string }

func (r recorder) OpenFile(title string, _ ui.Filter, done func(string, error)) {
	r.called <- "file:" + title
	done("/from/fallback.png", nil)
}

func (r recorder) SaveFile(title, _ string, _ ui.Filter, done func(string, error)) {
	r.called <- "save:" + title
	done("/from/fallback.json", nil)
}

func (r recorder) OpenFolder(title string, done func(string, error)) {
	r.called <- "folder:" + title
	done("/from/fallback", nil)
}

// TestFallsBackWhenNativeDialogsFail runs without a display, where GTK cannot
// start: the native dialog fails and Fyne's own dialog (here a recorder) is
// used instead, with the answer delivered to the caller.
func TestFallsBackWhenNativeDialogsFail(t *testing.T) {
	if os.Getenv("DISPLAY") != "" || os.Getenv("WAYLAND_DISPLAY") != "" {
		t.Skip("a display is available: a real native dialog would open")
	}
	test.NewTempApp(t)
	rec := recorder{called: make(chan string, 2)}
	c := &Chooser{Fallback: rec}
	got := make(chan string, 2)
	c.OpenFile("Open image", ui.ImageFilter, func(p string, err error) {
		if err != nil {
			t.Error(err)
		}
		got <- p
	})
	select {
	case which := <-rec.called:
		if which != "file:Open image" {
			t.Fatalf("fallback got %q", which)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("the fallback was never used")
	}
	if p := <-got; p != "/from/fallback.png" {
		t.Fatalf("caller got %q", p)
	}
	for !c.busy.CompareAndSwap(false, true) { // the goroutine finishes
		time.Sleep(10 * time.Millisecond)
	}
	c.busy.Store(false)
	c.OpenFolder("Save into", func(p string, err error) { got <- p })
	if which := <-rec.called; which != "folder:Save into" {
		t.Fatalf("fallback got %q", which)
	}
	if p := <-got; p != "/from/fallback" {
		t.Fatalf("caller got %q", p)
	}
}
