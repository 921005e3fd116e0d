package dataset

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/jpeg"
	"image/png"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

// testImage paints a small busy picture that differs with seed.
func testImage(seed uint64, w, h int) *image.RGBA {
	r := rand.New(rand.NewPCG(seed, 99))
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := range h {
		for x := range w {
			img.Set(x, y, color.RGBA{uint8(x * 255 / w), uint8(y * 255 / h), uint8(seed * 37), 255})
		}
	}
	for range 12 {
		x0, y0 := r.IntN(w), r.IntN(h)
		x1, y1 := x0+10+r.IntN(w/2), y0+10+r.IntN(h/2)
		c := color.RGBA{uint8(r.IntN(256)), uint8(r.IntN(256)), uint8(r.IntN(256)), 255}
		for y := y0; y < min(y1, h); y++ {
			for x := x0; x < min(x1, w); x++ {
				img.Set(x, y, c)
			}
		}
	}
	return img
}

func encode(t testing.TB, img image.Image, ext string) []byte {
	t.Helper()
	var b bytes.Buffer
	var err error
	if ext == ".jpg" {
		err = jpeg.Encode(&b, img, &jpeg.Options{Quality: 85})
	} else {
		err = png.Encode(&b, img)
	}
	if err != nil {
		t.Fatal(err)
	}
	return b.Bytes()
}

// writeImages writes n distinct images (PNG and JPEG alternately) named
// img-00.png, img-01.jpg, … into dir and returns their file names.
func writeImages(t testing.TB, dir string, first, n int) []string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	var names []string
	for i := first; i < first+n; i++ {
		ext := []string{".png", ".jpg"}[i%2]
		name := fmt.Sprintf("img-%02d%s", i, ext)
		if err := os.WriteFile(filepath.Join(dir, name), encode(t, testImage(uint64(i), 320, 256), ext), 0o644); err != nil {
			t.Fatal(err)
		}
		names = append(names, name)
	}
	return names
}

func testConfig(images, out string, workers int) Config {
	c := DefaultConfig()
	c.Images, c.Out, c.Workers = images, out, workers
	c.Grids = []int{8, 4} // unsorted on purpose
	c.Seed = 7
	c.EvalFraction = 0.4
	c.Options.Size = 128
	return c
}

func mustRun(t testing.TB, c Config) *Result {
	t.Helper()
	res, err := Run(context.Background(), c)
	if err != nil {
		t.Fatalf("Run: %v", err)
	}
	return res
}

// tree maps every file under dir (relative, slash-separated) to its SHA-256.
func tree(t testing.TB, dir string) map[string][32]byte {
	t.Helper()
	m := map[string][32]byte{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = sha256.Sum256(data)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// sameTree fails unless a and b hold the same files with the same bytes.
func sameTree(t testing.TB, what string, a, b string) {
	t.Helper()
	ta, tb := tree(t, a), tree(t, b)
	var diffs []string
	for k, v := range ta {
		if w, ok := tb[k]; !ok {
			diffs = append(diffs, "only in first: "+k)
		} else if v != w {
			diffs = append(diffs, "differs: "+k)
		}
	}
	for k := range tb {
		if _, ok := ta[k]; !ok {
			diffs = append(diffs, "only in second: "+k)
		}
	}
	slices.Sort(diffs)
	if len(diffs) > 0 {
		t.Fatalf("%s: trees differ (%d files vs %d):\n%s", what, len(ta), len(tb), strings.Join(diffs[:min(20, len(diffs))], "\n"))
	}
	if len(ta) == 0 {
		t.Fatalf("%s: empty tree", what)
	}
}

func TestDatasetWorkersAndShardsGiveIdenticalTrees(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 7)

	one := filepath.Join(root, "one")
	res := mustRun(t, testConfig(images, one, 1))
	if res.Instances != 14 || res.Generated != 14 || len(res.Errors) != 0 || res.Train+res.Eval != 14 {
		t.Fatalf("1 worker: %+v", res)
	}
	entries, err := ReadManifest(filepath.Join(one, FileManifest))
	if err != nil {
		t.Fatal(err)
	}
	if !slices.IsSortedFunc(entries, func(a, b Entry) int {
		if c := strings.Compare(a.Source, b.Source); c != 0 {
			return c
		}
		return a.Grid - b.Grid
	}) || entries[0].Grid != 4 || entries[1].Grid != 8 {
		t.Fatalf("manifest is not in source, grid order: %+v", entries[:2])
	}
	for _, e := range entries {
		if e.Path != e.ID || !slices.Equal(e.Files, InstanceFiles) || e.SourceFile != e.Source+filepath.Ext(e.SourceFile) {
			t.Fatalf("manifest entry %+v", e)
		}
		inst, err := puzzle.ReadInstance(filepath.Join(one, e.Path, "instance.json"))
		if err != nil || inst.Seed != e.Seed || inst.Source.SHA256 != e.SourceSHA256 || inst.ID != e.ID {
			t.Fatalf("%s: instance.json %v disagrees with its manifest line", e.ID, err)
		}
	}

	two := filepath.Join(root, "two")
	mustRun(t, testConfig(images, two, 2))
	sameTree(t, "1 vs 2 workers", one, two)

	// Two shards writing into one folder, then merged in place.
	shared := filepath.Join(root, "shared")
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			c := testConfig(images, shared, 1)
			c.Shard = Shard{i, 2}
			if _, err := Run(context.Background(), c); err != nil {
				t.Errorf("shard %d/2: %v", i, err)
			}
		})
	}
	wg.Wait()
	if _, err := os.Stat(filepath.Join(shared, FileManifest)); err == nil {
		t.Fatal("a shard wrote the full manifest")
	}
	mr, err := Merge(context.Background(), shared, nil)
	if err != nil {
		t.Fatal(err)
	}
	if mr.Instances != 14 || mr.Shards != 2 || mr.Copied != 0 {
		t.Fatalf("merge: %+v", mr)
	}
	sameTree(t, "2 shards in one folder + merge vs 1 worker", one, shared)

	// Three shards in folders of their own, merged into a new folder.
	var parts []string
	for i := range 3 {
		d := filepath.Join(root, fmt.Sprintf("part%d", i))
		c := testConfig(images, d, 2)
		c.Shard = Shard{i, 3}
		mustRun(t, c)
		parts = append(parts, d)
	}
	merged := filepath.Join(root, "merged")
	mr, err = Merge(context.Background(), merged, parts)
	if err != nil {
		t.Fatal(err)
	}
	if mr.Copied != 14 {
		t.Fatalf("merge from shard folders copied %d folders, want 14", mr.Copied)
	}
	sameTree(t, "3 shard folders merged vs 1 worker", one, merged)
}

func TestDatasetResumesAfterCancel(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 5)
	clean := filepath.Join(root, "clean")
	mustRun(t, testConfig(images, clean, 2))

	out := filepath.Join(root, "out")
	ctx, cancel := context.WithCancel(context.Background())
	c := testConfig(images, out, 2)
	var seen []progress.Report
	c.Progress = func(p progress.Report) {
		seen = append(seen, p)
		if p.Done >= 3 { // a fresh folder: every instance done is generated
			cancel()
		}
	}
	res, err := Run(ctx, c)
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("cancelled run returned %v", err)
	}
	if _, err := os.Stat(filepath.Join(out, FileManifest)); err == nil {
		t.Fatal("a cancelled run wrote the manifest")
	}
	if res.Generated < 3 || res.Generated >= 10 {
		t.Fatalf("cancelled after %d instances", res.Generated)
	}
	last := seen[len(seen)-1]
	if seen[0].Done != 0 || seen[0].Total != 10 {
		t.Fatalf("progress: first %+v last %+v", seen[0], last)
	}
	if !strings.Contains(last.Detail, "/s · ETA") { // the rate and ETA are known
		t.Fatalf("progress line %q", last.Detail)
	}

	// What a kill mid-write leaves: a temporary instance folder and manifest.
	for _, p := range []string{".img-00-g4-s1.tmp-123/shape.png", ".manifest.jsonl.tmp-456"} {
		os.MkdirAll(filepath.Dir(filepath.Join(out, p)), 0o755)
		if err := os.WriteFile(filepath.Join(out, p), []byte("partial"), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c.Progress = nil
	res2 := mustRun(t, c)
	if res2.Resumed != res.Generated || res2.Generated != 10-res.Generated {
		t.Fatalf("resume: %d resumed, %d generated; the first run made %d", res2.Resumed, res2.Generated, res.Generated)
	}
	sameTree(t, "cancelled + resumed vs clean", clean, out)
}

// TestDatasetKillHelper is the child process of TestDatasetResumesAfterKill.
func TestDatasetKillHelper(t *testing.T) {
	out := os.Getenv("JIGBENCH_KILL_OUT")
	if out == "" {
		t.Skip("child process of TestDatasetResumesAfterKill")
	}
	k, _ := strconv.Atoi(os.Getenv("JIGBENCH_KILL_AFTER"))
	c := testConfig(os.Getenv("JIGBENCH_KILL_IMAGES"), out, 2)
	c.Progress = func(p progress.Report) {
		if p.Done >= int64(k) { // a fresh folder: every instance done is generated
			self, _ := os.FindProcess(os.Getpid())
			self.Kill() // SIGKILL: no cleanup, the other worker mid-write
		}
	}
	Run(context.Background(), c)
	t.Fatal("not killed")
}

func TestDatasetResumesAfterKill(t *testing.T) {
	if testing.Short() {
		t.Skip("starts a child process")
	}
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 5)
	clean := filepath.Join(root, "clean")
	mustRun(t, testConfig(images, clean, 1))

	out := filepath.Join(root, "out")
	cmd := exec.Command(os.Args[0], "-test.run=^TestDatasetKillHelper$", "-test.count=1")
	cmd.Env = append(os.Environ(), "JIGBENCH_KILL_OUT="+out, "JIGBENCH_KILL_IMAGES="+images, "JIGBENCH_KILL_AFTER=4")
	outText, err := cmd.CombinedOutput()
	if err == nil || cmd.ProcessState.Success() {
		t.Fatalf("child was not killed: %v\n%s", err, outText)
	}
	if _, err := os.Stat(filepath.Join(out, FileManifest)); err == nil {
		t.Fatal("a killed run left a manifest")
	}
	res := mustRun(t, testConfig(images, out, 2))
	if res.Resumed < 4 || res.Resumed+res.Generated != 10 {
		t.Fatalf("after the kill: %d resumed, %d generated", res.Resumed, res.Generated)
	}
	sameTree(t, "killed + resumed vs clean", clean, out)
}

func TestDatasetSplitsBySourceImage(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 8)
	// The same bytes under another name must share the split of the original.
	data, err := os.ReadFile(filepath.Join(images, "img-03.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(images, "copy-of-03.jpg"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	c := testConfig(images, filepath.Join(root, "out"), 2)
	c.EvalFraction = 0.5
	mustRun(t, c)
	entries, err := ReadManifest(filepath.Join(c.Out, FileManifest))
	if err != nil {
		t.Fatal(err)
	}
	byName, bySHA := map[string]string{}, map[string]string{}
	count := map[string]int{}
	for _, e := range entries {
		for _, m := range []struct {
			split map[string]string
			key   string
		}{{byName, e.Source}, {bySHA, e.SourceSHA256}} {
			if s, ok := m.split[m.key]; ok && s != e.Split {
				t.Fatalf("source %s (%s) is in both splits", e.Source, e.SourceSHA256[:8])
			}
			m.split[m.key] = e.Split
		}
		count[e.Split]++
		var sha [32]byte
		if b, err := hex.DecodeString(e.SourceSHA256); err != nil || copy(sha[:], b) != 32 {
			t.Fatalf("source_sha256 %q", e.SourceSHA256)
		}
		if want := SplitOf(c.Seed, sha, c.EvalFraction); e.Split != want {
			t.Fatalf("%s: split %s, SplitOf says %s", e.ID, e.Split, want)
		}
	}
	if count[SplitTrain] == 0 || count[SplitEval] == 0 || len(byName) != 9 {
		t.Fatalf("splits %v over %d sources", count, len(byName))
	}

	// The fraction is the expectation over sources.
	eval := 0
	for i := range 20000 {
		if SplitOf(1, sha256.Sum256([]byte(strconv.Itoa(i))), 0.1) == SplitEval {
			eval++
		}
	}
	if eval < 1800 || eval > 2200 {
		t.Fatalf("eval share %d/20000 for fraction 0.1", eval)
	}
	if SplitOf(1, [32]byte{}, 0) != SplitTrain || SplitOf(1, [32]byte{}, 1) != SplitEval {
		t.Fatal("fractions 0 and 1 must put everything in train and eval")
	}
}

func TestDatasetSkipsBadImagesByName(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 3)
	good, err := os.ReadFile(filepath.Join(images, "img-01.jpg"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(images, "sub"), 0o755); err != nil {
		t.Fatal(err)
	}
	bad := map[string][]byte{
		"notes.png":      []byte("this is a text file, not a picture\n"),
		"sub/broken.jpg": good[:len(good)/2],
		"tiny.png":       encode(t, testImage(50, 60, 60), ".png"), // 15-px pieces at grid 4, 7 at grid 8
		"readme.txt":     []byte("not an image extension: ignored"),
	}
	for name, data := range bad {
		if err := os.WriteFile(filepath.Join(images, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	c := testConfig(images, filepath.Join(root, "out"), 2)
	var reported []Issue
	c.OnIssue = func(is Issue) { reported = append(reported, is) }
	res := mustRun(t, c)

	if res.Instances != 3*2+1 {
		t.Fatalf("%d instances, want 7 (3 good images × 2 grids + tiny at grid 4)", res.Instances)
	}
	want := []string{"notes.png: ", "sub/broken.jpg: ", "tiny.png (grid 8): "}
	if len(res.Errors) != len(want) || len(reported) != len(want) {
		t.Fatalf("errors %v, reported %v", res.Errors, reported)
	}
	for i, w := range want {
		if !strings.HasPrefix(res.Errors[i].Error(), w) {
			t.Errorf("error %d is %q, want it to start %q", i, res.Errors[i].Error(), w)
		}
	}
	if !strings.Contains(res.Errors[0].Message, "not a PNG") || !strings.Contains(res.Errors[1].Message, "corrupt or truncated") {
		t.Errorf("messages: %q, %q", res.Errors[0].Message, res.Errors[1].Message)
	}
	if res.NoteCount != 1 || res.Notes[0].File != "tiny.png" || !strings.Contains(res.Notes[0].Message, "not enlarged") {
		t.Errorf("notes %v", res.Notes)
	}
}

func TestDatasetSeedIgnoresOtherImages(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 3)
	a := filepath.Join(root, "a")
	mustRun(t, testConfig(images, a, 2))

	// Add two images and remove one: the others' instances must not move.
	writeImages(t, images, 3, 2)
	if err := os.Remove(filepath.Join(images, "img-01.jpg")); err != nil {
		t.Fatal(err)
	}
	b := filepath.Join(root, "b")
	mustRun(t, testConfig(images, b, 2))

	ea, _ := ReadManifest(filepath.Join(a, FileManifest))
	eb, _ := ReadManifest(filepath.Join(b, FileManifest))
	lines := map[string]string{}
	for _, e := range eb {
		lines[e.ID] = string(e.marshal())
	}
	kept := 0
	for _, e := range ea {
		if e.Source == "img-01" {
			continue
		}
		if lines[e.ID] != string(e.marshal()) {
			t.Fatalf("%s changed when images were added:\n%s\n%s", e.ID, e.marshal(), lines[e.ID])
		}
		ta, tb := tree(t, filepath.Join(a, e.ID)), tree(t, filepath.Join(b, e.ID))
		if fmt.Sprint(ta) != fmt.Sprint(tb) {
			t.Fatalf("%s: files changed when images were added", e.ID)
		}
		kept++
	}
	if kept != 4 || len(eb) != 8 {
		t.Fatalf("kept %d, second run %d instances", kept, len(eb))
	}

	// The derivation is pinned: README "Datasets" documents it.
	var sha [32]byte
	for i := range sha {
		sha[i] = byte(i)
	}
	if s := InstanceSeed(42, sha, 8); s != InstanceSeed(42, sha, 8) || s == InstanceSeed(43, sha, 8) ||
		s == InstanceSeed(42, sha, 12) || s > 0xffffffff {
		t.Fatalf("InstanceSeed %d", s)
	}
}

func TestDatasetRejectsCollidingNamesAndOtherSettings(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 2)
	for _, p := range []string{"a/cat.png", "b/cat.jpg"} {
		if err := os.MkdirAll(filepath.Dir(filepath.Join(images, p)), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(images, p), encode(t, testImage(9, 320, 256), filepath.Ext(p)), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The output folder inside the images folder must not be read as sources.
	out := filepath.Join(images, "out")
	c := testConfig(images, out, 2)
	res := mustRun(t, c)
	if res.Instances != 4 || len(res.Errors) != 2 || res.Errors[0].File != "a/cat.png" ||
		!strings.Contains(res.Errors[0].Message, "b/cat.jpg") {
		t.Fatalf("collision: %d instances, errors %v", res.Instances, res.Errors)
	}
	res = mustRun(t, c) // a rerun finds everything done and does not scan out/
	if res.Resumed != 4 || res.Generated != 0 || len(res.Errors) != 2 {
		t.Fatalf("rerun: %+v", res)
	}

	c.Seed = 8
	if _, err := Run(context.Background(), c); err == nil || !strings.Contains(err.Error(), "other settings") {
		t.Fatalf("a different seed into the same folder: %v", err)
	}
}

func TestDatasetMergeReportsMissingAndDuplicateShards(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeImages(t, images, 0, 4)
	out := filepath.Join(root, "out")
	for _, i := range []int{0, 2} {
		c := testConfig(images, out, 2)
		c.Shard = Shard{i, 3}
		mustRun(t, c)
	}
	_, err := Merge(context.Background(), out, nil)
	if err == nil || !strings.Contains(err.Error(), "1/3") {
		t.Fatalf("merge with shard 1/3 missing: %v", err)
	}
	// The same shard found twice.
	c := testConfig(images, filepath.Join(root, "again"), 2)
	c.Shard = Shard{2, 3}
	mustRun(t, c)
	_, err = Merge(context.Background(), out, []string{c.Out})
	if err == nil || !strings.Contains(err.Error(), "twice") {
		t.Fatalf("merge with shard 2/3 twice: %v", err)
	}
	// Shards of different runs.
	c.Shard = Shard{1, 2}
	mustRun(t, c)
	if _, err = Merge(context.Background(), out, []string{c.Out}); err == nil {
		t.Fatal("merged shards of 3 with a shard of 2")
	}
}

func TestDatasetDemoImages(t *testing.T) {
	c := DefaultConfig()
	c.DemoCount = len(demo.Names()) + 1
	c.Out = t.TempDir()
	if err := c.Validate(); err == nil || !strings.Contains(err.Error(), "only") {
		t.Fatalf("demo count above the number of demo images: %v", err)
	}
	if testing.Short() {
		t.Skip("renders a demo scene")
	}
	c.DemoCount, c.Grids, c.Options.Size = 1, []int{4}, 256
	res := mustRun(t, c)
	entries, err := ReadManifest(res.Manifest)
	if err != nil || len(entries) != 1 || entries[0].Source != demo.Names()[0] || entries[0].SourceFile != demo.Names()[0] {
		t.Fatalf("demo dataset: %v %+v", err, entries)
	}
}

func TestDatasetParseShard(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Shard
		ok   bool
	}{
		{"0/1", Shard{0, 1}, true}, {"3/8", Shard{3, 8}, true},
		{"8/8", Shard{}, false}, {"-1/4", Shard{}, false}, {"1", Shard{}, false}, {"a/b", Shard{}, false},
	} {
		got, err := ParseShard(tc.in)
		if (err == nil) != tc.ok || (tc.ok && got != tc.want) {
			t.Errorf("ParseShard(%q) = %v, %v", tc.in, got, err)
		}
	}
	// Shards split the names about evenly and never change with the listing.
	counts := make([]int, 4)
	for i := range 4000 {
		counts[ShardOf(fmt.Sprintf("img-%05d", i), 4)]++
	}
	for _, n := range counts {
		if n < 900 || n > 1100 {
			t.Fatalf("shard sizes %v", counts)
		}
	}
}

// FuzzParseShard: --shard is outside input; whatever is accepted is a valid
// shard that prints back the same.
func FuzzParseShard(f *testing.F) {
	for _, s := range []string{"0/1", "3/8", "8/8", "-1/4", "1", "a/b", "0/0", "1/1000000", " 1/2"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sh, err := ParseShard(s)
		if err != nil {
			return
		}
		if sh.Count < 1 || sh.Index < 0 || sh.Index >= sh.Count {
			t.Fatalf("ParseShard(%q) accepted %v", s, sh)
		}
		if again, err := ParseShard(sh.String()); err != nil || again != sh {
			t.Fatalf("%v does not round-trip: %v %v", sh, again, err)
		}
		if got := ShardOf(s, sh.Count); got < 0 || got >= sh.Count {
			t.Fatalf("ShardOf out of range: %d", got)
		}
	})
}

func TestTallyLine(t *testing.T) {
	for _, c := range []struct {
		p    tally
		want string
	}{
		{tally{Total: 400}, "0/400 instances (0%) · ETA …"},
		{tally{Done: 120, Total: 400, Generated: 117, Resumed: 3, Elapsed: 30 * time.Second, Rate: 3.9, ETA: 71500 * time.Millisecond},
			"120/400 instances (30%) · 3 already done · 3.90/s · ETA 1m12s"},
		{tally{Done: 10, Total: 10, Generated: 8, Failed: 2, Elapsed: 2600 * time.Millisecond, Rate: 3},
			"10/10 instances (100%) · 2 skipped · 3s"},
		{tally{}, "0/0 instances (100%) · 0s"},
	} {
		if got := c.p.String(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.p, got, c.want)
		}
	}
}
