package app

import "github.com/jigbench/jigbench/ui"

// runGUI opens the desktop app and returns when its window closes.
func runGUI() int {
	ui.Run(Version)
	return exitOK
}
