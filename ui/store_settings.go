package ui

import (
	"errors"
	"os"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
)

// PrefRatingsStore is the preference that names the ratings store: a SQLite
// file or a postgres:// URL shared by a campaign; empty, the app's own file.
// $JIGBENCH_DB, when set, comes first (vigor.StoreLocationFor).
const PrefRatingsStore = "ratings.store"

// showStoreSettings lets the rater choose the ratings store. The location
// in use is shown without its password; a new one takes effect at once (a
// split open in Rate is opened again from the new store).
func (m *MainWindow) showStoreSettings() {
	prefs := m.App.Preferences()
	now, err := vigor.StoreLocationFor("", prefs.String(PrefRatingsStore))
	if err != nil {
		now = err.Error()
	}
	current := widget.NewLabel("Ratings are stored in " + vigor.RedactLocation(now) + ".")
	current.Wrapping = fyne.TextWrapWord
	entry := widget.NewEntry()
	entry.SetPlaceHolder("postgres://user:password@host/database, or a .db file")
	help := widget.NewLabel("Empty: the app's own file on this computer. A server URL lets several raters " +
		"share one store; its password is kept in the app's preferences and never shown.")
	help.Wrapping = fyne.TextWrapWord
	items := []fyne.CanvasObject{current, entry, help}
	if env := strings.TrimSpace(os.Getenv(vigor.StoreEnv)); env != "" {
		note := widget.NewLabel(vigor.StoreEnv + " is set and chooses the store over this setting.")
		note.Wrapping = fyne.TextWrapWord
		items = append(items, note)
	}
	d := dialog.NewCustomConfirm("Ratings store", "Use this store", "Cancel", container.NewVBox(items...), func(ok bool) {
		defer m.giveKeysBack()
		if !ok {
			return
		}
		if err := m.setRatingsStore(entry.Text); err != nil {
			m.ShowError(err)
		}
	}, m.Window)
	d.Resize(fyne.NewSize(min(560, m.Window.Canvas().Size().Width*0.95), 0))
	d.Show()
	m.Window.Canvas().Focus(entry)
}

// setRatingsStore makes location the ratings store: remembered, the old
// store closed, and an open split opened again from the new one. It refuses
// while Rate has scores not yet saved, so nothing typed is lost.
func (m *MainWindow) setRatingsStore(location string) error {
	location = strings.TrimSpace(location)
	if m.rate.s != nil && m.rate.s.Unsaved() {
		return errors.New("some scores are not saved yet; wait until the status says saved, then change the ratings store")
	}
	m.App.Preferences().SetString(PrefRatingsStore, location)
	m.deps.ratings.opener.reset()
	where := location
	if where == "" {
		where = "the app's own file"
	}
	m.Status.Set("Ratings store: " + vigor.RedactLocation(where) + ".")
	if m.rate.s != nil && !m.rate.s.Demo {
		m.rate.reopen()
	}
	return nil
}
