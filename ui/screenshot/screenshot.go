// Package screenshot renders every pane of the app to PNG through Fyne's
// software renderer (no display needed): `jigbench screenshot`. It is the
// one package that links Fyne's test driver, and the release build leaves
// it out (app/cmd_screenshot.go).
package screenshot

import (
	"fmt"
	"image/png"
	"io"
	"os"
	"path/filepath"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/ui"
)

// Sizes are the window sizes rendered: a desktop monitor and a small laptop.
var Sizes = []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 600}}

// Write renders every pane, with demo data, in the light and dark themes at
// each size, writing one PNG per picture (<pane>-<theme>-<W>x<H>.png) into
// dir. It returns the files written.
func Write(dir, version string, sizes []fyne.Size) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	a := test.NewApp()
	defer test.NewApp() // leave a fresh app behind, not ours
	var files []string
	for _, v := range []struct {
		variant fyne.ThemeVariant
		name    string
	}{{theme.VariantLight, "light"}, {theme.VariantDark, "dark"}} {
		a.Settings().SetTheme(ui.ForcedVariant{Theme: ui.Theme(), Variant: v.variant})
		for _, size := range sizes {
			m := ui.NewMainWindow(a, ui.Options{Version: version, Dispatcher: ui.NewQueue()})
			m.Window.Resize(size)
			err := m.Tour(func(name string) error {
				path := filepath.Join(dir, fmt.Sprintf("%s-%s-%dx%d.png", name, v.name, int(size.Width), int(size.Height)))
				img := m.Window.Canvas().Capture()
				if err := fsutil.WriteWith(path, func(w io.Writer) error { return png.Encode(w, img) }); err != nil {
					return err
				}
				files = append(files, path)
				return nil
			})
			m.Window.Close()
			if err != nil {
				return files, err
			}
		}
	}
	return files, nil
}
