package ui

import (
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
)

// deps is what the window hands every pane: the parts the panes share. A
// pane holds no window and no other pane; what it asks of another pane is
// a callback given to its constructor.
type deps struct {
	window  fyne.Window // parent of dialogs; its canvas holds the keyboard focus
	prefs   fyne.Preferences
	status  paneStatus // this pane's message in the status line
	work    Dispatcher
	files   FileChooser
	ratings *ratingService
	// recent puts path at the top of File ▸ Recent.
	recent func(path string)
}

// showError tells the user what went wrong in one sentence; the app goes on.
func (d deps) showError(err error) {
	if err == nil {
		return
	}
	// Core errors begin with the file they concern; keep its name as it is.
	d.status.Set(err.Error())
	text := widget.NewLabel(err.Error()) // as it is: Fyne's error dialog capitalises file names
	text.Wrapping = fyne.TextWrapWord
	showInfo(d.window, "Error", text, fyne.NewSize(min(480, d.window.Canvas().Size().Width*0.9), 0))
}

// answer is what a worker hands back for a request numbered id of req:
// on the UI goroutine it does nothing if a newer request was made since,
// shows err if there is one, and runs then otherwise.
func (d deps) answer(req *atomic.Uint64, id uint64, err error, then func()) func() {
	return func() {
		if req.Load() != id {
			return
		}
		if err != nil {
			d.showError(err)
			return
		}
		then()
	}
}

// forPane is d for pane i: its messages are pane i's.
func (d deps) forPane(i int) deps {
	d.status = d.status.line.pane(i)
	return d
}

// focus gives the keyboard to o.
func (d deps) focus(o fyne.Focusable) { d.window.Canvas().Focus(o) }

// unfocus takes the keyboard away from any field, so single keys act on
// the pane again.
func (d deps) unfocus() {
	if c := d.window.Canvas(); c.Focused() != nil {
		c.Unfocus()
	}
}

// focused reports whether o has the keyboard.
func (d deps) focused(o fyne.Focusable) bool { return d.window.Canvas().Focused() == o }
