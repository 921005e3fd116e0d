package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

// StatusLine is the one-line message area at the bottom of the window. Each
// pane has its own message: switching panes shows that pane's last one (or
// "Ready."), so a message never outlives the pane it is about.
type StatusLine struct {
	label *widget.Label
	view  fyne.CanvasObject
	shown int      // the pane whose message is on screen
	msgs  []string // by pane index
}

// readyText is what a pane that said nothing yet shows.
const readyText = "Ready."

// NewStatusLine makes an empty status line showing pane 0.
func NewStatusLine() *StatusLine {
	l := widget.NewLabel(readyText)
	l.Truncation = fyne.TextTruncateEllipsis
	return &StatusLine{label: l, view: container.NewVBox(widget.NewSeparator(), l)}
}

// View is the status line's widget.
func (s *StatusLine) View() fyne.CanvasObject { return s.view }

// Set shows msg as the message of the pane on screen; call it on the UI goroutine.
func (s *StatusLine) Set(msg string) { s.set(s.shown, msg) }

// Text is what the status line shows.
func (s *StatusLine) Text() string { return s.label.Text }

// pane is the status line as pane i sees it; i < 0 is whichever pane is shown.
func (s *StatusLine) pane(i int) paneStatus { return paneStatus{line: s, index: i} }

// show switches to pane i's message.
func (s *StatusLine) show(i int) {
	s.shown = i
	s.label.SetText(s.message(i))
}

func (s *StatusLine) message(i int) string {
	if i < 0 || i >= len(s.msgs) || s.msgs[i] == "" {
		return readyText
	}
	return s.msgs[i]
}

func (s *StatusLine) set(i int, msg string) {
	if i < 0 {
		return
	}
	for len(s.msgs) <= i {
		s.msgs = append(s.msgs, "")
	}
	s.msgs[i] = msg
	if i == s.shown {
		s.label.SetText(msg)
	}
}

// paneStatus is one pane's message in the status line: it is on screen
// while that pane is.
type paneStatus struct {
	line  *StatusLine
	index int
}

func (p paneStatus) pane() int {
	if p.index < 0 {
		return p.line.shown
	}
	return p.index
}

// Set makes msg the pane's message; call it on the UI goroutine.
func (p paneStatus) Set(msg string) { p.line.set(p.pane(), msg) }

// Text is the pane's message.
func (p paneStatus) Text() string { return p.line.message(p.pane()) }
