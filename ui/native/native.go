// Package native opens the operating system's file dialogs through
// github.com/sqweek/dialog. It is the only package that imports it (its init
// starts GTK on Linux), and only the app links it: tests use a fake.
package native

import (
	"errors"
	"fmt"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"github.com/sqweek/dialog"

	"github.com/jigbench/jigbench/ui"
)

// Chooser shows native dialogs from a goroutine (on the UI goroutine they
// would freeze the window) and hands the answer back with fyne.Do. When a
// native dialog cannot be shown it falls back to Fyne's own.
type Chooser struct {
	Fallback ui.FileChooser
	// Start returns the folder dialogs open in ("" for the system default).
	Start func() string
	busy  atomic.Bool // a parentless native dialog must not open twice
}

// OpenFile implements ui.FileChooser.
func (c *Chooser) OpenFile(title string, filter ui.Filter, done func(string, error)) {
	start := c.start()
	c.run(func() (string, error) {
		b := dialog.File().Title(title).SetStartDir(start)
		if len(filter.Extensions) > 0 {
			b = b.Filter(filter.Name, filter.Extensions...)
		}
		return b.Load()
	}, func() { c.Fallback.OpenFile(title, filter, done) }, done)
}

// OpenFolder implements ui.FileChooser.
func (c *Chooser) OpenFolder(title string, done func(string, error)) {
	start := c.start()
	c.run(func() (string, error) { return browseFolder(title, start) },
		func() { c.Fallback.OpenFolder(title, done) }, done)
}

// SaveFile implements ui.FileChooser.
func (c *Chooser) SaveFile(title, name string, filter ui.Filter, done func(string, error)) {
	start := c.start()
	c.run(func() (string, error) {
		b := dialog.File().Title(title).SetStartFile(name).SetStartDir(start)
		if len(filter.Extensions) > 0 {
			b = b.Filter(filter.Name, filter.Extensions...)
		}
		return b.Save()
	}, func() { c.Fallback.SaveFile(title, name, filter, done) }, done)
}

// start is the folder to open in, read on the UI goroutine (it reads the
// app's preferences) before the dialog's goroutine starts.
func (c *Chooser) start() string {
	if c.Start == nil {
		return ""
	}
	return c.Start()
}

func (c *Chooser) run(show func() (string, error), fallback func(), done func(string, error)) {
	if !c.busy.CompareAndSwap(false, true) {
		return
	}
	go func() {
		defer c.busy.Store(false)
		path, err := func() (p string, err error) {
			defer func() {
				if r := recover(); r != nil { // sqweek panics when GTK could not start
					err = fmt.Errorf("native dialog: %v", r)
				}
			}()
			return show()
		}()
		fyne.Do(func() {
			switch {
			case errors.Is(err, dialog.ErrCancelled):
				done("", nil)
			case err != nil && c.Fallback != nil:
				fallback()
			default:
				done(path, err)
			}
		})
	}()
}
