package ui

import (
	"fyne.io/fyne/v2"

	"github.com/jigbench/jigbench/core/vigor"
)

// The Rate pane's key map. The window hands it every key typed while Rate
// is shown and no field has the keyboard; its widgets forward the keys
// they do not use (rateKeys, rate_widgets.go).

// TypedRune handles the pane's single-key commands.
func (p *RatePane) TypedRune(r rune) {
	if p.s == nil {
		return
	}
	switch r {
	case '1', '2', '3', '4':
		p.dimKey(int(r - '1'))
	case 'f', 'F':
		p.setFlag(!p.s.Rating(p.s.Item()).Flagged)
	case 'c', 'C':
		p.askComment()
	case 'h', 'H':
		p.hideGT.SetChecked(!p.hideGT.Checked)
	case ',':
		p.showFrame(p.s.Frame() - 1)
	case '.':
		p.showFrame(p.s.Frame() + 1)
	}
}

// TypedKey handles Enter, the arrows and the frame keys.
func (p *RatePane) TypedKey(e *fyne.KeyEvent) {
	if p.s == nil {
		return
	}
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		p.enter()
	case fyne.KeyLeft:
		p.step(-1)
	case fyne.KeyRight:
		p.step(1)
	case fyne.KeyPageUp:
		p.showFrame(p.s.Frame() - 10)
	case fyne.KeyPageDown:
		p.showFrame(p.s.Frame() + 10)
	case fyne.KeyHome:
		p.showFrame(0)
	case fyne.KeyEnd:
		p.showFrame(len(p.s.Item().Frames) - 1)
	case fyne.KeyEscape:
		p.unfocus()
	}
}

// dimKey is key 1–4: toggle a result dimension, or go to a process score.
func (p *RatePane) dimKey(d int) {
	it := p.s.Item()
	if it.Track == vigor.TrackProcess {
		p.focusDim(d)
		return
	}
	if p.s.Rating(it).Scores[d] == 1 {
		p.setScore(d, 0)
	} else {
		p.setScore(d, 1)
	}
}

// focusDim puts the keyboard in process dimension d's number field, its
// text selected so typing replaces it.
func (p *RatePane) focusDim(d int) {
	if p.s.Item().Track != vigor.TrackProcess {
		return
	}
	e := p.dims[d].entry
	p.focus(e)
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
}
