package ui

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// The Rate pane's two questions: who is rating, and a comment on an item.

// askText shows a dialog asking for one line of text, the field laid out
// by layout and holding the keyboard: Enter confirms, Esc cancels. answer
// gets the text and whether it was confirmed.
func (p *RatePane) askText(title, confirm, text, placeholder string, layout func(entry fyne.CanvasObject) fyne.CanvasObject,
	answer func(text string, ok bool)) (*dialog.ConfirmDialog, *dialogEntry) {
	e := newDialogEntry()
	e.SetText(text)
	e.PlaceHolder = placeholder
	d := dialog.NewCustomConfirm(title, confirm, "Cancel", layout(e), func(ok bool) {
		answer(e.Text, ok)
		p.grab() // the keyboard goes back to the rating area
	}, p.window)
	e.OnSubmitted = func(string) { d.Confirm() }
	e.onEscape = d.Hide
	d.Show()
	p.focus(e)
	return d, e
}

// askAnnotator asks for the rater's name (remembered), then runs then.
func (p *RatePane) askAnnotator(current string, then func()) {
	hint := widget.NewLabel("Your ratings are stored under this name. It is remembered on this computer;\n" +
		"use the same name on every session so the app can resume where you stopped.")
	p.nameDialog, p.nameEntry = p.askText("Who is rating?", "Start rating", current, "your name or initials",
		func(e fyne.CanvasObject) fyne.CanvasObject { return container.NewVBox(hint, e) },
		func(text string, ok bool) {
			p.nameDialog = nil
			if !ok {
				return
			}
			name := strings.TrimSpace(text)
			if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' }) {
				p.showError(errors.New("the rater's name must not be empty; type your name or initials"))
				return
			}
			p.prefs.SetString(prefAnnotator, name)
			if p.raterLabel != nil && p.s != nil {
				setText(p.raterLabel, "Rater: "+name)
			}
			then()
		})
}

// askComment asks for a comment on the current item and saves it.
func (p *RatePane) askComment() {
	s := p.s
	if s == nil {
		return
	}
	it := s.Item()
	p.commentDialog, p.commentEntry = p.askText("Comment on "+it.ID, "Save comment", s.Rating(it).Comment,
		"what is unclear or worth a second look",
		func(e fyne.CanvasObject) fyne.CanvasObject {
			return container.New(widthLayout{w: 460}, container.NewVBox(widget.NewLabel("Enter saves, Esc cancels."), e))
		},
		func(text string, ok bool) {
			p.commentDialog = nil
			if !ok || p.s != s || s.Item().ID != it.ID {
				return
			}
			if text = strings.TrimSpace(text); text != s.Rating(it).Comment {
				p.edit(func(r *vigor.Rating) { r.Comment = text })
			}
		})
}

// askJump asks for an item by its number in the rater's order or its id
// (key G) and shows it.
func (p *RatePane) askJump() {
	s := p.s
	if s == nil {
		return
	}
	hint := widget.NewLabel(fmt.Sprintf("Type the item's number (1–%d) or its id.", s.Len()))
	p.askText("Go to item", "Go", "", "number or id", func(e fyne.CanvasObject) fyne.CanvasObject {
		return container.New(widthLayout{w: 360}, container.NewVBox(hint, e))
	}, func(text string, ok bool) {
		if !ok || p.s != s {
			return
		}
		pos, found := jumpTarget(s, strings.TrimSpace(text))
		if !found {
			p.hint(fmt.Sprintf("No item %q: type a number from 1 to %d or an item id.", strings.TrimSpace(text), s.Len()))
			return
		}
		if s.Filter() != ratesession.All {
			s.SetFilter(ratesession.All)
			p.showFilter()
		}
		p.goTo(pos)
	})
}

// jumpTarget finds an item by id first, then by its number in the order.
func jumpTarget(s *ratesession.Session, text string) (int, bool) {
	if pos, ok := s.PositionOf(text); ok {
		return pos, true
	}
	n, err := strconv.Atoi(text)
	if err != nil || n < 1 || n > s.Len() {
		return 0, false
	}
	return n - 1, true
}
