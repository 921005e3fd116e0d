package ui

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"time"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/canvas"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/dialog"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// The Rate pane is split by concern: this file opens splits; the session
// (package ratesession) remembers position, filter and the save queue;
// rate_view.go shows an item, rate_save.go edits and saves it,
// rate_keys.go maps the keyboard, rate_dialogs.go asks for names and
// comments.

// Preference keys of the Rate pane.
const (
	prefAnnotator = "rate.annotator"
	prefHideGT    = "rate.hide_ground_truth"
	prefLastSplit = "rate.last_split"
	prefCompact   = "rate.compact"
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

// RatePane is where a rater scores the items of a ViGoR split with the
// four-dimension rubric, from the keyboard. Every change is saved through
// the ratings store at once; the pane shows "saved" only after the store
// confirmed. The rater sees only their own ratings.
type RatePane struct {
	deps
	images *imageCache

	splitLabel, raterLabel *widget.Label
	position, tally, pace  *widget.Label
	saveState              *widget.Label
	notice, failure        *banner
	filterBtns             [len(ratesession.FilterNames)]*widget.Button
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
	prompt                 *widget.Label // why a key was refused, what to do next
	empty                  *widget.Label
	area                   *rateArea // holds the keyboard while Rate is shown
	view                   fyne.CanvasObject

	// The chosen dimension and what is being typed into it (process).
	active   int
	draft    string
	drafting bool // draft replaces the field's text
	refused  bool // the last key was refused; nothing is saved until fixed
	compact  bool // rubric text hidden, so all four dimensions fit
	undo     []undoStep

	// Pace: when the split was opened and how many items were rated then.
	opened      time.Time
	ratedAtOpen int
	now         func() time.Time

	s       *ratesession.Session
	request atomic.Uint64 // split loads; a newer one wins

	nameDialog    *dialog.ConfirmDialog
	nameEntry     *dialogEntry
	commentDialog *dialog.ConfirmDialog
	commentEntry  *dialogEntry
	errorShown    bool                 // a save failure dialog is up; later failures only update the banner
	showing       bool                 // show() is setting widgets: their callbacks are not edits
	extracting    map[*vigor.Item]bool // video items whose frames a worker is taking
	// frameErrs holds why taking a video item's frames failed: shown again
	// on return without running ffmpeg again, until the split is reopened.
	frameErrs map[*vigor.Item]error
}

// dimRow is one dimension of the scoring panel.
type dimRow struct {
	key, title, state, rubric *widget.Label
	yes, no                   *widget.Button // result track
	field                     *scoreField    // process track
	slider                    *keySlider
	result, process           *fyne.Container
	mark                      *canvas.Rectangle // behind the row: the chosen dimension
	box                       fyne.CanvasObject // the whole row, for scrolling to it
}

// newRatePane makes the pane; it saves through d.ratings.
func newRatePane(d deps) *RatePane {
	return &RatePane{deps: d, images: newImageCache(imageCacheBytes), now: time.Now}
}

// Title implements Pane.
func (p *RatePane) Title() string { return "Rate" }

// Icon implements Pane.
func (p *RatePane) Icon() fyne.Resource { return theme.DocumentCreateIcon() }

// annotator is the remembered rater name.
func (p *RatePane) annotator() string { return p.prefs.String(prefAnnotator) }

// isSplitFolder reports whether dir holds a split.json.
func isSplitFolder(dir string) bool {
	fi, err := os.Stat(filepath.Join(dir, vigor.SplitFile))
	return err == nil && fi.Mode().IsRegular()
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

// openDialog asks for a split folder and opens it.
func (p *RatePane) openDialog() {
	p.openFolder("Open a ViGoR split (a folder with split.json)", p.open)
}

// open opens the split in dir for rating, asking for the rater's name the
// first time, and resumes at the rater's first unrated item.
func (p *RatePane) open(dir string) {
	if !isSplitFolder(dir) {
		p.showError(fmt.Errorf("%s is not a ViGoR split: it has no %s; choose the folder that holds it", dir, vigor.SplitFile))
		return
	}
	name := p.annotator()
	if name == "" {
		p.askAnnotator("", func() { p.open(dir) })
		return
	}
	p.load(dir, false, name)
}

// openDemo opens the demo split; its ratings are kept in memory only.
func (p *RatePane) openDemo() {
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
	if p.s.Unsaved() {
		p.showError(errors.New("some scores are not saved yet; wait until the status says saved, then change the rater"))
		return
	}
	p.load(p.s.Dir, p.s.Demo, p.annotator())
}

// load reads the split and the rater's ratings off the UI goroutine.
func (p *RatePane) load(dir string, demo bool, annotator string) {
	id := p.request.Add(1)
	if !demo {
		p.status.Set("Opening split " + dir + "…")
	}
	p.work.Go(func() func() {
		sp, err := vigor.Load(dir) // video items get their frames when shown (rate_video.go)
		var store RatingStore
		if err == nil {
			store, err = p.ratings.store(demo)
		}
		var rated map[string]vigor.Rating
		var changed *vigor.SplitChangedError
		if err == nil {
			ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
			if err = store.BindSplit(ctx, sp); errors.As(err, &changed) {
				err = nil // a warning: shown once the split is open
			}
			if err == nil {
				rated, err = store.Ratings(ctx, sp, annotator)
			}
			cancel()
		}
		return p.answer(&p.request, id, err, func() {
			if !demo {
				p.prefs.SetString(prefLastSplit, dir)
				p.prefs.SetString(prefLastDir, filepath.Dir(dir))
				p.recent(dir)
			}
			p.start(ratesession.New(sp, dir, demo, store, annotator, rated))
			if changed != nil {
				p.notice.show("This split's items differ from those rated under its name before: "+
					"the earlier ratings are kept apart and not shown here.", false, "", nil)
				p.status.Set(changed.Error())
			}
		})
	})
}

// start shows a freshly opened session at the first unrated item.
func (p *RatePane) start(s *ratesession.Session) {
	if p.s != nil && p.s.Split.Name != s.Split.Name {
		p.images.Forget()
	}
	p.s = s
	p.frameErrs = nil                               // reopening a split tries its failed videos again
	p.window.SetTitle("jigbench — " + s.Split.Name) // says which split is open, also to a test driving the window
	p.undo = nil
	p.opened, p.ratedAtOpen = p.now(), s.Tally().Total().Rated
	p.failure.hide()
	p.errorShown = false
	pos, ok := s.Resume()
	if s.Demo {
		p.notice.show("Demo split: scores given here are kept in memory only, until jigbench closes. "+
			"To rate for real, open your split.", false, "Open split…", p.openDialog)
	} else {
		p.notice.hide()
	}
	setText(p.empty, "")
	p.body.Show()
	p.updateHeader()
	p.goTo(pos)
	total := len(s.Split.Items)
	switch {
	case !ok:
		p.status.Set(fmt.Sprintf("All %d items of %s are rated by %s; ← → to review them.", total, s.Split.Name, s.Annotator))
	case s.Resumed():
		p.status.Set(fmt.Sprintf("Resumed %s at your first unrated item (%d of %d).", s.Split.Name, pos+1, total))
	default:
		p.status.Set(fmt.Sprintf("Opened %s: %d items, shown in your own order.", s.Split.Name, total))
	}
}

// split returns the open split (nil before one is open) and the rater.
func (p *RatePane) split() (*vigor.Split, string) {
	if p.s == nil {
		return nil, ""
	}
	return p.s.Split, p.s.Annotator
}

// current is the item on screen, or nil.
func (p *RatePane) current() *vigor.Item {
	if p.s == nil {
		return nil
	}
	return p.s.Item()
}

// tourViews adds a result item, partly scored, to the tour (`jigbench
// screenshot`); the pane opens on the demo's first item for the rater.
func (p *RatePane) tourViews() []tourView {
	return []tourView{{Name: "result", Show: func() {
		s := p.s
		if s == nil {
			return
		}
		for pos := range s.Len() {
			if s.ItemAt(pos).Track == vigor.TrackResult {
				p.goTo(pos)
				p.setScore(0, 1)
				p.setScore(1, 0)
				p.setScore(2, 1)
				return
			}
		}
	}}}
}
