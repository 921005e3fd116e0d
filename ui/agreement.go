package ui

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
)

// progressPoll is how often a running computation's progress is shown.
const progressPoll = 100 * time.Millisecond

// Agreement options offered for the bootstrap.
var replicateChoices = []string{"0", "500", "1000", "2000", "5000", "10000"}

// AgreementPane measures how well judge runs agree with the human raters
// of a split: it gathers the ratings (this machine's store, imported files)
// and the judge runs per condition, runs vigor.Analyze off the UI goroutine
// and shows the report's tables and pictures. Every figure comes from
// core/vigor; this pane only lays them out.
type AgreementPane struct {
	deps

	agreementInputs   // agreement_inputs.go
	agreementTables   // agreement_tables.go
	agreementPictures // agreement_pictures.go

	// Result.
	report *vigor.Report
	plots  *vigor.PlotData
	input  vigor.Input // what the report was computed from
	opts   vigor.Options

	replicates         *widget.Select
	seed               *widget.Entry
	sample             *widget.Check
	compute, cancelBtn *widget.Button
	progress           *widget.ProgressBar
	progressBox        *fyne.Container
	problems           *widget.Label
	tabs               *container.AppTabs
	exportBtns         []*widget.Button

	view    fyne.CanvasObject
	request atomic.Uint64
	cancel  context.CancelFunc
	done    atomic.Int64 // bootstrap replicates done
	total   atomic.Int64
	running bool
}

// newAgreementPane makes the pane; it opens on the demo split.
func newAgreementPane(d deps) *AgreementPane {
	return &AgreementPane{deps: d, agreementInputs: agreementInputs{useStore: map[string]bool{}, judgeFiles: map[vigor.Condition][]string{}}}
}

// Title implements Pane.
func (a *AgreementPane) Title() string { return "Agreement" }

// Icon implements Pane.
func (a *AgreementPane) Icon() fyne.Resource { return theme.ListIcon() }

// View implements Pane.
func (a *AgreementPane) View() fyne.CanvasObject {
	heading := func(s string) fyne.CanvasObject {
		return widget.NewLabelWithStyle(s, fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	}
	a.splitLabel = widget.NewLabel("No split chosen.")
	a.splitLabel.Wrapping = fyne.TextWrapWord
	openSplit := widget.NewButtonWithIcon("Choose split…", theme.FolderOpenIcon(), a.OpenSplitDialog)
	a.storeBox = container.NewVBox()
	a.humanBox = container.NewVBox()
	addHumans := widget.NewButtonWithIcon("Add ratings file…", theme.ContentAddIcon(), a.addHumansDialog)
	a.judgeBox = map[vigor.Condition]*fyne.Container{}
	var judgeParts []fyne.CanvasObject
	for _, c := range vigor.Conditions {
		a.judgeBox[c] = container.NewVBox()
		add := widget.NewButtonWithIcon("Add judge run…", theme.ContentAddIcon(), func() { a.addJudgeDialog(c) })
		judgeParts = append(judgeParts, heading(condTitle(c)), a.judgeBox[c], add)
	}
	a.replicates = widget.NewSelect(replicateChoices, nil)
	a.replicates.SetSelected(strconv.Itoa(vigor.DefaultReplicates))
	a.seed = widget.NewEntry()
	a.seed.Scroll = container.ScrollNone
	a.seed.SetText("1")
	a.sample = widget.NewCheck("Sample variance (÷ n−1)", nil)
	a.compute = widget.NewButtonWithIcon("Compute", theme.MediaPlayIcon(), a.Compute)
	a.compute.Importance = widget.HighImportance
	a.progress = widget.NewProgressBar()
	a.cancelBtn = widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), a.Cancel)
	a.progressBox = container.NewBorder(nil, nil, nil, a.cancelBtn, a.progress)
	a.progressBox.Hide()
	a.problems = widget.NewLabel("")
	a.problems.Wrapping = fyne.TextWrapWord
	a.problems.Importance = widget.WarningImportance
	a.problems.Hide()
	opts := container.New(tableLayout{cols: 2},
		widget.NewLabel("Bootstrap"), a.replicates,
		widget.NewLabel("Seed"), a.seed)
	side := container.NewVBox(
		heading("Split"), a.splitLabel, openSplit, widget.NewSeparator(),
		heading("Human ratings"), a.storeBox, a.humanBox, addHumans, widget.NewSeparator())
	side.Objects = append(side.Objects, judgeParts...)
	side.Objects = append(side.Objects, widget.NewSeparator(), heading("Options"), opts, a.sample,
		a.compute, a.progressBox, a.problems)
	sideScroll := container.NewVScroll(container.NewPadded(side))

	a.summary = widget.NewLabel("")
	a.summary.Wrapping = fyne.TextWrapWord
	a.tablesBox = container.NewVBox()
	tablesTab := container.NewBorder(container.NewPadded(a.summary), nil, nil, nil,
		container.NewScroll(container.NewPadded(a.tablesBox)))

	a.condSel = widget.NewRadioGroup([]string{condTitle(vigor.WithoutGT), condTitle(vigor.WithGT)}, func(string) { a.showPictures() })
	a.condSel.Horizontal = true
	a.trackSel = widget.NewRadioGroup([]string{"Process", "Result"}, func(string) { a.showPictures() })
	a.trackSel.Horizontal = true
	a.condSel.SetSelected(condTitle(vigor.WithGT))
	a.trackSel.SetSelected("Result")
	a.heat, a.confusion, a.scatt = newChartView(a.work), newChartView(a.work), newChartView(a.work)
	pictures := container.NewBorder(container.NewHBox(a.condSel, widget.NewSeparator(), a.trackSel), nil, nil, nil,
		container.NewGridWithColumns(2, a.heat, container.NewGridWithRows(2, a.confusion, a.scatt)))
	a.tabs = container.NewAppTabs(
		container.NewTabItem("Tables", tablesTab),
		container.NewTabItem("Pictures", pictures),
	)
	var exports []fyne.CanvasObject
	for _, f := range []struct{ label, ext string }{{"Markdown…", "md"}, {"CSV…", "csv"}, {"JSON…", "json"}, {"PNG…", "png"}} {
		b := widget.NewButtonWithIcon(f.label, theme.DocumentSaveIcon(), func() { a.exportDialog(f.ext) })
		b.Disable()
		a.exportBtns = append(a.exportBtns, b)
		exports = append(exports, b)
	}
	top := container.NewBorder(nil, nil, widget.NewLabel("Export"), nil, container.NewHBox(exports...))
	right := container.NewBorder(top, nil, nil, nil, a.tabs)

	split := container.NewHSplit(sideScroll, right)
	split.Offset = 0.27
	a.view = split
	a.OpenDemo()
	return split
}

// condWords names a condition inside a sentence.
func condWords(c vigor.Condition) string {
	if c == vigor.WithGT {
		return "judge with GT"
	}
	return "judge without GT"
}

func condTitle(c vigor.Condition) string {
	if c == vigor.WithGT {
		return "Judge with GT"
	}
	return "Judge without GT"
}

// tourViews adds the pictures tab to `jigbench screenshot`.
func (a *AgreementPane) tourViews() []tourView {
	return []tourView{{Name: "pictures", Show: func() { a.tabs.SelectIndex(1) }}}
}

// analysisJob is a snapshot of the inputs, read on a worker goroutine.
type analysisJob struct {
	dir        string
	demo       bool
	storeNames []string
	humanFiles []string
	judgeFiles map[vigor.Condition][]string
	opts       vigor.Options
}

// Compute runs the analysis off the UI goroutine with a progress bar.
func (a *AgreementPane) Compute() {
	if a.sp == nil {
		a.status.Set("Choose a split first.")
		return
	}
	reps, _ := strconv.Atoi(a.replicates.Selected)
	seed, err := strconv.ParseUint(strings.TrimSpace(a.seed.Text), 10, 64)
	if err != nil {
		a.showError(errors.New("the seed must be a whole number ≥ 0"))
		return
	}
	job := analysisJob{dir: a.dir, demo: a.demo, humanFiles: slices.Clone(a.humanFiles),
		judgeFiles: map[vigor.Condition][]string{},
		opts:       vigor.Options{Replicates: reps, Seed: seed, SampleVariance: a.sample.Checked}}
	for _, n := range a.storeNames {
		if a.useStore[n] {
			job.storeNames = append(job.storeNames, n)
		}
	}
	for _, c := range vigor.Conditions {
		job.judgeFiles[c] = slices.Clone(a.judgeFiles[c])
	}
	a.Cancel()
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	id := a.request.Add(1)
	a.done.Store(0)
	a.total.Store(int64(max(reps, 1)))
	job.opts.Progress = func(done, total int) {
		a.done.Store(int64(done))
		a.total.Store(int64(max(total, 1)))
	}
	a.running = true
	a.compute.Disable()
	a.progress.SetValue(0)
	a.progressBox.Show()
	a.status.Set("Computing the agreement of " + a.sp.Name + "…")
	a.pollProgress(id)
	a.work.Go(func() func() {
		in, problems, err := a.gather(ctx, job)
		var rep *vigor.Report
		var pd *vigor.PlotData
		if err == nil {
			rep, err = vigor.Analyze(ctx, in, job.opts)
		}
		if err == nil {
			pd, err = vigor.Plots(in, job.opts.SampleVariance)
		}
		return func() {
			if a.request.Load() != id {
				return
			}
			a.finish()
			switch {
			case errors.Is(err, context.Canceled):
				a.status.Set("Cancelled; the report shown (if any) is the previous one.")
			case err != nil:
				a.showError(err)
			default:
				a.show(in, job.opts, rep, pd, problems)
			}
		}
	})
}

// pollProgress shows the bootstrap's progress while computation id runs.
func (a *AgreementPane) pollProgress(id uint64) {
	a.work.After(progressPoll, func() func() {
		return func() {
			if a.request.Load() != id || !a.running {
				return
			}
			a.progress.SetValue(float64(a.done.Load()) / float64(a.total.Load()))
			a.pollProgress(id)
		}
	})
}

func (a *AgreementPane) finish() {
	a.running = false
	a.cancel = nil
	a.compute.Enable()
	a.progressBox.Hide()
}

// Cancel stops a running computation.
func (a *AgreementPane) Cancel() {
	if a.cancel != nil {
		a.cancel()
		a.request.Add(1) // its result is no longer wanted
		a.finish()
		a.status.Set("Cancelled.")
	}
}

// show lays out a finished report.
func (a *AgreementPane) show(in vigor.Input, opts vigor.Options, rep *vigor.Report, pd *vigor.PlotData, problems []string) {
	a.report, a.plots, a.input, a.opts = rep, pd, in, opts
	if len(problems) > 0 {
		const most = 5
		text := fmt.Sprintf("%d judge record(s) could not be read and were left out:\n", len(problems))
		text += strings.Join(problems[:min(most, len(problems))], "\n")
		if len(problems) > most {
			text += fmt.Sprintf("\n… and %d more.", len(problems)-most)
		}
		a.problems.SetText(text)
		a.problems.Show()
	} else {
		a.problems.Hide()
	}
	a.showTables(rep)
	for _, b := range a.exportBtns {
		b.Enable()
	}
	a.showPictures()
	a.work.relayout(a.view)
	a.status.Set(fmt.Sprintf("Agreement of %s computed: %d human ratings, %d judge records.", rep.Split, len(in.Humans), len(in.Judge)))
}

// shownReport is the report shown (nil before the first computation).
func (a *AgreementPane) shownReport() *vigor.Report { return a.report }
