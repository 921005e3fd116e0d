package vigor

import (
	"bytes"
	"context"
	"database/sql"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/vigor/pgtest"
)

// insertLegacy writes rs with the columns every schema before version 4 had.
func insertLegacy(t *testing.T, db *sql.DB, d *dialect, rs ...Rating) {
	t.Helper()
	for _, r := range rs {
		r.Created, r.Updated = time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
		if _, err := db.Exec(d.rebind(`INSERT INTO ratings (split, item_id, annotator, background_consistency,
			rule_obey, visual_quality, reasoning, flagged, comment, created_at, updated_at)
			VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), slices.Delete(upsertArgs(&r), 1, 2)...); err != nil {
			t.Fatal(err)
		}
	}
}

// checkBehindRefusal checks a read-only open of a store at schema version
// v: one sentence naming the store and the version and saying how to
// upgrade it, no password.
func checkBehindRefusal(t *testing.T, err error, where string, v int) {
	t.Helper()
	if err == nil {
		t.Fatalf("a read-only open of a store at schema version %d succeeded", v)
	}
	msg := err.Error()
	want := "the ratings store at " + where + " is at schema version " + strconv.Itoa(v) + ","
	if !strings.HasPrefix(msg, want) || !strings.HasSuffix(msg, "; open it read-write once to upgrade it") ||
		strings.Contains(msg, "\n") || strings.Contains(msg, pgtest.Password) {
		t.Errorf("read-only open of a store at version %d: %q, want %q…", v, msg, want)
	}
}

// A read-only open never migrates (docs/formats.md, "Ratings store"): a
// store whose schema is behind is refused and left at its version; once
// opened read-write it is upgraded, and then read-only opens read it.
func TestReadOnlyOpenDoesNotMigrate(t *testing.T) {
	ctx := context.Background()
	r := Rating{Split: "s", Item: "i", Annotator: "a", Scores: Scores{1, 0, 1, 0}, Comment: "kept"}
	readsBack := func(t *testing.T, location string) {
		t.Helper()
		st, err := OpenStoreAt(ctx, location, false)
		if err != nil {
			t.Fatal(err)
		}
		st.Close()
		ro, err := OpenStoreAt(ctx, location, true)
		if err != nil {
			t.Fatalf("read-only open at the current version: %v", err)
		}
		defer ro.Close()
		if got, err := ro.Get(ctx, "s", "i", "a"); err != nil || got.Scores != r.Scores || got.Comment != "kept" {
			t.Errorf("read-only after the upgrade: %+v %v", got, err)
		}
		if _, err := ro.Save(ctx, r); err == nil || !strings.Contains(err.Error(), "read-only") {
			t.Errorf("save through a read-only store: %v", err)
		}
	}

	t.Run("sqlite", func(t *testing.T) {
		path := filepath.Join(t.TempDir(), "ratings.db")
		legacyStore(t, path, 2, r)
		before, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		_, err = OpenStoreAt(ctx, path, true)
		checkBehindRefusal(t, err, path, 2)
		if after, _ := os.ReadFile(path); !bytes.Equal(before, after) {
			t.Error("the refused read-only open changed the file")
		}
		if v, err := storeVersion(ctx, path); err != nil || v != 2 {
			t.Errorf("after the refusal the store is at version %d (%v), want 2", v, err)
		}
		readsBack(t, path)
	})

	t.Run("postgres", func(t *testing.T) {
		url := pgtest.Shared(t).FreshDB(t)
		db, err := sql.Open("pgx", url)
		if err != nil {
			t.Fatal(err)
		}
		defer db.Close()
		redacted := RedactLocation(url)
		// An empty database: version 0, nothing created.
		_, err = OpenStoreAt(ctx, url, true)
		checkBehindRefusal(t, err, redacted, 0)
		if v, err := postgresDialect.readVersion(ctx, db); err != nil || v != 0 {
			t.Fatalf("the refused open left version %d (%v), want 0", v, err)
		}
		if err := migrate(ctx, db, postgresDialect, 2); err != nil {
			t.Fatal(err)
		}
		insertLegacy(t, db, postgresDialect, r)
		_, err = OpenStoreAt(ctx, url, true)
		checkBehindRefusal(t, err, redacted, 2)
		if v, err := postgresDialect.readVersion(ctx, db); err != nil || v != 2 {
			t.Fatalf("the refused open left version %d (%v), want 2", v, err)
		}
		readsBack(t, url)
	})
}
