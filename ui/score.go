package ui

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/layout"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/score"
)

// progressEvery throttles progress updates to the UI.
const progressEvery = 100 * time.Millisecond

// ScorePane scores model answers: a table of groups, heatmaps and an
// instance browser. Every number comes from core/score.
type ScorePane struct {
	deps

	truthDir string
	sources  []score.Source
	report   *score.Report
	// memory holds instances that exist only in memory (the demo), by ID.
	memory map[string]*render.Generated

	truthLabel   *widget.Label
	sourcesLabel *widget.Label
	condition    *widget.Select // for predictions added next
	loadBox      *fyne.Container
	progress     *widget.ProgressBar
	progressText *widget.Label
	cancelLoad   context.CancelFunc
	request      atomic.Uint64

	tabs *container.AppTabs

	table    *widget.Table
	rows     []scoreRow
	sortCol  int
	sortDesc bool

	metric, model, model2, grid, cond *widget.Select
	heat, heat2                       *ZoomView
	heatData, heatData2               *score.Heatmap
	heatValue                         *widget.Label
	heatViews                         *fyne.Container

	onlyInvalid         *widget.Check
	instGrid, instModel *widget.Select
	instRows            []int // indices into report.Instances
	instList            *widget.List
	reassembly, solved  *ZoomView
	instInfo, rawText   *widget.Label
	instanceCache       map[string]*render.Generated
	instanceMu          sync.Mutex
	selected            int
}

// newScorePane makes the pane; it opens on simulated models' answers to
// demo puzzles.
func newScorePane(d deps) *ScorePane {
	return &ScorePane{deps: d, selected: -1, sortCol: 1, instanceCache: map[string]*render.Generated{}}
}

// Title implements Pane.
func (s *ScorePane) Title() string { return "Score" }

// Icon implements Pane.
func (s *ScorePane) Icon() fyne.Resource { return theme.GridIcon() }

// Table columns.
var scoreColumns = []struct {
	title string
	width float32
}{
	{"Model", 190}, {"Grid", 56}, {"Condition", 84}, {"n", 52}, {"Invalid", 64},
	{"PA", 136}, {"EM", 136}, {"AA", 136}, {"AA directed", 136}, {"SC", 136},
}

const firstMetricColumn = 5

// scoreRow is one table row: a model's group, or a grid's random baseline.
type scoreRow struct {
	group    *score.Group // nil for a baseline row
	grid     int
	cond     string
	baseline score.GroupBaseline
	best     [5]bool // per metric: the best model in its grid and condition
}

func (r scoreRow) metric(i int) float64 {
	if r.group == nil {
		return [5]float64{r.baseline.PA, r.baseline.EM, r.baseline.AA, r.baseline.AADirected, r.baseline.SC}[i]
	}
	g := r.group
	return [5]float64{g.PA, g.EM, g.AA, g.AADirected, g.SC}[i]
}

func (r scoreRow) interval(i int) score.Interval {
	c := r.group.CI
	return [5]score.Interval{c.PA, c.EM, c.AA, c.AADirected, c.SC}[i]
}

// View implements Pane.
func (s *ScorePane) View() fyne.CanvasObject {
	s.truthLabel = widget.NewLabel("")
	s.truthLabel.Truncation = fyne.TextTruncateEllipsis
	s.sourcesLabel = widget.NewLabel("")
	s.sourcesLabel.Truncation = fyne.TextTruncateEllipsis
	s.condition = widget.NewSelect([]string{puzzle.ConditionShape, puzzle.ConditionRect}, nil)
	s.condition.SetSelected(puzzle.ConditionShape)
	openTruth := widget.NewButtonWithIcon("Open truth…", theme.FolderOpenIcon(), s.OpenTruthDialog)
	addFile := widget.NewButtonWithIcon("Add predictions file…", theme.ContentAddIcon(), func() { s.AddPredictionsDialog(false) })
	addFolder := widget.NewButtonWithIcon("Add predictions folder…", theme.FolderNewIcon(), func() { s.AddPredictionsDialog(true) })
	clear := widget.NewButtonWithIcon("Clear", theme.ContentClearIcon(), func() {
		s.sources = nil
		s.recompute()
	})
	export := widget.NewButtonWithIcon("Export report…", theme.DocumentSaveIcon(), s.exportMenu)

	s.progress = widget.NewProgressBar()
	s.progressText = widget.NewLabel("")
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		if s.cancelLoad != nil {
			s.cancelLoad()
		}
	})
	s.loadBox = container.NewBorder(nil, nil, s.progressText, cancel, s.progress)
	s.loadBox.Hide()

	head := container.NewVBox(
		container.NewHBox(openTruth, addFile, addFolder, widget.NewLabel("as"), s.condition, clear, export),
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Truth", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.truthLabel),
		container.NewBorder(nil, nil, widget.NewLabelWithStyle("Models", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.sourcesLabel),
		s.loadBox,
	)

	s.tabs = container.NewAppTabs(
		container.NewTabItem("Table", s.tableView()),
		container.NewTabItem("Heatmaps", s.heatmapView()),
		container.NewTabItem("Instances", s.instancesView()),
	)
	if s.report == nil && s.truthDir == "" {
		s.loadDemo()
	}
	return container.NewBorder(head, nil, nil, nil, s.tabs)
}

// tourViews shows the heatmaps (two models side by side) and an
// invalid answer in the instance browser.
func (s *ScorePane) tourViews() []tourView {
	return []tourView{
		{Name: "heatmaps", Show: func() {
			s.tabs.SelectIndex(1)
			if len(s.model2.Options) > 2 {
				s.model2.SetSelected(s.model2.Options[2])
			}
		}},
		{Name: "instances", Show: func() {
			s.tabs.SelectIndex(2)
			for i, is := range s.report.Instances {
				if !is.Valid {
					s.SelectInstance(i)
					return
				}
			}
			s.SelectInstance(0)
		}},
	}
}

// ---- loading ----

// OpenTruthDialog asks for a dataset folder or a folder of instance folders.
func (s *ScorePane) OpenTruthDialog() {
	s.openFolder("Open the truth: a dataset or a folder of instance folders", s.OpenTruth)
}

// OpenTruth scores the current predictions against the instances in dir.
func (s *ScorePane) OpenTruth(dir string) {
	s.truthDir = dir
	s.memory = nil
	s.recent(dir)
	s.recompute()
}

// AddPredictionsDialog asks for a predictions file (or folder), then its model name.
func (s *ScorePane) AddPredictionsDialog(folder bool) {
	ask := func(path string) {
		name := widget.NewEntry()
		name.SetText(score.ModelName(path))
		dialog.ShowForm("Add predictions", "Add", "Cancel", []*widget.FormItem{
			widget.NewFormItem("Model", name),
			widget.NewFormItem("File", widget.NewLabel(filepath.Base(path))),
		}, func(ok bool) {
			if ok && strings.TrimSpace(name.Text) != "" {
				s.AddPredictions(strings.TrimSpace(name.Text), path, s.condition.Selected)
			}
		}, s.window)
	}
	if folder {
		s.openFolder("Add a folder of <instance id>.json|.txt answers", ask)
	} else {
		s.openFile("Add predictions (JSONL, or one answer)", Filter{Name: "Predictions", Extensions: []string{"jsonl", "json", "txt"}}, ask)
	}
}

// AddPredictions adds one model's answers and rescores.
func (s *ScorePane) AddPredictions(model, path, condition string) {
	if s.memory != nil { // leaving the demo: its simulated answers do not apply to real truth
		s.memory, s.report = nil, nil
	}
	s.sources = append(s.sources, score.Source{Model: model, Path: path, Condition: condition})
	s.recent(path)
	s.recompute()
}

// recompute loads truth and predictions and scores them, off the UI goroutine.
func (s *ScorePane) recompute() {
	s.updateLabels()
	if s.truthDir == "" {
		return
	}
	if s.cancelLoad != nil {
		s.cancelLoad()
	}
	ctx, cancel := context.WithCancel(context.Background())
	s.cancelLoad = cancel
	id := s.request.Add(1)
	truthDir, sources := s.truthDir, slices.Clone(s.sources)
	s.showProgress("Loading truth…", 0)
	var last atomic.Int64
	progress := func(stage string, done, total int64) {
		now := time.Now().UnixNano()
		if prev := last.Load(); now-prev < int64(progressEvery) && done < total {
			return
		}
		last.Store(now)
		frac := 0.0
		if total > 0 {
			frac = float64(done) / float64(total)
		}
		s.work.Post(func() {
			if s.request.Load() == id {
				s.showProgress(fmt.Sprintf("%s — %d of %d", stage, done, total), frac)
			}
		})
	}
	s.work.Go(func() func() {
		defer cancel()
		truth, err := score.LoadTruth(ctx, truthDir, progress)
		var rep *score.Report
		if err == nil {
			rep, err = score.Evaluate(ctx, truth, sources, score.Options{}, progress)
		}
		return func() {
			if s.request.Load() != id {
				return
			}
			s.loadBox.Hide()
			switch {
			case errors.Is(err, context.Canceled):
				s.status.Set("Scoring cancelled.")
			case err != nil:
				s.showError(err)
			default:
				s.setReport(rep)
				s.status.Set(fmt.Sprintf("Scored %d answers from %d model(s) on %d instances.",
					len(rep.Instances), len(sources), len(truth.Instances)))
			}
		}
	})
}

func (s *ScorePane) showProgress(text string, frac float64) {
	s.progressText.SetText(text)
	s.progress.SetValue(frac)
	s.loadBox.Show()
}

// Loading is true while truth or predictions are being read.
func (s *ScorePane) Loading() bool { return s.loadBox != nil && s.loadBox.Visible() }

func (s *ScorePane) updateLabels() {
	if s.truthLabel == nil {
		return
	}
	switch {
	case s.memory != nil:
		s.truthLabel.SetText("demo: puzzles generated in memory from the built-in images")
	case s.truthDir != "":
		s.truthLabel.SetText(s.truthDir)
	default:
		s.truthLabel.SetText("none — open a dataset or a folder of instance folders")
	}
	var names []string
	for _, src := range s.sources {
		names = append(names, fmt.Sprintf("%s (%s, %s)", src.Model, src.Condition, filepath.Base(src.Path)))
	}
	if s.memory != nil && s.report != nil {
		names = nil
		seen := map[string]bool{}
		for _, g := range s.report.Groups {
			k := g.Model + " (" + g.Condition + ", simulated)"
			if !seen[k] {
				seen[k] = true
				names = append(names, k)
			}
		}
	}
	if len(names) == 0 {
		s.sourcesLabel.SetText("none yet — add a predictions file or folder per model")
	} else {
		s.sourcesLabel.SetText(strings.Join(names, " · "))
	}
}

// loadDemo scores simulated models on demo puzzles made in memory, so the
// pane shows something before any file is chosen.
func (s *ScorePane) loadDemo() {
	id := s.request.Add(1)
	s.work.Go(func() func() {
		rep, mem, err := demoScoreReport()
		return func() {
			if s.request.Load() != id {
				return
			}
			if err != nil {
				s.showError(err)
				return
			}
			s.memory = mem
			s.setReport(rep)
		}
	})
}

// demoScoreReport generates demo instances at 4×4 and 8×8 in memory and
// scores core's demo models on them.
func demoScoreReport() (*score.Report, map[string]*render.Generated, error) {
	mem := map[string]*render.Generated{}
	var truths []*score.Truth
	for i, name := range demo.Names()[:min(6, len(demo.Names()))] {
		img, err := demo.Image(name)
		if err != nil {
			return nil, nil, err
		}
		src := render.SourceFromImage(name, img)
		for _, n := range []int{4, 8} {
			opt := puzzle.DefaultOptions()
			opt.Size = 512
			g, err := render.Generate(src, n, uint64(i+1), opt)
			if err != nil {
				return nil, nil, err
			}
			mem[g.Instance.ID] = g
			truths = append(truths, score.TruthOf(g.Instance))
		}
	}
	truth, err := score.NewTruthSet(truths...)
	if err != nil {
		return nil, nil, err
	}
	rep, err := score.DemoReport(context.Background(), truth)
	return rep, mem, err
}

// setReport shows a new report in every view.
func (s *ScorePane) setReport(rep *score.Report) {
	s.report = rep
	s.selected = -1
	s.updateLabels()
	s.buildRows()
	s.table.Refresh()

	var models, grids, conds []string
	for _, g := range rep.Groups {
		if !slices.Contains(models, g.Model) {
			models = append(models, g.Model)
		}
		if gs := fmt.Sprintf("%d×%d", g.Grid, g.Grid); !slices.Contains(grids, gs) {
			grids = append(grids, gs)
		}
		if !slices.Contains(conds, g.Condition) {
			conds = append(conds, g.Condition)
		}
	}
	pick := func(sel *widget.Select, opts []string, keep bool) {
		sel.Options = opts
		if !keep || !slices.Contains(opts, sel.Selected) {
			if len(opts) > 0 {
				sel.SetSelected(opts[0])
			} else {
				sel.ClearSelected()
			}
		}
		sel.Refresh()
	}
	pick(s.model, models, true)
	pick(s.model2, append([]string{"(none)"}, models...), true)
	pick(s.grid, grids, true)
	pick(s.cond, conds, true)
	pick(s.instModel, append([]string{"All models"}, models...), true)
	pick(s.instGrid, append([]string{"All grids"}, grids...), true)
	s.updateHeatmaps()
	s.filterInstances()
}

// ---- table ----

func (s *ScorePane) tableView() fyne.CanvasObject {
	s.table = widget.NewTableWithHeaders(
		func() (int, int) { return len(s.rows), len(scoreColumns) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(id widget.TableCellID, o fyne.CanvasObject) {
			l := o.(*widget.Label)
			text, bold, muted := s.cellText(id.Row, id.Col)
			l.SetText(text)
			l.TextStyle = fyne.TextStyle{Bold: bold, Italic: muted}
			l.Importance = widget.MediumImportance
			if muted {
				l.Importance = widget.LowImportance
			}
			l.Refresh()
		},
	)
	s.table.ShowHeaderColumn = false
	s.table.CreateHeader = func() fyne.CanvasObject {
		b := widget.NewButton("", nil)
		b.Importance = widget.LowImportance
		return b
	}
	s.table.UpdateHeader = func(id widget.TableCellID, o fyne.CanvasObject) {
		b := o.(*widget.Button)
		if id.Col < 0 {
			return
		}
		title := scoreColumns[id.Col].title
		if id.Col == s.sortCol {
			if s.sortDesc {
				title += " ▼"
			} else {
				title += " ▲"
			}
		}
		b.SetText(title)
		col := id.Col
		b.OnTapped = func() { s.SortBy(col) }
	}
	for i, c := range scoreColumns {
		s.table.SetColumnWidth(i, c.width)
	}
	legend := widget.NewLabel("Mean over instances [95% bootstrap interval]; ★ best model in its grid and condition; " +
		"italic rows: a uniformly random permutation. Click a column title to sort.")
	legend.Wrapping = fyne.TextWrapWord
	legend.Importance = widget.LowImportance
	return container.NewBorder(nil, legend, nil, nil, s.table)
}

// cellText is what table cell (row, col) shows.
func (s *ScorePane) cellText(row, col int) (text string, bold, muted bool) {
	if row >= len(s.rows) {
		return "", false, false
	}
	r := s.rows[row]
	switch col {
	case 0:
		if r.group == nil {
			return "random baseline", false, true
		}
		return r.group.Model, false, false
	case 1:
		return fmt.Sprintf("%d×%d", r.grid, r.grid), false, r.group == nil
	case 2:
		return r.cond, false, r.group == nil
	case 3:
		if r.group == nil {
			return "", false, true
		}
		return fmt.Sprint(r.group.N), false, false
	case 4:
		if r.group == nil {
			return "", false, true
		}
		return fmt.Sprint(r.group.Invalid), false, false
	}
	m := col - firstMetricColumn
	v := r.metric(m)
	if r.group == nil {
		return fmtRate(v), false, true
	}
	ci := r.interval(m)
	text = fmt.Sprintf("%s [%s–%s]", fmtRate(v), fmtShort(ci[0]), fmtShort(ci[1]))
	if r.best[m] {
		text += " ★"
	}
	return text, r.best[m], false
}

// fmtShort writes an interval bound in two decimals without the leading zero.
func fmtShort(v float64) string {
	if v >= 0.995 {
		return "1"
	}
	return strings.TrimPrefix(fmt.Sprintf("%.2f", v), "0")
}

func fmtRate(v float64) string {
	if v > 0 && v < 0.0005 {
		return fmt.Sprintf("%.0e", v)
	}
	return fmt.Sprintf("%.3f", v)
}

// buildRows turns the report's groups into rows with a baseline row per
// grid and condition, and marks the best model per metric.
func (s *ScorePane) buildRows() {
	s.rows = s.rows[:0]
	if s.report == nil {
		return
	}
	type block struct {
		grid int
		cond string
	}
	best := map[block][5]float64{}
	count := map[block]int{}
	for i := range s.report.Groups {
		g := &s.report.Groups[i]
		b := block{g.Grid, g.Condition}
		row := scoreRow{group: g, grid: g.Grid, cond: g.Condition}
		cur := best[b]
		for m := range 5 {
			if count[b] == 0 || row.metric(m) > cur[m] {
				cur[m] = row.metric(m)
			}
		}
		best[b] = cur
		count[b]++
		s.rows = append(s.rows, row)
	}
	for i := range s.rows {
		r := &s.rows[i]
		b := block{r.grid, r.cond}
		for m := range 5 {
			r.best[m] = count[b] > 1 && r.metric(m) == best[b][m] && r.metric(m) > 0
		}
	}
	for b := range count {
		s.rows = append(s.rows, scoreRow{grid: b.grid, cond: b.cond, baseline: score.BaselineOf(b.grid)})
	}
	s.sortRows()
}

// SortBy sorts the table by column col (again: reverses).
func (s *ScorePane) SortBy(col int) {
	if s.sortCol == col {
		s.sortDesc = !s.sortDesc
	} else {
		s.sortCol, s.sortDesc = col, col >= firstMetricColumn
	}
	s.sortRows()
	s.table.Refresh()
}

func (s *ScorePane) sortRows() {
	key := func(r scoreRow) (float64, string) {
		switch s.sortCol {
		case 0:
			if r.group == nil {
				return 0, "\uffff" // baselines last among names
			}
			return 0, r.group.Model
		case 1:
			return float64(r.grid), ""
		case 2:
			return 0, r.cond
		case 3, 4:
			if r.group == nil {
				return -1, ""
			}
			return float64([2]int{r.group.N, r.group.Invalid}[s.sortCol-3]), ""
		}
		return r.metric(s.sortCol - firstMetricColumn), ""
	}
	slices.SortStableFunc(s.rows, func(a, b scoreRow) int {
		ka, sa := key(a)
		kb, sb := key(b)
		c := cmp.Or(cmp.Compare(ka, kb), strings.Compare(sa, sb))
		if s.sortDesc {
			c = -c
		}
		// Ties: grid, condition, models before their baseline, model name.
		return cmp.Or(c, cmp.Compare(a.grid, b.grid), strings.Compare(a.cond, b.cond),
			cmp.Compare(boolInt(a.group == nil), boolInt(b.group == nil)), strings.Compare(modelOf(a), modelOf(b)))
	})
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

func modelOf(r scoreRow) string {
	if r.group == nil {
		return ""
	}
	return r.group.Model
}

// ---- heatmaps ----

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

// HeatmapShown is the heatmap of the left view, for tests.
func (s *ScorePane) HeatmapShown() *score.Heatmap { return s.heatData }

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

func (s *ScorePane) instancesView() fyne.CanvasObject {
	s.onlyInvalid = widget.NewCheck("Invalid only", func(bool) { s.filterInstances() })
	s.instGrid = widget.NewSelect(nil, func(string) { s.filterInstances() })
	s.instModel = widget.NewSelect(nil, func(string) { s.filterInstances() })
	s.instList = widget.NewList(
		func() int { return len(s.instRows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			is := &s.report.Instances[s.instRows[i]]
			text := fmt.Sprintf("%s · %s · PA %s SC %s", is.Model, is.ID, fmtRate(is.PA), fmtRate(is.SC))
			if !is.Valid {
				text = fmt.Sprintf("%s · %s · INVALID", is.Model, is.ID)
			}
			o.(*widget.Label).SetText(text)
		},
	)
	s.instList.OnSelected = func(i widget.ListItemID) { s.SelectInstance(s.instRows[i]) }
	s.reassembly, s.solved = NewZoomView(nil), NewZoomView(nil)
	s.instInfo = widget.NewLabel("Choose an instance to see the model's reassembly beside the solved image.")
	s.instInfo.Wrapping = fyne.TextWrapWord
	s.rawText = widget.NewLabel("")
	s.rawText.Wrapping = fyne.TextWrapWord
	s.rawText.Selectable = true
	raw := container.NewVScroll(s.rawText)
	raw.SetMinSize(fyne.NewSize(0, 90))
	filters := container.NewHBox(s.onlyInvalid, s.instModel, s.instGrid)
	left := container.NewBorder(filters, nil, nil, nil, s.instList)
	pics := container.NewGridWithColumns(2,
		container.NewBorder(widget.NewLabelWithStyle("Model's reassembly (green: right cell, red: wrong)", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}), nil, nil, nil, s.reassembly),
		container.NewBorder(widget.NewLabelWithStyle("Solved", fyne.TextAlignCenter, fyne.TextStyle{Bold: true}), nil, nil, nil, s.solved))
	right := container.NewBorder(nil, container.NewVBox(s.instInfo, raw), nil, nil, pics)
	split := container.NewHSplit(left, right)
	split.SetOffset(0.3)
	return split
}

// filterInstances applies the instance filters.
func (s *ScorePane) filterInstances() {
	if s.report == nil || s.instList == nil {
		return
	}
	s.instRows = s.instRows[:0]
	model, grid := s.instModel.Selected, parseGrid(s.instGrid.Selected)
	for i, is := range s.report.Instances {
		if s.onlyInvalid.Checked && is.Valid {
			continue
		}
		if model != "" && model != "All models" && is.Model != model {
			continue
		}
		if grid != 0 && is.Grid != grid {
			continue
		}
		s.instRows = append(s.instRows, i)
	}
	s.instList.UnselectAll()
	s.instList.Refresh()
}

// SelectInstance shows report instance i: its reassembly, or why it is invalid.
func (s *ScorePane) SelectInstance(i int) {
	if s.report == nil || i < 0 || i >= len(s.report.Instances) {
		return
	}
	s.selected = i
	is := s.report.Instances[i]
	if !is.Valid {
		s.instInfo.SetText(fmt.Sprintf("%s on %s (%s): invalid — %s. Every metric counts as 0.", is.Model, is.ID, is.Condition, is.Reason))
		s.rawText.SetText(cmp.Or(is.Raw, "(no text: the answer was missing or not text)"))
	} else {
		s.instInfo.SetText(fmt.Sprintf("%s on %s (%s): PA %s · EM %s · AA %s · AA directed %s · SC %s; %d unknown IDs, %d unusable positions.",
			is.Model, is.ID, is.Condition, fmtRate(is.PA), fmtRate(is.EM), fmtRate(is.AA), fmtRate(is.AADirected), fmtRate(is.SC), is.UnknownIDs, is.BadPositions))
		s.rawText.SetText("")
	}
	rep := s.report
	s.work.Go(func() func() {
		gen, err := s.instance(is.ID)
		var reasm, solved *render.Pyramid
		if err == nil && gen.Puzzle != nil {
			pred := is.Pred
			if pred == nil {
				pred = make([]int, len(gen.Instance.Pieces))
				for k := range pred {
					pred[k] = -1
				}
			}
			reasm = render.NewPyramid(render.Reassembly(gen.Puzzle, gen.Solved, pred, render.ReassemblyOptions{
				Shaped: is.Condition != puzzle.ConditionRect, Title: is.Model + " · " + is.ID + " · " + is.Condition}))
			solved = render.NewPyramid(gen.Solved)
		}
		return func() {
			if s.report != rep || s.selected != i {
				return
			}
			if err != nil {
				s.status.Set("No pictures for " + is.ID + ": " + err.Error())
			}
			s.reassembly.SetImage(reasm)
			s.solved.SetImage(solved)
			s.reassembly.state.Fit()
			s.solved.state.Fit()
		}
	})
}

// SelectedInstance is the instance shown, or nil.
func (s *ScorePane) SelectedInstance() *score.InstanceScore {
	if s.report == nil || s.selected < 0 {
		return nil
	}
	return &s.report.Instances[s.selected]
}

// instance finds an instance's pictures: in memory (demo) or its folder.
func (s *ScorePane) instance(id string) (*render.Generated, error) {
	if g, ok := s.memory[id]; ok {
		return g, nil
	}
	s.instanceMu.Lock()
	g, ok := s.instanceCache[id]
	s.instanceMu.Unlock()
	if ok {
		return g, nil
	}
	ti, ok := s.report.Truth.Find(id)
	if !ok || ti.Dir == "" {
		return nil, fmt.Errorf("instance %s has no folder", id)
	}
	g, err := render.LoadInstance(ti.Dir)
	if g == nil {
		return nil, err
	}
	s.instanceMu.Lock()
	if len(s.instanceCache) > 32 {
		clear(s.instanceCache)
	}
	s.instanceCache[id] = g
	s.instanceMu.Unlock()
	return g, nil
}

// ---- export ----

func (s *ScorePane) exportMenu() {
	if s.report == nil {
		s.status.Set("Nothing to export yet.")
		return
	}
	formats := widget.NewRadioGroup([]string{"JSON (jigbench.score-report/v1)", "CSV (one row per group)", "Markdown"}, nil)
	formats.SetSelected(formats.Options[0])
	dialog.ShowCustomConfirm("Export report", "Choose file…", "Cancel", formats, func(ok bool) {
		if !ok {
			return
		}
		ext := map[int]string{0: "json", 1: "csv", 2: "md"}[slices.Index(formats.Options, formats.Selected)]
		s.saveFile("Export the score report", "score-report."+ext, Filter{Name: strings.ToUpper(ext), Extensions: []string{ext}}, s.ExportReport)
	}, s.window)
}

// ExportReport writes the report; the format follows the file's extension
// (.json, .csv, .md).
func (s *ScorePane) ExportReport(path string) {
	rep := s.report
	s.work.Go(func() func() {
		err := fsutil.WriteWith(path, func(w io.Writer) error {
			switch strings.ToLower(filepath.Ext(path)) {
			case ".csv":
				return rep.WriteCSV(w)
			case ".md", ".markdown":
				return rep.WriteMarkdown(w)
			default:
				return rep.WriteJSON(w)
			}
		})
		return func() {
			if err != nil {
				s.showError(err)
				return
			}
			s.status.Set("Exported " + path)
		}
	})
}

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
