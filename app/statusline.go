package app

import (
	"fmt"
	"time"

	"github.com/jigbench/jigbench/core/progress"
)

// statusLine keeps one self-overwriting line of progress on stderr when it
// is a terminal (env.progress): redrawn at most every statusEvery (the last
// report always), cut to statusWidth characters, erased by done. Messages
// printed with above go over it, and the next report draws it again.
type statusLine struct {
	e     *env
	last  time.Time
	text  string // what the line shows
	shown bool
}

const (
	statusEvery = 100 * time.Millisecond
	statusWidth = 100
)

// show draws line for the report r.
func (p *statusLine) show(r progress.Report, line string) {
	if !p.e.progress {
		return
	}
	final := r.Total > 0 && r.Done == r.Total
	if !final && time.Since(p.last) < statusEvery {
		return
	}
	if s := []rune(line); len(s) > statusWidth {
		line = string(s[:statusWidth])
	}
	if p.shown && line == p.text {
		return
	}
	p.last, p.text, p.shown = time.Now(), line, true
	fmt.Fprintf(p.e.stderr, "\r\033[K%s", line)
}

// stages reports work that goes through named stages: "what: stage n%".
func (p *statusLine) stages(what string) progress.Func {
	return func(r progress.Report) {
		line := what + ": " + r.Stage
		if r.Total > 0 {
			line += fmt.Sprintf(" %d%%", 100*r.Done/r.Total)
		}
		p.show(r, line)
	}
}

// above prints msg on a line of its own where the status line was.
func (p *statusLine) above(msg string) {
	p.done()
	fmt.Fprintln(p.e.stderr, msg)
	p.last = time.Time{}
}

// done erases the line.
func (p *statusLine) done() {
	if p.shown {
		fmt.Fprint(p.e.stderr, "\r\033[K")
		p.shown = false
	}
}
