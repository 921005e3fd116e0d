package dataset

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// Entry is one line of manifest.jsonl.
type Entry struct {
	ID           string   `json:"id"`
	Grid         int      `json:"grid"`
	Split        string   `json:"split"` // SplitTrain or SplitEval
	Source       string   `json:"source"`
	SourceFile   string   `json:"source_file"` // relative to the images folder, or the demo name
	SourceSHA256 string   `json:"source_sha256"`
	Seed         uint64   `json:"seed"`
	Path         string   `json:"path"`  // the instance folder, relative to the dataset folder
	Files        []string `json:"files"` // in the instance folder, sorted
}

// InstanceFiles are the files of every instance folder, sorted.
var InstanceFiles = slices.Sorted(slices.Values([]string{
	render.FileInstance, render.FilePromptRect, render.FilePromptShap,
	render.FileRect, render.FileShape, render.FileSolved,
}))

func (e *Entry) marshal() []byte {
	b, err := json.Marshal(e)
	if err != nil {
		panic(err) // strings and numbers only: cannot fail
	}
	return append(b, '\n')
}

// ReadManifest parses manifest.jsonl (or a shard's manifest).
func ReadManifest(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("read manifest: %w", err)
	}
	var out []Entry
	for i, line := range bytes.Split(bytes.TrimSuffix(data, []byte("\n")), []byte("\n")) {
		if len(line) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(line, &e); err != nil {
			return nil, fmt.Errorf("%s line %d: %w", path, i+1, err)
		}
		out = append(out, e)
	}
	return out, nil
}

// ManifestInstances lists the instance.json files that dir's manifest names,
// leniently, for scoring: a line needs only "id" or "path" (the instance
// folder relative to dir, or absolute, or an instance.json itself); lines
// that are not such an entry are listed in problems and skipped. With no
// manifest in dir it returns nothing.
func ManifestInstances(dir string) (files, problems []string) {
	path := filepath.Join(dir, FileManifest)
	f, err := fsutil.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, []string{err.Error()}
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.Trim(sc.Bytes(), " \t\r\n")
		if len(b) == 0 {
			continue
		}
		var e Entry
		if err := json.Unmarshal(b, &e); err != nil || e.ID == "" && e.Path == "" {
			problems = append(problems, fmt.Sprintf("%s line %d: not an instance entry (want {\"id\":…,\"path\":…})", FileManifest, line))
			continue
		}
		p := e.Path
		if p == "" {
			p = e.ID
		}
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, filepath.FromSlash(p))
		}
		if !strings.HasSuffix(p, ".json") {
			p = filepath.Join(p, puzzle.InstanceFile)
		}
		files = append(files, p)
	}
	if err := sc.Err(); err != nil {
		problems = append(problems, fmt.Sprintf("%s line %d: %v", FileManifest, line+1, err))
	}
	return files, problems
}

// datasetFile is dataset.json: the settings every instance follows. It holds
// nothing that depends on how the run was done (workers, shards, paths), so
// every way of producing a dataset writes the same bytes.
type datasetFile struct {
	Format       string         `json:"format"`
	Seed         uint64         `json:"seed"`
	Grids        []int          `json:"grids"`
	EvalFraction float64        `json:"eval_fraction"`
	Options      puzzle.Options `json:"options"`
	Sources      string         `json:"sources"` // "images" or "demo"
}

func settingsFile(c Config) []byte {
	f := datasetFile{DatasetFormat, c.Seed, c.Grids, c.EvalFraction, c.Options, "images"}
	if c.DemoCount > 0 {
		f.Sources = "demo"
	}
	return marshalIndent(f)
}

// claimFolder writes dataset.json into out, or checks that the one there has
// the same settings, so a rerun with other settings cannot mix two datasets.
func claimFolder(out string, c Config) error {
	want := settingsFile(c)
	path := filepath.Join(out, FileDataset)
	have, err := os.ReadFile(path)
	switch {
	case err == nil && bytes.Equal(have, want):
		return nil
	case err == nil:
		var f datasetFile
		if json.Unmarshal(have, &f) != nil || f.Format != DatasetFormat {
			return fmt.Errorf("%s is not a jigbench dataset file; choose another output folder", path)
		}
		return fmt.Errorf("%s holds a dataset made with other settings (%s); choose another output folder, or rerun with those settings to resume",
			out, describeSettings(f))
	case !errors.Is(err, os.ErrNotExist):
		return fmt.Errorf("read %s: %w", path, fsutil.WithoutPath(err))
	}
	if entries, err := os.ReadDir(out); err == nil {
		for _, e := range entries {
			if e.IsDir() && !isTemp(e.Name()) && e.Name() != DirShards {
				if _, err := os.Stat(filepath.Join(out, e.Name(), render.FileInstance)); err != nil {
					continue
				}
				// Another shard may have claimed the folder since we looked.
				if have, err := os.ReadFile(path); err == nil && bytes.Equal(have, want) {
					return nil
				}
				return fmt.Errorf("%s holds instance folders but no %s; choose an empty or new output folder", out, FileDataset)
			}
		}
	}
	return fsutil.WriteFile(path, want)
}

func describeSettings(f datasetFile) string {
	return fmt.Sprintf("seed %d, grids %v, eval fraction %g, size %d, %s tabs ratio %g, %s",
		f.Seed, f.Grids, f.EvalFraction, f.Options.Size, f.Options.TabStyle, f.Options.TabRatio, f.Sources)
}

// shardFile summarises a finished shard: shards/I-of-N.json beside
// shards/I-of-N.jsonl. It is written last, so its presence means done.
type shardFile struct {
	Format        string  `json:"format"`
	Shard         int     `json:"shard"`
	Of            int     `json:"of"`
	SourcesListed int     `json:"sources_listed"` // in every shard together
	SourcesDigest string  `json:"sources_digest"` // of the listing; equal in every shard of a run
	Sources       int     `json:"sources"`        // this shard's
	Instances     int     `json:"instances"`      // lines in its manifest
	Skipped       []Issue `json:"skipped"`
}

func shardBase(s Shard) string { return fmt.Sprintf("%d-of-%d", s.Index, s.Count) }

// isTemp reports whether a folder entry is a leftover of an interrupted
// write (an instance folder's or a file's, fsutil.TempPattern).
func isTemp(name string) bool {
	_, ok := fsutil.IsTemp(name)
	return ok
}

// checkFinished reports whether dir holds the finished instance e: an
// instance.json with the same ID, grid, seed, source and options, and every
// instance file. Each folder is written atomically, so that is enough.
func checkFinished(dir string, e *Entry, opt puzzle.Options) bool {
	inst, err := puzzle.ReadInstance(filepath.Join(dir, render.FileInstance))
	if err != nil || inst.ID != e.ID || inst.Grid != e.Grid || inst.Seed != e.Seed ||
		inst.Source.Name != e.Source || inst.Source.SHA256 != e.SourceSHA256 || inst.Options != opt {
		return false
	}
	for _, f := range e.Files {
		if fi, err := os.Stat(filepath.Join(dir, f)); err != nil || !fi.Mode().IsRegular() {
			return false
		}
	}
	return true
}

func hexSHA(h [32]byte) string { return hex.EncodeToString(h[:]) }

func marshalIndent(v any) []byte {
	b, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		panic(err)
	}
	return append(b, '\n')
}
