// The demo split the app opens on: the real `jigbench vigor demo` data,
// written once into the user's cache folder and reused, since writing it
// takes seconds. The folder is named after the demo's version, so a
// changed demo is written afresh.

package vigordemo

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"sync"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/vigor"
)

// Set is the demo split folder and its simulated ratings and judge runs
// (absolute paths).
type Set struct {
	Dir    string
	Humans []string
	Judge  map[vigor.Condition][]string
}

var cached struct {
	once sync.Once
	set  *Set
	err  error
}

// Cached returns the demo split, writing it on first use into the user's
// cache folder. It blocks for seconds the first time.
func Cached() (*Set, error) {
	cached.once.Do(func() { cached.set, cached.err = prepare() })
	return cached.set, cached.err
}

func prepare() (*Set, error) {
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
	final := filepath.Join(parent, fmt.Sprintf("vigor-demo-v%d", Version))
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
func writeDemo(dir string) (*Set, error) {
	files, err := Write(dir)
	if err != nil {
		return nil, fmt.Errorf("make the demo split: %w", err)
	}
	set := &Set{Dir: dir, Judge: make(map[vigor.Condition][]string)}
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

func writeDemoIndex(dir string, set *Set) error {
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
func readDemo(dir string) (*Set, error) {
	data, err := os.ReadFile(filepath.Join(dir, demoIndex))
	if err != nil {
		return nil, err
	}
	var idx demoIndexFile
	if err := json.Unmarshal(data, &idx); err != nil {
		return nil, err
	}
	set := &Set{Dir: dir, Judge: make(map[vigor.Condition][]string)}
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
