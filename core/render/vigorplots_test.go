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

// over is c at alpha a (0–255) over an opaque bg.
func over(c, bg color.RGBA, a int) color.RGBA {
	mix := func(x, y uint8) uint8 { return uint8((int(x)*a + int(y)*(255-a) + 127) / 255) }
	return color.RGBA{mix(c.R, bg.R), mix(c.G, bg.G), mix(c.B, bg.B), 255}
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
		orange, blue := color.RGBA{230, 120, 20, 255}, color.RGBA{30, 110, 220, 255}
		process := ScatterSeries{Name: "process", Colour: orange, Points: [][2]float64{{0.1, 0.2}, {0.8, 0.9}}}
		result := ScatterSeries{Name: "result", Colour: blue, Points: [][2]float64{{1, 1}, {0, 1}}, Jitter: 0.02}
		chart := ScatterChart{Title: "Judge vs humans", XLabel: "humans", YLabel: "judge", Series: []ScatterSeries{process, result}}
		sc := DrawScatterChart(chart, w, h, st)
		if sc.Rect.Dx() != w || sc.Rect.Dy() != h {
			t.Fatalf("scatter chart is %v, want %d×%d", sc.Rect, w, h)
		}
		// Points are translucent dots on the plot's background; the legend
		// shows each series' colour itself.
		dotOrange, dotBlue := over(orange, st.Empty, 150), over(blue, st.Empty, 150)
		for _, c := range []color.RGBA{orange, blue, dotOrange} { // the result points sit on corners
			if colourCount(sc, c) < 10 {
				t.Errorf("scale %v: no %v in the scatter chart", st.Scale, c)
			}
		}
		// Only what is given is drawn: without the result series no pixel
		// has its colour; each point is a dot of its own.
		chart.Series = chart.Series[:1]
		only := DrawScatterChart(chart, w, h, st)
		if colourCount(only, blue) != 0 || colourCount(only, dotBlue) != 0 {
			t.Errorf("scale %v: a chart of the process series alone has blue pixels", st.Scale)
		}
		chart.Series[0].Points = append(chart.Series[0].Points, [2]float64{0.5, 0.1}, [2]float64{0.3, 0.7})
		more := DrawScatterChart(chart, w, h, st)
		if a, b := colourCount(only, dotOrange), colourCount(more, dotOrange); b < a*3/2 {
			t.Errorf("scale %v: four points have %d dot pixels, two had %d", st.Scale, b, a)
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
	// Too small to hold anything, and no data: a picture of the asked size,
	// and an empty chart shows no cell colour.
	for _, sz := range [][2]int{{1, 1}, {30, 20}, {200, 120}} {
		want := image.Rect(0, 0, sz[0], sz[1])
		empty := DrawGridChart(GridChart{}, sz[0], sz[1], st)
		for name, img := range map[string]*image.RGBA{
			"grid":        DrawGridChart(testGridChart(), sz[0], sz[1], st),
			"empty grid":  empty,
			"zero matrix": DrawMatrixChart(MatrixChart{Labels: []string{"0", "1"}, Counts: [][]int{{0, 0}, {0, 0}}}, sz[0], sz[1], st),
			"scatter":     DrawScatterChart(ScatterChart{}, sz[0], sz[1], st),
		} {
			if img.Rect != want {
				t.Errorf("%s at %v is %v", name, sz, img.Rect)
			}
		}
		for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
			if n := colourCount(empty, Viridis(v)); n != 0 {
				t.Errorf("an empty grid chart at %v has %d pixels of the colour of %v", sz, n, v)
			}
		}
	}
}

// centroid is the mean position of img's pixels close to c, and how many.
func centroid(img *image.RGBA, c color.RGBA) (x, y float64, n int) {
	b := img.Rect
	for py := b.Min.Y; py < b.Max.Y; py++ {
		for px := b.Min.X; px < b.Max.X; px++ {
			o := img.PixOffset(px, py)
			d := 0
			for k, v := range []uint8{c.R, c.G, c.B} {
				d += max(int(img.Pix[o+k])-int(v), int(v)-int(img.Pix[o+k]))
			}
			if d < 6 {
				x, y, n = x+float64(px), y+float64(py), n+1
			}
		}
	}
	if n > 0 {
		x, y = x/float64(n), y/float64(n)
	}
	return x, y, n
}

// One series per judge condition: each has its legend entry in its own
// colour, in the order given, and its point where its value puts it.
func TestScatterChartOneSeriesPerCondition(t *testing.T) {
	names := []string{"without_gt (1)", "text_gt_only (1)", "image_gt_only (1)", "with_gt (1)"}
	// Points away from the legend (top left) and from each other.
	at := [][2]float64{{0.35, 0.15}, {0.85, 0.3}, {0.6, 0.55}, {0.9, 0.8}}
	for _, st := range []PlotStyle{LightPlotStyle(1), DarkPlotStyle(2)} {
		w, h := int(520*st.Scale), int(480*st.Scale)
		var series []ScatterSeries
		for i, n := range names {
			series = append(series, ScatterSeries{Name: n, Colour: SeriesColour(i), Points: [][2]float64{at[i]}})
		}
		sc := DrawScatterChart(ScatterChart{Title: "Judge vs humans", XLabel: "humans", YLabel: "judge", Series: series}, w, h, st)
		sw := st.px(10)
		var dots [][2]float64
		lastY := -1.0
		for i := range names {
			// The legend: a full-colour square per series, each below the one before.
			_, ly, n := centroid(sc, SeriesColour(i))
			if n < sw*sw {
				t.Errorf("scale %v: legend entry %d (%s) has %d pixels of its colour, want a %d² square", st.Scale, i, names[i], n, sw)
			}
			if ly <= lastY {
				t.Errorf("scale %v: legend entry %d is not below entry %d", st.Scale, i, i-1)
			}
			lastY = ly
			x, y, nd := centroid(sc, over(SeriesColour(i), st.Empty, 150))
			if nd < 10 {
				t.Fatalf("scale %v: series %d has no dot", st.Scale, i)
			}
			dots = append(dots, [2]float64{x, y})
		}
		// The dots sit at their values: positions are a linear map of
		// (x, y), y pointing up. Compare every dot with the first two.
		for i := 2; i < len(at); i++ {
			for k, sign := range []float64{1, -1} {
				wantRatio := (at[i][k] - at[0][k]) / (at[1][k] - at[0][k])
				gotRatio := (dots[i][k] - dots[0][k]) / (dots[1][k] - dots[0][k])
				if d := gotRatio - wantRatio; d > 0.03 || d < -0.03 {
					t.Errorf("scale %v: dot %d axis %d at ratio %.3f, want %.3f", st.Scale, i, k, gotRatio, wantRatio)
				}
				if (dots[1][k]-dots[0][k])*sign <= 0 {
					t.Errorf("scale %v: axis %d runs the wrong way", st.Scale, k)
				}
			}
		}
		// Three conditions: the fourth colour is nowhere.
		three := DrawScatterChart(ScatterChart{Series: series[:3]}, w, h, st)
		if _, _, n := centroid(three, SeriesColour(3)); n != 0 {
			t.Errorf("scale %v: a chart of three series has %d pixels of the fourth's colour", st.Scale, n)
		}
	}
}
