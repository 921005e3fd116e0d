package ui

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
)

// gotoTrack shows the first item of track in the rater's order.
func gotoTrack(t *testing.T, m *MainWindow, track vigor.Track) *vigor.Item {
	t.Helper()
	p := m.rate
	for pos := range p.s.Len() {
		if p.s.ItemAt(pos).Track == track {
			p.goTo(pos)
			return p.current()
		}
	}
	t.Fatalf("no %s item", track)
	return nil
}

func storedScores(t *testing.T, store *vigor.Store, it *vigor.Item, who string) vigor.Scores {
	t.Helper()
	r, err := store.Get(context.Background(), "test-split", it.ID, who)
	if errors.Is(err, vigor.ErrNotFound) {
		return vigor.Scores{vigor.NoScore, vigor.NoScore, vigor.NoScore, vigor.NoScore}
	}
	if err != nil {
		t.Fatal(err)
	}
	return r.Scores
}

// The sequences that used to store wrong values: "1 80 2 70" (a dimension
// key then digits), too many digits, a value over 100.
func TestRateProcessFieldRefusesAndNeverClamps(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 1, 2, 2, 32, 24)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "pat")
	p := m.rate
	it := gotoTrack(t, m, vigor.TrackProcess)
	field := func(d int) *scoreField { return p.dims[d].field }

	// Digits only type: "1 80" is the score 180, refused at its last digit.
	typeRunes(m, "180")
	if p.active != 0 || field(0).text != "18" || !field(0).refused || !strings.Contains(p.prompt.Text, `"180" refused`) {
		t.Fatalf("after 180: dimension %d, field %q refused %v, hint %q", p.active, field(0).text, field(0).refused, p.prompt.Text)
	}
	// Leaving a refused field saves nothing and stays.
	pressKey(m, fyne.KeyTab)
	if p.active != 0 || !strings.Contains(p.prompt.Text, "refused key") {
		t.Fatalf("Tab left a refused field (dimension %d, hint %q)", p.active, p.prompt.Text)
	}
	if got := storedScores(t, store, it, "pat"); got[0] != vigor.NoScore {
		t.Fatalf("a refused field stored %v", got)
	}
	// Backspace clears the mark; 100 is the largest; a fourth digit is refused.
	pressKey(m, fyne.KeyBackspace)
	typeRunes(m, "00")
	if field(0).text != "100" || field(0).refused {
		t.Fatalf("field %q refused %v, want 100", field(0).text, field(0).refused)
	}
	typeRunes(m, "0")
	if field(0).text != "100" || !strings.Contains(p.prompt.Text, "three digits") {
		t.Fatalf("a fourth digit: field %q, hint %q", field(0).text, p.prompt.Text)
	}
	pressKey(m, fyne.KeyBackspace)
	pressKey(m, fyne.KeyDown) // saves 10, chooses dimension 2
	if p.active != 1 {
		t.Fatalf("↓ chose dimension %d", p.active+1)
	}
	// A leading zero is refused; "2 70": digits after choosing type 270, refused.
	typeRunes(m, "05")
	if field(1).text != "0" || !field(1).refused {
		t.Fatalf("05: field %q refused %v", field(1).text, field(1).refused)
	}
	pressKey(m, fyne.KeyEscape) // drops what was typed
	typeRunes(m, "270")
	if field(1).text != "27" || !field(1).refused {
		t.Fatalf("270: field %q", field(1).text)
	}
	pressKey(m, fyne.KeyBackspace)
	pressKey(m, fyne.KeyBackspace)
	typeRunes(m, "7")
	pressKey(m, fyne.KeyTab)
	typeRunes(m, "0")
	pressKey(m, keyBackTab) // Shift+Tab: back to dimension 2, saving 0 in 3
	if p.active != 1 {
		t.Fatalf("Shift+Tab chose dimension %d", p.active+1)
	}
	pressKey(m, fyne.KeyDown)
	pressKey(m, fyne.KeyDown)
	typeRunes(m, "99")
	pressKey(m, fyne.KeyReturn)
	want := vigor.Scores{10, 7, 0, 99}
	if got := storedScores(t, store, it, "pat"); got != want {
		t.Fatalf("stored %v, want %v", got, want)
	}
	if p.current().ID == it.ID {
		t.Fatal("Enter stayed on a complete item")
	}
}

func TestRateEnterNeverStoresAllNoAndHintsStay(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 3, 0, 0, 32, 24)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "quin")
	p := m.rate
	first := p.current()

	pressKey(m, fyne.KeyReturn)
	if p.current().ID != first.ID || !strings.Contains(p.prompt.Text, "Not saved yet") {
		t.Fatalf("Enter with nothing chosen: showing %s, hint %q", p.current().ID, p.prompt.Text)
	}
	if got := storedScores(t, store, first, "quin"); got[0] != vigor.NoScore {
		t.Fatalf("Enter stored %v", got)
	}
	// A save finishing later does not overwrite the hint.
	typeRunes(m, "2")
	pressKey(m, fyne.KeyReturn)
	m.settle()
	if !strings.Contains(p.prompt.Text, "Not saved yet") {
		t.Fatalf("the hint went: %q", p.prompt.Text)
	}
	// Y/N set the chosen criterion; 0 says the rest are No.
	pressKey(m, fyne.KeyUp)
	typeRunes(m, "n")
	typeRunes(m, "0")
	if p.prompt.Text != "" {
		t.Fatalf("the hint stayed after the rater acted: %q", p.prompt.Text)
	}
	// Enter twice before anything is painted: the second finds the next
	// item unset and saves nothing.
	c := m.Window.Canvas()
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	second := p.current()
	c.Focused().TypedKey(&fyne.KeyEvent{Name: fyne.KeyReturn})
	m.settle()
	if got := storedScores(t, store, first, "quin"); got != (vigor.Scores{0, 1, 0, 0}) {
		t.Fatalf("first stored %v", got)
	}
	if second.ID == first.ID || p.current().ID != second.ID {
		t.Fatalf("double Enter: showing %s, want %s", p.current().ID, second.ID)
	}
	if got := storedScores(t, store, second, "quin"); got[0] != vigor.NoScore {
		t.Fatalf("the second Enter stored %v for the next item", got)
	}
}

func TestRateKeysReachTheRatingArea(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 3, 1, 2, 32, 24)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, store, dir, "rue")
	p := m.rate
	c := m.Window.Canvas()
	if c.Focused() != p.area {
		t.Fatalf("after opening the split the keyboard is with %T", c.Focused())
	}
	// Switching panes by the list (which takes the focus when tapped) and back.
	c.Focus(m.nav)
	m.nav.Select(paneGenerate)
	c.Focus(m.nav)
	m.nav.Select(paneRate)
	if c.Focused() != p.area {
		t.Fatalf("after the pane list the keyboard is with %T", c.Focused())
	}
	// Ctrl+1 … Ctrl+5.
	sc := c.(fyne.Shortcutable)
	sc.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key3, Modifier: fyne.KeyModifierShortcutDefault})
	if m.current != paneScore {
		t.Fatalf("Ctrl+3 showed pane %d", m.current)
	}
	sc.TypedShortcut(&desktop.CustomShortcut{KeyName: fyne.Key4, Modifier: fyne.KeyModifierShortcutDefault})
	if m.current != paneRate || c.Focused() != p.area {
		t.Fatalf("Ctrl+4: pane %d, keyboard with %T", m.current, c.Focused())
	}
	if a.Preferences().Int(prefLastPane) != paneRate {
		t.Fatal("the pane shown is not remembered")
	}
	// A dialog and back.
	typeRunes(m, "c")
	if p.commentDialog == nil {
		t.Fatal("C opened no dialog")
	}
	pressKey(m, fyne.KeyEscape)
	if c.Focused() != p.area {
		t.Fatalf("after the dialog the keyboard is with %T", c.Focused())
	}
	// The focus mark.
	if !p.area.focused || p.dims[p.active].mark.StrokeColor == nil {
		t.Fatal("no focus mark on the chosen dimension")
	}
	// Tab stays in the rating area (it chooses the next dimension).
	before := p.active
	pressKey(m, fyne.KeyTab)
	if c.Focused() != p.area || p.active != (before+1)%vigor.NumDims {
		t.Fatalf("Tab: keyboard with %T, dimension %d", c.Focused(), p.active+1)
	}
	// ←/→ move between items everywhere, a process item included.
	it := gotoTrack(t, m, vigor.TrackProcess)
	typeRunes(m, "42")
	arrow := fyne.KeyRight
	if p.s.Pos() == p.s.Len()-1 {
		arrow = fyne.KeyLeft
	}
	pressKey(m, arrow)
	if p.current().ID == it.ID {
		t.Fatalf("%s in a process field did not move to another item", arrow)
	}
	if got := storedScores(t, store, it, "rue"); got[0] != 42 {
		t.Fatalf("leaving the item stored %v, want the typed 42 kept", got)
	}
}

func TestRateJumpCompactAndReopenedPane(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 4, 1, 2, 32, 24)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, store, dir, "sam")
	p := m.rate
	typeRunes(m, "g")
	typeRunes(m, "3")
	pressKey(m, fyne.KeyReturn)
	if p.s.Pos() != 2 {
		t.Fatalf("G 3 showed item %d", p.s.Pos()+1)
	}
	id := sp.Items[0].ID
	typeRunes(m, "g")
	typeRunes(m, id)
	pressKey(m, fyne.KeyReturn)
	if p.current().ID != id {
		t.Fatalf("G %s showed %s", id, p.current().ID)
	}
	typeRunes(m, "r")
	if !a.Preferences().Bool(prefCompact) || p.dims[0].rubric.Visible() {
		t.Fatal("R did not hide the rubric text, remembered")
	}
	m2 := rateWindow(t, a, store, dir, "sam")
	if !m2.rate.compact || m2.current != paneRate {
		t.Fatal("compact mode or the pane was not remembered")
	}
}

func TestPaceText(t *testing.T) {
	for _, tc := range []struct {
		done      int
		elapsed   time.Duration
		remaining int
		want      string
	}{
		{0, 0, 10, "10 left · pace after two items"},
		{30, time.Hour, 45, "30 items/h · 45 left · about 1 h 30 min"},
		{10, 30 * time.Minute, 5, "20 items/h · 5 left · about 15 min"},
		{3, time.Hour, 0, "none left"},
	} {
		if got := paceText(tc.done, tc.elapsed, tc.remaining); got != tc.want {
			t.Errorf("paceText(%d, %v, %d) = %q, want %q", tc.done, tc.elapsed, tc.remaining, got, tc.want)
		}
	}
}

func TestRateUndoFlagHeaderAndNotes(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 3, 0, 0, 32, 24)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "val")
	p := m.rate
	first := p.current()
	typeRunes(m, "1")
	typeRunes(m, "0")
	pressKey(m, fyne.KeyReturn)
	typeRunes(m, "2")
	undo := func() {
		m.Window.Canvas().(fyne.Shortcutable).TypedShortcut(&fyne.ShortcutUndo{})
		m.settle()
	}
	second := p.current()
	undo() // the 2 on the second item
	if got := storedScores(t, store, second, "val"); got != (vigor.Scores{vigor.NoScore, vigor.NoScore, vigor.NoScore, vigor.NoScore}) {
		t.Fatalf("undo stored %v for %s", got, second.ID)
	}
	undo() // the 0 on the first: back to Yes and three unset
	if p.current().ID != first.ID {
		t.Fatalf("undo showed %s, want %s", p.current().ID, first.ID)
	}
	if got := storedScores(t, store, first, "val"); got != (vigor.Scores{1, vigor.NoScore, vigor.NoScore, vigor.NoScore}) {
		t.Fatalf("undo stored %v for %s", got, first.ID)
	}
	typeRunes(m, "f")
	if !strings.Contains(p.position.Text, "FLAGGED") {
		t.Fatalf("header %q does not show the flag", p.position.Text)
	}
	// The hidden ground truth's note spans the panel, one line, not a letter a line.
	typeRunes(m, "h")
	if w, pw := p.gt.note.Size().Width, p.gt.zoom.Size().Width; w < pw/2 {
		t.Fatalf("note %.0f wide in a %.0f panel", w, pw)
	}
}

func TestRateRubricFollowsTheChosenDimension(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 3, 0, 0, 32, 24)
	m := rateWindow(t, test.NewTempApp(t), openTestStore(t), dir, "wes")
	m.Window.Resize(fyne.NewSize(1000, 560))
	m.settle()
	p := m.rate
	for range 3 {
		pressKey(m, fyne.KeyDown)
	}
	box := p.dims[3].box
	if y, h := box.Position().Y, box.Size().Height; y+h > p.right.Offset.Y+p.right.Size().Height+1 || p.right.Offset.Y == 0 {
		t.Fatalf("dimension 4 at %.0f–%.0f, view %.0f–%.0f", y, y+h, p.right.Offset.Y, p.right.Offset.Y+p.right.Size().Height)
	}
	pressKey(m, fyne.KeyRight)
	if p.right.Offset.Y != 0 {
		t.Fatalf("the next item's rubric starts at %.0f, not the top", p.right.Offset.Y)
	}
}

func TestRateKeysComeBackAfterTheShortcutsSheet(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 2, 0, 0, 32, 24)
	m := rateWindow(t, test.NewTempApp(t), openTestStore(t), dir, "xan")
	c := m.Window.Canvas()
	m.showShortcuts()
	if c.Overlays().Top() == nil {
		t.Fatal("no shortcuts sheet")
	}
	var closeBtn *widget.Button
	eachButton(c.Overlays().Top(), func(b *widget.Button) {
		if b.Text == "Close" {
			closeBtn = b
		}
	})
	if closeBtn == nil {
		t.Fatal("the sheet has no Close button")
	}
	test.Tap(closeBtn)
	if c.Overlays().Top() != nil {
		t.Fatal("Close left the sheet open")
	}
	if c.Focused() != m.rate.area {
		t.Fatalf("after the sheet the keyboard is with %T", c.Focused())
	}
	typeRunes(m, "1")
	if m.rate.s.Shown().Scores[0] != 1 {
		t.Fatal("key 1 after the sheet did not reach the rating area")
	}
}
