package ui

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/ui/ratesession"
)

// videoSplit writes a split of two result items and two process items given
// as (different) videos, F = 4, and returns its folder.
func videoSplit(t *testing.T) (string, *vigor.Split) {
	t.Helper()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; this test needs it (Debian: apt install ffmpeg)", tool)
		}
	}
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vid"), 0o755)
	for _, args := range [][]string{
		{"-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=10", "-pix_fmt", "yuv420p", filepath.Join(dir, "vid", "a.mp4")},
		{"-f", "lavfi", "-i", "testsrc=duration=2:size=160x120:rate=10", "-pix_fmt", "yuv420p", filepath.Join(dir, "vid", "b.mp4")},
		{"-f", "lavfi", "-i", "color=c=gray:size=64x48", "-frames:v", "1", filepath.Join(dir, "in.png")},
	} {
		if out, err := exec.Command("ffmpeg", append([]string{"-nostdin", "-v", "error"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg: %v\n%s", err, out)
		}
	}
	sp := &vigor.Split{Name: "video-split", FramesFromVideo: 4}
	for i, v := range []string{"a", "b"} {
		sp.Items = append(sp.Items,
			vigor.Item{ID: "p-" + v, Track: vigor.TrackProcess, Domain: "Physical", Subdomain: "Sorting", Model: "m",
				Instruction: "sort", Input: "in.png", Video: "vid/" + v + ".mp4", GTText: "sorted"},
			vigor.Item{ID: fmt.Sprintf("r-%d", i), Track: vigor.TrackResult, Domain: "Physical", Subdomain: "Sorting", Model: "m",
				Instruction: "sort", Input: "in.png", Output: "in.png", GTText: "sorted"})
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	sp, err := vigor.Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	return dir, sp
}

// A process item given as a video: opening the split takes no frames; the
// item's are taken when it is shown (an "Extracting frames…" placeholder
// meanwhile), the next item's ahead of time, each once, into the user
// cache folder; the rater then scrubs them as any frames.
func TestRateTakesVideoFramesWhenShown(t *testing.T) {
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux
	dir, sp := videoSplit(t)
	store := openTestStore(t)
	// A rater whose own order starts with the two result items, so that
	// opening the split shows no video and has none next.
	rater := ""
	for k := range 200 {
		name := fmt.Sprintf("rater%d", k)
		s := ratesession.New(sp, dir, false, nil, name, nil)
		if s.ItemAt(0).Video == "" && s.ItemAt(1).Video == "" {
			rater = name
			break
		}
	}
	if rater == "" {
		t.Fatal("no rater name puts the result items first")
	}
	before := vigor.VideoExtractions()
	m := rateWindow(t, test.NewTempApp(t), store, dir, rater)
	p := m.rate
	if p.s == nil || p.s.Pos() != 0 {
		t.Fatalf("split not open at its first item (status %q)", m.Status.Text())
	}
	if n := vigor.VideoExtractions() - before; n != 0 {
		t.Fatalf("opening the split took %d videos' frames, want none", n)
	}
	if ents, _ := os.ReadDir(filepath.Join(cache, "jigbench", "video-frames")); len(ents) != 0 {
		t.Fatalf("opening the split filled the cache: %d entries", len(ents))
	}

	// Showing the second result item takes the next item's (a video's) frames ahead.
	p.goTo(1)
	m.settle()
	next := p.s.ItemAt(2)
	if n := vigor.VideoExtractions() - before; n != 1 || len(next.Frames) != 4 {
		t.Fatalf("after showing the item before a video: %d extractions, the video has %d frames; want 1 and 4", n, len(next.Frames))
	}
	// Jumping to the last video, not prefetched: a placeholder, then its frames.
	p.goTo(3)
	last := p.s.Item()
	if last.Video == "" || len(last.Frames) != 0 {
		t.Fatalf("item 4 is %s with %d frames, want a video not taken yet", last.ID, len(last.Frames))
	}
	if p.output.note.Text != "Extracting frames…" || !p.output.note.Visible() {
		t.Errorf("while its frames are taken the output says %q", p.output.note.Text)
	}
	typeRunes(m, ".") // scrubbing before the frames are in does nothing (and does not panic)
	if n := vigor.VideoExtractions() - before; n != 2 || len(last.Frames) != 4 {
		t.Fatalf("after showing the last video: %d extractions, %d frames; want 2 and 4", n, len(last.Frames))
	}
	if !strings.HasSuffix(p.output.want, "000.png") || p.output.caption.Text != "Output: frame 1 of 4" || p.output.note.Visible() {
		t.Fatalf("shows %q, caption %q, note %q", p.output.want, p.output.caption.Text, p.output.note.Text)
	}
	typeRunes(m, ".")
	if !strings.HasSuffix(p.output.want, "001.png") || p.output.caption.Text != "Output: frame 2 of 4" {
		t.Fatalf("after '.' shows %s, caption %q", p.output.want, p.output.caption.Text)
	}

	// The prefetched video shows at once, from the cache.
	p.goTo(2)
	m.settle()
	if n := vigor.VideoExtractions() - before; n != 2 {
		t.Errorf("showing the prefetched video took its frames again (%d extractions, want 2)", n)
	}
	if !strings.HasPrefix(p.output.want, filepath.Join(cache, "jigbench", "video-frames")) || !strings.HasSuffix(p.output.want, "000.png") {
		t.Fatalf("shows %q, want the first cached frame", p.output.want)
	}

	// Opened again, the split's videos come from the cache: no ffmpeg.
	p.load(dir, false, rater)
	m.settle()
	for pos := range 4 {
		p.goTo(pos)
		m.settle()
	}
	if n := vigor.VideoExtractions() - before; n != 2 {
		t.Errorf("the second opening took frames again: %d extractions, want 2", n)
	}
	if !strings.HasSuffix(p.output.want, "000.png") {
		t.Errorf("from the cache the video shows %q", p.output.want)
	}
}

// When ffmpeg cannot take a video's frames, the item says why, and coming
// back to it shows the same error without running ffmpeg again (an ffmpeg
// on PATH that fails and counts its runs); opening the split again tries
// once more. (The split's other video fails too; only runs on this one count.)
func TestRateVideoFailureNotRetriedOnEveryShow(t *testing.T) {
	t.Setenv("XDG_CACHE_HOME", t.TempDir())
	dir, sp := videoSplit(t) // the real ffprobe checks the videos at load
	bin, runs := t.TempDir(), filepath.Join(t.TempDir(), "runs")
	script := "#!/bin/sh\necho \"$*\" >> '" + runs + "'\necho 'simulated decoder failure' >&2\nexit 1\n"
	if err := os.WriteFile(filepath.Join(bin, "ffmpeg"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", bin+string(os.PathListSeparator)+os.Getenv("PATH"))
	video := -1
	s := ratesession.New(sp, dir, false, nil, "rater", nil)
	for pos := range 4 {
		if s.ItemAt(pos).Video != "" {
			video = pos
			break
		}
	}
	m := rateWindow(t, test.NewTempApp(t), openTestStore(t), dir, "rater")
	p := m.rate
	m.settle()
	show := func(pos int) {
		p.goTo(pos)
		m.settle()
	}
	show(video)
	it := p.s.Item()
	countRuns := func() int {
		b, _ := os.ReadFile(runs)
		return strings.Count(string(b), it.Video)
	}
	first := countRuns()
	if first == 0 || len(it.Frames) != 0 {
		t.Fatalf("showing the video ran ffmpeg %d times and gave %d frames; want at least one run and none", first, len(it.Frames))
	}
	if !strings.Contains(p.output.note.Text, "simulated decoder failure") || !strings.Contains(m.Status.Text(), "simulated decoder failure") {
		t.Fatalf("the failure is not shown: output %q, status %q", p.output.note.Text, m.Status.Text())
	}
	for _, pos := range []int{(video + 1) % 4, video, (video + 3) % 4, video} {
		show(pos)
	}
	if n := countRuns(); n != first {
		t.Errorf("coming back to the failed video ran ffmpeg %d more times, want none", n-first)
	}
	if !strings.Contains(p.output.note.Text, "simulated decoder failure") || !strings.Contains(p.output.note.Text, "retry") {
		t.Errorf("back on the failed video the output says %q", p.output.note.Text)
	}
	p.load(dir, false, "rater")
	m.settle()
	show(video)
	if n := countRuns(); n == first {
		t.Error("opening the split again did not try the video again")
	}
}
