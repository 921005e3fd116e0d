package ui

import (
	"strings"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
)

// TestRatingsStoreSetting chooses another store in File ▸ Ratings store…:
// the setting is remembered, the store is opened anew on the next use, the
// open split is read again from it, and the dialog never shows a password.
func TestRatingsStoreSetting(t *testing.T) {
	t.Setenv(vigor.StoreEnv, "")
	dir := t.TempDir()
	writeTestSplit(t, dir, 2, 0, 0, 32, 24)
	first, second := openTestStore(t), openTestStore(t)
	var opens atomic.Int32
	a := test.NewTempApp(t)
	a.Preferences().SetString(prefLastSplit, dir)
	a.Preferences().SetString(prefAnnotator, "ida")
	m := NewMainWindow(a, Options{Version: "test", Dispatcher: NewQueue(),
		Files: func(FileChooser) FileChooser { return &fakeChooser{} },
		Ratings: func() (RatingStore, error) {
			if opens.Add(1) == 1 {
				return first, nil
			}
			return second, nil
		}})
	m.Window.Resize(fyne.NewSize(1280, 800))
	m.Window.Show()
	t.Cleanup(m.Window.Close)
	m.Show(paneRate)
	m.settle()
	rateByKeyboard(t, m, wantScores(m.rate.current(), 1))
	if opens.Load() != 1 {
		t.Fatalf("store opened %d times, want 1", opens.Load())
	}

	const url = "postgres://jig:s3cret@db.lab/ratings"
	if err := m.setRatingsStore(" " + url + " "); err != nil {
		t.Fatal(err)
	}
	m.settle()
	if got := a.Preferences().String(PrefRatingsStore); got != url {
		t.Fatalf("setting %q, want %q", got, url)
	}
	if opens.Load() != 2 {
		t.Fatalf("store opened %d times after the change, want 2 (the split read again)", opens.Load())
	}
	if got := m.rate.s.Tally().Total().Rated; got != 0 {
		t.Fatalf("the new, empty store shows %d rated items", got)
	}
	if strings.Contains(m.Status.Text(), "s3cret") {
		t.Fatalf("status shows the password: %q", m.Status.Text())
	}

	m.showStoreSettings()
	var texts []string
	for _, o := range m.Window.Canvas().Overlays().List() {
		walk(o, func(c fyne.CanvasObject) {
			if l, ok := c.(*widget.Label); ok {
				texts = append(texts, l.Text)
			}
		})
	}
	all := strings.Join(texts, "\n")
	if !strings.Contains(all, "postgres://jig:xxxxx@db.lab/ratings") || strings.Contains(all, "s3cret") {
		t.Fatalf("dialog text:\n%s\nwant the URL without its password", all)
	}
}
