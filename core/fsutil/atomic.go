// Package fsutil writes files so that nobody ever sees half of one: reports,
// exports and manifests go to a temporary file in the same folder, are synced,
// and are renamed over the target.
package fsutil

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
)

// WriteFile writes data to path atomically: after an error or a crash the
// path holds its old content (or nothing), never a part of data.
func WriteFile(path string, data []byte) error {
	f, err := os.CreateTemp(filepath.Dir(path), "."+filepath.Base(path)+".*.tmp")
	if err != nil {
		return fmt.Errorf("cannot write %s: %w", path, WithoutPath(err))
	}
	tmp := f.Name()
	_, err = f.Write(data)
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Chmod(tmp, 0o644)
	}
	if err == nil {
		err = os.Rename(tmp, path)
	}
	if err != nil {
		os.Remove(tmp)
		return fmt.Errorf("cannot write %s: %w", path, WithoutPath(err))
	}
	return nil
}

// WriteWith runs write into a buffer and writes the result with WriteFile,
// so a writer that fails half-way leaves nothing behind.
func WriteWith(path string, write func(io.Writer) error) error {
	var b bytes.Buffer
	if err := write(&b); err != nil {
		return fmt.Errorf("cannot write %s: %w", path, err)
	}
	return WriteFile(path, b.Bytes())
}

// unwrap drops the path an *os.PathError repeats.
// WithoutPath returns the cause of an *fs.PathError, dropping the operation
// and path it repeats, for messages that name the file themselves.
func WithoutPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
