package solve

import (
	"bytes"
	"encoding/json"
	"fmt"
	"image"
	"image/draw"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// generateDemo generates a demo image's puzzle in memory.
func generateDemo(t testing.TB, name string, n int, seed uint64) *render.Generated {
	t.Helper()
	img, err := demo.Image(name)
	if err != nil {
		t.Fatal(err)
	}
	return generate(t, render.SourceFromImage(name, img), n, seed, puzzle.DefaultOptions())
}

// generate is render.Generate, failing the test on an error.
func generate(t testing.TB, src *render.Source, n int, seed uint64, opt puzzle.Options) *render.Generated {
	t.Helper()
	gen, err := render.Generate(src, n, seed, opt)
	if err != nil {
		t.Fatal(err)
	}
	return gen
}

// cutSheet cuts every piece out of gen's shape sheet (its rect sheet if
// rect), failing the test on an error.
func cutSheet(t testing.TB, gen *render.Generated, rect bool) (*geometry, []*cutPiece) {
	t.Helper()
	g := newGeometry(gen.Instance.Public())
	sheet := gen.Shape
	if rect {
		sheet = gen.Rect
	}
	pcs, err := cutPieces(&g, sheet)
	if err != nil {
		t.Fatalf("%s: %v", gen.Instance.ID, err)
	}
	return &g, pcs
}

// solveSheet runs the content solver on one sheet of gen and returns its
// answer, the number of pieces in their cells, and whether the answer
// reassembles into the very picture (pixel for pixel, tabs and all).
func solveSheet(t testing.TB, gen *render.Generated, rect bool) (res *ContentResult, correct int, picture bool) {
	t.Helper()
	sheet := gen.Shape
	if rect {
		sheet = gen.Rect
	}
	res, err := SolveContent(ContentInput{Instance: gen.Instance.Public(), Sheet: sheet})
	if err != nil {
		t.Fatalf("%s: %v", gen.Instance.ID, err)
	}
	p := gen.Puzzle
	for id, c := range res.Pred {
		if cell := p.CellOf[id]; cell.Row*p.N+cell.Col == c {
			correct++
		}
	}
	picture = bytes.Equal(render.Assemble(p, gen.Solved, res.Pred, !rect).Pix, gen.Solved.Pix)
	return res, correct, picture
}

// TestSidesFromSilhouettes: the signatures read from the shape sheet are
// instance.json's on every demo image at 4, 8, 16 and 32, and the
// rectangular sheet reads as all straight.
func TestSidesFromSilhouettes(t *testing.T) {
	grids := []int{4, 8, 16, 32}
	names := demo.Names()
	if raceEnabled || testing.Short() {
		grids, names = []int{4, 16}, names[:4]
	}
	for _, name := range names {
		for _, n := range grids {
			gen := generateDemo(t, name, n, 1)
			g := newGeometry(gen.Instance.Public())
			for _, rect := range []bool{false, true} {
				sheet := gen.Shape
				if rect {
					sheet = gen.Rect
				}
				pcs, err := cutPieces(&g, sheet)
				if err != nil {
					t.Fatalf("%s %d×%d: %v", name, n, n, err)
				}
				for id, pc := range pcs {
					want := gen.Instance.Pieces[id].Sides.Array()
					if rect {
						want = puzzle.Sides{}
					}
					if pc.sides != want {
						t.Fatalf("%s %d×%d rect=%v: piece %d reads as %s, instance.json has %s", name, n, n, rect, id, sidesString(pc.sides), sidesString(want))
					}
				}
			}
		}
	}
}

// TestContentDemos: exact (every piece in its cell) on the shape sheets of
// every demo image at 4, 8, 12 and 16 that has no two identical pieces;
// where it has some, Exact Match is unattainable for any solver (see
// TestIdenticalPiecesMakeExactnessImpossible) and PA is only logged.
func TestContentDemos(t *testing.T) {
	grids := []int{4, 8, 12, 16}
	names := demo.Names()
	if raceEnabled || testing.Short() {
		grids, names = []int{8}, []string{"night-city", "bookshelf", "alpine-lake"}
	}
	for _, name := range names {
		for _, n := range grids {
			gen := generateDemo(t, name, n, 1)
			res, correct, _ := solveSheet(t, gen, false)
			if !res.Shaped {
				t.Fatalf("%s %d×%d: the shape sheet read as rectangular", name, n, n)
			}
			if twins := len(identicalPairs(gen)); twins > 0 {
				t.Logf("%s %d×%d: %d pairs of identical pieces; PA %.4f", name, n, n, twins, float64(correct)/float64(n*n))
				continue
			}
			if correct != n*n {
				t.Errorf("%s %d×%d: %d of %d pieces in their cells", name, n, n, correct, n*n)
			}
		}
	}
}

// photos are free desktop photographs from Debian's mate-backgrounds
// package (installed by .ci/deps), used without committing them.
var photos = []string{"Aqua.jpg", "Dune.jpg", "FreshFlower.jpg", "Garden.jpg", "GreenMeadow.jpg", "LadyBird.jpg"}

const photoDir = "/usr/share/backgrounds/mate/nature"

// loadPhoto reads a mate-backgrounds photograph by name, or any image by
// its absolute path (the surveys' held-out sets); a name ending in
// "#square" is the largest square at the picture's centre, so that a
// held-out set is the installed files themselves, cut the same way each
// time (docs/solver.md, "Held-out photographs").
func loadPhoto(t testing.TB, name string) *render.Source {
	t.Helper()
	path, square := strings.CutSuffix(name, "#square")
	if !filepath.IsAbs(path) {
		path = filepath.Join(photoDir, path)
	}
	src, err := render.LoadSource(path)
	if os.IsNotExist(err) || err != nil && !fileExists(path) {
		t.Skipf("%s is not installed (Debian package mate-backgrounds)", name)
	}
	if err != nil {
		t.Fatal(err)
	}
	if square {
		img := src.RGBA()
		b := img.Bounds()
		side := min(b.Dx(), b.Dy())
		x0, y0 := b.Min.X+(b.Dx()-side)/2, b.Min.Y+(b.Dy()-side)/2
		sq := image.NewRGBA(image.Rect(0, 0, side, side))
		draw.Draw(sq, sq.Bounds(), img, image.Pt(x0, y0), draw.Src)
		src = render.SourceFromImage(src.Name, sq)
	}
	return src
}

func fileExists(path string) bool { _, err := os.Stat(path); return err == nil }

// TestShapeGreedyWhenABeamDies: on YellowFlower's 32×32 of 640 px (20×12-px
// pieces) a beam completes in the wrong place while another dies; the
// framed greedy, tried as well whenever a beam dies, places 80 % of the
// pieces where the beam's answer placed 67 %.
func TestShapeGreedyWhenABeamDies(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("a 32×32 solve: too slow under the race detector")
	}
	opt := puzzle.DefaultOptions()
	opt.Size = 640
	_, correct, _ := solveSheet(t, generate(t, loadPhoto(t, "YellowFlower.jpg"), 32, 2, opt), false)
	if pa := float64(correct) / 1024; pa < 0.75 {
		t.Fatalf("YellowFlower 32×32 at 640 px: PA %.4f, want ≥ 0.75", pa)
	}
}

// TestContentClassicTabs: with classic tabs (a knob on a neck, each edge
// jittered) the seams follow each tab's own outline on both sides of the
// edge line, so the content solver is exact on photographs and demo scenes
// at 8 and 16 and all but exact at 32 (it placed 4 % of Garden's 32×32 and
// 60 % of its 16×16 when the neck's dip was taken for a tab that did not
// fit).
func TestContentClassicTabs(t *testing.T) {
	grids := []int{8, 16, 32}
	names := []string{"Garden.jpg", "Storm.jpg", "night-city"}
	if raceEnabled || testing.Short() {
		grids, names = []int{8}, names[:1]
	}
	opt := puzzle.DefaultOptions()
	opt.TabStyle = puzzle.StyleClassic
	for _, name := range names {
		for _, n := range grids {
			var gen *render.Generated
			if img, err := demo.Image(name); err == nil {
				gen = generate(t, render.SourceFromImage(name, img), n, 1, opt)
			} else {
				gen = generate(t, loadPhoto(t, name), n, 2, opt)
			}
			res, correct, picture := solveSheet(t, gen, false)
			if !res.Shaped {
				t.Fatalf("%s %d×%d: solved without its shapes (%v)", name, n, n, res.Unread)
			}
			checkExact(t, name+" classic", n, correct, picture)
		}
	}
}

// TestContentPhotos: exact on real photographs at 4, 8, 12 and 16, and at
// least 99% of the pieces in place at 32×32.
func TestContentPhotos(t *testing.T) {
	grids := []int{4, 8, 12, 16, 32}
	names := photos
	if raceEnabled || testing.Short() {
		grids, names = []int{8}, photos[:2]
	}
	for _, name := range names {
		src := loadPhoto(t, name)
		for _, n := range grids {
			_, correct, picture := solveSheet(t, generate(t, src, n, 2, puzzle.DefaultOptions()), false)
			checkExact(t, name, n, correct, picture)
		}
	}
}

// checkExact fails an n×n answer with correct pieces in place unless it is
// exact (and reassembles into the picture) below 32×32, and has PA ≥ 0.99 at
// 32×32.
func checkExact(t *testing.T, what string, n, correct int, picture bool) {
	t.Helper()
	pa := float64(correct) / float64(n*n)
	switch {
	case n == 32 && pa < 0.99:
		t.Errorf("%s 32×32: PA %.4f, want ≥ 0.99", what, pa)
	case n < 32 && (correct != n*n || !picture):
		t.Errorf("%s %d×%d: %d of %d pieces in their cells", what, n, n, correct, n*n)
	}
}

// TestContentRect runs the content solver on rectangular sheets — the
// classical view of the shape ablation, content alone. It must be exact on
// stained-glass, flower-meadow and coral-reef at 4, 8, 12 and 16; on
// harbor-town and fruit-market it reports PA (their 16×16s hold pieces
// that tie or nearly tie; see docs/solver.md) and checks the answer is a
// permutation.
func TestContentRect(t *testing.T) {
	exact := map[string]bool{"stained-glass": true, "flower-meadow": true, "coral-reef": true}
	names := []string{"stained-glass", "flower-meadow", "coral-reef", "harbor-town", "fruit-market"}
	grids := []int{4, 8, 12, 16}
	if raceEnabled || testing.Short() {
		names, grids = names[:1], []int{4, 8, 16}
	}
	for _, name := range names {
		for _, n := range grids {
			gen := generateDemo(t, name, n, 1)
			res, correct, _ := solveSheet(t, gen, true)
			if res.Shaped {
				t.Fatalf("%s %d×%d: the rectangular sheet read as shaped", name, n, n)
			}
			seen := make([]bool, n*n)
			for _, c := range res.Pred {
				if seen[c] {
					t.Fatalf("%s %d×%d: cell %d used twice", name, n, n, c)
				}
				seen[c] = true
			}
			if exact[name] && correct != n*n {
				t.Errorf("%s %d×%d rect: %d of %d pieces in their cells", name, n, n, correct, n*n)
			}
			t.Logf("%s %d×%d rect: PA %.4f", name, n, n, float64(correct)/float64(n*n))
		}
	}
}

// TestContentRectPhotos: on the rectangular sheets of real photographs the
// frame is found — exact at 16×16, PA ≥ 0.99 at 32×32 (before frame repair
// these lost whole columns or rows to the wrong side: PA 0.95–0.99).
func TestContentRectPhotos(t *testing.T) {
	// Three of the photos by default (the package's run stays a few
	// minutes); JIGBENCH_LONG=1 takes all six.
	grids, names := []int{16, 32}, photos[:3]
	if os.Getenv("JIGBENCH_LONG") != "" {
		names = photos
	}
	if raceEnabled || testing.Short() {
		grids, names = []int{16}, photos[:1]
	}
	for _, name := range names {
		src := loadPhoto(t, name)
		for _, n := range grids {
			_, correct, _ := solveSheet(t, generate(t, src, n, 2, puzzle.DefaultOptions()), true)
			pa := float64(correct) / float64(n*n)
			switch {
			case n == 32 && pa < 0.99:
				t.Errorf("%s 32×32 rect: PA %.4f, want ≥ 0.99", name, pa)
			case n < 32 && correct != n*n:
				t.Errorf("%s %d×%d rect: %d of %d pieces in their cells", name, n, n, correct, n*n)
			}
		}
	}
}

// TestPublicInstanceHidesAnswer: the content solver's input type is built
// from instance.json's public fields; an instance.json stripped of every
// answer field still parses to the same value, so nothing of the answer is
// read.
func TestPublicInstanceHidesAnswer(t *testing.T) {
	gen := generateDemo(t, "bookshelf", 4, 1)
	data, err := gen.Instance.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	full, err := puzzle.ParsePublicInstance(data)
	if err != nil {
		t.Fatal(err)
	}
	var raw map[string]any
	if err := json.Unmarshal(data, &raw); err != nil {
		t.Fatal(err)
	}
	for _, k := range []string{"seed", "source", "solution", "edges"} {
		delete(raw, k)
	}
	for _, pc := range raw["pieces"].([]any) {
		m := pc.(map[string]any)
		for k := range m {
			if k != "id" && k != "slot" {
				delete(m, k)
			}
		}
	}
	stripped, _ := json.Marshal(raw)
	pub, err := puzzle.ParsePublicInstance(stripped)
	if err != nil {
		t.Fatal(err)
	}
	if fmt.Sprintf("%+v", pub) != fmt.Sprintf("%+v", full) {
		t.Fatalf("the public view depends on answer fields:\n%+v\n%+v", pub, full)
	}
	if bytes.Contains(stripped, []byte(`"sides"`)) || bytes.Contains(stripped, []byte(`"solution"`)) {
		t.Fatal("the stripped instance still holds answer fields")
	}
}

// TestContentRejects: a sheet of the wrong size or of another instance is
// refused with an error, not solved.
func TestContentRejects(t *testing.T) {
	a, b := generateDemo(t, "bookshelf", 4, 1), generateDemo(t, "bookshelf", 8, 1)
	if _, err := SolveContent(ContentInput{Instance: a.Instance.Public(), Sheet: b.Shape}); err == nil {
		t.Fatal("a sheet of another size was solved")
	}
	if _, err := SolveContent(ContentInput{}); err == nil {
		t.Fatal("an empty input was solved")
	}
}

// identicalPairs lists pairs of pieces (a < b) with the same sides and the
// same pixels over their whole silhouette, tabs included.
func identicalPairs(gen *render.Generated) [][2]int {
	p, img := gen.Puzzle, gen.Solved
	var pairs [][2]int
	for a := range p.CellOf {
		for b := a + 1; b < len(p.CellOf); b++ {
			if p.PieceSides(a) != p.PieceSides(b) {
				continue
			}
			ca, cb := p.CellOf[a], p.CellOf[b]
			m := render.PieceMask(p, ca, true)
			dx, dy := (cb.Col-ca.Col)*p.PieceW, (cb.Row-ca.Row)*p.PieceH
			same := true
			for y := m.Rect.Min.Y; y < m.Rect.Max.Y && same; y++ {
				for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
					if m.Pix[m.PixOffset(x, y)] == 0 {
						continue
					}
					i, j := img.PixOffset(x, y), img.PixOffset(x+dx, y+dy)
					if !bytes.Equal(img.Pix[i:i+3], img.Pix[j:j+3]) {
						same = false
						break
					}
				}
			}
			if same {
				pairs = append(pairs, [2]int{a, b})
			}
		}
	}
	return pairs
}

// TestIdenticalPiecesMakeExactnessImpossible shows why the content solver
// is not exact on alpine-lake, balloon-sky, snow-field and iceberg-bay at
// 12×12 (and larger): their skies, snow and still water are pure gradients,
// so some pieces with the same sides are identical pixel for pixel.
// Exchanging two such pieces in the answer gives a byte-identical sheet, so
// the two answers cannot be told apart from the input and no solver is
// exact on both: Exact Match = 1 is not attainable there.
func TestIdenticalPiecesMakeExactnessImpossible(t *testing.T) {
	names := []string{"alpine-lake", "balloon-sky", "snow-field", "iceberg-bay"}
	if raceEnabled || testing.Short() {
		names = names[:1]
	}
	for _, name := range names {
		gen := generateDemo(t, name, 12, 1)
		pairs := identicalPairs(gen)
		if len(pairs) == 0 {
			t.Errorf("%s 12×12: no identical pieces", name)
			continue
		}
		a, b := pairs[0][0], pairs[0][1]
		p := *gen.Puzzle
		p.CellOf = append([]puzzle.Cell(nil), p.CellOf...)
		p.IDAt = append([]int(nil), p.IDAt...)
		ca, cb := p.CellOf[a], p.CellOf[b]
		p.CellOf[a], p.CellOf[b] = cb, ca
		p.IDAt[ca.Row*p.N+ca.Col], p.IDAt[cb.Row*p.N+cb.Col] = b, a
		for _, shaped := range []bool{true, false} {
			orig := render.Sheet(gen.Puzzle, gen.Solved, shaped, render.DefaultSheet)
			swapped := render.Sheet(&p, gen.Solved, shaped, render.DefaultSheet)
			if !bytes.Equal(orig.Pix, swapped.Pix) {
				t.Fatalf("%s: exchanging pieces %d and %d changed the sheet", name, a, b)
			}
		}
		t.Logf("%s 12×12: %d pairs of identical pieces, e.g. %d and %d", name, len(pairs), a, b)
	}
}

// TestContentRectFrames: rect sheets that issue 20 measured as failures of
// the search (the true arrangement cheaper than the answer) or of the frame:
// night-city 4×4 (a wrap costing 0.1 less than the truth: now decided by
// sureness) and 8×8 (its band of reflections scrambled by a beam of 1024
// states; 4096 keep it), Storm 16×16 (PA 0.66 with the greedy alone) and RainDrops
// 32×32 (PA 0 with 93 % of the neighbours right: a shifted frame).
func TestContentRectFrames(t *testing.T) {
	if raceEnabled || testing.Short() {
		t.Skip("minutes under -race")
	}
	for _, n := range []int{4, 8} {
		gen := generateDemo(t, "night-city", n, 1)
		if _, correct, _ := solveSheet(t, gen, true); correct != n*n {
			t.Errorf("night-city %d×%d rect: %d of %d pieces in their cells", n, n, correct, n*n)
		}
	}
	for _, c := range []struct {
		photo string
		n     int
		want  float64
	}{{"Storm.jpg", 16, 1}, {"RainDrops.jpg", 32, 0.99}} {
		_, correct, _ := solveSheet(t, generate(t, loadPhoto(t, c.photo), c.n, 2, puzzle.DefaultOptions()), true)
		if pa := float64(correct) / float64(c.n*c.n); pa < c.want {
			t.Errorf("%s %d×%d rect: PA %.4f, want ≥ %v", c.photo, c.n, c.n, pa, c.want)
		}
	}
}
