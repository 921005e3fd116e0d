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

func TestCreateCommitStreams(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "manifest.jsonl")
	f, err := Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "a\n")
	if _, err := os.Stat(path); !errors.Is(err, os.ErrNotExist) {
		t.Fatalf("the target exists before Commit: %v", err)
	}
	io.WriteString(f, "b\n")
	if err := f.Commit(); err != nil {
		t.Fatal(err)
	}
	f.Close() // a no-op after Commit
	if got, _ := os.ReadFile(path); string(got) != "a\nb\n" {
		t.Fatalf("content %q", got)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o644 {
		t.Fatalf("mode %v, want 0644", fi.Mode().Perm())
	}
	// Close without Commit: nothing changes, nothing is left behind.
	f, err = Create(path)
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(f, "lost")
	f.Close()
	if got, _ := os.ReadFile(path); string(got) != "a\nb\n" {
		t.Fatalf("an abandoned write changed the file to %q", got)
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Fatalf("temporary files left behind: %v", entries)
	}
}

func TestTempNames(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), TempPattern("split.json"))
	if err != nil {
		t.Fatal(err)
	}
	f.Close()
	if owner, ok := IsTemp(filepath.Base(f.Name())); !ok || owner != "split.json" {
		t.Fatalf("IsTemp(%q) = %q, %v", filepath.Base(f.Name()), owner, ok)
	}
	for _, name := range []string{"split.json", ".hidden", "a.tmp-1", ".tmp-"} {
		if _, ok := IsTemp(name); ok {
			t.Errorf("IsTemp(%q) is true", name)
		}
	}
}

// A character device is written, not replaced; /dev/full says "no space".
func TestDevicesAreWrittenDirectly(t *testing.T) {
	for _, dev := range []string{"/dev/null", "/dev/full"} {
		if fi, err := os.Stat(dev); err != nil || fi.Mode()&os.ModeCharDevice == 0 {
			t.Skipf("%s is not a character device here", dev)
		}
	}
	if err := WriteFile("/dev/null", []byte("x")); err != nil {
		t.Fatalf("/dev/null: %v", err)
	}
	if fi, _ := os.Stat("/dev/null"); fi.Mode()&os.ModeCharDevice == 0 {
		t.Fatal("/dev/null was replaced by a regular file")
	}
	err := WriteFile("/dev/full", []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "no space") || !strings.Contains(err.Error(), "/dev/full") {
		t.Fatalf("/dev/full: error %v, want one naming the file and saying no space", err)
	}
}

func TestStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	saved := os.Stdout
	os.Stdout = w
	err = WriteFile(Stdout, []byte("to standard output\n"))
	os.Stdout = saved
	w.Close()
	if err != nil {
		t.Fatal(err)
	}
	got, _ := io.ReadAll(r)
	if string(got) != "to standard output\n" {
		t.Fatalf("standard output got %q", got)
	}
}

func TestRefusesFolders(t *testing.T) {
	dir := t.TempDir()
	err := WriteFile(dir, []byte("x"))
	if err == nil || !strings.Contains(err.Error(), "not a regular file") {
		t.Fatalf("writing over a folder: %v", err)
	}
}
