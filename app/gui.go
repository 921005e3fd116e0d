package app

import (
	_ "github.com/jigbench/jigbench/app/locale" // before Fyne reads the locale

	"github.com/jigbench/jigbench/ui"
	"github.com/jigbench/jigbench/ui/native"
)

// runGUI opens the desktop app and returns when its window closes.
func runGUI() int {
	ui.Run(ui.Options{
		Version: Version,
		Files: func(fallback ui.FileChooser) ui.FileChooser {
			c := &native.Chooser{Fallback: fallback}
			if f, ok := fallback.(*ui.FyneChooser); ok {
				c.Start = f.Start // open where the last file came from
			}
			return c
		},
	})
	return exitOK
}
