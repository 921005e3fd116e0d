package ui

import (
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/storage"
)

// FileChooser asks the user for a file or folder. The app wires a native
// chooser (package ui/native); tests wire a fake. done always runs on the UI
// goroutine, with path "" when the user cancelled.
type FileChooser interface {
	OpenFile(title string, filter Filter, done func(path string, err error))
	OpenFolder(title string, done func(path string, err error))
	// SaveFile asks where to save a new file, suggesting name.
	SaveFile(title, name string, filter Filter, done func(path string, err error))
}

// Filter limits a file dialog to some extensions (without dots).
type Filter struct {
	Name       string
	Extensions []string
}

// fyneFilter is the filter for Fyne's dialogs, nil for none.
func (f Filter) fyneFilter() storage.FileFilter {
	if len(f.Extensions) == 0 {
		return nil
	}
	exts := make([]string, len(f.Extensions))
	for i, e := range f.Extensions {
		exts[i] = "." + strings.ToLower(e)
	}
	return storage.NewExtensionFileFilter(exts)
}

// ImageFilter accepts the source formats jigbench decodes.
var ImageFilter = Filter{Name: "Images", Extensions: []string{"png", "jpg", "jpeg", "gif", "webp"}}

// FyneChooser is the portable fallback: Fyne's own dialogs inside the window.
type FyneChooser struct {
	Window fyne.Window
	// Start is where dialogs open, if set and still present.
	Start func() string
}

// OpenFile implements FileChooser.
func (c *FyneChooser) OpenFile(title string, filter Filter, done func(string, error)) {
	c.show(dialog.NewFileOpen(func(r fyne.URIReadCloser, err error) {
		if err != nil || r == nil {
			done("", err)
			return
		}
		r.Close()
		done(r.URI().Path(), nil)
	}, c.Window), title, filter)
}

// OpenFolder implements FileChooser.
func (c *FyneChooser) OpenFolder(title string, done func(string, error)) {
	c.show(dialog.NewFolderOpen(func(u fyne.ListableURI, err error) {
		if err != nil || u == nil {
			done("", err)
			return
		}
		done(u.Path(), nil)
	}, c.Window), title, Filter{})
}

// SaveFile implements FileChooser.
func (c *FyneChooser) SaveFile(title, name string, filter Filter, done func(string, error)) {
	d := dialog.NewFileSave(func(w fyne.URIWriteCloser, err error) {
		if err != nil || w == nil {
			done("", err)
			return
		}
		w.Close() // the caller writes the file itself
		done(w.URI().Path(), nil)
	}, c.Window)
	d.SetFileName(name)
	c.show(d, title, filter)
}

// show opens d with title and filter, in the start folder, sized to the window.
func (c *FyneChooser) show(d *dialog.FileDialog, title string, filter Filter) {
	if f := filter.fyneFilter(); f != nil {
		d.SetFilter(f)
	}
	c.startIn(d.SetLocation)
	d.SetTitleText(title)
	d.Resize(dialogSize(c.Window))
	d.Show()
}

func (c *FyneChooser) startIn(set func(fyne.ListableURI)) {
	if c.Start == nil {
		return
	}
	dir := c.Start()
	if dir == "" {
		return
	}
	if u, err := storage.ListerForURI(storage.NewFileURI(filepath.Clean(dir))); err == nil {
		set(u)
	}
}

func dialogSize(w fyne.Window) fyne.Size {
	s := w.Canvas().Size()
	return fyne.NewSize(max(480, s.Width*0.8), max(360, s.Height*0.8))
}

// The panes' side of the chooser: a chooser error is shown, a cancel does
// nothing, and a chosen path goes to the pane.

// openFile asks for a file and hands it to open.
func (d deps) openFile(title string, filter Filter, open func(path string)) {
	d.files.OpenFile(title, filter, d.chosen(open))
}

// openFolder asks for a folder and hands it to open.
func (d deps) openFolder(title string, open func(dir string)) {
	d.files.OpenFolder(title, d.chosen(open))
}

// saveFile asks where to save a new file, suggesting name, and hands the
// path to save.
func (d deps) saveFile(title, name string, filter Filter, save func(path string)) {
	d.files.SaveFile(title, name, filter, d.chosen(save))
}

func (d deps) chosen(use func(path string)) func(string, error) {
	return func(path string, err error) {
		if err != nil {
			d.showError(err)
			return
		}
		if path != "" {
			rememberFolder(d.prefs, path)
			use(path)
		}
	}
}

// rememberFolder makes the folder of path (path itself when it is a
// folder, or a file not yet written) where the next file dialog opens.
func rememberFolder(prefs fyne.Preferences, path string) {
	dir := path
	if fi, err := os.Stat(path); err != nil || !fi.IsDir() {
		dir = filepath.Dir(path)
	}
	prefs.SetString(prefLastDir, dir)
}

// lastFolder is the folder the last dialog chose from, "" if none or gone.
func lastFolder(prefs fyne.Preferences) string {
	dir := prefs.String(prefLastDir)
	if fi, err := os.Stat(dir); dir == "" || err != nil || !fi.IsDir() {
		return ""
	}
	return dir
}
