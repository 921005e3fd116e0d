package ui

import (
	"context"
	"errors"
	"fmt"
	"runtime"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/render/demo"
)

// DatasetForm is the Generate pane's "Generate dataset…" form: many images ×
// grids on core/dataset, with progress, ETA and Cancel.
type DatasetForm struct {
	deps
	gen *GeneratePane

	images     *widget.Label
	imagesDir  string
	useDemo    *widget.Check
	demoCount  *widget.Entry
	out        *widget.Label
	outDir     string
	grids      *widget.Entry
	seed       *widget.Entry
	evalFrac   *widget.Entry
	workers    *widget.Entry
	progress   *meter
	line       *widget.Label
	start      *widget.Button
	cancel     *widget.Button
	cancelFunc context.CancelFunc
	dialog     dialog.Dialog
	export     *modelExport // "Export for models…", built on first use

	// Result is the last finished run (tests).
	Result *dataset.Result
}

// newDatasetForm builds the form for the Generate pane g.
func newDatasetForm(g *GeneratePane) *DatasetForm {
	f := &DatasetForm{deps: g.deps, gen: g}
	f.images = widget.NewLabel("(none chosen)")
	f.images.Truncation = fyne.TextTruncateEllipsis
	f.out = widget.NewLabel("(none chosen)")
	f.out.Truncation = fyne.TextTruncateEllipsis
	f.useDemo = widget.NewCheck("Use the built-in demo images", func(on bool) {
		if on {
			f.demoCount.Enable()
		} else {
			f.demoCount.Disable()
		}
	})
	f.demoCount = widget.NewEntry()
	f.demoCount.SetText(strconv.Itoa(len(demo.Names())))
	f.demoCount.Disable()
	f.grids = widget.NewEntry()
	f.grids.SetText("4,8,12,16")
	f.seed = widget.NewEntry()
	f.seed.SetText("1")
	f.evalFrac = widget.NewEntry()
	f.evalFrac.SetText(fmt.Sprint(dataset.DefaultEvalFraction))
	f.workers = widget.NewEntry()
	f.workers.SetText(strconv.Itoa(runtime.NumCPU()))
	f.progress, f.line, f.start, f.cancel = newRunControls("Choose the images and an output folder, then Start.",
		widget.NewButtonWithIcon("Start", theme.MediaPlayIcon(), f.Start), &f.cancelFunc)
	return f
}

// newRunControls are a long job's progress meter, result line (showing
// hint first), start button and Cancel, which calls *stop when set.
func newRunControls(hint string, start *widget.Button, stop *context.CancelFunc) (*meter, *widget.Label, *widget.Button, *widget.Button) {
	line := widget.NewLabel(hint)
	line.Wrapping = fyne.TextWrapWord
	start.Importance = widget.HighImportance
	cancel := widget.NewButtonWithIcon("Cancel", theme.CancelIcon(), func() {
		if *stop != nil {
			(*stop)()
		}
	})
	cancel.Disable()
	return newMeter(), line, start, cancel
}

// folderRow is a form row of a folder's path and a Choose… button that
// asks for the folder (titled title) and hands it to set.
func (d deps) folderRow(path fyne.CanvasObject, title string, set func(dir string)) fyne.CanvasObject {
	choose := widget.NewButtonWithIcon("Choose…", theme.FolderOpenIcon(), func() { d.openFolder(title, set) })
	return container.NewBorder(nil, nil, nil, choose, path)
}

// Show opens the form in a dialog.
func (f *DatasetForm) Show() {
	form := widget.NewForm(
		widget.NewFormItem("Images", f.folderRow(f.images, "Folder of source images", f.SetImages)),
		widget.NewFormItem("", container.NewBorder(nil, nil, f.useDemo, nil, f.demoCount)),
		widget.NewFormItem("Output", f.folderRow(f.out, "Folder to write the dataset into", f.SetOut)),
		widget.NewFormItem("Grids", f.grids),
		widget.NewFormItem("Seed", f.seed),
		widget.NewFormItem("Eval fraction", f.evalFrac),
		widget.NewFormItem("Workers", f.workers),
	)
	note := widget.NewLabel("Tab style, tab size and image size are the Generate pane's. A stopped run " +
		"resumes where it left off when started again with the same settings.")
	note.Wrapping = fyne.TextWrapWord
	close := widget.NewButton("Close", func() { f.dialog.Hide() })
	export := widget.NewButtonWithIcon("Export for models…", theme.UploadIcon(), f.Export)
	content := container.NewVBox(form, note, f.progress, f.line, container.NewHBox(f.start, f.cancel, close, export))
	f.dialog = dialog.NewCustomWithoutButtons("Generate dataset", container.NewPadded(content), f.window)
	f.dialog.Resize(fyne.NewSize(560, 0))
	f.dialog.Show()
}

// Export opens "Export for models…" on the dataset last written (or the
// output folder chosen).
func (f *DatasetForm) Export() {
	if f.export == nil {
		f.export = newModelExport(f.deps)
	}
	if f.outDir != "" && f.export.truthDir == "" {
		f.export.setTruth(f.outDir)
	}
	f.export.Show()
}

// SetImages chooses the source folder.
func (f *DatasetForm) SetImages(dir string) {
	f.imagesDir = dir
	f.images.SetText(dir)
	f.useDemo.SetChecked(false)
}

// SetOut chooses the output folder.
func (f *DatasetForm) SetOut(dir string) {
	f.outDir = dir
	f.out.SetText(dir)
}

// chooseDemo switches the source to the first k demo images.
func (f *DatasetForm) chooseDemo(k int) {
	f.useDemo.SetChecked(true)
	f.demoCount.SetText(strconv.Itoa(k))
}

// config reads the form into a dataset configuration.
func (f *DatasetForm) config() (dataset.Config, error) {
	c := dataset.DefaultConfig()
	s, err := f.gen.read()
	if err != nil {
		return c, err
	}
	c.Options = s.opt
	if f.useDemo.Checked {
		if c.DemoCount, err = strconv.Atoi(strings.TrimSpace(f.demoCount.Text)); err != nil {
			return c, errors.New("the number of demo images must be a whole number")
		}
	} else {
		c.Images = f.imagesDir
	}
	c.Out = f.outDir
	c.Grids = nil
	for _, g := range strings.Split(f.grids.Text, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(g))
		if err != nil {
			return c, fmt.Errorf("grids must be whole numbers separated by commas, like 4,8,12,16")
		}
		c.Grids = append(c.Grids, n)
	}
	if c.Seed, err = strconv.ParseUint(strings.TrimSpace(f.seed.Text), 10, 64); err != nil {
		return c, errors.New("the seed must be a whole number ≥ 0")
	}
	if c.EvalFraction, err = strconv.ParseFloat(strings.TrimSpace(f.evalFrac.Text), 64); err != nil {
		return c, errors.New("the eval fraction must be a number from 0 to 1")
	}
	if c.Workers, err = strconv.Atoi(strings.TrimSpace(f.workers.Text)); err != nil || c.Workers < 1 {
		return c, errors.New("workers must be a whole number ≥ 1")
	}
	return c, c.Validate()
}

// Start runs the dataset off the UI goroutine, showing progress and ETA.
func (f *DatasetForm) Start() {
	c, err := f.config()
	if err != nil {
		f.line.SetText(capitalise(err.Error()) + ".")
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	f.cancelFunc = cancel
	f.start.Disable()
	f.cancel.Enable()
	f.progress.SetValue(0)
	f.line.SetText("Starting…")
	c.Progress = func(r progress.Report) {
		f.work.Post(func() {
			f.progress.SetValue(r.Fraction())
			f.line.SetText(r.Detail)
		})
	}
	f.work.Go(func() func() {
		defer cancel()
		res, err := dataset.Run(ctx, c)
		return func() {
			f.start.Enable()
			f.cancel.Disable()
			f.cancelFunc = nil
			switch {
			case errors.Is(err, context.Canceled):
				f.line.SetText("Stopped. Start again with the same settings to resume.")
			case err != nil:
				f.line.SetText(err.Error())
				f.showError(err)
			default:
				f.Result = res
				f.progress.SetValue(1)
				msg := fmt.Sprintf("Done: %d instances (%d train, %d eval) from %d images in %s; %s.",
					res.Instances, res.Train, res.Eval, res.Sources, res.Elapsed.Round(1e8), res.Manifest)
				if len(res.Errors) > 0 {
					msg += fmt.Sprintf(" %d skipped (e.g. %s).", len(res.Errors), res.Errors[0].File)
				}
				f.line.SetText(msg)
				f.status.Set(msg)
				f.recent(c.Out)
			}
		}
	})
}
