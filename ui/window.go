package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Pane is one entry of the navigation list.
type Pane interface {
	Title() string
	Icon() fyne.Resource
	// View is built once and kept while the window lives.
	View() fyne.CanvasObject
}

// MainWindow is the one window: navigation on the left, the chosen pane on
// the right, a status line at the bottom.
type MainWindow struct {
	App    fyne.App
	Window fyne.Window
	Status *StatusLine

	panes   []Pane
	views   []fyne.CanvasObject
	nav     *widget.List
	stack   *fyne.Container
	current int
}

// NewMainWindow builds the window and its panes; it does not show it.
func NewMainWindow(a fyne.App, version string) *MainWindow {
	w := a.NewWindow("jigbench")
	m := &MainWindow{App: a, Window: w, Status: NewStatusLine(), current: -1}
	m.panes = []Pane{
		NewGeneratePane(m),
		comingSoon("Ablation", theme.ViewRestoreIcon(), "Shape and rectangular sheets side by side, with shared zoom and piece highlighting."),
		comingSoon("Score", theme.GridIcon(), "Score model answers: tables, heatmaps and an instance browser."),
		comingSoon("Rate", theme.DocumentCreateIcon(), "Rate ViGoR items with the four-dimension rubric."),
		comingSoon("Agreement", theme.ListIcon(), "How well judge runs agree with the human raters."),
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
	body := container.NewHSplit(m.nav, m.stack)
	body.SetOffset(0.14)
	w.SetContent(container.NewBorder(nil, m.Status.View(), nil, nil, body))
	w.Resize(fyne.NewSize(1280, 800))
	m.nav.Select(0)
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

// placeholder is a pane whose issue has not landed yet.
type placeholder struct {
	title, text string
	icon        fyne.Resource
}

func comingSoon(title string, icon fyne.Resource, text string) Pane {
	return &placeholder{title: title, icon: icon, text: text}
}

func (p *placeholder) Title() string       { return p.title }
func (p *placeholder) Icon() fyne.Resource { return p.icon }
func (p *placeholder) View() fyne.CanvasObject {
	head := widget.NewLabelWithStyle(p.title+" — coming soon", fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
	body := widget.NewLabelWithStyle(p.text, fyne.TextAlignCenter, fyne.TextStyle{})
	body.Wrapping = fyne.TextWrapWord
	return container.NewVBox(layout.NewSpacer(), head, body, layout.NewSpacer())
}
