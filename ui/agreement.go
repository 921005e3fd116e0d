package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigordemo"
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

	// Inputs.
	dir        string
	demo       bool
	sp         *vigor.Split
	storeNames []string        // annotators of the split in the store
	storeErr   error           // why the store could not be read, if it could not
	useStore   map[string]bool // which of them to include
	humanFiles []string
	judgeFiles map[vigor.Condition][]string

	// Result.
	report *vigor.Report
	plots  *vigor.PlotData
	input  vigor.Input // what the report was computed from
	opts   vigor.Options

	splitLabel             *widget.Label
	storeBox, humanBox     *fyne.Container
	judgeBox               map[vigor.Condition]*fyne.Container
	replicates             *widget.Select
	seed                   *widget.Entry
	sample                 *widget.Check
	compute, cancelBtn     *widget.Button
	progress               *widget.ProgressBar
	progressBox            *fyne.Container
	problems               *widget.Label
	summary                *widget.Label
	tablesBox              *fyne.Container
	tables                 []*textTable
	tabs                   *container.AppTabs
	condSel, trackSel      *widget.RadioGroup
	heat, confusion, scatt *chartView
	exportBtns             []*widget.Button

	view    fyne.CanvasObject
	request atomic.Uint64
	cancel  context.CancelFunc
	done    atomic.Int64 // bootstrap replicates done
	total   atomic.Int64
	running bool
}

// newAgreementPane makes the pane; it opens on the demo split.
func newAgreementPane(d deps) *AgreementPane {
	return &AgreementPane{deps: d, useStore: map[string]bool{}, judgeFiles: map[vigor.Condition][]string{}}
}

// Agreement is the Agreement pane.
func (m *MainWindow) Agreement() *AgreementPane { return m.agreement }

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

// OpenDemo chooses the demo split with its simulated ratings and judge runs
// and computes the report.
func (a *AgreementPane) OpenDemo() {
	id := a.request.Add(1)
	a.work.Go(func() func() {
		set, err := vigordemo.Cached()
		return func() {
			if a.request.Load() != id {
				return
			}
			if err != nil {
				a.showError(err)
				return
			}
			a.useSplit(set.Dir, true, func() {
				a.humanFiles = slices.Clone(set.Humans)
				a.judgeFiles = map[vigor.Condition][]string{}
				for _, c := range vigor.Conditions {
					a.judgeFiles[c] = slices.Clone(set.Judge[c])
				}
				a.showSources()
				a.Compute()
			})
		}
	})
}

// OpenSplitDialog asks for a split folder.
func (a *AgreementPane) OpenSplitDialog() {
	a.openFolder("Choose the ViGoR split (a folder with split.json)", a.OpenSplit)
}

// OpenSplit chooses the split in dir; the rating and judge files chosen
// for another split are dropped.
func (a *AgreementPane) OpenSplit(dir string) {
	a.useSplit(dir, false, func() {
		a.humanFiles = nil
		a.judgeFiles = map[vigor.Condition][]string{}
		a.showSources()
		a.status.Set(fmt.Sprintf("Split %s: tick the raters in this machine's store, add rating exports and judge runs, then Compute.", a.sp.Name))
	})
}

// useSplit reads the split and lists its raters in the store, off the UI
// goroutine, then runs then.
func (a *AgreementPane) useSplit(dir string, demo bool, then func()) {
	id := a.request.Add(1)
	a.work.Go(func() func() {
		sp, err := vigor.LoadMeta(dir)
		var names []string
		var storeErr error // the store is optional here: files can stand in
		if err == nil {
			var store RatingStore
			if store, storeErr = a.ratings.store(demo); storeErr == nil {
				ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
				names, storeErr = store.Annotators(ctx, sp.Name)
				cancel()
			}
		}
		return func() {
			if a.request.Load() != id {
				return
			}
			if err != nil {
				a.showError(err)
				return
			}
			a.Cancel()
			a.dir, a.demo, a.sp = dir, demo, sp
			a.storeNames, a.storeErr = names, storeErr
			// A real split's raters in the store count by default; the
			// demo's report is the simulated study unless a demo rater is ticked.
			a.useStore = map[string]bool{}
			for _, n := range names {
				a.useStore[n] = !demo
			}
			label := fmt.Sprintf("%s — %d process and %d result items", sp.Name, sp.Count(vigor.TrackProcess), sp.Count(vigor.TrackResult))
			if demo {
				label += " (the demo: simulated raters and judge)"
			}
			a.splitLabel.SetText(label)
			a.work.relayout(a.view)
			if !demo {
				a.prefs.SetString(prefLastDir, filepath.Dir(dir))
			}
			then()
		}
	})
}

// showSources lists the chosen ratings and judge runs.
func (a *AgreementPane) showSources() {
	a.storeBox.Objects = nil
	if len(a.storeNames) == 0 {
		text := "This machine's store has no ratings of this split."
		if a.storeErr != nil {
			text = "This machine's ratings store could not be read (" + a.storeErr.Error() + "); add rating exports instead."
		}
		note := widget.NewLabel(text)
		note.Wrapping = fyne.TextWrapWord
		note.SizeName = theme.SizeNameCaptionText
		a.storeBox.Add(note)
	} else {
		a.storeBox.Add(widget.NewLabel("From this machine's store:"))
		for _, n := range a.storeNames {
			c := widget.NewCheck(n, func(on bool) { a.useStore[n] = on })
			c.SetChecked(a.useStore[n])
			a.storeBox.Add(c)
		}
	}
	a.storeBox.Refresh()
	fileRow := func(path string, remove func()) fyne.CanvasObject {
		l := widget.NewLabel(filepath.Base(path))
		l.Truncation = fyne.TextTruncateEllipsis
		b := widget.NewButtonWithIcon("", theme.ContentRemoveIcon(), remove)
		b.Importance = widget.LowImportance
		return container.NewBorder(nil, nil, nil, b, l)
	}
	a.humanBox.Objects = nil
	for i, f := range a.humanFiles {
		a.humanBox.Add(fileRow(f, func() {
			a.humanFiles = slices.Delete(a.humanFiles, i, i+1)
			a.showSources()
		}))
	}
	a.humanBox.Refresh()
	for _, c := range vigor.Conditions {
		box := a.judgeBox[c]
		box.Objects = nil
		for i, f := range a.judgeFiles[c] {
			box.Add(fileRow(f, func() {
				a.judgeFiles[c] = slices.Delete(a.judgeFiles[c], i, i+1)
				a.showSources()
			}))
		}
		if len(a.judgeFiles[c]) == 0 {
			none := widget.NewLabel("none")
			none.SizeName = theme.SizeNameCaptionText
			box.Add(none)
		}
		box.Refresh()
	}
	a.work.relayout(a.view)
}

func (a *AgreementPane) addHumansDialog() {
	a.openFile("Add a ratings export", Filter{Name: "Ratings", Extensions: []string{"csv", "jsonl", "ndjson"}}, func(path string) { a.AddHumans(path) })
}

func (a *AgreementPane) addJudgeDialog(c vigor.Condition) {
	a.openFile("Add a judge run ("+condWords(c)+")", Filter{Name: "Judge runs", Extensions: []string{"json", "jsonl"}},
		func(path string) { a.AddJudge(c, path) })
}

// AddHumans adds rating exports (.csv, .jsonl).
func (a *AgreementPane) AddHumans(paths ...string) {
	for _, p := range paths {
		if !slices.Contains(a.humanFiles, p) {
			a.humanFiles = append(a.humanFiles, p)
		}
	}
	a.showSources()
}

// AddJudge adds judge-run files of condition c; a record without a run
// number takes the file's position in the condition's list.
func (a *AgreementPane) AddJudge(c vigor.Condition, paths ...string) {
	for _, p := range paths {
		if !slices.Contains(a.judgeFiles[c], p) {
			a.judgeFiles[c] = append(a.judgeFiles[c], p)
		}
	}
	a.showSources()
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

// gather reads everything the analysis needs; it runs on a worker goroutine.
func (a *AgreementPane) gather(ctx context.Context, job analysisJob) (vigor.Input, []string, error) {
	sp, err := vigor.LoadMeta(job.dir)
	if err != nil {
		return vigor.Input{}, nil, err
	}
	in := vigor.Input{Split: sp}
	if len(job.humanFiles) > 0 {
		if in.Humans, err = vigor.ReadRatingsFiles(job.humanFiles, sp); err != nil {
			return in, nil, err
		}
	}
	if len(job.storeNames) > 0 {
		store, err := a.ratings.store(job.demo)
		if err != nil {
			return in, nil, err
		}
		for _, n := range job.storeNames {
			sctx, cancel := context.WithTimeout(ctx, storeTimeout)
			rs, err := store.List(sctx, vigor.Query{Split: sp.Name, Annotator: n})
			cancel()
			if err != nil {
				return in, nil, err
			}
			in.Humans = append(in.Humans, rs...)
		}
	}
	var problems []string
	for _, c := range vigor.Conditions {
		for k, f := range job.judgeFiles[c] {
			recs, probs, err := vigor.ReadJudgeFile(f, sp, vigor.JudgeOptions{Condition: c, Fixed: true, Run: k + 1})
			if err != nil {
				return in, nil, err
			}
			in.Judge = append(in.Judge, recs...)
			for _, p := range probs {
				problems = append(problems, p.String())
			}
		}
	}
	if len(in.Humans) == 0 {
		return in, problems, errors.New("no human ratings chosen: tick raters in this machine's store or add rating exports")
	}
	return in, problems, nil
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
	a.summary.SetText(fmt.Sprintf("Split %s: %d process and %d result items; %d annotators (%s); judge runs without GT: %s, with GT: %s.",
		rep.Split, rep.Items.Process, rep.Items.Result, len(rep.Annotators), strings.Join(rep.Annotators, ", "),
		runWords(rep.Runs.WithoutGT), runWords(rep.Runs.WithGT)))
	a.tables = nil
	a.tablesBox.Objects = nil
	for _, t := range rep.TextTables() {
		tt := newTextTable(t)
		a.tables = append(a.tables, tt)
		a.tablesBox.Add(tt.box)
	}
	a.tablesBox.Refresh()
	for _, b := range a.exportBtns {
		b.Enable()
	}
	a.showPictures()
	a.work.relayout(a.view)
	a.status.Set(fmt.Sprintf("Agreement of %s computed: %d human ratings, %d judge records.", rep.Split, len(in.Humans), len(in.Judge)))
}

func runWords(runs []int) string {
	if len(runs) == 0 {
		return "none"
	}
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, ", ")
}

// Report is the report shown (nil before the first computation).
func (a *AgreementPane) Report() *vigor.Report { return a.report }

// selected returns the condition and track the pictures show.
func (a *AgreementPane) selected() (vigor.Condition, vigor.Track) {
	c, t := vigor.WithGT, vigor.TrackResult
	if a.condSel.Selected == condTitle(vigor.WithoutGT) {
		c = vigor.WithoutGT
	}
	if a.trackSel.Selected == "Process" {
		t = vigor.TrackProcess
	}
	return c, t
}

// showPictures draws the heatmap, the confusion matrix and the scatter of
// the chosen condition and track.
func (a *AgreementPane) showPictures() {
	if a.heat == nil || a.report == nil {
		return
	}
	cond, t := a.selected()
	a.heat.SetChart(a.heatmapChart(cond, t))
	a.confusion.SetChart(a.confusionChart(cond, t))
	a.scatt.SetChart(a.scatterChart(cond))
}

type chartFunc = func(w, h int, st render.PlotStyle) *image.RGBA

func trackWord(t vigor.Track) string {
	if t == vigor.TrackProcess {
		return "process track"
	}
	return "result track"
}

func (a *AgreementPane) heatmapChart(cond vigor.Condition, t vigor.Track) chartFunc {
	g, ok := a.plots.Grid(cond, t)
	if !ok {
		return nil
	}
	c := render.GridChart{
		Title:    "Accuracy by subdomain × dimension",
		Subtitle: trackWord(t) + " · " + condWords(cond),
		Rows:     g.Rows, Cols: g.Dims, Counts: g.Cells,
	}
	for _, row := range g.Accuracy {
		vals, ok := make([]float64, len(row)), make([]bool, len(row))
		for j, v := range row {
			vals[j], ok[j] = v.Get()
		}
		c.Values, c.Defined = append(c.Values, vals), append(c.Defined, ok)
	}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawGridChart(c, w, h, st) }
}

func (a *AgreementPane) confusionChart(cond vigor.Condition, t vigor.Track) chartFunc {
	cs := &a.report.Confusion.JudgeWithGT
	if cond == vigor.WithoutGT {
		cs = &a.report.Confusion.JudgeWithoutGT
	}
	cf := cs.Result
	sub := "majority of the scores, 0 or 1"
	if t == vigor.TrackProcess {
		cf = cs.Process
		sub = "buckets of the mean: bad 0–33, moderate 34–67, good 68–100"
	}
	c := render.MatrixChart{Title: "Confusion: " + trackWord(t) + ", " + condWords(cond),
		Subtitle: sub, RowTitle: "Humans ↓", ColTitle: "Judge →", Labels: cf.Labels, Counts: cf.Matrix}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawMatrixChart(c, w, h, st) }
}

// Series colours of the scatter (readable on light and dark).
var (
	processColour = color.RGBA{240, 128, 32, 255}
	resultColour  = color.RGBA{40, 130, 230, 255}
)

func (a *AgreementPane) scatterChart(cond vigor.Condition) chartFunc {
	var proc, res [][2]float64
	for _, p := range a.plots.Points {
		if p.Condition != cond {
			continue
		}
		if p.Track == vigor.TrackProcess {
			proc = append(proc, [2]float64{p.Human, p.Judge})
		} else {
			res = append(res, [2]float64{p.Human, p.Judge})
		}
	}
	c := render.ScatterChart{
		Title:    "Judge vs humans, " + condWords(cond),
		Subtitle: "one point per item × dimension (means, 0–1); result points jittered",
		XLabel:   "humans' mean", YLabel: "judge's mean",
		Series: []render.ScatterSeries{
			{Name: fmt.Sprintf("process (%d)", len(proc)), Colour: processColour, Points: proc},
			{Name: fmt.Sprintf("result (%d)", len(res)), Colour: resultColour, Points: res, Jitter: 0.03},
		},
	}
	return func(w, h int, st render.PlotStyle) *image.RGBA { return render.DrawScatterChart(c, w, h, st) }
}

// Export.

func (a *AgreementPane) exportDialog(ext string) {
	if a.report == nil {
		a.status.Set("Nothing to export yet: compute the report first.")
		return
	}
	name := a.report.Split + "-agreement." + ext
	a.saveFile("Export the agreement report", name, Filter{Name: strings.ToUpper(ext), Extensions: []string{ext}}, a.Export)
}

// exportChartSize is the size of one chart in an exported PNG sheet.
const exportChartW, exportChartH = 720, 560

// Export writes the report shown; the format follows the extension: .md
// (Markdown), .csv, .json, or .png (every picture, both conditions and
// tracks, on one sheet).
func (a *AgreementPane) Export(path string) {
	rep, pd := a.report, a.plots
	if rep == nil {
		return
	}
	ext := strings.ToLower(filepath.Ext(path))
	var charts []chartFunc
	if ext == ".png" {
		for _, c := range vigor.Conditions {
			for _, t := range vigor.Tracks {
				if _, ok := pd.Grid(c, t); !ok {
					continue
				}
				charts = append(charts, a.heatmapChart(c, t), a.confusionChart(c, t))
			}
			charts = append(charts, a.scatterChart(c))
		}
	}
	a.status.Set("Exporting " + path + "…")
	a.work.Go(func() func() {
		err := fsutil.WriteWith(path, func(w io.Writer) error {
			switch ext {
			case ".md", ".markdown":
				return rep.WriteMarkdown(w)
			case ".csv":
				return rep.WriteCSV(w)
			case ".json":
				return rep.WriteJSON(w)
			case ".png":
				st := render.LightPlotStyle(1)
				var imgs []*image.RGBA
				for _, c := range charts {
					imgs = append(imgs, c(exportChartW, exportChartH, st))
				}
				data, err := render.EncodePNG(render.ChartSheet(imgs, 3, 8, st.Background))
				if err != nil {
					return err
				}
				_, err = w.Write(data)
				return err
			}
			return fmt.Errorf("%s: unknown format; name the file .md, .csv, .json or .png", filepath.Base(path))
		})
		return func() {
			if err != nil {
				a.showError(err)
				return
			}
			a.status.Set("Exported " + path)
		}
	})
}
