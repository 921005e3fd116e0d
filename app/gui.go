package app

import (
	_ "github.com/jigbench/jigbench/app/locale" // before Fyne reads the locale

	"context"

	"fyne.io/fyne/v2"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui"
	"github.com/jigbench/jigbench/ui/native"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// runGUI opens the desktop app and returns when its window closes.
func runGUI() int {
	ui.Run(ui.Options{
		Version: Version,
		Ratings: openGUIStore,
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

// openGUIStore opens the ratings store the app rates into: $JIGBENCH_DB (a
// SQLite file or a postgres:// URL shared by a campaign), else the one
// chosen in File ▸ Ratings store…, else the app's own SQLite file.
func openGUIStore() (ui.RatingStore, error) {
	var setting string
	if a := fyne.CurrentApp(); a != nil {
		setting = a.Preferences().String(ui.PrefRatingsStore)
	}
	loc, err := vigor.StoreLocationFor("", setting)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), ratesession.StoreTimeout)
	defer cancel()
	st, err := vigor.OpenStoreAt(ctx, loc, false)
	if err != nil {
		return nil, err // not a nil *Store inside the interface
	}
	return st, nil
}
