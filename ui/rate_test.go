package ui

import (
	"context"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// writeTestSplit writes a split of nResult result and nProcess process
// items (frames frames each) with small flat-coloured images into dir.
func writeTestSplit(t testing.TB, dir string, nResult, nProcess, frames, w, h int) *vigor.Split {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		t.Fatal(err)
	}
	n := 0
	img := func(name string) string {
		n++
		m := image.NewRGBA(image.Rect(0, 0, w, h))
		c := color.RGBA{uint8(40 * n), uint8(255 - 30*n), uint8(90 + 17*n), 255}
		for y := range h {
			for x := range w {
				m.SetRGBA(x, y, c)
				if (x/8+y/8)%2 == 0 {
					m.SetRGBA(x, y, color.RGBA{c.R / 2, c.G / 2, c.B / 2, 255})
				}
			}
		}
		f, err := os.Create(filepath.Join(dir, "img", name))
		if err != nil {
			t.Fatal(err)
		}
		if err := png.Encode(f, m); err != nil {
			t.Fatal(err)
		}
		f.Close()
		return "img/" + name
	}
	sp := &vigor.Split{Name: "test-split"}
	subs := []string{"Sorting", "Maze Navigation"}
	for i := range nResult {
		id := fmt.Sprintf("r-%02d", i+1)
		sp.Items = append(sp.Items, vigor.Item{ID: id, Track: vigor.TrackResult, Domain: "Symbolic", Subdomain: subs[i%2],
			Model: "model-" + strconv.Itoa(i%3), Instruction: "Sort the balls by colour (" + id + ").",
			Input: img(id + "-in.png"), Output: img(id + "-out.png"), GTImage: img(id + "-gt.png"), GTText: "Red left, blue right."})
	}
	for i := range nProcess {
		id := fmt.Sprintf("p-%02d", i+1)
		it := vigor.Item{ID: id, Track: vigor.TrackProcess, Domain: "Physical", Subdomain: subs[i%2],
			Model: "model-" + strconv.Itoa(i%3), Instruction: "Walk the maze (" + id + ").",
			Input: img(id + "-in.png"), GTText: "The path reaches the exit."}
		for k := range frames {
			it.Frames = append(it.Frames, img(fmt.Sprintf("%s-f%02d.png", id, k)))
		}
		sp.Items = append(sp.Items, it)
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	loaded, err := vigor.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return loaded
}

func openTestStore(t testing.TB) *vigor.Store {
	t.Helper()
	s, err := vigor.OpenStore(context.Background(), filepath.Join(t.TempDir(), "ratings.db"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// failingStore is a real store whose writes fail while fail is set, as a
// full disk would make them.
type failingStore struct {
	*vigor.Store
	fail  atomic.Bool
	saves atomic.Int32
}

var errDiskFull = errors.New("database or disk is full")

func (f *failingStore) Save(ctx context.Context, r vigor.Rating) (vigor.Rating, error) {
	f.saves.Add(1)
	if f.fail.Load() {
		return vigor.Rating{}, errDiskFull
	}
	return f.Store.Save(ctx, r)
}

// rateWindow opens a window on the Rate pane with store, the split in dir
// remembered as the last one and (if not empty) the rater's name.
func rateWindow(t *testing.T, a fyne.App, store RatingStore, dir, annotator string) *MainWindow {
	t.Helper()
	prefs := a.Preferences()
	prefs.SetString(prefLastSplit, dir)
	prefs.SetString(prefAnnotator, annotator)
	m := NewMainWindow(a, Options{Version: "test", Dispatcher: NewQueue(),
		Files:   func(FileChooser) FileChooser { return &fakeChooser{} },
		Ratings: func() (RatingStore, error) { return store, nil }})
	m.Window.Resize(fyne.NewSize(1280, 800))
	m.Window.Show()
	m.settle()
	m.Show(paneRate)
	m.settle()
	t.Cleanup(m.Window.Close)
	return m
}

// typeRunes types on the window as a keyboard does: into the focused
// widget, or to the window when nothing has the focus.
func typeRunes(m *MainWindow, s string) {
	c := m.Window.Canvas()
	for _, r := range s {
		if f := c.Focused(); f != nil {
			f.TypedRune(r)
		} else {
			c.OnTypedRune()(r)
		}
	}
	m.settle()
}

// pressKey presses a key as Fyne's window driver delivers it: Tab moves the
// focus unless the focused widget takes it, other keys go to the focused
// widget or the window.
func pressKey(m *MainWindow, k fyne.KeyName) {
	c := m.Window.Canvas()
	ev := &fyne.KeyEvent{Name: k}
	f := c.Focused()
	switch {
	case k == fyne.KeyTab && f != nil:
		if tb, ok := f.(fyne.Tabbable); ok && tb.AcceptsTab() {
			f.TypedKey(ev)
		} else {
			c.FocusNext()
		}
	case k == fyne.KeyTab:
		c.FocusNext()
	case f != nil:
		f.TypedKey(ev)
	default:
		c.OnTypedKey()(ev)
	}
	m.settle()
}

// wantScores is what the keyboard test gives item i (by position in the
// rater's order): a result item gets dimensions toggled on, a process item
// typed scores.
func wantScores(it *vigor.Item, k int) vigor.Scores {
	var s vigor.Scores
	for d := range s {
		if it.Track == vigor.TrackResult {
			s[d] = (k + d) % 2
			if k == 0 {
				s[d] = 1 // all four: five keystrokes
			}
		} else {
			s[d] = (17*k + 29*d) % 101
		}
	}
	return s
}

// rateByKeyboard scores the item on screen with keys only.
func rateByKeyboard(t *testing.T, m *MainWindow, want vigor.Scores) {
	t.Helper()
	it := m.rate.current()
	keys := 0
	if it.Track == vigor.TrackResult {
		for d, v := range want {
			if v == 1 {
				typeRunes(m, strconv.Itoa(d+1))
				keys++
			}
		}
		if keys < vigor.NumDims {
			typeRunes(m, "0") // the rest are No, said explicitly
			keys++
		}
		pressKey(m, fyne.KeyReturn)
		if keys+1 > 5 {
			t.Fatalf("%d keystrokes for a result item", keys+1)
		}
		return
	}
	for d, v := range want {
		typeRunes(m, strconv.Itoa(v))
		if d < vigor.NumDims-1 {
			pressKey(m, fyne.KeyTab)
		}
	}
	pressKey(m, fyne.KeyReturn)
}

func TestRateWholeSplitByKeyboard(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 5, 3, 4, 48, 32)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, store, dir, "")
	p := m.rate

	// The first time, the pane asks who is rating; the name is typed once.
	if p.nameDialog == nil || m.Window.Canvas().Focused() != p.nameEntry {
		t.Fatal("no focused name prompt on first opening")
	}
	typeRunes(m, "alice")
	pressKey(m, fyne.KeyReturn)
	if got := a.Preferences().String(prefAnnotator); got != "alice" {
		t.Fatalf("remembered rater %q", got)
	}
	if s, who := p.split(); s == nil || who != "alice" {
		t.Fatal("the split did not open for alice")
	}
	order := sp.Order("alice")
	if p.current().ID != sp.Items[order[0]].ID {
		t.Fatalf("opened on %s, want alice's first item %s", p.current().ID, sp.Items[order[0]].ID)
	}

	want := map[string]vigor.Scores{}
	for k := range sp.Items {
		it := p.current()
		if _, done := want[it.ID]; done {
			t.Fatalf("item %s came round twice", it.ID)
		}
		want[it.ID] = wantScores(it, k)
		rateByKeyboard(t, m, want[it.ID])
	}
	if !strings.Contains(m.Status.Text(), "Every item is rated") {
		t.Errorf("status after the last item: %q", m.Status.Text())
	}
	got, err := store.Ratings(context.Background(), sp, "alice")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != len(sp.Items) {
		t.Fatalf("the store holds %d ratings, want %d", len(got), len(sp.Items))
	}
	for id, w := range want {
		if got[id].Scores != w {
			t.Errorf("%s stored %v, want %v", id, got[id].Scores, w)
		}
	}
	if p.tallyText() != "Process 3/3 · Result 5/5 rated" {
		t.Errorf("progress %q", p.tallyText())
	}
}

func TestRateFiveKeystrokesAndNextItemIsReady(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 4, 0, 0, 48, 32)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "bob")
	p := m.rate
	var decodes atomic.Int32
	dec := p.images.decode
	p.images.decode = func(path string) itemImage { decodes.Add(1); return dec(path) }

	first := p.current()
	next := sp.Items[sp.Order("bob")[1]]
	for _, ip := range next.Paths() {
		if _, ok := p.images.Peek(filepath.Join(dir, ip.Path)); !ok {
			t.Fatalf("%s of the next item was not decoded ahead", ip.Field)
		}
	}
	// 1 2 3 4 Enter: four Yes and the next item, with no key for saving.
	c := m.Window.Canvas()
	for _, r := range "1234" {
		c.OnTypedRune()(r)
	}
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	// Before any background work runs (settle), the next item is on screen
	// with its images: nothing had to be decoded for it.
	if p.current().ID != next.ID {
		t.Fatalf("after Enter showing %s, want %s", p.current().ID, next.ID)
	}
	if p.output.zoom.Image() == nil || p.input.zoom.Image() == nil || p.gt.zoom.Image() == nil {
		t.Fatal("the next item's images were not on screen at once")
	}
	if decodes.Load() != 0 {
		t.Fatalf("%d images decoded on the way to the next item", decodes.Load())
	}
	m.settle()
	r, err := store.Get(context.Background(), sp.Name, first.ID, "bob")
	if err != nil || r.Scores != (vigor.Scores{1, 1, 1, 1}) {
		t.Fatalf("stored %v, %v", r.Scores, err)
	}
	if !strings.HasPrefix(m.Status.Text(), "Saved "+first.ID) {
		t.Fatalf("status %q", m.Status.Text())
	}
}

func TestRateEditingUpdatesTheRating(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 3, 1, 2, 48, 32)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "carol")
	p := m.rate
	first := p.current()
	rateByKeyboard(t, m, wantScores(first, 1))
	pressKey(m, fyne.KeyLeft)
	if p.current().ID != first.ID {
		t.Fatalf("← showed %s, want %s", p.current().ID, first.ID)
	}
	ctx := context.Background()
	before, err := store.Get(ctx, sp.Name, first.ID, "carol")
	if err != nil {
		t.Fatal(err)
	}
	if first.Track == vigor.TrackResult {
		typeRunes(m, "2")
		typeRunes(m, "f")
	} else {
		typeRunes(m, "2")
		pressKey(m, fyne.KeyUp)
		pressKey(m, fyne.KeyEscape)
		typeRunes(m, "f")
	}
	after, err := store.Get(ctx, sp.Name, first.ID, "carol")
	if err != nil {
		t.Fatal(err)
	}
	if after.Scores[1] == before.Scores[1] || !after.Flagged {
		t.Fatalf("after editing: %v flagged %v (was %v)", after.Scores, after.Flagged, before.Scores)
	}
	if after.Scores[0] != before.Scores[0] || !after.Created.Equal(before.Created) {
		t.Fatal("editing one dimension changed another or the creation time")
	}
	if p.saveState.Text != "● saved" || !strings.HasPrefix(m.Status.Text(), "Saved "+first.ID) {
		t.Fatalf("save state %q, status %q", p.saveState.Text, m.Status.Text())
	}

	// A comment, by keyboard: C, type, Enter.
	typeRunes(m, "c")
	if p.commentDialog == nil || m.Window.Canvas().Focused() != p.commentEntry {
		t.Fatal("C did not open a focused comment field")
	}
	typeRunes(m, "the maze has two exits")
	pressKey(m, fyne.KeyReturn)
	r, _ := store.Get(ctx, sp.Name, first.ID, "carol")
	if r.Comment != "the maze has two exits" || !strings.Contains(p.commentLabel.Text, "two exits") {
		t.Fatalf("comment stored %q, shown %q", r.Comment, p.commentLabel.Text)
	}
	if len(m.Window.Canvas().Overlays().List()) != 0 {
		t.Fatal("the comment dialog is still open")
	}
}

func TestRateStoreFailureKeepsTheValueOnScreen(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 4, 0, 0, 48, 32)
	store := &failingStore{Store: openTestStore(t)}
	m := rateWindow(t, test.NewTempApp(t), store, dir, "dave")
	p := m.rate
	first := p.current()
	ctx := context.Background()

	store.fail.Store(true)
	typeRunes(m, "1")
	typeRunes(m, "0") // the other three No
	check := func(when string) {
		t.Helper()
		if got := p.s.Shown().Scores[0]; got != 1 || p.dims[0].yes.Importance != widget.SuccessImportance {
			t.Fatalf("%s: dimension 1 shows %d, want the unsaved Yes kept", when, got)
		}
		if !p.failure.Visible() || !strings.Contains(p.failure.text.Text, "disk is full") {
			t.Fatalf("%s: no error banner (%q)", when, p.failure.text.Text)
		}
		if !strings.Contains(m.Status.Text(), "not saved") || strings.Contains(m.Status.Text(), "Saved") {
			t.Fatalf("%s: status %q", when, m.Status.Text())
		}
		if p.saveState.Text != "● NOT SAVED" {
			t.Fatalf("%s: save state %q", when, p.saveState.Text)
		}
		if _, err := store.Get(ctx, sp.Name, first.ID, "dave"); !errors.Is(err, vigor.ErrNotFound) {
			t.Fatalf("%s: the store has a rating: %v", when, err)
		}
	}
	check("after the failed save")
	if len(m.Window.Canvas().Overlays().List()) == 0 {
		t.Fatal("no error dialog")
	}
	// Enter tries again and stays while the store still fails.
	pressKey(m, fyne.KeyReturn)
	check("after Enter")
	if p.current().ID != first.ID {
		t.Fatal("moved on although the item is not saved")
	}

	// The disk is freed: Enter saves, then moves on.
	store.fail.Store(false)
	pressKey(m, fyne.KeyReturn)
	r, err := store.Get(ctx, sp.Name, first.ID, "dave")
	if err != nil || r.Scores != (vigor.Scores{1, 0, 0, 0}) {
		t.Fatalf("after the retry: %v, %v", r.Scores, err)
	}
	if p.failure.Visible() || !strings.HasPrefix(m.Status.Text(), "Saved") {
		t.Fatalf("after the retry: banner %v, status %q", p.failure.Visible(), m.Status.Text())
	}
	pressKey(m, fyne.KeyReturn)
	if p.current().ID == first.ID {
		t.Fatal("Enter did not move on after the save")
	}

	// A failure discovered after Enter moved on brings the item back.
	second := p.current()
	store.fail.Store(true)
	c := m.Window.Canvas()
	c.OnTypedRune()('1')
	c.OnTypedRune()('0')
	c.OnTypedKey()(&fyne.KeyEvent{Name: fyne.KeyReturn})
	if p.current().ID == second.ID {
		t.Fatal("Enter did not move on at once")
	}
	m.settle()
	if p.current().ID != second.ID || p.s.Shown().Scores != (vigor.Scores{1, 0, 0, 0}) {
		t.Fatalf("after the late failure showing %s %v, want %s with its unsaved scores", p.current().ID, p.s.Shown().Scores, second.ID)
	}
	store.fail.Store(false)
	p.retry()
	m.settle()
	if r, err := store.Get(ctx, sp.Name, second.ID, "dave"); err != nil || r.Scores != (vigor.Scores{1, 0, 0, 0}) {
		t.Fatalf("Try again: %v %v", r.Scores, err)
	}
}

func TestRateReopeningResumesAtTheFirstUnrated(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 4, 2, 2, 48, 32)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, store, dir, "erin")
	for k := range 3 {
		rateByKeyboard(t, m, wantScores(m.rate.current(), k+1))
	}
	// Leave a fourth item half done, as a rater stopping mid-item would.
	if m.rate.current().Track == vigor.TrackResult {
		typeRunes(m, "1")
	} else {
		typeRunes(m, "40")
		pressKey(m, fyne.KeyTab) // saved on leaving the score
	}
	half := m.rate.current().ID

	m2 := rateWindow(t, a, store, dir, "erin")
	rated, err := store.Ratings(context.Background(), sp, "erin")
	if err != nil {
		t.Fatal(err)
	}
	order := sp.Order("erin")
	pos, ok := vigor.NextUnrated(sp, rated, order, -1)
	if !ok {
		t.Fatal("everything rated")
	}
	if got := m2.rate.current().ID; got != sp.Items[order[pos]].ID || got != half {
		t.Fatalf("resumed at %s, want the first unrated %s (the half-done one)", got, sp.Items[order[pos]].ID)
	}
	if !strings.Contains(m2.Status.Text(), "Resumed") {
		t.Fatalf("status %q", m2.Status.Text())
	}
	if m2.rate.s.Shown().Scores[0] == vigor.NoScore {
		t.Fatal("the half-done item's saved score is not shown")
	}
}

func TestRateShowsOnlyTheRatersOwnScores(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 3, 0, 0, 48, 32)
	store := openTestStore(t)
	ctx := context.Background()
	for _, it := range sp.Items {
		if _, err := store.Save(ctx, vigor.Rating{Split: sp.Name, Item: it.ID, Annotator: "frank",
			Scores: vigor.Scores{1, 1, 1, 1}, Comment: "frank's note"}); err != nil {
			t.Fatal(err)
		}
	}
	m := rateWindow(t, test.NewTempApp(t), store, dir, "gina")
	p := m.rate
	if p.s.Shown().Scores.Any() || strings.Contains(p.commentLabel.Text, "frank") {
		t.Fatalf("gina sees %v / %q", p.s.Shown().Scores, p.commentLabel.Text)
	}
	if p.tallyText() != "Result 0/3 rated" {
		t.Fatalf("progress %q", p.tallyText())
	}
	// Orders differ between raters (and are each stable).
	if fmt.Sprint(sp.Order("gina")) == fmt.Sprint(sp.Order("frank")) {
		t.Skip("the two orders happen to coincide")
	}
	if p.current().ID != sp.Items[sp.Order("gina")[0]].ID {
		t.Fatal("not in gina's order")
	}
}

func TestRateFiltersFramesAndHiddenGroundTruth(t *testing.T) {
	dir := t.TempDir()
	sp := writeTestSplit(t, dir, 3, 2, 13, 32, 24)
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, dir, "hank")
	p := m.rate

	// Flag the first item and rate it; filter on flagged, then on unrated.
	flagged := p.current()
	typeRunes(m, "f")
	if !p.flag.Checked {
		t.Fatal("F did not tick the flag")
	}
	p.setFilter(ratesession.Flagged)
	pressKey(m, fyne.KeyRight)
	if p.current().ID != flagged.ID || !strings.Contains(m.Status.Text(), "last item among the flagged") {
		t.Fatalf("flagged filter: showing %s, status %q", p.current().ID, m.Status.Text())
	}
	p.setFilter(ratesession.Unrated)
	for range len(sp.Items) {
		pressKey(m, fyne.KeyRight)
		if r := p.s.Shown(); r.Scores.Complete() {
			t.Fatalf("the unrated filter showed %s, which is rated", p.current().ID)
		}
	}
	p.setFilter(ratesession.All)

	// Frames of a process item: , . step one, PgUp/PgDn hop ten.
	for p.current().Track != vigor.TrackProcess {
		pressKey(m, fyne.KeyRight)
	}
	it := p.current()
	frame := func() string { return p.output.want }
	if frame() != filepath.Join(dir, it.Frames[0]) {
		t.Fatalf("process item opens on %s", frame())
	}
	typeRunes(m, "..")
	if frame() != filepath.Join(dir, it.Frames[2]) || p.scrubber.Value != 2 {
		t.Fatalf("after '..' showing %s, scrubber %v", frame(), p.scrubber.Value)
	}
	pressKey(m, fyne.KeyPageDown)
	if frame() != filepath.Join(dir, it.Frames[12]) {
		t.Fatalf("PgDn showed %s", frame())
	}
	pressKey(m, fyne.KeyPageUp)
	typeRunes(m, ",")
	if frame() != filepath.Join(dir, it.Frames[1]) {
		t.Fatalf("PgUp , showed %s", frame())
	}
	p.strip.thumbs[5].Tapped(nil)
	if frame() != filepath.Join(dir, it.Frames[5]) || p.output.zoom.Image() == nil {
		t.Fatal("tapping a thumbnail did not show its frame")
	}

	// H hides the ground truth (remembered), H again shows it.
	typeRunes(m, "h")
	if p.gt.zoom.Image() != nil || !strings.Contains(p.gtText.Text, "hidden") {
		t.Fatal("H did not hide the ground truth")
	}
	if !m.App.Preferences().Bool(prefHideGT) {
		t.Fatal("hiding the ground truth is not remembered")
	}
	typeRunes(m, "h")
	if !strings.Contains(p.gtText.Text, "exit") {
		t.Fatalf("ground truth text %q", p.gtText.Text)
	}

	// A process item will not be left by Enter with a score missing.
	typeRunes(m, "50")
	pressKey(m, fyne.KeyReturn)
	if p.current().ID != it.ID || p.active != 1 || !strings.Contains(p.prompt.Text, "before moving on") {
		t.Fatalf("Enter left a process item with missing scores (dimension %d, hint %q)", p.active, p.prompt.Text)
	}
}

func TestOpenPathSendsSplitsToRate(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 2, 0, 0, 16, 16)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	a.Preferences().SetString(prefAnnotator, "ivy")
	m := NewMainWindow(a, Options{Dispatcher: NewQueue(), Files: func(FileChooser) FileChooser { return &fakeChooser{} },
		Ratings: func() (RatingStore, error) { return store, nil }})
	t.Cleanup(m.Window.Close)
	m.settle()
	m.rate.View() // built without the demo: the split is opened right away
	m.OpenPath(filepath.Join(dir, vigor.SplitFile))
	m.settle()
	if m.current != paneRate || m.rate.current() == nil {
		t.Fatalf("split.json opened pane %d", m.current)
	}
	if got := a.Preferences().StringList(prefRecent); len(got) == 0 || got[0] != dir {
		t.Fatalf("recent %v", got)
	}
	other := t.TempDir()
	writeTestSplit(t, other, 1, 0, 0, 16, 16)
	m.dropped(fyne.Position{}, []fyne.URI{storageURI(other)})
	m.settle()
	if s, _ := m.rate.split(); s == nil || m.rate.s.Dir != other {
		t.Fatal("a dropped split folder did not open in Rate")
	}
}

func TestImageCacheLoadsOnceAndEvicts(t *testing.T) {
	var mu sync.Mutex
	calls := map[string]int{}
	c := newImageCache(3 * (64*64*4*4/3 + 72*72*4))
	c.decode = func(path string) itemImage {
		mu.Lock()
		calls[path]++
		mu.Unlock()
		return itemImage{pyr: nil, err: nil}
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() { c.Load("a") })
	}
	wg.Wait()
	if calls["a"] != 1 {
		t.Fatalf("decoded %d times", calls["a"])
	}
	if _, ok := c.Peek("a"); !ok || !c.Has("a") {
		t.Fatal("a is not cached")
	}
	c.Forget()
	if c.Has("a") {
		t.Fatal("Forget kept a")
	}
}

// TestRateDemoSplitByKeyboard rates every item of the real demo split
// (`jigbench vigor demo`, written once into the user cache folder) from the
// keyboard into a ratings database.
func TestRateDemoSplitByKeyboard(t *testing.T) {
	if testing.Short() {
		t.Skip("writes the demo split the first time")
	}
	set, err := vigordemo.Cached()
	if err != nil {
		t.Fatal(err)
	}
	sp, err := vigor.Load(set.Dir)
	if err != nil {
		t.Fatal(err)
	}
	store := openTestStore(t)
	m := rateWindow(t, test.NewTempApp(t), store, set.Dir, "kim")
	want := map[string]vigor.Scores{}
	for k := range sp.Items {
		it := m.rate.current()
		want[it.ID] = wantScores(it, k)
		rateByKeyboard(t, m, want[it.ID])
	}
	got, err := store.Ratings(context.Background(), sp, "kim")
	if err != nil {
		t.Fatal(err)
	}
	for _, it := range sp.Items {
		if got[it.ID].Scores != want[it.ID] {
			t.Errorf("%s: stored %v, want %v", it.ID, got[it.ID].Scores, want[it.ID])
		}
	}
	if !strings.Contains(m.Status.Text(), "Every item is rated") {
		t.Errorf("status %q", m.Status.Text())
	}
}

// TestRateSaysWhenASplitsItemsChanged opens a split, rates in it, then
// opens a split of the same name with other items: the pane says so, and the
// earlier ratings are not shown as this split's (docs/formats.md, split
// identity).
func TestRateSaysWhenASplitsItemsChanged(t *testing.T) {
	dir := t.TempDir()
	writeTestSplit(t, dir, 3, 0, 0, 48, 32)
	store := openTestStore(t)
	a := test.NewTempApp(t)
	m := rateWindow(t, a, store, dir, "erin")
	rateByKeyboard(t, m, wantScores(m.rate.current(), 1))
	if m.rate.notice.box.Visible() {
		t.Fatalf("notice shown on a first open: %q", m.rate.notice.text.Text)
	}

	other := t.TempDir()
	sp2 := writeTestSplit(t, other, 4, 0, 0, 40, 24) // same name, other items
	m2 := rateWindow(t, a, store, other, "erin")
	if !m2.rate.notice.box.Visible() || !strings.Contains(m2.rate.notice.text.Text, "differ") {
		t.Fatalf("notice %q (shown %v), want the split's items changed", m2.rate.notice.text.Text, m2.rate.notice.box.Visible())
	}
	if !strings.Contains(m2.Status.Text(), "other items") {
		t.Fatalf("status %q", m2.Status.Text())
	}
	if got := m2.rate.s.Tally().Total().Rated; got != 0 {
		t.Fatalf("%d items shown as rated in the changed split, want 0", got)
	}
	rated, err := store.Ratings(context.Background(), sp2, "erin")
	if err != nil || len(rated) != 0 {
		t.Fatalf("changed split has %d ratings (%v), want 0", len(rated), err)
	}
}
