package ui

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// Every pane is built here from fake parts alone (fakeDeps): no window,
// no other pane. Callbacks to other panes are recorded.

// showPane puts a pane's view in its own test window and lets its
// background work finish.
func showPane(t *testing.T, d deps, p Pane) {
	t.Helper()
	d.window.SetContent(p.View())
	d.window.Show()
	d.work.settle()
}

func TestGeneratePaneAlone(t *testing.T) {
	d := fakeDeps(t, &fakeChooser{})
	var compared *render.Generated
	g := newGeneratePane(d, func(gen *render.Generated) { compared = gen })
	showPane(t, d, g)
	if g.Current() == nil || !strings.Contains(d.status.Text(), g.Current().Instance.ID) {
		t.Fatalf("no preview; status %q", d.status.Text())
	}
	test.Tap(findButton(t, d, "Compare in Ablation"))
	if compared != g.Current() {
		t.Fatal("Compare did not hand the preview to the callback")
	}
}

func TestAblationPaneAlone(t *testing.T) {
	d := fakeDeps(t, &fakeChooser{})
	g := newGeneratePane(d, nil)
	showPane(t, d, g)
	a := newAblationPane(d, g.Current)
	showPane(t, d, a)
	if a.Current() == nil || a.Current().Instance.ID != g.Current().Instance.ID {
		t.Fatal("the pane did not open on the puzzle it was given")
	}
}

func TestScorePaneAlone(t *testing.T) {
	d := fakeDeps(t, &fakeChooser{})
	s := newScorePane(d)
	showPane(t, d, s)
	if s.report == nil || len(s.report.Groups) == 0 || s.memory == nil {
		t.Fatal("the demo report is not shown")
	}
}

func TestRatePaneAlone(t *testing.T) {
	d := fakeDeps(t, &fakeChooser{})
	var remembered []string
	d.recent = func(p string) { remembered = append(remembered, p) }
	p := newRatePane(d)
	showPane(t, d, p)
	sp, who := p.split()
	if sp == nil || !p.s.Demo || who != demoAnnotator {
		t.Fatalf("not on the demo split (rater %q)", who)
	}
	for pos := range p.s.Len() {
		if p.s.ItemAt(pos).Track == vigor.TrackResult {
			p.goTo(pos)
			break
		}
	}
	p.TypedRune('1')
	d.work.settle()
	if p.s.Shown().Scores[0] != 1 || p.s.StateOf(p.current().ID) != ratesession.SavedPartly {
		t.Fatalf("key 1: scores %v, state %v", p.s.Shown().Scores, p.s.StateOf(p.current().ID))
	}
	if len(remembered) != 0 {
		t.Fatalf("the demo went on File ▸ Recent: %v", remembered)
	}
}

func TestAgreementPaneAlone(t *testing.T) {
	d := fakeDeps(t, &fakeChooser{})
	a := newAgreementPane(d)
	showPane(t, d, a)
	if a.shownReport() == nil || !a.demo {
		t.Fatal("the demo report is not computed")
	}
}

// findButton finds the button labelled text in d's window.
func findButton(t *testing.T, d deps, text string) *widget.Button {
	t.Helper()
	var found *widget.Button
	eachButton(d.window.Content(), func(b *widget.Button) {
		if b.Text == text {
			found = b
		}
	})
	if found == nil {
		t.Fatalf("no button %q", text)
	}
	return found
}

// walk visits o and everything inside it.
func walk(o fyne.CanvasObject, visit func(fyne.CanvasObject)) {
	visit(o)
	switch c := o.(type) {
	case *fyne.Container:
		for _, k := range c.Objects {
			walk(k, visit)
		}
	case fyne.Widget:
		for _, k := range test.WidgetRenderer(c).Objects() {
			walk(k, visit)
		}
	}
}

// eachButton calls f with every button shown in o.
func eachButton(o fyne.CanvasObject, f func(*widget.Button)) {
	walk(o, func(c fyne.CanvasObject) {
		if b, ok := c.(*widget.Button); ok {
			f(b)
		}
	})
}
