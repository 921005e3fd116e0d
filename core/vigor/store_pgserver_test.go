package vigor

import (
	"context"
	"os"
	"testing"

	"github.com/jigbench/jigbench/core/vigor/pgtest"
)

// The PostgreSQL store tests run on pgtest's throwaway server.

func TestMain(m *testing.M) {
	code := m.Run()
	pgtest.StopShared()
	os.Exit(code)
}

// openPostgresTestStore opens a store in a fresh database of the shared server.
func openPostgresTestStore(t *testing.T) *Store {
	t.Helper()
	srv := pgtest.Shared(t)
	st, err := OpenStoreAt(context.Background(), srv.FreshDB(t), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { st.Close() })
	return st
}

// TestPostgresServer starts the throwaway server and logs its start lines
// (make test runs it verbosely, so CI logs show them), then opens a store.
func TestPostgresServer(t *testing.T) {
	srv := pgtest.Shared(t)
	for _, l := range srv.StartLines() {
		t.Logf("postgres: %s", l)
	}
	st := openPostgresTestStore(t)
	v, err := st.d.readVersion(context.Background(), st.db)
	if err != nil || v != schemaVersion {
		t.Errorf("schema version %d (%v), want %d", v, err, schemaVersion)
	}
}
