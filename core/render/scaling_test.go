package render

import (
	"fmt"
	"image/color"
	"math"
	"os"
	"path/filepath"
	"testing"
)

// testScaling is PA at four grids for the first k of six models, shape
// (solid) and rect (dotted), with the 1/N² baseline: numbers shaped like the
// paper's cliff.
func testScaling(k int) ScalingChart {
	names := []string{"gpt-5.5", "qwen3-vl-8b-sft", "gemma3-12b-sft", "grok-4.2", "claude-opus-4.8", "a-model-with-a-very-long-name-indeed"}
	at4 := []float64{0.6965, 0.9728, 0.9782, 0.069, 0.0662, 0.1197}
	c := ScalingChart{Title: "Piece Accuracy (PA) by grid", Subtitle: "mean over instances; bands: 95% bootstrap interval",
		YLabel: "PA", X: []string{"4×4", "8×8", "12×12", "16×16"}, BaselineName: "random baseline"}
	for _, n := range []float64{4, 8, 12, 16} {
		c.Baseline = append(c.Baseline, 1/(n*n))
	}
	for i := range k {
		for _, rect := range []bool{false, true} {
			s := ScalingSeries{Name: names[i] + " · shape", Colour: SeriesColour(i), Dotted: rect}
			if rect {
				s.Name = names[i] + " · rect"
			}
			v := at4[i]
			if rect {
				v *= 0.3
			}
			for g := range 4 {
				y := v * math.Pow(0.25+0.04*float64(i), float64(g))
				if i == 3 && g == 3 { // no 16×16 answers: a gap in the line
					y = math.NaN()
				}
				half := 0.03 + 0.02*y
				s.Y, s.Lo, s.Hi = append(s.Y, y), append(s.Lo, max(0, y-half)), append(s.Hi, min(1, y+half))
			}
			c.Series = append(c.Series, s)
		}
	}
	return c
}

func testDiff(k int) DiffChart {
	names := []string{"gpt-5.5", "qwen3-vl-8b-sft", "gemma3-12b-sft", "grok-4.2", "claude-opus-4.8", "llama-4-maverick"}
	c := DiffChart{Title: "Shape ablation: shape − rect", Subtitle: "paired over instances answered in both; cell: difference in pp and sign-flip p",
		Cols: []string{"PA", "EM", "AA", "SC", "PA", "EM", "AA", "SC"}, ColGroups: []string{"4×4", "4×4", "4×4", "4×4", "8×8", "8×8", "8×8", "8×8"}}
	for i := range k {
		c.Rows = append(c.Rows, names[i])
		var vals []float64
		var def []bool
		var notes []string
		for j := range 8 {
			v := []float64{0.4575, 0.25, 0.3, 0.35, 0.03, 0, 0.01, -0.02}[j] * (1 - 0.35*float64(i))
			vals = append(vals, v)
			def = append(def, !(i == 2 && j >= 4))
			notes = append(notes, fmt.Sprintf("p=%.3f", 0.001+0.1*float64(j*i%5)))
		}
		c.Values, c.Defined, c.Notes = append(c.Values, vals), append(c.Defined, def), append(c.Notes, notes)
	}
	return c
}

func TestScalingChartGolden(t *testing.T) {
	for _, k := range []int{1, 3, 6} {
		img := DrawScalingChart(testScaling(k), 900, 480, LightPlotStyle(1))
		compareGolden(t, fmt.Sprintf("scaling-%d-models.png", k), img)
		if dir := os.Getenv("JIGBENCH_WRITE_CHARTS"); dir != "" {
			writePNG(t, filepath.Join(dir, fmt.Sprintf("scaling-%d.png", k)), img)
		}
	}
}

func TestScalingChartDraws(t *testing.T) {
	st := LightPlotStyle(1)
	c := testScaling(1)
	img := DrawScalingChart(c, 900, 480, st)
	// Both lines' colour, the translucent band (the colour at alpha 40 over
	// the plot's grey) and the dashed baseline's grey are present.
	if colourCount(img, SeriesColour(0)) < 200 {
		t.Error("the series colour is missing")
	}
	band := blendOver(SeriesColour(0), st.Empty, 40)
	if colourCount(img, band) < 500 {
		t.Error("the interval band is missing")
	}
	if colourCount(img, st.Muted) < 100 {
		t.Error("the baseline is missing")
	}
	// A fixed axis and the above-chance view (negative values) draw too.
	c.YMin, c.YMax = -0.2, 1
	DrawScalingChart(c, 900, 480, st)
	DrawScalingChart(ScalingChart{}, 300, 200, st)
	for _, sz := range [][2]int{{1, 1}, {40, 30}} {
		DrawScalingChart(testScaling(6), sz[0], sz[1], st)
	}
}

// blendOver is colour c at alpha a over bg, as gg composites it.
func blendOver(c, bg color.RGBA, a int) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8((int(x)*a + int(y)*(255-a) + 127) / 255) }
	return color.RGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 255}
}

func TestDiverging(t *testing.T) {
	if c := Diverging(0); c.R != 247 || c.G != 247 || c.B != 247 {
		t.Errorf("0 is %v, want the scale's white", c)
	}
	if c := Diverging(1); c.B <= c.R {
		t.Errorf("+1 is %v, want blue", c)
	}
	if c := Diverging(-1); c.R <= c.B {
		t.Errorf("−1 is %v, want red", c)
	}
	if Diverging(5) != Diverging(1) || Diverging(math.NaN()) != Diverging(0) {
		t.Error("out-of-range values are not clamped")
	}
	if r := DiffChartRange(DiffChart{Values: [][]float64{{0.37, -0.42}}, Defined: [][]bool{{true, true}}}); r != 0.5 {
		t.Errorf("range %v, want 0.5", r)
	}
}

func TestDiffChartGolden(t *testing.T) {
	st := LightPlotStyle(1)
	for _, k := range []int{1, 3, 6} {
		c := testDiff(k)
		img := DrawDiffChart(c, 900, 140+60*k, st)
		compareGolden(t, fmt.Sprintf("diff-%d-models.png", k), img)
		if dir := os.Getenv("JIGBENCH_WRITE_CHARTS"); dir != "" {
			writePNG(t, filepath.Join(dir, fmt.Sprintf("diff-%d.png", k)), img)
		}
		// The first cell holds its value's colour at its layout position.
		l, ok := LayoutDiffChart(c, 900, 140+60*k, st)
		if !ok {
			t.Fatal("nothing fits")
		}
		want := Diverging(c.Values[0][0] / DiffChartRange(c))
		if got := img.RGBAAt(l.Origin.X+3, l.Origin.Y+3); got != want {
			t.Errorf("%d models: first cell %v, want %v", k, got, want)
		}
	}
	DrawDiffChart(DiffChart{}, 200, 100, st)
	DrawDiffChart(testDiff(3), 20, 10, st)
}
