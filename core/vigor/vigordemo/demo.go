// Package vigordemo writes the ViGoR demo split: jigbench puzzles as items,
// simulated annotators and simulated judge runs. It lives apart from
// core/vigor so the agreement code needs no image rendering.
package vigordemo

import (
	"fmt"
	"image"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/vigor"
)

// Name names the demo split.
const Name = "jigbench-demo"

// Version changes whenever Write's output does (a test pins the output's
// digest to it), so copies cached by the app are never stale.
const Version = 2

// demoModels are the simulated generative models of the demo, each with the
// share of pieces it puts in the right cell.
var demoModels = []struct {
	name  string
	skill float64
}{
	{"simulated-model-strong", 0.92},
	{"simulated-model-middling", 0.6},
	{"simulated-model-weak", 0.25},
}

// Demo sizes: small enough to write in a few seconds, big enough to rate.
const (
	demoResultItems  = 18
	demoProcessItems = 9
	demoImageSize    = 384
	demoFrames       = 6
)

// Files lists what Write wrote, relative to its folder.
type Files struct {
	Split     string                       // split.json
	Humans    []string                     // one ratings CSV per simulated annotator
	Judge     map[vigor.Condition][]string // one JSONL per simulated judge run
	ItemCount int
}

// Write writes the demo split into dir, built from jigbench's own puzzles:
// each item asks to reassemble a shuffled sheet (the input); a result item's
// output is a reassembly with some pieces misplaced, a process item's output
// is the sequence of frames placing the pieces one step at a time; the
// ground truth is the solved image. Three simulated annotators' ratings and
// three simulated judge runs per condition come with it; every name says
// "simulated". The same call writes the same files.
func Write(dir string) (*Files, error) {
	if err := os.MkdirAll(filepath.Join(dir, "img"), 0o755); err != nil {
		return nil, err
	}
	sp := &vigor.Split{Format: vigor.SplitFormat, Name: Name}
	quality := map[string][vigor.NumDims]float64{}
	r := rand.New(rand.NewPCG(2026, 12))
	scenes := demo.Names()
	for i := range demoResultItems + demoProcessItems {
		process := i >= demoResultItems
		m := demoModels[i%len(demoModels)]
		scene := scenes[i%len(scenes)]
		n := 3 + i%2 // 3×3 and 4×4: a rater can judge them at a glance
		shaped := i%4 != 3
		src, err := demo.Image(scene)
		if err != nil {
			return nil, err
		}
		opt := puzzle.DefaultOptions()
		opt.Size = demoImageSize
		g, err := render.Generate(render.SourceFromImage(scene, src), n, uint64(100+i), opt)
		if err != nil {
			return nil, err
		}
		truth := make([]int, n*n)
		for k, c := range g.Puzzle.CellOf {
			truth[k] = c.Row*n + c.Col
		}
		pred, correct := demoAnswer(r, truth, m.skill)
		id := fmt.Sprintf("r-%04d", i+1)
		if process {
			id = fmt.Sprintf("p-%04d", i-demoResultItems+1)
		}
		sheet, cut := g.Shape, "tab-and-blank"
		if !shaped {
			sheet, cut = g.Rect, "straight-cut"
		}
		it := vigor.Item{
			ID: id, Domain: "Symbolic", Subdomain: "Jigsaw, " + cut, Model: m.name,
			Instruction: fmt.Sprintf("The input shows the %d %s pieces of a %d×%d jigsaw puzzle, shuffled and numbered at random. "+
				"Reassemble them into the complete picture.", n*n, cut, n, n),
			Input:   "img/" + id + "-input.png",
			GTImage: "img/" + id + "-gt.png",
			GTText:  fmt.Sprintf("The solved %d×%d puzzle shows the '%s' scene: %s", n, n, scene, demo.Describe(scene)),
		}
		files := map[string]*image.RGBA{it.Input: sheet, it.GTImage: g.Solved}
		if !process {
			it.Track = vigor.TrackResult
			it.Output = "img/" + id + "-output.png"
			files[it.Output] = render.Assemble(g.Puzzle, g.Solved, pred, shaped)
		} else {
			it.Track = vigor.TrackProcess
			for f := range demoFrames {
				step := make([]int, len(pred))
				placed := int(math.Round(float64(len(pred)) * float64(f+1) / demoFrames))
				for k := range step {
					step[k] = -1
					if k < placed {
						step[k] = pred[k]
					}
				}
				rel := fmt.Sprintf("img/%s/frame-%02d.png", id, f)
				it.Frames = append(it.Frames, rel)
				files[rel] = render.Assemble(g.Puzzle, g.Solved, step, shaped)
			}
		}
		for rel, img := range files {
			if err := writePNG(filepath.Join(dir, rel), img); err != nil {
				return nil, err
			}
		}
		sp.Items = append(sp.Items, it)
		// What a careful rater would see: background and visual quality
		// hold up, rules are obeyed (every piece used once), and the
		// reasoning is as good as the share of pieces in place.
		frac := float64(correct) / float64(n*n)
		reason := frac * frac
		if correct == n*n {
			reason = 1
		}
		quality[id] = [vigor.NumDims]float64{0.55 + 0.4*frac, 0.85, 0.8 + 0.15*frac, reason}
	}
	if err := vigor.WriteSplit(dir, sp); err != nil {
		return nil, err
	}
	loaded, err := vigor.Load(dir)
	if err != nil {
		return nil, fmt.Errorf("the demo split does not load: %w", err)
	}
	humans, judge := vigor.Simulate(loaded, vigor.SimConfig{Seed: 7, Quality: func(it *vigor.Item) [vigor.NumDims]float64 { return quality[it.ID] }})
	out := &Files{Split: "split.json", Judge: map[vigor.Condition][]string{}, ItemCount: len(sp.Items)}
	if err := os.MkdirAll(filepath.Join(dir, "simulated"), 0o755); err != nil {
		return nil, err
	}
	byAnnotator := map[string][]vigor.Rating{}
	var names []string
	for _, h := range humans {
		if _, ok := byAnnotator[h.Annotator]; !ok {
			names = append(names, h.Annotator)
		}
		byAnnotator[h.Annotator] = append(byAnnotator[h.Annotator], h)
	}
	for _, a := range names {
		rel := filepath.Join("simulated", a+".csv")
		if err := vigor.WriteRatingsFile(filepath.Join(dir, rel), byAnnotator[a]); err != nil {
			return nil, err
		}
		out.Humans = append(out.Humans, rel)
	}
	for _, cond := range vigor.Conditions {
		runs := map[int][]vigor.JudgeRecord{}
		maxRun := 0
		for _, j := range judge {
			if j.Condition == cond {
				runs[j.Run] = append(runs[j.Run], j)
				maxRun = max(maxRun, j.Run)
			}
		}
		for run := 1; run <= maxRun; run++ {
			rel := filepath.Join("simulated", fmt.Sprintf("simulated-judge-%s-run%d.jsonl", cond, run))
			if err := vigor.WriteJudgeFile(filepath.Join(dir, rel), loaded, runs[run]); err != nil {
				return nil, err
			}
			out.Judge[cond] = append(out.Judge[cond], rel)
		}
	}
	return out, nil
}

// demoAnswer places about skill·N² pieces in their true cells (truth[k] is
// piece k's) and moves the rest round in a cycle among their true cells, so
// every cell holds one piece; it returns the prediction and how many pieces
// are in place.
func demoAnswer(r *rand.Rand, truth []int, skill float64) ([]int, int) {
	m := len(truth)
	pred := append([]int(nil), truth...)
	wrong := int(math.Round(float64(m) * (1 - skill)))
	if wrong == 1 {
		wrong = 2 // a single misplaced piece would need a free cell
	}
	chosen := r.Perm(m)[:wrong]
	for i, k := range chosen {
		pred[k] = truth[chosen[(i+1)%len(chosen)]]
	}
	return pred, m - wrong
}

func writePNG(path string, img *image.RGBA) error {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	data, err := render.EncodePNG(img)
	if err != nil {
		return err
	}
	return fsutil.WriteFile(path, data)
}
