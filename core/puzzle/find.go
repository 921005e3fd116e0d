package puzzle

import (
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/jigbench/jigbench/core/fsutil"
)

// InstanceRef is an instance folder found on disk.
type InstanceRef struct {
	Dir  string
	ID   string
	Grid int
}

// FindInstances lists the instance folders at root: root itself if it holds
// instance.json, else its subfolders that do, two levels deep (a dataset's
// <split>/<id>/ layout), sorted by path. Unreadable instance.json files are
// skipped and reported together in the error, after the usable ones.
func FindInstances(root string) ([]InstanceRef, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", root, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", root)
	}
	var refs []InstanceRef
	var bad []error
	var walk func(dir string, depth int)
	walk = func(dir string, depth int) {
		if ref, err := readRef(dir); err == nil {
			refs = append(refs, ref)
			return
		} else if !errors.Is(err, os.ErrNotExist) {
			bad = append(bad, err)
			return
		}
		if depth == 0 {
			return
		}
		entries, err := os.ReadDir(dir)
		if err != nil {
			bad = append(bad, err)
			return
		}
		for _, e := range entries {
			if e.IsDir() && e.Name()[0] != '.' {
				walk(filepath.Join(dir, e.Name()), depth-1)
			}
		}
	}
	walk(root, 2)
	sort.Slice(refs, func(i, j int) bool { return refs[i].Dir < refs[j].Dir })
	if len(refs) == 0 && len(bad) == 0 {
		return nil, fmt.Errorf("%s holds no instance folders (folders with %s)", root, "instance.json")
	}
	if len(bad) > 0 {
		return refs, fmt.Errorf("%d instance folder(s) could not be read, e.g. %w", len(bad), bad[0])
	}
	return refs, nil
}

// readRef reads just the id and grid of dir/instance.json.
func readRef(dir string) (InstanceRef, error) {
	path := filepath.Join(dir, "instance.json")
	data, err := readLimited(path, maxInstanceBytes)
	if err != nil {
		return InstanceRef{}, err
	}
	data = fsutil.TrimBOM(data)
	if err := fsutil.CheckUTF8(data); err != nil {
		return InstanceRef{}, fmt.Errorf("%s is not a valid instance.json: %w", path, err)
	}
	var head struct {
		Format string `json:"format"`
		ID     string `json:"id"`
		Grid   int    `json:"grid"`
	}
	if err := json.Unmarshal(data, &head); err != nil || head.Format != InstanceFormat || ValidateGrid(head.Grid) != nil {
		return InstanceRef{}, fmt.Errorf("%s is not a valid instance.json", path)
	}
	return InstanceRef{Dir: dir, ID: head.ID, Grid: head.Grid}, nil
}
