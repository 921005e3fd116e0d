package ui

import (
	"image/color"
	"strings"

	"fyne.io/fyne/v2"
)

// Tour shows every pane with its demo data, and the further views some
// panes have, one after another; after each has settled it calls shoot
// with a name for it ("score", "score-heatmaps"). `jigbench screenshot`
// takes its pictures this way (package ui/screenshot). It stops at the
// first error shoot returns.
func (m *MainWindow) Tour(shoot func(name string) error) error {
	for i, p := range m.panes {
		m.Show(i)
		m.work.settle()
		if i == paneAblation {
			m.ablation.pin(m.ablation.samplePiece())
		}
		views := []tourView{{Show: func() {}}}
		if more, ok := p.(interface{ tourViews() []tourView }); ok {
			views = append(views, more.tourViews()...)
		}
		for _, v := range views {
			// Dialogs a view opened do not follow into the next view.
			for o := m.Window.Canvas().Overlays(); o.Top() != nil; {
				o.Remove(o.Top())
			}
			v.Show()
			m.work.settle()
			name := strings.ToLower(p.Title())
			if v.Name != "" {
				name += "-" + v.Name
			}
			if err := shoot(name); err != nil {
				return err
			}
		}
	}
	for o := m.Window.Canvas().Overlays(); o.Top() != nil; {
		o.Remove(o.Top())
	}
	return nil
}

// tourView is one more view of a pane on the tour: Show arranges it.
type tourView struct {
	Name string
	Show func()
}

// ForcedVariant pins a theme to light or dark, whatever the system says.
type ForcedVariant struct {
	fyne.Theme
	Variant fyne.ThemeVariant
}

// Color implements fyne.Theme.
func (f ForcedVariant) Color(n fyne.ThemeColorName, _ fyne.ThemeVariant) color.Color {
	return f.Theme.Color(n, f.Variant)
}
