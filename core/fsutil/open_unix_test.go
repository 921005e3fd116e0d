//go:build unix

package fsutil

import (
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// withDeadline fails the test instead of hanging when f blocks.
func withDeadline(t *testing.T, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() { defer close(done); f() }()
	select {
	case <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("blocked: opening did not return")
	}
}

func TestOpenRefusesWhatIsNotAFile(t *testing.T) {
	dir := t.TempDir()
	fifo := filepath.Join(dir, "answers.jsonl")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Skipf("cannot make a FIFO here: %v", err)
	}
	loop := filepath.Join(dir, "loop")
	if err := os.Symlink(loop, loop); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ path, want string }{
		{fifo, "is a FIFO (named pipe), not a regular file"},
		{dir, "is a folder, not a regular file"},
		{"/dev/null", "is a character device, not a regular file"},
		{loop, "too many levels of symbolic links"},
		{filepath.Join(dir, "missing"), "no such file"},
	} {
		withDeadline(t, func() {
			f, err := Open(c.path)
			if err == nil {
				f.Close()
				t.Errorf("Open(%s) = nil error", c.path)
				return
			}
			if !strings.Contains(err.Error(), c.path) || !strings.Contains(err.Error(), c.want) {
				t.Errorf("Open(%s) = %q, want the path and %q", c.path, err, c.want)
			}
		})
		withDeadline(t, func() {
			if _, err := ReadFile(c.path, 1<<20); err == nil {
				t.Errorf("ReadFile(%s) = nil error", c.path)
			}
		})
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		t.Fatal(err)
	}
	defer root.Close()
	withDeadline(t, func() {
		if _, err := ReadFileIn(root, "answers.jsonl", fifo, 1<<20); err == nil || !strings.Contains(err.Error(), "FIFO") {
			t.Errorf("ReadFileIn(FIFO) = %v, want a FIFO refusal", err)
		}
	})
}
