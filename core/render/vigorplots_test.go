package render

import (
	"image"
	"image/color"
	"os"
	"testing"
)

func testGridChart() GridChart {
	return GridChart{
		Title: "Accuracy by subdomain × dimension", Subtitle: "result track · judge with GT",
		Rows:    []string{"Jigsaw Puzzle", "Sorting", "A very long subdomain name that must be shortened"},
		Cols:    []string{"BC", "RO", "VQ", "RS"},
		Values:  [][]float64{{0.9, 0.5, 0.25, 1}, {0, 0.75, 0, 0.33}, {0.5, 0.5, 0.5, 0.5}},
		Defined: [][]bool{{true, true, true, true}, {true, true, false, true}, {true, true, true, true}},
		Counts:  [][]int{{12, 12, 12, 12}, {3, 4, 0, 3}, {1, 1, 1, 1}},
	}
}

// colourCount counts the pixels of img close to c.
func colourCount(img *image.RGBA, c color.RGBA) int {
	n := 0
	for i := 0; i < len(img.Pix); i += 4 {
		d := func(a, b uint8) int {
			if a > b {
				return int(a - b)
			}
			return int(b - a)
		}
		if d(img.Pix[i], c.R)+d(img.Pix[i+1], c.G)+d(img.Pix[i+2], c.B) < 6 {
			n++
		}
	}
	return n
}

func TestVigorChartsDraw(t *testing.T) {
	for _, st := range []PlotStyle{LightPlotStyle(1), DarkPlotStyle(2)} {
		w, h := int(480*st.Scale), int(320*st.Scale)
		grid := DrawGridChart(testGridChart(), w, h, st)
		if grid.Rect.Dx() != w || grid.Rect.Dy() != h {
			t.Fatalf("grid chart is %v, want %d×%d", grid.Rect, w, h)
		}
		// Every defined cell shows its viridis colour; the undefined one is grey.
		for _, v := range []float64{0.9, 0.25, 1, 0.75} {
			if colourCount(grid, Viridis(v)) < 100 {
				t.Errorf("scale %v: the cell of %v is not drawn", st.Scale, v)
			}
		}
		if colourCount(grid, st.Empty) < 100 {
			t.Error("the undefined cell is not drawn grey")
		}
		m := DrawMatrixChart(MatrixChart{Title: "Confusion", RowTitle: "Humans", ColTitle: "Judge →",
			Labels: []string{"bad", "moderate", "good"}, Counts: [][]int{{5, 1, 0}, {2, 3, 1}, {0, 0, 0}}}, w, h, st)
		if colourCount(m, Viridis(5.0/6)) < 100 || colourCount(m, st.Empty) < 100 {
			t.Error("the confusion matrix does not shade cells by their row share")
		}
		sc := DrawScatterChart(ScatterChart{Title: "Judge vs humans", XLabel: "humans", YLabel: "judge",
			Series: []ScatterSeries{{Name: "process", Colour: color.RGBA{230, 120, 20, 255}, Points: [][2]float64{{0.1, 0.2}, {0.8, 0.9}}},
				{Name: "result", Colour: color.RGBA{30, 110, 220, 255}, Points: [][2]float64{{1, 1}, {0, 1}}, Jitter: 0.02}}}, w, h, st)
		if sc.Rect.Dx() != w {
			t.Fatal("scatter size")
		}
		if os.Getenv("JIGBENCH_WRITE_CHARTS") != "" {
			for name, img := range map[string]*image.RGBA{"grid": grid, "matrix": m, "scatter": sc} {
				data, _ := EncodePNG(img)
				os.WriteFile("/tmp/chart-"+name+".png", data, 0o644)
			}
		}
	}
}

func TestVigorChartsTinyAndEmpty(t *testing.T) {
	st := LightPlotStyle(1)
	// Too small to hold anything, and no data: no panic, a picture of the asked size.
	for _, sz := range [][2]int{{1, 1}, {30, 20}, {200, 120}} {
		DrawGridChart(testGridChart(), sz[0], sz[1], st)
		DrawGridChart(GridChart{}, sz[0], sz[1], st)
		DrawMatrixChart(MatrixChart{Labels: []string{"0", "1"}, Counts: [][]int{{0, 0}, {0, 0}}}, sz[0], sz[1], st)
		DrawScatterChart(ScatterChart{}, sz[0], sz[1], st)
	}
}
