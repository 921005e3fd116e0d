package vigor

import (
	"context"
	"image/png"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// needFFmpeg skips where ffmpeg is absent (CI installs it: .ci/deps test).
func needFFmpeg(t *testing.T) {
	t.Helper()
	for _, tool := range []string{"ffmpeg", "ffprobe"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not installed; the video tests need it (Debian: apt install ffmpeg)", tool)
		}
	}
}

// videoSplit writes a split whose process item p-vid is a 3-second
// 320×240 test video, frames_from_video 5, and returns the folder.
func videoSplit(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.MkdirAll(filepath.Join(dir, "vid"), 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "testsrc=duration=3:size=320x240:rate=10",
		"-pix_fmt", "yuv420p", filepath.Join(dir, "vid", "out.mp4")).CombinedOutput()
	if err != nil {
		t.Fatalf("ffmpeg: %v\n%s", err, out)
	}
	grayPNG(t, filepath.Join(dir, "in.png"))
	sp := &Split{Name: "videos", Items: []Item{
		{ID: "p-vid", Track: TrackProcess, Domain: "Physical", Subdomain: "Sorting", Model: "video-model", Instruction: "sort",
			Input: "in.png", Video: "vid/out.mp4", FramesFromVideo: 5, GTText: "sorted"},
	}}
	if err := WriteSplit(dir, sp); err != nil {
		t.Fatal(err)
	}
	return dir
}

func grayPNG(t *testing.T, path string) {
	t.Helper()
	cmd := exec.Command("ffmpeg", "-nostdin", "-v", "error", "-f", "lavfi", "-i", "color=c=gray:size=8x8", "-frames:v", "1", path)
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("ffmpeg png: %v\n%s", err, out)
	}
}

func TestVideoFramesExtractedAndCached(t *testing.T) {
	needFFmpeg(t)
	dir := videoSplit(t)
	if probs := Check(dir); len(probs) != 0 {
		t.Fatalf("check of a good video split: %v", probs)
	}
	sp, err := Load(dir)
	if err != nil {
		t.Fatal(err)
	}
	it, _ := sp.Item("p-vid")
	cache := t.TempDir()
	before := extractions.Load()
	frames, err := sp.VideoFrames(context.Background(), it, cache)
	if err != nil {
		t.Fatal(err)
	}
	if len(frames) != 5 || extractions.Load() != before+1 {
		t.Fatalf("%d frames, %d extractions", len(frames), extractions.Load()-before)
	}
	mtimes := make([]time.Time, len(frames))
	for i, f := range frames {
		if !strings.HasPrefix(f, cache) {
			t.Errorf("frame %s is outside the cache %s", f, cache)
		}
		fh, err := os.Open(f)
		if err != nil {
			t.Fatal(err)
		}
		cfg, err := png.DecodeConfig(fh)
		fh.Close()
		if err != nil || cfg.Width != 320 || cfg.Height != 240 {
			t.Errorf("frame %d: %v %dx%d", i, err, cfg.Width, cfg.Height)
		}
		fi, _ := os.Stat(f)
		mtimes[i] = fi.ModTime()
	}
	// The folder is named by the video's SHA-256 and the frame count.
	sum, _ := fileSHA256(filepath.Join(dir, "vid", "out.mp4"))
	if filepath.Base(filepath.Dir(frames[0])) != sum+"-5" {
		t.Errorf("cache folder %s, want %s-5", filepath.Dir(frames[0]), sum)
	}
	// Frames at (i + 0.5)·3/5 s differ: testsrc's counter moves.
	a, _ := os.ReadFile(frames[0])
	b, _ := os.ReadFile(frames[4])
	if string(a) == string(b) {
		t.Error("the first and last frames are identical")
	}

	// A second call reuses the cache: no extraction, files untouched.
	again, err := sp.VideoFrames(context.Background(), it, cache)
	if err != nil {
		t.Fatal(err)
	}
	if extractions.Load() != before+1 {
		t.Error("the second call extracted again")
	}
	for i, f := range again {
		fi, err := os.Stat(f)
		if err != nil || f != frames[i] || !fi.ModTime().Equal(mtimes[i]) {
			t.Errorf("frame %d changed on reuse: %s %v", i, f, err)
		}
	}
	// The rater's view: Frames filled from the cache, still no extraction.
	if err := sp.ResolveVideoFrames(context.Background(), cache); err != nil || len(it.Frames) != 5 || it.Frames[4] != frames[4] {
		t.Errorf("resolved frames %v: %v", it.Frames, err)
	}
	if extractions.Load() != before+1 {
		t.Error("resolving the frames extracted again")
	}
	// No temporary extraction folder is left behind.
	entries, _ := os.ReadDir(cache)
	if len(entries) != 1 {
		t.Errorf("cache holds %d entries, want 1", len(entries))
	}

	// The split's default frame count applies to an item without its own.
	it.FramesFromVideo = 0
	if n := sp.VideoFrameCount(it); n != DefaultVideoFrames {
		t.Errorf("default frame count %d", n)
	}
}

func TestVideoCheckRefuses(t *testing.T) {
	needFFmpeg(t)
	dir := videoSplit(t)
	video := filepath.Join(dir, "vid", "out.mp4")
	data, err := os.ReadFile(video)
	if err != nil {
		t.Fatal(err)
	}

	// Too long and too large, by lowered limits.
	sp, _ := Load(dir)
	for _, c := range []struct {
		lim  VideoLimits
		want string
	}{
		{VideoLimits{MaxSeconds: 2, MaxSide: 4096, MaxBytes: 1 << 30}, "lasts 3.0 s; videos over 2 s are refused"},
		{VideoLimits{MaxSeconds: 600, MaxSide: 300, MaxBytes: 1 << 30}, "is 320×240; videos over 300×300 are refused"},
		{VideoLimits{MaxSeconds: 600, MaxSide: 4096, MaxBytes: 10}, "MiB are refused"},
	} {
		probs := checkVideos(context.Background(), sp, c.lim)
		if len(probs) != 1 || probs[0].Item != "p-vid" || !probs[0].Fatal || !strings.Contains(probs[0].Msg, c.want) {
			t.Errorf("limits %+v: %v", c.lim, probs)
		}
	}

	// A truncated video is refused by `vigor check`, naming the item.
	if err := os.WriteFile(video, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	probs := Check(dir)
	if len(probs) != 1 || !probs[0].Fatal || probs[0].Item != "p-vid" || probs[0].Field != "video" ||
		!strings.Contains(probs[0].String(), `item p-vid: video: "vid/out.mp4" `) {
		t.Fatalf("check of a truncated video: %v", probs)
	}
	t.Logf("truncated: %s", probs[0])
	if _, err := sp.VideoFrames(context.Background(), &sp.Items[0], t.TempDir()); err == nil || !strings.Contains(err.Error(), "p-vid") {
		t.Errorf("frames of a truncated video: %v", err)
	}

	// Without ffmpeg: one clear problem.
	t.Setenv("PATH", t.TempDir())
	probs = Check(dir)
	if len(probs) != 1 || !strings.Contains(probs[0].Msg, "ffmpeg is not installed") {
		t.Errorf("check without ffmpeg: %v", probs)
	}
}

func TestVideoFieldsParsed(t *testing.T) {
	item := func(extra string) string {
		return `{"format":"jigbench.vigor-split/v1","name":"v","items":[{"id":"p1","track":"process","domain":"d","subdomain":"s",
			"model":"m","instruction":"i","input":"in.png","gt_text":"t"` + extra + `}]}`
	}
	for extra, want := range map[string]string{
		`,"video":"a.mp4"`:                         "",
		`,"video":"a.MOV","frames_from_video":8`:   "",
		`,"video":"a.webm"`:                        "",
		`,"video":"a.avi"`:                         `video: "a.avi" is not an .mp4, .webm, .mov file`,
		`,"video":"../a.mp4"`:                      "leaves the split folder",
		`,"video":"a.mp4","frames":["f.png"]`:      "give one of frames and video",
		`,"video":"a.mp4","frames_from_video":0`:   "",
		`,"video":"a.mp4","frames_from_video":-1`:  "frames_from_video: is -1",
		`,"video":"a.mp4","frames_from_video":999`: "want 1 to 256 frames",
		`,"video":"a.mp4","frames_from_video":"x"`: "frames_from_video: want a whole number",
		``: "a process item needs at least one frame or a video",
	} {
		_, probs := ParseSplit([]byte(item(extra)))
		var fatal []string
		for _, p := range probs {
			if p.Fatal {
				fatal = append(fatal, p.String())
			}
		}
		switch {
		case want == "" && len(fatal) > 0:
			t.Errorf("%s: %v", extra, fatal)
		case want != "" && (len(fatal) != 1 || !strings.Contains(fatal[0], want)):
			t.Errorf("%s: %v, want %q", extra, fatal, want)
		}
	}
	sp, probs := ParseSplit([]byte(`{"format":"jigbench.vigor-split/v1","name":"v","frames_from_video":4,"items":[{"id":"p1","track":"process",
		"domain":"d","subdomain":"s","model":"m","instruction":"i","input":"in.png","gt_text":"t","video":"a.mp4"}]}`))
	if len(probs) != 0 || sp.VideoFrameCount(&sp.Items[0]) != 4 {
		t.Errorf("split frame count: %v %d", probs, sp.VideoFrameCount(&sp.Items[0]))
	}
}
