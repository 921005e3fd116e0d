package models

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"maps"
	"math/rand/v2"
	"path/filepath"
	"slices"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/score"
)

// Fine-tuning layouts.
const (
	LayoutMessages = "messages" // TRL / Hugging Face: typed content parts and "images"
	LayoutShareGPT = "sharegpt" // LLaMA-Factory: "<image>" in the user text and "images"
)

// SFTOptions say what to export for fine-tuning.
type SFTOptions struct {
	Layout    string // LayoutMessages (default) or LayoutShareGPT
	Condition string // shape (default) or rect
	Grids     []int  // only these grids; all when empty
	// Count is how many samples to draw; 0 exports every selected instance
	// once, in ID order.
	Count int
	// GridWeights, if set, draws grid g with probability ∝ GridWeights[g]
	// (InverseAccuracy gives the paper's); else every grid weighs alike.
	GridWeights map[int]float64
	Seed        uint64
}

// InverseAccuracy weighs each grid by 1 − PA of model in the shape
// condition of a score report (the paper's E.1). An empty model is the
// report's only model.
func InverseAccuracy(rep *score.Report, model string, grids []int) (map[int]float64, error) {
	var models []string
	for _, g := range rep.Groups {
		if !slices.Contains(models, g.Model) {
			models = append(models, g.Model)
		}
	}
	if model == "" {
		if len(models) != 1 {
			return nil, fmt.Errorf("the report has %d models (%s); choose one", len(models), strings.Join(models, ", "))
		}
		model = models[0]
	}
	w := map[int]float64{}
	for _, g := range rep.Groups {
		if g.Model == model && g.Condition == puzzle.ConditionShape {
			w[g.Grid] = max(0, 1-g.PA)
		}
	}
	if len(w) == 0 {
		return nil, fmt.Errorf("the report has no shape-condition scores of model %q (it has %s)", model, strings.Join(models, ", "))
	}
	for _, g := range grids {
		if _, ok := w[g]; !ok {
			return nil, fmt.Errorf("the report has no %d×%d score of model %q", g, g, model)
		}
	}
	return w, nil
}

// ExportSFT writes fine-tuning conversations for the train split of the
// dataset under truth to w, one JSON object a line; image paths are relative
// to outDir (the output file's folder). Eval instances are never exported.
// It returns the number of samples.
func ExportSFT(ctx context.Context, w io.Writer, truth, outDir string, opt SFTOptions) (int, error) {
	if opt.Layout == "" {
		opt.Layout = LayoutMessages
	}
	if opt.Layout != LayoutMessages && opt.Layout != LayoutShareGPT {
		return 0, fmt.Errorf("format %q is not messages or sharegpt", opt.Layout)
	}
	if opt.Condition == "" {
		opt.Condition = puzzle.ConditionShape
	}
	if opt.Condition != puzzle.ConditionShape && opt.Condition != puzzle.ConditionRect {
		return 0, fmt.Errorf("condition %q is not shape or rect", opt.Condition)
	}
	all, err := ListInstances(truth, SplitAll)
	if err != nil {
		return 0, err
	}
	if all[0].Split == "" {
		return 0, fmt.Errorf("%s has no manifest.jsonl, so no train split; export sft takes a dataset made by 'jigbench dataset'", truth)
	}
	byGrid := map[int][]Item{}
	for _, it := range all {
		if it.Split == SplitTrain && (len(opt.Grids) == 0 || slices.Contains(opt.Grids, it.Grid)) {
			byGrid[it.Grid] = append(byGrid[it.Grid], it)
		}
	}
	grids := slices.Sorted(maps.Keys(byGrid))
	if len(grids) == 0 {
		return 0, fmt.Errorf("%s has no train-split instances of the grids asked for; export sft never exports eval instances", truth)
	}
	for _, g := range opt.Grids {
		if len(byGrid[g]) == 0 {
			return 0, fmt.Errorf("%s has no %d×%d train instances", truth, g, g)
		}
	}
	order, err := drawSamples(byGrid, grids, opt)
	if err != nil {
		return 0, err
	}
	bw := bufio.NewWriter(w)
	for i := range order {
		if err := ctx.Err(); err != nil {
			return i, err
		}
		line, err := sftLine(&order[i], outDir, opt)
		if err != nil {
			return i, err
		}
		bw.Write(line)
	}
	return len(order), bw.Flush()
}

// drawSamples picks the instances: every one in ID order without Count, else
// Count draws, each a grid by weight and then an instance of that grid
// uniformly without replacement (a grid whose instances are used up drops
// out), from PCG(Seed, 0).
func drawSamples(byGrid map[int][]Item, grids []int, opt SFTOptions) ([]Item, error) {
	if opt.Count == 0 {
		var out []Item
		for _, g := range grids {
			out = append(out, byGrid[g]...)
		}
		slices.SortFunc(out, func(a, b Item) int { return strings.Compare(a.ID, b.ID) })
		return out, nil
	}
	weight := make([]float64, len(grids))
	pool := make([][]Item, len(grids))
	avail := 0
	for i, g := range grids {
		weight[i] = 1
		if opt.GridWeights != nil {
			weight[i] = opt.GridWeights[g]
		}
		pool[i] = slices.Clone(byGrid[g])
		if weight[i] > 0 {
			avail += len(pool[i])
		}
	}
	if opt.Count > avail {
		return nil, fmt.Errorf("%d samples asked for, but the grids with a weight above 0 have %d train instances", opt.Count, avail)
	}
	rng := rand.New(rand.NewPCG(opt.Seed, 0))
	out := make([]Item, 0, opt.Count)
	for len(out) < opt.Count {
		total := 0.0
		for i := range grids {
			if len(pool[i]) > 0 {
				total += weight[i]
			}
		}
		x := rng.Float64() * total
		pick := -1
		for i := range grids {
			if len(pool[i]) == 0 || weight[i] <= 0 {
				continue
			}
			pick = i
			if x < weight[i] {
				break
			}
			x -= weight[i]
		}
		p := pool[pick]
		j := rng.IntN(len(p))
		out = append(out, p[j])
		p[j] = p[len(p)-1]
		pool[pick] = p[:len(p)-1]
	}
	return out, nil
}

// sftLine is one conversation in the chosen layout.
func sftLine(it *Item, outDir string, opt SFTOptions) ([]byte, error) {
	answer, err := it.AnswerJSON()
	if err != nil {
		return nil, err
	}
	_, user, err := readPrompt(it, opt.Condition)
	if err != nil {
		return nil, err
	}
	img, err := filepath.Rel(outDir, it.SheetPath(opt.Condition))
	if err != nil {
		img = it.SheetPath(opt.Condition)
	}
	img = filepath.ToSlash(img)
	type part struct {
		Type string `json:"type"`
		Text string `json:"text,omitempty"`
	}
	type turn struct {
		Role    string `json:"role"`
		Content any    `json:"content"`
	}
	var conv struct {
		Messages []turn   `json:"messages"`
		Images   []string `json:"images"`
	}
	conv.Images = []string{img}
	if opt.Layout == LayoutShareGPT {
		conv.Messages = []turn{{"user", "<image>" + user}, {"assistant", answer}}
	} else {
		conv.Messages = []turn{
			{"user", []part{{Type: "image"}, {Type: "text", Text: user}}},
			{"assistant", []part{{Type: "text", Text: answer}}},
		}
	}
	b, err := json.Marshal(conv)
	if err != nil {
		return nil, err
	}
	return append(b, '\n'), nil
}

// maxReportBytes bounds a score report read for its accuracies.
const maxReportBytes = 256 << 20

// ReadReport reads a score report written by `jigbench score --json`.
func ReadReport(path string) (*score.Report, error) {
	data, err := fsutil.ReadFile(path, maxReportBytes)
	if err != nil {
		return nil, fmt.Errorf("cannot read the report: %v", err)
	}
	var rep score.Report
	if err := json.Unmarshal(data, &rep); err != nil || rep.Format != score.ReportFormat {
		return nil, fmt.Errorf("%s is not a jigbench score report (want %q)", path, score.ReportFormat)
	}
	return &rep, nil
}
