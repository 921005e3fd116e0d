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

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
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
	agreementBoard    // agreement_leaderboard.go
	agreementDisagree // agreement_disagree.go

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
	missing            *widget.Label // why figures are undefined
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
	a.judgeBox = container.NewVBox()
	a.judgeCond = widget.NewSelectEntry([]string{string(vigor.WithGT), string(vigor.WithoutGT)})
	a.judgeCond.SetText(string(vigor.WithGT))
	addJudge := widget.NewButtonWithIcon("Add judge run…", theme.ContentAddIcon(), a.addJudgeDialog)
	judgeParts := []fyne.CanvasObject{heading("Judge runs"), a.judgeBox,
		container.NewBorder(nil, nil, widget.NewLabel("Condition"), nil, a.judgeCond), addJudge}
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
	side.Objects = append(side.Objects, widget.NewSeparator(), heading("Options"), opts, a.sample, a.problems)
	sideScroll := container.NewVScroll(container.NewPadded(side))

	a.summary = widget.NewLabel("")
	a.summary.Wrapping = fyne.TextWrapWord
	a.missing = widget.NewLabel("")
	a.missing.Wrapping = fyne.TextWrapWord
	a.missing.Importance = widget.WarningImportance
	a.missing.Hide()
	a.tablesBox = container.NewVBox()
	tablesTab := container.NewBorder(container.NewPadded(container.NewVBox(a.summary, a.missing)), nil, nil, nil,
		container.NewScroll(container.NewPadded(a.tablesBox)))

	a.condSel = widget.NewSelect(nil, func(string) { a.showPictures() })
	a.trackSel = widget.NewRadioGroup([]string{"Process", "Result"}, func(string) { a.showPictures() })
	a.trackSel.Horizontal = true
	a.trackSel.SetSelected("Result")
	a.heat, a.confusion, a.scatt = newChartView(a.work), newChartView(a.work), newChartView(a.work)
	// The pictures scroll rather than shrink: below about 420 px a chart
	// drops the numbers from its cells (small laptops).
	pictures := container.NewBorder(container.NewHBox(widget.NewLabel("Judge condition"), a.condSel, widget.NewSeparator(), a.trackSel), nil, nil, nil,
		container.NewVScroll(container.NewVBox(
			container.New(minHeight{420}, a.heat),
			container.New(minHeight{360}, container.NewGridWithColumns(2, a.confusion, a.scatt)))))
	a.tabs = container.NewAppTabs(
		container.NewTabItem("Tables", tablesTab),
		container.NewTabItem("Pictures", pictures),
		container.NewTabItem("Leaderboard", a.leaderboardView()),
		container.NewTabItem("Disagreements", a.disagreeView()),
	)
	var exports []fyne.CanvasObject
	// Short labels keep the toolbar narrow enough for a 1024-px window.
	for _, f := range []struct{ label, ext string }{{"MD", "md"}, {"CSV", "csv"}, {"JSON", "json"}, {"PNG", "png"}} {
		b := widget.NewButton(f.label, func() { a.exportDialog(f.ext) })
		b.Disable()
		a.exportBtns = append(a.exportBtns, b)
		exports = append(exports, b)
	}
	// Compute sits at the top, where it is seen at any window height.
	top := container.NewBorder(nil, nil, a.compute, container.NewHBox(append([]fyne.CanvasObject{widget.NewLabel("Export report")}, exports...)...),
		a.progressBox)
	right := container.NewBorder(top, nil, nil, nil, a.tabs)

	split := container.NewHSplit(sideScroll, right)
	split.Offset = 0.27
	a.view = split
	a.OpenDemo()
	return split
}

// condWords names a condition inside a sentence.
func condWords(c vigor.Condition) string {
	switch c {
	case vigor.WithGT:
		return "judge with GT"
	case vigor.WithoutGT:
		return "judge without GT"
	}
	return "judge " + string(c)
}

func condTitle(c vigor.Condition) string {
	w := condWords(c)
	return strings.ToUpper(w[:1]) + w[1:]
}

// minHeight lays its objects over the whole area and asks for at least h.
type minHeight struct{ h float32 }

func (m minHeight) Layout(objs []fyne.CanvasObject, s fyne.Size) {
	for _, o := range objs {
		o.Move(fyne.NewPos(0, 0))
		o.Resize(s)
	}
}

func (m minHeight) MinSize(objs []fyne.CanvasObject) fyne.Size {
	var s fyne.Size
	for _, o := range objs {
		s = s.Max(o.MinSize())
	}
	return s.Max(fyne.NewSize(0, m.h))
}

// tourViews adds the pictures tab to `jigbench screenshot`.
func (a *AgreementPane) tourViews() []tourView {
	return []tourView{
		{Name: "pictures", Show: func() { a.tabs.SelectIndex(1) }},
		{Name: "leaderboard", Show: func() { a.tabs.SelectIndex(2) }},
		{Name: "disagreements", Show: func() { a.tabs.SelectIndex(3) }},
		{Name: "review", Show: func() { a.reviewFirst() }},
		{Name: "pictures-3-conditions", Show: a.tourThreeConditions},
	}
}

// tourThreeConditions adds a made-up third judge condition to the demo's
// computed input and shows the pictures of all three, on the process track.
func (a *AgreementPane) tourThreeConditions() {
	if a.report == nil {
		return
	}
	in, opts := a.input, a.opts
	in.Judge = append(slices.Clone(in.Judge), vigordemo.MixedCondition(in.Judge, "text_gt_only")...)
	opts.Replicates = 0 // the pictures do not need the intervals
	a.work.Go(func() func() {
		res, err := computeAgreement(context.Background(), in, opts)
		return func() {
			if err != nil {
				a.showError(err)
				return
			}
			a.show(in, opts, res, nil)
			a.trackSel.SetSelected("Process") // its points spread out
			a.tabs.SelectIndex(1)
		}
	})
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
	for c, fs := range a.judgeFiles {
		job.judgeFiles[c] = slices.Clone(fs)
	}
	a.Cancel()
	ctx, cancel := context.WithCancel(context.Background())
	a.cancel = cancel
	id := a.request.Add(1)
	a.done.Store(0)
	a.total.Store(int64(max(reps, 1)))
	job.opts.Progress = func(r progress.Report) {
		a.done.Store(r.Done)
		a.total.Store(max(r.Total, 1))
	}
	a.running = true
	a.compute.Disable()
	a.progress.SetValue(0)
	a.progressBox.Show()
	a.status.Set("Computing the agreement of " + a.sp.Name + "…")
	a.pollProgress(id)
	a.work.Go(func() func() {
		in, problems, err := a.gather(ctx, job)
		var res agreementResult
		if err == nil {
			res, err = computeAgreement(ctx, in, job.opts)
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
				a.show(in, job.opts, res, problems)
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

// agreementResult is everything one Compute shows.
type agreementResult struct {
	report *vigor.Report
	plots  *vigor.PlotData
	conds  *vigor.ConditionsReport // nil unless there are conditions beyond the paper's two
	board  *vigor.Leaderboard      // nil without judge runs
	dis    []vigor.Disagreement
}

// computeAgreement runs every analysis of the pane; it runs on a worker.
func computeAgreement(ctx context.Context, in vigor.Input, opts vigor.Options) (agreementResult, error) {
	var r agreementResult
	var err error
	if r.report, err = vigor.Analyze(ctx, in, opts); err != nil {
		return r, err
	}
	if r.plots, err = vigor.Plots(in, opts.SampleVariance); err != nil {
		return r, err
	}
	if r.dis, err = vigor.Disagreements(in); err != nil {
		return r, err
	}
	conds := vigor.OrderConditions(in.Judge)
	if len(conds) > 0 {
		lopt := vigor.LeaderboardOptions{Replicates: opts.Replicates, Seed: opts.Seed}
		if r.board, err = vigor.BuildLeaderboard(ctx, in, lopt); err != nil {
			return r, err
		}
	}
	for _, c := range conds {
		if !slices.Contains(vigor.Conditions[:], c) {
			if r.conds, err = vigor.AnalyzeConditions(ctx, in, opts, nil); err != nil {
				return r, err
			}
			break
		}
	}
	return r, nil
}

// clearResult takes the last report off the screen: it belongs to
// another split or other inputs.
func (a *AgreementPane) clearResult(why string) {
	a.report, a.plots, a.input = nil, nil, vigor.Input{}
	a.summary.SetText(why)
	a.missing.Hide()
	a.problems.Hide()
	a.tables = nil
	a.tablesBox.Objects = nil
	a.tablesBox.Refresh()
	for _, c := range []*chartView{a.heat, a.confusion, a.scatt} {
		c.SetChart(nil)
	}
	for _, b := range a.exportBtns {
		b.Disable()
	}
	a.showBoard(nil, nil)
	a.showDisagreements(nil)
}

// show lays out a finished report.
func (a *AgreementPane) show(in vigor.Input, opts vigor.Options, res agreementResult, problems []string) {
	rep := res.report
	a.report, a.plots, a.input, a.opts = rep, res.plots, in, opts
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
	a.showTables(rep, res.conds)
	if m := rep.Missing(); len(m) > 0 {
		a.missing.SetText(strings.Join(m, "\n"))
		a.missing.Show()
	} else {
		a.missing.Hide()
	}
	a.showBoard(in.Judge, res.board)
	a.showDisagreements(res.dis)
	for _, b := range a.exportBtns {
		b.Enable()
	}
	a.offerConditions(res.plots.Conditions)
	a.showPictures()
	a.work.relayout(a.view)
	a.status.Set(fmt.Sprintf("Agreement of %s computed: %d human ratings, %d judge records.", rep.Split, len(in.Humans), len(in.Judge)))
}

// shownReport is the report shown (nil before the first computation).
func (a *AgreementPane) shownReport() *vigor.Report { return a.report }
