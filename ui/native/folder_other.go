//go:build !linux

package native

import "github.com/sqweek/dialog"

// browseFolder shows the system's folder chooser opened in start.
func browseFolder(title, start string) (string, error) {
	b := dialog.Directory().Title(title)
	if start != "" {
		b = b.SetStartDir(start)
	}
	return b.Browse()
}
