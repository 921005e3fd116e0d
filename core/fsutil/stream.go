package fsutil

import (
	"fmt"
	"os"
	"path/filepath"
)

// File is a file written as a stream and published whole: writes go to a
// temporary file beside path, and only Commit puts it in place, for outputs
// too large to hold in memory (WriteFile's case).
type File struct {
	*os.File
	path string
}

// Create starts writing path.
func Create(path string) (*File, error) {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, WithoutPath(err))
	}
	return &File{File: f, path: path}, nil
}

// Commit syncs and closes the file and renames it over path.
func (f *File) Commit() error {
	err := f.Sync()
	if cerr := f.File.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(f.Name(), 0o644)
	}
	if err == nil {
		err = os.Rename(f.Name(), f.path)
	}
	if err != nil {
		os.Remove(f.Name())
		return fmt.Errorf("cannot write %s: %w", f.path, WithoutPath(err))
	}
	return nil
}

// Abort drops what was written; path keeps its old content. It is safe
// after Commit (then it does nothing).
func (f *File) Abort() {
	if f.File.Close() == nil {
		os.Remove(f.Name())
	}
}
