package app

import (
	"bytes"
	"fmt"
	"image"
	"image/color"
	"image/png"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeDatasetImages writes n small distinct PNGs and one bad file into dir.
func writeDatasetImages(t *testing.T, dir string, n int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for i := range n {
		img := image.NewRGBA(image.Rect(0, 0, 300, 240))
		for y := range 240 {
			for x := range 300 {
				img.Set(x, y, color.RGBA{uint8(x*i + y), uint8(y * 3 * (i + 1)), uint8((x ^ y) * (i + 2)), 255})
			}
		}
		var b bytes.Buffer
		if err := png.Encode(&b, img); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fmt.Sprintf("pic%d.png", i)), b.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(dir, "bad.png"), []byte("not a picture"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func readTree(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		data, err := os.ReadFile(p)
		rel, _ := filepath.Rel(dir, p)
		m[filepath.ToSlash(rel)] = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func TestDatasetCommandShardsMergeAndSkips(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeDatasetImages(t, images, 4)
	common := []string{"--images", images, "--grids", "8,4", "--seed", "5", "--size", "256"}

	whole := filepath.Join(root, "whole")
	code, stdout, stderr := runCLI(append([]string{"dataset", "--out", whole, "--workers", "2"}, common...)...)
	if code != 0 {
		t.Fatalf("dataset: exit %d: %s", code, stderr)
	}
	if strings.TrimSpace(stdout) != filepath.Join(whole, "manifest.jsonl") {
		t.Fatalf("stdout %q", stdout)
	}
	if !strings.Contains(stderr, "jigbench: dataset: skipped bad.png: not a PNG") ||
		!strings.Contains(stderr, "8 instances") || !strings.Contains(stderr, "1 skipped") {
		t.Fatalf("stderr:\n%s", stderr)
	}

	sharded := filepath.Join(root, "sharded")
	for i := range 2 {
		code, _, stderr := runCLI(append([]string{"dataset", "--out", sharded, "--workers", "1", "--shard", fmt.Sprintf("%d/2", i)}, common...)...)
		if code != 0 {
			t.Fatalf("shard %d/2: exit %d: %s", i, code, stderr)
		}
	}
	code, stdout, stderr = runCLI("dataset", "merge", "--out", sharded)
	if code != 0 || strings.TrimSpace(stdout) != filepath.Join(sharded, "manifest.jsonl") ||
		!strings.Contains(stderr, "merged 2 shards: 8 instances") || !strings.Contains(stderr, "skipped bad.png") {
		t.Fatalf("merge: exit %d\n%s\n%s", code, stdout, stderr)
	}
	a, b := readTree(t, whole), readTree(t, sharded)
	if len(a) != 8*6+2 || len(a) != len(b) {
		t.Fatalf("%d files unsharded, %d sharded + merged", len(a), len(b))
	}
	for k, v := range a {
		if b[k] != v {
			t.Fatalf("%s differs between the unsharded and the merged dataset", k)
		}
	}

	// Merging again finds nothing to do and says why.
	code, _, stderr = runCLI("dataset", "merge", "--out", sharded)
	if code != 1 || !strings.Contains(stderr, "merged before") {
		t.Fatalf("second merge: exit %d: %s", code, stderr)
	}
}

func TestDatasetCommandUsage(t *testing.T) {
	out := t.TempDir()
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"dataset", "--demo-count", "2", "--out", out}, "--seed"},
		{[]string{"dataset", "--seed", "1", "--out", out}, "--images DIR or --demo-count K"},
		{[]string{"dataset", "--demo-count", "999", "--seed", "1", "--out", out}, "there are only"},
		{[]string{"dataset", "--demo-count", "2", "--seed", "1", "--out", out, "--shard", "2/2"}, "shard"},
		{[]string{"dataset", "--demo-count", "2", "--seed", "1", "--out", out, "--grids", "4,x"}, "--grids"},
		{[]string{"dataset", "--demo-count", "2", "--seed", "1", "--out", out, "--eval-fraction", "1.5"}, "eval fraction"},
		{[]string{"dataset", "merge"}, "--out"},
	} {
		code, _, stderr := runCLI(tc.args...)
		if code != 2 || !strings.Contains(stderr, tc.want) || strings.Count(stderr, "\n") != 1 {
			t.Errorf("%v: exit %d, stderr %q (want exit 2 mentioning %q)", tc.args, code, stderr, tc.want)
		}
	}
	code, _, stderr := runCLI("dataset", "--images", filepath.Join(out, "nowhere"), "--seed", "1", "--out", out)
	if code != 1 || !strings.HasPrefix(stderr, "jigbench: dataset: images folder") {
		t.Errorf("missing images folder: exit %d, %q", code, stderr)
	}
	code, _, stderr = runCLI("dataset", "--images", t.TempDir(), "--seed", "1", "--out", out)
	if code != 1 || !strings.HasPrefix(stderr, "jigbench: dataset: no .png .jpg") {
		t.Errorf("empty images folder: exit %d, %q", code, stderr)
	}
}

func TestDatasetCommandProgressLine(t *testing.T) {
	root := t.TempDir()
	images := filepath.Join(root, "images")
	writeDatasetImages(t, images, 2)
	var o, e bytes.Buffer
	code := run(&env{stdout: &o, stderr: &e, progress: true},
		[]string{"dataset", "--images", images, "--grids", "4", "--seed", "1", "--size", "256", "--out", filepath.Join(root, "out")})
	if code != 0 {
		t.Fatalf("exit %d: %s", code, e.String())
	}
	s := e.String()
	if !strings.Contains(s, "\r\x1b[Kdataset: 0/3 instances (0%) · ETA …") ||
		!strings.Contains(s, "\r\x1b[Kjigbench: dataset: skipped bad.png") || strings.Count(s, "3/3 instances (100%) · 1 skipped") != 1 {
		t.Fatalf("progress output %q", s)
	}
}
