package vigor

import (
	"context"
	"errors"
	"reflect"
	"strings"
	"testing"
	"time"
)

// TestMemStore moved here from ui/rate_test.go with the store it tests.
func TestMemStore(t *testing.T) {
	s := NewMemStore()
	sp := &Split{Name: "demo"}
	ctx := context.Background()
	first, err := s.Save(ctx, Rating{Split: "demo", Item: "a", Annotator: "x", Scores: Scores{1, 0, 1, 0}})
	if err != nil {
		t.Fatal(err)
	}
	again, _ := s.Save(ctx, Rating{Split: "demo", Item: "a", Annotator: "x", Scores: Scores{1, 1, 1, 1}})
	s.Save(ctx, Rating{Split: "demo", Item: "b", Annotator: "y", Flagged: true})
	if !again.Created.Equal(first.Created) {
		t.Error("a second save changed the creation time")
	}
	rs, _ := s.Ratings(ctx, sp, "x")
	if len(rs) != 1 || rs["a"].Scores != (Scores{1, 1, 1, 1}) {
		t.Fatalf("ratings %v", rs)
	}
	names, _ := s.Annotators(ctx, "demo")
	if strings.Join(names, ",") != "x,y" {
		t.Fatalf("annotators %v", names)
	}
	if l, _ := s.List(ctx, Query{Split: "demo", FlaggedOnly: true}); len(l) != 1 || l[0].Item != "b" {
		t.Fatalf("flagged %v", l)
	}
	if _, err := s.Save(ctx, Rating{Split: "demo"}); err == nil {
		t.Fatal("a rating without item and annotator was saved")
	}
}

// TestMemStoreListsAsTheStore saves the same ratings into both stores and
// asks both the same questions: a query means one thing whichever answers.
func TestMemStoreListsAsTheStore(t *testing.T) {
	ctx := context.Background()
	db, mem := openTestStore(t), NewMemStore()
	clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	db.now = func() time.Time { return clock }
	mem.now = db.now
	for _, r := range []Rating{
		{Split: "s2", Item: "i2", Annotator: "bo", Scores: Scores{1, 0, 1, 0}},
		{Split: "s1", Item: "i9", Annotator: "al", Scores: Scores{0, 0, 1, 0}, Flagged: true},
		{Split: "s1", Item: "i1", Annotator: "bo", Scores: Scores{NoScore, 0, 1, 1}},
		{Split: "s1", Item: "i1", Annotator: "al", Scores: Scores{1, 1, 1, 1}, Comment: "ok"},
		{Split: "s1", Item: "i2", Annotator: "al", Scores: Scores{40, 50, 60, 70}, Flagged: true},
	} {
		for _, st := range []interface {
			Save(context.Context, Rating) (Rating, error)
		}{db, mem} {
			if _, err := st.Save(ctx, r); err != nil {
				t.Fatal(err)
			}
		}
	}
	for _, q := range []Query{{}, {Split: "s1"}, {Split: "s1", Annotator: "al"}, {Item: "i1"}, {FlaggedOnly: true}, {Split: "none"}} {
		want, err := db.List(ctx, q)
		if err != nil {
			t.Fatal(err)
		}
		got, _ := mem.List(ctx, q)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("List(%+v):\nmemory %v\nstore  %v", q, got, want)
		}
	}
	for _, split := range []string{"s1", "s2", "none"} {
		want, _ := db.Annotators(ctx, split)
		got, _ := mem.Annotators(ctx, split)
		if strings.Join(got, ",") != strings.Join(want, ",") {
			t.Errorf("Annotators(%s): memory %v, store %v", split, got, want)
		}
	}
}

func TestMemStoreBindSplit(t *testing.T) {
	ctx := context.Background()
	s := NewMemStore()
	a := diskSplit(t, "tiny", identFiles("OUT-A"), identA)
	b := diskSplit(t, "tiny", identFiles("OUT-B"), identA)
	da, _ := a.Digest()
	s.Save(ctx, Rating{Split: "tiny", Item: "r-1", Annotator: "x", Scores: Scores{1, 1, 1, 1}}) // no identity yet
	if err := s.BindSplit(ctx, a); err != nil {
		t.Fatal(err)
	}
	if rs, _ := s.List(ctx, Query{}); len(rs) != 1 || rs[0].SplitDigest != da {
		t.Errorf("after binding: %+v", rs)
	}
	var changed *SplitChangedError
	if err := s.BindSplit(ctx, b); !errors.As(err, &changed) || !reflect.DeepEqual(changed.Others, []string{da}) {
		t.Errorf("other items under the name: %v", err)
	}
	if rs, _ := s.Ratings(ctx, b, "x"); len(rs) != 0 {
		t.Errorf("the other split sees %+v", rs)
	}
}
