package solve

import (
	"fmt"
	"image"
	"math"
	"slices"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/render/demo"
)

// cutOneReference is cutOne as it was before its flood read a mask of the
// slot (2026-12-08): a pixel judged as the flood first reaches it. The
// cut must not change (TestCutLikeReference).
func cutOneReference(g *geometry, sheet *image.RGBA, id int) (*cutPiece, error) {
	n := g.n
	ox := sheet.Rect.Min.X + g.originX + (id%n)*g.sw
	oy := sheet.Rect.Min.Y + g.originY + (id/n)*g.sh
	sw, sh := g.sw, g.sh
	p := &cutPiece{id: id, kind: make([]uint8, sw*sh), rgb: make([]float32, 3*sw*sh)}
	pix := func(sx, sy int) []uint8 {
		i := sheet.PixOffset(ox+sx, oy+sy)
		return sheet.Pix[i : i+3 : i+3]
	}
	// Under a label the flood compares each pixel with the labels drawn over
	// the background (labelSeen).
	seen := newLabelSeen(g, id)
	// Flood the background from the slot's border.
	flooded := make([]bool, sw*sh)
	stack := make([]int32, 0, 2*(sw+sh))
	push := func(sx, sy int) {
		i := sy*sw + sx
		if flooded[i] {
			return
		}
		var ok bool
		if k, under := seen.under(sx, sy); under {
			ok = seen.background(k, pix(sx, sy))
		} else {
			ok = floodable(pix(sx, sy))
		}
		if ok {
			flooded[i] = true
			stack = append(stack, int32(i))
		}
	}
	for sx := 0; sx < sw; sx++ {
		push(sx, 0)
		push(sx, sh-1)
	}
	for sy := 0; sy < sh; sy++ {
		push(0, sy)
		push(sw-1, sy)
	}
	for len(stack) > 0 {
		i := int(stack[len(stack)-1])
		stack = stack[:len(stack)-1]
		sx, sy := i%sw, i/sw
		if sx > 0 {
			push(sx-1, sy)
		}
		if sx < sw-1 {
			push(sx+1, sy)
		}
		if sy > 0 {
			push(sx, sy-1)
		}
		if sy < sh-1 {
			push(sx, sy+1)
		}
	}
	if seen.drawn {
		seen.settle(flooded, sw, func(sx, sy int) bool {
			k, under := seen.under(sx, sy)
			return under && seen.hidden(k, pix(sx, sy))
		})
	}
	// The piece is what the flood did not reach; its boundary is its ring.
	for sy := 0; sy < sh; sy++ {
		for sx := 0; sx < sw; sx++ {
			i := sy*sw + sx
			if flooded[i] {
				continue
			}
			ring := sx == 0 || sy == 0 || sx == sw-1 || sy == sh-1 ||
				flooded[i-1] || flooded[i+1] || flooded[i-sw] || flooded[i+sw]
			c := pix(sx, sy)
			if ring {
				p.kind[i] = pxRing
				p.rgb[3*i], p.rgb[3*i+1], p.rgb[3*i+2] = restoreRing(c[0]), restoreRing(c[1]), restoreRing(c[2])
			} else {
				p.kind[i] = pxInner
				p.rgb[3*i], p.rgb[3*i+1], p.rgb[3*i+2] = float32(c[0]), float32(c[1]), float32(c[2])
			}
		}
	}
	refineRing(p, sw, sh)
	// A label hides the picture under it: the piece's own over the whole
	// of its bounds, a neighbour's where it spills into the slot.
	lb := g.labels.Bounds(id).Add(image.Pt(g.offX, g.offY))
	for sy := range sh {
		for sx := range sw {
			q := image.Point{sx, sy}
			if i := sy*sw + sx; p.kind[i] != pxOutside && (q.In(lb) || seen.drawn && seen.covers(q)) {
				p.kind[i] = pxLabel
			}
		}
	}
	if g.knob > 0 {
		p.sides, p.unread = readClassicSides(g, p)
	} else {
		p.sides, p.unread = readSides(g, p)
	}
	seeThroughLabel(g, p, id, lb, pix)
	if p.unread != nil {
		p.sides, p.unread = puzzle.Sides{}, fmt.Errorf("piece %d: %w", id, p.unread)
	}
	return p, nil
}

// TestCutLikeReference: every piece cut as cutOneReference cuts it — the
// same pixel kinds, colours to the bit, sides and errors — on rect and
// shape sheets of demo scenes, semicircle and classic tabs, and of 12- and
// 16-px pieces of pictures that look like the sheet's background.
func TestCutLikeReference(t *testing.T) {
	classic := puzzle.DefaultOptions()
	classic.TabStyle = puzzle.StyleClassic
	small, smaller := puzzle.DefaultOptions(), puzzle.DefaultOptions()
	small.Size, smaller.Size = 384, 640
	cases := []struct {
		name string
		n    int
		opt  puzzle.Options
	}{
		{"night-city", 8, puzzle.DefaultOptions()},
		{"bookshelf", 16, puzzle.DefaultOptions()},
		{"harbor-town", 32, puzzle.DefaultOptions()},
		{"coral-reef", 12, classic},
		{"fruit-market", 24, classic},
		{"moonlit-bay", 16, small},
		{"stained-glass", 32, smaller},
	}
	if raceEnabled || testing.Short() {
		// The cut runs on one goroutine: the race detector adds nothing
		// but time, so only a few sheets are cut (the whole run: make test).
		cases = []struct {
			name string
			n    int
			opt  puzzle.Options
		}{{"coral-reef", 8, classic}, {"moonlit-bay", 8, small}}
	}
	var gens []*render.Generated
	for _, c := range cases {
		gens = append(gens, generateDemoWith(t, c.name, c.n, 3, c.opt))
	}
	// Pieces of 12 and 16 px, whose labels spill into the slots beside
	// them, of pictures that look like the sheet's background.
	smallGrid := 16
	if raceEnabled || testing.Short() {
		smallGrid = 6
	}
	for _, cf := range []struct {
		n, cell int
		style   string
	}{{smallGrid, 12, puzzle.StyleSemicircle}, {smallGrid, 16, puzzle.StyleClassic}} {
		for name, pic := range smallPiecePictures(t, cf.n*cf.cell) {
			opt := puzzle.Options{Size: cf.n * cf.cell, TabStyle: cf.style, TabRatio: 0.2}
			gens = append(gens, generate(t, render.SourceFromImage(name, pic), cf.n, 7, opt))
		}
	}
	for _, gen := range gens {
		in := gen.Instance
		g := newGeometry(in.Public())
		for _, sheet := range []*image.RGBA{gen.Rect, gen.Shape} {
			for id := range in.Grid * in.Grid {
				if d := cutDiff(&g, sheet, id); d != "" {
					t.Fatalf("%s %d×%d (%s, %d px), piece %d: %s", in.Source.Name, in.Grid, in.Grid, in.Options.TabStyle, in.Options.Size, id, d)
				}
			}
		}
	}
}

// cutDiff cuts piece id of sheet as cutOne and as cutOneReference and says
// how they differ ("" where they do not).
func cutDiff(g *geometry, sheet *image.RGBA, id int) string {
	got, err1 := cutOne(g, sheet, id)
	want, err2 := cutOneReference(g, sheet, id)
	switch {
	case fmt.Sprint(err1) != fmt.Sprint(err2):
		return fmt.Sprintf("error %v, the reference's %v", err1, err2)
	case !slices.Equal(got.kind, want.kind):
		return "pixel kinds differ from the reference's"
	case !slices.EqualFunc(got.rgb, want.rgb, func(a, b float32) bool { return math.Float32bits(a) == math.Float32bits(b) }):
		return "colours differ from the reference's"
	case got.sides != want.sides || fmt.Sprint(got.unread) != fmt.Sprint(want.unread):
		return fmt.Sprintf("sides %v (%v), the reference's %v (%v)", got.sides, got.unread, want.sides, want.unread)
	}
	return ""
}

// generateDemoWith is generateDemo with options of its own.
func generateDemoWith(t testing.TB, name string, n int, seed uint64, opt puzzle.Options) *render.Generated {
	t.Helper()
	img, err := demo.Image(name)
	if err != nil {
		t.Fatal(err)
	}
	return generate(t, render.SourceFromImage(name, img), n, seed, opt)
}

// BenchmarkCut cuts every piece of a 32×32 rect sheet (1,478 × 1,094 px)
// on one core, as cutOne does and as its reference did.
func BenchmarkCut(b *testing.B) {
	gen := generateDemo(b, "harbor-town", 32, 1)
	g := newGeometry(gen.Instance.Public())
	for _, c := range []struct {
		name string
		cut  func(*geometry, *image.RGBA, int) (*cutPiece, error)
	}{{"now", cutOne}, {"reference", cutOneReference}} {
		b.Run(c.name, func(b *testing.B) {
			for b.Loop() {
				for id := range 32 * 32 {
					c.cut(&g, gen.Rect, id)
				}
			}
		})
	}
}

// FuzzCutLikeReference: on a sheet whose pixels are partly arbitrary (the
// fuzzer's bytes written over it from a chosen place, as grey levels or as
// colours), every piece is cut as cutOneReference cuts it, and nothing
// panics.
func FuzzCutLikeReference(f *testing.F) {
	checker := image.NewRGBA(image.Rect(0, 0, 96, 96))
	for i := 0; i < len(checker.Pix); i += 4 {
		v := uint8(255 * ((i/4%96 + i/4/96) % 2))
		checker.Pix[i], checker.Pix[i+1], checker.Pix[i+2], checker.Pix[i+3] = v, v, v, 255
	}
	opt := puzzle.Options{Size: 96, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2}
	gen, err := render.Generate(render.SourceFromImage("checker", checker), 6, 5, opt)
	if err != nil {
		f.Fatal(err)
	}
	g := newGeometry(gen.Instance.Public())
	f.Add(uint32(0), true, []byte{236, 236, 236, 34, 34, 34})
	f.Add(uint32(4000), false, []byte{236, 200, 236, 255, 0, 70, 70, 70})
	f.Fuzz(func(t *testing.T, at uint32, grey bool, data []byte) {
		for _, src := range []*image.RGBA{gen.Rect, gen.Shape} {
			sheet := &image.RGBA{Pix: slices.Clone(src.Pix), Stride: src.Stride, Rect: src.Rect}
			px := len(sheet.Pix) / 4
			for k, v := range data {
				i := (int(at) + k) % px
				if grey {
					sheet.Pix[4*i], sheet.Pix[4*i+1], sheet.Pix[4*i+2] = v, v, v
				} else {
					sheet.Pix[4*i+k%3] = v
				}
			}
			for id := range 36 {
				if d := cutDiff(&g, sheet, id); d != "" {
					t.Fatalf("piece %d: %s", id, d)
				}
			}
		}
	})
}
