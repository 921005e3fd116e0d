package ui

import (
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/theme"
)

// ScreenshotSizes are the window sizes `jigbench screenshot` renders: a
// desktop monitor and a small laptop.
var ScreenshotSizes = []fyne.Size{{Width: 1280, Height: 800}, {Width: 1024, Height: 600}}

// Screenshots renders every pane, with demo data, in the light and dark
// themes at each size through Fyne's software renderer (no display needed),
// writing one PNG per picture into dir. It returns the files written.
func Screenshots(dir, version string, sizes []fyne.Size) ([]string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, err
	}
	a := test.NewApp()
	defer test.NewApp() // leave a fresh app behind, not ours
	var files []string
	for _, variant := range []fyne.ThemeVariant{theme.VariantLight, theme.VariantDark} {
		a.Settings().SetTheme(forcedVariant{Theme: theme.DefaultTheme(), variant: variant})
		vname := map[fyne.ThemeVariant]string{theme.VariantLight: "light", theme.VariantDark: "dark"}[variant]
		for _, size := range sizes {
			m := NewMainWindow(a, Options{Version: version, queued: true})
			m.Window.Resize(size)
			for i, p := range m.panes {
				m.Show(i)
				m.settle()
				if i == paneAblation {
					m.ablation.pin(m.ablation.samplePiece())
				}
				views := []screenshotView{{Show: func() {}}}
				if more, ok := p.(interface{ ScreenshotViews() []screenshotView }); ok {
					views = append(views, more.ScreenshotViews()...)
				}
				for _, v := range views {
					v.Show()
					m.settle()
					name := strings.ToLower(p.Title())
					if v.Name != "" {
						name += "-" + v.Name
					}
					path := filepath.Join(dir, fmt.Sprintf("%s-%s-%dx%d.png", name, vname, int(size.Width), int(size.Height)))
					if err := writeCapture(path, m.Window.Canvas().Capture()); err != nil {
						return files, err
					}
					files = append(files, path)
				}
			}
			m.Window.Close()
		}
	}
	return files, nil
}

// screenshotView is one more picture of a pane: Show arranges it.
type screenshotView struct {
	Name string
	Show func()
}

func writeCapture(path string, img image.Image) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	if err := png.Encode(f, img); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

// settle finishes all background work and applies its results.
func (m *MainWindow) settle() { m.work.settle() }

// forcedVariant pins a theme to light or dark, whatever the system says.
type forcedVariant struct {
	fyne.Theme
	variant fyne.ThemeVariant
}

func (f forcedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.variant)
}
