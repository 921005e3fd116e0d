package ui

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
)

// agreementInputs is what the Agreement pane computes from: the split, the
// raters chosen in this machine's store, rating exports and judge runs.
type agreementInputs struct {
	dir        string
	demo       bool
	sp         *vigor.Split
	storeNames []string        // annotators of the split in the store
	storeErr   error           // why the store could not be read, if it could not
	useStore   map[string]bool // which of them to include
	humanFiles []string
	judgeFiles map[vigor.Condition][]string

	splitLabel         *widget.Label
	storeBox, humanBox *fyne.Container
	judgeBox           *fyne.Container
	judgeCond          *widget.SelectEntry // the condition of the next judge run added
}

// OpenDemo chooses the demo split with its simulated ratings and judge runs
// and computes the report.
func (a *AgreementPane) OpenDemo() {
	id := a.request.Add(1)
	a.work.Go(func() func() {
		set, err := vigordemo.Cached()
		return a.answer(&a.request, id, err, func() {
			a.useSplit(set.Dir, true, func() {
				a.humanFiles = slices.Clone(set.Humans)
				a.judgeFiles = map[vigor.Condition][]string{}
				for _, c := range vigor.Conditions {
					a.judgeFiles[c] = slices.Clone(set.Judge[c])
				}
				a.showSources()
				a.Compute()
			})
		})
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
		return a.answer(&a.request, id, err, func() {
			a.Cancel()
			a.dir, a.demo, a.sp = dir, demo, sp
			a.clearResult(fmt.Sprintf("No report yet for %s: choose the ratings and judge runs, then Compute.", sp.Name))
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
		})
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
	box := a.judgeBox
	box.Objects = nil
	var last vigor.Condition
	known := []string{string(vigor.WithGT), string(vigor.WithoutGT)}
	for _, jf := range vigor.JudgeFilesOf(a.judgeFiles) {
		c := jf.Condition
		if len(a.judgeFiles[c]) == 0 {
			continue
		}
		if c != last {
			l := widget.NewLabelWithStyle(condTitle(c), fyne.TextAlignLeading, fyne.TextStyle{Italic: true})
			box.Add(l)
			last = c
			if !slices.Contains(known, string(c)) {
				known = append(known, string(c))
			}
		}
		i := slices.Index(a.judgeFiles[c], jf.Path)
		box.Add(fileRow(jf.Path, func() {
			a.judgeFiles[c] = slices.Delete(a.judgeFiles[c], i, i+1)
			if len(a.judgeFiles[c]) == 0 {
				delete(a.judgeFiles, c)
			}
			a.showSources()
		}))
	}
	if len(box.Objects) == 0 {
		none := widget.NewLabel("none")
		none.SizeName = theme.SizeNameCaptionText
		box.Add(none)
	}
	box.Refresh()
	a.judgeCond.SetOptions(known)
	a.work.relayout(a.view)
}

func (a *AgreementPane) addHumansDialog() {
	a.openFile("Add a ratings export", Filter{Name: "Ratings", Extensions: []string{"csv", "jsonl", "ndjson"}}, func(path string) { a.AddHumans(path) })
}

func (a *AgreementPane) addJudgeDialog() {
	c, ok := vigor.ParseCondition(a.judgeCond.Text)
	if !ok {
		a.showError(fmt.Errorf("condition %q: use letters, digits and underscores, such as with_gt or text_gt_only", a.judgeCond.Text))
		return
	}
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

// gather reads everything the analysis needs; it runs on a worker goroutine.
func (a *AgreementPane) gather(ctx context.Context, job analysisJob) (vigor.Input, []string, error) {
	sp, err := vigor.LoadMeta(job.dir)
	if err != nil {
		return vigor.Input{}, nil, err
	}
	src := vigor.Sources{HumanFiles: job.humanFiles, Judge: vigor.JudgeFilesOf(job.judgeFiles)}
	if len(job.storeNames) > 0 {
		store, err := a.ratings.store(job.demo)
		if err != nil {
			return vigor.Input{}, nil, err
		}
		// The store keeps a split's ratings under its identity, its name
		// and the digest of its items (docs/formats.md): ratings of another
		// split of the same name are not this one's.
		digest, err := sp.Digest()
		if err != nil {
			return vigor.Input{}, nil, err
		}
		for _, n := range job.storeNames {
			sctx, cancel := context.WithTimeout(ctx, storeTimeout)
			rs, err := store.List(sctx, vigor.Query{Split: sp.Name, Digest: digest, Annotator: n})
			cancel()
			if err != nil {
				return vigor.Input{}, nil, err
			}
			src.Stored = append(src.Stored, rs...)
		}
	}
	in, probs, err := vigor.Gather(sp, src)
	if err != nil {
		return in, nil, err
	}
	problems := make([]string, len(probs))
	for i, p := range probs {
		problems[i] = p.String()
	}
	if len(in.Humans) == 0 {
		return in, problems, errors.New("no human ratings chosen: tick raters in this machine's store or add rating exports")
	}
	return in, problems, nil
}
