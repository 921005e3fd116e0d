package ui

import (
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
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
	"github.com/jigbench/jigbench/core/score/scoredemo"
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
	view fyne.CanvasObject

	// exchanges caches each instance folder's exchangeable classes (PA up
	// to exchangeable pieces reads solved.png, which is slow), across
	// rescoring.
	exchanges   map[string][2]puzzle.Exchange
	exchangesMu sync.Mutex

	scoreTable     // score_table.go
	scoreHeatmaps  // score_heatmaps.go
	scoreInstances // score_instances.go
	scoreAnalyses  // score_analysis.go
}

// newScorePane makes the pane; it opens on simulated models' answers to
// demo puzzles.
func newScorePane(d deps) *ScorePane {
	return &ScorePane{deps: d, scoreTable: scoreTable{sortCol: 1}, scoreInstances: scoreInstances{selected: -1, instanceCache: map[string]*render.Generated{}},
		exchanges: map[string][2]puzzle.Exchange{}}
}

// Title implements Pane.
func (s *ScorePane) Title() string { return "Score" }

// Icon implements Pane.
func (s *ScorePane) Icon() fyne.Resource { return theme.GridIcon() }

// View implements Pane.
func (s *ScorePane) View() fyne.CanvasObject {
	s.truthLabel = widget.NewLabel("")
	s.truthLabel.Truncation = fyne.TextTruncateEllipsis
	s.sourcesLabel = widget.NewLabel("")
	s.sourcesLabel.Truncation = fyne.TextTruncateEllipsis
	s.condition = widget.NewSelect([]string{puzzle.ConditionShape, puzzle.ConditionRect}, nil)
	s.condition.SetSelected(puzzle.ConditionShape)
	openTruth := widget.NewButtonWithIcon("Open truth…", theme.FolderOpenIcon(), s.OpenTruthDialog)
	addFile := widget.NewButtonWithIcon("Add answers file…", theme.ContentAddIcon(), func() { s.AddPredictionsDialog(false) })
	addFolder := widget.NewButtonWithIcon("Add answers folder…", theme.FolderNewIcon(), func() { s.AddPredictionsDialog(true) })
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
		container.NewHScroll(container.NewHBox(openTruth, addFile, addFolder, widget.NewLabel("as"), s.condition, clear, export)),
		// One row for both, so the views below keep their height at 600 px.
		container.NewGridWithColumns(2,
			container.NewBorder(nil, nil, widget.NewLabelWithStyle("Truth", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.truthLabel),
			container.NewBorder(nil, nil, widget.NewLabelWithStyle("Models", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}), nil, s.sourcesLabel)),
		s.loadBox,
	)

	s.tabs = container.NewAppTabs(
		container.NewTabItem("Table", s.tableView()),
		container.NewTabItem("Heatmaps", s.heatmapView()),
		container.NewTabItem("Instances", s.instancesView()),
		container.NewTabItem("Ablation", s.ablationView()),
		container.NewTabItem("Scaling", s.scalingView()),
	)
	if s.report == nil && s.truthDir == "" {
		s.loadDemo()
	}
	s.view = container.NewBorder(head, nil, nil, nil, s.tabs)
	return s.view
}

// hideProgress hides the progress row and gives its room back.
func (s *ScorePane) hideProgress() {
	s.loadBox.Hide()
	if s.view != nil {
		s.work.relayout(s.view)
	}
}

// tourViews shows the heatmaps (two models side by side) and an
// invalid answer in the instance browser.
func (s *ScorePane) tourViews() []tourView {
	return []tourView{
		{Name: "heatmaps", Show: func() {
			s.tabs.SelectIndex(1)
			if len(s.model2.Options) > 1 {
				s.model2.SetSelected(s.model2.Options[1])
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
		{Name: "ablation", Show: func() { s.tabs.SelectIndex(3) }},
		{Name: "scaling", Show: func() { s.tabs.SelectIndex(4) }},
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
		s.instRows, s.rows = nil, nil
		s.clearInstance()
		s.clearHeatmaps()
		if s.table != nil {
			s.table.Refresh()
			s.instList.Refresh()
		}
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
	report := func(r progress.Report) {
		now := time.Now().UnixNano()
		if prev := last.Load(); now-prev < int64(progressEvery) && r.Done < r.Total {
			return
		}
		last.Store(now)
		s.work.Post(func() {
			if s.request.Load() == id {
				s.showProgress(fmt.Sprintf("%s — %d of %d", r.Stage, r.Done, r.Total), r.Fraction())
			}
		})
	}
	s.work.Go(func() func() {
		defer cancel()
		truth, err := score.LoadTruth(ctx, truthDir, report)
		var rep *score.Report
		if err == nil {
			rep, err = score.Evaluate(ctx, truth, sources, score.Options{}, report)
		}
		if err != nil {
			return func() {
				if s.request.Load() != id {
					return
				}
				s.hideProgress()
				if errors.Is(err, context.Canceled) {
					s.status.Set("Scoring cancelled.")
				} else {
					s.showError(err)
				}
			}
		}
		scored := fmt.Sprintf("Scored %d answers from %d model(s) on %d instances", len(rep.Instances), len(sources), len(truth.Instances))
		s.work.Post(func() {
			if s.request.Load() == id {
				s.setReport(rep, true)
				s.status.Set(scored + "; finding exchangeable pieces…")
				s.showProgress("PA up to exchangeable pieces: reading the solved images…", 0)
			}
		})
		// Second pass, after the table is on screen: PA up to exchangeable
		// pieces, from each answered instance's solved.png (slow, cached).
		full, err := score.Evaluate(ctx, truth, sources, score.Options{Exchange: s.cachedExchange}, report)
		return func() {
			if s.request.Load() != id {
				return
			}
			s.hideProgress()
			switch {
			case errors.Is(err, context.Canceled):
				s.status.Set(scored + "; PA up to exchangeable pieces cancelled.")
			case err != nil:
				s.showError(err)
			default:
				s.setReport(full, false)
				s.status.Set(scored + ", with PA up to exchangeable pieces.")
			}
		}
	})
}

// cachedExchange is render.InstanceExchange, remembered per folder.
func (s *ScorePane) cachedExchange(dir string) (shape, rect puzzle.Exchange, err error) {
	s.exchangesMu.Lock()
	e, ok := s.exchanges[dir]
	s.exchangesMu.Unlock()
	if ok {
		return e[0], e[1], nil
	}
	shape, rect, err = render.InstanceExchange(dir)
	if err == nil {
		s.exchangesMu.Lock()
		s.exchanges[dir] = [2]puzzle.Exchange{shape, rect}
		s.exchangesMu.Unlock()
	}
	return shape, rect, err
}

func (s *ScorePane) showProgress(text string, frac float64) {
	s.progressText.SetText(text)
	s.progress.SetValue(frac)
	if !s.loadBox.Visible() {
		s.loadBox.Show()
		if s.view != nil {
			s.work.relayout(s.view)
		}
	}
}

// loading is true while truth or predictions are being read.
func (s *ScorePane) loading() bool { return s.loadBox != nil && s.loadBox.Visible() }

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
	s.showProgress("Making the demo puzzles and scoring simulated models…", 0)
	s.status.Set("Score: making the demo puzzles…")
	s.work.Go(func() func() {
		rep, mem, err := scoredemo.Report(context.Background(), func(r progress.Report) {
			s.work.Post(func() {
				if s.request.Load() == id {
					s.showProgress(fmt.Sprintf("Making the demo puzzles — %d of %d", r.Done, r.Total), r.Fraction())
				}
			})
		})
		return s.answer(&s.request, id, err, func() {
			s.hideProgress()
			s.memory = mem
			s.setReport(rep, true)
			s.status.Set(fmt.Sprintf("Score: the demo — %d simulated answers on puzzles made in memory.", len(rep.Instances)))
		})
	})
}

// setReport shows a report in every view. fresh is a new scoring (new truth
// or answers): the views of the old one are cleared. Otherwise it is the
// same scoring with more figures (PA up to exchangeable pieces) and what is
// shown stays.
func (s *ScorePane) setReport(rep *score.Report, fresh bool) {
	s.report = rep
	if fresh {
		s.clearInstance()
		s.clearHeatmaps()
	}
	s.updateLabels()
	s.buildRows()
	s.table.Refresh()

	var grids, conds []string
	for _, g := range rep.Groups {
		if gs := fmt.Sprintf("%d×%d", g.Grid, g.Grid); !slices.Contains(grids, gs) {
			grids = append(grids, gs)
		}
		if !slices.Contains(conds, g.Condition) {
			conds = append(conds, g.Condition)
		}
	}
	models := s.reportModels()
	pick := func(sel *widget.Select, opts []string, keep bool) {
		sel.Options = opts
		if !keep || !slices.Contains(opts, sel.Selected) {
			if len(opts) > 0 {
				sel.Selected = opts[0]
			} else {
				sel.Selected = ""
			}
		}
		sel.Refresh()
	}
	// Selected is set without OnChanged: one redraw below, not one per box.
	pick(s.model, models, true)
	s.syncCompareOptions()
	pick(s.grid, grids, true)
	pick(s.cond, conds, true)
	pick(s.instModel, append([]string{"All models"}, models...), true)
	pick(s.instGrid, append([]string{"All grids"}, grids...), true)
	s.updateHeatmaps()
	if fresh {
		s.filterInstances()
	} else if s.instList != nil {
		s.instList.Refresh()
	}
	s.updateAnalyses()
}

// clearHeatmaps empties the heatmap views.
func (s *ScorePane) clearHeatmaps() {
	if s.heat == nil {
		return
	}
	s.heatData, s.heatData2 = nil, nil
	s.heat.SetImage(nil)
	s.heat2.SetImage(nil)
}

// ---- table ----

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
