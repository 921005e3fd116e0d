package app

import (
	"bytes"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/progress"
)

func TestStatusLine(t *testing.T) {
	var b bytes.Buffer
	p := &statusLine{e: &env{stderr: &b, progress: true}}
	p.show(progress.Report{Done: 0, Total: 3}, "work 0/3")
	p.show(progress.Report{Done: 1, Total: 3}, "work 1/3") // within statusEvery: skipped
	p.above("note: something")
	p.show(progress.Report{Done: 2, Total: 3}, strings.Repeat("x", statusWidth+20))
	p.show(progress.Report{Done: 3, Total: 3}, "work 3/3") // the last always shows
	p.show(progress.Report{Done: 3, Total: 3}, "work 3/3") // unchanged: not drawn again
	p.done()
	p.done() // erased once
	want := "\r\033[Kwork 0/3" + "\r\033[Knote: something\n" + "\r\033[K" + strings.Repeat("x", statusWidth) +
		"\r\033[Kwork 3/3" + "\r\033[K"
	if got := b.String(); got != want {
		t.Fatalf("status line wrote\n%q, want\n%q", got, want)
	}

	b.Reset()
	quiet := &statusLine{e: &env{stderr: &b}} // stderr not a terminal
	quiet.show(progress.Report{Done: 1, Total: 1}, "work")
	quiet.above("note")
	quiet.done()
	if got := b.String(); got != "note\n" {
		t.Fatalf("without a terminal the status line wrote %q, want only the note", got)
	}
}
