package ui

import (
	"fmt"
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
	heatValue                         *widget.Label
	heatViews                         *fyne.Container
}

func (s *ScorePane) heatmapView() fyne.CanvasObject {
	changed := func(string) { s.updateHeatmaps() }
	s.metric = widget.NewSelect([]string{"PA", "AA", "SC"}, changed)
	s.metric.SetSelected("PA")
	s.model = widget.NewSelect(nil, changed)
	s.model2 = widget.NewSelect(nil, changed)
	s.grid = widget.NewSelect(nil, changed)
	s.cond = widget.NewSelect(nil, changed)
	s.heat, s.heat2 = NewZoomView(nil), NewZoomView(nil)
	s.heat.OnHover = func(x, y float64, ok bool) { s.hoverHeat(s.heatData, x, y, ok) }
	s.heat2.OnHover = func(x, y float64, ok bool) { s.hoverHeat(s.heatData2, x, y, ok) }
	s.heatValue = widget.NewLabel("Point at a cell to read its value.")
	save := widget.NewButtonWithIcon("Export PNG…", theme.DocumentSaveIcon(), s.exportHeatmap)
	controls := container.NewHBox(
		widget.NewLabel("Metric"), s.metric, widget.NewLabel("Model"), s.model,
		widget.NewLabel("Compare with"), s.model2, widget.NewLabel("Grid"), s.grid,
		widget.NewLabel("Condition"), s.cond, save)
	s.heatViews = container.NewGridWithColumns(2, s.heat, s.heat2)
	return container.NewBorder(container.NewHScroll(controls), s.heatValue, nil, nil, s.heatViews)
}

func parseGrid(sel string) int {
	n := 0
	fmt.Sscanf(sel, "%d×", &n)
	return n
}

// updateHeatmaps draws the chosen heatmaps off the UI goroutine.
func (s *ScorePane) updateHeatmaps() {
	if s.report == nil || s.metric == nil || s.model.Selected == "" || s.grid.Selected == "" {
		return
	}
	rep := s.report
	metric := score.HeatmapMetric(strings.ToLower(s.metric.Selected))
	models := []string{s.model.Selected, s.model2.Selected}
	n, cond := parseGrid(s.grid.Selected), s.cond.Selected
	s.work.Go(func() func() {
		var data [2]*score.Heatmap
		var pics [2]*render.Pyramid
		var errs [2]error
		for i, m := range models {
			if m == "" || m == "(none)" {
				continue
			}
			h, err := rep.Heatmap(metric, m, n, cond)
			if err != nil {
				errs[i] = err
				continue
			}
			data[i], pics[i] = h, render.NewPyramid(render.Heatmap(h, render.HeatmapOptions{}))
		}
		return func() {
			if s.report != rep {
				return
			}
			s.heatData, s.heatData2 = data[0], data[1]
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
			if errs[0] != nil {
				s.heatValue.SetText(errs[0].Error())
			} else {
				s.heatValue.SetText("Point at a cell to read its value.")
			}
		}
	})
}

// heatmapShown is the heatmap of the left view, for tests.
func (s *ScorePane) heatmapShown() *score.Heatmap { return s.heatData }

func (s *ScorePane) hoverHeat(h *score.Heatmap, x, y float64, ok bool) {
	if h == nil || !ok {
		return
	}
	origin, cell := render.HeatmapGrid(h, render.HeatmapOptions{})
	c, r := int(x-float64(origin.X))/cell, int(y-float64(origin.Y))/cell
	if x < float64(origin.X) || y < float64(origin.Y) || r >= h.Grid || c >= h.Grid {
		return
	}
	text := fmt.Sprintf("%s · %s · cell (row %d, col %d): %s", h.Model, strings.ToUpper(string(h.Metric)), r, c, fmtRate(h.Cells[r*h.Grid+c]))
	if edges := h.CellEdges(r, c); len(edges) > 0 {
		parts := make([]string, len(edges))
		for i, e := range edges {
			parts[i] = fmtRate(e)
		}
		text += " — mean of its edges " + strings.Join(parts, ", ")
	}
	s.heatValue.SetText(text)
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
