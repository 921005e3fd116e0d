package safecsv

import (
	"bytes"
	"encoding/csv"
	"strconv"
	"testing"
)

func TestEscape(t *testing.T) {
	for in, want := range map[string]string{
		"":                    "",
		"plain text":          "plain text",
		`=HYPERLINK("x","y")`: `'=HYPERLINK("x","y")`,
		"+1+1":                "'+1+1",
		"-cmd":                "'-cmd",
		"@SUM(A1)":            "'@SUM(A1)",
		"\tx":                 "'\tx",
		"\rx":                 "'\rx",
		"'already":            "''already",
		"-0.5":                "-0.5",
		"+3":                  "+3",
		"1e-3":                "1e-3",
		"a=b":                 "a=b",
	} {
		if got := Escape(in); got != want {
			t.Errorf("Escape(%q) = %q, want %q", in, got, want)
		}
		if back := Unescape(Escape(in)); back != in {
			t.Errorf("Unescape(Escape(%q)) = %q", in, back)
		}
	}
}

// What a Writer writes, csv.Reader + Unescape read back exactly.
func FuzzRoundTrip(f *testing.F) {
	for _, s := range []string{"=1+2", "'", "''", "-", "-1", "@", "\t", "a,b", "\"q\""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, cell string) {
		var b bytes.Buffer
		w := NewWriter(&b)
		if err := w.WriteAll([][]string{{cell, "x"}}); err != nil {
			t.Fatal(err)
		}
		rec, err := csv.NewReader(&b).Read()
		if err != nil {
			return // csv itself cannot carry some cells (a lone \r); nothing to check
		}
		if got := Unescape(rec[0]); got != cell && !bytes.ContainsRune([]byte(cell), '\r') {
			t.Fatalf("round trip of %q gave %q", cell, got)
		}
		if c := rec[0]; c != "" && (c[0] == '=' || c[0] == '+' || c[0] == '-' || c[0] == '@') {
			if _, err := strconv.ParseFloat(c, 64); err != nil { // a number is data, not a formula
				t.Fatalf("cell %q written as %q starts a formula", cell, c)
			}
		}
	})
}
