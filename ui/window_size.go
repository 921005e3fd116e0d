package ui

import (
	"fyne.io/fyne/v2"
)

// The window's size: the first start fills the screen's work area, a size
// remembered from a larger screen is clamped to this one, and no pane asks
// for more than a small laptop (1024×600 less the window's frame) has.

// maxWindowMin is the most any pane may ask for as the window's minimum.
var maxWindowMin = fyne.NewSize(1000, 560)

// windowSize is the size to open at: remembered (zero when none) clamped
// to screen, or the whole screen on the first start.
func windowSize(remembered, screen fyne.Size) fyne.Size {
	if remembered.Width <= 0 || remembered.Height <= 0 {
		return screen
	}
	return fyne.NewSize(min(remembered.Width, screen.Width), min(remembered.Height, screen.Height))
}

// rememberedSize is the window size saved when the window last closed.
func (m *MainWindow) rememberedSize() fyne.Size {
	prefs := m.App.Preferences()
	return fyne.NewSize(float32(prefs.Float(prefWinWidth)), float32(prefs.Float(prefWinHigh)))
}

// fitToScreen sizes the window for a screen work area of screenPx device
// pixels, once the window knows its scale (the app has started).
func (m *MainWindow) fitToScreen(screenPx fyne.Size) {
	scale := m.Window.Canvas().Scale()
	if scale <= 0 {
		scale = 1
	}
	// The window manager's frame and title bar take about this much.
	const frameW, frameH = 8, 40
	screen := fyne.NewSize(screenPx.Width/scale-frameW, screenPx.Height/scale-frameH)
	m.Window.Resize(windowSize(m.rememberedSize(), screen))
}
