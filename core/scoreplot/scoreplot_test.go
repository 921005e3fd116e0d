package scoreplot

import (
	"math"
	"testing"

	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

func testReport() *score.Report {
	g := func(model string, grid int, cond string, pa float64) score.Group {
		return score.Group{Model: model, Grid: grid, Condition: cond, N: 10, Metrics: score.Metrics{PA: pa},
			CI: score.Intervals{PA: score.Interval{pa - 0.1, pa + 0.1}}, Baseline: score.BaselineOf(grid)}
	}
	return &score.Report{
		Groups: []score.Group{g("a", 4, "shape", 0.7), g("a", 4, "rect", 0.25), g("a", 8, "shape", 0.1), g("b", 8, "shape", 0.05)},
		Ablation: []score.Ablation{{Model: "a", Grid: 4, PairedDiff: score.PairedDiff{Pairs: 10,
			PA: score.PairedTest{Diff: 0.45, P: 0.0004}, SC: score.PairedTest{Diff: -0.05, P: 0.5}}}},
		Bootstrap: score.BootstrapOptions{Level: 0.95},
	}
}

func TestScaling(t *testing.T) {
	c, err := Scaling(testReport(), score.PlotPA, false)
	if err != nil {
		t.Fatal(err)
	}
	if len(c.X) != 2 || c.X[0] != "4×4" || len(c.Series) != 3 {
		t.Fatalf("x %v, %d series", c.X, len(c.Series))
	}
	a, ar, b := c.Series[0], c.Series[1], c.Series[2]
	if a.Name != "a · shape" || a.Dotted || !ar.Dotted || a.Colour != ar.Colour || a.Colour == b.Colour {
		t.Errorf("series styles: %+v %+v %+v", a, ar, b)
	}
	// b has no 4×4 group: a gap, not a zero.
	if !math.IsNaN(b.Y[0]) || b.Y[1] != 0.05 || ar.Y[0] != 0.25 || !math.IsNaN(ar.Y[1]) {
		t.Errorf("values: a-rect %v, b %v", ar.Y, b.Y)
	}
	if c.Baseline[0] != 1.0/16 || c.Baseline[1] != 1.0/64 {
		t.Errorf("baselines %v", c.Baseline)
	}
	// Above chance at 4×4: (0.7 − 1/16)/(15/16) = 0.68, interval ends alike.
	ac, _ := Scaling(testReport(), score.PlotPA, true)
	if y, lo := ac.Series[0].Y[0], ac.Series[0].Lo[0]; math.Abs(y-0.68) > 1e-12 || math.Abs(lo-(0.6-0.0625)/0.9375) > 1e-12 || ac.Baseline[0] != 0 {
		t.Errorf("above chance: y %v lo %v baseline %v", y, lo, ac.Baseline)
	}
	if _, err := Scaling(testReport(), "xx", false); err == nil {
		t.Error("unknown metric: no error")
	}
}

func TestAblation(t *testing.T) {
	c := Ablation(testReport())
	if len(c.Rows) != 1 || len(c.Cols) != 4 || c.Cols[0] != "PA" || c.ColGroups[3] != "4×4" {
		t.Fatalf("rows %v cols %v groups %v", c.Rows, c.Cols, c.ColGroups)
	}
	if c.Values[0][0] != 0.45 || c.Values[0][3] != -0.05 || !c.Defined[0][1] || c.Notes[0][0] != "p<.001" || c.Notes[0][3] != "p=.500" {
		t.Errorf("values %v notes %v", c.Values, c.Notes)
	}
	if img := render.DrawDiffChart(c, 600, 200, render.LightPlotStyle(1)); img.Rect.Dx() != 600 {
		t.Error("size")
	}
}

// TestAblationAt: every defined cell of the chart leads back to the
// ablation and metric it shows.
func TestAblationAt(t *testing.T) {
	rep := &score.Report{Ablation: []score.Ablation{
		{Model: "a", Grid: 4, PairedDiff: score.PairedDiff{Pairs: 3, PA: score.PairedTest{Diff: 0.25}, SC: score.PairedTest{Diff: -0.5}}},
		{Model: "b", Grid: 8, PairedDiff: score.PairedDiff{Pairs: 2, EM: score.PairedTest{Diff: 0.125}}},
	}}
	c := Ablation(rep)
	for i := range c.Rows {
		for j := range c.Cols {
			a, m, ok := AblationAt(rep, c, i, j)
			if ok != c.Defined[i][j] {
				t.Fatalf("cell %d,%d: ok %v, defined %v", i, j, ok, c.Defined[i][j])
			}
			if ok && a.Test(m).Diff != c.Values[i][j] {
				t.Errorf("cell %d,%d: %s %d %s = %v, chart %v", i, j, a.Model, a.Grid, m, a.Test(m).Diff, c.Values[i][j])
			}
		}
	}
	if _, _, ok := AblationAt(rep, c, 5, 0); ok {
		t.Error("a row outside the chart")
	}
}
