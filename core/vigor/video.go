package vigor

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path"
	"path/filepath"
	"strconv"
	"strings"
	"sync/atomic"
)

// Video outputs (vigor.md §7, docs/vigor-campaign.md): a process item may
// name a video instead of frames; the rater sees F evenly spaced frames,
// frame i taken at (i + 0.5)·duration/F, extracted once with ffmpeg into a
// cache keyed by the video's SHA-256.

// DefaultVideoFrames is F unless the item or the split says otherwise.
const DefaultVideoFrames = 16

// maxVideoFrames bounds F: a rater scrubs frames, not a film.
const maxVideoFrames = 256

// VideoExtensions are the video containers a split may name.
var VideoExtensions = []string{".mp4", ".webm", ".mov"}

// VideoLimits are what `vigor check` accepts.
type VideoLimits struct {
	MaxSeconds float64 // duration
	MaxSide    int     // width and height, pixels
	MaxBytes   int64   // file size
}

// DefaultVideoLimits: 10 minutes, 4096×4096 (docs/vigor-campaign.md, "Videos"), 4 GiB.
var DefaultVideoLimits = VideoLimits{MaxSeconds: 600, MaxSide: 4096, MaxBytes: 4 << 30}

// ErrNoFFmpeg is returned where ffmpeg or ffprobe is not installed.
var ErrNoFFmpeg = errors.New("ffmpeg is not installed (it reads video outputs): install it, e.g. 'apt install ffmpeg' on Debian or Ubuntu, and make sure ffmpeg and ffprobe are on PATH")

func checkFrameCount(n int) string {
	if n < 0 || n > maxVideoFrames || n == 0 {
		return fmt.Sprintf("is %d; want 1 to %d frames", n, maxVideoFrames)
	}
	return ""
}

// checkVideoFields checks a process item's frames/video choice.
func checkVideoFields(label string, it *Item) []Problem {
	var probs []Problem
	fatal := func(field, format string, a ...any) {
		probs = append(probs, Problem{Item: label, Field: field, Msg: fmt.Sprintf(format, a...), Fatal: true})
	}
	switch {
	case len(it.Frames) == 0 && it.Video == "":
		fatal("frames", "missing; a process item needs at least one frame or a video")
	case len(it.Frames) > 0 && it.Video != "":
		fatal("video", "given with frames; give one of frames and video")
	case it.Video != "" && !isVideoPath(it.Video):
		fatal("video", "%q is not an %s file", it.Video, strings.Join(VideoExtensions, ", "))
	}
	if it.FramesFromVideo != 0 {
		if msg := checkFrameCount(it.FramesFromVideo); msg != "" {
			fatal("frames_from_video", "%s", msg)
		}
	}
	return probs
}

func isVideoPath(p string) bool {
	ext := strings.ToLower(path.Ext(p))
	for _, e := range VideoExtensions {
		if ext == e {
			return true
		}
	}
	return false
}

// VideoFrameCount is F for item it.
func (s *Split) VideoFrameCount(it *Item) int {
	switch {
	case it.FramesFromVideo > 0:
		return it.FramesFromVideo
	case s.FramesFromVideo > 0:
		return s.FramesFromVideo
	}
	return DefaultVideoFrames
}

// VideoInfo is what ffprobe says about a video.
type VideoInfo struct {
	Width, Height int
	Seconds       float64
}

// ProbeVideo opens the video at file with ffprobe.
func ProbeVideo(ctx context.Context, file string) (VideoInfo, error) {
	probe, err := exec.LookPath("ffprobe")
	if err != nil {
		return VideoInfo{}, ErrNoFFmpeg
	}
	cmd := exec.CommandContext(ctx, probe, "-v", "error", "-select_streams", "v:0",
		"-show_entries", "stream=width,height,duration:format=duration", "-of", "json", "--", file)
	var out, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &stderr
	if err := cmd.Run(); err != nil {
		return VideoInfo{}, fmt.Errorf("is not a readable video (%s)", firstLine(stderr.String(), err))
	}
	var res struct {
		Streams []struct {
			Width    int    `json:"width"`
			Height   int    `json:"height"`
			Duration string `json:"duration"`
		} `json:"streams"`
		Format struct {
			Duration string `json:"duration"`
		} `json:"format"`
	}
	if err := json.Unmarshal(out.Bytes(), &res); err != nil {
		return VideoInfo{}, fmt.Errorf("is not a readable video (ffprobe said %v)", err)
	}
	if len(res.Streams) == 0 {
		return VideoInfo{}, errors.New("has no video stream")
	}
	st := res.Streams[0]
	info := VideoInfo{Width: st.Width, Height: st.Height}
	for _, d := range []string{st.Duration, res.Format.Duration} {
		if v, err := strconv.ParseFloat(d, 64); err == nil && v > 0 {
			info.Seconds = v
			break
		}
	}
	if info.Width <= 0 || info.Height <= 0 {
		return info, errors.New("has a video stream with no picture size")
	}
	if info.Seconds <= 0 {
		return info, errors.New("has no duration; it may be truncated")
	}
	return info, nil
}

func firstLine(s string, err error) string {
	s = strings.TrimSpace(s)
	if s == "" {
		return err.Error()
	}
	line, _, _ := strings.Cut(s, "\n")
	return clip(line, 160)
}

// checkVideos opens every video of the split with ffprobe and refuses one
// that is unreadable or beyond lim. Without ffprobe it reports that once.
func checkVideos(ctx context.Context, s *Split, lim VideoLimits) []Problem {
	var probs []Problem
	for i := range s.Items {
		it := &s.Items[i]
		if it.Track != TrackProcess || it.Video == "" || checkRelPath(it.Video) != nil || !isVideoPath(it.Video) {
			continue
		}
		file, err := s.localFile(it.Video)
		if err != nil {
			continue // checkFiles reported it
		}
		fatal := func(format string, a ...any) {
			probs = append(probs, Problem{Item: it.ID, Field: "video", Msg: fmt.Sprintf("%q ", it.Video) + fmt.Sprintf(format, a...), Fatal: true})
		}
		if fi, err := os.Stat(file); err == nil && fi.Size() > lim.MaxBytes {
			fatal("is %d MiB; videos over %d MiB are refused", fi.Size()>>20, lim.MaxBytes>>20)
			continue
		}
		info, err := ProbeVideo(ctx, file)
		switch {
		case errors.Is(err, ErrNoFFmpeg):
			return append(probs, Problem{Field: "video", Msg: err.Error(), Fatal: true})
		case err != nil:
			fatal("%v", err)
		case info.Seconds > lim.MaxSeconds:
			fatal("lasts %.1f s; videos over %.0f s are refused", info.Seconds, lim.MaxSeconds)
		case info.Width > lim.MaxSide || info.Height > lim.MaxSide:
			fatal("is %d×%d; videos over %d×%d are refused", info.Width, info.Height, lim.MaxSide, lim.MaxSide)
		}
	}
	return probs
}

// localFile is the real path of rel inside the split folder; it refuses a
// path that leads outside, also through a symbolic link (the check ffmpeg,
// which opens files by name, relies on).
func (s *Split) localFile(rel string) (string, error) {
	if err := checkRelPath(rel); err != nil {
		return "", err
	}
	realDir, err := filepath.EvalSymlinks(s.Dir)
	if err != nil {
		return "", err
	}
	real, err := filepath.EvalSymlinks(filepath.Join(s.Dir, filepath.FromSlash(rel)))
	if err != nil {
		return "", fmt.Errorf("%q cannot be opened inside the split folder: %v", rel, err)
	}
	if r, err := filepath.Rel(realDir, real); err != nil || !filepath.IsLocal(r) {
		return "", fmt.Errorf("%q leads outside the split folder", rel)
	}
	return real, nil
}

// DefaultVideoCacheDir is where extracted frames are kept: the user cache
// folder's jigbench/video-frames.
func DefaultVideoCacheDir() (string, error) {
	dir, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("find the cache folder for video frames: %w", err)
	}
	return filepath.Join(dir, "jigbench", "video-frames"), nil
}

// extractions counts ffmpeg frame extractions (tests check cache reuse).
var extractions atomic.Int64

// VideoExtractions is the number of frame sets this process has taken
// from videos with ffmpeg (a cache hit takes none): tests count them.
func VideoExtractions() int64 { return extractions.Load() }

// VideoFrames returns the paths of item it's F frames, extracting them
// into cacheDir ("" for DefaultVideoCacheDir) under the video's SHA-256
// the first time. A cached set is complete or absent: frames are written
// to a temporary folder that is renamed into place.
func (s *Split) VideoFrames(ctx context.Context, it *Item, cacheDir string) ([]string, error) {
	if it.Video == "" {
		return nil, fmt.Errorf("item %s: not a video item", it.ID)
	}
	fail := func(err error) ([]string, error) {
		return nil, fmt.Errorf("item %s: video %q: %w", it.ID, it.Video, err)
	}
	if cacheDir == "" {
		var err error
		if cacheDir, err = DefaultVideoCacheDir(); err != nil {
			return fail(err)
		}
	}
	file, err := s.localFile(it.Video)
	if err != nil {
		return fail(err)
	}
	sum, err := fileSHA256(file)
	if err != nil {
		return fail(err)
	}
	n := s.VideoFrameCount(it)
	dir := filepath.Join(cacheDir, fmt.Sprintf("%s-%d", sum, n))
	names := make([]string, n)
	for i := range names {
		names[i] = filepath.Join(dir, fmt.Sprintf("%03d.png", i))
	}
	if cached(names) {
		return names, nil
	}
	info, err := ProbeVideo(ctx, file)
	if err != nil {
		return fail(err)
	}
	ffmpeg, err := exec.LookPath("ffmpeg")
	if err != nil {
		return fail(ErrNoFFmpeg)
	}
	if err := os.MkdirAll(cacheDir, 0o755); err != nil {
		return fail(err)
	}
	tmp, err := os.MkdirTemp(cacheDir, ".extract-")
	if err != nil {
		return fail(err)
	}
	defer os.RemoveAll(tmp)
	extractions.Add(1)
	for i := range n {
		at := (float64(i) + 0.5) * info.Seconds / float64(n)
		out := filepath.Join(tmp, filepath.Base(names[i]))
		cmd := exec.CommandContext(ctx, ffmpeg, "-nostdin", "-v", "error", "-ss", strconv.FormatFloat(at, 'f', 3, 64),
			"-i", file, "-frames:v", "1", "-y", out)
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fail(fmt.Errorf("ffmpeg could not take frame %d at %.3f s (%s)", i, at, firstLine(stderr.String(), err)))
		}
		if _, err := os.Stat(out); err != nil {
			return fail(fmt.Errorf("ffmpeg gave no frame %d at %.3f s", i, at))
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if cached(names) { // another process extracted it meanwhile
			return names, nil
		}
		return fail(err)
	}
	return names, nil
}

func cached(names []string) bool {
	for _, n := range names {
		if fi, err := os.Stat(n); err != nil || !fi.Mode().IsRegular() || fi.Size() == 0 {
			return false
		}
	}
	return true
}

func fileSHA256(file string) (string, error) {
	f, err := os.Open(file)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// ResolveVideoFrames sets Frames of every video item to its extracted
// frames (absolute paths into cacheDir, "" for the default), extracting
// what the cache lacks, so a rater scrubs a video's frames as any other
// process item's. The first open of a split of videos takes a while; the
// next ones read the cache.
func (s *Split) ResolveVideoFrames(ctx context.Context, cacheDir string) error {
	for i := range s.Items {
		it := &s.Items[i]
		if it.Track != TrackProcess || it.Video == "" {
			continue
		}
		frames, err := s.VideoFrames(ctx, it, cacheDir)
		if err != nil {
			return err
		}
		it.Frames = frames
	}
	return nil
}
