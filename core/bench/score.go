package bench

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/score"
)

// ScoringTarget is issue #3's bound: scoring adds at most 50% to decoding.
const ScoringTarget = 1.5

// Scoring's workload.
const (
	scoringGrid    = 16
	scoringAnswers = 10000
	scoringTruths  = 8 // distinct puzzles behind the 10,000 instance IDs
)

// Scoring measures scoring 10,000 16×16 answers read from a JSONL file in
// dir — reading and parsing every line, scoring every answer, and
// aggregating with 2,000 bootstrap replicates — against the floor of
// decoding the same file line by line with encoding/json into a generic
// structure (map[string]any). The answers are mixed as real runs are: 40%
// exact, 30% perturbed (swaps and left-out pieces), 20% random permutations,
// 10% raw chat responses with the JSON in a fenced block.
func Scoring(dir string) (Case, error) {
	truth, path, err := scoringData(dir)
	if err != nil {
		return Case{}, err
	}
	src := score.Source{Model: "bench", Path: path, Condition: puzzle.ConditionShape}
	ctx := context.Background()
	return Case{
		Name:      fmt.Sprintf("score %d %d×%d answers (JSONL)", scoringAnswers, scoringGrid, scoringGrid),
		FloorName: "encoding/json decode of the JSONL",
		Target:    ScoringTarget,
		Work: func() error {
			set, err := score.LoadAnswers(ctx, src, truth, nil)
			if err != nil {
				return err
			}
			scores, _ := score.ScoreAnswers(truth, set)
			if len(scores) != scoringAnswers {
				return fmt.Errorf("scored %d answers, want %d", len(scores), scoringAnswers)
			}
			groups, err := score.Aggregate(ctx, scores, score.BootstrapOptions{Seed: 1}, nil)
			if err != nil {
				return err
			}
			if len(groups) != 1 || groups[0].Invalid != 0 {
				return fmt.Errorf("unexpected groups %+v", groups)
			}
			return nil
		},
		Floor: func() error {
			f, err := os.Open(path)
			if err != nil {
				return err
			}
			defer f.Close()
			br := bufio.NewReaderSize(f, 64<<10)
			lines := 0
			for {
				line, err := br.ReadBytes('\n')
				if len(bytes.TrimSpace(line)) > 0 {
					var v any
					if err := json.Unmarshal(line, &v); err != nil {
						return err
					}
					lines++
				}
				if errors.Is(err, io.EOF) {
					break
				}
				if err != nil {
					return err
				}
			}
			if lines != scoringAnswers {
				return fmt.Errorf("decoded %d lines", lines)
			}
			return nil
		},
	}, nil
}

// scoringData builds the truth in memory and writes the answers file.
func scoringData(dir string) (*score.TruthSet, string, error) {
	const n = scoringGrid
	rng := rand.New(rand.NewPCG(2026, 3))
	var base []*score.Truth
	for range scoringTruths {
		h := make([][]int, n)
		for r := range h {
			h[r] = make([]int, n-1)
			for c := range h[r] {
				h[r][c] = 2*rng.IntN(2) - 1
			}
		}
		v := make([][]int, n-1)
		for r := range v {
			v[r] = make([]int, n)
			for c := range v[r] {
				v[r][c] = 2*rng.IntN(2) - 1
			}
		}
		t := &score.Truth{Grid: n, Cell: rng.Perm(n * n), Sides: make([]puzzle.Sides, n*n)}
		for k, c := range t.Cell {
			t.Sides[k] = puzzle.SidesOf(h, v, puzzle.Cell{Row: c / n, Col: c % n})
		}
		base = append(base, t)
	}
	truths := make([]*score.Truth, scoringAnswers)
	var b bytes.Buffer
	for i := range truths {
		t := *base[i%scoringTruths]
		t.ID = fmt.Sprintf("bench-g%d-s%05d", n, i)
		truths[i] = &t
		pred := append([]int(nil), t.Cell...)
		kind := i % 10
		switch {
		case kind < 4: // exact
		case kind < 7 || kind == 9: // perturbed
			for range 1 + rng.IntN(20) {
				a, c := rng.IntN(n*n), rng.IntN(n*n)
				pred[a], pred[c] = pred[c], pred[a]
			}
			for range rng.IntN(4) {
				pred[rng.IntN(n*n)] = score.Missing
			}
		default: // random
			pred = rng.Perm(n * n)
		}
		mapping := score.MappingJSON(pred, n)
		if kind == 9 {
			resp := "Let me find the corners first, then the borders.\n```json\n" + mapping + "\n```\nThe rest follows from the tabs."
			js, _ := json.Marshal(resp)
			fmt.Fprintf(&b, `{"id": %q, "response": %s}`+"\n", t.ID, js)
		} else {
			fmt.Fprintf(&b, `{"id": %q, "prediction": %s}`+"\n", t.ID, mapping)
		}
	}
	set, err := score.NewTruthSet(truths...)
	if err != nil {
		return nil, "", err
	}
	path := filepath.Join(dir, fmt.Sprintf("score-%d.jsonl", n))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, "", err
	}
	if err := fsutil.WriteFile(path, b.Bytes()); err != nil {
		return nil, "", err
	}
	return set, path, nil
}
