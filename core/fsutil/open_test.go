package fsutil

import (
	"errors"
	"fmt"
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

func TestReadFileLimitAndBlockingReads(t *testing.T) {
	path := filepath.Join(t.TempDir(), "x.json")
	if err := os.WriteFile(path, []byte("0123456789"), 0o644); err != nil {
		t.Fatal(err)
	}
	if b, err := ReadFile(path, 10); err != nil || string(b) != "0123456789" {
		t.Fatalf("ReadFile at the limit = %q, %v", b, err)
	}
	_, err := ReadFile(path, 9)
	if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "larger than 9 bytes") {
		t.Fatalf("ReadFile over the limit = %v", err)
	}
	f, err := Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	buf := make([]byte, 4)
	if n, err := f.Read(buf); n != 4 || err != nil {
		t.Fatalf("read after Open = %d, %v", n, err)
	}
}

func TestSize(t *testing.T) {
	for n, want := range map[int64]string{9: "9 bytes", 1 << 10: "1 KiB", 100 << 20: "100 MiB", 2 << 30: "2 GiB", 1500: "1500 bytes"} {
		if got := Size(n); got != want {
			t.Errorf("Size(%d) = %q, want %q", n, got, want)
		}
	}
}

func TestCheckUTF8(t *testing.T) {
	for in, want := range map[string]string{
		`{"id": "a"}`:                         "",
		"{\"id\": \"é\"}\n{\"id\": \"\xff\"}": "line 2, column 9: byte 0xff is not valid UTF-8",
		"ab\xc3":                              "line 1, column 3: byte 0xc3 is not valid UTF-8",
		"\xef\xbb\xbf{}":                      "",
	} {
		err := CheckUTF8([]byte(in))
		if got := fmt.Sprint(err); (want == "" && err != nil) || (want != "" && got != want) {
			t.Errorf("CheckUTF8(%q) = %v, want %q", in, err, want)
		}
	}
	if got := string(TrimBOM([]byte("\xef\xbb\xbf{}"))); got != "{}" {
		t.Errorf("TrimBOM = %q", got)
	}
}
