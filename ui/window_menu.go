package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/widget"
)

// The window's menus and its two help sheets.

func (m *MainWindow) buildMenu() {
	openImage := fyne.NewMenuItem("Open image…", func() { m.Show(paneGenerate); m.generate.OpenImageDialog() })
	openImage.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyO, Modifier: fyne.KeyModifierShortcutDefault}
	openInstance := fyne.NewMenuItem("Open instance or folder of instances…", func() {
		m.Show(paneAblation)
		m.ablation.openDialog("Open an instance folder or a folder of instances")
	})
	save := fyne.NewMenuItem("Save instance…", func() { m.Show(paneGenerate); m.generate.SaveDialog() })
	openTruth := fyne.NewMenuItem("Open dataset to score…", func() { m.Show(paneScore); m.score.OpenTruthDialog() })
	openPreds := fyne.NewMenuItem("Open predictions…", func() { m.Show(paneScore); m.score.AddPredictionsDialog(false) })
	save.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyS, Modifier: fyne.KeyModifierShortcutDefault}
	openSplit := fyne.NewMenuItem("Open split…", func() { m.Show(paneRate); m.rate.openDialog() })
	recent := fyne.NewMenuItem("Recent", nil)
	var items []*fyne.MenuItem
	for _, p := range m.App.Preferences().StringList(prefRecent) {
		items = append(items, fyne.NewMenuItem(p, func() { m.OpenPath(p) }))
	}
	if len(items) == 0 {
		none := fyne.NewMenuItem("(nothing yet)", nil)
		none.Disabled = true
		items = append(items, none)
	}
	recent.ChildMenu = fyne.NewMenu("", items...)
	store := fyne.NewMenuItem("Ratings store…", m.showStoreSettings)
	quit := fyne.NewMenuItem("Quit", m.quit)
	quit.IsQuit = true
	quit.Shortcut = &desktop.CustomShortcut{KeyName: fyne.KeyQ, Modifier: fyne.KeyModifierShortcutDefault}
	file := fyne.NewMenu("File", openImage, openInstance, save, fyne.NewMenuItemSeparator(), openTruth, openPreds,
		openSplit, store, fyne.NewMenuItemSeparator(), recent, fyne.NewMenuItemSeparator(), quit)
	help := fyne.NewMenu("Help",
		fyne.NewMenuItem("Keyboard shortcuts", m.showShortcuts),
		fyne.NewMenuItem("About jigbench", m.showAbout),
	)
	m.Window.SetMainMenu(fyne.NewMainMenu(file, help))
}

// shortcuts lists the keys, one definition for the sheet and the bindings.
var shortcuts = [][2]string{
	{"Ctrl+O", "Open an image (Generate)"},
	{"Ctrl+S", "Save the shown instance (Generate)"},
	{"0", "Zoom to fit"},
	{"1", "Zoom 1:1 (one image pixel per screen pixel)"},
	{"+ / −", "Zoom in / out (also the mouse wheel)"},
	{"Drag", "Pan the image"},
	{"← / →", "Previous / next instance (Ablation)"},
	{"N", "New random seed (Generate)"},
	{"Ctrl+Q", "Quit"},
	{"Ctrl+1 … Ctrl+5", "Show Generate, Ablation, Score, Rate, Agreement"},
	{"↑ / ↓   Tab / Shift+Tab", "Rate: choose the dimension (these keys never type a score)"},
	{"0 – 9   Backspace", "Rate, process item: type the chosen dimension's score, 0 to 100\n(digits never choose a dimension; a key that would make it\nanything else is refused and the field says why)"},
	{"1 – 4", "Rate, result item: switch that criterion Yes / No"},
	{"Y / N   0", "Rate, result item: the chosen criterion Yes / No; 0: every unset one No"},
	{"Enter", "Rate: next unrated item, once every dimension is set"},
	{"← / →", "Rate: previous / next item (within the filter), everywhere"},
	{", / .   PgUp / PgDn", "Rate: previous / next frame; ten frames back / forward"},
	{"F   C   H   R", "Rate: flag, comment, hide the ground truth, hide the rubric text (compact)"},
	{"G   Ctrl+Z", "Rate: go to an item by number or id; undo the last change (its previous values are saved again)"},
}

func (m *MainWindow) showShortcuts() {
	rows := make([]fyne.CanvasObject, 0, 2*len(shortcuts))
	for _, s := range shortcuts {
		rows = append(rows, widget.NewLabelWithStyle(s[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), widget.NewLabel(s[1]))
	}
	form := container.New(layout.NewFormLayout(), rows...)
	s, f := m.Window.Canvas().Size(), form.MinSize()
	d := showInfo(m.Window, "Keyboard shortcuts", container.NewVScroll(form),
		fyne.NewSize(min(f.Width+48, s.Width*0.95), min(f.Height+110, s.Height*0.92)))
	d.SetOnClosed(m.giveKeysBack)
}

func (m *MainWindow) showAbout() {
	text := widget.NewLabel("jigbench " + m.Version + "\n\nA workbench for the JigShape jigsaw benchmark and the ViGoR-Bench\n" +
		"meta-evaluation: generate, solve and score puzzles; rate items and\nmeasure judge–human agreement.")
	showInfo(m.Window, "About jigbench", text, fyne.Size{}).SetOnClosed(m.giveKeysBack)
}

// showInfo shows a dialog with a Close button that Esc closes too (size
// zero: its natural size).
func showInfo(w fyne.Window, title string, content fyne.CanvasObject, size fyne.Size) dialog.Dialog {
	esc := &escapeCloser{canvas: w.Canvas()}
	d := dialog.NewCustom(title, "Close", container.NewStack(esc, content), w)
	esc.close = d.Hide
	if !size.IsZero() {
		d.Resize(size)
	}
	d.Show()
	w.Canvas().Focus(esc)
	return d
}

// escapeCloser takes the keyboard in a dialog so that Esc closes it; other
// keys go on to the window's handlers as if it were not there (Enter still
// retries a failed save in Rate). It draws nothing; Tab still moves on to
// the dialog's buttons.
type escapeCloser struct {
	widget.BaseWidget
	canvas fyne.Canvas
	close  func()
}

func (e *escapeCloser) CreateRenderer() fyne.WidgetRenderer {
	e.ExtendBaseWidget(e)
	return widget.NewSimpleRenderer(layout.NewSpacer())
}

// FocusGained implements fyne.Focusable.
func (e *escapeCloser) FocusGained() {}

// FocusLost implements fyne.Focusable.
func (e *escapeCloser) FocusLost() {}

// TypedRune hands the rune to the window.
func (e *escapeCloser) TypedRune(r rune) {
	if h := e.canvas.OnTypedRune(); h != nil {
		h(r)
	}
}

// TypedKey closes the dialog on Esc and hands other keys to the window.
func (e *escapeCloser) TypedKey(k *fyne.KeyEvent) {
	if k.Name == fyne.KeyEscape && e.close != nil {
		e.close()
		return
	}
	if h := e.canvas.OnTypedKey(); h != nil {
		h(k)
	}
}

// giveKeysBack returns the keyboard to the pane after a dialog.
func (m *MainWindow) giveKeysBack() {
	if m.current == paneRate {
		m.rate.grab()
	}
}
