package ui

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
	"github.com/jigbench/jigbench/core/vigor/vigordemo"
)

// RatingStore is what the Rate and Agreement panes need of the ratings
// store. *vigor.Store has it; the app opens one at vigor.DefaultStorePath,
// tests inject a temporary or a failing one (Options.Ratings).
type RatingStore interface {
	// Save stores r and returns it as stored; a nil error means it is on disk.
	Save(ctx context.Context, r vigor.Rating) (vigor.Rating, error)
	// Ratings returns one annotator's ratings of a split by item id.
	Ratings(ctx context.Context, sp *vigor.Split, annotator string) (map[string]vigor.Rating, error)
	// List returns the ratings matching q.
	List(ctx context.Context, q vigor.Query) ([]vigor.Rating, error)
	// Annotators lists who has rated anything in a split.
	Annotators(ctx context.Context, split string) ([]string, error)
}

// storeTimeout bounds one store call; a store that hangs longer (a locked
// database on a network drive) is reported instead of waited for forever.
const storeTimeout = 30 * time.Second

// storeOpener opens the ratings store once, on first use, off the UI
// goroutine. It is safe for concurrent use.
type storeOpener struct {
	open func() (RatingStore, error)

	mu    sync.Mutex
	store RatingStore
}

func newStoreOpener(open func() (RatingStore, error)) *storeOpener {
	if open == nil {
		open = openDefaultStore
	}
	return &storeOpener{open: open}
}

// get returns the store, opening it on the first call. A failure is not
// remembered: the next call tries again (the disk may have been freed).
func (o *storeOpener) get() (RatingStore, error) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.store != nil {
		return o.store, nil
	}
	s, err := o.open()
	if err != nil {
		return nil, err
	}
	o.store = s
	return s, nil
}

func openDefaultStore() (RatingStore, error) {
	path, err := vigor.DefaultStorePath()
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), storeTimeout)
	defer cancel()
	s, err := vigor.OpenStore(ctx, path)
	if err != nil {
		return nil, err
	}
	return s, nil
}

// memStore keeps the demo split's ratings in memory: a first-time rater can
// try the pane without writing into the real ratings database, and the
// screenshots do not depend on what was rated before.
type memStore struct {
	mu      sync.Mutex
	ratings map[[3]string]vigor.Rating // split, item, annotator
}

func newMemStore() *memStore { return &memStore{ratings: make(map[[3]string]vigor.Rating)} }

func (s *memStore) Save(_ context.Context, r vigor.Rating) (vigor.Rating, error) {
	if r.Split == "" || r.Item == "" || r.Annotator == "" {
		return vigor.Rating{}, errors.New("save rating: split, item and annotator are required")
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	k := [3]string{r.Split, r.Item, r.Annotator}
	now := time.Now().UTC()
	r.Created, r.Updated = now, now
	if old, ok := s.ratings[k]; ok {
		r.Created = old.Created
	}
	s.ratings[k] = r
	return r, nil
}

func (s *memStore) Ratings(_ context.Context, sp *vigor.Split, annotator string) (map[string]vigor.Rating, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m := make(map[string]vigor.Rating)
	for k, r := range s.ratings {
		if k[0] == sp.Name && k[2] == annotator {
			m[k[1]] = r
		}
	}
	return m, nil
}

func (s *memStore) List(_ context.Context, q vigor.Query) ([]vigor.Rating, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []vigor.Rating
	for k, r := range s.ratings {
		if (q.Split == "" || q.Split == k[0]) && (q.Item == "" || q.Item == k[1]) &&
			(q.Annotator == "" || q.Annotator == k[2]) && (!q.FlaggedOnly || r.Flagged) {
			out = append(out, r)
		}
	}
	slices.SortFunc(out, func(a, b vigor.Rating) int {
		if c := compareStrings(a.Annotator, b.Annotator); c != 0 {
			return c
		}
		return compareStrings(a.Item, b.Item)
	})
	return out, nil
}

func (s *memStore) Annotators(_ context.Context, split string) ([]string, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	set := map[string]bool{}
	for k := range s.ratings {
		if k[0] == split {
			set[k[2]] = true
		}
	}
	var names []string
	for n := range set {
		names = append(names, n)
	}
	slices.Sort(names)
	return names, nil
}

func compareStrings(a, b string) int {
	switch {
	case a < b:
		return -1
	case a > b:
		return 1
	}
	return 0
}

// The demo split both panes open on: the real `jigbench vigor demo` data
// (vigor.Demo), written once into the user's cache folder and reused, since
// writing it takes seconds. The folder is named after vigordemo.Version, so a
// changed demo is written afresh.

// demoSet is the demo split folder and its simulated ratings and judge runs
// (absolute paths).
type demoSet struct {
	Dir    string
	Humans []string
	Judge  map[vigor.Condition][]string
}

var demoData struct {
	once sync.Once
	set  *demoSet
	err  error
}

// vigorDemo returns the demo split, writing it on first use. It blocks; call
// it off the UI goroutine.
func vigorDemo() (*demoSet, error) {
	demoData.once.Do(func() { demoData.set, demoData.err = prepareDemo() })
	return demoData.set, demoData.err
}

func prepareDemo() (*demoSet, error) {
	parent := ""
	if cache, err := os.UserCacheDir(); err == nil {
		parent = filepath.Join(cache, "jigbench")
	}
	if parent == "" || os.MkdirAll(parent, 0o700) != nil {
		dir, err := os.MkdirTemp("", "jigbench-vigor-demo-")
		if err != nil {
			return nil, fmt.Errorf("make the demo split: %w", err)
		}
		return writeDemo(dir)
	}
	final := filepath.Join(parent, fmt.Sprintf("vigor-demo-v%d", vigordemo.Version))
	if set, err := readDemo(final); err == nil {
		return set, nil
	}
	// Write into a fresh folder and rename it into place, so another jigbench
	// starting at the same time never sees half a demo.
	tmp, err := os.MkdirTemp(parent, ".vigor-demo-*")
	if err != nil {
		return nil, fmt.Errorf("make the demo split: %w", err)
	}
	if _, err := writeDemo(tmp); err != nil {
		os.RemoveAll(tmp)
		return nil, err
	}
	if err := os.Rename(tmp, final); err != nil {
		if set, rerr := readDemo(final); rerr == nil { // someone else was faster
			os.RemoveAll(tmp)
			return set, nil
		}
		os.RemoveAll(final) // a broken old copy
		if err := os.Rename(tmp, final); err != nil {
			return readDemo(tmp) // use it where it is
		}
	}
	return readDemo(final)
}

// writeDemo writes the demo into dir. This is the one place that says what
// the demo is: swap the call to change it.
func writeDemo(dir string) (*demoSet, error) {
	files, err := vigordemo.Write(dir)
	if err != nil {
		return nil, fmt.Errorf("make the demo split: %w", err)
	}
	set := &demoSet{Dir: dir, Judge: make(map[vigor.Condition][]string)}
	for _, h := range files.Humans {
		set.Humans = append(set.Humans, filepath.Join(dir, h))
	}
	for c, js := range files.Judge {
		for _, j := range js {
			set.Judge[c] = append(set.Judge[c], filepath.Join(dir, j))
		}
	}
	return set, writeDemoIndex(dir, set)
}

// demoIndex is written last into a cached demo folder: it marks the copy
// complete and lists its files (relative, slash-separated).
const demoIndex = ".jigbench-demo.json"

type demoIndexFile struct {
	Humans []string            `json:"humans"`
	Judge  map[string][]string `json:"judge"`
}

func writeDemoIndex(dir string, set *demoSet) error {
	idx := demoIndexFile{Judge: make(map[string][]string)}
	rel := func(p string) string {
		r, err := filepath.Rel(dir, p)
		if err != nil {
			return p
		}
		return filepath.ToSlash(r)
	}
	for _, h := range set.Humans {
		idx.Humans = append(idx.Humans, rel(h))
	}
	for c, js := range set.Judge {
		for _, j := range js {
			idx.Judge[string(c)] = append(idx.Judge[string(c)], rel(j))
		}
	}
	data, err := json.Marshal(idx)
	if err != nil {
		return err
	}
	return fsutil.WriteFile(filepath.Join(dir, demoIndex), data)
}

// readDemo opens a demo folder written before; an error means it must be
// written again.
func readDemo(dir string) (*demoSet, error) {
	data, err := os.ReadFile(filepath.Join(dir, demoIndex))
	if err != nil {
		return nil, err
	}
	var idx demoIndexFile
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, err
	}
	set := &demoSet{Dir: dir, Judge: make(map[vigor.Condition][]string)}
	check := func(rel string) (string, error) {
		p := filepath.Join(dir, filepath.FromSlash(rel))
		if !filepath.IsLocal(filepath.FromSlash(rel)) {
			return "", fmt.Errorf("demo index names %q", rel)
		}
		_, err := os.Stat(p)
		return p, err
	}
	for _, h := range idx.Humans {
		p, err := check(h)
		if err != nil {
			return nil, err
		}
		set.Humans = append(set.Humans, p)
	}
	for c, js := range idx.Judge {
		cond, ok := vigor.ParseCondition(c)
		if !ok {
			return nil, fmt.Errorf("demo index: condition %q", c)
		}
		for _, j := range js {
			p, err := check(j)
			if err != nil {
				return nil, err
			}
			set.Judge[cond] = append(set.Judge[cond], p)
		}
	}
	for _, c := range vigor.Conditions {
		slices.Sort(set.Judge[c])
	}
	if _, err := os.Stat(filepath.Join(dir, vigor.SplitFile)); err != nil {
		return nil, err
	}
	if len(set.Humans) == 0 {
		return nil, errors.New("demo index lists no ratings")
	}
	return set, nil
}
