package solve

import (
	"bytes"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// TestSurvey prints a PA table of the content solver over every
// mate-backgrounds photograph (JIGBENCH_SURVEY=rect,shape; grids from
// JIGBENCH_SURVEY_GRIDS, default 4,8,12,16,32; the sheet's longer side from
// JIGBENCH_SURVEY_SIZE, default 1024; tab style from JIGBENCH_SURVEY_STYLE),
// or over the images of JIGBENCH_SURVEY_FILES (names there, or absolute
// paths), or over the demo scenes of JIGBENCH_SURVEY_SCENES (seed 1)
// instead, marking instances with pieces no
// solver can tell apart as [twins k] (rectTwins, shapeTwins). It checks
// nothing: it is the measurement behind the figures of docs/solver.md.
func TestSurvey(t *testing.T) {
	modes := os.Getenv("JIGBENCH_SURVEY")
	if modes == "" {
		t.Skip("set JIGBENCH_SURVEY=rect,shape to run")
	}
	grids := envGrids("JIGBENCH_SURVEY_GRIDS", []int{4, 8, 12, 16, 32})
	files, _ := filepath.Glob(filepath.Join(photoDir, "*.jpg"))
	if f := os.Getenv("JIGBENCH_SURVEY_FILES"); f != "" {
		files = nil
		for _, name := range strings.Split(f, ",") {
			if !filepath.IsAbs(name) {
				name = filepath.Join(photoDir, name)
			}
			files = append(files, name)
		}
	}
	var scenes []string
	if s := os.Getenv("JIGBENCH_SURVEY_SCENES"); s != "" {
		files, scenes = nil, strings.Split(s, ",")
	}
	opt := surveyOptions()
	variant := os.Getenv("JIGBENCH_SURVEY_VARIANT") // haze, dusk, water (hard_test.go)
	for _, mode := range strings.Split(modes, ",") {
		rect := mode == "rect"
		survey := func(name string, instance func(n int) *render.Generated) {
			line := name + " " + variant + " " + mode + ":"
			for _, n := range grids {
				gen := instance(n)
				t0 := time.Now()
				res, correct, _ := solveSheet(t, gen, rect)
				line += " " + strconv.Itoa(n) + "=" + strconv.FormatFloat(float64(correct)/float64(n*n), 'f', 4, 64)
				twins := shapeTwins(gen)
				if rect {
					twins = rectTwins(gen)
				}
				if len(twins) > 0 {
					line += "[twins " + strconv.Itoa(len(twins)) + ", up to twins " +
						strconv.FormatFloat(float64(correctUpToTwins(gen, res.Pred, twins))/float64(n*n), 'f', 4, 64) + "]"
				}
				line += gapNote(gen, res.Pred)
				line += "(" + time.Since(t0).Round(10*time.Millisecond).String() + ")"
			}
			t.Log(line)
		}
		for _, f := range files {
			name := filepath.Base(f)
			src := loadPhoto(t, f)
			survey(name, func(n int) *render.Generated {
				if variant != "" {
					return hardInstance(t, f, variant, n)
				}
				gen, err := render.Generate(src, n, 2, opt)
				if err != nil {
					t.Fatal(err)
				}
				return gen
			})
		}
		for _, name := range scenes {
			survey(name, func(n int) *render.Generated { return surveyInstance(t, name, "", n) })
		}
	}
}

// TestSurveyTable prints the rect-sheet PA of every name in JIGBENCH_TABLE
// (mate-backgrounds photographs *.jpg, seed 2, or demo scenes, seed 1) at
// every grid of JIGBENCH_TABLE_GRIDS, for each hard variant of
// JIGBENCH_TABLE_VARIANTS (comma-separated; empty: the picture as it is;
// photographs only), marking instances with pieces whose cells are
// identical (a tie no solver can break) as [twins k]. It checks nothing:
// it is the measurement behind the rect tables of docs/solver.md.
func TestSurveyTable(t *testing.T) {
	list := os.Getenv("JIGBENCH_TABLE")
	if list == "" {
		t.Skip("set JIGBENCH_TABLE=Garden.jpg,night-city,… and JIGBENCH_TABLE_GRIDS=4,8 to run")
	}
	grids := envGrids("JIGBENCH_TABLE_GRIDS", []int{4, 8, 16, 32})
	for _, v := range strings.Split(os.Getenv("JIGBENCH_TABLE_VARIANTS"), ",") {
		for _, name := range strings.Split(list, ",") {
			line := "TABLE " + name + " " + v + ":"
			for _, n := range grids {
				gen := surveyInstance(t, name, v, n)
				t0 := time.Now()
				res, correct, _ := solveSheet(t, gen, true)
				twins := len(rectTwins(gen))
				line += " " + strconv.Itoa(n) + "=" + strconv.FormatFloat(float64(correct)/float64(n*n), 'f', 4, 64)
				if twins > 0 {
					line += "[twins " + strconv.Itoa(twins) + "]"
				}
				line += gapNote(gen, res.Pred)
				line += "(" + time.Since(t0).Round(10*time.Millisecond).String() + ")"
			}
			t.Log(line)
		}
	}
}

// rectTwins lists pairs of pieces (a < b) whose cells hold the same pixels:
// on a rect sheet they are indistinguishable.
func rectTwins(gen *render.Generated) [][2]int {
	p, img := gen.Puzzle, gen.Solved
	var pairs [][2]int
	for a := range p.CellOf {
		for b := a + 1; b < len(p.CellOf); b++ {
			ca, cb := p.CellOf[a], p.CellOf[b]
			same := true
			for y := 0; y < p.PieceH && same; y++ {
				i := img.PixOffset(ca.Col*p.PieceW, ca.Row*p.PieceH+y)
				j := img.PixOffset(cb.Col*p.PieceW, cb.Row*p.PieceH+y)
				same = bytes.Equal(img.Pix[i:i+4*p.PieceW], img.Pix[j:j+4*p.PieceW])
			}
			if same {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	}
	return pairs
}

// pictureGap is how far the picture an answer paints is from the truth
// where it is wrong: over the cells whose piece (pred: piece → cell) is not
// their own, the mean absolute difference of the solved picture's pixels at
// the cell and at the piece's true cell, in grey levels (0–255, the RGB
// channels averaged), the mean over those cells and the largest. Near 0
// the wrong pieces paint what belongs there — a sky whose colour depends
// on the height alone — and no seam measure can tell the answer from the
// truth; alike counts the wrong cells under one level off. wrong is 0 on
// an exact answer.
func pictureGap(gen *render.Generated, pred []int) (wrong, alike int, mean, worst float64) {
	p, img := gen.Puzzle, gen.Solved
	for id, c := range pred {
		own := p.CellOf[id]
		if own.Row*p.N+own.Col == c {
			continue
		}
		sum := 0
		for y := range p.PieceH {
			i := img.PixOffset((c%p.N)*p.PieceW, (c/p.N)*p.PieceH+y)
			j := img.PixOffset(own.Col*p.PieceW, own.Row*p.PieceH+y)
			for x := range p.PieceW {
				for k := range 3 {
					sum += abs(int(img.Pix[i+4*x+k]) - int(img.Pix[j+4*x+k]))
				}
			}
		}
		d := float64(sum) / float64(3*p.PieceW*p.PieceH)
		wrong, mean, worst = wrong+1, mean+d, max(worst, d)
		if d < 1 {
			alike++
		}
	}
	if wrong > 0 {
		mean /= float64(wrong)
	}
	return wrong, alike, mean, worst
}

// gapNote is pictureGap for a survey line: "" on an exact answer.
func gapNote(gen *render.Generated, pred []int) string {
	wrong, alike, mean, worst := pictureGap(gen, pred)
	if wrong == 0 {
		return ""
	}
	return "[" + strconv.Itoa(wrong) + " wrong paint |Δ| " + strconv.FormatFloat(mean, 'f', 2, 64) +
		", worst " + strconv.FormatFloat(worst, 'f', 2, 64) + ", " + strconv.Itoa(alike) + " under 1]"
}

// shapeTwins lists the pairs of rectTwins that also have the same side
// signatures: on a shape sheet they are indistinguishable too.
func shapeTwins(gen *render.Generated) [][2]int {
	var pairs [][2]int
	for _, tw := range rectTwins(gen) {
		if gen.Puzzle.PieceSides(tw[0]) == gen.Puzzle.PieceSides(tw[1]) {
			pairs = append(pairs, tw)
		}
	}
	return pairs
}

// correctUpToTwins counts the pieces of pred (piece → cell) in their own
// cell or in the cell of a piece they are a twin of (directly or through
// other twins).
func correctUpToTwins(gen *render.Generated, pred []int, twins [][2]int) int {
	group := make([]int, len(pred))
	for i := range group {
		group[i] = i
	}
	var root func(int) int
	root = func(i int) int {
		for group[i] != i {
			i = group[i]
		}
		return i
	}
	for _, tw := range twins {
		group[root(tw[1])] = root(tw[0])
	}
	p := gen.Puzzle
	correct := 0
	for id, c := range pred {
		if root(p.IDAt[c]) == root(id) {
			correct++
		}
	}
	return correct
}

// envGrids reads a comma-separated list of grids from the environment
// variable name, def if it is unset.
func envGrids(name string, def []int) []int {
	g := os.Getenv(name)
	if g == "" {
		return def
	}
	var grids []int
	for _, f := range strings.Split(g, ",") {
		n, _ := strconv.Atoi(f)
		grids = append(grids, n)
	}
	return grids
}

// surveyInstance is the n×n instance of a photograph (name.jpg, seed 2;
// with a hard variant if variant is not empty) or of a demo scene (seed 1).
func surveyInstance(t *testing.T, name, variant string, n int) *render.Generated {
	t.Helper()
	switch {
	case variant != "":
		return hardInstance(t, name, variant, n)
	case strings.HasSuffix(name, ".jpg") || filepath.IsAbs(name):
		gen, err := render.Generate(loadPhoto(t, name), n, surveySeed(2), surveyOptions())
		if err != nil {
			t.Fatal(err)
		}
		return gen
	}
	img, err := demo.Image(name)
	if err != nil {
		t.Fatal(err)
	}
	gen, err := render.Generate(render.SourceFromImage(name, img), n, surveySeed(1), surveyOptions())
	if err != nil {
		t.Fatal(err)
	}
	return gen
}

// surveySeed is the surveys' seed: JIGBENCH_SURVEY_SEED when set (another
// shuffle of the same pieces, to see that a result does not hang on one
// order), else def.
func surveySeed(def uint64) uint64 {
	if v, err := strconv.ParseUint(os.Getenv("JIGBENCH_SURVEY_SEED"), 10, 64); err == nil {
		return v
	}
	return def
}

// surveyOptions are the surveys' generation options: the defaults, with
// the sheet's longer side from JIGBENCH_SURVEY_SIZE and the tab style from
// JIGBENCH_SURVEY_STYLE (semicircle or classic) when set.
func surveyOptions() puzzle.Options {
	opt := puzzle.DefaultOptions()
	if v, err := strconv.Atoi(os.Getenv("JIGBENCH_SURVEY_SIZE")); err == nil {
		opt.Size = v
	}
	if v := os.Getenv("JIGBENCH_SURVEY_STYLE"); v != "" {
		opt.TabStyle = v
	}
	return opt
}

// TestPictureGap: on a picture black on its left half and white on its
// right (4×4), exchanging two black pieces paints the same picture (gap 0)
// and exchanging a black piece with a white one is 255 levels off.
func TestPictureGap(t *testing.T) {
	img := image.NewRGBA(image.Rect(0, 0, 256, 256))
	for y := range 256 {
		for x := range 256 {
			v := uint8(0)
			if x >= 128 {
				v = 255
			}
			img.SetRGBA(x, y, color.RGBA{v, v, v, 255})
		}
	}
	gen := generate(t, render.SourceFromImage("halves", img), 4, 1, puzzle.DefaultOptions())
	p := gen.Puzzle
	pred := make([]int, len(p.CellOf))
	for id, c := range p.CellOf {
		pred[id] = c.Row*4 + c.Col
	}
	exchanged := func(a, b int) []int {
		out := slices.Clone(pred)
		out[p.IDAt[a]], out[p.IDAt[b]] = b, a
		return out
	}
	for _, tc := range []struct {
		pred        []int
		wrong       int
		mean, worst float64
	}{{pred, 0, 0, 0}, {exchanged(0, 4), 2, 0, 0}, {exchanged(0, 3), 2, 255, 255}} {
		alike := 0
		if tc.mean == 0 {
			alike = tc.wrong
		}
		if w, a, mean, worst := pictureGap(gen, tc.pred); w != tc.wrong || a != alike || mean != tc.mean || worst != tc.worst {
			t.Errorf("pictureGap = %d, %d, %.2f, %.2f; want %d, %d, %.2f, %.2f", w, a, mean, worst, tc.wrong, alike, tc.mean, tc.worst)
		}
	}
}
