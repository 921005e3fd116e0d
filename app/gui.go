package app

import (
	_ "github.com/jigbench/jigbench/app/locale" // before Fyne reads the locale
	"github.com/jigbench/jigbench/ui"
)

// runGUI opens the desktop app and returns when its window closes.
func runGUI() int {
	ui.Run(Version)
	return exitOK
}
