package solve

import (
	"fmt"
	"image"
	"image/color"
	"math"
	"math/rand/v2"
	"strconv"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// smallPiecePictures are pictures of side px that make the labels of small
// pieces hard to see past: the sheet's own grey (which the translucent pill
// turns into the background's colour), white, a fine checkerboard, noise
// around the sheet's grey, and a demo scene.
func smallPiecePictures(t *testing.T, px int) map[string]*image.RGBA {
	t.Helper()
	pics := map[string]*image.RGBA{}
	fill := func(name string, f func(x, y int) color.RGBA) {
		img := image.NewRGBA(image.Rect(0, 0, px, px))
		for y := range px {
			for x := range px {
				img.SetRGBA(x, y, f(x, y))
			}
		}
		pics[name] = img
	}
	rng := rand.New(rand.NewPCG(1, 2))
	fill("sheet-grey", func(int, int) color.RGBA { return color.RGBA{sheetBackground, sheetBackground, sheetBackground, 255} })
	fill("white", func(int, int) color.RGBA { return color.RGBA{255, 255, 255, 255} })
	fill("checker", func(x, y int) color.RGBA {
		v := uint8(255 * ((x + y) % 2))
		return color.RGBA{v, v, v, 255}
	})
	fill("grey-noise", func(int, int) color.RGBA {
		v := uint8(sheetBackground - 6 + rng.IntN(13))
		return color.RGBA{v, v, v, 255}
	})
	scene, err := demo.Image("harbor-town")
	if err != nil {
		t.Fatal(err)
	}
	prep, err := render.Prepare(render.SourceFromImage("harbor-town", scene), 2*px, 1) // shorter side ≥ px
	if err != nil {
		t.Fatal(err)
	}
	if prep.Image.Rect.Dx() < px || prep.Image.Rect.Dy() < px {
		return pics // the scene is smaller than px: it is never enlarged
	}
	sq := image.NewRGBA(image.Rect(0, 0, px, px))
	for y := range px {
		copy(sq.Pix[y*sq.Stride:y*sq.Stride+4*px], prep.Image.Pix[y*prep.Image.Stride:])
	}
	pics["harbor-town"] = sq
	return pics
}

// TestSmallPiecesSidesAndSilhouettes: on pieces of 12 to 24 px, whose
// labels reach past the piece's edge over its outline and the background,
// every side signature is read right on both sheets, for both tab styles,
// and every silhouette pixel that no digit covers is read right — however
// much the picture looks like the sheet's background.
func TestSmallPiecesSidesAndSilhouettes(t *testing.T) {
	type config struct {
		n, cell int
		style   string
		ratio   float64
	}
	configs := []config{
		{32, 12, puzzle.StyleSemicircle, 0.2}, {32, 16, puzzle.StyleSemicircle, 0.2},
		{32, 14, puzzle.StyleClassic, 0.25}, {32, 20, puzzle.StyleSemicircle, 0.33},
		{64, 12, puzzle.StyleSemicircle, 0.2}, {64, 16, puzzle.StyleClassic, 0.2},
		{64, 16, puzzle.StyleSemicircle, 0.05}, {64, 24, puzzle.StyleSemicircle, 0.2},
		{64, 12, puzzle.StyleSemicircle, 0.05},
	}
	if raceEnabled || testing.Short() {
		configs = []config{{32, 12, puzzle.StyleSemicircle, 0.2}, {32, 14, puzzle.StyleClassic, 0.25}}
	}
	for _, cf := range configs {
		px := cf.n * cf.cell
		for name, pic := range smallPiecePictures(t, px) {
			opt := puzzle.Options{Size: px, TabStyle: cf.style, TabRatio: cf.ratio}
			gen := generate(t, render.SourceFromImage(name, pic), cf.n, 7, opt)
			what := name + " " + strconv.Itoa(cf.n) + "×" + strconv.Itoa(cf.n) + " of " + strconv.Itoa(cf.cell) + " px, " + cf.style + " " + strconv.FormatFloat(cf.ratio, 'g', -1, 64)
			g := newGeometry(gen.Instance.Public())
			for _, shaped := range []bool{true, false} {
				wrongPixels := 0
				for _, pc := range cutAndCheckSides(t, what, &g, gen, shaped) {
					wrongPixels += silhouetteErrors(&g, gen, pc, shaped)
				}
				if wrongPixels > 0 {
					t.Errorf("%s, shaped %v: %d silhouette pixels read wrong", what, shaped, wrongPixels)
				}
			}
		}
	}
}

// cutAndCheckSides cuts gen's shape or rect sheet and fails unless every
// piece's sides read as instance.json has them (all flat on rect.png).
func cutAndCheckSides(t *testing.T, what string, g *geometry, gen *render.Generated, shaped bool) []*cutPiece {
	t.Helper()
	sheet := gen.Rect
	if shaped {
		sheet = gen.Shape
	}
	pcs, err := cutPieces(g, sheet)
	if err != nil {
		t.Fatalf("%s, shaped %v: %v", what, shaped, err)
	}
	for id, pc := range pcs {
		want := puzzle.Sides{}
		if shaped {
			want = gen.Instance.Pieces[id].Sides.Array()
		}
		if pc.sides != want || pc.unread != nil {
			t.Fatalf("%s, shaped %v: piece %d reads as %s (%v), instance.json has %s", what, shaped, id, sidesString(pc.sides), pc.unread, sidesString(want))
		}
	}
	return pcs
}

// silhouetteErrors counts the slot pixels of pc whose reading (piece or
// not) differs from the piece's mask, leaving out those a digit of the
// label hides completely.
func silhouetteErrors(g *geometry, gen *render.Generated, pc *cutPiece, shaped bool) int {
	p := gen.Puzzle
	cell := p.CellOf[pc.id]
	m := render.PieceMask(p, cell, shaped)
	x0, y0, _, _ := p.CellRect(cell)
	// The labels over black and over white, in slot coordinates: where they
	// are drawn alike, nothing shows through.
	over := func(v uint8) *image.RGBA {
		img := image.NewRGBA(image.Rect(0, 0, g.sw, g.sh))
		for i := range img.Pix {
			img.Pix[i] = v
		}
		for k := max(pc.id-1, 0); k <= min(pc.id+1, g.n*g.n-1); k++ {
			if k/g.n == pc.id/g.n {
				g.labels.Draw(img, k, image.Pt(g.offX+(k-pc.id)*g.sw, g.offY))
			}
		}
		return img
	}
	black, white := over(0), over(255)
	wrong := 0
	for sy := range g.sh {
		for sx := range g.sw {
			x, y := sx-g.offX, sy-g.offY
			if b, w := black.RGBAAt(sx, sy), white.RGBAAt(sx, sy); b.R == w.R && b.G == w.G && b.B == w.B {
				continue
			}
			in := image.Pt(x0+x, y0+y).In(m.Rect) && m.AlphaAt(x0+x, y0+y).A != 0
			if in != (pc.kind[sy*g.sw+sx] != pxOutside) {
				wrong++
			}
		}
	}
	return wrong
}

// TestInvisibleTabsSolvedFromContent: classic tabs a pixel across (tab
// ratio 0.1 on 12-px pieces) barely show on the shape sheet, so their sides
// cannot be read; the sheet is then solved from content alone, saying why,
// rather than refused.
func TestInvisibleTabsSolvedFromContent(t *testing.T) {
	scene := smallPiecePictures(t, 96)["harbor-town"]
	opt := puzzle.Options{Size: 96, TabStyle: puzzle.StyleClassic, TabRatio: 0.1}
	gen := generate(t, render.SourceFromImage("harbor-town", scene), 8, 3, opt)
	_, pcs := cutSheet(t, gen, false)
	misread := 0
	for id, pc := range pcs {
		if pc.sides != gen.Instance.Pieces[id].Sides.Array() {
			misread++
		}
	}
	if misread == 0 {
		t.Fatal("every side was read: the case no longer tests unreadable tabs")
	}
	res, correct, _ := solveSheet(t, gen, false)
	if res.Shaped || res.Unread == nil {
		t.Fatalf("shaped %v, unread %v: want a content-only solve that says why", res.Shaped, res.Unread)
	}
	for id, s := range res.Sides {
		if s != (puzzle.Sides{}) {
			t.Fatalf("piece %d keeps sides %s read from an unreadable sheet", id, sidesString(s))
		}
	}
	t.Logf("%d of %d pieces' sides misread; solved from content: %d of 64 in place (%v)", misread, len(pcs), correct, res.Unread)
}

// TestClassicSides: classic tabs (a knob on a neck, jittered shoulders) are
// read right on both sheets wherever the knob is at least 0.9k deep, from
// pieces of 12 px to 60 px, square or not, at tab ratios 0.1 to 0.25.
func TestClassicSides(t *testing.T) {
	type config struct {
		n, w, h int
		ratio   float64
	}
	configs := []config{
		{8, 12, 12, 0.16}, {8, 13, 21, 0.19}, {8, 20, 14, 0.25}, {8, 24, 24, 0.1},
		{8, 28, 28, 0.159}, {6, 40, 40, 0.25}, {6, 60, 40, 0.2}, {6, 31, 30, 0.176},
		{16, 17, 28, 0.239}, {16, 30, 19, 0.205}, {32, 14, 24, 0.245}, {32, 27, 17, 0.162},
		{3, 18, 29, 0.139}, {32, 13, 14, 0.171}, {16, 12, 21, 0.192}, {5, 25, 23, 0.12},
	}
	if raceEnabled || testing.Short() {
		configs = configs[:4]
	}
	for _, cf := range configs {
		px := max(cf.n*cf.w, cf.n*cf.h)
		pics := smallPiecePictures(t, px)
		for _, name := range []string{"checker", "harbor-town"} {
			pic, ok := pics[name]
			if !ok {
				continue
			}
			img := pic.SubImage(image.Rect(0, 0, cf.n*cf.w, cf.n*cf.h)).(*image.RGBA)
			opt := puzzle.Options{Size: px, TabStyle: puzzle.StyleClassic, TabRatio: cf.ratio}
			gen := generate(t, render.SourceFromImage(name, img), cf.n, 5, opt)
			what := fmt.Sprintf("%s %d×%d of %d×%d px, ratio %g", name, cf.n, cf.n, cf.w, cf.h, cf.ratio)
			g := newGeometry(gen.Instance.Public())
			if g.knob < 0.9 {
				t.Fatalf("%s: k = %.2f, below what the case means to test", what, g.knob)
			}
			for _, shaped := range []bool{true, false} {
				cutAndCheckSides(t, what, &g, gen, shaped)
			}
		}
	}
}

// TestSeeThroughLabels: under a label's pill (not its digits) the colours of
// a small piece come back to within what the pill lets through — about 8
// levels, at most 42 on the outline — and to 2–3 levels on average inside
// the piece (6 on its outline) on a scene's texture; and
// on 20×12-px pieces, where the labels hide two thirds of every side seam,
// that puts Storm's 32×32 shape sheet together (PA 0.33 before).
func TestSeeThroughLabels(t *testing.T) {
	pics := smallPiecePictures(t, 384)
	gen := generate(t, render.SourceFromImage("harbor-town", pics["harbor-town"]), 32, 3, puzzle.DefaultOptions())
	g, pcs := cutSheet(t, gen, false)
	var sum [2]float64 // inside, on the outline
	var count [2]int
	for id, pc := range pcs {
		cell := gen.Puzzle.CellOf[id]
		lb := render.LabelBounds(g.w, g.h, g.n, id)
		for y := max(lb.Min.Y, 0); y < min(lb.Max.Y, g.h); y++ {
			for x := max(lb.Min.X, 0); x < min(lb.Max.X, g.w); x++ {
				i := g.at(x, y)
				if pc.kind[i] != pxInner {
					continue // a digit, or not the piece's
				}
				ring := false
				for _, d := range [4][2]int{{1, 0}, {-1, 0}, {0, 1}, {0, -1}} {
					if j := g.at(x+d[0], y+d[1]); j < 0 || pc.kind[j] == pxOutside {
						ring = true
					}
				}
				worst := 8.5 // 255/31: what a pill at opacity 224 lets through
				if ring {
					worst = 42 // … of the outline's ink, which lets 55/255 through
				}
				o := gen.Solved.PixOffset(cell.Col*g.w+x, cell.Row*g.h+y)
				for c := range 3 {
					e := math.Abs(float64(pc.rgb[3*i+c]) - float64(gen.Solved.Pix[o+c]))
					if e > worst {
						t.Fatalf("piece %d (%d, %d): colour %v under the pill, the picture has %v", id, x, y, pc.rgb[3*i:3*i+3], gen.Solved.Pix[o:o+3])
					}
					k := 0
					if ring {
						k = 1
					}
					sum[k] += e
					count[k]++
				}
			}
		}
	}
	if count[0] == 0 || count[1] == 0 {
		t.Fatal("no colour was recovered under a label")
	}
	inside, outline := sum[0]/float64(count[0]), sum[1]/float64(count[1])
	t.Logf("%d colour values recovered inside the pieces, %.2f levels off on average; %d on the outline, %.2f", count[0], inside, count[1], outline)
	if inside > 3 || outline > 8 {
		t.Errorf("colours under the pills are %.2f levels off inside, %.2f on the outline, want ≤ 3 and ≤ 8", inside, outline)
	}
	if raceEnabled || testing.Short() {
		return
	}
	opt := puzzle.DefaultOptions()
	opt.Size = 640
	_, correct, _ := solveSheet(t, generate(t, loadPhoto(t, "Storm.jpg"), 32, 2, opt), false)
	if pa := float64(correct) / 1024; pa < 0.99 {
		t.Errorf("Storm 32×32 at 640 px, shape sheet: PA %.4f, want ≥ 0.99", pa)
	}
}
