package ratesession

import (
	"context"
	"slices"

	"github.com/jigbench/jigbench/core/vigor"
)

// Saving: every change is queued and saved at once, one save at a time so
// the store sees the changes of an item in the order they were made. What
// is on screen and not yet confirmed stays pending; a failed save keeps it
// on screen, marked, until a retry succeeds.

// Edit changes the current item's rating and queues it for saving; it
// returns the item's id.
func (s *Session) Edit(change func(r *vigor.Rating)) string {
	it := s.Item()
	r := s.Rating(it)
	change(&r)
	s.pending[it.ID] = r
	s.edits[it.ID]++
	s.enqueue(it.ID)
	return it.ID
}

func (s *Session) enqueue(id string) {
	if !slices.Contains(s.queue, id) {
		s.queue = append(s.queue, id)
	}
}

// Save is one rating on its way to the store.
type Save struct {
	ID     string
	Rating vigor.Rating
	edit   uint64 // the item's change counter when the save began
}

// NextSave takes the next queued change off the queue; ok is false while
// a save is running or when nothing waits. Write it, then hand the
// store's answer to Saved.
func (s *Session) NextSave() (Save, bool) {
	if s.saving != "" {
		return Save{}, false
	}
	for len(s.queue) > 0 {
		id := s.queue[0]
		s.queue = s.queue[1:]
		r, ok := s.pending[id]
		if !ok {
			continue
		}
		s.saving = id
		return Save{ID: id, Rating: r, edit: s.edits[id]}, true
	}
	return Save{}, false
}

// Write checks sv against its item and stores it. It blocks: run it off
// the UI goroutine. It reads only what does not change while the session
// is open.
func (s *Session) Write(sv Save) (vigor.Rating, error) {
	if err := s.Split.CheckRating(sv.Rating); err != nil {
		return vigor.Rating{}, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), StoreTimeout)
	defer cancel()
	return s.store.Save(ctx, sv.Rating)
}

// Saved applies the store's answer to sv: stored is the rating as stored,
// or err why it was not. It reports whether the item is still waiting
// (changed again while saving, or the save failed).
func (s *Session) Saved(sv Save, stored vigor.Rating, err error) (waiting bool) {
	s.saving = ""
	if err != nil {
		s.failed[sv.ID] = err
		return true
	}
	delete(s.failed, sv.ID)
	s.stored[sv.ID] = stored
	if s.edits[sv.ID] == sv.edit {
		delete(s.pending, sv.ID)
		return false
	}
	s.enqueue(sv.ID) // changed again while saving
	return true
}

// Retry queues again every item whose last save failed.
func (s *Session) Retry() {
	for id := range s.failed {
		if _, ok := s.pending[id]; ok {
			s.edits[id]++
			s.enqueue(id)
		}
	}
}

// Unsaved reports whether any change is not confirmed by the store.
func (s *Session) Unsaved() bool { return len(s.pending) > 0 }

// AnyFailed reports whether the last save of some item failed.
func (s *Session) AnyFailed() bool { return len(s.failed) > 0 }

// Failed is why the last save of the item with id failed, or nil.
func (s *Session) Failed(id string) error { return s.failed[id] }

// State says whether what is on screen for an item is stored.
type State int

// The save states.
const (
	NotRated    State = iota // nothing stored, nothing changed
	Saving                   // a change waits for the store
	NotSaved                 // the last save failed
	Saved                    // stored, every dimension scored
	SavedPartly              // stored, some dimension unscored
)

// StateOf is the save state of the item with id.
func (s *Session) StateOf(id string) State {
	_, unsaved := s.pending[id]
	stored, inStore := s.stored[id]
	switch {
	case s.failed[id] != nil:
		return NotSaved
	case unsaved:
		return Saving
	case inStore && stored.Scores.Complete():
		return Saved
	case inStore:
		return SavedPartly
	}
	return NotRated
}
