// Package dataset generates JigShape datasets: many source images × grids,
// split into train and eval by source image, listed in manifest.jsonl.
//
// The same settings give the same bytes however the work is run: on any
// number of workers, resumed after a kill, or cut into shards on a cluster and
// merged. Each instance is a pure function of (source bytes, grid, dataset
// seed, options): its seed and split are derived from the source's SHA-256,
// never from its position among the other images, so adding or removing an
// image changes no other instance.
//
// The work streams: sources are listed by name only, each is read, hashed and
// decoded by one worker when its turn comes and dropped when its instances are
// written, and the manifest is written in order as instances finish. Memory
// stays flat however many images there are.
package dataset

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

// Files and folders of a dataset.
const (
	FileManifest = "manifest.jsonl" // one line per instance, in source-name then grid order
	FileDataset  = "dataset.json"   // the settings; a rerun with other settings is refused
	DirShards    = "shards"         // a shard's manifest and summary until `merge`
)

// Format names.
const (
	DatasetFormat = "jigbench.dataset/v1"
	ShardFormat   = "jigbench.dataset-shard/v1"
)

// Splits.
const (
	SplitTrain = "train"
	SplitEval  = "eval"
)

// DefaultEvalFraction is the expected share of source images in the eval split.
const DefaultEvalFraction = 0.1

// DefaultGrids are the paper's four grids.
func DefaultGrids() []int { return []int{4, 8, 12, 16} }

// ImageExtensions are the file name endings (case-insensitive) taken as
// source images when a folder is scanned.
var ImageExtensions = []string{".png", ".jpg", ".jpeg", ".gif", ".webp"}

// Config says what to generate. The zero values of Workers (all CPUs) and
// Shard (no sharding) are ready to use; start from DefaultConfig for the rest.
type Config struct {
	// Images is a folder of source images, searched recursively (see Scan).
	Images string
	// DemoCount > 0 uses the first DemoCount built-in demo images instead; it
	// cannot exceed len(demo.Names()).
	DemoCount int

	Grids        []int   // each instance is one source × one grid
	Seed         uint64  // the dataset seed
	Out          string  // the dataset folder
	EvalFraction float64 // expected share of sources in the eval split, 0–1

	Options puzzle.Options // size, tab style and ratio of every instance

	// Workers is how many instances are worked on at once (how many CPU
	// cores are used); 0 means runtime.NumCPU(). The output does not depend on it.
	Workers int
	// Shard selects a part of the sources (see Shard); the zero value is all.
	Shard Shard

	// Progress, if set, is called after every finished instance and once at
	// the end, counting instances; Detail is the line "120/400 instances
	// (30%) · 3 already done · 4.21/s · ETA 1m06s". Calls come from worker
	// goroutines, one at a time, and hold up the work while they run: hand
	// results to a UI thread, don't draw here.
	Progress progress.Func
	// OnIssue, if set, is called when a source or instance is skipped (or
	// with Issue.Note set, for something worth telling), from worker
	// goroutines, one at a time, never at the same time as Progress.
	OnIssue func(Issue)
}

// DefaultConfig returns the paper's settings: grids 4, 8, 12, 16, eval
// fraction 0.1, default puzzle options, all CPUs, seed 0. Set Images or
// DemoCount and Out.
func DefaultConfig() Config {
	return Config{
		Grids:        DefaultGrids(),
		EvalFraction: DefaultEvalFraction,
		Options:      puzzle.DefaultOptions(),
	}
}

// Shard is part Index (0-based) of Count. Sources are assigned to shards by a
// hash of their name (ShardOf), so all grids of an image land in one shard.
type Shard struct{ Index, Count int }

// ParseShard reads "I/N" with 0 ≤ I < N.
func ParseShard(s string) (Shard, error) {
	i, n, ok := strings.Cut(s, "/")
	if !ok {
		return Shard{}, fmt.Errorf("shard %q is not I/N (e.g. 0/8)", s)
	}
	idx, err1 := strconv.Atoi(i)
	cnt, err2 := strconv.Atoi(n)
	if err1 != nil || err2 != nil {
		return Shard{}, fmt.Errorf("shard %q is not I/N with whole numbers (e.g. 0/8)", s)
	}
	if cnt < 1 {
		return Shard{}, fmt.Errorf("shard %q: the number of shards must be at least 1", s)
	}
	sh := Shard{idx, cnt}
	if err := sh.validate(); err != nil {
		return Shard{}, err
	}
	return sh, nil
}

func (s Shard) validate() error {
	if s.Count < 0 || s.Count > 1_000_000 || (s.Count > 0 && (s.Index < 0 || s.Index >= s.Count)) {
		return fmt.Errorf("shard %d/%d: the index must be 0 to %d", s.Index, s.Count, max(s.Count-1, 0))
	}
	if s.Count == 0 && s.Index != 0 {
		return fmt.Errorf("shard index %d without a shard count", s.Index)
	}
	return nil
}

// Sharded reports whether s selects a part (a count of 0 or 1 is the whole).
func (s Shard) Sharded() bool { return s.Count > 1 }

func (s Shard) String() string { return fmt.Sprintf("%d/%d", s.Index, s.Count) }

// Validate reports the first setting that cannot work, as one sentence.
func (c Config) Validate() error {
	switch {
	case c.Images == "" && c.DemoCount == 0:
		return errors.New("choose a folder of images or a number of demo images")
	case c.Images != "" && c.DemoCount != 0:
		return errors.New("choose either a folder of images or demo images, not both")
	case c.DemoCount < 0:
		return fmt.Errorf("demo count %d is negative", c.DemoCount)
	case c.DemoCount > len(demo.Names()):
		return fmt.Errorf("there are only %d demo images; the demo count cannot be %d", len(demo.Names()), c.DemoCount)
	case len(c.Grids) == 0:
		return errors.New("choose at least one grid")
	case c.Out == "":
		return errors.New("choose an output folder")
	case math.IsNaN(c.EvalFraction) || c.EvalFraction < 0 || c.EvalFraction > 1:
		return fmt.Errorf("eval fraction %g is outside 0–1", c.EvalFraction)
	case c.Workers < 0:
		return fmt.Errorf("workers %d is negative", c.Workers)
	}
	seen := map[int]bool{}
	for _, n := range c.Grids {
		if err := puzzle.ValidateGrid(n); err != nil {
			return err
		}
		if seen[n] {
			return fmt.Errorf("grid %d is listed twice", n)
		}
		seen[n] = true
		if err := c.Options.ValidateFor(n); err != nil {
			return fmt.Errorf("grid %d: %w", n, err)
		}
	}
	if err := c.Shard.validate(); err != nil {
		return err
	}
	return c.Options.Validate()
}

// normalized returns c with sorted grids and the worker count filled in.
func (c Config) normalized() (Config, error) {
	if err := c.Validate(); err != nil {
		return c, err
	}
	c.Grids = slices.Sorted(slices.Values(c.Grids))
	if c.Workers == 0 {
		c.Workers = runtime.NumCPU()
	}
	if !c.Shard.Sharded() {
		c.Shard = Shard{}
	}
	return c, nil
}

// The derivations below are documented in the README ("Datasets"); they are
// part of the dataset format and must never change for DatasetFormat v1.

// InstanceSeed is the seed of the instance of a source at grid n:
//
//	the first 4 bytes, big-endian, of SHA-256("jigbench.dataset/seed" ‖ 0x00 ‖
//	dataset seed as 8 bytes big-endian ‖ source SHA-256 (32 bytes) ‖ n as 8 bytes big-endian)
//
// 32 bits keep instance IDs short and exact in every JSON reader; the
// instance's generator (puzzle.NewRNG) mixes the source hash and grid in again.
func InstanceSeed(datasetSeed uint64, source [32]byte, n int) uint64 {
	h := sha256.New()
	h.Write([]byte("jigbench.dataset/seed\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], datasetSeed)
	h.Write(b[:])
	h.Write(source[:])
	binary.BigEndian.PutUint64(b[:], uint64(n))
	h.Write(b[:])
	return uint64(binary.BigEndian.Uint32(h.Sum(nil)[:4]))
}

// SplitOf puts a source in eval when u < evalFraction, where u ∈ [0, 1) is
//
//	(first 8 bytes, big-endian, of SHA-256("jigbench.dataset/split" ‖ 0x00 ‖
//	dataset seed as 8 bytes big-endian ‖ source SHA-256)) >> 11, times 2⁻⁵³
//
// and in train otherwise. Every grid of a source shares its split, identical
// files share theirs, and the decision ignores every other source.
func SplitOf(datasetSeed uint64, source [32]byte, evalFraction float64) string {
	h := sha256.New()
	h.Write([]byte("jigbench.dataset/split\x00"))
	var b [8]byte
	binary.BigEndian.PutUint64(b[:], datasetSeed)
	h.Write(b[:])
	h.Write(source[:])
	u := float64(binary.BigEndian.Uint64(h.Sum(nil)[:8])>>11) * 0x1p-53
	if u < evalFraction {
		return SplitEval
	}
	return SplitTrain
}

// ShardOf is the shard (of count) that generates the source named name:
// the first 8 bytes, big-endian, of SHA-256("jigbench.dataset/shard" ‖ 0x00 ‖
// name), modulo count. It depends on the name alone, so a shard reads only its
// own images, and every shard of a run agrees without reading any.
func ShardOf(name string, count int) int {
	if count <= 1 {
		return 0
	}
	h := sha256.Sum256([]byte("jigbench.dataset/shard\x00" + name))
	return int(binary.BigEndian.Uint64(h[:8]) % uint64(count))
}

// Issue is a source or instance left out of the dataset (or, with Note set,
// something worth telling that left nothing out).
type Issue struct {
	File    string `json:"file"`           // the source: path relative to the images folder, or the demo name
	Grid    int    `json:"grid,omitempty"` // 0: the whole source
	Message string `json:"error"`
	Note    bool   `json:"note,omitempty"`
}

func (i Issue) Error() string {
	if i.Grid > 0 {
		return fmt.Sprintf("%s (grid %d): %s", i.File, i.Grid, i.Message)
	}
	return fmt.Sprintf("%s: %s", i.File, i.Message)
}

// newIssue makes an issue from err, dropping a leading "<file>: " or
// "<name>: " that the error already carries.
func newIssue(file, name string, grid int, err error) Issue {
	msg := err.Error()
	for _, p := range []string{file + ": ", name + ": "} {
		msg = strings.TrimPrefix(msg, p)
	}
	return Issue{File: file, Grid: grid, Message: msg}
}

// tally is how far a run is, what its progress reports say.
type tally struct {
	Done  int // instances finished: generated, found already done, or failed
	Total int // instances this run (this shard) will produce or skip

	Generated int // written by this run
	Resumed   int // found finished from an earlier run
	Failed    int // left out (their issues were reported)

	Elapsed time.Duration
	// Rate is instances generated per second in this run, 0 until the first
	// one is done; ETA is the time left at that rate (0 when Rate is 0).
	Rate float64
	ETA  time.Duration
}

// fraction is Done/Total in [0, 1].
func (p tally) fraction() float64 {
	if p.Total == 0 {
		return 1
	}
	return float64(p.Done) / float64(p.Total)
}

// String is a one-line summary, e.g.
// "120/400 instances (30%) · 4.2/s · ETA 1m07s".
func (p tally) String() string {
	s := fmt.Sprintf("%d/%d instances (%.0f%%)", p.Done, p.Total, 100*p.fraction())
	if p.Resumed > 0 {
		s += fmt.Sprintf(" · %d already done", p.Resumed)
	}
	if p.Failed > 0 {
		s += fmt.Sprintf(" · %d skipped", p.Failed)
	}
	switch {
	case p.Done == p.Total:
		s += " · " + p.Elapsed.Round(time.Second).String()
	case p.Rate > 0:
		s += fmt.Sprintf(" · %.2f/s · ETA %s", p.Rate, roundETA(p.ETA))
	default:
		s += " · ETA …"
	}
	return s
}

func roundETA(d time.Duration) string {
	if d >= time.Hour {
		return d.Round(time.Minute).String()
	}
	return d.Round(time.Second).String()
}

// sourceRef is one source as listed, before it is read.
type sourceRef struct {
	name string // instance-ID stem
	file string // path relative to the images folder (slash-separated), or the demo name
	path string // path to open; "" for a demo image
}

func (s sourceRef) demo() bool { return s.path == "" }

// Plan is what a run will do, found by listing the sources (no image is read).
type Plan struct {
	Listed    int     // sources found (all shards), including those skipped for their name
	Sources   int     // sources this run (this shard) will read
	Instances int     // Sources × grids
	Issues    []Issue // sources left out before reading (two files with one name)

	digest  string      // SHA-256 of the sorted listing, shared by every shard
	sources []sourceRef // this shard's, sorted by name
}

// Scan lists the sources of c without reading them: the first DemoCount demo
// images, or every file under c.Images (recursively, in sorted order) whose
// name ends in one of ImageExtensions. Hidden files and folders (a name
// starting with '.'), the output folder and symbolic links to folders are
// passed over. A source's name is its file name without the extension (as in
// `jigbench generate`); two files with the same name are both left out, with
// an issue each, since their instances would share IDs.
func Scan(c Config) (*Plan, error) {
	c, err := c.normalized()
	if err != nil {
		return nil, err
	}
	var all []sourceRef
	if c.DemoCount > 0 {
		for _, n := range demo.Names()[:c.DemoCount] {
			all = append(all, sourceRef{name: n, file: n})
		}
	} else if all, err = listImages(c.Images, c.Out); err != nil {
		return nil, err
	} else if len(all) == 0 {
		return nil, fmt.Errorf("no %s files in %s or its subfolders", strings.Join(ImageExtensions, " "), c.Images)
	}
	p := &Plan{Listed: len(all)}
	d := sha256.New()
	byName := map[string][]sourceRef{}
	for _, s := range all {
		fmt.Fprintf(d, "%s\n", s.file)
		byName[s.name] = append(byName[s.name], s)
	}
	p.digest = fmt.Sprintf("%x", d.Sum(nil))
	for _, s := range all {
		if ShardOf(s.name, c.Shard.Count) != c.Shard.Index {
			continue
		}
		if same := byName[s.name]; len(same) > 1 {
			var others []string
			for _, o := range same {
				if o.file != s.file {
					others = append(others, o.file)
				}
			}
			p.Issues = append(p.Issues, Issue{File: s.file, Message: fmt.Sprintf(
				"has the same name %q as %s, so their instances would share IDs; rename one (both are skipped)",
				s.name, strings.Join(others, ", "))})
			continue
		}
		p.sources = append(p.sources, s)
	}
	slices.SortFunc(p.sources, func(a, b sourceRef) int { return strings.Compare(a.name, b.name) })
	p.Sources = len(p.sources)
	p.Instances = p.Sources * len(c.Grids)
	return p, nil
}

// listImages walks root for image files, sorted by relative path.
func listImages(root, out string) ([]sourceRef, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("images folder %s: %w", root, fsutil.WithoutPath(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder; give a folder of images", root)
	}
	outInfo, _ := os.Stat(out) // nil when it does not exist yet
	var refs []sourceRef
	err = filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return fmt.Errorf("list images: %w", err)
		}
		hidden := strings.HasPrefix(d.Name(), ".") && path != root
		if d.IsDir() {
			if hidden {
				return filepath.SkipDir
			}
			if outInfo != nil {
				if info, err := d.Info(); err == nil && os.SameFile(info, outInfo) {
					return filepath.SkipDir
				}
			}
			return nil
		}
		if hidden || !slices.Contains(ImageExtensions, strings.ToLower(filepath.Ext(d.Name()))) {
			return nil
		}
		if d.Type()&os.ModeSymlink != 0 {
			if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
				return nil
			}
		} else if !d.Type().IsRegular() {
			return nil
		}
		rel, err := filepath.Rel(root, path)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		refs = append(refs, sourceRef{name: puzzle.SourceName(rel), file: rel, path: path})
		return nil
	})
	if err != nil {
		return nil, err
	}
	slices.SortFunc(refs, func(a, b sourceRef) int { return strings.Compare(a.file, b.file) })
	return refs, nil
}
