package render_test

// These tests draw score.Heatmap values, so they sit outside package render:
// core/score imports core/dataset, which imports core/render. Moved from
// heatmap_test.go.

import (
	"fmt"
	"image"
	"image/color"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
	"github.com/jigbench/jigbench/core/score"
)

// goldenHeatmap is a fixed 4×4 AA heatmap: edge rates chosen by hand,
// cell values their means.
func goldenHeatmap() *score.Heatmap {
	h := &score.Heatmap{
		Metric: score.HeatmapAA, Model: "golden", Grid: 4, Condition: "shape", Instances: 10, Invalid: 1,
		Horizontal: [][]float64{{1, 0.5, 0}, {0.9, 0.25, 0.1}, {0.75, 0.6, 0.3}, {0.2, 0.4, 0.8}},
		Vertical:   [][]float64{{1, 0, 0.5, 0.33}, {0.66, 0.1, 0.2, 0.9}, {0.45, 0.55, 0.05, 0.95}},
		Cells:      make([]float64, 16),
	}
	sum := 0.0
	for r := range 4 {
		for c := range 4 {
			e := h.CellEdges(r, c)
			s := 0.0
			for _, v := range e {
				s += v
			}
			h.Cells[r*4+c] = s / float64(len(e))
		}
	}
	for _, rows := range [][][]float64{h.Horizontal, h.Vertical} {
		for _, row := range rows {
			for _, v := range row {
				sum += v
			}
		}
	}
	h.Mean = sum / 24
	return h
}

// TestHeatmapGolden compares a fixed heatmap with testdata/heatmap-aa-4x4.png
// (JIGBENCH_UPDATE_GOLDEN=1 rewrites it). Text is anti-aliased by
// x/image/vector, whose float arithmetic may differ by a step between
// architectures, so a few pixels may differ by a little; layout, colours and
// legend may not.
func TestHeatmapGolden(t *testing.T) {
	img := render.Heatmap(goldenHeatmap(), render.HeatmapOptions{CellSize: 120})
	render.CompareGolden(t, "heatmap-aa-4x4.png", img)
	// Spot checks independent of the golden file: a tile holds its cell's
	// colour, a bar its edge's colour.
	h := goldenHeatmap()
	cell := 120
	gridX, gridY := heatGridOrigin(t, img, cell)
	tile := img.RGBAAt(gridX+cell/2-cell/4+3, gridY+cell/2-cell/4+3) // inside tile (0,0), away from its text
	if want := render.Viridis(h.Cells[0]); !near(tile, want) {
		t.Errorf("tile (0,0) is %v, want %v", tile, want)
	}
	bar := img.RGBAAt(gridX+cell, gridY+cell/2-cell/8) // the bar between (0,0) and (0,1), off its label
	if want := render.Viridis(h.Horizontal[0][0]); !near(bar, want) {
		t.Errorf("bar (0,0)-(0,1) is %v, want %v", bar, want)
	}
}

// heatGridOrigin finds the grid's top-left corner: the frame's first pixel
// row and column inside, found by scanning for the first tile colour.
func heatGridOrigin(t *testing.T, img *image.RGBA, cell int) (int, int) {
	t.Helper()
	// The frame is heatFrame; the grid starts one pixel inside it.
	b := img.Bounds()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		for x := b.Min.X; x < b.Max.X-cell; x++ {
			if img.RGBAAt(x, y) == render.HeatFrame && img.RGBAAt(x+cell, y) == render.HeatFrame && img.RGBAAt(x, y+cell) == render.HeatFrame {
				return x + 1, y + 1
			}
		}
	}
	t.Fatal("no grid frame found")
	return 0, 0
}

func near(a, b color.RGBA) bool {
	return render.AbsDiff(uint32(a.R), uint32(b.R)) <= 1 && render.AbsDiff(uint32(a.G), uint32(b.G)) <= 1 && render.AbsDiff(uint32(a.B), uint32(b.B)) <= 1
}

// simTruth is a random N×N puzzle's truth: random polarities and IDs.
func simTruth(id string, n int, rng *rand.Rand) *score.Truth {
	h := make([][]int, n)
	for i := range h {
		h[i] = make([]int, n-1)
		for j := range h[i] {
			h[i][j] = 2*rng.IntN(2) - 1
		}
	}
	v := make([][]int, n-1)
	for i := range v {
		v[i] = make([]int, n)
		for j := range v[i] {
			v[i][j] = 2*rng.IntN(2) - 1
		}
	}
	t := &score.Truth{ID: id, Grid: n, Cell: rng.Perm(n * n), Sides: make([]puzzle.Sides, n*n)}
	for k, c := range t.Cell {
		t.Sides[k] = puzzle.SidesOf(h, v, puzzle.Cell{Row: c / n, Col: c % n})
	}
	return t
}

// The simulated models of core/score: right near corners and borders, and random.
var (
	simBorderModel = score.SimBorderAware.Place
	simRandomModel = score.SimRandom.Place
)

// simScores answers count random n×n puzzles with model.
func simScores(n, count int, name string, model func(*score.Truth, *rand.Rand) []int, seed uint64) (*score.TruthSet, []score.InstanceScore) {
	rng := rand.New(rand.NewPCG(seed, uint64(n)))
	var truths []*score.Truth
	var scores []score.InstanceScore
	for i := range count {
		t := simTruth(fmt.Sprintf("sim-g%d-%d", n, i), n, rng)
		truths = append(truths, t)
		pred := model(t, rng)
		scores = append(scores, score.InstanceScore{Model: name, ID: t.ID, Grid: n, Condition: "shape", Valid: true, Metrics: score.Score(t, pred), Pred: pred})
	}
	set, _ := score.NewTruthSet(truths...)
	return set, scores
}

// TestHeatmapLook writes heatmaps of simulated models and reassembly views
// to $JIGBENCH_LOOK (e.g. /tmp/score-look) for a person to look at.
func TestHeatmapLook(t *testing.T) {
	dir := os.Getenv("JIGBENCH_LOOK")
	if dir == "" {
		t.Skip("set JIGBENCH_LOOK=DIR to write heatmaps and reassembly views to look at")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{4, 8, 16} {
		for _, m := range []struct {
			name  string
			model func(*score.Truth, *rand.Rand) []int
		}{{"border-aware", simBorderModel}, {"random", simRandomModel}} {
			truth, scores := simScores(n, 200, m.name, m.model, 5)
			for _, metric := range []score.HeatmapMetric{score.HeatmapPA, score.HeatmapAA, score.HeatmapSC} {
				h, err := score.HeatmapOf(truth, scores, metric, m.name, n, "shape")
				if err != nil {
					t.Fatal(err)
				}
				render.WritePNG(t, filepath.Join(dir, fmt.Sprintf("heatmap-%s-%s-%dx%d.png", metric, m.name, n, n)), render.Heatmap(h, render.HeatmapOptions{}))
			}
		}
	}
	render.WritePNG(t, filepath.Join(dir, "heatmap-golden-aa-4x4.png"), render.Heatmap(goldenHeatmap(), render.HeatmapOptions{CellSize: 120}))

	img, err := demo.Image(demo.Names()[0])
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{4, 8, 16} {
		g, err := render.Generate(render.SourceFromImage("look", img), n, 3, puzzle.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		truth := score.TruthOf(g.Instance)
		rng := rand.New(rand.NewPCG(9, uint64(n)))
		pred := simBorderModel(truth, rng)
		// Make it untidy: a collision, a hole and an unplaced piece.
		pred[0], pred[1] = pred[2], -1
		for _, shaped := range []bool{true, false} {
			cond := "rect"
			if shaped {
				cond = "shape"
			}
			v := render.Reassembly(g.Puzzle, g.Solved, pred, render.ReassemblyOptions{Shaped: shaped, Labels: true,
				Title: fmt.Sprintf("border-aware · %s · %s", g.Instance.ID, cond)})
			render.WritePNG(t, filepath.Join(dir, fmt.Sprintf("reassembly-%dx%d-%s.png", n, n, cond)), v)
		}
	}
}
