// Package models connects JigShape instances to vision-language models
// (docs/models.md): it writes OpenAI batch request files, runs them against
// any OpenAI-compatible chat-completions server with ceilings, retries and
// resume, and exports datasets for Hugging Face and for fine-tuning. The
// batch formats themselves are in core/batch.
package models

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/dataset"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// Split selectors.
const (
	SplitTrain = dataset.SplitTrain
	SplitEval  = dataset.SplitEval
	SplitAll   = "all"
)

// Item is one instance of a truth folder with what the dataset says about it.
type Item struct {
	ID    string
	Grid  int
	Dir   string // the instance folder
	Split string // "" when the folder has no manifest
	// Source and Seed come from the manifest ("" and 0 without one).
	Source string
	Seed   uint64
}

// SheetPath is the sheet image of a condition.
func (it *Item) SheetPath(condition string) string {
	if condition == puzzle.ConditionRect {
		return filepath.Join(it.Dir, render.FileRect)
	}
	return filepath.Join(it.Dir, render.FileShape)
}

// PromptPath is the prompt file of a condition.
func (it *Item) PromptPath(condition string) string {
	if condition == puzzle.ConditionRect {
		return filepath.Join(it.Dir, render.FilePromptRect)
	}
	return filepath.Join(it.Dir, render.FilePromptShap)
}

// AnswerJSON is the instance's solution as the answer JSON models are asked
// for, {"<piece id>": [row, col], …}, read from its instance.json.
func (it *Item) AnswerJSON() (string, error) {
	n, sol, err := puzzle.ReadSolution(filepath.Join(it.Dir, render.FileInstance))
	if err != nil {
		return "", err
	}
	return score.MappingJSON(sol.Indices(n), n), nil
}

// ListInstances lists the instances under truth in ID order: a dataset
// folder's manifest.jsonl (which gives splits), else the instance folders
// puzzle.FindInstances finds (no splits, so only SplitAll selects them).
func ListInstances(truth, split string) ([]Item, error) {
	if split == "" {
		split = SplitAll
	}
	if split != SplitAll && split != SplitTrain && split != SplitEval {
		return nil, fmt.Errorf("split %q is not train, eval or all", split)
	}
	var items []Item
	manifest := filepath.Join(truth, dataset.FileManifest)
	if _, err := os.Stat(manifest); err == nil {
		entries, err := dataset.ReadManifest(manifest)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			if split != SplitAll && e.Split != split {
				continue
			}
			items = append(items, Item{ID: e.ID, Grid: e.Grid, Dir: filepath.Join(truth, filepath.FromSlash(e.Path)),
				Split: e.Split, Source: e.Source, Seed: e.Seed})
		}
		if len(items) == 0 {
			return nil, fmt.Errorf("%s lists no %s instances", manifest, split)
		}
	} else if !errors.Is(err, fs.ErrNotExist) {
		return nil, fmt.Errorf("cannot read %s: %v", manifest, err)
	} else {
		if split != SplitAll {
			return nil, fmt.Errorf("%s has no %s, so its instances have no split; use split all", truth, dataset.FileManifest)
		}
		refs, err := puzzle.FindInstances(truth)
		if err != nil {
			return nil, err
		}
		for _, r := range refs {
			items = append(items, Item{ID: r.ID, Grid: r.Grid, Dir: r.Dir})
		}
	}
	slices.SortStableFunc(items, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
	for i := 1; i < len(items); i++ {
		if items[i].ID == items[i-1].ID {
			return nil, fmt.Errorf("instance %s appears twice in %s", items[i].ID, truth)
		}
	}
	for _, it := range items {
		if strings.ContainsRune(it.ID, ':') {
			return nil, fmt.Errorf("instance id %q contains ':', which custom_ids reserve", it.ID)
		}
	}
	return items, nil
}

// Conditions expands a condition flag: shape, rect or both (shape first).
func Conditions(flag string) ([]string, error) {
	switch flag {
	case "", puzzle.ConditionShape:
		return []string{puzzle.ConditionShape}, nil
	case puzzle.ConditionRect:
		return []string{puzzle.ConditionRect}, nil
	case "both":
		return []string{puzzle.ConditionShape, puzzle.ConditionRect}, nil
	}
	return nil, fmt.Errorf("condition %q is not shape, rect or both", flag)
}

// SplitPrompt separates a prompt file's system part from its user part: a
// file whose first line starts with "System:" has its first paragraph (up to
// the first blank line, without the label) as the system prompt. jigbench's
// own prompts have no system part.
func SplitPrompt(text string) (system, user string) {
	const label = "System:"
	if !strings.HasPrefix(text, label) {
		return "", text
	}
	first, rest, _ := strings.Cut(text, "\n\n")
	return strings.TrimSpace(first[len(label):]), strings.TrimLeft(rest, "\n")
}

// maxPromptBytes bounds a prompt file; jigbench's are a few KB.
const maxPromptBytes = 1 << 20

func readPrompt(it *Item, condition string) (system, user string, err error) {
	b, err := fsutil.ReadFile(it.PromptPath(condition), maxPromptBytes)
	if err != nil {
		return "", "", fmt.Errorf("instance %s: cannot read its %s prompt: %v", it.ID, condition, err)
	}
	system, user = SplitPrompt(string(b))
	return system, user, nil
}
