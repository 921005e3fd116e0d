package vigor

import (
	"cmp"
	"context"
	"crypto/sha256"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
)

// The identity of a split (docs/formats.md, "Split identity") is its name
// plus the SHA-256 of its canonical item list: ratings belong to it, so two
// splits that share a name never share ratings.

// identityFormat opens the canonical text, so a later definition cannot
// collide with this one.
const identityFormat = "jigbench.vigor-split-identity/v1\n"

// Digest is the hex SHA-256 of the split's canonical item list: per item,
// sorted by id, its id, track, instruction, ground-truth text, frame count
// of a video, and the SHA-256 of every file it names. It reads the files
// the first time (Load does that) and remembers the result; the first call
// is not safe to make concurrently with another.
func (s *Split) Digest() (string, error) {
	if s.digest != "" {
		return s.digest, nil
	}
	if s.Dir == "" {
		return "", fmt.Errorf("split %s has no folder to read its files from", s.Name)
	}
	root, err := os.OpenRoot(s.Dir)
	if err != nil {
		return "", fmt.Errorf("split %s: %w", s.Name, err)
	}
	defer root.Close()
	d, err := s.canonicalDigest(func(p string) (string, error) {
		f, err := fsutil.OpenIn(root, filepath.FromSlash(p), filepath.Join(s.Dir, filepath.FromSlash(p)))
		if err != nil {
			return "", err
		}
		defer f.Close()
		h := sha256.New()
		if _, err := io.Copy(h, f); err != nil {
			return "", fmt.Errorf("read %s: %w", filepath.Join(s.Dir, p), err)
		}
		return hex.EncodeToString(h.Sum(nil)), nil
	})
	if err != nil {
		return "", fmt.Errorf("the identity of split %s: %w", s.Name, err)
	}
	s.digest = d
	return d, nil
}

// canonicalDigest hashes the canonical text, one "key value" line per
// fact (strings as JSON), the files by fileDigest.
func (s *Split) canonicalDigest(fileDigest func(path string) (string, error)) (string, error) {
	items := make([]*Item, len(s.Items))
	for i := range s.Items {
		items[i] = &s.Items[i]
	}
	slices.SortFunc(items, func(a, b *Item) int { return cmp.Compare(a.ID, b.ID) })
	var b strings.Builder
	b.WriteString(identityFormat)
	line := func(key string, v any) {
		j, _ := json.Marshal(v)
		b.WriteString(key + " " + string(j) + "\n")
	}
	for _, it := range items {
		line("item", it.ID)
		line("track", it.Track)
		line("instruction", it.Instruction)
		line("gt_text", it.GTText)
		if it.Video != "" {
			line("frames_from_video", s.VideoFrameCount(it))
		}
		for _, p := range it.Paths() {
			d, err := fileDigest(p.Path)
			if err != nil {
				return "", fmt.Errorf("item %s: %s: %w", it.ID, p.Field, err)
			}
			line(p.Field, d)
		}
	}
	sum := sha256.Sum256([]byte(b.String()))
	return hex.EncodeToString(sum[:]), nil
}

// SplitChangedError says that the store knew other item lists under the
// split's name: the split's items changed since it was rated (or another
// split took the name). Its ratings are kept apart from the earlier ones;
// it is a warning to show, not a failure.
type SplitChangedError struct {
	Name   string
	Digest string   // the split as opened now
	Others []string // the earlier item lists under the name, first seen first
}

func (e *SplitChangedError) Error() string {
	short := make([]string, len(e.Others))
	for i, d := range e.Others {
		short[i] = shortDigest(d)
	}
	return fmt.Sprintf("split %s has other items than when it was rated before (items %s; before: %s); "+
		"ratings of the earlier items are kept apart and not shown here", e.Name, shortDigest(e.Digest), strings.Join(short, ", "))
}

func shortDigest(d string) string { return d[:min(len(d), 12)] }

// BindSplit records sp's identity in the store and attaches to it the
// ratings stored under sp's name without an identity (made before the store
// knew identities: the first split of that name opened claims them). It
// returns a *SplitChangedError when other identities of the name are known.
// Store.Ratings calls it; call it directly to learn about a change.
func (s *Store) BindSplit(ctx context.Context, sp *Split) error {
	digest, err := sp.Digest()
	if err != nil {
		return err
	}
	var others []string
	// Usually the split was opened before and nothing waits to be claimed:
	// then a read answers, and no write lock is taken.
	var known, unbound bool
	err = s.db.QueryRowContext(ctx, s.d.rebind(`SELECT
		EXISTS (SELECT 1 FROM splits WHERE name = ? AND digest = ?),
		EXISTS (SELECT 1 FROM ratings WHERE split = ? AND split_digest = '')
		OR EXISTS (SELECT 1 FROM revisions WHERE split = ? AND split_digest = '')`),
		sp.Name, digest, sp.Name, sp.Name).Scan(&known, &unbound)
	if err != nil {
		return fmt.Errorf("open split %s in the ratings store: %w", sp.Name, s.explain(err))
	}
	if known && !unbound {
		others, err = s.otherDigests(ctx, s.db, sp.Name, digest)
		if err != nil {
			return fmt.Errorf("open split %s in the ratings store: %w", sp.Name, s.explain(err))
		}
		if len(others) > 0 {
			return &SplitChangedError{Name: sp.Name, Digest: digest, Others: others}
		}
		return nil
	}
	err = s.write(ctx, func(tx *sql.Tx) error {
		if _, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO splits (name, digest, first_seen) VALUES (?, ?, ?)
			ON CONFLICT (name, digest) DO NOTHING`), sp.Name, digest, timeText(s.now())); err != nil {
			return err
		}
		for _, table := range []string{"ratings", "revisions"} {
			if _, err := tx.ExecContext(ctx, s.d.rebind("UPDATE "+table+" SET split_digest = ? WHERE split = ? AND split_digest = ''"),
				digest, sp.Name); err != nil {
				return err
			}
		}
		others, err = s.otherDigests(ctx, tx, sp.Name, digest)
		return err
	})
	if err != nil {
		return fmt.Errorf("open split %s in the ratings store: %w", sp.Name, err)
	}
	if len(others) > 0 {
		return &SplitChangedError{Name: sp.Name, Digest: digest, Others: others}
	}
	return nil
}

func (s *Store) otherDigests(ctx context.Context, q interface {
	QueryContext(ctx context.Context, query string, args ...any) (*sql.Rows, error)
}, name, digest string) ([]string, error) {
	rows, err := q.QueryContext(ctx, s.d.rebind("SELECT digest FROM splits WHERE name = ? AND digest <> ? ORDER BY first_seen, digest"),
		name, digest)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var ds []string
	for rows.Next() {
		var d string
		if err := rows.Scan(&d); err != nil {
			return nil, err
		}
		ds = append(ds, d)
	}
	return ds, rows.Err()
}
