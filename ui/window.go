package ui

import (
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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

// prefLastPane remembers the pane shown last; the app reopens on it.
const prefLastPane = "window.pane"

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
	d := deps{window: w, prefs: a.Preferences(), status: m.Status.pane(-1), work: m.work, files: m.Files,
		ratings: newRatingService(o.Ratings), recent: m.rememberFile}
	m.generate = newGeneratePane(d.forPane(paneGenerate), func(g *render.Generated) {
		m.ablation.ShowGenerated(g)
		m.Show(paneAblation)
	})
	m.ablation = newAblationPane(d.forPane(paneAblation), m.generate.Current)
	m.score = newScorePane(d.forPane(paneScore))
	m.rate = newRatePane(d.forPane(paneRate))
	m.agreement = newAgreementPane(d.forPane(paneAgreement))
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
	// Until the app has started and the screen is known (Run, fitToScreen):
	// the remembered size, or one that fits the smallest laptop.
	w.Resize(windowSize(m.rememberedSize(), fyne.NewSize(1000, 560)))
	w.SetOnClosed(func() {
		s := w.Canvas().Size()
		prefs.SetFloat(prefWinWidth, float64(s.Width))
		prefs.SetFloat(prefWinHigh, float64(s.Height))
	})
	m.nav.Select(min(max(prefs.IntWithFallback(prefLastPane, paneGenerate), 0), len(m.panes)-1))
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
	m.Status.show(i)
	m.stack.Objects = []fyne.CanvasObject{m.views[i]}
	m.stack.Refresh()
	m.nav.Select(i)
	m.App.Preferences().SetInt(prefLastPane, i)
	if i == paneRate {
		m.rate.grab() // the keys are the rating area's, not the pane list's
	}
}

// quit closes the window the way its close button does, so the window
// size is remembered, and ends the app.
func (m *MainWindow) quit() {
	m.Window.Close()
	m.App.Quit()
}

// ShowError tells the user what went wrong in one sentence; the app goes on.
func (m *MainWindow) ShowError(err error) { m.deps.showError(err) }

func capitalise(s string) string {
	if s == "" {
		return s
	}
	return strings.ToUpper(s[:1]) + s[1:]
}

func (m *MainWindow) lastFolder() string { return lastFolder(m.App.Preferences()) }

// rememberFile puts path at the top of File ▸ Recent.
func (m *MainWindow) rememberFile(path string) {
	prefs := m.App.Preferences()
	recent := slices.DeleteFunc(prefs.StringList(prefRecent), func(p string) bool { return p == path })
	recent = append([]string{path}, recent...)
	if len(recent) > maxRecent {
		recent = recent[:maxRecent]
	}
	prefs.SetStringList(prefRecent, recent)
	rememberFolder(prefs, path)
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
	if filepath.Base(path) == puzzle.InstanceFile {
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
