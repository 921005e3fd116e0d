package ui

import (
	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
)

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
