package vigor

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io/fs"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"modernc.org/sqlite"

	"github.com/jigbench/jigbench/core/fsutil"
)

// busyTimeout is how long a writer waits for another one (another window,
// an import) before giving up. Readers never wait: in WAL mode they read
// the last committed state while a write is under way.
const busyTimeout = 10 * time.Second

// SQLite's primary result codes that the store explains.
const (
	sqliteBusy     = 5
	sqliteReadOnly = 8
	sqliteCorrupt  = 11
	sqliteFull     = 13
	sqliteCantOpen = 14
	sqliteNotADB   = 26
)

// OpenStore opens the ratings database at path for reading and writing,
// creating it if needed. It migrates the schema only when it is behind,
// and refuses a store that fails SQLite's quick check, so nothing is
// written into a damaged file.
func OpenStore(ctx context.Context, path string) (*Store, error) {
	return openStore(ctx, path, schemaVersion)
}

// OpenStoreReadOnly opens an existing ratings database for reading only
// (export, agreement): it never takes the write lock, so it works while
// another process imports, and it works on read-only media. It never
// migrates either: a store whose schema is behind is refused, to be opened
// read-write once (docs/formats.md, "Ratings store").
func OpenStoreReadOnly(ctx context.Context, path string) (*Store, error) {
	if err := checkStorePath(path, false); err != nil {
		return nil, err
	}
	v, err := storeVersion(ctx, path)
	if err != nil {
		return nil, err
	}
	if v < schemaVersion {
		return nil, behindError(path, v)
	}
	s, err := openReader(path)
	if err != nil {
		return nil, err
	}
	if err := s.checkVersion(ctx, schemaVersion, false); err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// behindError refuses to read a store whose schema is older than this
// build's: a reader must not migrate it, and the old layout is not read.
func behindError(where string, v int) error {
	return fmt.Errorf("the ratings store at %s is at schema version %d, older than this jigbench's %d; "+
		"open it read-write once to upgrade it", where, v, schemaVersion)
}

// storeVersion reads the schema version of the store at path without
// writing anything.
func storeVersion(ctx context.Context, path string) (int, error) {
	s, err := openReader(path)
	if err != nil {
		return 0, err
	}
	defer s.Close()
	var v int
	if err := s.db.QueryRowContext(ctx, "PRAGMA user_version").Scan(&v); err != nil {
		return 0, fmt.Errorf("open ratings store %s: %w", path, s.explain(err))
	}
	if v == 0 {
		return 0, fmt.Errorf("%s is not a jigbench ratings store (it has no ratings table)", path)
	}
	return v, nil
}

// openReader opens path with SQLite's read-only mode. On read-only media
// SQLite cannot create the WAL index beside the file, so the store is
// opened as immutable there: nobody can be writing to it.
func openReader(path string) (*Store, error) {
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, fmt.Errorf("open ratings store %s: %w", path, err)
	}
	u := url.URL{Scheme: "file", Path: filepath.ToSlash(abs)}
	q := url.Values{}
	q.Set("mode", "ro")
	if !writableDir(filepath.Dir(abs)) {
		q.Set("immutable", "1")
	}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "query_only(1)")
	u.RawQuery = q.Encode()
	db, err := sql.Open("sqlite", u.String())
	if err != nil {
		return nil, fmt.Errorf("open ratings store %s: %w", path, err)
	}
	return &Store{db: db, d: sqliteDialect, path: path, now: time.Now, readOnly: true}, nil
}

func openStore(ctx context.Context, path string, version int) (*Store, error) {
	if err := checkStorePath(path, true); err != nil {
		return nil, err
	}
	if err := os.MkdirAll(filepath.Dir(path), 0o700); err != nil {
		return nil, fmt.Errorf("open ratings store %s: %w", path, readOnlyHint(err))
	}
	if !writableDir(filepath.Dir(path)) {
		return nil, fmt.Errorf("ratings store %s is on read-only media: it can be read (vigor export, "+
			"vigor agree --store) but not written", path)
	}
	// The pragmas run on every new connection of the pool.
	q := url.Values{}
	q.Add("_pragma", fmt.Sprintf("busy_timeout(%d)", busyTimeout.Milliseconds()))
	q.Add("_pragma", "journal_mode(WAL)")
	q.Add("_pragma", "synchronous(FULL)")
	q.Add("_pragma", "foreign_keys(1)")
	q.Set("_txlock", "immediate") // take the write lock at BEGIN: no upgrade deadlocks
	db, err := sql.Open("sqlite", path+"?"+q.Encode())
	if err != nil {
		return nil, fmt.Errorf("open ratings store %s: %w", path, err)
	}
	s := &Store{db: db, d: sqliteDialect, path: path, now: time.Now}
	if err := s.checkPragmas(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open ratings store %s: %w", path, s.explain(err))
	}
	if err := s.checkVersion(ctx, version, true); err != nil {
		db.Close()
		return nil, err
	}
	if err := s.quickCheck(ctx); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// checkVersion reads the schema version without a transaction and, when
// migrate is set and the store is behind, migrates it (the only time an
// open waits for the write lock).
func (s *Store) checkVersion(ctx context.Context, version int, migrateBehind bool) error {
	v, err := s.d.readVersion(ctx, s.db)
	if err != nil {
		return fmt.Errorf("open ratings store %s: %w", s.path, s.explain(err))
	}
	switch {
	case v > len(migrations):
		return fmt.Errorf("ratings store %s has schema version %d, newer than this jigbench knows (%d); "+
			"use a newer jigbench", s.path, v, len(migrations))
	case v >= version:
		return nil
	case !migrateBehind:
		return behindError(s.path, v)
	}
	if err := migrate(ctx, s.db, s.d, version); err != nil {
		if isCode(err, sqliteBusy) {
			return fmt.Errorf("open ratings store %s: waited %v for another process writing to it "+
				"to finish before updating its schema; try again when it has", s.path, busyTimeout)
		}
		return fmt.Errorf("open ratings store %s: %w", s.path, s.explain(err))
	}
	return nil
}

// quickCheck refuses a damaged store before anything is written into it.
func (s *Store) quickCheck(ctx context.Context) error {
	var msg string
	if err := s.db.QueryRowContext(ctx, "PRAGMA quick_check(1)").Scan(&msg); err != nil {
		return fmt.Errorf("open ratings store %s: %w", s.path, s.explain(err))
	}
	if msg != "ok" {
		return s.damagedError(msg)
	}
	return nil
}

func (s *Store) damagedError(detail string) error {
	return fmt.Errorf("ratings store %s is damaged (%s); nothing was written to it. To recover: keep a copy of "+
		"the file, then `sqlite3 %s .recover | sqlite3 recovered.db` and open recovered.db, or import your "+
		"last `jigbench vigor export`", s.path, detail, s.path)
}

// beginWrite starts a write transaction, refusing at once on a store that
// is read-only or was found damaged.
func (s *Store) beginWrite(ctx context.Context) (*sql.Tx, error) {
	if s.readOnly {
		return nil, fmt.Errorf("ratings store %s is open read-only", s.path)
	}
	if p := s.damaged.Load(); p != nil {
		return nil, *p
	}
	tx, err := s.db.BeginTx(ctx, nil)
	if err != nil {
		return nil, s.explain(err)
	}
	return tx, nil
}

// explain turns SQLite's error codes into what a person can act on, and
// remembers corruption so that no later write goes into the file.
func (s *Store) explain(err error) error {
	if err != nil && s.d == postgresDialect {
		return s.redact(s.explainServer(err))
	}
	switch {
	case err == nil:
		return nil
	case isCode(err, sqliteCorrupt), isCode(err, sqliteNotADB):
		d := s.damagedError(err.Error())
		s.damaged.CompareAndSwap(nil, &d)
		return d
	case isCode(err, sqliteBusy):
		return fmt.Errorf("another process kept the ratings store %s locked for writing for %v (an import?); "+
			"try again when it has finished", s.path, busyTimeout)
	case isCode(err, sqliteReadOnly):
		return fmt.Errorf("ratings store %s is read-only: %w", s.path, err)
	case isCode(err, sqliteFull):
		return fmt.Errorf("the disk holding ratings store %s is full: %w", s.path, err)
	}
	return err
}

func isCode(err error, code int) bool {
	var se *sqlite.Error
	return errors.As(err, &se) && se.Code()&0xff == code
}

// checkStorePath refuses a path SQLite would misread or hang on: URI
// characters, and anything but a regular file (a FIFO blocks the open).
func checkStorePath(path string, mayCreate bool) error {
	if strings.ContainsAny(path, "?#") {
		return fmt.Errorf("open ratings store %s: the path must not contain '?' or '#'", path)
	}
	fi, err := os.Stat(path)
	switch {
	case errors.Is(err, fs.ErrNotExist) && mayCreate:
		return nil
	case errors.Is(err, fs.ErrNotExist):
		return fmt.Errorf("there is no ratings store at %s", path)
	case err != nil:
		return fmt.Errorf("open ratings store %s: %w", path, fsutil.WithoutPath(err))
	case !fi.Mode().IsRegular():
		return fmt.Errorf("ratings store %s is %s, not a database file", path, fsutil.Kind(fi.Mode()))
	}
	return nil
}

// writableDir reports whether files can be created in dir (false on
// read-only media or without permission).
func writableDir(dir string) bool {
	f, err := os.CreateTemp(dir, ".jigbench-write-test-*")
	if err != nil {
		return false
	}
	name := f.Name()
	f.Close()
	os.Remove(name)
	return true
}

func readOnlyHint(err error) error {
	if errors.Is(err, syscall.EROFS) {
		return errors.New("the file system is read-only")
	}
	return fsutil.WithoutPath(err)
}
