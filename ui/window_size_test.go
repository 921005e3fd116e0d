package ui

import (
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/vigor"
)

func TestWindowSizeFitsTheScreen(t *testing.T) {
	screen := fyne.NewSize(1024, 600)
	for _, tc := range []struct {
		name       string
		remembered fyne.Size
		want       fyne.Size
	}{
		{"first start fills the screen", fyne.Size{}, screen},
		{"a remembered size larger than the screen is clamped", fyne.NewSize(1440, 900), screen},
		{"a remembered size that fits is kept", fyne.NewSize(900, 500), fyne.NewSize(900, 500)},
		{"only the side too large is clamped", fyne.NewSize(800, 700), fyne.NewSize(800, 600)},
	} {
		if got := windowSize(tc.remembered, screen); got != tc.want {
			t.Errorf("%s: %v, want %v", tc.name, got, tc.want)
		}
	}
}

// No pane asks for more than maxWindowMin, the Rate pane with an item of
// each track shown, rubric text and all.
func TestNoPaneNeedsMoreThanTheSmallLaptop(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 2, 2, 3, 64, 48)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, openTestStore(t), dir, "una")
	content := m.Window.Content()
	for i := range m.panes {
		m.Show(i)
		m.settle()
		if s := content.MinSize(); s.Width > maxWindowMin.Width || s.Height > maxWindowMin.Height {
			t.Errorf("with %s shown the window needs %v, more than %v", m.panes[i].Title(), s, maxWindowMin)
		}
	}
	m.Show(paneRate)
	for _, track := range []string{"result", "process"} {
		gotoTrack(t, m, vigor.Track(track))
		m.settle()
		if s := content.MinSize(); s.Width > maxWindowMin.Width || s.Height > maxWindowMin.Height {
			t.Errorf("Rate showing a %s item needs %v, more than %v", track, s, maxWindowMin)
		}
	}
}
