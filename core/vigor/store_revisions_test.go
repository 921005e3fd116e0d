package vigor

import (
	"bytes"
	"context"
	"encoding/csv"
	"encoding/json"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
	"time"
)

// legacyStore makes the store an earlier jigbench (schema version) left at
// path, holding rs: the old migration steps, then the rows as that version
// wrote them.
func legacyStore(t *testing.T, path string, version int, rs ...Rating) {
	t.Helper()
	ctx := context.Background()
	st, err := openStore(ctx, path, version)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for _, r := range rs {
		r.Created, r.Updated = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		// The columns every version before 4 had.
		if _, err := st.db.ExecContext(ctx, `INSERT INTO ratings (split, item_id, annotator, background_consistency,
			rule_obey, visual_quality, reasoning, flagged, comment, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`, slices.Delete(upsertArgs(&r), 1, 2)...); err != nil {
			t.Fatal(err)
		}
	}
}

func vals(s Scores, flagged bool, comment string) *Values {
	return &Values{Scores: s, Flagged: flagged, Comment: comment}
}

func TestRevisions(t *testing.T) {
	forEachStore(t, func(t *testing.T, st *Store) {
		ctx := context.Background()
		clock := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
		st.now = func() time.Time { clock = clock.Add(time.Second); return clock }
		r := Rating{Split: "s", Item: "r-0001", Annotator: "ann", Scores: Scores{1, NoScore, NoScore, NoScore}}
		mustSave(t, st, r)
		r.Scores[1], r.Comment = 0, "second"
		mustSave(t, st, r)
		mustSave(t, st, Rating{Split: "s", Item: "r-0002", Annotator: "bob", Scores: Unscored(), Flagged: true})
		if err := st.Delete(ctx, "s", "", "r-0001", "ann"); err != nil {
			t.Fatal(err)
		}
		if err := st.Delete(ctx, "s", "", "r-0001", "ann"); err != nil { // nothing left: no revision
			t.Fatal(err)
		}
		if _, err := st.Import(ctx, []Rating{{Split: "s", Item: "r-0001", Annotator: "ann", Scores: Scores{0, 0, 0, 0},
			Updated: time.Date(2027, 1, 1, 0, 0, 0, 0, time.UTC)}}); err != nil {
			t.Fatal(err)
		}
		revs, err := st.Revisions(ctx, Query{Split: "s", Annotator: "ann"})
		if err != nil {
			t.Fatal(err)
		}
		type rev struct {
			Action   Action
			At       time.Time
			Old, New *Values
		}
		var got []rev
		for i, rv := range revs {
			if rv.Split != "s" || rv.Item != "r-0001" || rv.Annotator != "ann" || i > 0 && rv.ID <= revs[i-1].ID {
				t.Errorf("revision %d: %+v", i, rv)
			}
			got = append(got, rev{rv.Action, rv.At, rv.Old, rv.New})
		}
		at := func(s int) time.Time { return time.Date(2026, 3, 1, 12, 0, s, 0, time.UTC) }
		want := []rev{
			{ActionSave, at(1), nil, vals(Scores{1, NoScore, NoScore, NoScore}, false, "")},
			{ActionSave, at(2), vals(Scores{1, NoScore, NoScore, NoScore}, false, ""), vals(Scores{1, 0, NoScore, NoScore}, false, "second")},
			{ActionDelete, at(4), vals(Scores{1, 0, NoScore, NoScore}, false, "second"), nil},
			{ActionImport, at(5), nil, vals(Scores{0, 0, 0, 0}, false, "")},
		}
		if !reflect.DeepEqual(got, want) {
			t.Errorf("revisions:\n got %+v\nwant %+v", got, want)
		}
		all, _ := st.Revisions(ctx, Query{})
		if len(all) != 5 {
			t.Errorf("%d revisions in all, want 5", len(all))
		}
	})
}

func TestRevisionsExport(t *testing.T) {
	at := time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)
	revs := []Revision{
		{ID: 1, Split: "s", SplitDigest: "d1", Item: "r-1", Annotator: "a", Action: ActionSave, At: at, New: vals(Scores{1, 0, NoScore, 1}, true, "=1+1")},
		{ID: 2, Split: "s", SplitDigest: "d1", Item: "r-1", Annotator: "a", Action: ActionDelete, At: at, Old: vals(Scores{1, 0, NoScore, 1}, true, "=1+1")},
	}
	var b bytes.Buffer
	if err := WriteRevisions(&b, CSV, revs); err != nil {
		t.Fatal(err)
	}
	recs, err := csv.NewReader(&b).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	want := [][]string{
		RevisionColumns[:],
		{"1", "s", "d1", "r-1", "a", "save", "2026-03-01T12:00:00Z", "", "", "", "", "", "", "1", "0", "", "1", "true", "'=1+1"},
		{"2", "s", "d1", "r-1", "a", "delete", "2026-03-01T12:00:00Z", "1", "0", "", "1", "true", "'=1+1", "", "", "", "", "", ""},
	}
	if !reflect.DeepEqual(recs, want) {
		t.Errorf("CSV:\n got %q\nwant %q", recs, want)
	}
	b.Reset()
	if err := WriteRevisions(&b, JSONL, revs); err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(b.String()), "\n")
	var first map[string]any
	if err := json.Unmarshal([]byte(lines[0]), &first); err != nil || len(lines) != 2 {
		t.Fatalf("JSONL %q: %v", b.String(), err)
	}
	wantFirst := map[string]any{"revision": 1.0, "split": "s", "split_digest": "d1", "item_id": "r-1", "annotator": "a", "action": "save",
		"at": "2026-03-01T12:00:00Z", "old_background_consistency": nil, "old_rule_obey": nil, "old_visual_quality": nil,
		"old_reasoning": nil, "old_flagged": nil, "old_comment": nil, "new_background_consistency": 1.0, "new_rule_obey": 0.0,
		"new_visual_quality": nil, "new_reasoning": 1.0, "new_flagged": true, "new_comment": "=1+1"}
	if !reflect.DeepEqual(first, wantFirst) {
		t.Errorf("JSONL line 1:\n got %v\nwant %v", first, wantFirst)
	}
}

// A store made by the previous version (schema 2, no revisions) keeps every
// rating when it is opened, and records changes from then on.
func TestRevisionsMigrationKeepsRatings(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	old := []Rating{
		{Split: "s", Item: "r-0001", Annotator: "ann", Scores: Scores{1, 0, 1, 0}, Comment: "old"},
		{Split: "s", Item: "p-0001", Annotator: "ann", Scores: Scores{10, NoScore, 30, 40}, Flagged: true},
		{Split: "t", Item: "r-0001", Annotator: "bob", Scores: Unscored()},
	}
	legacyStore(t, path, 2, old...)
	st, err := OpenStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	all, err := st.List(ctx, Query{})
	if err != nil || len(all) != len(old) {
		t.Fatalf("after migration %d ratings (%v), want %d", len(all), err, len(old))
	}
	for _, o := range old {
		got, err := st.Get(ctx, o.Split, o.Item, o.Annotator)
		if err != nil || got.Scores != o.Scores || got.Flagged != o.Flagged || got.Comment != o.Comment ||
			!got.Created.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)) {
			t.Errorf("%s/%s after migration: %+v %v", o.Item, o.Annotator, got, err)
		}
	}
	if revs, _ := st.Revisions(ctx, Query{}); len(revs) != 0 {
		t.Errorf("migration invented %d revisions", len(revs))
	}
	mustSave(t, st, Rating{Split: "s", Item: "r-0001", Annotator: "ann", Scores: Scores{1, 1, 1, 1}})
	revs, _ := st.Revisions(ctx, Query{})
	if len(revs) != 1 || !reflect.DeepEqual(revs[0].Old, vals(Scores{1, 0, 1, 0}, false, "old")) {
		t.Errorf("first revision after migration: %+v", revs)
	}
}

func mustSave(t *testing.T, st *Store, r Rating) Rating {
	t.Helper()
	saved, err := st.Save(context.Background(), r)
	if err != nil {
		t.Fatal(err)
	}
	return saved
}

// forEachStore runs fn against a fresh store of every backend: the store
// suite is one set of tests for both (PostgreSQL skips, saying why, where
// no server can be started).
func forEachStore(t *testing.T, fn func(t *testing.T, st *Store)) {
	t.Run("sqlite", func(t *testing.T) { fn(t, openTestStore(t)) })
	t.Run("postgres", func(t *testing.T) { fn(t, openPostgresTestStore(t)) })
}
