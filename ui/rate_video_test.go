package ui

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"github.com/jigbench/jigbench/core/vigor"
)

// A process item given as a video: Rate shows its frames, extracted into
// the user cache folder, and scrubs them as any frames.
func TestRateShowsVideoFrames(t *testing.T) {
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; this test needs it (Debian: apt install ffmpeg)", tool)
		}
	}
	cache := t.TempDir()
	t.Setenv("XDG_CACHE_HOME", cache) // os.UserCacheDir on Linux
	dir := t.TempDir()
	os.MkdirAll(filepath.Join(dir, "vid"), 0o755)
	for _, args := range [][]string{
		{"-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=10", "-pix_fmt", "yuv420p", filepath.Join(dir, "vid", "out.mp4")},
		{"-f", "lavfi", "-i", "color=c=gray:size=64x48", "-frames:v", "1", filepath.Join(dir, "in.png")},
	} {
		if out, err := exec.Command("ffmpeg", append([]string{"-nostdin", "-v", "error"}, args...)...).CombinedOutput(); err != nil {
			t.Fatalf("ffmpeg: %v\n%s", err, out)
		}
	}
	sp := &vigor.Split{Name: "video-split", FramesFromVideo: 4, Items: []vigor.Item{{ID: "p-vid", Track: vigor.TrackProcess,
		Domain: "Physical", Subdomain: "Sorting", Model: "m", Instruction: "sort", Input: "in.png", Video: "vid/out.mp4", GTText: "sorted"}}}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	m := rateWindow(t, test.NewTempApp(t), openTestStore(t), dir, "vera")
	p := m.rate
	it := p.current()
	if it == nil || len(it.Frames) != 4 {
		t.Fatalf("video item shows %v (status %q)", it, m.Status.Text())
	}
	if !strings.HasPrefix(p.output.want, filepath.Join(cache, "jigbench", "video-frames")) || !strings.HasSuffix(p.output.want, "000.png") {
		t.Fatalf("shows %s, want the first cached frame", p.output.want)
	}
	typeRunes(m, ".")
	if !strings.HasSuffix(p.output.want, "001.png") || p.output.caption.Text != "Output: frame 2 of 4" {
		t.Fatalf("after '.' shows %s, caption %q", p.output.want, p.output.caption.Text)
	}
}
