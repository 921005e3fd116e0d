package fsutil

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
