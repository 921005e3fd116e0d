// Package fsutil writes files so that nobody ever sees half of one: reports,
// exports, manifests and instance files go to a temporary file in the same
// folder, are synced, and are renamed over the target (docs/formats.md,
// "How files are written").
package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"syscall"
)

// Stdout is the output name that means standard output.
const Stdout = "-"

// tempInfix marks a temporary file or folder: ".<name>.tmp-<random>".
const tempInfix = ".tmp-"

// TempPattern is the os.CreateTemp / os.MkdirTemp pattern for a temporary
// sibling of the file or folder named base.
func TempPattern(base string) string { return "." + base + tempInfix + "*" }

// IsTemp reports whether a folder entry is a leftover of an interrupted
// write, and for whose name (TempPattern's base).
func IsTemp(name string) (owner string, ok bool) {
	i := strings.LastIndex(name, tempInfix)
	if len(name) < 2 || name[0] != '.' || i < 1 {
		return "", false
	}
	return name[1:i], true
}

// File is an output being written: Create it, Write to it, then Commit.
// Close without Commit abandons it and leaves the target as it was.
//
// A regular file (or a new one) is written to a temporary file beside it
// and renamed over it on Commit, after the data and then the folder are
// synced. A character device (/dev/null, a terminal) is written directly,
// never replaced, and Stdout ("-") means standard output.
type File struct {
	path      string
	f         *os.File
	temp      string // "" when writing directly
	committed bool
	err       error // the first write error
}

// Create starts writing path.
func Create(path string) (*File, error) {
	if path == Stdout {
		return &File{path: "standard output", f: os.Stdout}, nil
	}
	if fi, err := os.Stat(path); err == nil && fi.Mode()&fs.ModeCharDevice != 0 {
		f, err := os.OpenFile(path, os.O_WRONLY, 0)
		if err != nil {
			return nil, fmt.Errorf("cannot write %s: %w", path, WithoutPath(err))
		}
		return &File{path: path, f: f}, nil
	} else if err == nil && !fi.Mode().IsRegular() {
		return nil, fmt.Errorf("cannot write %s: it is not a regular file", path)
	}
	f, err := os.CreateTemp(filepath.Dir(path), TempPattern(filepath.Base(path)))
	if err != nil {
		return nil, fmt.Errorf("cannot write %s: %w", path, WithoutPath(err))
	}
	return &File{path: path, f: f, temp: f.Name()}, nil
}

// Write writes p; the first error is kept and returned again by Commit.
func (w *File) Write(p []byte) (int, error) {
	if w.err != nil {
		return 0, w.err
	}
	n, err := w.f.Write(p)
	if err != nil {
		w.err = fmt.Errorf("cannot write %s: %w", w.path, WithoutPath(err))
	}
	return n, w.err
}

// Commit makes what was written the content of the path: for a regular file
// it syncs the data, renames the temporary file over the path and syncs the
// folder. After an error the path holds its old content.
func (w *File) Commit() error {
	if w.committed {
		return nil
	}
	err := w.err
	if w.temp == "" {
		if w.f != os.Stdout {
			if cerr := w.f.Close(); err == nil && cerr != nil {
				err = fmt.Errorf("cannot write %s: %w", w.path, WithoutPath(cerr))
			}
		}
		w.committed = true
		return err
	}
	if err == nil {
		err = w.f.Sync()
	}
	if cerr := w.f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(w.temp, 0o644)
	}
	if err == nil {
		err = os.Rename(w.temp, w.path)
	}
	if err == nil {
		err = syncDir(filepath.Dir(w.path))
	}
	if err != nil {
		os.Remove(w.temp)
		w.committed = true // nothing more to undo
		if w.err != nil {
			return w.err
		}
		return fmt.Errorf("cannot write %s: %w", w.path, WithoutPath(err))
	}
	w.committed = true
	return nil
}

// Close abandons an uncommitted write (removing its temporary file) and is
// a no-op after Commit, so it can be deferred.
func (w *File) Close() error {
	if w.committed {
		return nil
	}
	w.committed = true
	if w.f != os.Stdout {
		w.f.Close()
	}
	if w.temp != "" {
		os.Remove(w.temp)
	}
	return nil
}

// syncDir makes a rename in dir durable. File systems that cannot sync a
// folder say so with EINVAL; that is not an error here.
func syncDir(dir string) error {
	d, err := os.Open(dir)
	if err != nil {
		return err
	}
	err = d.Sync()
	d.Close()
	if errors.Is(err, syscall.EINVAL) || errors.Is(err, syscall.ENOTSUP) {
		return nil
	}
	return err
}

// WriteFile writes data to path atomically: after an error or a crash the
// path holds its old content (or nothing), never a part of data.
func WriteFile(path string, data []byte) error {
	return WriteWith(path, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// WriteWith streams write into path with Create and Commit, so a writer that
// fails half-way leaves the file as it was.
func WriteWith(path string, write func(io.Writer) error) error {
	f, err := Create(path)
	if err != nil {
		return err
	}
	defer f.Close()
	if err := write(f); err != nil {
		if f.err != nil {
			return f.err
		}
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return f.Commit()
}

// WithoutPath returns the cause of an *fs.PathError, dropping the operation
// and path it repeats, for messages that name the file themselves.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
