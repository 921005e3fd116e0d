package dataset

import (
	"bufio"
	"bytes"
	"container/heap"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/render"
)

// MergeResult is what Merge did.
type MergeResult struct {
	Manifest  string  // Out/manifest.jsonl
	Shards    int     // shards joined
	Instances int     // lines in the manifest
	Copied    int     // instance folders copied in from other shard folders
	Skipped   []Issue // what the shards left out, by file then grid
}

type shardPart struct {
	meta  shardFile
	dir   string // the dataset folder the shard wrote into
	jsonl string
	json  string
}

// Merge joins the shards of one dataset into out/manifest.jsonl — the same
// bytes an unsharded run writes. Shards are looked for in out/shards (shards
// that wrote into out itself, e.g. a shared cluster folder) and in each of
// from (shards written elsewhere; their instance folders are copied into
// out). Every shard 0…N-1 must be there exactly once and finished, all with
// the same settings and the same listing of sources; every instance must be
// listed once and its folder present. On success the shard files in
// out/shards are removed, leaving out as an unsharded run would.
func Merge(ctx context.Context, out string, from []string) (*MergeResult, error) {
	if out == "" {
		return nil, errors.New("choose the output folder")
	}
	dirs, err := mergeDirs(out, from)
	if err != nil {
		return nil, err
	}
	parts, settings, err := findShards(out, dirs)
	if err != nil {
		return nil, err
	}
	var ds datasetFile
	if err := json.Unmarshal(settings, &ds); err != nil || ds.Format != DatasetFormat {
		return nil, fmt.Errorf("%s is not a jigbench dataset file", FileDataset)
	}
	if err := os.MkdirAll(out, 0o755); err != nil {
		return nil, fmt.Errorf("create output folder %s: %w", out, fsutil.WithoutPath(err))
	}
	if err := writeAtomicIfChanged(filepath.Join(out, FileDataset), settings); err != nil {
		return nil, err
	}

	res := &MergeResult{Manifest: filepath.Join(out, FileManifest), Shards: len(parts)}
	tmp, err := fsutil.Create(res.Manifest)
	if err != nil {
		return nil, err
	}
	defer tmp.Close() // a no-op after Commit
	w := bufio.NewWriterSize(tmp, 64<<10)

	// A k-way merge of the shard manifests, each already in order.
	h := &lineHeap{}
	readers := make([]*bufio.Reader, len(parts))
	counts := make([]int, len(parts))
	advance := func(i int) error {
		line, err := readers[i].ReadBytes('\n')
		if errors.Is(err, io.EOF) && len(line) == 0 {
			return nil
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", parts[i].jsonl, err)
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil || !bytes.Equal(e.marshal(), line) {
			return fmt.Errorf("%s line %d is not a manifest line written by jigbench", parts[i].jsonl, counts[i]+1)
		}
		counts[i]++
		if got := ShardOf(e.Source, parts[i].meta.Of); got != parts[i].meta.Shard {
			return fmt.Errorf("%s lists %s, which belongs to shard %d", parts[i].jsonl, e.ID, got)
		}
		heap.Push(h, lineItem{entry: e, line: line, part: i})
		return nil
	}
	for i, p := range parts {
		f, err := os.Open(p.jsonl)
		if err != nil {
			return nil, fmt.Errorf("open shard manifest: %w", err)
		}
		defer f.Close()
		readers[i] = bufio.NewReader(f)
		if err := advance(i); err != nil {
			return nil, err
		}
	}
	var prev *lineItem
	for h.Len() > 0 {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		it := heap.Pop(h).(lineItem)
		if prev != nil && prev.entry.Source == it.entry.Source && prev.entry.Grid == it.entry.Grid {
			return nil, fmt.Errorf("instance %s is listed twice (%s and %s)", it.entry.ID, parts[prev.part].jsonl, parts[it.part].jsonl)
		}
		copied, err := placeInstance(out, parts[it.part].dir, &it.entry, ds)
		if err != nil {
			return nil, err
		}
		if copied {
			res.Copied++
		}
		if _, err := w.Write(it.line); err != nil {
			return nil, fmt.Errorf("write %s: %w", res.Manifest, fsutil.WithoutPath(err))
		}
		res.Instances++
		prev = &it
		if err := advance(it.part); err != nil {
			return nil, err
		}
	}
	for i, p := range parts {
		if counts[i] != p.meta.Instances {
			return nil, fmt.Errorf("%s has %d instances, its summary says %d; rerun shard %d/%d",
				p.jsonl, counts[i], p.meta.Instances, p.meta.Shard, p.meta.Of)
		}
		res.Skipped = append(res.Skipped, p.meta.Skipped...)
	}
	slices.SortFunc(res.Skipped, func(a, b Issue) int {
		if c := strings.Compare(a.File, b.File); c != 0 {
			return c
		}
		return a.Grid - b.Grid
	})
	if err := w.Flush(); err != nil {
		return nil, err
	}
	if err := tmp.Commit(); err != nil {
		return nil, err
	}
	// The merged manifest is in place: the shard files in out have served.
	for _, p := range parts {
		if p.dir == out {
			os.Remove(p.jsonl)
			os.Remove(p.json)
		}
	}
	os.Remove(filepath.Join(out, DirShards)) // only if now empty
	return res, nil
}

// mergeDirs is out followed by each other folder once.
func mergeDirs(out string, from []string) ([]string, error) {
	dirs := []string{out}
	var infos []os.FileInfo
	if fi, err := os.Stat(out); err == nil {
		infos = append(infos, fi)
	}
	for _, d := range from {
		fi, err := os.Stat(d)
		if err != nil {
			return nil, fmt.Errorf("shard folder %s: %w", d, fsutil.WithoutPath(err))
		}
		if slices.ContainsFunc(infos, func(o os.FileInfo) bool { return os.SameFile(o, fi) }) {
			continue
		}
		infos = append(infos, fi)
		dirs = append(dirs, d)
	}
	return dirs, nil
}

// findShards reads every finished shard's summary in dirs and checks that
// they make one whole dataset; it returns them by index, with dataset.json.
func findShards(out string, dirs []string) ([]shardPart, []byte, error) {
	var parts []shardPart
	var settings []byte
	settingsFrom := ""
	for _, d := range dirs {
		if data, err := os.ReadFile(filepath.Join(d, FileDataset)); err == nil {
			if settings != nil && !bytes.Equal(settings, data) {
				return nil, nil, fmt.Errorf("%s and %s hold datasets made with different settings", settingsFrom, d)
			}
			settings, settingsFrom = data, d
		}
		metas, _ := filepath.Glob(filepath.Join(d, DirShards, "*-of-*.json"))
		for _, m := range metas {
			data, err := os.ReadFile(m)
			if err != nil {
				return nil, nil, err
			}
			var sf shardFile
			if err := json.Unmarshal(data, &sf); err != nil || sf.Format != ShardFormat {
				return nil, nil, fmt.Errorf("%s is not a jigbench shard summary", m)
			}
			base := shardBase(Shard{sf.Shard, sf.Of})
			if filepath.Base(m) != base+".json" {
				return nil, nil, fmt.Errorf("%s describes shard %d/%d; its name should be %s.json", m, sf.Shard, sf.Of, base)
			}
			parts = append(parts, shardPart{meta: sf, dir: d, json: m, jsonl: filepath.Join(d, DirShards, base+".jsonl")})
		}
	}
	if len(parts) == 0 {
		if _, err := os.Stat(filepath.Join(out, FileManifest)); err == nil {
			return nil, nil, fmt.Errorf("no finished shards found; %s already has a %s (merged before?)", out, FileManifest)
		}
		return nil, nil, fmt.Errorf("no finished shards found in %s; run `jigbench dataset … --shard I/N` first",
			strings.Join(dirs, ", "))
	}
	if settings == nil {
		return nil, nil, fmt.Errorf("no %s found beside the shards", FileDataset)
	}
	n, first := parts[0].meta.Of, parts[0]
	byIndex := make([]*shardPart, n)
	for i := range parts {
		p := &parts[i]
		switch {
		case p.meta.Of != n:
			return nil, nil, fmt.Errorf("%s is shard %d/%d but %s is one of %d; merge shards of one run", p.json, p.meta.Shard, p.meta.Of, first.json, n)
		case p.meta.SourcesDigest != first.meta.SourcesDigest || p.meta.SourcesListed != first.meta.SourcesListed:
			return nil, nil, fmt.Errorf("%s and %s listed different sources (%d and %d images); run every shard on the same images",
				first.json, p.json, first.meta.SourcesListed, p.meta.SourcesListed)
		case p.meta.Shard < 0 || p.meta.Shard >= n:
			return nil, nil, fmt.Errorf("%s: shard index %d is outside 0–%d", p.json, p.meta.Shard, n-1)
		case byIndex[p.meta.Shard] != nil:
			return nil, nil, fmt.Errorf("shard %d/%d is there twice: %s and %s; keep one", p.meta.Shard, n, byIndex[p.meta.Shard].json, p.json)
		}
		byIndex[p.meta.Shard] = p
	}
	var missing []string
	for i, p := range byIndex {
		if p == nil {
			missing = append(missing, fmt.Sprintf("%d/%d", i, n))
		}
	}
	if len(missing) > 0 {
		return nil, nil, fmt.Errorf("missing or unfinished: shard %s; run `jigbench dataset … --shard I/N` for each with the same settings, then merge again",
			strings.Join(missing, ", "))
	}
	sorted := make([]shardPart, n)
	for i, p := range byIndex {
		sorted[i] = *p
	}
	return sorted, settings, nil
}

// placeInstance makes sure out holds e's folder: checked in place when the
// shard wrote into out, else copied from the shard's folder (unless an equal
// one is there already). It reports whether it copied.
func placeInstance(out, shardDir string, e *Entry, ds datasetFile) (bool, error) {
	dst := filepath.Join(out, e.Path)
	if shardDir == out {
		for _, f := range e.Files {
			if fi, err := os.Stat(filepath.Join(dst, f)); err != nil || !fi.Mode().IsRegular() {
				return false, fmt.Errorf("instance folder %s is incomplete (no %s); rerun its shard", dst, f)
			}
		}
		return false, nil
	}
	if checkFinished(dst, e, ds.Options) {
		return false, nil
	}
	src := filepath.Join(shardDir, e.Path)
	if !checkFinished(src, e, ds.Options) {
		return false, fmt.Errorf("instance folder %s is missing or does not match its manifest line; rerun its shard", src)
	}
	files := make(map[string][]byte, len(e.Files))
	for _, f := range e.Files {
		data, err := os.ReadFile(filepath.Join(src, f))
		if err != nil {
			return false, fmt.Errorf("copy %s: %w", src, err)
		}
		files[f] = data
	}
	if _, err := render.WriteInstanceDir(out, e.ID, files); err != nil {
		return false, err
	}
	return true, nil
}

func writeAtomicIfChanged(path string, data []byte) error {
	if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, data) {
		return nil
	}
	return fsutil.WriteFile(path, data)
}

type lineItem struct {
	entry Entry
	line  []byte
	part  int
}

// lineHeap orders manifest lines as a run writes them: by source name, then grid.
type lineHeap []lineItem

func (h lineHeap) Len() int { return len(h) }
func (h lineHeap) Less(i, j int) bool {
	if h[i].entry.Source != h[j].entry.Source {
		return h[i].entry.Source < h[j].entry.Source
	}
	return h[i].entry.Grid < h[j].entry.Grid
}
func (h lineHeap) Swap(i, j int) { h[i], h[j] = h[j], h[i] }
func (h *lineHeap) Push(x any)   { *h = append(*h, x.(lineItem)) }
func (h *lineHeap) Pop() any {
	old := *h
	it := old[len(old)-1]
	*h = old[:len(old)-1]
	return it
}
