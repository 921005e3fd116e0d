package vigor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"time"

	_ "modernc.org/sqlite" // the pure-Go SQLite driver, registered as "sqlite"
)

// Rating is one annotator's scores for one item of one split.
type Rating struct {
	Split string
	// SplitDigest is the split's identity beside its name (Split.Digest);
	// "" for a rating not yet bound to one (docs/formats.md, "Split identity").
	SplitDigest string
	Item        string
	Annotator   string
	Scores      Scores // on the item's track scale; NoScore where not scored yet
	Flagged     bool
	Comment     string
	Created     time.Time // UTC; set by the store
	Updated     time.Time // UTC; set by the store on Save, kept by Import
}

// ErrNotFound is returned by Store.Get for a rating that does not exist.
var ErrNotFound = errors.New("rating not found")

// Store is the ratings database: SQLite in WAL mode with synchronous=FULL,
// so a Save that returned nil survives a crash or a power cut. It is safe
// for concurrent use, also by several processes.
type Store struct {
	db       *sql.DB
	d        *dialect
	path     string // the SQLite file, or the server's address without the password
	now      func() time.Time
	secret   string // the server password, never shown (redact)
	readOnly bool
	damaged  atomic.Pointer[error] // set when SQLite reported corruption
}

// DefaultStorePath is where the app keeps its ratings: the user's config
// folder (os.UserConfigDir), jigbench/ratings.db.
func DefaultStorePath() (string, error) {
	dir, err := os.UserConfigDir()
	if err != nil {
		return "", fmt.Errorf("find the folder for the ratings store: %w", err)
	}
	return filepath.Join(dir, "jigbench", "ratings.db"), nil
}

// checkPragmas verifies the durability settings took effect: WAL can fail
// on some network file systems, and a silent fallback would weaken the
// no-lost-rating promise.
func (s *Store) checkPragmas(ctx context.Context) error {
	conn, err := s.db.Conn(ctx)
	if err != nil {
		return err
	}
	defer conn.Close()
	var mode string
	var sync, fk int
	if err := conn.QueryRowContext(ctx, "PRAGMA journal_mode").Scan(&mode); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA synchronous").Scan(&sync); err != nil {
		return err
	}
	if err := conn.QueryRowContext(ctx, "PRAGMA foreign_keys").Scan(&fk); err != nil {
		return err
	}
	if !strings.EqualFold(mode, "wal") || sync != 2 || fk != 1 {
		return fmt.Errorf("the database refused WAL journaling or full sync (journal_mode=%s, synchronous=%d); "+
			"keep the ratings store on a local disk", mode, sync)
	}
	return nil
}

// Path is the database file, or the server's URL without its password.
func (s *Store) Path() string { return s.path }

// Close closes the database.
func (s *Store) Close() error { return s.db.Close() }

// CheckIntegrity runs SQLite's integrity check. A PostgreSQL server checks
// its own pages; there it only checks the server answers.
func (s *Store) CheckIntegrity(ctx context.Context) error {
	if s.d != sqliteDialect {
		return s.explain(s.db.PingContext(ctx))
	}
	rows, err := s.db.QueryContext(ctx, "PRAGMA integrity_check")
	if err != nil {
		return fmt.Errorf("check ratings store: %w", err)
	}
	defer rows.Close()
	var msgs []string
	for rows.Next() {
		var m string
		if err := rows.Scan(&m); err != nil {
			return fmt.Errorf("check ratings store: %w", err)
		}
		msgs = append(msgs, m)
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("check ratings store: %w", err)
	}
	if len(msgs) != 1 || msgs[0] != "ok" {
		return fmt.Errorf("ratings store %s is damaged: %s", s.path, strings.Join(msgs, "; "))
	}
	return nil
}

func timeText(t time.Time) string { return t.UTC().Format(time.RFC3339Nano) }

func parseTimeText(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, err
	}
	return t.UTC(), nil
}

// maxCommentLen bounds a comment (bytes); a rater's note, not an essay.
const maxCommentLen = 10_000

// checkRating validates what the store can know without the split.
func checkRating(r *Rating) error {
	for _, f := range []struct{ name, v string }{{"split", r.Split}, {"item", r.Item}, {"annotator", r.Annotator}} {
		if err := checkID(f.v); err != nil {
			return fmt.Errorf("%s %v", f.name, err)
		}
	}
	for _, d := range Dims {
		if v := r.Scores[d]; v != NoScore && (v < 0 || v > 100) {
			return fmt.Errorf("%s is %d; scores are 0–100", d, v)
		}
	}
	if len(r.Comment) > maxCommentLen {
		return fmt.Errorf("the comment is longer than %d bytes", maxCommentLen)
	}
	return nil
}

func nullScore(v int) sql.NullInt64 {
	if v == NoScore {
		return sql.NullInt64{}
	}
	return sql.NullInt64{Int64: int64(v), Valid: true}
}

const upsertSQL = `INSERT INTO ratings
	(split, split_digest, item_id, annotator, background_consistency, rule_obey, visual_quality, reasoning,
	 flagged, comment, created_at, updated_at)
	VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
	ON CONFLICT (split, split_digest, item_id, annotator) DO UPDATE SET
	 background_consistency = excluded.background_consistency,
	 rule_obey = excluded.rule_obey,
	 visual_quality = excluded.visual_quality,
	 reasoning = excluded.reasoning,
	 flagged = excluded.flagged,
	 comment = excluded.comment,
	 updated_at = excluded.updated_at`

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func upsertArgs(r *Rating) []any {
	return []any{r.Split, r.SplitDigest, r.Item, r.Annotator,
		nullScore(r.Scores[0]), nullScore(r.Scores[1]), nullScore(r.Scores[2]), nullScore(r.Scores[3]),
		boolInt(r.Flagged), r.Comment, timeText(r.Created), timeText(r.Updated)}
}

// Save stores r (insert or replace), stamping Updated with the current time
// and keeping Created of an existing row, and appends its revision in the
// same transaction. It returns the stored rating only after the
// transaction committed: a nil error means the rating is on disk. Check the
// scores against the item's track first (Split.CheckRating); the store
// itself only knows they lie in 0–100.
func (s *Store) Save(ctx context.Context, r Rating) (Rating, error) {
	if err := checkRating(&r); err != nil {
		return Rating{}, fmt.Errorf("save rating: %w", err)
	}
	now := s.now().UTC()
	r.Created, r.Updated = now, now
	err := s.write(ctx, func(tx *sql.Tx) error {
		old, found, err := s.lockedRating(ctx, tx, r.key())
		if err != nil {
			return err
		}
		if found {
			r.Created = old.Created
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind(upsertSQL), upsertArgs(&r)...); err != nil {
			return err
		}
		return s.addRevision(ctx, tx, ActionSave, now, r.key(), oldOf(old, found), &r)
	})
	if err != nil {
		return Rating{}, fmt.Errorf("save rating of %s by %s: %w", r.Item, r.Annotator, err)
	}
	return r, nil
}

// write runs fn in a write transaction and commits it; errors come back
// explained.
func (s *Store) write(ctx context.Context, fn func(tx *sql.Tx) error) error {
	tx, err := s.beginWrite(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback()
	if err := fn(tx); err != nil {
		return s.explain(err)
	}
	return s.explain(tx.Commit())
}

// lockedRating reads the rating with key inside tx, first taking the
// dialect's per-rating lock.
func (s *Store) lockedRating(ctx context.Context, tx *sql.Tx, k ratingKey) (Rating, bool, error) {
	if s.d.lockRating != nil {
		if err := s.d.lockRating(ctx, tx, k.String()); err != nil {
			return Rating{}, false, err
		}
	}
	old, err := scanRating(tx.QueryRowContext(ctx, s.d.rebind(selectSQL+" WHERE "+keyWhere), k.args()...))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, false, nil
	}
	return old, err == nil, err
}

const selectSQL = `SELECT split, split_digest, item_id, annotator, background_consistency, rule_obey, visual_quality,
	reasoning, flagged, comment, created_at, updated_at FROM ratings`

type rowScanner interface{ Scan(dest ...any) error }

func scanRating(sc rowScanner) (Rating, error) {
	var r Rating
	var sc4 [NumDims]sql.NullInt64
	var created, updated string
	var flagged int
	if err := sc.Scan(&r.Split, &r.SplitDigest, &r.Item, &r.Annotator, &sc4[0], &sc4[1], &sc4[2], &sc4[3],
		&flagged, &r.Comment, &created, &updated); err != nil {
		return Rating{}, err
	}
	r.Flagged = flagged != 0
	for d, v := range sc4 {
		r.Scores[d] = NoScore
		if v.Valid {
			r.Scores[d] = int(v.Int64)
		}
	}
	var err error
	if r.Created, err = parseTimeText(created); err != nil {
		return Rating{}, fmt.Errorf("rating of %s by %s: created_at: %w", r.Item, r.Annotator, err)
	}
	if r.Updated, err = parseTimeText(updated); err != nil {
		return Rating{}, fmt.Errorf("rating of %s by %s: updated_at: %w", r.Item, r.Annotator, err)
	}
	return r, nil
}

// Get returns one rating by the split's name, or ErrNotFound. Where
// several identities of the split hold one, it is the one updated last; to
// read one identity's, use List with Query.Digest.
func (s *Store) Get(ctx context.Context, split, item, annotator string) (Rating, error) {
	r, err := scanRating(s.db.QueryRowContext(ctx, s.d.rebind(selectSQL+
		" WHERE split = ? AND item_id = ? AND annotator = ? ORDER BY updated_at DESC, split_digest LIMIT 1"),
		split, item, annotator))
	if errors.Is(err, sql.ErrNoRows) {
		return Rating{}, ErrNotFound
	}
	if err != nil {
		return Rating{}, fmt.Errorf("read rating of %s by %s: %w", item, annotator, s.explain(err))
	}
	return r, nil
}

// Query selects ratings; empty fields match everything.
type Query struct {
	Split string
	// Digest selects one identity of the split (Split.Digest): its ratings
	// and those not yet bound to any identity.
	Digest      string
	Annotator   string
	Item        string
	FlaggedOnly bool
}

// where is q's condition on the columns ratings and revisions share,
// without FlaggedOnly.
func (q Query) where() (where []string, args []any) {
	for _, c := range []struct{ col, v string }{{"split", q.Split}, {"annotator", q.Annotator}, {"item_id", q.Item}} {
		if c.v != "" {
			where = append(where, c.col+" = ?")
			args = append(args, c.v)
		}
	}
	if q.Digest != "" {
		where = append(where, "split_digest IN (?, '')")
		args = append(args, q.Digest)
	}
	return where, args
}

// List returns the ratings matching q, ordered by split, annotator, item.
func (s *Store) List(ctx context.Context, q Query) ([]Rating, error) {
	where, args := q.where()
	if q.FlaggedOnly {
		where = append(where, "flagged = 1")
	}
	query := selectSQL
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY split, annotator, item_id, split_digest"
	rows, err := s.db.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("list ratings: %w", s.explain(err))
	}
	defer rows.Close()
	var rs []Rating
	for rows.Next() {
		r, err := scanRating(rows)
		if err != nil {
			return nil, fmt.Errorf("list ratings: %w", s.explain(err))
		}
		rs = append(rs, r)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list ratings: %w", s.explain(err))
	}
	return rs, nil
}

// Delete removes one rating of the split's identity digest, recording its
// revision; deleting a missing rating is not an error and records nothing.
func (s *Store) Delete(ctx context.Context, split, digest, item, annotator string) error {
	k := ratingKey{split, digest, item, annotator}
	err := s.write(ctx, func(tx *sql.Tx) error {
		old, found, err := s.lockedRating(ctx, tx, k)
		if err != nil || !found {
			return err
		}
		if _, err := tx.ExecContext(ctx, s.d.rebind("DELETE FROM ratings WHERE "+keyWhere), k.args()...); err != nil {
			return err
		}
		return s.addRevision(ctx, tx, ActionDelete, s.now().UTC(), k, &old, nil)
	})
	if err != nil {
		return fmt.Errorf("delete rating of %s by %s: %w", item, annotator, err)
	}
	return nil
}

// Annotators lists who has rated anything in split, sorted.
func (s *Store) Annotators(ctx context.Context, split string) ([]string, error) {
	rows, err := s.db.QueryContext(ctx, s.d.rebind("SELECT DISTINCT annotator FROM ratings WHERE split = ? ORDER BY annotator"), split)
	if err != nil {
		return nil, fmt.Errorf("list annotators: %w", s.explain(err))
	}
	defer rows.Close()
	var names []string
	for rows.Next() {
		var n string
		if err := rows.Scan(&n); err != nil {
			return nil, fmt.Errorf("list annotators: %w", err)
		}
		names = append(names, n)
	}
	return names, rows.Err()
}

// TrackProgress counts one track's items for one annotator.
type TrackProgress struct {
	Total   int // items on the track
	Rated   int // items with all four dimensions scored
	Partial int // items with some but not all dimensions scored
	Flagged int
}

// RaterProgress is an annotator's progress through a split (not a
// progress.Report: it counts items rated, not work done).
type RaterProgress struct {
	Process, Result TrackProgress
}

// Total is the sum over both tracks.
func (p RaterProgress) Total() TrackProgress {
	return TrackProgress{
		Total:   p.Process.Total + p.Result.Total,
		Rated:   p.Process.Rated + p.Result.Rated,
		Partial: p.Process.Partial + p.Result.Partial,
		Flagged: p.Process.Flagged + p.Result.Flagged,
	}
}

// RaterProgressOf computes progress from an annotator's ratings of sp; ratings of
// items not in sp are ignored.
func RaterProgressOf(sp *Split, ratings []Rating) RaterProgress {
	var p RaterProgress
	byItem := make(map[string]*Rating, len(ratings))
	for i := range ratings {
		byItem[ratings[i].Item] = &ratings[i]
	}
	for i := range sp.Items {
		it := &sp.Items[i]
		tp := &p.Result
		if it.Track == TrackProcess {
			tp = &p.Process
		}
		tp.Total++
		r, ok := byItem[it.ID]
		if !ok {
			continue
		}
		switch {
		case r.Scores.Complete():
			tp.Rated++
		case r.Scores.Any():
			tp.Partial++
		}
		if r.Flagged {
			tp.Flagged++
		}
	}
	return p
}

// Ratings returns annotator's ratings of sp (of its identity) keyed by item
// id — what a rating pane loads once when it opens a split. On a writable
// store it first binds sp (BindSplit), not reporting a change of items:
// call BindSplit for that.
func (s *Store) Ratings(ctx context.Context, sp *Split, annotator string) (map[string]Rating, error) {
	q, err := s.splitQuery(ctx, sp)
	if err != nil {
		return nil, err
	}
	q.Annotator = annotator
	rs, err := s.List(ctx, q)
	if err != nil {
		return nil, err
	}
	return byItem(rs), nil
}

// splitQuery binds sp on a writable store and selects its identity.
func (s *Store) splitQuery(ctx context.Context, sp *Split) (Query, error) {
	digest, err := sp.Digest()
	if err != nil {
		return Query{}, err
	}
	if !s.readOnly {
		var changed *SplitChangedError
		if err := s.BindSplit(ctx, sp); err != nil && !errors.As(err, &changed) {
			return Query{}, err
		}
	}
	return Query{Split: sp.Name, Digest: digest}, nil
}

// RaterProgress returns annotator's progress through sp.
func (s *Store) RaterProgress(ctx context.Context, sp *Split, annotator string) (RaterProgress, error) {
	q, err := s.splitQuery(ctx, sp)
	if err != nil {
		return RaterProgress{}, err
	}
	q.Annotator = annotator
	rs, err := s.List(ctx, q)
	if err != nil {
		return RaterProgress{}, err
	}
	return RaterProgressOf(sp, rs), nil
}

// NextUnrated returns the position in order (indices into sp.Items, as from
// Split.Order) of the first item after position from, wrapping around,
// that annotator has not fully rated. ok is false when all are rated. Use
// from = -1 to resume from the start.
func (s *Store) NextUnrated(ctx context.Context, sp *Split, annotator string, order []int, from int) (pos int, ok bool, err error) {
	rated, err := s.Ratings(ctx, sp, annotator)
	if err != nil {
		return 0, false, err
	}
	pos, ok = NextUnrated(sp, rated, order, from)
	return pos, ok, nil
}

// NextUnrated is Store.NextUnrated over ratings already loaded.
func NextUnrated(sp *Split, rated map[string]Rating, order []int, from int) (int, bool) {
	n := len(order)
	for k := 1; k <= n; k++ {
		pos := ((from+k)%n + n) % n
		i := order[pos]
		if i < 0 || i >= len(sp.Items) {
			continue
		}
		if r, ok := rated[sp.Items[i].ID]; !ok || !r.Scores.Complete() {
			return pos, true
		}
	}
	return 0, false
}

// ImportResult counts what an import did.
type ImportResult struct {
	Added    int // new ratings
	Replaced int // older ratings in the store replaced by newer ones
	Kept     int // the store already held this rating, or a newer one
}

// Import stores ratings read from an export, all in one transaction: either
// every rating is applied or, on an error, none. Per (split, item,
// annotator) the newer rating wins, so importing an old export never
// overwrites later work. Updated is kept from the file (zero means now).
func (s *Store) Import(ctx context.Context, ratings []Rating) (ImportResult, error) {
	var res ImportResult
	for i := range ratings {
		if err := checkRating(&ratings[i]); err != nil {
			return ImportResult{}, fmt.Errorf("import ratings: %w", err)
		}
	}
	now := s.now().UTC()
	err := s.write(ctx, func(tx *sql.Tx) error {
		for _, r := range ratings {
			if r.Updated.IsZero() {
				r.Updated = now
			}
			r.Updated = r.Updated.UTC()
			old, found, err := s.lockedRating(ctx, tx, r.key())
			switch {
			case err != nil:
				return err
			case !found:
				r.Created = r.Updated
				res.Added++
			case !old.Updated.Before(r.Updated):
				res.Kept++
				continue
			default:
				r.Created = old.Created
				res.Replaced++
			}
			if _, err := tx.ExecContext(ctx, s.d.rebind(upsertSQL), upsertArgs(&r)...); err != nil {
				return fmt.Errorf("rating of %s by %s: %w", r.Item, r.Annotator, err)
			}
			if err := s.addRevision(ctx, tx, ActionImport, now, r.key(), oldOf(old, found), &r); err != nil {
				return err
			}
		}
		return nil
	})
	if err != nil {
		return ImportResult{}, fmt.Errorf("import ratings: %w", err)
	}
	return res, nil
}
