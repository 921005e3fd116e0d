package ui

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// Editing and saving in the Rate pane: a change goes into the session's
// save queue at once and is written by a worker, one save at a time.

// setScore sets dimension d of the current item and saves it.
func (p *RatePane) setScore(d, v int) {
	if p.s == nil {
		return
	}
	p.edit(func(r *vigor.Rating) { r.Scores[d] = v })
}

func (p *RatePane) setFlag(on bool) {
	if p.s == nil || p.s.Rating(p.s.Item()).Flagged == on {
		return
	}
	p.edit(func(r *vigor.Rating) { r.Flagged = on })
}

// edit changes the current item's rating on screen and queues it for
// saving; Ctrl+Z takes the change back.
func (p *RatePane) edit(change func(r *vigor.Rating)) {
	before := p.s.Rating(p.s.Item())
	p.undo = append(p.undo, undoStep{id: p.s.Item().ID, before: before})
	if len(p.undo) > maxUndo {
		p.undo = p.undo[len(p.undo)-maxUndo:]
	}
	p.apply(change)
}

// apply changes the current item's rating and queues the save.
func (p *RatePane) apply(change func(r *vigor.Rating)) {
	id := p.s.Edit(change)
	p.showScores()
	p.updateHeader()
	p.status.Set("Saving " + id + "…")
	p.kick(p.s)
}

// kick starts the session's next save, if none is running.
func (p *RatePane) kick(s *ratesession.Session) {
	sv, ok := s.NextSave()
	if !ok {
		return
	}
	p.work.Go(func() func() {
		stored, err := s.Write(sv)
		return func() { p.saved(s, sv, stored, err) }
	})
}

// saved applies the store's answer.
func (p *RatePane) saved(s *ratesession.Session, sv ratesession.Save, stored vigor.Rating, err error) {
	waiting := s.Saved(sv, stored, err)
	switch {
	case err != nil:
		p.saveFailed(s, sv.ID, err)
	case p.s == s:
		if !s.AnyFailed() && p.failure.Visible() {
			p.failure.hide()
			p.errorShown = false
			p.work.relayout(p.view)
		}
		p.updateHeader()
		if s.Item().ID == sv.ID {
			p.showSaveState()
		}
		if !waiting {
			msg := "Saved " + sv.ID + ": " + scoreSummary(s.Split, stored) + "."
			if !s.Unsaved() && s.AllRated() {
				msg += " Every item is rated — thank you!"
			}
			p.status.Set(msg)
		}
	}
	p.kick(s)
}

// saveFailed shows the failure and brings the unsaved item back on screen.
func (p *RatePane) saveFailed(s *ratesession.Session, id string, err error) {
	msg := fmt.Errorf("%s was not saved: %w. Your scores are still on screen but not stored; "+
		"fix the problem (disk full? ratings database locked? server down?), then press Enter to save again", id, err)
	if p.s != s {
		p.showError(msg)
		return
	}
	if s.Item().ID != id {
		if pos, ok := s.PositionOf(id); ok {
			s.SetFilter(ratesession.All)
			p.showFilter()
			p.goTo(pos)
		}
	}
	p.failure.show("NOT SAVED — "+msg.Error()+".", true, "Try again", p.retry)
	p.showSaveState()
	p.work.relayout(p.view)
	if !p.errorShown {
		p.errorShown = true
		p.showError(msg)
	} else {
		p.status.Set(msg.Error())
	}
}

// retry saves every item whose last save failed.
func (p *RatePane) retry() {
	if p.s == nil {
		return
	}
	p.s.Retry()
	p.status.Set("Trying to save again…")
	p.kick(p.s)
}

// enter goes to the next unrated item once every dimension of the current
// one is set; it never sets a score itself (a result criterion not set
// stays unset until the rater says No, key 0 for all of them). So a second
// Enter that arrives before the next item is on screen finds that item
// unset and saves nothing.
func (p *RatePane) enter() {
	s := p.s
	if s == nil || !p.commitDraft() {
		return
	}
	it := s.Item()
	if first, names := p.missing(); first >= 0 {
		if it.Track == vigor.TrackResult {
			p.hint(fmt.Sprintf("Not saved yet: set %s first (1–4 switch, Y/N the chosen one, 0 makes every unset one No); ← → skip the item.", names))
		} else {
			p.hint(fmt.Sprintf("Score %s (0–100) before moving on; ← → skip the item.", names))
		}
		p.chooseDim(first, false)
		return
	}
	if s.Failed(it.ID) != nil {
		p.retry()
		return
	}
	pos, ok := s.NextUnrated()
	if !ok {
		if s.Filter() == ratesession.Flagged {
			p.hint("No other unrated flagged item.")
		} else {
			msg := fmt.Sprintf("Every item is rated — thank you! (%d items; the status says saved once the store has them all.)", s.Len())
			p.hint(msg)
			p.status.Set(msg)
		}
		return
	}
	p.goTo(pos)
}

// maxUndo is how many changes Ctrl+Z can take back.
const maxUndo = 200

// undoStep is one change as Ctrl+Z takes it back: the item and its rating
// before the change.
type undoStep struct {
	id     string
	before vigor.Rating
}

// undoLast takes the last change back: it shows the item and saves its
// previous scores, flag and comment again (the store keeps both as
// revisions). An item that was unrated is saved with no scores, which
// counts as unrated.
func (p *RatePane) undoLast() {
	s := p.s
	if s == nil {
		return
	}
	p.dropDraft()
	if len(p.undo) == 0 {
		p.hint("Nothing to undo in this session.")
		return
	}
	step := p.undo[len(p.undo)-1]
	p.undo = p.undo[:len(p.undo)-1]
	pos, ok := s.PositionOf(step.id)
	if !ok {
		return
	}
	if s.Pos() != pos {
		if s.Filter() != ratesession.All {
			s.SetFilter(ratesession.All)
			p.showFilter()
		}
		p.goTo(pos)
	}
	b := step.before
	p.apply(func(r *vigor.Rating) { r.Scores, r.Flagged, r.Comment = b.Scores, b.Flagged, b.Comment })
	p.hint("Undone: " + step.id + " is back to " + scoreSummary(s.Split, s.Rating(s.Item())) + ".")
}

// scoreSummary reads a rating out, "BC 1 · RO 0 · VQ 1 · RS 0".
func scoreSummary(sp *vigor.Split, r vigor.Rating) string {
	it, ok := sp.Item(r.Item)
	if !ok {
		return ""
	}
	var parts []string
	for _, d := range vigor.Dims {
		v := "–"
		if r.Scores[d] != vigor.NoScore {
			v = strconv.Itoa(r.Scores[d])
		}
		parts = append(parts, d.Short(it.Track)+" "+v)
	}
	s := strings.Join(parts, " · ")
	if r.Flagged {
		s += " · flagged"
	}
	return s
}
