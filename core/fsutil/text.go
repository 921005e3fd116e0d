package fsutil

import (
	"bytes"
	"fmt"
	"unicode/utf8"
)

// CheckUTF8 returns an error that gives the line and column of the first
// byte in data that is not UTF-8. JSON input must be checked before it is
// decoded: Go's decoder turns invalid bytes into U+FFFD, so two different
// ids would silently become one.
func CheckUTF8(data []byte) error {
	if utf8.Valid(data) {
		return nil
	}
	line, start := 1, 0
	for i := 0; i < len(data); {
		r, size := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && size <= 1 {
			return fmt.Errorf("line %d, column %d: byte 0x%02x is not valid UTF-8", line, utf8.RuneCount(data[start:i])+1, data[i])
		}
		if data[i] == '\n' {
			line, start = line+1, i+1
		}
		i += size
	}
	return nil
}

// TrimBOM drops a UTF-8 byte order mark, which some editors on Windows
// put at the start of a text file.
func TrimBOM(data []byte) []byte { return bytes.TrimPrefix(data, []byte("\xef\xbb\xbf")) }
