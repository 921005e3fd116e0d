package fsutil

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
)

// The one way jigbench opens a file it was given. A FIFO, a device or a
// socket where a file is expected would block os.Open forever (a FIFO
// waits for a writer) or stream without end, so every input is opened
// without blocking and refused unless it is a regular file.

// Open opens path for reading and refuses anything but a regular file
// with an error that names the path and what it is instead.
func Open(path string) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", path, WithoutPath(err))
	}
	return checkRegular(f, path)
}

// OpenIn is Open for a name inside root (confined to that folder); path
// names the file in errors.
func OpenIn(root *os.Root, name, path string) (*os.File, error) {
	f, err := root.OpenFile(name, os.O_RDONLY|openNonblock, 0)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", path, WithoutPath(err))
	}
	return checkRegular(f, path)
}

func checkRegular(f *os.File, path string) (*os.File, error) {
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot open %s: %w", path, WithoutPath(err))
	}
	if !fi.Mode().IsRegular() {
		f.Close()
		return nil, fmt.Errorf("%s is %s, not a regular file", path, Kind(fi.Mode()))
	}
	if err := clearNonblock(f); err != nil {
		f.Close()
		return nil, fmt.Errorf("cannot open %s: %w", path, err)
	}
	return f, nil
}

// Kind names what a file mode is, for messages ("a folder", "a FIFO", …).
func Kind(m fs.FileMode) string {
	switch {
	case m.IsRegular():
		return "a regular file"
	case m.IsDir():
		return "a folder"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	}
	return "not a regular file"
}

// ErrTooLarge is wrapped by ReadFile's error for a file over its limit.
var ErrTooLarge = errors.New("file too large")

// ReadFile reads a whole regular file of at most limit bytes. A larger
// one is refused without reading past the limit.
func ReadFile(path string, limit int64) ([]byte, error) {
	f, err := Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

// ReadFileIn is ReadFile for a name inside root.
func ReadFileIn(root *os.Root, name, path string, limit int64) ([]byte, error) {
	f, err := OpenIn(root, name, path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return readLimited(f, path, limit)
}

func readLimited(f *os.File, path string, limit int64) ([]byte, error) {
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read %s: %w", path, WithoutPath(err))
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("%s is larger than %s: %w", path, Size(limit), ErrTooLarge)
	}
	return data, nil
}

// Size spells a byte count for people: 512 bytes, 64 KiB, 100 MiB.
func Size(n int64) string {
	switch {
	case n >= 1<<30 && n%(1<<30) == 0:
		return fmt.Sprintf("%d GiB", n>>30)
	case n >= 1<<20 && n%(1<<20) == 0:
		return fmt.Sprintf("%d MiB", n>>20)
	case n >= 1<<10 && n%(1<<10) == 0:
		return fmt.Sprintf("%d KiB", n>>10)
	}
	return fmt.Sprintf("%d bytes", n)
}
