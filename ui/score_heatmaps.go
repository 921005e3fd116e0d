package ui

import (
	"fmt"
	"slices"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// scoreHeatmaps is the Score pane's two heatmaps, side by side.
type scoreHeatmaps struct {
	metric, model, model2, grid, cond *widget.Select
	heat, heat2                       *ZoomView
	heatData, heatData2               *score.Heatmap
	heatOpt, heatOpt2                 render.HeatmapOptions // the cell sizes drawn
	heatValue                         *widget.Label
	heatViews                         *fyne.Container
	heatReq                           uint64 // the latest drawing asked for; older ones are dropped
}

// noComparison is the Compare-with choice that shows one heatmap.
const noComparison = "(none)"

func (s *ScorePane) heatmapView() fyne.CanvasObject {
	changed := func(string) { s.updateHeatmaps() }
	s.metric = widget.NewSelect([]string{"PA", "AA", "SC"}, changed)
	s.metric.SetSelected("PA")
	s.model = widget.NewSelect(nil, func(string) {
		s.syncCompareOptions()
		s.updateHeatmaps()
	})
	s.model2 = widget.NewSelect(nil, changed)
	s.grid = widget.NewSelect(nil, changed)
	s.cond = widget.NewSelect(nil, changed)
	s.heat, s.heat2 = NewZoomView(nil), NewZoomView(nil)
	s.heat.OnHover = func(x, y float64, ok bool) { s.hoverHeat(s.heatData, s.heatOpt, x, y, ok) }
	s.heat2.OnHover = func(x, y float64, ok bool) { s.hoverHeat(s.heatData2, s.heatOpt2, x, y, ok) }
	s.heat.OnTap = func(float64, float64) { toggleFullSize(s.heat) }
	s.heat2.OnTap = func(float64, float64) { toggleFullSize(s.heat2) }
	s.heatValue = widget.NewLabel("Point at a cell to read its value.")
	s.heatValue.Truncation = fyne.TextTruncateEllipsis
	save := widget.NewButtonWithIcon("Export PNG…", theme.DocumentSaveIcon(), s.exportHeatmap)
	// Two rows, so everything fits at 1024 px; the model boxes wide enough
	// for a full model name.
	row1 := container.NewHBox(widget.NewLabel("Model"), widen(s.model, 230),
		widget.NewLabel("Compare with"), widen(s.model2, 230))
	row2 := container.NewHBox(widget.NewLabel("Metric"), s.metric, widget.NewLabel("Grid"), s.grid,
		widget.NewLabel("Condition"), s.cond, save)
	s.heatViews = container.NewGridWithColumns(2, s.heat, s.heat2)
	views := container.New(&resizeWatch{onResize: func(fyne.Size) { s.updateHeatmaps() }}, s.heatViews)
	return container.NewBorder(container.NewVBox(container.NewHScroll(row1), container.NewHScroll(row2)), s.heatValue, nil, nil, views)
}

// toggleFullSize switches a heatmap between fitting its view and its full
// size (one picture pixel per screen pixel; drag to pan).
func toggleFullSize(z *ZoomView) {
	if z.state.fit {
		z.state.OneToOne()
	} else {
		z.state.Fit()
	}
}

// widen gives o at least width w (a Select as wide as its longest option).
func widen(o fyne.CanvasObject, w float32) fyne.CanvasObject {
	return container.New(&minWidthLayout{w}, o)
}

type minWidthLayout struct{ w float32 }

func (l *minWidthLayout) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
}

func (l *minWidthLayout) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return fyne.NewSize(max(s.Width, l.w), s.Height)
}

// resizeWatch lays out its one child over the whole area and calls
// onResize when the area's size changes (pictures drawn to fit it).
type resizeWatch struct {
	size     fyne.Size
	onResize func(fyne.Size)
}

func (l *resizeWatch) Layout(objs []fyne.CanvasObject, size fyne.Size) {
	for _, o := range objs {
		o.Resize(size)
		o.Move(fyne.NewPos(0, 0))
	}
	if size != l.size {
		l.size = size
		l.onResize(size)
	}
}

func (l *resizeWatch) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s
}

// syncCompareOptions offers every model but the one chosen for comparison.
func (s *ScorePane) syncCompareOptions() {
	if s.report == nil {
		return
	}
	opts := []string{noComparison}
	for _, m := range s.reportModels() {
		if m != s.model.Selected {
			opts = append(opts, m)
		}
	}
	s.model2.Options = opts
	if !slices.Contains(opts, s.model2.Selected) {
		s.model2.Selected = noComparison
	}
	s.model2.Refresh()
}

// reportModels are the report's models in report order.
func (s *ScorePane) reportModels() []string {
	var models []string
	for _, g := range s.report.Groups {
		if !slices.Contains(models, g.Model) {
			models = append(models, g.Model)
		}
	}
	return models
}

func parseGrid(sel string) int {
	n := 0
	fmt.Sscanf(sel, "%d×", &n)
	return n
}

// heatmapFit is the largest cell size at which h, its labels at full
// size, fits into w×ht px (never above the automatic size). The colour bar
// is as tall as the grid and its tick labels run together below about
// 180 px, so the grid keeps that much and a smaller view scales the picture
// down a little instead (a click shows it at full size).
func heatmapFit(h *score.Heatmap, w, ht int) render.HeatmapOptions {
	auto := render.HeatmapOptions{}
	if w <= 0 || ht <= 0 {
		return auto
	}
	n := max(h.Grid, 1)
	_, hi := render.HeatmapGrid(h, auto)
	lo := min(max((180+n-1)/n, 8), hi)
	fits := func(cell int) bool {
		b := render.Heatmap(h, render.HeatmapOptions{CellSize: cell}).Bounds()
		return b.Dx() <= w && b.Dy() <= ht
	}
	// The picture grows with the cell size (the title's width aside), so
	// the largest cell that fits is found by bisection.
	if !fits(lo) {
		return render.HeatmapOptions{CellSize: lo}
	}
	for lo < hi {
		mid := (lo + hi + 1) / 2
		if fits(mid) {
			lo = mid
		} else {
			hi = mid - 1
		}
	}
	return render.HeatmapOptions{CellSize: lo}
}

// updateHeatmaps draws the chosen heatmaps off the UI goroutine, at the
// size that fits the views, so the labels stay at their full size.
func (s *ScorePane) updateHeatmaps() {
	if s.report == nil || s.metric == nil || s.model.Selected == "" || s.grid.Selected == "" {
		return
	}
	rep := s.report
	s.heatReq++
	req := s.heatReq
	metric := score.HeatmapMetric(strings.ToLower(s.metric.Selected))
	models := []string{s.model.Selected, s.model2.Selected}
	n, cond := parseGrid(s.grid.Selected), s.cond.Selected
	size := s.heatViews.Size()
	w, h := int(size.Width), int(size.Height)
	if models[1] != "" && models[1] != noComparison {
		w = w/2 - 4
	}
	s.work.Go(func() func() {
		var data [2]*score.Heatmap
		var opts [2]render.HeatmapOptions
		var pics [2]*render.Pyramid
		var errs [2]error
		for i, m := range models {
			if m == "" || m == noComparison {
				continue
			}
			hm, err := rep.Heatmap(metric, m, n, cond)
			if err != nil {
				errs[i] = err
				continue
			}
			opts[i] = heatmapFit(hm, w, h)
			data[i], pics[i] = hm, render.NewPyramid(render.Heatmap(hm, opts[i]))
		}
		return func() {
			if s.report != rep || s.heatReq != req {
				return
			}
			s.heatData, s.heatData2 = data[0], data[1]
			s.heatOpt, s.heatOpt2 = opts[0], opts[1]
			s.heat.SetImage(pics[0])
			s.heat2.SetImage(pics[1])
			if pics[1] == nil { // no comparison: one heatmap, full width
				s.heat2.Hide()
				s.heatViews.Layout = layout.NewGridLayoutWithColumns(1)
			} else {
				s.heat2.Show()
				s.heatViews.Layout = layout.NewGridLayoutWithColumns(2)
			}
			s.heatViews.Refresh()
			s.heat.state.Fit()
			s.heat2.state.Fit()
			where := fmt.Sprintf("%d×%d %s", n, n, cond)
			switch {
			case errs[0] != nil:
				s.heatValue.SetText(fmt.Sprintf("%s has no answers at %s.", models[0], where))
			case errs[1] != nil:
				s.heatValue.SetText(fmt.Sprintf("No comparison: %s has no answers at %s; %s is shown alone.", models[1], where, models[0]))
			default:
				s.heatValue.SetText("Point at a cell to read its value; click for full size (again to fit), scroll to zoom, drag to pan.")
			}
		}
	})
}

// heatmapShown is the heatmap of the left view, for tests.
func (s *ScorePane) heatmapShown() *score.Heatmap { return s.heatData }

func (s *ScorePane) hoverHeat(h *score.Heatmap, opt render.HeatmapOptions, x, y float64, ok bool) {
	if h == nil || !ok {
		return
	}
	origin, cell := render.HeatmapGrid(h, opt)
	c, r := int(x-float64(origin.X))/cell, int(y-float64(origin.Y))/cell
	if x < float64(origin.X) || y < float64(origin.Y) || r >= h.Grid || c >= h.Grid {
		return
	}
	s.heatValue.SetText(heatCellText(h, r, c))
}

// heatCellText is the hover readout of cell (r, c): which map, the value
// (and its edges') and over how many instances.
func heatCellText(h *score.Heatmap, r, c int) string {
	text := fmt.Sprintf("%s · %s · %d×%d %s · row %d, column %d (from 0): %s", h.Model, strings.ToUpper(string(h.Metric)),
		h.Grid, h.Grid, h.Condition, r, c, score.Percent(h.Cells[r*h.Grid+c]))
	if edges := h.CellEdges(r, c); len(edges) > 0 {
		parts := make([]string, len(edges))
		for i, e := range edges {
			parts[i] = score.Percent(e)
		}
		text += " — mean of its edges " + strings.Join(parts, ", ")
	}
	return text + " · " + h.InstanceCount()
}

// ---- instances ----

func (s *ScorePane) exportHeatmap() {
	h := s.heatData
	if h == nil {
		s.status.Set("No heatmap to export yet.")
		return
	}
	name := fmt.Sprintf("heatmap-%s-%s-%dx%d-%s.png", h.Metric, h.Model, h.Grid, h.Grid, h.Condition)
	s.saveFile("Export the heatmap", name, Filter{Name: "PNG", Extensions: []string{"png"}}, s.ExportHeatmap)
}

// ExportHeatmap writes the left heatmap as PNG.
func (s *ScorePane) ExportHeatmap(path string) {
	h := s.heatData
	s.work.Go(func() func() {
		data, err := render.EncodePNG(render.Heatmap(h, render.HeatmapOptions{}))
		if err == nil {
			err = fsutil.WriteFile(path, data)
		}
		return func() {
			if err != nil {
				s.showError(err)
				return
			}
			s.status.Set("Exported " + path)
		}
	})
}
