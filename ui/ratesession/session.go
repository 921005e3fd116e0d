// Package ratesession is what the Rate pane remembers while a rater works
// through a split: where they are, which items the arrows visit, and which
// changes are waiting to be saved. It is plain Go (no Fyne): the pane shows
// a Session and runs its saves on a worker; tests drive it directly.
package ratesession

import (
	"context"
	"path/filepath"
	"time"

	"github.com/jigbench/jigbench/core/vigor"
)

// StoreTimeout bounds one store call; a store that hangs longer (a locked
// database on a network drive) is reported instead of waited for forever.
const StoreTimeout = 30 * time.Second

// Store is where a session's ratings go.
type Store interface {
	// Save stores r and returns it as stored; a nil error means it is on disk.
	Save(ctx context.Context, r vigor.Rating) (vigor.Rating, error)
}

// Filter limits which items the arrows and Enter visit.
type Filter int

// The filters, in the order the pane offers them.
const (
	All Filter = iota
	Unrated
	Flagged
)

// FilterNames name the filters on their buttons.
var FilterNames = [...]string{"All", "Unrated", "Flagged"}

// Session is one open split for one annotator. Its methods are for the UI
// goroutine, except Write, which a worker runs.
type Session struct {
	Split     *vigor.Split
	Dir       string
	Demo      bool // the demo split: its ratings are kept in memory only
	Annotator string

	store  Store
	order  []int // indices into Split.Items, the annotator's order
	pos    int   // position in order
	frame  int   // the frame shown of a process item
	filter Filter

	stored  map[string]vigor.Rating // what the store confirmed
	pending map[string]vigor.Rating // changes not yet confirmed (on screen)
	edits   map[string]uint64       // change counter per item
	failed  map[string]error        // the last save of the item failed
	queue   []string                // items waiting to be saved, in order
	saving  string                  // the item being saved, "" none
}

// New opens sp in dir for annotator, who has rated stored so far (by item
// id) in store. It starts at the first item of the annotator's order.
func New(sp *vigor.Split, dir string, demo bool, store Store, annotator string, stored map[string]vigor.Rating) *Session {
	if stored == nil {
		stored = map[string]vigor.Rating{}
	}
	return &Session{Split: sp, Dir: dir, Demo: demo, Annotator: annotator, store: store,
		order: sp.Order(annotator), stored: stored, pending: map[string]vigor.Rating{},
		edits: map[string]uint64{}, failed: map[string]error{}}
}

// Resume is the position of the annotator's first unrated item; ok is
// false when every item is rated (the position is then 0).
func (s *Session) Resume() (pos int, ok bool) {
	return vigor.NextUnrated(s.Split, s.stored, s.order, -1)
}

// Resumed reports whether the store held any of the annotator's ratings
// when the session opened, or has since.
func (s *Session) Resumed() bool { return len(s.stored) > 0 }

// Len is the number of items.
func (s *Session) Len() int { return len(s.order) }

// Pos is the position of the current item in the annotator's order.
func (s *Session) Pos() int { return s.pos }

// GoTo makes the item at position pos current, at its first frame.
func (s *Session) GoTo(pos int) { s.pos, s.frame = pos, 0 }

// Item is the current item.
func (s *Session) Item() *vigor.Item { return &s.Split.Items[s.order[s.pos]] }

// ItemAt is the item at position pos.
func (s *Session) ItemAt(pos int) *vigor.Item { return &s.Split.Items[s.order[pos]] }

// Path is an item file's path on disk.
func (s *Session) Path(rel string) string {
	if filepath.IsAbs(rel) { // a video's frames, in the cache
		return rel
	}
	return filepath.Join(s.Dir, filepath.FromSlash(rel))
}

// Frame is the frame shown of the current (process) item.
func (s *Session) Frame() int { return s.frame }

// SetFrame shows frame k of the current process item, clamped to its
// frames; it reports whether the frame changed.
func (s *Session) SetFrame(k int) bool {
	it := s.Item()
	if it.Track != vigor.TrackProcess || len(it.Frames) == 0 {
		return false // a video's frames not taken yet
	}
	k = min(max(k, 0), len(it.Frames)-1)
	if k == s.frame {
		return false
	}
	s.frame = k
	return true
}

// Rating is what the screen shows for it: the unsaved change if any, else
// what the store holds, else nothing scored.
func (s *Session) Rating(it *vigor.Item) vigor.Rating {
	if r, ok := s.pending[it.ID]; ok {
		return r
	}
	if r, ok := s.stored[it.ID]; ok {
		return r
	}
	digest, _ := s.Split.Digest() // computed by vigor.Load; "" for a split without files
	return vigor.Rating{Split: s.Split.Name, SplitDigest: digest, Item: it.ID, Annotator: s.Annotator, Scores: vigor.Unscored()}
}

// Shown is the current item's rating as on screen (saved or not).
func (s *Session) Shown() vigor.Rating { return s.Rating(s.Item()) }

// rated reports whether the item at position pos is fully scored on screen.
func (s *Session) rated(pos int) bool { return s.Rating(s.ItemAt(pos)).Scores.Complete() }

// AllRated reports whether the store holds complete scores for every item.
func (s *Session) AllRated() bool {
	for i := range s.Split.Items {
		if r, ok := s.stored[s.Split.Items[i].ID]; !ok || !r.Scores.Complete() {
			return false
		}
	}
	return true
}

// Tally is the annotator's progress through the split, from the ratings
// the store confirmed.
func (s *Session) Tally() vigor.RaterProgress {
	stored := make([]vigor.Rating, 0, len(s.stored))
	for _, r := range s.stored {
		stored = append(stored, r)
	}
	return vigor.RaterProgressOf(s.Split, stored)
}

// Filter is the filter in force.
func (s *Session) Filter() Filter { return s.filter }

// matches reports whether the item at position pos passes the filter.
func (s *Session) matches(pos int) bool {
	switch s.filter {
	case Unrated:
		return !s.rated(pos)
	case Flagged:
		return s.Rating(s.ItemAt(pos)).Flagged
	}
	return true
}

// Step finds the previous (d = -1) or next (d = +1) item that passes the
// filter; ok is false at the first or last such item.
func (s *Session) Step(d int) (pos int, ok bool) {
	for pos := s.pos + d; pos >= 0 && pos < len(s.order); pos += d {
		if s.matches(pos) {
			return pos, true
		}
	}
	return 0, false
}

// Ahead lists up to n positions after the current one that pass the
// filter, in order: the items the rater is likely to see next.
func (s *Session) Ahead(n int) []int {
	var out []int
	for pos := s.pos + 1; pos < len(s.order) && len(out) < n; pos++ {
		if s.matches(pos) {
			out = append(out, pos)
		}
	}
	return out
}

// NextUnrated finds, after the current position and wrapping around, the
// first unrated item that passes the filter.
func (s *Session) NextUnrated() (int, bool) {
	n := len(s.order)
	for k := 1; k < n; k++ {
		pos := (s.pos + k) % n
		if !s.rated(pos) && (s.filter != Flagged || s.matches(pos)) {
			return pos, true
		}
	}
	return 0, false
}

// SetFilter limits the arrows and Enter to all, unrated or flagged items.
// When the current item does not pass, it returns the position of the next
// one that does (wrapping around) with move true; ok is false when no item
// passes, and the current one stays.
func (s *Session) SetFilter(f Filter) (pos int, move, ok bool) {
	s.filter = f
	if s.matches(s.pos) {
		return s.pos, false, true
	}
	n := len(s.order)
	for k := 1; k < n; k++ {
		if pos := (s.pos + k) % n; s.matches(pos) {
			return pos, true, true
		}
	}
	return s.pos, false, false
}

// PositionOf is the position of the item with id.
func (s *Session) PositionOf(id string) (int, bool) {
	for pos, i := range s.order {
		if s.Split.Items[i].ID == id {
			return pos, true
		}
	}
	return 0, false
}
