//go:build unix

package fsutil

import (
	"os"
	"syscall"
)

// openNonblock makes opening a FIFO return at once instead of waiting for
// a writer; it has no effect on regular files.
const openNonblock = syscall.O_NONBLOCK

// clearNonblock puts a regular file back into blocking mode, so reads
// behave as after a plain os.Open.
func clearNonblock(f *os.File) error {
	rc, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var serr error
	if err := rc.Control(func(fd uintptr) { serr = syscall.SetNonblock(int(fd), false) }); err != nil {
		return err
	}
	return serr
}
