package fsutil

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestWriteWithLeavesNothingOnFailure(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "report.json")
	if err := os.WriteFile(path, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	err := WriteWith(path, func(w io.Writer) error {
		io.WriteString(w, "half a rep")
		return errors.New("disk on fire")
	})
	if err == nil || !strings.Contains(err.Error(), "report.json") {
		t.Fatalf("error %v should name the file", err)
	}
	if got, _ := os.ReadFile(path); string(got) != "old" {
		t.Fatalf("the old content was replaced by %q", got)
	}
	if err := WriteWith(path, func(w io.Writer) error { _, err := io.WriteString(w, "new"); return err }); err != nil {
		t.Fatal(err)
	}
	if got, _ := os.ReadFile(path); string(got) != "new" {
		t.Fatalf("content %q", got)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
	if err := WriteFile(filepath.Join(dir, "missing", "x"), nil); err == nil {
		t.Fatal("writing into a missing folder succeeded")
	}
}
