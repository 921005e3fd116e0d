package ui

import (
	"fyne.io/fyne/v2"
	"github.com/go-gl/glfw/v3.3/glfw"
)

// screenWorkArea is the primary screen's work area (without panels) in
// device pixels, read from GLFW; call it on the main goroutine once the app
// has started. ok is false when it cannot be known.
func screenWorkArea() (size fyne.Size, ok bool) {
	defer func() {
		if recover() != nil {
			ok = false
		}
	}()
	mon := glfw.GetPrimaryMonitor()
	if mon == nil {
		return fyne.Size{}, false
	}
	_, _, w, h := mon.GetWorkarea()
	if w <= 0 || h <= 0 {
		return fyne.Size{}, false
	}
	return fyne.NewSize(float32(w), float32(h)), true
}
