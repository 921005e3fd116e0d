package ui

import (
	"fmt"
	"math/rand/v2"
	"path/filepath"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// previewDebounce lets a burst of setting changes (typing a seed, dragging
// the ratio slider) produce one render.
const previewDebounce = 120 * time.Millisecond

// Preference keys.
const (
	prefGrid     = "generate.grid"
	prefSeed     = "generate.seed"
	prefStyle    = "generate.tab_style"
	prefRatio    = "generate.tab_ratio"
	prefSize     = "generate.size"
	prefDemo     = "generate.demo"
	prefLastDir  = "files.last_folder"
	prefRecent   = "files.recent"
	prefWinWidth = "window.width"
	prefWinHigh  = "window.height"
)

var gridPresets = []string{"4", "8", "12", "16"}

var sizePresets = []string{"512", "768", "1024", "1536", "2048"}

// GeneratePane previews a puzzle as its settings change and saves instances.
type GeneratePane struct {
	deps
	// onCompare shows a puzzle in the Ablation pane.
	onCompare func(*render.Generated)

	source   *widget.Select
	fileNote *widget.Label
	problem  *widget.Label // what is wrong with the settings, shown under the form
	side     *fyne.Container
	save     *widget.Button
	compare  *widget.Button
	grid     *widget.SelectEntry
	seed     *widget.Entry
	style    *widget.Select
	ratio    *widget.Slider
	ratioVal *widget.Label
	size     *widget.Select
	edges    *widget.Check
	tabs     *container.AppTabs
	sheets   *ZoomState // shared by the shape and rectangular previews
	shape    *ZoomView
	rect     *ZoomView
	solved   *ZoomView

	file    *render.Source // the opened image file, if any
	current *preview       // what is shown
	ready   bool           // the form is built; changes now trigger previews

	// request counts preview requests: a render whose number is no longer the
	// newest is dropped, so stale settings never replace fresh ones.
	request atomic.Uint64

	cacheMu sync.Mutex
	cache   preparedCache

	dataset *DatasetForm // built on first use
}

// preview is one finished render, ready to show.
type preview struct {
	*render.Preview
	took     time.Duration
	rendered uint64 // the request it answered
}

// preparedCache keeps the last scaled source so a new seed or tab style
// re-renders only the sheets.
type preparedCache struct {
	key  string
	prep *render.Prepared
}

// settings is a snapshot of the form.
type settings struct {
	demo string         // demo image name, or "" for the opened file
	file *render.Source // the opened file
	grid int
	seed uint64
	opt  puzzle.Options
}

// newGeneratePane makes the pane; it opens on a demo puzzle.
func newGeneratePane(d deps, onCompare func(*render.Generated)) *GeneratePane {
	return &GeneratePane{deps: d, onCompare: onCompare}
}

// Title implements Pane.
func (g *GeneratePane) Title() string { return "Generate" }

// Icon implements Pane.
func (g *GeneratePane) Icon() fyne.Resource { return theme.MediaPhotoIcon() }

// View implements Pane.
func (g *GeneratePane) View() fyne.CanvasObject {
	prefs := g.prefs
	changed := func() { g.refresh() }

	g.source = widget.NewSelect(demo.Names(), func(string) {
		if g.source.Selected != fileChoice(g.file) {
			g.prefs.SetString(prefDemo, g.source.Selected)
		}
		changed()
	})
	g.fileNote = widget.NewLabel("")
	g.fileNote.Wrapping = fyne.TextWrapWord
	g.fileNote.Hide()
	openImage := widget.NewButtonWithIcon("Open image…", theme.FolderOpenIcon(), g.OpenImageDialog)

	g.grid = widget.NewSelectEntry(gridPresets)
	g.grid.OnChanged = func(string) { changed() }
	g.seed = widget.NewEntry()
	g.seed.OnChanged = func(string) { changed() }
	newSeed := widget.NewButtonWithIcon("", theme.ViewRefreshIcon(), g.NewSeed)
	g.style = widget.NewSelect([]string{puzzle.StyleSemicircle, puzzle.StyleClassic}, func(string) { changed() })
	g.ratio = widget.NewSlider(puzzle.MinTabRatio, puzzle.MaxTabRatio)
	g.ratio.Step = 0.01
	g.ratioVal = widget.NewLabel("")
	g.ratio.OnChanged = func(v float64) {
		g.ratioVal.SetText(fmt.Sprintf("%.2f", v))
		changed()
	}
	g.size = widget.NewSelect(sizePresets, func(string) { changed() })

	g.problem = widget.NewLabel("")
	g.problem.Importance = widget.DangerImportance
	g.problem.Wrapping = fyne.TextWrapWord
	g.problem.Hide()

	form := widget.NewForm(
		widget.NewFormItem("Image", g.source),
		widget.NewFormItem("", openImage),
		widget.NewFormItem("Grid", g.grid),
		widget.NewFormItem("Seed", container.NewBorder(nil, nil, nil, newSeed, g.seed)),
		widget.NewFormItem("Tabs", g.style),
		widget.NewFormItem("Tab size", container.NewBorder(nil, nil, nil, g.ratioVal, g.ratio)),
		widget.NewFormItem("Size (px)", g.size),
	)
	g.save = widget.NewButtonWithIcon("Save instance…", theme.DocumentSaveIcon(), g.SaveDialog)
	g.save.Importance = widget.HighImportance
	g.compare = widget.NewButtonWithIcon("Compare in Ablation", theme.ViewRestoreIcon(), func() {
		if g.current != nil {
			g.onCompare(g.current.Gen)
		}
	})
	g.save.Disable() // until the first preview is on screen
	g.compare.Disable()
	batch := widget.NewButtonWithIcon("Generate dataset…", theme.StorageIcon(), func() { g.Dataset().Show() })
	hint := widget.NewLabel("Wheel: zoom · drag: pan · 0: fit · 1: 1:1")
	hint.Importance = widget.LowImportance
	g.side = container.NewVBox(form, g.problem, g.fileNote, widget.NewSeparator(), g.save, g.compare, batch, hint)

	g.sheets = NewZoomState()
	g.shape, g.rect = NewZoomView(g.sheets), NewZoomView(g.sheets)
	g.solved = NewZoomView(nil)
	g.edges = widget.NewCheck("Show edge polarities", func(bool) { g.showSolved() })
	g.tabs = container.NewAppTabs(
		container.NewTabItem("Shape sheet", g.shape),
		container.NewTabItem("Rectangular sheet", g.rect),
		container.NewTabItem("Solved", container.NewBorder(g.edges, nil, nil, nil, g.solved)),
	)
	toolbar := zoomToolbar(func() *ZoomState {
		if g.tabs.SelectedIndex() == 2 {
			return g.solved.state
		}
		return g.sheets
	})

	// Restore the last settings, then allow previews.
	g.source.SetSelected(prefs.StringWithFallback(prefDemo, demo.Names()[0]))
	g.grid.SetText(strconv.Itoa(prefs.IntWithFallback(prefGrid, 8)))
	g.seed.SetText(prefs.StringWithFallback(prefSeed, "42"))
	g.style.SetSelected(prefs.StringWithFallback(prefStyle, puzzle.StyleSemicircle))
	g.ratio.SetValue(prefs.FloatWithFallback(prefRatio, 0.2))
	g.size.SetSelected(prefs.StringWithFallback(prefSize, "1024"))
	g.ready = true
	g.refresh()

	return container.NewBorder(nil, nil, container.NewPadded(g.side), nil,
		container.NewBorder(toolbar, nil, nil, nil, g.tabs))
}

// zoomToolbar controls the view that current returns.
func zoomToolbar(current func() *ZoomState) fyne.CanvasObject {
	return widget.NewToolbar(
		widget.NewToolbarAction(theme.ZoomFitIcon(), func() { current().Fit() }),
		widget.NewToolbarAction(theme.ZoomOutIcon(), func() { current().ZoomBy(1 / 1.25) }),
		widget.NewToolbarAction(theme.ZoomInIcon(), func() { current().ZoomBy(1.25) }),
		toolbarButton{widget.NewButton("1:1", func() { current().OneToOne() })},
	)
}

// toolbarButton puts a text button in a toolbar.
type toolbarButton struct{ *widget.Button }

func (t toolbarButton) ToolbarObject() fyne.CanvasObject {
	t.Importance = widget.LowImportance
	return t.Button
}

func fileChoice(f *render.Source) string {
	if f == nil {
		return ""
	}
	return "File: " + f.Name
}

// NewSeed picks a fresh random seed.
func (g *GeneratePane) NewSeed() {
	g.seed.SetText(strconv.FormatUint(rand.Uint64N(1_000_000), 10))
}

// read validates the form; the error says what to fix.
func (g *GeneratePane) read() (settings, error) {
	var s settings
	n, err := strconv.Atoi(g.grid.Text)
	if err != nil || puzzle.ValidateGrid(n) != nil {
		return s, fmt.Errorf("grid must be a whole number from %d to %d", puzzle.MinGrid, puzzle.MaxGrid)
	}
	seed, err := strconv.ParseUint(g.seed.Text, 10, 64)
	if err != nil {
		return s, fmt.Errorf("seed must be a whole number ≥ 0")
	}
	size, _ := strconv.Atoi(g.size.Selected)
	s = settings{grid: n, seed: seed, opt: puzzle.Options{Size: size, TabStyle: g.style.Selected, TabRatio: g.ratio.Value}}
	if m := puzzle.MaxTabRatioFor(s.opt.TabStyle); s.opt.TabRatio > m {
		s.opt.TabRatio = m // classic knobs are wider, so their limit is lower
	}
	if g.file != nil && g.source.Selected == fileChoice(g.file) {
		s.file = g.file
	} else {
		s.demo = g.source.Selected
	}
	return s, s.opt.Validate()
}

// refresh schedules a preview of the current settings, rendered off the UI goroutine.
func (g *GeneratePane) refresh() {
	if !g.ready {
		return
	}
	s, err := g.read()
	if err != nil {
		g.invalid(capitalise(err.Error()) + ".")
		return
	}
	prefs := g.prefs
	prefs.SetInt(prefGrid, s.grid)
	prefs.SetString(prefSeed, g.seed.Text)
	prefs.SetString(prefStyle, s.opt.TabStyle)
	prefs.SetFloat(prefRatio, g.ratio.Value)
	prefs.SetString(prefSize, g.size.Selected)

	id := g.request.Add(1)
	g.setShown(g.current) // the shown preview is not these settings' until it is replaced
	g.work.After(previewDebounce, func() func() {
		if g.request.Load() != id {
			return nil // superseded while waiting
		}
		p, err := g.render(s)
		return func() {
			if g.request.Load() != id {
				return // settings changed again; a newer render follows
			}
			if err != nil {
				// Settings the core refuses (pieces too small for the
				// size) are a matter of the form, told beside it.
				g.invalid(err.Error())
				return
			}
			g.show(p)
		}
	})
}

// render builds a preview; it runs on a worker goroutine.
func (g *GeneratePane) render(s settings) (*preview, error) {
	start := time.Now()
	src := s.file
	key := ""
	if src == nil {
		img, err := demo.Image(s.demo)
		if err != nil {
			return nil, err
		}
		src = render.SourceFromImage(s.demo, img)
	}
	key = fmt.Sprintf("%x/%d/%d", src.SHA256[:8], s.opt.Size, s.grid)
	g.cacheMu.Lock()
	prep := g.cache.prep
	if g.cache.key != key {
		prep = nil
	}
	g.cacheMu.Unlock()
	if prep == nil {
		var err error
		if prep, err = render.Prepare(src, s.opt.Size, s.grid); err != nil {
			return nil, err
		}
		g.cacheMu.Lock()
		g.cache = preparedCache{key: key, prep: prep}
		g.cacheMu.Unlock()
	}
	rp, err := render.NewPreview(src, prep, s.grid, s.seed, s.opt)
	if err != nil {
		return nil, err
	}
	p := &preview{Preview: rp}
	p.took = time.Since(start)
	return p, nil
}

// invalid says what is wrong with the settings, beside the form and in the
// status line, and takes the preview away: what is on screen no longer
// matches the form, so it can be neither saved nor compared.
func (g *GeneratePane) invalid(msg string) {
	g.request.Add(1) // drop any render in flight: its settings are gone
	g.current = nil
	for _, v := range []*ZoomView{g.shape, g.rect, g.solved} {
		v.SetImage(nil)
	}
	g.problem.SetText(msg)
	g.problem.Show()
	g.work.relayout(g.side)
	g.save.Disable()
	g.compare.Disable()
	g.status.Set(msg)
}

// setShown enables Save and Compare when p is on screen and matches the form.
func (g *GeneratePane) setShown(p *preview) {
	if p != nil && p.rendered == g.request.Load() {
		g.save.Enable()
		g.compare.Enable()
		return
	}
	g.save.Disable()
	g.compare.Disable()
}

func (g *GeneratePane) show(p *preview) {
	g.current = p
	p.rendered = g.request.Load()
	if g.problem.Visible() {
		g.problem.Hide()
		g.work.relayout(g.side)
	}
	g.setShown(p)
	g.shape.SetImage(p.Shape)
	g.rect.SetImage(p.Rect)
	g.showSolved()
	msg := fmt.Sprintf("%s — %d×%d, %d pieces, %d×%d px; rendered in %d ms.",
		p.Gen.Instance.ID, p.Gen.Puzzle.N, p.Gen.Puzzle.N, len(p.Gen.Instance.Pieces),
		p.Gen.Puzzle.Width, p.Gen.Puzzle.Height, p.took.Milliseconds())
	if p.Gen.Note != "" {
		msg += " Note: " + p.Gen.Note + "."
	}
	g.status.Set(msg)
}

func (g *GeneratePane) showSolved() {
	p := g.current
	if p == nil {
		return
	}
	if !g.edges.Checked {
		g.solved.SetImage(p.Solved)
		return
	}
	g.work.Go(func() func() {
		edges := p.Edges() // drawn on first use, off the UI goroutine
		return func() {
			if g.current == p && g.edges.Checked {
				g.solved.SetImage(edges)
			}
		}
	})
}

// Dataset is the "Generate dataset…" form.
func (g *GeneratePane) Dataset() *DatasetForm {
	if g.dataset == nil {
		g.dataset = newDatasetForm(g)
	}
	return g.dataset
}

// Current is the instance on screen (nil before the first render).
func (g *GeneratePane) Current() *render.Generated {
	if g.current == nil {
		return nil
	}
	return g.current.Gen
}

// OpenImageDialog asks for an image file to use as the source.
func (g *GeneratePane) OpenImageDialog() {
	g.openFile("Open image", ImageFilter, g.OpenImage)
}

// OpenImage loads path (off the UI goroutine) and makes it the source.
func (g *GeneratePane) OpenImage(path string) {
	g.status.Set("Opening " + filepath.Base(path) + "…")
	g.work.Go(func() func() {
		src, err := render.LoadSource(path)
		return func() {
			if err != nil {
				g.showError(err)
				return
			}
			g.recent(path)
			g.file = src
			g.source.Options = append([]string{fileChoice(src)}, demo.Names()...)
			g.fileNote.SetText(fmt.Sprintf("%s, %d×%d px", filepath.Base(path), src.Width, src.Height))
			g.fileNote.Show()
			g.source.SetSelected(fileChoice(src)) // triggers the preview
		}
	})
}

// SaveDialog asks for a folder and writes the shown instance into it.
func (g *GeneratePane) SaveDialog() {
	if g.current == nil || g.current.rendered != g.request.Load() {
		g.status.Set("Nothing to save yet: fix the settings or wait for the preview.")
		return
	}
	gen := g.current.Gen
	g.openFolder("Save instance into folder", func(dir string) { g.Save(gen, dir) })
}

// Save writes gen's instance folder into dir, off the UI goroutine.
func (g *GeneratePane) Save(gen *render.Generated, dir string) {
	g.status.Set("Saving " + gen.Instance.ID + "…")
	g.work.Go(func() func() {
		path, err := gen.WriteDir(dir)
		return func() {
			if err != nil {
				g.showError(err)
				return
			}
			g.recent(path)
			g.status.Set("Saved " + path)
		}
	})
}

// tourViews adds, to `jigbench screenshot`, an invalid grid (the preview
// taken away, the reason beside the form), the dataset form and its
// "Export for models…" form.
func (g *GeneratePane) tourViews() []tourView {
	grid := g.grid.Text
	return []tourView{
		{Name: "invalid", Show: func() { g.grid.SetText("65") }},
		{Name: "dataset", Show: func() {
			g.grid.SetText(grid)
			g.Dataset().Show()
		}},
		{Name: "export", Show: func() {
			f := g.Dataset()
			f.dialog.Hide()
			f.SetOut("/data/jigshape-v1")
			f.Export()
		}},
	}
}
