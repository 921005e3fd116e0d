package solve

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
)

// TestSurvey prints a PA table of the content solver over every
// mate-backgrounds photograph (JIGBENCH_SURVEY=rect,shape; grids from
// JIGBENCH_SURVEY_GRIDS, default 4,8,12,16,32; the sheet's longer side from
// JIGBENCH_SURVEY_SIZE, default 1024). It checks nothing: it is the
// measurement behind the README's figures.
func TestSurvey(t *testing.T) {
	modes := os.Getenv("JIGBENCH_SURVEY")
	if modes == "" {
		t.Skip("set JIGBENCH_SURVEY=rect,shape to run")
	}
	grids := []int{4, 8, 12, 16, 32}
	if g := os.Getenv("JIGBENCH_SURVEY_GRIDS"); g != "" {
		grids = nil
		for _, f := range strings.Split(g, ",") {
			n, _ := strconv.Atoi(f)
			grids = append(grids, n)
		}
	}
	files, _ := filepath.Glob(filepath.Join(photoDir, "*.jpg"))
	if f := os.Getenv("JIGBENCH_SURVEY_FILES"); f != "" {
		files = nil
		for _, name := range strings.Split(f, ",") {
			files = append(files, filepath.Join(photoDir, name))
		}
	}
	opt := puzzle.DefaultOptions()
	if v, err := strconv.Atoi(os.Getenv("JIGBENCH_SURVEY_SIZE")); err == nil {
		opt.Size = v
	}
	for _, mode := range strings.Split(modes, ",") {
		for _, f := range files {
			src := loadPhoto(t, filepath.Base(f))
			variant := os.Getenv("JIGBENCH_SURVEY_VARIANT") // haze, dusk, water (hard_test.go)
			line := filepath.Base(f) + " " + variant + " " + mode + ":"
			for _, n := range grids {
				var gen *render.Generated
				if variant != "" {
					gen = hardInstance(t, filepath.Base(f), variant, n)
				} else {
					var err error
					if gen, err = render.Generate(src, n, 2, opt); err != nil {
						t.Fatal(err)
					}
				}
				t0 := time.Now()
				_, correct, _ := solveSheet(t, gen, mode == "rect")
				line += " " + strconv.Itoa(n) + "=" + strconv.FormatFloat(float64(correct)/float64(n*n), 'f', 4, 64) + "(" + time.Since(t0).Round(10*time.Millisecond).String() + ")"
			}
			t.Log(line)
		}
	}
}
