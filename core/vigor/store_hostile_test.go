package vigor

import (
	"bytes"
	"context"
	"database/sql"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// fillStore saves n ratings with long comments, so the file spans many pages.
func fillStore(t *testing.T, path string, n int) {
	t.Helper()
	st, err := OpenStore(context.Background(), path)
	if err != nil {
		t.Fatal(err)
	}
	defer st.Close()
	for i := range n {
		r := Rating{Split: "s", Item: fmt.Sprintf("r-%04d", i), Annotator: "ann", Scores: Scores{1, 0, 1, 1},
			Comment: strings.Repeat(fmt.Sprintf("comment %d ", i), 40)}
		if _, err := st.Save(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

// Readers read while another process writes: opening an up-to-date store,
// read-only or not, takes no lock, and WAL lets reads see the last commit.
func TestStoreReadersDoNotWaitForAWriter(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	fillStore(t, path, 3)

	// A writer in the middle of an import: the write lock held, a row not committed.
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
	if _, err := tx.Exec(`INSERT INTO ratings (split, item_id, annotator, flagged, comment, created_at, updated_at)
		VALUES ('s', 'r-9999', 'ann', 0, '', 'x', 'x')`); err != nil {
		t.Fatal(err)
	}

	for _, open := range []func(context.Context, string) (*Store, error){OpenStoreReadOnly, OpenStore} {
		st, err := open(ctx, path)
		if err != nil {
			t.Fatalf("open while another process writes: %v", err)
		}
		rs, err := st.List(ctx, Query{Split: "s"})
		st.Close()
		if err != nil || len(rs) != 3 {
			t.Fatalf("list while another process writes: %d ratings, %v; want the 3 committed", len(rs), err)
		}
	}
	ro, err := OpenStoreReadOnly(ctx, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.Save(ctx, Rating{Split: "s", Item: "r-1", Annotator: "ann"}); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("Save on a read-only store = %v, want a read-only refusal", err)
	}
}

// A store with garbage pages is refused before anything is written, with
// a way to recover, and the file is left exactly as it was.
func TestStoreRefusesToWriteIntoADamagedFile(t *testing.T) {
	ctx := context.Background()
	path := filepath.Join(t.TempDir(), "ratings.db")
	fillStore(t, path, 200)
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if len(data) < 20*4096 {
		t.Fatalf("store is only %d bytes; want many pages", len(data))
	}
	for p := 5; p < 9; p++ { // four garbage pages inside the file
		for i := p * 4096; i < (p+1)*4096; i++ {
			data[i] = byte(i*7 + 13)
		}
	}
	if err := os.WriteFile(path, data, 0o600); err != nil {
		t.Fatal(err)
	}
	_, err = OpenStore(ctx, path)
	if err == nil || !strings.Contains(err.Error(), "is damaged") || !strings.Contains(err.Error(), ".recover") {
		t.Fatalf("OpenStore on a damaged file = %v, want a refusal that says how to recover", err)
	}
	after, err := os.ReadFile(path)
	if err != nil || !bytes.Equal(after, data) {
		t.Fatalf("refusing the store changed the file (%v)", err)
	}
}

// On read-only media the store can still be read; writing says read-only.
func TestStoreOnReadOnlyMedia(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	if out, err := exec.Command("mount", "-t", "tmpfs", "-o", "size=8m", "jigbench-test", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root): %v %s", err, out)
	}
	defer exec.Command("umount", dir).Run()
	path := filepath.Join(dir, "ratings.db")
	fillStore(t, path, 5)
	if out, err := exec.Command("mount", "-o", "remount,ro", dir).CombinedOutput(); err != nil {
		t.Skipf("cannot remount read-only: %v %s", err, out)
	}
	st, err := OpenStoreReadOnly(ctx, path)
	if err != nil {
		t.Fatalf("read-only open on read-only media: %v", err)
	}
	rs, err := st.List(ctx, Query{Split: "s"})
	st.Close()
	if err != nil || len(rs) != 5 {
		t.Fatalf("list on read-only media: %d ratings, %v", len(rs), err)
	}
	if _, err := OpenStore(ctx, path); err == nil || !strings.Contains(err.Error(), "read-only") {
		t.Errorf("OpenStore on read-only media = %v, want it to say read-only", err)
	}
}

// A FIFO where the store should be is refused, not opened (it would block).
func TestStoreRefusesAFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "ratings.db")
	if err := mkfifo(path); err != nil {
		t.Skipf("cannot make a FIFO: %v", err)
	}
	for _, open := range []func(context.Context, string) (*Store, error){OpenStore, OpenStoreReadOnly} {
		if _, err := open(context.Background(), path); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("open a FIFO = %v, want a refusal naming it", err)
		}
	}
}
