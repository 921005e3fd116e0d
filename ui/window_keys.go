package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
)

// The window's keyboard: shortcuts, and single keys routed to the pane shown.

// bindKeys handles the single-key shortcuts when no text field has focus.
func (m *MainWindow) bindKeys() {
	c := m.Window.Canvas()
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
		m.Show(paneGenerate)
		m.generate.OpenImageDialog()
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
		m.generate.SaveDialog()
	})
	c.AddShortcut(&desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
		m.quit()
	})
	c.AddShortcut(&fyne.ShortcutUndo{}, func(fyne.Shortcut) {
		if m.current == paneRate {
			m.rate.undoLast()
		}
	})
	for i, k := range []fyne.KeyName{fyne.Key1, fyne.Key2, fyne.Key3, fyne.Key4, fyne.Key5} {
		c.AddShortcut(&desktop.CustomShortcut{KeyName: k, Modifier: fyne.KeyModifierShortcutDefault}, func(fyne.Shortcut) {
			m.Show(i)
		})
	}
	c.SetOnTypedRune(func(r rune) {
		if m.current == paneRate {
			m.rate.grab()
			m.rate.TypedRune(r)
			return
		}
		v := m.activeZoom()
		switch r {
		case '0':
			if v != nil {
				v.Fit()
			}
		case '1':
			if v != nil {
				v.OneToOne()
			}
		case '+', '=':
			if v != nil {
				v.ZoomBy(1.25)
			}
		case '-':
			if v != nil {
				v.ZoomBy(1 / 1.25)
			}
		case 'n', 'N':
			if m.current == paneGenerate {
				m.generate.NewSeed()
			}
		}
	})
	c.SetOnTypedKey(func(e *fyne.KeyEvent) {
		if m.current == paneRate {
			m.rate.grab()
			m.rate.TypedKey(e)
			return
		}
		if m.current != paneAblation {
			return
		}
		switch e.Name {
		case fyne.KeyLeft:
			m.ablation.Previous()
		case fyne.KeyRight:
			m.ablation.Next()
		}
	})
}

// activeZoom is the zoom of the image the user is looking at.
func (m *MainWindow) activeZoom() *ZoomState {
	switch m.current {
	case paneGenerate:
		if m.generate.tabs != nil && m.generate.tabs.SelectedIndex() == 2 {
			return m.generate.solved.state
		}
		return m.generate.sheets
	case paneAblation:
		return m.ablation.zoom
	}
	return nil
}
