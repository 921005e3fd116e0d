package ui

import (
	"context"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/pgtest"
)

// Rate on a real PostgreSQL server that goes away mid-session: the failure
// shows in the status line and the banner, the unsaved value stays on
// screen, and once the server is back the next save goes through and
// nothing acknowledged is lost.
func TestRatePostgresServerGoesAway(t *testing.T) {
	srv := pgtest.StartOrSkip(t)
	ctx := context.Background()
	store, err := vigor.OpenStoreAt(ctx, srv.URL("postgres"), false)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { store.Close() })
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 4, 0, 0, 48, 32)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "dave")
	p := m.rate
	all := vigor.Scores{1, 0, 0, 0}

	// Item one is rated and acknowledged.
	first := p.current()
	typeRunes(m, "1")
	typeRunes(m, "0") // the other three No
	if r, err := store.Get(ctx, sp.Name, first.ID, "dave"); err != nil || r.Scores != all || !strings.HasPrefix(m.Status.Text(), "Saved") {
		t.Fatalf("first item: %v %v, status %q", r.Scores, err, m.Status.Text())
	}
	pressKey(m, fyne.KeyReturn)
	second := p.current()
	if second.ID == first.ID {
		t.Fatal("Enter did not move on")
	}

	// The server stops; the next save fails and says so.
	srv.Stop()
	typeRunes(m, "1")
	status := m.Status.Text()
	t.Logf("status with the server stopped: %s", status)
	if !strings.Contains(status, "not saved") || !strings.Contains(status, "ratings server") ||
		strings.Contains(status, pgtest.Password) || strings.Contains(status, "Saved") {
		t.Errorf("status with the server stopped: %q", status)
	}
	if !p.failure.Visible() || !strings.Contains(p.failure.text.Text, "ratings server") || strings.Contains(p.failure.text.Text, pgtest.Password) {
		t.Errorf("banner with the server stopped: %v %q", p.failure.Visible(), p.failure.text.Text)
	}
	if p.current().ID != second.ID || p.s.Shown().Scores[0] != 1 || p.dims[0].yes.Importance != widget.SuccessImportance ||
		p.saveState.Text != "● NOT SAVED" {
		t.Fatalf("the unsaved Yes is not on screen: item %s, scores %v, state %q", p.current().ID, p.s.Shown().Scores, p.saveState.Text)
	}

	// The server is back: the next change saves the whole rating.
	if err := srv.Restart(); err != nil {
		t.Fatal(err)
	}
	for _, o := range m.Window.Canvas().Overlays().List() { // the error dialog
		m.Window.Canvas().Overlays().Remove(o)
	}
	typeRunes(m, "0")
	if !strings.HasPrefix(m.Status.Text(), "Saved") || p.failure.Visible() || p.saveState.Text == "● NOT SAVED" {
		t.Errorf("after the restart: status %q, banner %v, state %q", m.Status.Text(), p.failure.Visible(), p.saveState.Text)
	}
	for _, it := range []*vigor.Item{first, second} {
		if r, err := store.Get(ctx, sp.Name, it.ID, "dave"); err != nil || r.Scores != all {
			t.Errorf("after the restart %s: %v %v", it.ID, r.Scores, err)
		}
	}
	revs, err := store.Revisions(ctx, vigor.Query{Split: sp.Name})
	if err != nil {
		t.Fatal(err)
	}
	// One revision per acknowledged save: two for item one ("1", then the
	// three No), one for item two after the restart; the failed save left none.
	if len(revs) != 3 || revs[2].Item != second.ID || revs[2].New == nil || revs[2].New.Scores != all {
		t.Errorf("revisions %+v; want 3, the last of %s with %v", revs, second.ID, all)
	}
}
