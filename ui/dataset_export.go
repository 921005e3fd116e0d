package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/models"
	"github.com/jigbench/jigbench/core/progress"
)

// Names of what "Export for models…" writes into its output folder
// (docs/models.md): the batch requests file and the Hugging Face dataset.
const (
	exportRequestsFile = "requests.jsonl"
	exportHFDir        = "hf"
)

// modelExport is the dataset form's "Export for models…": what `jigbench
// requests` and `jigbench export hf` do, for a dataset folder, with progress
// and Cancel.
type modelExport struct {
	deps
	truth, out  *widget.Label
	truthDir    string
	outDir      string
	requests    *widget.Check
	condition   *widget.Select
	model       *widget.Entry
	hf          *widget.Check
	progress    *meter
	line        *widget.Label
	start       *widget.Button
	cancel      *widget.Button
	stop        context.CancelFunc
	dialog      dialog.Dialog
	lastWritten []string // what the last run wrote (tests)
}

func newModelExport(d deps) *modelExport {
	e := &modelExport{deps: d}
	e.truth = widget.NewLabel("(none chosen)")
	e.truth.Truncation = fyne.TextTruncateEllipsis
	e.out = widget.NewLabel("(none chosen)")
	e.out.Truncation = fyne.TextTruncateEllipsis
	e.requests = widget.NewCheck("Requests (OpenAI batch file, "+exportRequestsFile+")", nil)
	e.requests.SetChecked(true)
	e.condition = widget.NewSelect([]string{"both", "shape", "rect"}, nil)
	e.condition.SetSelected("both")
	e.model = widget.NewEntry()
	e.model.SetPlaceHolder("model name in each request (optional)")
	e.hf = widget.NewCheck("Hugging Face dataset (parquet, "+exportHFDir+"/)", nil)
	e.hf.SetChecked(true)
	e.progress, e.line, e.start, e.cancel = newRunControls("Choose a dataset folder and an output folder, then Export.",
		widget.NewButtonWithIcon("Export", theme.UploadIcon(), e.Start), &e.stop)
	return e
}

// setTruth chooses the dataset; the output goes beside it unless chosen.
func (e *modelExport) setTruth(dir string) {
	e.truthDir = dir
	e.truth.SetText(dir)
	if e.outDir == "" {
		e.setOut(filepath.Join(dir, "export"))
	}
}

func (e *modelExport) setOut(dir string) {
	e.outDir = dir
	e.out.SetText(dir)
	if e.truthDir != "" {
		e.line.SetText("Export writes what is ticked into the output folder.")
	}
}

// Show opens the export form.
func (e *modelExport) Show() {
	form := widget.NewForm(
		widget.NewFormItem("Dataset", e.folderRow(e.truth, "Dataset folder (with manifest.jsonl)", e.setTruth)),
		widget.NewFormItem("Output", e.folderRow(e.out, "Folder to write the export into", e.setOut)),
		widget.NewFormItem("", e.requests),
		widget.NewFormItem("Conditions", e.condition),
		widget.NewFormItem("Model", e.model),
		widget.NewFormItem("", e.hf),
	)
	closeButton := widget.NewButton("Close", func() { e.dialog.Hide() })
	content := container.NewVBox(form, e.progress, e.line, container.NewHBox(e.start, e.cancel, closeButton))
	e.dialog = dialog.NewCustomWithoutButtons("Export for models", container.NewPadded(content), e.window)
	e.dialog.Resize(fyne.NewSize(min(600, e.window.Canvas().Size().Width*0.95), 0))
	e.dialog.Show()
}

// Start writes what is ticked, off the UI goroutine.
func (e *modelExport) Start() {
	switch {
	case e.truthDir == "":
		e.line.SetText("Choose the dataset folder first.")
		return
	case e.outDir == "":
		e.line.SetText("Choose the output folder first.")
		return
	case !e.requests.Checked && !e.hf.Checked:
		e.line.SetText("Tick the requests, the Hugging Face dataset, or both.")
		return
	}
	conds, err := models.Conditions(e.condition.Selected)
	if err != nil {
		e.line.SetText(capitalise(err.Error()) + ".")
		return
	}
	truth, out := e.truthDir, e.outDir
	doRequests, doHF := e.requests.Checked, e.hf.Checked
	opt := models.RequestOptions{Conditions: conds, Model: strings.TrimSpace(e.model.Text)}
	ctx, stop := context.WithCancel(context.Background())
	e.stop = stop
	e.start.Disable()
	e.cancel.Enable()
	e.progress.SetValue(0)
	e.line.SetText("Starting…")
	// Each part is half the bar when both run.
	parts, part := 0, 0
	for _, on := range []bool{doRequests, doHF} {
		if on {
			parts++
		}
	}
	report := func(what string) progress.Func {
		return func(r progress.Report) {
			e.work.Post(func() {
				if r.Total > 0 {
					e.progress.SetValue((float64(part) + r.Fraction()) / float64(parts))
				}
				e.line.SetText(fmt.Sprintf("%s: %d of %d", what, r.Done, r.Total))
			})
		}
	}
	e.work.Go(func() func() {
		defer stop()
		var written []string
		var summary []string
		err := func() error {
			if err := os.MkdirAll(out, 0o755); err != nil {
				return fmt.Errorf("cannot make %s: %v", out, err)
			}
			if doRequests {
				path := filepath.Join(out, exportRequestsFile)
				n, err := writeRequestsFile(ctx, truth, path, opt, report("Requests"))
				if err != nil {
					return err
				}
				written = append(written, path)
				summary = append(summary, fmt.Sprintf("%d requests in %s", n, path))
				e.work.Post(func() { part++ })
			}
			if doHF {
				dir := filepath.Join(out, exportHFDir)
				splits, err := models.ExportHF(ctx, truth, dir, models.HFOptions{
					Progress: report("Hugging Face rows"),
				})
				if err != nil {
					return err
				}
				rows := 0
				for _, s := range splits {
					rows += s.Rows
				}
				written = append(written, dir)
				summary = append(summary, fmt.Sprintf("%d rows in %d splits in %s", rows, len(splits), dir))
			}
			return nil
		}()
		return func() {
			e.start.Enable()
			e.cancel.Disable()
			e.stop = nil
			e.lastWritten = written
			switch {
			case errors.Is(err, context.Canceled):
				e.line.SetText("Cancelled.")
			case err != nil:
				e.line.SetText(err.Error())
				e.status.Set(err.Error())
			default:
				e.progress.SetValue(1)
				msg := "Exported " + strings.Join(summary, "; ") + "."
				e.line.SetText(msg)
				e.status.Set(msg)
				e.recent(out)
			}
		}
	})
}

// writeRequestsFile writes the batch requests of truth's instances to
// path, replacing it only when complete.
func writeRequestsFile(ctx context.Context, truth, path string, opt models.RequestOptions, report progress.Func) (int, error) {
	items, err := models.ListInstances(truth, models.SplitAll)
	if err != nil {
		return 0, err
	}
	f, err := fsutil.Create(path)
	if err != nil {
		return 0, err
	}
	defer f.Close()
	n, err := models.WriteRequests(ctx, f, items, opt, report)
	if err != nil {
		return n, err
	}
	return n, f.Commit()
}
