package ui

import (
	"fmt"
	"image"
	"strconv"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// GeneratePane previews a puzzle as its settings change.
type GeneratePane struct {
	win *MainWindow

	source  *widget.Select
	grid    *widget.Select
	seed    *widget.Entry
	style   *widget.Select
	tabs    *container.AppTabs
	shape   *canvas.Image
	rect    *canvas.Image
	solved  *canvas.Image
	request atomic.Uint64 // the newest preview asked for; older renders are dropped

	// rendered is called on the UI goroutine after each finished preview (tests wait on it).
	rendered func(*render.Generated)
}

// NewGeneratePane makes the pane; its first preview is a demo puzzle.
func NewGeneratePane(w *MainWindow) *GeneratePane {
	return &GeneratePane{win: w}
}

// Title implements Pane.
func (g *GeneratePane) Title() string { return "Generate" }

// Icon implements Pane.
func (g *GeneratePane) Icon() fyne.Resource { return theme.MediaPhotoIcon() }

// View implements Pane.
func (g *GeneratePane) View() fyne.CanvasObject {
	g.source = widget.NewSelect(demo.Names(), func(string) { g.refresh() })
	g.grid = widget.NewSelect([]string{"4", "8", "12", "16"}, func(string) { g.refresh() })
	g.seed = widget.NewEntry()
	g.seed.OnChanged = func(string) { g.refresh() }
	newSeed := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), func() {
		g.seed.SetText(strconv.FormatUint(uint64(time.Now().UnixNano())%1_000_000, 10))
	})
	g.style = widget.NewSelect([]string{puzzle.StyleSemicircle, puzzle.StyleClassic}, func(string) { g.refresh() })

	g.shape, g.rect, g.solved = newPreviewImage(), newPreviewImage(), newPreviewImage()
	g.tabs = container.NewAppTabs(
		container.NewTabItem("Shape sheet", g.shape),
		container.NewTabItem("Rectangular sheet", g.rect),
		container.NewTabItem("Solved", g.solved),
	)
	form := widget.NewForm(
		widget.NewFormItem("Image", g.source),
		widget.NewFormItem("Grid", g.grid),
		widget.NewFormItem("Seed", container.NewBorder(nil, nil, nil, newSeed, g.seed)),
		widget.NewFormItem("Tabs", g.style),
	)
	// Set initial values without a preview per field, then ask for one.
	g.source.SetSelected(demo.Names()[0])
	g.grid.SetSelected("8")
	g.seed.SetText("42")
	g.style.SetSelected(puzzle.StyleSemicircle)
	g.refresh()
	return container.NewBorder(nil, nil, container.NewVBox(form), nil, g.tabs)
}

func newPreviewImage() *canvas.Image {
	img := canvas.NewImageFromImage(image.NewRGBA(image.Rect(0, 0, 1, 1)))
	img.FillMode = canvas.ImageFillContain
	return img
}

// refresh asks for a preview of the current settings, rendered off the UI goroutine.
func (g *GeneratePane) refresh() {
	if g.style == nil || g.style.Selected == "" || g.seed == nil {
		return // still building the form
	}
	seed, err := strconv.ParseUint(g.seed.Text, 10, 64)
	if err != nil {
		g.win.Status.Set("Seed must be a whole number ≥ 0.")
		return
	}
	n, _ := strconv.Atoi(g.grid.Selected)
	name := g.source.Selected
	opt := puzzle.DefaultOptions()
	opt.TabStyle = g.style.Selected
	id := g.request.Add(1)
	g.win.Status.Set(fmt.Sprintf("Generating %s, %d×%d, seed %d…", name, n, n, seed))
	go func() {
		start := time.Now()
		res, err := generateDemo(name, n, seed, opt)
		took := time.Since(start)
		fyne.Do(func() {
			if g.request.Load() != id {
				return // settings changed again; a newer render is on its way
			}
			if err != nil {
				g.win.Status.Set("Could not generate: " + err.Error())
				return
			}
			g.show(res, took)
		})
	}()
}

func generateDemo(name string, n int, seed uint64, opt puzzle.Options) (*render.Generated, error) {
	img, err := demo.Image(name)
	if err != nil {
		return nil, err
	}
	return render.Generate(render.SourceFromImage(name, img), n, seed, opt)
}

func (g *GeneratePane) show(res *render.Generated, took time.Duration) {
	g.shape.Image, g.rect.Image, g.solved.Image = res.Shape, res.Rect, res.Solved
	g.shape.Refresh()
	g.rect.Refresh()
	g.solved.Refresh()
	g.win.Status.Set(fmt.Sprintf("%s — %d pieces, generated in %d ms.", res.Instance.ID, len(res.Instance.Pieces), took.Milliseconds()))
	if g.rendered != nil {
		g.rendered(res)
	}
}
