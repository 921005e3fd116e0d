// Package ui is jigbench's desktop app (Fyne): the window, one file per pane,
// and shared widgets. It turns user actions into core calls and shows what
// they return; it computes no metric, parses no file and draws no puzzle.
package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/app"

	"github.com/jigbench/jigbench/resources"
)

// AppID identifies jigbench to the OS and keys its preferences; FyneApp.toml
// carries the same ID.
const AppID = "io.github.jigbench.jigbench"

// Run opens the main window and blocks until it closes.
func Run(o Options) {
	prefs, havePrefs := prefsFile()
	if havePrefs {
		restorePreferences(prefs)
	}
	a := app.NewWithID(AppID)
	if havePrefs {
		keepPreferencesCopy(a.Preferences(), prefs)
	}
	a.SetIcon(fyne.NewStaticResource("icon.png", resources.Icon))
	a.Settings().SetTheme(Theme())
	w := NewMainWindow(a, o)
	a.Lifecycle().SetOnStarted(func() {
		if screen, ok := screenWorkArea(); ok {
			w.fitToScreen(screen)
		}
	})
	w.Window.ShowAndRun()
}
