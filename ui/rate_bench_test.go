package ui

import (
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"testing"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/vigor"
)

// benchItems and the image size of the benchmark split: result items with
// photo-like 1024×768 PNGs, the size of a generative model's output.
const (
	benchItems         = 6
	benchW, benchH     = 1024, 768
	benchSceneName     = "fruit-market"
	benchScenesPerItem = 3 // input, output, ground truth
)

// writeBenchSplit cuts every image of the split from a busy demo scene at a
// different place, so each decodes like a real picture.
func writeBenchSplit(tb testing.TB, dir string) *vigor.Split {
	return writeBenchTrack(tb, dir, vigor.TrackResult)
}

// benchFrames is how many frames a process item of the benchmark has.
const benchFrames = 4

// writeBenchTrack writes the benchmark split with items of one track.
func writeBenchTrack(tb testing.TB, dir string, track vigor.Track) *vigor.Split {
	tb.Helper()
	scene, err := demo.Image(benchSceneName)
	if err != nil {
		tb.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		tb.Fatal(err)
	}
	sw, sh := scene.Rect.Dx()-benchW, scene.Rect.Dy()-benchH
	k := 0
	cut := func(name string) string {
		k++
		at := image.Pt((k*173)%sw, (k*97)%sh)
		img := image.NewRGBA(image.Rect(0, 0, benchW, benchH))
		draw.Draw(img, img.Rect, scene, at, draw.Src)
		data, err := render.EncodePNG(img)
		if err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "img", name), data, 0o644); err != nil {
			tb.Fatal(err)
		}
		return "img/" + name
	}
	sp := &vigor.Split{Name: "bench"}
	for i := range benchItems {
		if track == vigor.TrackProcess {
			id := fmt.Sprintf("p-%02d", i+1)
			it := vigor.Item{ID: id, Track: vigor.TrackProcess, Domain: "Physical", Subdomain: "Sorting",
				Model: "m", Instruction: "Put the fruit in order.", Input: cut(id + "-in.png"), GTText: "Oranges left, apples right."}
			for k := range benchFrames {
				it.Frames = append(it.Frames, cut(fmt.Sprintf("%s-f%d.png", id, k)))
			}
			sp.Items = append(sp.Items, it)
			continue
		}
		id := fmt.Sprintf("r-%02d", i+1)
		sp.Items = append(sp.Items, vigor.Item{ID: id, Track: vigor.TrackResult, Domain: "Physical", Subdomain: "Sorting",
			Model: "m", Instruction: "Put the fruit in order.", Input: cut(id + "-in.png"), Output: cut(id + "-out.png"),
			GTImage: cut(id + "-gt.png"), GTText: "Oranges left, apples right."})
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		tb.Fatal(err)
	}
	loaded, err := vigor.Load(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return loaded
}

// benchRateWindow opens the benchmark split in a 1280×800 window with every
// image decoded ahead, as prefetching leaves it while a rater works.
func benchRateWindow(tb testing.TB, dir string) *MainWindow {
	a := test.NewApp()
	a.Preferences().SetString(prefAnnotator, "bench")
	a.Preferences().SetString(prefLastSplit, dir)
	m := NewMainWindow(a, Options{Dispatcher: NewQueue(), Files: func(FileChooser) FileChooser { return &fakeChooser{} },
		Ratings: func() (RatingStore, error) { return vigor.NewMemStore(), nil }})
	m.Window.Resize(fyne.NewSize(1280, 800))
	m.Window.Show()
	m.Show(paneRate)
	m.settle()
	p := m.rate
	sp, _ := p.split()
	for _, it := range sp.Items {
		for _, ip := range it.Paths() {
			p.images.Load(filepath.Join(dir, ip.Path))
		}
	}
	return m
}

// nextItemOnScreen moves to the next item and renders its three image views
// at their size on screen, which is what the window paints next. The
// test driver's extra layout passes (Queue.relayout) are left out unless
// withRelayout: the app's window driver lays out only what changed.
func nextItemOnScreen(m *MainWindow, withRelayout bool) {
	q := m.work.(*Queue)
	q.layout = withRelayout
	defer func() { q.layout = true }()
	p := m.rate
	if p.s.Pos() == p.s.Len()-1 {
		p.goTo(0)
	} else {
		p.step(1)
	}
	for _, panel := range []*imagePanel{p.input, p.output, p.gt} {
		s := panel.zoom.Size()
		panel.zoom.draw(int(s.Width), int(s.Height))
	}
}

// BenchmarkRateNextItemPrefetched is the cost of Enter/→ when the next
// item's images were decoded ahead: widgets updated and the visible parts
// of three images drawn.
func BenchmarkRateNextItemPrefetched(b *testing.B) {
	dir := b.TempDir()
	writeBenchSplit(b, dir)
	m := benchRateWindow(b, dir)
	defer m.Window.Close()
	for b.Loop() {
		nextItemOnScreen(m, false)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/16.7e6, "frames/op")
}

// BenchmarkRateNextProcessItemPrefetched is the same for process items
// (frames strip, scrubber, four score fields): a key press to the next
// item on screen. One frame at 60 Hz is 16.7 ms; it must be under.
func BenchmarkRateNextProcessItemPrefetched(b *testing.B) {
	dir := b.TempDir()
	writeBenchTrack(b, dir, vigor.TrackProcess)
	m := benchRateWindow(b, dir)
	defer m.Window.Close()
	for b.Loop() {
		nextItemOnScreen(m, false)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/16.7e6, "frames/op")
}

// BenchmarkDecodeItemImage is the cost of decoding one of those images
// (render.LoadImage), what showing an item without prefetching pays per image.
func BenchmarkDecodeItemImage(b *testing.B) {
	dir := b.TempDir()
	sp := writeBenchSplit(b, dir)
	path := filepath.Join(dir, sp.Items[1].Output)
	for b.Loop() {
		if _, err := render.LoadImage(path); err != nil {
			b.Fatal(err)
		}
	}
}
