//go:build !unix

package fsutil

import "os"

// Elsewhere opening never waits for a writer.
const openNonblock = 0

func clearNonblock(*os.File) error { return nil }
