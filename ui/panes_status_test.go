package ui

import (
	"errors"
	"testing"

	"fyne.io/fyne/v2"
)

// TestStatusIsPerPane: a pane's message leaves the status line with the
// pane and comes back with it; a pane's message set while another pane is
// shown waits for its pane.
func TestStatusIsPerPane(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	m.Status.Set("generate says hello")
	m.Show(paneAgreement)
	m.settle()
	if got := m.Status.Text(); got == "generate says hello" {
		t.Fatalf("Agreement shows Generate's message %q", got)
	}
	m.generate.status.Set("generate again") // from Generate, while Agreement is shown
	if got := m.Status.Text(); got == "generate again" {
		t.Fatal("a hidden pane's message reached the status line")
	}
	agreement := m.Status.Text()
	m.Show(paneGenerate)
	if got := m.Status.Text(); got != "generate again" {
		t.Fatalf("back on Generate the status is %q", got)
	}
	m.Show(paneAgreement)
	if got := m.Status.Text(); got != agreement {
		t.Fatalf("back on Agreement the status is %q, want %q", got, agreement)
	}
}

// TestEscClosesDialogs: the shortcuts, About and error dialogs close on
// Esc, as the driver delivers it (to the focused object).
func TestEscClosesDialogs(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	c := m.Window.Canvas()
	for name, open := range map[string]func(){
		"shortcuts": m.showShortcuts,
		"about":     m.showAbout,
		"error":     func() { m.ShowError(errors.New("x.json: broken")) },
	} {
		open()
		if c.Overlays().Top() == nil {
			t.Fatalf("%s: no dialog", name)
		}
		f := c.Focused()
		if f == nil {
			t.Fatalf("%s: nothing has the keyboard", name)
		}
		f.TypedKey(&fyne.KeyEvent{Name: fyne.KeyEscape})
		if c.Overlays().Top() != nil {
			t.Fatalf("%s: Esc left the dialog open", name)
		}
	}
}

// TestDialogsStartInTheLastFolder: a folder chosen in one dialog, or the
// folder of a file chosen, is where the next dialog opens.
func TestDialogsStartInTheLastFolder(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 4)
	m := newTestWindow(t, &fakeChooser{answers: []string{dir}})
	if got := m.lastFolder(); got == dir {
		t.Fatal("the last folder is set before any dialog")
	}
	m.Show(paneAblation)
	m.ablation.openDialog("Open")
	m.settle()
	if got := m.lastFolder(); got != dir {
		t.Fatalf("after choosing %s the next dialog opens in %q", dir, got)
	}
	rememberFolder(m.App.Preferences(), dir+"/new-file.json") // a file to be written
	if got := m.lastFolder(); got != dir {
		t.Fatalf("after a file in %s the next dialog opens in %q", dir, got)
	}
}
