package puzzle

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"

	"strings"
)

// InstanceFile is the file that makes a folder an instance folder
// (docs/formats.md, "Instance folder").
const InstanceFile = "instance.json"

// InstanceSearchDepth is how many folder levels below a root
// FindInstanceFiles looks: a dataset's <split>/<id>/ layout, and one more so
// a folder of datasets or of generate runs opens too.
const InstanceSearchDepth = 3

// FindInstanceFiles lists the instance.json files at root: root's own if it
// has one, else those of its subfolders up to InstanceSearchDepth levels
// down, hidden folders and unreadable subfolders skipped and no search below
// an instance folder, in lexical path order. Finding none is not an error.
func FindInstanceFiles(ctx context.Context, root string) ([]string, error) {
	root = filepath.Clean(root)
	var files []string
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			if path == root {
				return err
			}
			return nil // an unreadable subfolder is not an instance
		}
		if !d.IsDir() {
			return nil
		}
		if err := ctx.Err(); err != nil {
			return err
		}
		if path != root && strings.HasPrefix(d.Name(), ".") {
			return filepath.SkipDir
		}
		file := filepath.Join(path, InstanceFile)
		if _, err := os.Stat(file); err == nil {
			files = append(files, file)
			return filepath.SkipDir
		}
		if strings.Count(path[len(root):], string(filepath.Separator)) >= InstanceSearchDepth {
			return filepath.SkipDir
		}
		return nil
	})
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		var pe *fs.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read folder %s: %w", root, err)
	}
	return files, nil
}

// InstanceRef is an instance folder found on disk.
type InstanceRef struct {
	Dir  string
	ID   string
	Grid int
}

// FindInstances lists the instance folders FindInstanceFiles finds at root,
// sorted by path. Unreadable instance.json files are skipped and reported
// together in the error, after the usable ones.
func FindInstances(root string) ([]InstanceRef, error) {
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("cannot open %s: %w", root, errors.Unwrap(err))
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("%s is not a folder", root)
	}
	files, err := FindInstanceFiles(context.Background(), root)
	if err != nil {
		return nil, err
	}
	var refs []InstanceRef
	var bad []error
	for _, f := range files {
		if ref, err := readRef(f); err != nil {
			bad = append(bad, err)
		} else {
			refs = append(refs, ref)
		}
	}
	sort.Slice(refs, func(i, j int) bool { return refs[i].Dir < refs[j].Dir })
	if len(refs) == 0 && len(bad) == 0 {
		return nil, fmt.Errorf("%s holds no instance folders (folders with %s)", root, InstanceFile)
	}
	if len(bad) > 0 {
		return refs, fmt.Errorf("%d instance folder(s) could not be read, e.g. %w", len(bad), bad[0])
	}
	return refs, nil
}

// readRef reads just the id and grid of an instance.json.
func readRef(path string) (InstanceRef, error) {
	data, err := readLimited(path, maxInstanceBytes)
	if err != nil {
		return InstanceRef{}, err
	}
	data, err = instanceText(data)
	if err != nil {
		return InstanceRef{}, fmt.Errorf("%s: %w", path, err)
	}
	var head struct {
		Format string `json:"format"`
		ID     string `json:"id"`
		Grid   int    `json:"grid"`
	}
	if err := json.Unmarshal(data, &head); err != nil || head.Format != InstanceFormat || ValidateGrid(head.Grid) != nil {
		return InstanceRef{}, fmt.Errorf("%s is not a valid %s", path, InstanceFile)
	}
	return InstanceRef{Dir: filepath.Dir(path), ID: head.ID, Grid: head.Grid}, nil
}
