package vigor

import (
	"context"
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"io"
	"net"
	"net/url"
	"os"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	_ "github.com/jackc/pgx/v5/stdlib" // the PostgreSQL driver, registered as "pgx"
)

// StoreEnv names the environment variable that chooses the ratings store
// when no --db is given: a SQLite file or a postgres:// URL.
const StoreEnv = "JIGBENCH_DB"

// StoreLocation is where the store is: flag if given, else $JIGBENCH_DB,
// else the app's SQLite file (DefaultStorePath).
func StoreLocation(flag string) (string, error) { return StoreLocationFor(flag, "") }

// StoreLocationFor is StoreLocation with the app's setting (its Ratings
// store dialog) between $JIGBENCH_DB and the default: flag, environment,
// setting, default, the first that is given.
func StoreLocationFor(flag, setting string) (string, error) {
	if flag != "" {
		return flag, nil
	}
	if env := strings.TrimSpace(os.Getenv(StoreEnv)); env != "" {
		return env, nil
	}
	if setting = strings.TrimSpace(setting); setting != "" {
		return setting, nil
	}
	return DefaultStorePath()
}

// RedactLocation is location fit to show: a server URL without its
// password, a SQLite path as it is.
func RedactLocation(location string) string {
	if !IsServerURL(location) {
		return location
	}
	u, err := url.Parse(location)
	if err != nil {
		return "a malformed server URL"
	}
	return u.Redacted()
}

// IsServerURL reports whether location names a PostgreSQL server rather
// than a SQLite file.
func IsServerURL(location string) bool {
	l := strings.ToLower(location)
	return strings.HasPrefix(l, "postgres://") || strings.HasPrefix(l, "postgresql://")
}

// OpenStoreAt opens the store at location (StoreLocation): a PostgreSQL
// server for a postgres:// URL, else a SQLite file. readOnly opens a SQLite
// file without ever taking its write lock (OpenStoreReadOnly); a server
// store is opened for reading only in the sense that this Store refuses
// writes — the server keeps readers and writers apart itself. A read-only
// open never migrates: a store whose schema is behind is refused.
func OpenStoreAt(ctx context.Context, location string, readOnly bool) (*Store, error) {
	switch {
	case IsServerURL(location):
		return openPostgres(ctx, location, readOnly)
	case readOnly:
		return OpenStoreReadOnly(ctx, location)
	}
	return OpenStore(ctx, location)
}

// openPostgres connects to the server at rawURL and, unless readOnly,
// migrates its schema when it is behind (migrations hold an advisory lock,
// so several laptops starting at once apply each step once).
func openPostgres(ctx context.Context, rawURL string, readOnly bool) (*Store, error) {
	u, err := url.Parse(rawURL)
	if err != nil {
		// url's errors quote the whole URL, password and all.
		return nil, errors.New("the ratings server URL is malformed; want postgres://user[:password]@host[:port]/database")
	}
	secret, _ := u.User.Password()
	s := &Store{d: postgresDialect, path: u.Redacted(), secret: secret, now: time.Now, readOnly: readOnly}
	db, err := sql.Open("pgx", rawURL)
	if err != nil {
		return nil, fmt.Errorf("open ratings server %s: %w", s.path, s.explain(err))
	}
	// A few connections serve one laptop; idle ones are dropped so a
	// restarted server is met with fresh ones.
	db.SetMaxOpenConns(4)
	db.SetConnMaxIdleTime(time.Minute)
	s.db = db
	if err := db.PingContext(ctx); err != nil {
		db.Close()
		return nil, fmt.Errorf("open ratings store: %w", s.explain(err))
	}
	if err := s.checkVersion(ctx, schemaVersion, !readOnly); err != nil {
		db.Close()
		return nil, err
	}
	return s, nil
}

// explainServer turns a PostgreSQL failure into what a person can act on.
func (s *Store) explainServer(err error) error {
	var pe *pgconn.PgError
	switch {
	case errors.As(err, &pe) && (strings.HasPrefix(pe.Code, "08") || strings.HasPrefix(pe.Code, "57P")):
		return fmt.Errorf("the ratings server %s went away (%s); the change was not confirmed and nothing "+
			"confirmed before is lost: try again when it is back", s.path, pe.Message)
	case errors.As(err, &pe) && pe.Code == "28P01":
		return fmt.Errorf("the ratings server %s refused the password for its user", s.path)
	case isConnectionError(err):
		return fmt.Errorf("the ratings server %s is not reachable (%v); the change was not confirmed and "+
			"nothing confirmed before is lost: try again when it is back", s.path, err)
	}
	return err
}

func isConnectionError(err error) bool {
	var ne net.Error
	var ce *pgconn.ConnectError
	return errors.As(err, &ce) || errors.As(err, &ne) || errors.Is(err, driver.ErrBadConn) ||
		errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, io.EOF) || pgconn.SafeToRetry(err) ||
		strings.Contains(err.Error(), "conn closed")
}

// redactedError is err with the store's password cut out of its text.
type redactedError struct {
	msg string
	err error
}

func (e *redactedError) Error() string { return e.msg }
func (e *redactedError) Unwrap() error { return e.err }

// redact removes the server password from err's text, wherever a driver
// or a wrapper put it.
func (s *Store) redact(err error) error {
	if err == nil || s.secret == "" || !strings.Contains(err.Error(), s.secret) {
		return err
	}
	return &redactedError{msg: strings.ReplaceAll(err.Error(), s.secret, "xxxxx"), err: err}
}
