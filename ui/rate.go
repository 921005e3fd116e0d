package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigordemo"
)

// Preference keys of the Rate pane.
const (
	prefAnnotator = "rate.annotator"
	prefHideGT    = "rate.hide_ground_truth"
	prefLastSplit = "rate.last_split"
)

// demoAnnotator rates the demo split when nobody has given a name yet.
const demoAnnotator = "demo-rater"

// Prefetching: the images of this many items after the current one (in the
// filter's order), of the item Enter goes to and of the one before are
// decoded ahead; the cache holds at most imageCacheBytes of decoded pixels.
const (
	prefetchAhead   = 3
	imageCacheBytes = 256 << 20
)

// rateFilter limits which items the arrows and Enter visit.
type rateFilter int

const (
	filterAll rateFilter = iota
	filterUnrated
	filterFlagged
)

var filterNames = [...]string{"All", "Unrated", "Flagged"}

// RatePane is where a rater scores the items of a ViGoR split with the
// four-dimension rubric, from the keyboard. Every change is saved through
// the ratings store at once; the pane shows "saved" only after the store
// confirmed. The rater sees only their own ratings.
type RatePane struct {
	deps
	images *imageCache

	splitLabel, raterLabel *widget.Label
	position, progress     *widget.Label
	saveState              *widget.Label
	notice, failure        *banner
	filterBtns             [3]*widget.Button
	prevBtn, nextBtn       *widget.Button
	instruction            *widget.Label
	input, output, gt      *imagePanel
	strip                  *frameStrip
	scrubber               *keySlider
	frameBox               *fyne.Container
	gtText                 *widget.Label
	hideGT                 *keyCheck
	trackTitle             *widget.Label
	dims                   [vigor.NumDims]*dimRow
	flag                   *keyCheck
	commentLabel           *widget.Label
	saveNext               *widget.Button
	body                   fyne.CanvasObject
	right                  *container.Scroll
	hints                  *widget.Label
	empty                  *widget.Label
	view                   fyne.CanvasObject

	s       *rateSession
	request atomic.Uint64 // split loads; a newer one wins

	nameDialog    *dialog.ConfirmDialog
	nameEntry     *dialogEntry
	commentDialog *dialog.ConfirmDialog
	commentEntry  *dialogEntry
	errorShown    bool // a save failure dialog is up; later failures only update the banner
	showing       bool // show() is setting widgets: their callbacks are not edits
}

// dimRow is one dimension of the scoring panel.
type dimRow struct {
	key, title, state, rubric *widget.Label
	yes, no                   *widget.Button // result track
	entry                     *scoreEntry    // process track
	slider                    *keySlider
	result, process           *fyne.Container
}

// rateSession is one open split for one annotator.
type rateSession struct {
	sp        *vigor.Split
	dir       string
	demo      bool
	store     RatingStore
	annotator string
	order     []int // indices into sp.Items, the annotator's order
	pos       int   // position in order
	frame     int   // the frame shown of a process item
	filter    rateFilter

	stored  map[string]vigor.Rating // what the store confirmed
	pending map[string]vigor.Rating // changes not yet confirmed (on screen)
	edits   map[string]uint64       // change counter per item
	failed  map[string]error        // the last save of the item failed
	queue   []string                // items waiting to be saved, in order
	saving  string                  // the item being saved, "" none
}

// newRatePane makes the pane; it saves through d.ratings.
func newRatePane(d deps) *RatePane {
	return &RatePane{deps: d, images: newImageCache(imageCacheBytes)}
}

// Rate is the Rate pane.
func (m *MainWindow) Rate() *RatePane { return m.rate }

// Title implements Pane.
func (p *RatePane) Title() string { return "Rate" }

// Icon implements Pane.
func (p *RatePane) Icon() fyne.Resource { return theme.DocumentCreateIcon() }

// View implements Pane. It opens the split rated last, or the demo split.
func (p *RatePane) View() fyne.CanvasObject {
	if p.view != nil {
		return p.view
	}
	openBtn := widget.NewButtonWithIcon("Open split…", theme.FolderOpenIcon(), p.OpenDialog)
	p.splitLabel = widget.NewLabel("No split open")
	p.splitLabel.Truncation = fyne.TextTruncateEllipsis
	p.raterLabel = widget.NewLabelWithStyle("", fyne.TextAlignTrailing, fyne.TextStyle{})
	change := widget.NewButton("Change…", func() { p.askAnnotator(p.annotator(), p.reopen) })
	p.position = widget.NewLabelWithStyle("", fyne.TextAlignLeading, fyne.TextStyle{Bold: true})
	p.progress = widget.NewLabel("")
	p.saveState = widget.NewLabel("")
	p.prevBtn = widget.NewButtonWithIcon("", theme.NavigateBackIcon(), func() { p.step(-1) })
	p.nextBtn = widget.NewButtonWithIcon("", theme.NavigateNextIcon(), func() { p.step(1) })
	var filters []fyne.CanvasObject
	for i, name := range filterNames {
		b := widget.NewButton(name, func() { p.SetFilter(rateFilter(i)) })
		p.filterBtns[i] = b
		filters = append(filters, b)
	}
	p.position.Truncation = fyne.TextTruncateEllipsis
	top := container.NewVBox(
		container.NewBorder(nil, nil, openBtn, container.NewHBox(p.raterLabel, change), p.splitLabel),
		container.NewBorder(nil, nil, container.NewHBox(p.prevBtn, p.nextBtn, container.New(widthLayout{w: 190}, p.saveState)),
			container.NewHBox(p.progress, container.NewHBox(filters...)), p.position),
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
	rows := []fyne.CanvasObject{p.trackTitle}
	for d := range p.dims {
		p.dims[d] = p.newDimRow(d)
		r := p.dims[d]
		rows = append(rows, widget.NewSeparator(),
			container.NewBorder(nil, nil, r.key, container.NewStack(r.result, r.process), container.NewVBox(r.title, r.state)),
			r.slider, r.rubric)
	}
	p.flag = newKeyCheck("Flag this item (F)", p, func(on bool) {
		if !p.showing {
			p.setFlag(on)
		}
	})
	commentBtn := widget.NewButtonWithIcon("Comment… (C)", theme.DocumentCreateIcon(), p.CommentDialog)
	p.commentLabel = widget.NewLabel("")
	p.commentLabel.Wrapping = fyne.TextWrapWord
	p.commentLabel.SizeName = theme.SizeNameCaptionText
	p.saveNext = widget.NewButtonWithIcon("Save and next unrated (Enter)", theme.MailSendIcon(), p.Enter)
	p.saveNext.Importance = widget.HighImportance
	p.hints = widget.NewLabel("")
	p.hints.Wrapping = fyne.TextWrapWord
	p.hints.SizeName = theme.SizeNameCaptionText
	rows = append(rows, widget.NewSeparator(), container.NewBorder(nil, nil, nil, commentBtn, p.flag), p.commentLabel,
		p.saveNext, p.hints)
	right := container.NewVScroll(container.NewPadded(container.NewVBox(rows...)))

	split := container.NewHSplit(left, right)
	split.Offset = 0.62
	p.body = split
	p.empty = widget.NewLabelWithStyle("", fyne.TextAlignCenter, fyne.TextStyle{Italic: true})
	p.empty.Wrapping = fyne.TextWrapWord
	p.body.Hide()
	p.view = container.NewBorder(container.NewVBox(top, p.notice.box, p.failure.box), nil, nil, nil,
		container.NewStack(container.NewCenter(p.empty), p.body))
	p.right = right
	p.showFilter()
	p.updateHeader()

	if last := p.prefs.String(prefLastSplit); last != "" && isSplitFolder(last) {
		p.Open(last)
	} else {
		p.OpenDemo()
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
	r.yes = widget.NewButton("Yes", func() { p.setScore(d, 1) })
	r.no = widget.NewButton("No", func() { p.setScore(d, 0) })
	r.result = container.NewVBox(container.NewHBox(r.yes, r.no))
	r.entry = newScoreEntry(p)
	r.entry.commit = func() { p.commitEntry(d) }
	r.entry.adjust = func(delta int) { p.adjustScore(d, delta) }
	r.entry.tab = func(bool) { p.focusDim((d + 1) % vigor.NumDims) }
	r.entry.enter = p.Enter
	r.entry.escape = p.unfocus
	r.process = container.New(widthLayout{w: 76}, container.NewVBox(r.entry))
	r.slider = newKeySlider(0, 100, p)
	r.slider.adjust = func(delta int) { p.adjustScore(d, delta) }
	r.slider.OnChanged = func(v float64) {
		if !p.showing {
			r.entry.SetText(strconv.Itoa(int(v)))
		}
	}
	r.slider.OnChangeEnded = func(v float64) {
		if !p.showing {
			p.setScore(d, int(v))
		}
	}
	return r
}

// annotator is the remembered rater name.
func (p *RatePane) annotator() string {
	return p.prefs.String(prefAnnotator)
}

// isSplitFolder reports whether dir holds a split.json.
func isSplitFolder(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, vigor.SplitFile))
	return err == nil && fi.Mode().IsRegular()
}

// OpenDialog asks for a split folder and opens it.
func (p *RatePane) OpenDialog() {
	p.files.OpenFolder("Open a ViGoR split (a folder with split.json)", func(dir string, err error) {
		if err != nil {
			p.showError(err)
			return
		}
		if dir != "" {
			p.Open(dir)
		}
	})
}

// Open opens the split in dir for rating, asking for the rater's name the
// first time, and resumes at the rater's first unrated item.
func (p *RatePane) Open(dir string) {
	if !isSplitFolder(dir) {
		p.showError(fmt.Errorf("%s is not a ViGoR split: it has no %s; choose the folder that holds it", dir, vigor.SplitFile))
		return
	}
	name := p.annotator()
	if name == "" {
		p.askAnnotator("", func() { p.Open(dir) })
		return
	}
	p.load(dir, false, name)
}

// OpenDemo opens the demo split; its ratings are kept in memory only.
func (p *RatePane) OpenDemo() {
	id := p.request.Add(1)
	p.status.Set("Preparing the demo split (the first time takes a few seconds)…")
	setText(p.empty, "Preparing the demo split…")
	p.work.Go(func() func() {
		set, err := vigordemo.Cached()
		return func() {
			if p.request.Load() != id {
				return
			}
			if err != nil {
				setText(p.empty, "Open a split to start rating (File ▸ Open split…).")
				p.showError(err)
				return
			}
			name := p.annotator()
			if name == "" {
				name = demoAnnotator
			}
			p.load(set.Dir, true, name)
		}
	})
}

// reopen opens the current split again (after the rater's name changed).
func (p *RatePane) reopen() {
	if p.s == nil {
		return
	}
	if len(p.s.pending) > 0 {
		p.showError(errors.New("some scores are not saved yet; wait until the status says saved, then change the rater"))
		return
	}
	if p.s.demo {
		p.load(p.s.dir, true, p.annotator())
		return
	}
	p.load(p.s.dir, false, p.annotator())
}

// load reads the split and the rater's ratings off the UI goroutine.
func (p *RatePane) load(dir string, demo bool, annotator string) {
	id := p.request.Add(1)
	if !demo {
		p.status.Set("Opening split " + dir + "…")
	}
	p.work.Go(func() func() {
		sp, err := vigor.Load(dir)
		var store RatingStore
		if err == nil {
			store, err = p.ratings.store(demo)
		}
		var rated map[string]vigor.Rating
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			rated, err = store.Ratings(ctx, sp, annotator)
			cancel()
		}
		return func() {
			if p.request.Load() != id {
				return
			}
			if err != nil {
				p.showError(err)
				return
			}
			s := &rateSession{sp: sp, dir: dir, demo: demo, store: store, annotator: annotator,
				order: sp.Order(annotator), stored: rated, pending: map[string]vigor.Rating{},
				edits: map[string]uint64{}, failed: map[string]error{}}
			if !demo {
				prefs := p.prefs
				prefs.SetString(prefLastSplit, dir)
				prefs.SetString(prefLastDir, filepath.Dir(dir))
				p.recent(dir)
			}
			p.start(s)
		}
	})
}

// start shows a freshly opened session at the first unrated item.
func (p *RatePane) start(s *rateSession) {
	if p.s != nil && p.s.sp.Name != s.sp.Name {
		p.images.Forget()
	}
	p.s = s
	p.failure.hide()
	p.errorShown = false
	pos, ok := vigor.NextUnrated(s.sp, s.stored, s.order, -1)
	if s.demo {
		p.notice.show("Demo split: scores given here are kept in memory only, until jigbench closes. "+
			"To rate for real, open your split.", false, "Open split…", p.OpenDialog)
	} else {
		p.notice.hide()
	}
	setText(p.empty, "")
	p.body.Show()
	p.updateHeader()
	p.goTo(pos)
	total := len(s.sp.Items)
	switch {
	case !ok:
		p.status.Set(fmt.Sprintf("All %d items of %s are rated by %s; ← → to review them.", total, s.sp.Name, s.annotator))
	case len(s.stored) > 0:
		p.status.Set(fmt.Sprintf("Resumed %s at your first unrated item (%d of %d).", s.sp.Name, pos+1, total))
	default:
		p.status.Set(fmt.Sprintf("Opened %s: %d items, shown in your own order.", s.sp.Name, total))
	}
}

// Session state helpers.

func (s *rateSession) item() *vigor.Item { return &s.sp.Items[s.order[s.pos]] }

func (s *rateSession) path(rel string) string {
	return filepath.Join(s.dir, filepath.FromSlash(rel))
}

// rating is what the screen shows for it: the unsaved change if any, else
// what the store holds, else nothing scored.
func (s *rateSession) rating(it *vigor.Item) vigor.Rating {
	if r, ok := s.pending[it.ID]; ok {
		return r
	}
	if r, ok := s.stored[it.ID]; ok {
		return r
	}
	return vigor.Rating{Split: s.sp.Name, Item: it.ID, Annotator: s.annotator, Scores: vigor.Unscored()}
}

// rated reports whether the item's scores are complete on screen.
func (s *rateSession) rated(i int) bool {
	return s.rating(&s.sp.Items[i]).Scores.Complete()
}

// allRated reports whether the store holds complete scores for every item.
func (s *rateSession) allRated() bool {
	for i := range s.sp.Items {
		if r, ok := s.stored[s.sp.Items[i].ID]; !ok || !r.Scores.Complete() {
			return false
		}
	}
	return true
}

// matches reports whether the item at order position pos passes the filter.
func (s *rateSession) matches(pos int) bool {
	i := s.order[pos]
	switch s.filter {
	case filterUnrated:
		return !s.rated(i)
	case filterFlagged:
		return s.rating(&s.sp.Items[i]).Flagged
	}
	return true
}

// Navigation.

// step moves to the previous (-1) or next (+1) item that passes the filter.
func (p *RatePane) step(d int) {
	s := p.s
	if s == nil {
		return
	}
	for pos := s.pos + d; pos >= 0 && pos < len(s.order); pos += d {
		if s.matches(pos) {
			p.goTo(pos)
			return
		}
	}
	if d < 0 {
		p.status.Set("This is the first item" + p.filterWords() + ".")
	} else {
		p.status.Set("This is the last item" + p.filterWords() + ".")
	}
}

func (p *RatePane) filterWords() string {
	switch p.s.filter {
	case filterUnrated:
		return " among the unrated ones"
	case filterFlagged:
		return " among the flagged ones"
	}
	return ""
}

// Next and Previous move between items.
func (p *RatePane) Next() { p.step(1) }

// Previous moves to the previous item.
func (p *RatePane) Previous() { p.step(-1) }

// nextUnrated finds, after the current position and wrapping around, the
// first unrated item that passes the filter.
func (p *RatePane) nextUnrated() (int, bool) {
	s := p.s
	n := len(s.order)
	for k := 1; k < n; k++ {
		pos := (s.pos + k) % n
		if !s.rated(s.order[pos]) && (s.filter != filterFlagged || s.matches(pos)) {
			return pos, true
		}
	}
	return 0, false
}

// SetFilter limits the arrows and Enter to all, unrated or flagged items.
func (p *RatePane) SetFilter(f rateFilter) {
	if p.s == nil {
		return
	}
	p.s.filter = f
	p.showFilter()
	if !p.s.matches(p.s.pos) {
		n := len(p.s.order)
		for k := 1; k < n; k++ {
			if pos := (p.s.pos + k) % n; p.s.matches(pos) {
				p.goTo(pos)
				return
			}
		}
		p.status.Set("No item is " + strings.ToLower(filterNames[f]) + "; showing the current one.")
		return
	}
	p.updateHeader()
}

func (p *RatePane) showFilter() {
	f := filterAll
	if p.s != nil {
		f = p.s.filter
	}
	for i, b := range p.filterBtns {
		b.Importance = widget.LowImportance
		if rateFilter(i) == f {
			b.Importance = widget.HighImportance
		}
		b.Refresh()
	}
}

// goTo shows the item at order position pos.
func (p *RatePane) goTo(pos int) {
	s := p.s
	p.unfocus()
	s.pos, s.frame = pos, 0
	p.show()
	p.prefetch()
}

// show puts the current item on screen; its images come from the cache
// when they were prefetched.
func (p *RatePane) show() {
	s := p.s
	it := s.item()
	p.showing = true
	defer func() { p.showing = false }()
	setText(p.instruction, it.Instruction)
	p.setImage(p.input, it.Input)
	if it.Track == vigor.TrackProcess {
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

	rubric := s.sp.Rubric(it)
	if it.Track == vigor.TrackResult {
		setText(p.trackTitle, "Result track: does the output meet each criterion?")
		setText(p.hints, "Keys: 1–4 switch a criterion Yes/No (unset counts as No) · Enter saves and goes to the next unrated item · "+
			"← → previous/next item · F flag · C comment · H hide the ground truth.")
	} else {
		setText(p.trackTitle, "Process track: scores from 0 to 100")
		setText(p.hints, "Keys: 1–4 go to a score; type it, ↑↓ ±1, PgUp/PgDn ±10, Tab next score, Esc leave · "+
			"Enter saves and goes to the next unrated item · , . previous/next frame (PgUp/PgDn ±10 outside a score) · "+
			"← → items · F flag · C comment · H hide the ground truth.")
	}
	for d, r := range p.dims {
		c := rubric[d]
		setText(r.title, c.Title+" ("+c.Short+")")
		setText(r.rubric, c.Text)
		if it.Track == vigor.TrackResult {
			r.result.Show()
			r.process.Hide()
			r.slider.Hide()
		} else {
			r.result.Hide()
			r.process.Show()
			r.slider.Show()
		}
	}
	p.showScores()
	p.updateHeader()
	p.work.relayout(p.view)
}

// showScores shows the current item's scores, flag and comment.
func (p *RatePane) showScores() {
	s := p.s
	it := s.item()
	r := s.rating(it)
	was := p.showing
	p.showing = true
	defer func() { p.showing = was }()
	for d, row := range p.dims {
		v := r.Scores[d]
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
				setText(row.state, "not set — Enter counts it as No")
			}
			setImportance(row.yes, yes)
			setImportance(row.no, no)
			continue
		}
		if v == vigor.NoScore {
			setEntry(row.entry, "")
			row.slider.SetValue(0)
			setText(row.state, "not scored yet")
		} else {
			setEntry(row.entry, strconv.Itoa(v))
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

// showSaveState says whether what is on screen is stored.
func (p *RatePane) showSaveState() {
	s := p.s
	it := s.item()
	_, unsaved := s.pending[it.ID]
	stored, inStore := s.stored[it.ID]
	text, imp := "○ not rated yet", widget.MediumImportance
	switch {
	case s.failed[it.ID] != nil:
		text, imp = "● NOT SAVED", widget.DangerImportance
	case unsaved:
		text, imp = "● saving…", widget.WarningImportance
	case inStore && stored.Scores.Complete():
		text, imp = "● saved", widget.SuccessImportance
	case inStore:
		text, imp = "● saved, partly scored", widget.SuccessImportance
	}
	if p.saveState.Text != text || p.saveState.Importance != imp {
		p.saveState.Importance = imp
		p.saveState.SetText(text)
	}
}

// updateHeader refreshes the split, rater, position and progress lines.
func (p *RatePane) updateHeader() {
	s := p.s
	if p.position == nil {
		return
	}
	if s == nil {
		setText(p.splitLabel, "No split open")
		setText(p.raterLabel, "")
		setText(p.position, "")
		setText(p.progress, "")
		setText(p.saveState, "")
		p.prevBtn.Disable()
		p.nextBtn.Disable()
		return
	}
	name := s.sp.Name
	if s.demo {
		name += " (demo, simulated)"
	}
	setText(p.splitLabel, "Split: "+name)
	setText(p.raterLabel, "Rater: "+s.annotator)
	it := s.item()
	where := it.Domain
	if it.Subdomain != "" {
		where += " › " + it.Subdomain
	}
	// The model is not shown: raters judge outputs, not their makers.
	setText(p.position, fmt.Sprintf("Item %d of %d · %s · %s · %s", s.pos+1, len(s.order), it.ID, it.Track, where))
	stored := make([]vigor.Rating, 0, len(s.stored))
	for _, r := range s.stored {
		stored = append(stored, r)
	}
	pr := vigor.ProgressOf(s.sp, stored)
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
	setText(p.progress, text)
	p.prevBtn.Enable()
	p.nextBtn.Enable()
}

// Progress is the rater's progress as shown (from the store's confirmed ratings).
func (p *RatePane) Progress() string { return p.progress.Text }

// Images.

func (p *RatePane) setImage(panel *imagePanel, rel string) {
	if rel == "" {
		panel.clear("None given.")
		return
	}
	path := p.s.path(rel)
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
	path := p.s.path(rel)
	if img, ok := p.images.Peek(path); ok {
		p.strip.set(k, img.thumb)
		return
	}
	s, pos := p.s, p.s.pos
	p.work.Go(func() func() {
		img := p.images.Load(path)
		return func() {
			if p.s == s && s.pos == pos {
				p.strip.set(k, img.thumb)
			}
		}
	})
}

// showFrame shows frame k of the current process item.
func (p *RatePane) showFrame(k int) {
	s := p.s
	if s == nil || s.item().Track != vigor.TrackProcess {
		return
	}
	n := len(s.item().Frames)
	k = min(max(k, 0), n-1)
	if k == s.frame {
		return
	}
	s.frame = k
	p.showFrameImage()
}

func (p *RatePane) showFrameImage() {
	s := p.s
	it := s.item()
	n := len(it.Frames)
	was := p.showing
	p.showing = true
	p.scrubber.SetValue(float64(s.frame))
	p.showing = was
	setText(p.output.caption, fmt.Sprintf("Output: frame %d of %d", s.frame+1, n))
	p.strip.selectFrame(s.frame)
	p.setImage(p.output, it.Frames[s.frame])
}

func (p *RatePane) showGroundTruth() {
	if p.s == nil {
		return
	}
	it := p.s.item()
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
	var items []int
	for pos, k := s.pos+1, 0; pos < len(s.order) && k < prefetchAhead; pos++ {
		if s.matches(pos) {
			items = append(items, s.order[pos])
			k++
		}
	}
	if pos, ok := p.nextUnrated(); ok {
		items = append(items, s.order[pos])
	}
	if s.pos > 0 {
		items = append(items, s.order[s.pos-1])
	}
	var paths []string
	for _, i := range items {
		for _, ip := range s.sp.Items[i].Paths() {
			if path := s.path(ip.Path); !p.images.Has(path) {
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

// Keys.

// TypedRune handles the pane's single-key commands.
func (p *RatePane) TypedRune(r rune) {
	if p.s == nil {
		return
	}
	switch r {
	case '1', '2', '3', '4':
		p.dimKey(int(r - '1'))
	case 'f', 'F':
		p.setFlag(!p.s.rating(p.s.item()).Flagged)
	case 'c', 'C':
		p.CommentDialog()
	case 'h', 'H':
		p.hideGT.SetChecked(!p.hideGT.Checked)
	case ',':
		p.showFrame(p.s.frame - 1)
	case '.':
		p.showFrame(p.s.frame + 1)
	}
}

// TypedKey handles Enter, the arrows and the frame keys.
func (p *RatePane) TypedKey(e *fyne.KeyEvent) {
	if p.s == nil {
		return
	}
	switch e.Name {
	case fyne.KeyReturn, fyne.KeyEnter:
		p.Enter()
	case fyne.KeyLeft:
		p.step(-1)
	case fyne.KeyRight:
		p.step(1)
	case fyne.KeyPageUp:
		p.showFrame(p.s.frame - 10)
	case fyne.KeyPageDown:
		p.showFrame(p.s.frame + 10)
	case fyne.KeyHome:
		p.showFrame(0)
	case fyne.KeyEnd:
		p.showFrame(len(p.s.item().Frames) - 1)
	case fyne.KeyEscape:
		p.unfocus()
	}
}

// dimKey is key 1–4: toggle a result dimension, or go to a process score.
func (p *RatePane) dimKey(d int) {
	it := p.s.item()
	if it.Track == vigor.TrackProcess {
		p.focusDim(d)
		return
	}
	if p.s.rating(it).Scores[d] == 1 {
		p.setScore(d, 0)
	} else {
		p.setScore(d, 1)
	}
}

// focusDim puts the keyboard in process dimension d's number field, its
// text selected so typing replaces it.
func (p *RatePane) focusDim(d int) {
	if p.s.item().Track != vigor.TrackProcess {
		return
	}
	e := p.dims[d].entry
	p.focus(e)
	e.TypedShortcut(&fyne.ShortcutSelectAll{})
}

// Editing and saving.

// setScore sets dimension d of the current item and saves it.
func (p *RatePane) setScore(d, v int) {
	if p.s == nil {
		return
	}
	p.edit(func(r *vigor.Rating) { r.Scores[d] = v })
}

// adjustScore moves a process score by delta (from 0 when unscored).
func (p *RatePane) adjustScore(d, delta int) {
	v := p.s.rating(p.s.item()).Scores[d]
	if v == vigor.NoScore {
		v = 0
		if delta < 0 {
			delta = 0
		}
	}
	p.setScore(d, min(max(v+delta, 0), 100))
	if e := p.dims[d].entry; p.focused(e) {
		e.TypedShortcut(&fyne.ShortcutSelectAll{})
	}
}

// commitEntry saves what was typed into dimension d's field.
func (p *RatePane) commitEntry(d int) {
	if p.s == nil || p.showing || p.s.item().Track != vigor.TrackProcess {
		return
	}
	e := p.dims[d].entry
	cur := p.s.rating(p.s.item()).Scores[d]
	v, ok := e.value()
	switch {
	case !ok && strings.TrimSpace(e.Text) == "":
		if cur != vigor.NoScore {
			p.showScores() // an emptied field keeps the score
		}
	case !ok:
		p.status.Set(fmt.Sprintf("%q is not a score; type a whole number from 0 to 100.", e.Text))
		p.showScores()
	case v != cur:
		p.setScore(d, v)
	case e.Text != strconv.Itoa(v):
		p.showScores() // "075" or "150": show what is kept
	}
}

func (p *RatePane) setFlag(on bool) {
	if p.s == nil || p.s.rating(p.s.item()).Flagged == on {
		return
	}
	p.edit(func(r *vigor.Rating) { r.Flagged = on })
}

// edit changes the current item's rating on screen and queues it for saving.
func (p *RatePane) edit(change func(r *vigor.Rating)) {
	s := p.s
	it := s.item()
	r := s.rating(it)
	change(&r)
	s.pending[it.ID] = r
	s.edits[it.ID]++
	p.enqueue(s, it.ID)
	p.showScores()
	p.updateHeader()
	p.status.Set("Saving " + it.ID + "…")
	p.kick(s)
}

func (p *RatePane) enqueue(s *rateSession, id string) {
	for _, q := range s.queue {
		if q == id {
			return
		}
	}
	s.queue = append(s.queue, id)
}

// kick starts the next save, one at a time so the store sees the changes of
// an item in the order they were made.
func (p *RatePane) kick(s *rateSession) {
	if s.saving != "" {
		return
	}
	for len(s.queue) > 0 {
		id := s.queue[0]
		s.queue = s.queue[1:]
		r, ok := s.pending[id]
		if !ok {
			continue
		}
		ver := s.edits[id]
		s.saving = id
		p.work.Go(func() func() {
			err := s.sp.CheckRating(r)
			var saved vigor.Rating
			if err == nil {
				ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
				saved, err = s.store.Save(ctx, r)
				cancel()
			}
			return func() { p.saved(s, id, ver, saved, err) }
		})
		return
	}
}

// saved applies the store's answer.
func (p *RatePane) saved(s *rateSession, id string, ver uint64, r vigor.Rating, err error) {
	s.saving = ""
	current := p.s == s && s.item().ID == id
	if err != nil {
		s.failed[id] = err
		p.saveFailed(s, id, err)
	} else {
		delete(s.failed, id)
		s.stored[id] = r
		if s.edits[id] == ver {
			delete(s.pending, id)
		} else {
			p.enqueue(s, id) // changed again while saving
		}
		if p.s == s {
			if len(s.failed) == 0 && p.failure.Visible() {
				p.failure.hide()
				p.errorShown = false
				p.work.relayout(p.view)
			}
			p.updateHeader()
			if current {
				p.showSaveState()
			}
			if _, more := s.pending[id]; !more {
				msg := "Saved " + id + ": " + scoreSummary(s.sp, r) + "."
				if len(s.pending) == 0 && s.allRated() {
					msg += " Every item is rated — thank you!"
				}
				p.status.Set(msg)
			}
		}
	}
	p.kick(s)
}

// saveFailed shows the failure and brings the unsaved item back on screen.
func (p *RatePane) saveFailed(s *rateSession, id string, err error) {
	msg := fmt.Errorf("%s was not saved: %w. Your scores are still on screen but not stored; "+
		"fix the problem (disk full? ratings database locked?), then press Enter to save again", id, err)
	if p.s != s {
		p.showError(msg)
		return
	}
	if s.item().ID != id {
		for pos, i := range s.order {
			if s.sp.Items[i].ID == id {
				s.filter = filterAll
				p.showFilter()
				p.goTo(pos)
				break
			}
		}
	}
	p.failure.show("NOT SAVED — "+msg.Error()+".", true, "Try again", p.retry)
	p.showSaveState()
	p.work.relayout(p.view)
	if !p.errorShown {
		p.errorShown = true
		p.showError(msg)
	} else {
		p.status.Set(msg.Error())
	}
}

// retry saves every item whose last save failed.
func (p *RatePane) retry() {
	s := p.s
	if s == nil {
		return
	}
	for id := range s.failed {
		if _, ok := s.pending[id]; ok {
			s.edits[id]++
			p.enqueue(s, id)
		}
	}
	p.status.Set("Trying to save again…")
	p.kick(s)
}

// Enter saves the current item (unset result dimensions count as No) and
// goes to the next unrated item. A process item with a dimension not yet
// scored stays, with that dimension's field ready for typing.
func (p *RatePane) Enter() {
	s := p.s
	if s == nil {
		return
	}
	it := s.item()
	r := s.rating(it)
	if it.Track == vigor.TrackResult && !r.Scores.Complete() {
		p.edit(func(r *vigor.Rating) {
			for d, v := range r.Scores {
				if v == vigor.NoScore {
					r.Scores[d] = 0
				}
			}
		})
	}
	if it.Track == vigor.TrackProcess && !r.Scores.Complete() {
		for d, v := range r.Scores {
			if v == vigor.NoScore {
				c := s.sp.Rubric(it)[d]
				p.status.Set(fmt.Sprintf("Score %s (0–100) before moving on; ← → skip the item.", c.Title))
				p.focusDim(d)
				return
			}
		}
	}
	if s.failed[it.ID] != nil {
		p.retry()
		return
	}
	pos, ok := p.nextUnrated()
	if !ok {
		p.unfocus()
		p.status.Set(fmt.Sprintf("Every item is rated — thank you! (%d items; the status says saved once the store has them all.)", len(s.order)))
		if s.filter == filterFlagged {
			p.status.Set("No other unrated flagged item.")
		}
		return
	}
	p.goTo(pos)
}

// scoreSummary reads a rating out, "BC 1 · RO 0 · VQ 1 · RS 0".
func scoreSummary(sp *vigor.Split, r vigor.Rating) string {
	it, ok := sp.Item(r.Item)
	if !ok {
		return ""
	}
	var parts []string
	for _, d := range vigor.Dims {
		v := "–"
		if r.Scores[d] != vigor.NoScore {
			v = strconv.Itoa(r.Scores[d])
		}
		parts = append(parts, d.Short(it.Track)+" "+v)
	}
	s := strings.Join(parts, " · ")
	if r.Flagged {
		s += " · flagged"
	}
	return s
}

// Dialogs.

// askAnnotator asks for the rater's name (remembered), then runs then.
func (p *RatePane) askAnnotator(current string, then func()) {
	e := newDialogEntry()
	e.SetText(current)
	e.PlaceHolder = "your name or initials"
	p.nameEntry = e
	hint := widget.NewLabel("Your ratings are stored under this name. It is remembered on this computer;\n" +
		"use the same name on every session so the app can resume where you stopped.")
	var d *dialog.ConfirmDialog
	d = dialog.NewCustomConfirm("Who is rating?", "Start rating", "Cancel", container.NewVBox(hint, e), func(ok bool) {
		p.nameDialog = nil
		if !ok {
			return
		}
		name := strings.TrimSpace(e.Text)
		if name == "" || strings.ContainsFunc(name, func(r rune) bool { return r < ' ' }) {
			p.showError(errors.New("the rater's name must not be empty; type your name or initials"))
			return
		}
		p.prefs.SetString(prefAnnotator, name)
		if p.raterLabel != nil && p.s != nil {
			setText(p.raterLabel, "Rater: "+name)
		}
		then()
	}, p.window)
	e.OnSubmitted = func(string) { d.Confirm() }
	e.onEscape = d.Hide
	p.nameDialog = d
	d.Show()
	p.focus(e)
}

// CommentDialog asks for a comment on the current item and saves it.
func (p *RatePane) CommentDialog() {
	s := p.s
	if s == nil {
		return
	}
	it := s.item()
	e := newDialogEntry()
	e.SetText(s.rating(it).Comment)
	e.PlaceHolder = "what is unclear or worth a second look"
	p.commentEntry = e
	var d *dialog.ConfirmDialog
	d = dialog.NewCustomConfirm("Comment on "+it.ID, "Save comment", "Cancel",
		container.New(widthLayout{w: 460}, container.NewVBox(widget.NewLabel("Enter saves, Esc cancels."), e)), func(ok bool) {
			p.commentDialog = nil
			if !ok || p.s != s || s.item().ID != it.ID {
				return
			}
			text := strings.TrimSpace(e.Text)
			if text != s.rating(it).Comment {
				p.edit(func(r *vigor.Rating) { r.Comment = text })
			}
		}, p.window)
	e.OnSubmitted = func(string) { d.Confirm() }
	e.onEscape = d.Hide
	p.commentDialog = d
	d.Show()
	p.focus(e)
}

// Split returns the open split (nil before one is open) and the rater.
func (p *RatePane) Split() (*vigor.Split, string) {
	if p.s == nil {
		return nil, ""
	}
	return p.s.sp, p.s.annotator
}

// Current is the item on screen, or nil.
func (p *RatePane) Current() *vigor.Item {
	if p.s == nil {
		return nil
	}
	return p.s.item()
}

// Shown is the rating on screen for the current item (saved or not).
func (p *RatePane) Shown() vigor.Rating {
	return p.s.rating(p.s.item())
}

// splitFolderOf says whether path (a folder, or a file when isDir is false)
// is a ViGoR split: a folder holding split.json, or split.json itself.
func splitFolderOf(path string, isDir bool) (string, bool) {
	if isDir {
		return path, isSplitFolder(path)
	}
	if filepath.Base(path) == vigor.SplitFile {
		return filepath.Dir(path), true
	}
	return "", false
}

// tourViews adds a result item, partly scored, to `jigbench
// screenshot` (the pane opens on the demo's first item for the rater).
func (p *RatePane) tourViews() []tourView {
	return []tourView{{Name: "result", Show: func() {
		s := p.s
		if s == nil {
			return
		}
		for pos, i := range s.order {
			if s.sp.Items[i].Track == vigor.TrackResult {
				p.goTo(pos)
				p.setScore(0, 1)
				p.setScore(1, 0)
				p.setScore(2, 1)
				return
			}
		}
	}}}
}

// setText changes a label only when its text changes: setting a label
// shapes its text again, which is most of the cost of showing an item.
func setText(l *widget.Label, s string) {
	if l.Text != s {
		l.SetText(s)
	}
}

func setEntry(e *scoreEntry, s string) {
	if e.Text != s {
		e.SetText(s)
	}
}

func setImportance(b *widget.Button, i widget.Importance) {
	if b.Importance != i {
		b.Importance = i
		b.Refresh()
	}
}
