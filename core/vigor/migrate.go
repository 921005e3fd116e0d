package vigor

import (
	"context"
	"database/sql"
	"fmt"
	"time"
)

// migrations are applied in order; migration i brings the schema to
// version i+1, recorded in PRAGMA user_version and in schema_migrations.
// Never edit a released entry: append a new one.
var migrations = []string{
	// 1: the ratings, one row per (split, item, annotator); NULL = not scored.
	`CREATE TABLE schema_migrations (
		version    INTEGER PRIMARY KEY,
		applied_at TEXT NOT NULL
	);
	CREATE TABLE ratings (
		split                  TEXT NOT NULL CHECK (split <> ''),
		item_id                TEXT NOT NULL CHECK (item_id <> ''),
		annotator              TEXT NOT NULL CHECK (annotator <> ''),
		background_consistency INTEGER CHECK (background_consistency BETWEEN 0 AND 100),
		rule_obey              INTEGER CHECK (rule_obey BETWEEN 0 AND 100),
		visual_quality         INTEGER CHECK (visual_quality BETWEEN 0 AND 100),
		reasoning              INTEGER CHECK (reasoning BETWEEN 0 AND 100),
		flagged                INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
		comment                TEXT NOT NULL DEFAULT '',
		created_at             TEXT NOT NULL,
		updated_at             TEXT NOT NULL,
		PRIMARY KEY (split, item_id, annotator)
	) WITHOUT ROWID;`,
	// 2: progress, export and "next unrated" look up one annotator's rows.
	`CREATE INDEX ratings_by_annotator ON ratings (split, annotator, item_id);`,
	// 3: the audit trail, one row per change of a rating (docs/formats.md,
	// "Ratings store"). NULL old_flagged: there was no rating before; NULL
	// new_flagged: the rating was deleted.
	`CREATE TABLE revisions (
		id                         {{serial}},
		split                      TEXT NOT NULL,
		item_id                    TEXT NOT NULL,
		annotator                  TEXT NOT NULL,
		action                     TEXT NOT NULL CHECK (action IN ('save', 'delete', 'import')),
		at                         TEXT NOT NULL,
		old_background_consistency INTEGER,
		old_rule_obey              INTEGER,
		old_visual_quality         INTEGER,
		old_reasoning              INTEGER,
		old_flagged                INTEGER,
		old_comment                TEXT,
		new_background_consistency INTEGER,
		new_rule_obey              INTEGER,
		new_visual_quality         INTEGER,
		new_reasoning              INTEGER,
		new_flagged                INTEGER,
		new_comment                TEXT
	);
	CREATE INDEX revisions_by_rating ON revisions (split, annotator, item_id, id);`,
	// 4: split identities (docs/formats.md, "Split identity"). Ratings and
	// revisions carry the split's digest; '' marks those made before, which
	// the first split of that name opened claims (Store.BindSplit).
	`CREATE TABLE splits (
		name       TEXT NOT NULL,
		digest     TEXT NOT NULL CHECK (digest <> ''),
		first_seen TEXT NOT NULL,
		PRIMARY KEY (name, digest)
	);
	CREATE TABLE ratings_v4 (
		split                  TEXT NOT NULL CHECK (split <> ''),
		split_digest           TEXT NOT NULL DEFAULT '',
		item_id                TEXT NOT NULL CHECK (item_id <> ''),
		annotator              TEXT NOT NULL CHECK (annotator <> ''),
		background_consistency INTEGER CHECK (background_consistency BETWEEN 0 AND 100),
		rule_obey              INTEGER CHECK (rule_obey BETWEEN 0 AND 100),
		visual_quality         INTEGER CHECK (visual_quality BETWEEN 0 AND 100),
		reasoning              INTEGER CHECK (reasoning BETWEEN 0 AND 100),
		flagged                INTEGER NOT NULL DEFAULT 0 CHECK (flagged IN (0, 1)),
		comment                TEXT NOT NULL DEFAULT '',
		created_at             TEXT NOT NULL,
		updated_at             TEXT NOT NULL,
		PRIMARY KEY (split, split_digest, item_id, annotator)
	) WITHOUT ROWID;
	INSERT INTO ratings_v4 (split, split_digest, item_id, annotator, background_consistency, rule_obey,
		visual_quality, reasoning, flagged, comment, created_at, updated_at)
	SELECT split, '', item_id, annotator, background_consistency, rule_obey,
		visual_quality, reasoning, flagged, comment, created_at, updated_at FROM ratings;
	DROP TABLE ratings;
	ALTER TABLE ratings_v4 RENAME TO ratings;
	CREATE INDEX ratings_by_annotator ON ratings (split, split_digest, annotator, item_id);
	ALTER TABLE revisions ADD COLUMN split_digest TEXT NOT NULL DEFAULT '';`,
}

// schemaVersion is the version this build writes.
var schemaVersion = len(migrations)

// migrate brings db up to version target (≤ len(migrations)). Each step runs
// in its own write transaction that re-reads the version (after taking the
// migration lock, where the dialect has one), so two processes opening a
// new database at once cannot both apply a step.
func migrate(ctx context.Context, db *sql.DB, d *dialect, target int) error {
	for {
		done, err := migrateStep(ctx, db, d, target)
		if err != nil || done {
			return err
		}
	}
}

func migrateStep(ctx context.Context, db *sql.DB, d *dialect, target int) (done bool, err error) {
	conn, err := db.Conn(ctx)
	if err != nil {
		return false, fmt.Errorf("migrate ratings store: %w", err)
	}
	defer conn.Close()
	if d.lockMigrations != nil {
		unlock, err := d.lockMigrations(ctx, conn)
		if err != nil {
			return false, fmt.Errorf("migrate ratings store: %w", err)
		}
		defer unlock() // after the transaction ended (defers run last first)
	}
	tx, err := conn.BeginTx(ctx, nil)
	if err != nil {
		return false, fmt.Errorf("migrate ratings store: %w", err)
	}
	defer tx.Rollback()
	v, err := d.readVersion(ctx, tx)
	if err != nil {
		return false, fmt.Errorf("migrate ratings store: read schema version: %w", err)
	}
	if v > len(migrations) {
		return false, fmt.Errorf("the ratings store has schema version %d, newer than this jigbench knows (%d); "+
			"use a newer jigbench", v, len(migrations))
	}
	if v >= target {
		return true, nil
	}
	if _, err := tx.ExecContext(ctx, d.migration(migrations[v])); err != nil {
		return false, fmt.Errorf("migrate ratings store to version %d: %w", v+1, err)
	}
	if _, err := tx.ExecContext(ctx, d.rebind("INSERT INTO schema_migrations (version, applied_at) VALUES (?, ?)"),
		v+1, time.Now().UTC().Format(time.RFC3339Nano)); err != nil {
		return false, fmt.Errorf("migrate ratings store to version %d: %w", v+1, err)
	}
	if err := d.writeVersion(ctx, tx, v+1); err != nil {
		return false, fmt.Errorf("migrate ratings store to version %d: %w", v+1, err)
	}
	if err := tx.Commit(); err != nil {
		return false, fmt.Errorf("migrate ratings store to version %d: %w", v+1, err)
	}
	return false, nil
}
