package ratesession

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/vigor"
)

// testSplit has three result items and two process items of three frames,
// in memory: the session needs no files.
func testSplit(t *testing.T) *vigor.Split {
	t.Helper()
	sp := &vigor.Split{Format: vigor.SplitFormat, Name: "s"}
	for i := range 3 {
		id := fmt.Sprintf("r-%d", i)
		sp.Items = append(sp.Items, vigor.Item{ID: id, Track: vigor.TrackResult, Domain: "D", Input: id + "-in.png",
			Output: id + ".png", GTText: "t"})
	}
	for i := range 2 {
		id := fmt.Sprintf("p-%d", i)
		sp.Items = append(sp.Items, vigor.Item{ID: id, Track: vigor.TrackProcess, Domain: "D", Input: id + "-in.png",
			Frames: []string{id + "-0.png", id + "-1.png", id + "-2.png"}, GTText: "t"})
	}
	data, err := json.Marshal(sp)
	if err != nil {
		t.Fatal(err)
	}
	parsed, probs := vigor.ParseSplit(data) // indexes the items, as Load does
	for _, p := range probs {
		if p.Fatal {
			t.Fatal(p.Msg)
		}
	}
	return parsed
}

// scriptedStore answers saves in order from errs (nil: stored).
type scriptedStore struct {
	errs  []error
	saved []vigor.Rating
}

func (s *scriptedStore) Save(_ context.Context, r vigor.Rating) (vigor.Rating, error) {
	if len(s.errs) > 0 {
		err := s.errs[0]
		s.errs = s.errs[1:]
		if err != nil {
			return vigor.Rating{}, err
		}
	}
	s.saved = append(s.saved, r)
	return r, nil
}

// saveAll writes every queued save, as the pane's worker does one by one.
func saveAll(s *Session) {
	for {
		sv, ok := s.NextSave()
		if !ok {
			return
		}
		stored, err := s.Write(sv)
		s.Saved(sv, stored, err)
	}
}

func ids(s *Session, positions []int) []string {
	var out []string
	for _, pos := range positions {
		out = append(out, s.ItemAt(pos).ID)
	}
	return out
}

func TestSessionOrderResumeAndSteps(t *testing.T) {
	sp := testSplit(t)
	order := sp.Order("ann")
	second := sp.Items[order[1]].ID
	s := New(sp, "/x", false, &scriptedStore{}, "ann", map[string]vigor.Rating{
		sp.Items[order[0]].ID: {Split: "s", Item: sp.Items[order[0]].ID, Annotator: "ann", Scores: vigor.Scores{1, 1, 1, 1}},
	})
	if pos, ok := s.Resume(); !ok || pos != 1 || !s.Resumed() {
		t.Fatalf("resume at %d %v, want 1 (%s)", pos, ok, second)
	}
	if _, ok := s.Step(-1); ok {
		t.Fatal("stepped back from the first item")
	}
	s.GoTo(s.Len() - 1)
	if _, ok := s.Step(1); ok {
		t.Fatal("stepped past the last item")
	}
	if pos, ok := s.Step(-1); !ok || pos != s.Len()-2 {
		t.Fatalf("step back to %d", pos)
	}
	if s.Path("img/a.png") != "/x/img/a.png" {
		t.Fatalf("path %s", s.Path("img/a.png"))
	}
}

func TestSessionFilters(t *testing.T) {
	sp := testSplit(t)
	s := New(sp, "", false, &scriptedStore{}, "ann", nil)
	// Rate position 0, flag position 2.
	s.GoTo(0)
	s.Edit(func(r *vigor.Rating) { r.Scores = vigor.Scores{0, 0, 0, 0} })
	s.GoTo(2)
	s.Edit(func(r *vigor.Rating) { r.Flagged = true })
	saveAll(s)

	s.GoTo(0)
	pos, move, ok := s.SetFilter(Flagged)
	if !ok || !move || pos != 2 {
		t.Fatalf("flagged filter from a plain item: pos %d move %v ok %v", pos, move, ok)
	}
	s.GoTo(pos)
	if _, ok := s.Step(1); ok {
		t.Fatal("a second flagged item")
	}
	if _, move, _ := s.SetFilter(Unrated); move {
		t.Fatal("the flagged, unrated item does not pass the unrated filter")
	}
	s.GoTo(1)
	if got := ids(s, s.Ahead(10)); !slices.Equal(got, ids(s, []int{2, 3, 4})) {
		t.Fatalf("ahead of 1 among the unrated: %v", got)
	}
	s.GoTo(0)
	if _, _, ok := s.SetFilter(Flagged); !ok {
		t.Fatal("no flagged item found")
	}
	s.GoTo(2)
	s.Edit(func(r *vigor.Rating) { r.Flagged = false })
	if _, move, ok := s.SetFilter(Flagged); move || ok {
		t.Fatalf("no item is flagged, yet move %v ok %v", move, ok)
	}
}

func TestSessionNextUnratedWrapsAndSkipsRated(t *testing.T) {
	sp := testSplit(t)
	s := New(sp, "", false, &scriptedStore{}, "ann", nil)
	for _, pos := range []int{0, 1, 3} {
		s.GoTo(pos)
		s.Edit(func(r *vigor.Rating) { r.Scores = vigor.Scores{1, 0, 1, 0} })
	}
	s.GoTo(4)
	if pos, ok := s.NextUnrated(); !ok || pos != 2 {
		t.Fatalf("next unrated after 4: %d %v, want 2 (wrapped)", pos, ok)
	}
	s.GoTo(2)
	s.Edit(func(r *vigor.Rating) { r.Scores = vigor.Scores{1, 0, 1, 0} })
	if pos, ok := s.NextUnrated(); !ok || pos != 4 {
		t.Fatalf("next unrated after 2: %d %v, want 4", pos, ok)
	}
}

func TestSessionSaveQueue(t *testing.T) {
	sp := testSplit(t)
	full := errors.New("disk full")
	store := &scriptedStore{errs: []error{nil, full}}
	s := New(sp, "", false, store, "ann", nil)
	s.GoTo(0)
	id := s.Item().ID
	if s.StateOf(id) != NotRated {
		t.Fatal("a fresh item is not 'not rated'")
	}
	s.Edit(func(r *vigor.Rating) { r.Scores[0] = 1 })
	sv, ok := s.NextSave()
	if !ok || sv.ID != id {
		t.Fatal("the edit was not queued")
	}
	// Changed again while the first save runs: one save at a time, and
	// the second change follows the first.
	s.Edit(func(r *vigor.Rating) { r.Scores[1] = 0 })
	if _, ok := s.NextSave(); ok {
		t.Fatal("two saves at once")
	}
	if s.StateOf(id) != Saving {
		t.Fatalf("state %v while saving", s.StateOf(id))
	}
	stored, err := s.Write(sv)
	if waiting := s.Saved(sv, stored, err); !waiting {
		t.Fatal("the second change was dropped")
	}
	if s.StateOf(id) != Saving || s.Shown().Scores[1] != 0 {
		t.Fatalf("after the first save: state %v, shown %v", s.StateOf(id), s.Shown().Scores)
	}
	// The second save fails: the value stays on screen, marked.
	sv, _ = s.NextSave()
	stored, err = s.Write(sv)
	s.Saved(sv, stored, err)
	if s.StateOf(id) != NotSaved || !errors.Is(s.Failed(id), full) || !s.AnyFailed() || !s.Unsaved() {
		t.Fatalf("after a failed save: state %v, failed %v", s.StateOf(id), s.Failed(id))
	}
	if s.Shown().Scores != (vigor.Scores{1, 0, vigor.NoScore, vigor.NoScore}) {
		t.Fatalf("shown %v", s.Shown().Scores)
	}
	s.Retry()
	saveAll(s)
	if s.StateOf(id) != SavedPartly || s.AnyFailed() || s.Unsaved() {
		t.Fatalf("after the retry: state %v", s.StateOf(id))
	}
	if len(store.saved) != 2 || store.saved[1].Scores != (vigor.Scores{1, 0, vigor.NoScore, vigor.NoScore}) {
		t.Fatalf("store saw %v", store.saved)
	}
	if tally := s.Tally(); tally.Result.Rated != 0 || tally.Total().Total != len(sp.Items) {
		t.Fatalf("tally %+v", tally)
	}
}

func TestSessionRejectsScoresTheItemCannotHave(t *testing.T) {
	sp := testSplit(t)
	store := &scriptedStore{}
	s := New(sp, "", false, store, "ann", nil)
	for pos := range s.Len() {
		if s.ItemAt(pos).Track == vigor.TrackResult {
			s.GoTo(pos)
			break
		}
	}
	s.Edit(func(r *vigor.Rating) { r.Scores[0] = 50 }) // result scores are 0 or 1
	saveAll(s)
	if len(store.saved) != 0 || s.StateOf(s.Item().ID) != NotSaved {
		t.Fatalf("a result score of 50 reached the store (%v)", store.saved)
	}
}

func TestSessionFrames(t *testing.T) {
	sp := testSplit(t)
	s := New(sp, "", false, &scriptedStore{}, "ann", nil)
	for pos := range s.Len() {
		s.GoTo(pos)
		if s.Item().Track == vigor.TrackProcess {
			break
		}
	}
	if !s.SetFrame(10) || s.Frame() != 2 {
		t.Fatalf("frame 10 of 3 shows %d", s.Frame())
	}
	if s.SetFrame(2) {
		t.Fatal("the same frame again counts as a change")
	}
	if !s.SetFrame(-5) || s.Frame() != 0 {
		t.Fatalf("frame -5 shows %d", s.Frame())
	}
}
