package ui

import (
	"errors"
	"fmt"
	"image"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/driver/desktop"
	"fyne.io/fyne/v2/storage"
	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// fakeChooser answers file dialogs from a queue, as a user would.
type fakeChooser struct {
	answers []string
	err     error
	asked   []string
}

func (f *fakeChooser) next(title string, done func(string, error)) {
	f.asked = append(f.asked, title)
	if f.err != nil {
		done("", f.err)
		return
	}
	if len(f.answers) == 0 {
		done("", nil) // cancelled
		return
	}
	p := f.answers[0]
	f.answers = f.answers[1:]
	done(p, nil)
}

func (f *fakeChooser) OpenFile(title string, _ Filter, done func(string, error)) { f.next(title, done) }
func (f *fakeChooser) OpenFolder(title string, done func(string, error))         { f.next(title, done) }
func (f *fakeChooser) SaveFile(title, _ string, _ Filter, done func(string, error)) {
	f.next(title, done)
}

func newTestWindow(t *testing.T, files *fakeChooser) *MainWindow {
	t.Helper()
	a := test.NewTempApp(t)
	m := NewMainWindow(a, Options{Version: "test", Dispatcher: &holdingQueue{Queue: NewQueue()}, Files: func(FileChooser) FileChooser { return files }})
	m.Window.Resize(fyne.NewSize(1280, 800))
	m.Window.Show()
	m.settle()
	t.Cleanup(m.Window.Close)
	return m
}

func TestGenerateFollowsGridAndSeed(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	g := m.generate
	first := g.Current()
	if first == nil {
		t.Fatal("no preview after opening")
	}
	if first.Puzzle.N != 8 || first.Instance.Seed != 42 || first.Instance.Source.Name != demo.Names()[0] {
		t.Fatalf("opened on %s, want the first demo at 8×8, seed 42", first.Instance.ID)
	}
	g.grid.SetText("4")
	m.settle()
	if got := g.Current(); got.Puzzle.N != 4 || g.shape.Image().Image() != got.Shape {
		t.Fatalf("after grid 4: showing %s", got.Instance.ID)
	}
	before := g.Current()
	g.seed.SetText("427")
	m.settle()
	after := g.Current()
	if after.Instance.Seed != 427 {
		t.Fatalf("seed now %d, want 427", after.Instance.Seed)
	}
	if slices.Equal(after.Puzzle.IDAt, before.Puzzle.IDAt) || string(after.Shape.Pix) == string(before.Shape.Pix) {
		t.Fatal("a new seed did not change the puzzle shown")
	}
	if !strings.Contains(m.Status.Text(), after.Instance.ID) {
		t.Fatalf("status %q does not name %s", m.Status.Text(), after.Instance.ID)
	}

	// The edge overlay replaces the solved image on request.
	g.edges.SetChecked(true)
	m.settle()
	if g.solved.Image() != g.current.Edges() || g.current.Edges() == nil {
		t.Fatal("the edge overlay is not shown")
	}
	g.edges.SetChecked(false)
	m.settle()
	if g.solved.Image() != g.current.Solved {
		t.Fatal("unticking the overlay did not bring the plain solved image back")
	}

	// A bad grid takes the preview away, keeps Save and Compare disabled
	// and says what to fix beside the form.
	if g.save.Disabled() {
		t.Fatal("Save is disabled with a good preview on screen")
	}
	for _, bad := range []string{"65", "99", "x"} {
		g.grid.SetText(bad)
		m.settle()
		if g.Current() != nil || g.shape.Image() != nil || g.solved.Image() != nil {
			t.Fatalf("grid %s: the old preview is still shown", bad)
		}
		if !g.save.Disabled() || !g.compare.Disabled() {
			t.Fatalf("grid %s: Save or Compare is enabled", bad)
		}
		if !g.problem.Visible() || !strings.Contains(g.problem.Text, "Grid must be") || !strings.Contains(m.Status.Text(), "Grid must be") {
			t.Fatalf("grid %s: problem %q, status %q", bad, g.problem.Text, m.Status.Text())
		}
	}
	// Settings the core refuses (64×64 pieces of 16 px at size 1024) are
	// told inline too, under the real image name, with no dialog.
	g.grid.SetText("64")
	m.settle()
	if m.Window.Canvas().Overlays().Top() != nil {
		t.Fatal("grid 64 at size 1024 opened a dialog")
	}
	if g.Current() != nil || !g.save.Disabled() || !strings.HasPrefix(g.problem.Text, demo.Names()[0]) {
		t.Fatalf("grid 64: current %v, problem %q", g.Current() != nil, g.problem.Text)
	}
	// Custom grids beyond the presets work.
	g.grid.SetText("5")
	m.settle()
	if g.Current().Puzzle.N != 5 || g.save.Disabled() || g.problem.Visible() {
		t.Fatal("custom grid 5 not generated, or Save still disabled")
	}
}

func TestSettingsAreRemembered(t *testing.T) {
	a := test.NewTempApp(t)
	m := NewMainWindow(a, Options{Dispatcher: NewQueue(), Files: func(FileChooser) FileChooser { return &fakeChooser{} }})
	m.settle()
	m.generate.grid.SetText("12")
	m.generate.seed.SetText("9")
	m.settle()
	m2 := NewMainWindow(a, Options{Dispatcher: NewQueue(), Files: func(FileChooser) FileChooser { return &fakeChooser{} }})
	m2.settle()
	if got := m2.generate.Current(); got.Puzzle.N != 12 || got.Instance.Seed != 9 {
		t.Fatalf("reopened on %s, want grid 12 seed 9", got.Instance.ID)
	}
}

func TestSaveInstanceWritesTheFolder(t *testing.T) {
	dir := t.TempDir()
	files := &fakeChooser{answers: []string{dir}}
	m := newTestWindow(t, files)
	g := m.generate
	g.SaveDialog()
	m.settle()
	id := g.Current().Instance.ID
	for _, f := range []string{"instance.json", "shape.png", "rect.png", "solved.png", "prompt-shape.txt", "prompt-rect.txt"} {
		if _, err := os.Stat(filepath.Join(dir, id, f)); err != nil {
			t.Errorf("saved instance lacks %s: %v", f, err)
		}
	}
	if !strings.HasPrefix(m.Status.Text(), "Saved ") {
		t.Fatalf("status %q", m.Status.Text())
	}
	if got := m.App.Preferences().StringList(prefRecent); len(got) == 0 || got[0] != filepath.Join(dir, id) {
		t.Fatalf("recent list %v", got)
	}
}

// writeInstances generates instances of the first demo image into dir.
func writeInstances(t *testing.T, dir string, grids ...int) {
	t.Helper()
	img, err := demo.Image(demo.Names()[0])
	if err != nil {
		t.Fatal(err)
	}
	src := render.SourceFromImage("scene", img)
	for i, n := range grids {
		opt := puzzle.DefaultOptions()
		opt.Size = 320
		g, err := render.Generate(src, n, uint64(i+1), opt)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := g.WriteDir(dir); err != nil {
			t.Fatal(err)
		}
	}
}

func TestAblationOpenZoomStepAndHover(t *testing.T) {
	dir := t.TempDir()
	writeInstances(t, dir, 4, 5, 4)
	m := newTestWindow(t, &fakeChooser{answers: []string{dir}})
	m.Show(paneAblation)
	a := m.ablation
	m.settle()
	a.openDialog("Open")
	m.settle()
	if len(a.filtered) != 3 || a.Current().Instance.ID != "scene-g4-s1" {
		t.Fatalf("opened %d instances, showing %v", len(a.filtered), a.Current())
	}

	// Zoom in and out: both sheets follow one zoom.
	fit := a.zoom.Zoom()
	a.zoom.ZoomBy(2)
	if z := a.zoom.Zoom(); z < 1.99*fit || z > 2.01*fit {
		t.Fatalf("zoom %v after ×2 from %v", z, fit)
	}
	x0, y0 := a.shape.ImagePoint(fyne.NewPos(10, 10))
	x1, y1 := a.rect.ImagePoint(fyne.NewPos(10, 10))
	if x0 != x1 || y0 != y1 {
		t.Fatal("the two sheets do not share zoom and pan")
	}
	test.Drag(m.Window.Canvas(), absPos(a.shape, 50, 50), -30, -20)
	if x, _ := a.rect.ImagePoint(fyne.NewPos(10, 10)); x <= x1 {
		t.Fatal("dragging the shape sheet did not pan the rectangular one")
	}
	a.zoom.Fit()

	// Step to the next instance and filter by grid.
	a.Next()
	m.settle()
	if a.Current().Instance.ID != "scene-g4-s3" { // folders are listed by name
		t.Fatalf("next showed %s", a.Current().Instance.ID)
	}
	a.gridFilter.SetSelected("4×4")
	m.settle()
	if len(a.filtered) != 2 {
		t.Fatalf("filter 4×4 kept %d instances", len(a.filtered))
	}
	a.Next()
	m.settle()
	if a.Current().Instance.ID != "scene-g4-s3" {
		t.Fatalf("next within the filter showed %s", a.Current().Instance.ID)
	}

	// Hover over a slot: the piece is highlighted in both sheets and its true cell.
	inst := a.Current().Instance
	k := 6
	sx, sy := inst.Layout.SlotOrigin(k, inst.Grid)
	pos := a.shape.widgetPoint(float64(sx+inst.Layout.SlotWidth/2), float64(sy+inst.Layout.SlotHeight/2))
	a.shape.MouseMoved(&desktop.MouseEvent{PointEvent: fyne.PointEvent{Position: pos}})
	if a.Highlighted() != k {
		t.Fatalf("hovering slot %d highlights %d", k, a.Highlighted())
	}
	for name, z := range map[string]*ZoomView{"shape": a.shape, "rect": a.rect} {
		ms := z.Marks()
		if len(ms) != 1 || ms[0].Rect.Min.X != sx || ms[0].Rect.Min.Y != sy {
			t.Errorf("%s sheet marks %v, want slot of piece %d at (%d,%d)", name, ms, k, sx, sy)
		}
	}
	cell := inst.Solution[k]
	if ms := a.solved.Marks(); len(ms) != 1 || ms[0].Rect.Min.X != cell.Col*inst.Piece.Width || ms[0].Rect.Min.Y != cell.Row*inst.Piece.Height {
		t.Errorf("solved view marks %v, want the true cell %v", ms, cell)
	}
	want := fmt.Sprintf("belongs at row %d, column %d (counted from 1)", cell.Row+1, cell.Col+1)
	if !strings.HasPrefix(a.pieceInfo.Text, "Piece 6, ") || !strings.Contains(a.pieceInfo.Text, want) {
		t.Errorf("piece info %q, want %q", a.pieceInfo.Text, want)
	}
	a.shape.MouseOut()
	if a.Highlighted() != -1 || len(a.rect.Marks()) != 0 {
		t.Error("leaving the sheet kept the highlight")
	}

	// Pin piece 6, then hover the solved view at another piece's cell: the
	// hovered piece is marked in the sheets (pointing back to its slot)
	// beside the pinned one, and described.
	a.pin(k)
	other := (k + 1) % len(inst.Pieces)
	oc := inst.Solution[other]
	a.hoverSolved(float64(oc.Col*inst.Piece.Width+2), float64(oc.Row*inst.Piece.Height+2), true)
	ox, oy := inst.Layout.SlotOrigin(other, inst.Grid)
	ms := a.shape.Marks()
	if a.Highlighted() != other || len(ms) != 2 || ms[0].Rect.Min != image.Pt(ox, oy) || ms[1].Rect.Min != image.Pt(sx, sy) {
		t.Fatalf("hovering the solved view while %d is pinned: highlighted %d, marks %v", k, a.Highlighted(), ms)
	}
	if !strings.HasPrefix(a.pieceInfo.Text, fmt.Sprintf("Piece %d, ", other)) {
		t.Errorf("piece info %q", a.pieceInfo.Text)
	}
	a.hoverSolved(0, 0, false)
	if a.Highlighted() != k || len(a.shape.Marks()) != 1 {
		t.Fatal("leaving the solved view lost the pinned piece")
	}

	// Corner marks: the 4 corners (one may be the pinned piece, marked as such).
	a.kinds.SetSelected(markCorner)
	if n := len(a.rect.Marks()); n != 4 && n != 5 {
		t.Fatalf("corner marks: %d marks, want the 4 corners and the pinned piece", n)
	}
	a.kinds.SetSelected(markInterior)
	if n := len(a.rect.Marks()); n < (inst.Grid-2)*(inst.Grid-2) {
		t.Fatalf("interior marks: %d marks for a %d×%d grid", n, inst.Grid, inst.Grid)
	}
	a.kinds.SetSelected(markNone)

	// The grid and ID overlay replaces the solved image and back.
	a.overlay.SetChecked(true)
	if a.solved.Image() != a.current.grid || a.current.grid == nil {
		t.Fatal("the grid overlay is not shown")
	}
	a.overlay.SetChecked(false)
	if a.solved.Image() != a.current.solved {
		t.Fatal("unticking the overlay did not bring the solved image back")
	}
}

func TestGenerateToAblation(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	m.Show(paneAblation)
	m.settle()
	if got, want := m.ablation.Current().Instance.ID, m.generate.Current().Instance.ID; got != want {
		t.Fatalf("Ablation opened on %s, want Generate's %s", got, want)
	}
}

func TestBadFilesGiveAMessageAndTheAppGoesOn(t *testing.T) {
	dir := t.TempDir()
	bad := filepath.Join(dir, "holiday.png")
	if err := os.WriteFile(bad, []byte("not really a png"), 0o644); err != nil {
		t.Fatal(err)
	}
	m := newTestWindow(t, &fakeChooser{answers: []string{bad}})
	before := m.generate.Current()
	m.generate.OpenImageDialog()
	m.settle()
	if !strings.Contains(m.Status.Text(), "holiday.png") || !strings.Contains(m.Status.Text(), "not a PNG, JPEG, GIF or WebP") {
		t.Fatalf("status %q", m.Status.Text())
	}
	if m.generate.Current() != before {
		t.Fatal("a bad file replaced the preview")
	}
	// A dropped folder without instances, then a dropped bad image.
	empty := t.TempDir()
	m.dropped(fyne.Position{}, []fyne.URI{storageURI(empty)})
	m.settle()
	if !strings.Contains(m.Status.Text(), "holds no instance folders") {
		t.Fatalf("status %q", m.Status.Text())
	}
	m.dropped(fyne.Position{}, []fyne.URI{storageURI(bad)})
	m.settle()
	if m.current != paneGenerate || !strings.Contains(m.Status.Text(), "holiday.png") {
		t.Fatalf("drop of a bad image: pane %d, status %q", m.current, m.Status.Text())
	}
	// And a good image still opens afterwards.
	good := filepath.Join("..", "core", "render", "testdata", "small.png") // 120×75: grid 4 fits
	m.generate.grid.SetText("4")
	m.OpenPath(good)
	m.settle()
	if m.generate.Current().Instance.Source.Name != "small" {
		t.Fatalf("after the errors, opening small.png shows %s", m.generate.Current().Instance.ID)
	}
}

func TestFailingChooserIsReported(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{err: errors.New("portal unavailable")})
	m.generate.OpenImageDialog()
	if !strings.Contains(m.Status.Text(), "portal unavailable") {
		t.Fatalf("status %q", m.Status.Text())
	}
}

func absPos(o fyne.CanvasObject, x, y float32) fyne.Position {
	return fyne.CurrentApp().Driver().AbsolutePositionForObject(o).Add(fyne.NewPos(x, y))
}

func storageURI(path string) fyne.URI { return storage.NewFileURI(path) }

// TestRenderingLeavesTheUIGoroutineFree holds a preview render half-way and
// shows that the UI goroutine (here the test's) keeps working meanwhile.
func TestRenderingLeavesTheUIGoroutineFree(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	g := m.generate
	entered, release := make(chan struct{}), make(chan struct{})
	holdNextWork(m, func() {
		entered <- struct{}{}
		<-release
	})
	g.seed.SetText("1234")
	<-entered // a worker is rendering now, and is held there
	m.Status.Set("still responsive")
	g.tabs.SelectIndex(1)
	if m.Status.Text() != "still responsive" || g.tabs.SelectedIndex() != 1 {
		t.Fatal("the UI did not respond while a render was running")
	}
	if g.Current().Instance.Seed == 1234 {
		t.Fatal("the new preview appeared before its render finished")
	}
	close(release)
	m.settle()
	if g.Current().Instance.Seed != 1234 {
		t.Fatalf("showing seed %d after the render, want 1234", g.Current().Instance.Seed)
	}
}

func TestGenerateDatasetForm(t *testing.T) {
	m := newTestWindow(t, &fakeChooser{})
	g := m.generate
	g.size.SetSelected("512")
	m.settle()
	f := g.Dataset()
	f.Show()
	out := t.TempDir()

	// An empty bar is drawn empty: no bar, the track in the input colour.
	if r := test.WidgetRenderer(f.progress).(*meterRenderer); r.bar.Size().Width != 0 || r.label.Text != "0 %" {
		t.Fatalf("at 0 the bar is %v wide, label %q", r.bar.Size().Width, r.label.Text)
	}
	f.chooseDemo(2)
	f.grids.SetText("4, eight")
	f.Start()
	if !strings.Contains(f.line.Text, "Grids must be whole numbers") {
		t.Fatalf("a bad grid list: %q", f.line.Text)
	}
	f.grids.SetText("4,5")
	f.Start()
	if !strings.Contains(strings.ToLower(f.line.Text), "out") { // no output folder chosen yet
		t.Fatalf("no output folder: %q", f.line.Text)
	}
	f.SetOut(out)
	f.Start()
	m.settle()
	if f.Result == nil || f.Result.Instances != 4 {
		t.Fatalf("after the run: %q, result %+v", f.line.Text, f.Result)
	}
	if _, err := os.Stat(filepath.Join(out, "manifest.jsonl")); err != nil {
		t.Fatal(err)
	}
	if f.progress.Value() != 1 || !strings.HasPrefix(f.line.Text, "Done: 4 instances") {
		t.Fatalf("progress %v, line %q", f.progress.Value(), f.line.Text)
	}
	// Export for models: the requests file and the Hugging Face dataset.
	f.Export()
	e := f.export
	e.Start()
	m.settle()
	if !strings.HasPrefix(e.line.Text, "Exported 8 requests") || e.progress.Value() != 1 {
		t.Fatalf("export: %q, progress %v", e.line.Text, e.progress.Value())
	}
	reqs, err := os.ReadFile(filepath.Join(out, "export", exportRequestsFile))
	if err != nil || strings.Count(string(reqs), "\n") != 8 {
		t.Fatalf("requests file: %d lines, %v", strings.Count(string(reqs), "\n"), err)
	}
	if _, err := os.Stat(filepath.Join(out, "export", exportHFDir, "README.md")); err != nil {
		t.Fatal(err)
	}
	// Opening the result in Ablation shows its instances.
	m.OpenPath(out)
	m.settle()
	if got := len(m.ablation.filtered); got != 4 {
		t.Fatalf("Ablation lists %d instances of the dataset", got)
	}
}
