package ui

import (
	"fmt"
	"image/color"
	"strconv"
	"strings"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// What the Rate pane shows: its widgets, the current item and its images.

// View implements Pane. It opens the split rated last, or the demo split.
func (p *RatePane) View() fyne.CanvasObject {
	if p.view != nil {
		return p.view
	}
	openBtn := widget.NewButtonWithIcon("Open split…", theme.FolderOpenIcon(), p.openDialog)
	p.splitLabel = widget.NewLabel("No split open")
	p.splitLabel.Truncation = fyne.TextTruncateEllipsis
	p.raterLabel = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{})
	change := widget.NewButton("Change…", func() { p.askAnnotator(p.annotator(), p.reopen) })
	p.position = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.tally = widget.NewLabel("")
	p.pace = widget.NewLabel("")
	p.pace.SizeName = theme.SizeNameCaptionText
	p.saveState = widget.NewLabel("")
	p.prevBtn = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { p.step(-1) })
	p.nextBtn = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { p.step(1) })
	var filters []fyne.CanvasObject
	for i, name := range ratesession.FilterNames {
		b := widget.NewButton(name, func() { p.setFilter(ratesession.Filter(i)) })
		p.filterBtns[i] = b
		filters = append(filters, b)
	}
	p.position.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVBox(
		container.NewBorder(nil, nil, openBtn, container.NewHBox(p.pace, p.raterLabel, change), p.splitLabel),
		container.NewBorder(nil, nil, container.NewHBox(p.prevBtn, p.nextBtn, container.New(widthLayout{w: 190}, p.saveState)),
			container.NewHBox(p.tally, container.NewHBox(filters...)), p.position),
	)
	p.notice, p.failure = newBanner(), newBanner()

	// Left: what is rated. The output (or the current frame, with the
	// scrubber in its caption row) is largest; the ground truth carries its
	// text and the switch that hides both.
	p.instruction = widget.NewLabel("")
	p.instruction.Wrapping = fyne.TextWrapWord
	p.scrubber = newKeySlider(0, 1, p)
	p.scrubber.OnChanged = func(v float64) {
		if !p.showing {
			p.showFrame(int(v))
		}
	}
	p.gtText = widget.NewLabel("")
	p.gtText.Wrapping = fyne.TextWrapWord
	p.hideGT = newKeyCheck("Hide (H)", p, func(bool) {
		if !p.showing {
			p.prefs.SetBool(prefHideGT, p.hideGT.Checked)
			p.showGroundTruth()
		}
	})
	p.input = newImagePanel("Input", nil, nil)
	p.output = newImagePanel("Output", p.scrubber, nil)
	p.gt = newImagePanel("Ground truth", p.hideGT, nil)
	images := container.New(rateImagesLayout{}, p.output.box, p.input.box, p.gt.box)
	p.strip = newFrameStrip(p.showFrame)
	p.frameBox = container.NewVBox(p.strip.scroll)
	left := container.NewBorder(p.instruction, container.NewVBox(p.frameBox, cappedHeight(p.gtText, 68)), nil, nil, images)

	// Right: the scores.
	p.trackTitle = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.trackTitle.Truncation = fyne.TextTruncateEllipsis
	p.hints = widget.NewLabel("")
	p.hints.Wrapping = fyne.TextWrapWord
	p.hints.SizeName = theme.SizeNameCaptionText
	p.prompt = widget.NewLabel("")
	p.prompt.Wrapping = fyne.TextWrapWord
	p.prompt.Importance = widget.WarningImportance
	p.prompt.Hide()
	rows := []fyne.CanvasObject{p.trackTitle, p.hints, p.prompt}
	for d := range p.dims {
		p.dims[d] = p.newDimRow(d)
		rows = append(rows, widget.NewSeparator(), p.dims[d].box)
	}
	p.flag = newKeyCheck("Flag this item (F)", p, func(on bool) {
		if !p.showing {
			p.setFlag(on)
		}
	})
	commentBtn := widget.NewButtonWithIcon("Comment… (C)", theme.DocumentCreateIcon(), p.askComment)
	p.commentLabel = widget.NewLabel("")
	p.commentLabel.Wrapping = fyne.TextWrapWord
	p.commentLabel.SizeName = theme.SizeNameCaptionText
	p.saveNext = widget.NewButtonWithIcon("Next unrated item (Enter)", theme.MailSendIcon(), p.enter)
	p.saveNext.Importance = widget.HighImportance
	rows = append(rows, widget.NewSeparator(), container.NewBorder(nil, nil, nil, commentBtn, p.flag), p.commentLabel,
		p.saveNext)
	right := container.NewVScroll(container.NewPadded(container.NewVBox(rows...)))

	split := container.NewHSplit(left, right)
	split.Offset = 0.62
	p.body = split
	p.empty = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	p.empty.Wrapping = fyne.TextWrapWord
	p.body.Hide()
	p.area = newRateArea(container.NewBorder(container.NewVBox(top, p.notice.box, p.failure.box), nil, nil, nil,
		container.NewStack(centredLine(p.empty), p.body)), p)
	p.area.onFocus = func(bool) {
		if p.s != nil {
			p.showScores()
		}
	}
	p.view = p.area
	p.compact = p.prefs.Bool(prefCompact)
	p.right = right
	p.showFilter()
	p.updateHeader()

	if last := p.prefs.String(prefLastSplit); last != "" && isSplitFolder(last) {
		p.open(last)
	} else {
		p.openDemo()
	}
	return p.view
}

func (p *RatePane) newDimRow(d int) *dimRow {
	r := &dimRow{
		key:    widget.NewLabelWithStyle(strconv.Itoa(d+1), fyne.TextAlignCenter, fyne.TextStyle{Bold: true}),
		title:  widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true}),
		state:  widget.NewLabel(""),
		rubric: widget.NewLabel(""),
	}
	r.key.Importance = widget.HighImportance
	r.title.Truncation = fyne.TextTruncateEllipsis
	r.state.SizeName = theme.SizeNameCaptionText
	r.state.TextStyle.Italic = true
	r.rubric.Wrapping = fyne.TextWrapWord
	r.rubric.SizeName = theme.SizeNameCaptionText
	r.yes = widget.NewButton("Yes", func() { p.active = d; p.setScore(d, 1) })
	r.no = widget.NewButton("No", func() { p.active = d; p.setScore(d, 0) })
	r.result = container.NewVBox(container.NewHBox(r.yes, r.no))
	r.field = newScoreField(func() { p.chooseDim(d, false); p.grab() })
	r.process = container.New(widthLayout{w: 76}, container.NewVBox(r.field))
	r.slider = newKeySlider(0, vigor.MaxProcessScore, p)
	r.slider.OnChanged = func(v float64) {
		if !p.showing {
			r.field.set(strconv.Itoa(int(v)), p.active == d, false)
		}
	}
	r.slider.OnChangeEnded = func(v float64) {
		if !p.showing {
			p.dropDraft()
			p.active = d
			p.setScore(d, int(v))
			p.grab()
		}
	}
	r.mark = canvas.NewRectangle(color.Transparent)
	r.mark.CornerRadius = theme.InputRadiusSize()
	r.box = container.NewStack(r.mark, container.NewVBox(
		container.NewBorder(nil, nil, r.key, container.NewStack(r.result, r.process), container.NewVBox(r.title, r.state)),
		r.slider, r.rubric))
	return r
}

// Navigation.

// step moves to the previous (-1) or next (+1) item that passes the filter.
func (p *RatePane) step(d int) {
	s := p.s
	if s == nil {
		return
	}
	if !p.commitDraft() {
		return
	}
	if pos, ok := s.Step(d); ok {
		p.goTo(pos)
		return
	}
	if d < 0 {
		p.status.Set("This is the first item" + p.filterWords() + ".")
	} else {
		p.status.Set("This is the last item" + p.filterWords() + ".")
	}
}

func (p *RatePane) filterWords() string {
	switch p.s.Filter() {
	case ratesession.Unrated:
		return " among the unrated ones"
	case ratesession.Flagged:
		return " among the flagged ones"
	}
	return ""
}

// setFilter limits the arrows and Enter to all, unrated or flagged items.
func (p *RatePane) setFilter(f ratesession.Filter) {
	if p.s == nil {
		return
	}
	pos, move, ok := p.s.SetFilter(f)
	p.showFilter()
	switch {
	case move:
		p.goTo(pos)
	case !ok:
		p.status.Set("No item is " + strings.ToLower(ratesession.FilterNames[f]) + "; showing the current one.")
	default:
		p.updateHeader()
	}
}

func (p *RatePane) showFilter() {
	f := ratesession.All
	if p.s != nil {
		f = p.s.Filter()
	}
	for i, b := range p.filterBtns {
		b.Importance = widget.LowImportance
		if ratesession.Filter(i) == f {
			b.Importance = widget.HighImportance
		}
		b.Refresh()
	}
}

// goTo shows the item at order position pos.
func (p *RatePane) goTo(pos int) {
	p.drafting, p.draft, p.refused = false, "", false
	p.s.GoTo(pos)
	first, _ := p.missing()
	p.active = max(first, 0)
	p.show()
	p.prefetch()
	p.prefetchFrames()
	p.grab()
}

// grab gives the rating area the keyboard, unless a dialog is up (it
// gives it back when it closes) or Rate is not shown.
func (p *RatePane) grab() {
	if p.area == nil || !p.area.Visible() || p.window == nil {
		return
	}
	c := p.window.Canvas()
	if c.Overlays().Top() != nil {
		return
	}
	if c.Focused() != p.area {
		c.Focus(p.area)
	}
}

// scrollToDim scrolls the scores so dimension d is in view.
func (p *RatePane) scrollToDim(d int) {
	box := p.dims[d].box
	y, h := box.Position().Y, box.Size().Height
	view := p.right.Size().Height
	off := p.right.Offset.Y
	switch {
	case y < off:
		off = y
	case y+h > off+view:
		off = y + h - view
	default:
		return
	}
	p.right.Offset.Y = max(off, 0)
	p.right.Refresh()
}

// setCompact hides or shows the rubric text (key R), remembered.
func (p *RatePane) setCompact(on bool) {
	p.compact = on
	p.prefs.SetBool(prefCompact, on)
	if p.s != nil {
		p.show()
	}
	if on {
		p.status.Set("Compact: rubric text hidden so all four dimensions fit; R shows it again.")
	} else {
		p.status.Set("Rubric text shown; R hides it (compact).")
	}
}

// show puts the current item on screen; its images come from the cache
// when they were prefetched.
func (p *RatePane) show() {
	s := p.s
	it := s.Item()
	p.showing = true
	defer func() { p.showing = false }()
	setText(p.instruction, it.Instruction)
	p.setImage(p.input, it.Input)
	if needsFrames(it) {
		p.showExtracting(it)
	} else if it.Track == vigor.TrackProcess {
		p.strip.reset(len(it.Frames))
		p.scrubber.Max = float64(max(1, len(it.Frames)-1))
		p.frameBox.Show()
		p.scrubber.Show()
		for k, f := range it.Frames {
			p.setThumb(k, f)
		}
		p.showFrameImage()
	} else {
		p.frameBox.Hide()
		p.scrubber.Hide()
		setText(p.output.caption, "Output")
		p.setImage(p.output, it.Output)
	}
	p.hideGT.SetChecked(p.prefs.Bool(prefHideGT))
	p.showGroundTruth()

	rubric := s.Split.Rubric(it)
	if it.Track == vigor.TrackResult {
		setText(p.trackTitle, "Result track: does the output meet each criterion?")
	} else {
		setText(p.trackTitle, "Process track: scores from 0 to 100")
	}
	setText(p.hints, keyHelp(it.Track, p.compact))
	for d, r := range p.dims {
		c := rubric[d]
		setText(r.title, c.Title+" ("+c.Short+")")
		setText(r.rubric, c.Text)
		if p.compact {
			r.rubric.Hide()
		} else {
			r.rubric.Show()
		}
		// Compact: a result row's buttons show its state by their colour.
		if p.compact && it.Track == vigor.TrackResult {
			r.state.Hide()
		} else {
			r.state.Show()
		}
		if it.Track == vigor.TrackResult {
			r.result.Show()
			r.process.Hide()
			r.slider.Hide()
		} else {
			r.result.Hide()
			r.process.Show()
			r.slider.Show()
			if p.compact {
				r.slider.Hide()
			}
		}
	}
	p.showScores()
	p.updateHeader()
	if p.right.Offset.Y != 0 { // each item starts at the top of its rubric
		p.right.ScrollToTop()
	}
	p.work.relayout(p.view)
}

// showScores shows the current item's scores, flag and comment.
func (p *RatePane) showScores() {
	s := p.s
	it := s.Item()
	r := s.Rating(it)
	was := p.showing
	p.showing = true
	defer func() { p.showing = was }()
	focused := p.area != nil && p.area.focused
	for d, row := range p.dims {
		v := r.Scores[d]
		chosen := d == p.active
		p.markRow(row, chosen, focused)
		// The number is key 1–4 on a result item; on a process item digits
		// type, so the row carries only the mark of the chosen one.
		key := strconv.Itoa(d + 1)
		if it.Track == vigor.TrackProcess {
			key = " "
			if chosen {
				key = "▸"
			}
		}
		setText(row.key, key)
		if it.Track == vigor.TrackResult {
			yes, no := widget.MediumImportance, widget.MediumImportance
			switch v {
			case 1:
				yes = widget.SuccessImportance
				setText(row.state, "yes")
			case 0:
				no = widget.DangerImportance
				setText(row.state, "no")
			default:
				setText(row.state, "not set")
			}
			setImportance(row.yes, yes)
			setImportance(row.no, no)
			continue
		}
		text := p.fieldText(d)
		if chosen && p.drafting {
			text = p.draft
		}
		row.field.set(text, chosen, chosen && p.refused)
		switch {
		case chosen && p.refused:
			setText(row.state, "key refused: 0–100 only")
		case chosen && p.drafting:
			setText(row.state, "typing — saved when you leave the score or press Enter")
		case v == vigor.NoScore:
			row.slider.SetValue(0)
			setText(row.state, "not scored yet")
		default:
			row.slider.SetValue(float64(v))
			setText(row.state, vigor.BucketLabels[vigor.Bucket(v)])
		}
	}
	p.flag.SetChecked(r.Flagged)
	if r.Comment == "" {
		setText(p.commentLabel, "No comment.")
	} else {
		setText(p.commentLabel, "Comment: "+r.Comment)
	}
	p.showSaveState()
}

// saveStates are the save-state line's text and look, by state.
var saveStates = map[ratesession.State]struct {
	text string
	imp  widget.Importance
}{
	ratesession.NotRated:    {"○ not rated yet", widget.MediumImportance},
	ratesession.NotSaved:    {"● NOT SAVED", widget.DangerImportance},
	ratesession.Saving:      {"● saving…", widget.WarningImportance},
	ratesession.Saved:       {"● saved", widget.SuccessImportance},
	ratesession.SavedPartly: {"● saved, partly scored", widget.SuccessImportance},
}

// showSaveState says whether what is on screen is stored.
func (p *RatePane) showSaveState() {
	st := saveStates[p.s.StateOf(p.s.Item().ID)]
	if p.saveState.Text != st.text || p.saveState.Importance != st.imp {
		p.saveState.Importance = st.imp
		p.saveState.SetText(st.text)
	}
}

// updateHeader refreshes the split, rater, position and tally lines.
func (p *RatePane) updateHeader() {
	s := p.s
	if p.position == nil {
		return
	}
	if s == nil {
		setText(p.splitLabel, "No split open")
		setText(p.raterLabel, "")
		setText(p.position, "")
		setText(p.tally, "")
		setText(p.pace, "")
		setText(p.saveState, "")
		p.prevBtn.Disable()
		p.nextBtn.Disable()
		return
	}
	name := s.Split.Name
	if s.Demo {
		name += " (demo, simulated)"
	}
	setText(p.splitLabel, "Split: "+name)
	setText(p.raterLabel, "Rater: "+s.Annotator)
	it := s.Item()
	where := it.Domain
	if it.Subdomain != "" {
		where += " › " + it.Subdomain
	}
	// The model is not shown: raters judge outputs, not their makers.
	flag := ""
	if s.Rating(it).Flagged {
		flag = " · ⚑ FLAGGED"
	}
	setText(p.position, fmt.Sprintf("Item %d of %d · %s · %s · %s%s", s.Pos()+1, s.Len(), it.ID, it.Track, where, flag))
	pr := s.Tally()
	var parts []string
	for _, tp := range []struct {
		name string
		tp   vigor.TrackProgress
	}{{"Process", pr.Process}, {"Result", pr.Result}} {
		if tp.tp.Total > 0 {
			parts = append(parts, fmt.Sprintf("%s %d/%d", tp.name, tp.tp.Rated, tp.tp.Total))
		}
	}
	text := strings.Join(parts, " · ") + " rated"
	if f := pr.Total().Flagged; f > 0 {
		text += fmt.Sprintf(" · %d flagged", f)
	}
	total := pr.Total()
	setText(p.pace, paceText(total.Rated-p.ratedAtOpen, p.now().Sub(p.opened), total.Total-total.Rated))
	setText(p.tally, text)
	p.prevBtn.Enable()
	p.nextBtn.Enable()
}

// tallyText is the rater's progress as shown (from the store's confirmed ratings).
func (p *RatePane) tallyText() string { return p.tally.Text }

// Images.

func (p *RatePane) setImage(panel *imagePanel, rel string) {
	if rel == "" {
		panel.clear("None given.")
		return
	}
	path := p.s.Path(rel)
	panel.want = path
	if img, ok := p.images.Peek(path); ok {
		panel.show(img)
		return
	}
	panel.zoom.SetImage(nil)
	panel.setNote("Loading…")
	p.work.Go(func() func() {
		img := p.images.Load(path)
		return func() {
			if panel.want == path {
				panel.show(img)
			}
		}
	})
}

func (p *RatePane) setThumb(k int, rel string) {
	path := p.s.Path(rel)
	if img, ok := p.images.Peek(path); ok {
		p.strip.set(k, img.thumb)
		return
	}
	s, pos := p.s, p.s.Pos()
	p.work.Go(func() func() {
		img := p.images.Load(path)
		return func() {
			if p.s == s && s.Pos() == pos {
				p.strip.set(k, img.thumb)
			}
		}
	})
}

// showFrame shows frame k of the current process item.
func (p *RatePane) showFrame(k int) {
	if p.s != nil && len(p.s.Item().Frames) > 0 && p.s.SetFrame(k) {
		p.showFrameImage()
	}
}

func (p *RatePane) showFrameImage() {
	s := p.s
	it := s.Item()
	n := len(it.Frames)
	was := p.showing
	p.showing = true
	p.scrubber.SetValue(float64(s.Frame()))
	p.showing = was
	setText(p.output.caption, fmt.Sprintf("Output: frame %d of %d", s.Frame()+1, n))
	p.strip.selectFrame(s.Frame())
	p.setImage(p.output, it.Frames[s.Frame()])
}

func (p *RatePane) showGroundTruth() {
	if p.s == nil {
		return
	}
	it := p.s.Item()
	if p.hideGT.Checked {
		p.gt.clear("Ground truth hidden (H shows it).")
		setText(p.gtText, "Ground truth hidden.")
		return
	}
	if it.GTImage == "" {
		p.gt.clear("No ground-truth image; see the text below.")
	} else {
		p.setImage(p.gt, it.GTImage)
	}
	if strings.TrimSpace(it.GTText) == "" {
		setText(p.gtText, "Ground truth: (image only)")
	} else {
		setText(p.gtText, "Ground truth: "+it.GTText)
	}
}

// prefetch decodes the images of the items the rater is likely to see next.
func (p *RatePane) prefetch() {
	s := p.s
	positions := s.Ahead(prefetchAhead)
	if pos, ok := s.NextUnrated(); ok {
		positions = append(positions, pos)
	}
	if s.Pos() > 0 {
		positions = append(positions, s.Pos()-1)
	}
	var paths []string
	for _, pos := range positions {
		for _, ip := range s.ItemAt(pos).Paths() {
			if ip.Field == "video" {
				continue // its frames are prefetched instead
			}
			if path := s.Path(ip.Path); !p.images.Has(path) {
				paths = append(paths, path)
			}
		}
	}
	if len(paths) == 0 {
		return
	}
	p.work.Go(func() func() {
		for _, path := range paths {
			p.images.Load(path)
		}
		return nil
	})
}

// setText changes a label only when its text changes: setting a label
// shapes its text again, which is most of the cost of showing an item.
func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

// markRow marks the chosen dimension: filled while the rating area has
// the keyboard, outlined when it does not.
func (p *RatePane) markRow(row *dimRow, chosen, focused bool) {
	fill, stroke := color.Color(color.Transparent), color.Color(color.Transparent)
	if chosen {
		c := theme.Color(theme.ColorNamePrimary)
		r, g, b, _ := c.RGBA()
		stroke = c
		if focused {
			fill = color.NRGBA{uint8(r >> 8), uint8(g >> 8), uint8(b >> 8), 48}
		}
	}
	if row.mark.FillColor != fill || row.mark.StrokeColor != stroke {
		row.mark.FillColor, row.mark.StrokeColor, row.mark.StrokeWidth = fill, stroke, 2
		row.mark.Refresh()
	}
}

func setImportance(b *widget.Button, i widget.Importance) {
	if b.Importance != i {
		b.Importance = i
		b.Refresh()
	}
}

// paceText is the rater's pace this session and the time left at that
// pace: "32 items/h · 120 left · about 3 h 45 min".
func paceText(done int, elapsed time.Duration, remaining int) string {
	left := fmt.Sprintf("%d left", remaining)
	if remaining == 0 {
		return "none left"
	}
	if done < 2 || elapsed < time.Minute {
		return left + " · pace after two items"
	}
	perHour := float64(done) / elapsed.Hours()
	eta := time.Duration(float64(remaining) / perHour * float64(time.Hour)).Round(time.Minute)
	h, m := int(eta.Hours()), int(eta.Minutes())%60
	when := fmt.Sprintf("%d min", m)
	if h > 0 {
		when = fmt.Sprintf("%d h %d min", h, m)
	}
	return fmt.Sprintf("%.0f items/h · %s · about %s", perHour, left, when)
}
