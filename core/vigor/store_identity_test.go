package vigor

import (
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"testing"
)

// diskSplit writes files into a new folder and returns the split named name
// whose items are items, read from there.
func diskSplit(t *testing.T, name string, files map[string]string, items ...Item) *Split {
	t.Helper()
	dir := t.TempDir()
	for p, content := range files {
		full := filepath.Join(dir, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		if err := os.WriteFile(full, []byte(content), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	sp := &Split{Format: SplitFormat, Name: name, Items: items, Dir: dir, index: map[string]int{}}
	for i, it := range items {
		sp.index[it.ID] = i
	}
	return sp
}

func hexSHA(s string) string {
	sum := sha256.Sum256([]byte(s))
	return hex.EncodeToString(sum[:])
}

var (
	identA = Item{ID: "r-1", Track: TrackResult, Model: "m", Instruction: "solve", Input: "in.png", Output: "out.png", GTText: "gt"}
	identB = Item{ID: "p-1", Track: TrackProcess, Instruction: "sort", Input: "in.png", Frames: []string{"f0.png"}, GTImage: "in.png"}
)

func identFiles(out string) map[string]string {
	return map[string]string{"in.png": "IN", "out.png": out, "f0.png": "F0"}
}

// The digest is the SHA-256 of the canonical text of docs/formats.md,
// worked out here by hand.
func TestSplitDigestCanonical(t *testing.T) {
	sp := diskSplit(t, "s", identFiles("OUT"), identA, identB)
	got, err := sp.Digest()
	if err != nil {
		t.Fatal(err)
	}
	text := "jigbench.vigor-split-identity/v1\n" +
		"item \"p-1\"\ntrack \"process\"\ninstruction \"sort\"\ngt_text \"\"\n" +
		"input \"" + hexSHA("IN") + "\"\nframes[0] \"" + hexSHA("F0") + "\"\ngt_image \"" + hexSHA("IN") + "\"\n" +
		"item \"r-1\"\ntrack \"result\"\ninstruction \"solve\"\ngt_text \"gt\"\n" +
		"input \"" + hexSHA("IN") + "\"\noutput \"" + hexSHA("OUT") + "\"\n"
	if want := hexSHA(text); got != want {
		t.Errorf("digest %s, want %s", got, want)
	}

	// Item order and the analysis labels (domain, model) do not change it;
	// a file's content, an instruction or the ground truth text do.
	relabelled := identA
	relabelled.Model, relabelled.Domain = "other", "Symbolic"
	if d, _ := diskSplit(t, "s", identFiles("OUT"), identB, relabelled).Digest(); d != got {
		t.Error("reordering items or changing their labels changed the identity")
	}
	reworded := identA
	reworded.Instruction = "solve it"
	for what, sp := range map[string]*Split{
		"an output file": diskSplit(t, "s", identFiles("OUT2"), identA, identB),
		"an instruction": diskSplit(t, "s", identFiles("OUT"), reworded, identB),
		"an item less":   diskSplit(t, "s", identFiles("OUT"), identA),
	} {
		if d, _ := sp.Digest(); d == got {
			t.Errorf("changing %s kept the identity", what)
		}
	}
	missing := diskSplit(t, "s", map[string]string{"in.png": "IN"}, identA)
	if _, err := missing.Digest(); err == nil {
		t.Error("a missing file gave an identity")
	}
}

// Two splits named alike never share ratings; opening the second says so.
func TestSplitIdentityKeepsRatingsApart(t *testing.T) {
	forEachStore(t, func(t *testing.T, st *Store) {
		ctx := context.Background()
		a := diskSplit(t, "tiny", identFiles("OUT-A"), identA)
		b := diskSplit(t, "tiny", identFiles("OUT-B"), identA)
		da, _ := a.Digest()
		db, _ := b.Digest()
		if err := st.BindSplit(ctx, a); err != nil {
			t.Fatalf("first open: %v", err)
		}
		mustSave(t, st, Rating{Split: "tiny", SplitDigest: da, Item: "r-1", Annotator: "ann", Scores: Scores{1, 1, 1, 1}})

		err := st.BindSplit(ctx, b)
		var changed *SplitChangedError
		if !errors.As(err, &changed) || changed.Name != "tiny" || changed.Digest != db || !reflect.DeepEqual(changed.Others, []string{da}) {
			t.Fatalf("opening other items under the same name: %v", err)
		}
		if rs, err := st.Ratings(ctx, b, "ann"); err != nil || len(rs) != 0 {
			t.Errorf("the other split sees ratings %v (%v)", rs, err)
		}
		mustSave(t, st, Rating{Split: "tiny", SplitDigest: db, Item: "r-1", Annotator: "ann", Scores: Scores{0, 0, 0, 0}})
		ra, _ := st.Ratings(ctx, a, "ann")
		rb, _ := st.Ratings(ctx, b, "ann")
		if ra["r-1"].Scores != (Scores{1, 1, 1, 1}) || rb["r-1"].Scores != (Scores{0, 0, 0, 0}) {
			t.Errorf("ratings mixed: a %+v, b %+v", ra, rb)
		}
		if err := st.BindSplit(ctx, a); !errors.As(err, &changed) {
			t.Errorf("reopening the first: %v", err)
		}
		// A split's check refuses a rating of the other identity.
		if err := a.CheckRating(rb["r-1"]); err == nil {
			t.Error("a rating of other items passed the split's check")
		}
		if revs, _ := st.Revisions(ctx, Query{Split: "tiny", Digest: db}); len(revs) != 1 || revs[0].SplitDigest != db {
			t.Errorf("revisions of b: %+v", revs)
		}
	})
}

// A store from before identities (schema 3): its ratings are claimed by the
// first split of their name opened; other items under the name later get
// none of them and the warning.
func TestSplitIdentityMigration(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	legacyStore(t, path, 3,
		Rating{Split: "tiny", Item: "r-1", Annotator: "ann", Scores: Scores{1, 0, 1, 0}},
		Rating{Split: "tiny", Item: "r-1", Annotator: "bob", Scores: Scores{0, 0, 1, 1}},
		Rating{Split: "other", Item: "x", Annotator: "ann", Scores: Unscored()})
	st, err := OpenStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	if all, _ := st.List(ctx, Query{}); len(all) != 3 {
		t.Fatalf("%d ratings after migration, want 3", len(all))
	}
	a := diskSplit(t, "tiny", identFiles("OUT-A"), identA)
	b := diskSplit(t, "tiny", identFiles("OUT-B"), identA)
	da, _ := a.Digest()
	rs, err := st.Ratings(ctx, a, "ann")
	if err != nil || rs["r-1"].Scores != (Scores{1, 0, 1, 0}) || rs["r-1"].SplitDigest != da {
		t.Fatalf("first open after migration: %+v %v", rs, err)
	}
	var changed *SplitChangedError
	if err := st.BindSplit(ctx, b); !errors.As(err, &changed) {
		t.Errorf("other items: %v", err)
	}
	for _, who := range []string{"ann", "bob"} {
		if rs, _ := st.Ratings(ctx, b, who); len(rs) != 0 {
			t.Errorf("other items under the same name got %s's old ratings: %+v", who, rs)
		}
	}
	if r, err := st.Get(ctx, "other", "x", "ann"); err != nil || r.SplitDigest != "" {
		t.Errorf("a split never opened keeps its rating unbound: %+v %v", r, err)
	}
}

// Reopening a split the store knows takes no write lock: it works while
// another process holds it (an import under way).
func TestSplitReopenTakesNoWriteLock(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	st, err := OpenStore(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	sp := diskSplit(t, "tiny", identFiles("OUT"), identA)
	d, _ := sp.Digest()
	mustSave(t, st, Rating{Split: "tiny", SplitDigest: d, Item: "r-1", Annotator: "ann", Scores: Scores{1, 1, 1, 1}})
	if _, err := st.Ratings(ctx, sp, "ann"); err != nil { // binds
		t.Fatal(err)
	}
	w, err := sql.Open("sqlite", path+"?_pragma=busy_timeout(10000)&_txlock=immediate")
	if err != nil {
		t.Fatal(err)
	}
	defer w.Close()
	tx, err := w.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback()
	if _, err := tx.Exec("UPDATE ratings SET comment = 'being imported'"); err != nil {
		t.Fatal(err)
	}
	st.db.SetMaxOpenConns(1)
	rs, err := st.Ratings(ctx, sp, "ann")
	if err != nil || rs["r-1"].Scores != (Scores{1, 1, 1, 1}) {
		t.Errorf("reopening while another process writes: %+v %v", rs, err)
	}
}
