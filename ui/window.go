package ui

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// Pane is one entry of the navigation list.
type Pane interface {
	Title() string
	Icon() fyne.Resource
	// View is built once, the first time the pane is shown, and kept.
	View() fyne.CanvasObject
}

// Pane indices in the navigation list.
const (
	paneGenerate = iota
	paneAblation
	paneScore
	paneRate
	paneAgreement
)

// maxRecent is how many recently used files and folders File ▸ Recent lists.
const maxRecent = 8

// MainWindow is the one window: navigation on the left, the chosen pane on
// the right, a status line at the bottom.
type MainWindow struct {
	App     fyne.App
	Window  fyne.Window
	Status  *StatusLine
	Files   FileChooser
	Version string

	work Dispatcher

	generate  *GeneratePane
	ablation  *AblationPane
	score     *ScorePane
	rate      *RatePane
	agreement *AgreementPane

	panes   []Pane
	views   []fyne.CanvasObject
	nav     *widget.List
	stack   *fyne.Container
	current int
	deps    deps // what the panes were given
}

// Options configure a MainWindow.
type Options struct {
	Version string
	// Files is the file chooser; nil means Fyne's dialogs.
	Files func(fallback FileChooser) FileChooser

	// Ratings opens the ViGoR ratings store; nil means the app's database at
	// vigor.DefaultStorePath. Tests inject a temporary or failing store.
	Ratings func() (RatingStore, error)

	// Dispatcher runs background work; nil means the app's (fyne.Do).
	// Under Fyne's test driver (tests, screenshots) use a Queue.
	Dispatcher Dispatcher
}

// NewMainWindow builds the window and its panes; it does not show it.
func NewMainWindow(a fyne.App, o Options) *MainWindow {
	w := a.NewWindow("jigbench")
	m := &MainWindow{App: a, Window: w, Status: NewStatusLine(), Version: o.Version, current: -1, work: o.Dispatcher}
	if m.work == nil {
		m.work = fyneDispatcher{}
	}
	fallback := &FyneChooser{Window: w, Start: m.lastFolder}
	m.Files = fallback
	if o.Files != nil {
		m.Files = o.Files(fallback)
	}
	d := deps{window: w, prefs: a.Preferences(), status: m.Status, work: m.work, files: m.Files,
		ratings: newRatingService(o.Ratings), recent: m.rememberFile}
	m.generate = newGeneratePane(d, func(g *render.Generated) {
		m.ablation.ShowGenerated(g)
		m.Show(paneAblation)
	})
	m.ablation = newAblationPane(d, m.generate.Current)
	m.score = newScorePane(d)
	m.rate = newRatePane(d)
	m.agreement = newAgreementPane(d)
	m.deps = d
	m.panes = []Pane{
		m.generate,
		m.ablation,
		m.score,
		m.rate,
		m.agreement,
	}
	m.views = make([]fyne.CanvasObject, len(m.panes))
	m.stack = container.NewStack()
	m.nav = widget.NewList(
		func() int { return len(m.panes) },
		func() fyne.CanvasObject {
			return container.NewHBox(widget.NewIcon(theme.HomeIcon()), widget.NewLabel("Agreement"))
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			row := o.(*fyne.Container)
			row.Objects[0].(*widget.Icon).SetResource(m.panes[i].Icon())
			row.Objects[1].(*widget.Label).SetText(m.panes[i].Title())
		},
	)
	m.nav.OnSelected = m.Show
	w.SetContent(container.NewBorder(nil, m.Status.View(), container.NewHBox(m.nav, widget.NewSeparator()), nil, m.stack))
	m.buildMenu()
	m.bindKeys()
	w.SetOnDropped(m.dropped)

	prefs := a.Preferences()
	w.Resize(fyne.NewSize(float32(prefs.FloatWithFallback(prefWinWidth, 1280)), float32(prefs.FloatWithFallback(prefWinHigh, 800))))
	w.SetOnClosed(func() {
		s := w.Canvas().Size()
		prefs.SetFloat(prefWinWidth, float64(s.Width))
		prefs.SetFloat(prefWinHigh, float64(s.Height))
	})
	m.nav.Select(paneGenerate)
	return m
}

// Show switches to pane i.
func (m *MainWindow) Show(i int) {
	if i == m.current || i < 0 || i >= len(m.panes) {
		return
	}
	if m.views[i] == nil {
		m.views[i] = m.panes[i].View()
	}
	m.current = i
	m.stack.Objects = []fyne.CanvasObject{m.views[i]}
	m.stack.Refresh()
	m.nav.Select(i)
}

// ShowError tells the user what went wrong in one sentence; the app goes on.
func (m *MainWindow) ShowError(err error) { m.deps.showError(err) }

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (m *MainWindow) lastFolder() string {
	return m.App.Preferences().String(prefLastDir)
}

// rememberFile puts path at the top of File ▸ Recent.
func (m *MainWindow) rememberFile(path string) {
	prefs := m.App.Preferences()
	recent := slices.DeleteFunc(prefs.StringList(prefRecent), func(p string) bool { return p == path })
	recent = append([]string{path}, recent...)
	if len(recent) > maxRecent {
		recent = recent[:maxRecent]
	}
	prefs.SetStringList(prefRecent, recent)
	if fi, err := os.Stat(path); err == nil && !fi.IsDir() {
		prefs.SetString(prefLastDir, filepath.Dir(path))
	}
	m.buildMenu()
}

// OpenPath opens a file or folder where it belongs: an image in Generate, an
// instance folder (or a folder of them) in Ablation.
func (m *MainWindow) OpenPath(path string) {
	fi, err := os.Stat(path)
	if err != nil {
		m.ShowError(errors.New("cannot open " + path + ": it is gone or unreadable"))
		return
	}
	if dir, ok := splitFolderOf(path, fi.IsDir()); ok {
		m.Show(paneRate)
		m.rate.open(dir)
		return
	}
	if fi.IsDir() {
		m.Show(paneAblation)
		m.ablation.Open(path)
		return
	}
	if ext := strings.ToLower(filepath.Ext(path)); ext == ".jsonl" {
		m.Show(paneScore)
		m.score.AddPredictions(score.ModelName(path), path, puzzle.ConditionShape)
		return
	}
	if filepath.Base(path) == "instance.json" {
		m.Show(paneAblation)
		m.ablation.Open(filepath.Dir(path))
		return
	}
	m.Show(paneGenerate)
	m.generate.OpenImage(path)
}

func (m *MainWindow) dropped(_ fyne.Position, uris []fyne.URI) {
	for _, u := range uris {
		if u.Scheme() != "file" {
			m.ShowError(errors.New("only local files can be dropped here, not " + u.String()))
			continue
		}
		m.OpenPath(u.Path())
		return // one item at a time: the first wins
	}
}

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
	quit := fyne.NewMenuItem("Quit", func() { m.App.Quit() })
	quit.IsQuit = true
	file := fyne.NewMenu("File", openImage, openInstance, save, fyne.NewMenuItemSeparator(), openTruth, openPreds,
		openSplit, fyne.NewMenuItemSeparator(), recent, fyne.NewMenuItemSeparator(), quit)
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
	{"1 – 4", "Rate: switch a result dimension Yes/No, or go to a process score:\ntype it, ↑ ↓ ±1, PgUp PgDn ±10, Tab next score, Esc leave it"},
	{"Enter", "Rate: save and go to the next unrated item"},
	{"← / →", "Rate: previous / next item (within the filter)"},
	{", / .   PgUp / PgDn", "Rate: previous / next frame; ten frames back / forward"},
	{"F   C   H", "Rate: flag the item, comment on it, hide the ground truth"},
}

func (m *MainWindow) showShortcuts() {
	rows := make([]fyne.CanvasObject, 0, 2*len(shortcuts))
	for _, s := range shortcuts {
		rows = append(rows, widget.NewLabelWithStyle(s[0], fyne.TextAlignTrailing, fyne.TextStyle{Bold: true}), widget.NewLabel(s[1]))
	}
	form := container.New(layout.NewFormLayout(), rows...)
	d := dialog.NewCustom("Keyboard shortcuts", "Close", container.NewVScroll(form), m.Window)
	s, f := m.Window.Canvas().Size(), form.MinSize()
	d.Resize(fyne.NewSize(min(f.Width+48, s.Width*0.95), min(f.Height+110, s.Height*0.92)))
	d.Show()
}

func (m *MainWindow) showAbout() {
	text := widget.NewLabel("jigbench " + m.Version + "\n\nA workbench for the JigShape jigsaw benchmark and the ViGoR-Bench\n" +
		"meta-evaluation: generate, solve and score puzzles; rate items and\nmeasure judge–human agreement.")
	dialog.ShowCustom("About jigbench", "Close", text, m.Window)
}

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
	c.SetOnTypedRune(func(r rune) {
		if m.current == paneRate {
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

// activeView is the zoom of the image the user is looking at.
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

// StatusLine is the one-line message area at the bottom of the window.
type StatusLine struct {
	label *widget.Label
	view  fyne.CanvasObject
}

// NewStatusLine makes an empty status line.
func NewStatusLine() *StatusLine {
	l := widget.NewLabel("Ready.")
	l.Truncation = fyne.TextTruncateEllipsis
	return &StatusLine{label: l, view: container.NewVBox(widget.NewSeparator(), l)}
}

// View is the status line's widget.
func (s *StatusLine) View() fyne.CanvasObject { return s.view }

// Set shows msg; call it on the UI goroutine.
func (s *StatusLine) Set(msg string) { s.label.SetText(msg) }

// Text is what the status line shows.
func (s *StatusLine) Text() string { return s.label.Text }
