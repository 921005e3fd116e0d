package ui

import (
	"context"
	"fmt"
	"io"
	"path/filepath"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
)

// agreementDisagree is the Agreement pane's Disagreements tab: every item
// × dimension × condition the judge and the humans both scored, the
// largest |judge − humans| first, each opening a read-only review of the
// item (the analyst's view; Rate stays blind).
type agreementDisagree struct {
	dis, disShown                      []vigor.Disagreement
	disDim, disModel, disCond, disTrak *widget.Select
	disList                            *widget.List
	disCount                           *widget.Label
	disExport                          *widget.Button
	review                             dialog.Dialog // the open review, if any
}

// anyChoice is every filter's first option.
const anyChoice = "All"

func (a *AgreementPane) disagreeView() fyne.CanvasObject {
	refilter := func(string) { a.refilter() }
	dims := []string{anyChoice}
	for _, d := range vigor.Dims {
		dims = append(dims, d.String())
	}
	a.disDim = widget.NewSelect(dims, refilter)
	a.disModel = widget.NewSelect([]string{anyChoice}, refilter)
	a.disCond = widget.NewSelect([]string{anyChoice}, refilter)
	a.disTrak = widget.NewSelect([]string{anyChoice, string(vigor.TrackProcess), string(vigor.TrackResult)}, refilter)
	for _, s := range []*widget.Select{a.disDim, a.disModel, a.disCond, a.disTrak} {
		s.SetSelected(anyChoice)
	}
	a.disCount = widget.NewLabel("Compute to list the disagreements.")
	a.disCount.Wrapping = fyne.TextWrapWord
	a.disExport = widget.NewButtonWithIcon("CSV…", theme.DocumentSaveIcon(), a.exportDisagreementsDialog)
	a.disExport.Disable()
	a.disList = widget.NewList(func() int { return len(a.disShown) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			o.(*widget.Label).SetText(disagreementLine(&a.disShown[i]))
		})
	a.disList.OnSelected = func(i widget.ListItemID) {
		a.Review(i)
		a.disList.UnselectAll()
	}
	filters := container.New(tableLayout{cols: 8},
		widget.NewLabel("Dimension"), a.disDim, widget.NewLabel("Model"), a.disModel,
		widget.NewLabel("Condition"), a.disCond, widget.NewLabel("Track"), a.disTrak)
	top := container.NewVBox(container.NewHScroll(filters), container.NewBorder(nil, nil, nil, a.disExport, a.disCount))
	return container.NewBorder(container.NewPadded(top), nil, nil, nil, a.disList)
}

// disagreementLine is one row of the list.
func disagreementLine(d *vigor.Disagreement) string {
	return fmt.Sprintf("gap %.2f   %s · %s · %s · %s   humans %.2f (%d), judge %.2f (%d run%s)",
		d.Gap(), d.Item, groupLabel(d.Model), d.Dimension(), d.Condition, d.Human, d.Raters, d.Judge, d.Runs, pluralS(d.Runs))
}

func groupLabel(s string) string {
	if s == "" {
		return "(no model)"
	}
	return s
}

func pluralS(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

// showDisagreements shows ds (nil: none) with filters for its models and
// conditions.
func (a *AgreementPane) showDisagreements(ds []vigor.Disagreement) {
	a.dis = ds
	models, conds := []string{anyChoice}, []string{anyChoice}
	seenM, seenC := map[string]bool{}, map[string]bool{}
	for i := range ds {
		if m := ds[i].Model; !seenM[m] {
			seenM[m] = true
			models = append(models, m)
		}
		if c := string(ds[i].Condition); !seenC[c] {
			seenC[c] = true
			conds = append(conds, c)
		}
	}
	// Models in name order; conditions in the order Disagreements sorts them.
	slices.Sort(models[1:])
	a.disModel.SetOptions(models)
	a.disCond.SetOptions(conds)
	for _, s := range []*widget.Select{a.disModel, a.disCond} {
		if !slices.Contains(s.Options, s.Selected) {
			s.SetSelected(anyChoice)
		}
	}
	a.refilter()
}

// filter is the filter the selects describe.
func (a *AgreementPane) filter() vigor.DisagreementFilter {
	f := vigor.AnyDisagreement
	if d, ok := vigor.ParseDim(a.disDim.Selected); ok && a.disDim.Selected != anyChoice {
		f.Dim = d
	}
	if s := a.disModel.Selected; s != anyChoice {
		f.Model = s
	}
	if s := a.disCond.Selected; s != anyChoice {
		f.Condition = vigor.Condition(s)
	}
	if s := a.disTrak.Selected; s != anyChoice {
		f.Track = vigor.Track(s)
	}
	return f
}

func (a *AgreementPane) refilter() {
	if a.disList == nil {
		return
	}
	a.disShown = vigor.FilterDisagreements(a.dis, a.filter())
	switch {
	case a.dis == nil:
		a.disCount.SetText("No disagreements to list: they need judge runs and human ratings of the same items.")
		a.disExport.Disable()
	default:
		a.disCount.SetText(fmt.Sprintf("%d of %d item × dimension × condition cells, largest |judge − humans| first (0–1 scale; raters and runs in brackets). Click one to review the item.",
			len(a.disShown), len(a.dis)))
		a.disExport.Enable()
	}
	a.disList.Refresh()
	a.disList.ScrollToTop()
}

func (a *AgreementPane) exportDisagreementsDialog() {
	if a.report == nil {
		return
	}
	a.saveFile("Export the disagreements", a.report.Split+"-disagreements.csv", Filter{Name: "CSV", Extensions: []string{"csv"}}, a.ExportDisagreements)
}

// ExportDisagreements writes the listed (filtered) cells as CSV.
func (a *AgreementPane) ExportDisagreements(path string) {
	ds := a.disShown
	a.work.Go(func() func() {
		err := fsutil.WriteWith(path, func(w io.Writer) error { return vigor.WriteDisagreementsCSV(w, ds) })
		return func() {
			if err != nil {
				a.showError(err)
				return
			}
			a.status.Set(fmt.Sprintf("Exported %d disagreements to %s", len(ds), path))
		}
	})
}

// reviewFirst reviews the first listed cell (the screenshot tour).
func (a *AgreementPane) reviewFirst() {
	if len(a.disShown) > 0 {
		a.Review(0)
	}
}

// Review opens the read-only review of the item of listed cell i: its
// pictures (a video's frames extracted now, into the cache, if not there
// yet), every rater's scores and comment, every judge run's scores and
// explanation.
func (a *AgreementPane) Review(i int) {
	if i < 0 || i >= len(a.disShown) {
		return
	}
	d := a.disShown[i]
	rv, ok := vigor.ReviewItem(a.input, d.Item)
	if !ok {
		return
	}
	it := rv.Item
	head := widget.NewLabel(fmt.Sprintf("%s · %s · %s track · %s / %s — %s under %s: humans %.2f, judge %.2f",
		it.ID, groupLabel(it.Model), it.Track, it.Domain, it.Subdomain, d.Dimension(), d.Condition, d.Human, d.Judge))
	head.Wrapping = fyne.TextWrapWord
	head.TextStyle.Bold = true
	parts := []fyne.CanvasObject{head}
	if it.Instruction != "" {
		parts = append(parts, wrapped("Instruction: "+it.Instruction))
	}
	if it.GTText != "" {
		parts = append(parts, wrapped("Ground truth: "+it.GTText))
	}
	pics := container.NewGridWrap(fyne.NewSize(220, 180))
	parts = append(parts, pics)
	a.fillReviewPictures(pics, a.input.Split, it)

	ratings := vigor.Table{Title: "Raters", Columns: []string{"Rater"}}
	judge := vigor.Table{Title: "Judge runs", Columns: []string{"Condition", "Run"}}
	for _, dim := range vigor.Dims {
		ratings.Columns = append(ratings.Columns, dim.Short(it.Track))
		judge.Columns = append(judge.Columns, dim.Short(it.Track))
	}
	ratings.Columns = append(ratings.Columns, "Flagged", "Comment")
	judge.Columns = append(judge.Columns, "Explanation")
	for _, r := range rv.Ratings {
		row := append([]string{r.Annotator}, scoreCells(r.Scores)...)
		flag := ""
		if r.Flagged {
			flag = "yes"
		}
		ratings.Rows = append(ratings.Rows, append(row, flag, r.Comment))
	}
	for _, r := range rv.Judge {
		row := append([]string{string(r.Condition), strconv.Itoa(r.Run)}, scoreCells(r.Scores)...)
		judge.Rows = append(judge.Rows, append(row, r.Explanation))
	}
	if len(rv.Judge) == 0 {
		judge.Note = "No judge record of this item."
	}
	parts = append(parts, newTextTable(ratings).box, newTextTable(judge).box)

	body := container.NewScroll(container.NewVBox(parts...))
	if a.review != nil {
		a.review.Hide()
	}
	a.review = dialog.NewCustom("Review of item "+it.ID+" (read-only)", "Close", body, a.window)
	s := a.window.Canvas().Size()
	a.review.Resize(fyne.NewSize(s.Width*0.92, s.Height*0.9))
	a.review.Show()
}

func wrapped(s string) *widget.Label {
	l := widget.NewLabel(s)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// scoreCells writes scores as the rater gave them, "–" for none.
func scoreCells(s vigor.Scores) []string {
	out := make([]string, len(s))
	for i, v := range s {
		out[i] = "–"
		if v != vigor.NoScore {
			out[i] = strconv.Itoa(v)
		}
	}
	return out
}

// fillReviewPictures adds the item's pictures to box: a video item's
// frames are extracted (or read from the cache) on a worker, only now that
// the item is shown.
func (a *AgreementPane) fillReviewPictures(box *fyne.Container, sp *vigor.Split, it *vigor.Item) {
	picture := func(label, rel string) fyne.CanvasObject {
		path := rel
		if !filepath.IsAbs(path) {
			path = filepath.Join(sp.Dir, filepath.FromSlash(rel))
		}
		img := canvas.NewImageFromFile(path)
		img.FillMode = canvas.ImageFillContain
		caption := widget.NewLabel(label)
		caption.SizeName = theme.SizeNameCaptionText
		return container.NewBorder(nil, caption, nil, nil, img)
	}
	for _, p := range it.Paths() {
		if p.Field != "video" {
			box.Add(picture(strings.Replace(p.Field, "frames", "frame ", 1), p.Path))
		}
	}
	if it.Video == "" {
		return
	}
	note := widget.NewLabel("Taking the video's frames…")
	note.Wrapping = fyne.TextWrapWord
	box.Add(note)
	a.work.Go(func() func() {
		frames, err := sp.VideoFrames(context.Background(), it, "")
		return func() {
			box.Remove(note)
			if err != nil {
				box.Add(wrapped(err.Error()))
				return
			}
			for i, f := range frames {
				box.Add(picture(fmt.Sprintf("frame %d", i+1), f))
			}
		}
	})
}
