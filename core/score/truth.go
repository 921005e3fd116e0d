package score

import (
	"cmp"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/par"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// TruthInstance is one instance's answer and where it was read from.
type TruthInstance struct {
	*Truth
	Dir string // the instance folder; "" for truth built in memory
}

// TruthSet is the ground truth of the instances being scored, sorted by grid
// and then ID.
type TruthSet struct {
	Root      string
	Instances []TruthInstance
	// Problems lists instances that were skipped and why.
	Problems []string
	index    map[string]int
}

// NewTruthSet collects in-memory truth (tests, benchmarks, solvers).
func NewTruthSet(ts ...*Truth) (*TruthSet, error) {
	s := &TruthSet{}
	for _, t := range ts {
		if err := s.add(TruthInstance{Truth: t}); err != nil {
			return nil, err
		}
	}
	s.sort()
	return s, nil
}

func (s *TruthSet) add(ti TruthInstance) error {
	if s.index == nil {
		s.index = map[string]int{}
	}
	if _, dup := s.index[ti.ID]; dup {
		return fmt.Errorf("instance %s appears twice", ti.ID)
	}
	s.index[ti.ID] = len(s.Instances)
	s.Instances = append(s.Instances, ti)
	return nil
}

func (s *TruthSet) sort() {
	slices.SortStableFunc(s.Instances, func(a, b TruthInstance) int {
		return cmp.Or(cmp.Compare(a.Grid, b.Grid), strings.Compare(a.ID, b.ID))
	})
	for i, ti := range s.Instances {
		s.index[ti.ID] = i
	}
}

// Find returns the instance with the given ID.
func (s *TruthSet) Find(id string) (*TruthInstance, bool) {
	i, ok := s.index[id]
	if !ok {
		return nil, false
	}
	return &s.Instances[i], true
}

// Grids lists the grid sizes present, ascending.
func (s *TruthSet) Grids() []int {
	var g []int
	for _, ti := range s.Instances {
		if len(g) == 0 || g[len(g)-1] != ti.Grid {
			g = append(g, ti.Grid)
		}
	}
	return g
}

// LoadTruth reads the instances under dir: a dataset folder with
// manifest.jsonl, a folder of instance folders (found up to three levels
// down), or one instance folder. Unreadable instances are skipped and listed
// in Problems; no instance at all is an error.
func LoadTruth(ctx context.Context, dir string, report progress.Func) (*TruthSet, error) {
	report = progress.Serial(report)
	fi, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("truth folder %s does not exist", dir)
	case err != nil:
		return nil, fmt.Errorf("truth folder %s: %w", dir, fsutil.WithoutPath(err))
	case !fi.IsDir():
		if filepath.Base(dir) == dataset.FileManifest || filepath.Base(dir) == puzzle.InstanceFile {
			dir = filepath.Dir(dir)
		} else {
			return nil, fmt.Errorf("truth %s is a file; give the dataset folder or a folder of instance folders", dir)
		}
	}
	s := &TruthSet{Root: dir, index: map[string]int{}}
	files, problems := dataset.ManifestInstances(dir) // instance.json paths
	s.Problems = problems
	if len(files) == 0 {
		if files, err = puzzle.FindInstanceFiles(ctx, dir); err != nil {
			if ctx.Err() != nil {
				return nil, ctx.Err()
			}
			return nil, fmt.Errorf("truth folder %s: %w", dir, errors.Unwrap(err))
		}
	}
	if len(files) == 0 {
		return nil, fmt.Errorf("no instances in %s: expected a %s or folders with %s (from 'jigbench generate' or 'jigbench dataset')", dir, dataset.FileManifest, puzzle.InstanceFile)
	}
	type result struct {
		t   *Truth
		err error
	}
	results := make([]result, len(files))
	var done atomic.Int64
	err = parallel(ctx, len(files), func(i int) {
		inst, err := puzzle.ReadInstance(files[i])
		if err != nil {
			results[i].err = fsutil.WithoutPath(err)
		} else {
			results[i].t = TruthOf(inst)
		}
		report(progress.Report{Stage: "reading instances", Done: done.Add(1), Total: int64(len(files))})
	})
	if err != nil {
		return nil, err
	}
	for i, r := range results {
		if r.err != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("skipped %s: %v", files[i], r.err))
			continue
		}
		if err := s.add(TruthInstance{Truth: r.t, Dir: filepath.Dir(files[i])}); err != nil {
			s.Problems = append(s.Problems, fmt.Sprintf("skipped %s: %v", files[i], err))
		}
	}
	if len(s.Instances) == 0 {
		return nil, fmt.Errorf("no readable instance in %s (%s)", dir, s.Problems[0])
	}
	s.sort()
	return s, nil
}

// parallel runs f(0..n-1) with par.For and stops early when ctx is
// cancelled.
func parallel(ctx context.Context, n int, f func(i int)) error {
	return par.For(ctx, n, func(i int) error { f(i); return nil })
}
