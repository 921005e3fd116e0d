package render

import (
	"image"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

func TestPyramidAndViewport(t *testing.T) {
	img := testImage(301, 200)
	p := NewPyramid(img)
	if p.Size() != (image.Point{301, 200}) || len(p.levels) < 3 {
		t.Fatalf("size %v, %d levels", p.Size(), len(p.levels))
	}
	if l1 := p.levels[1].Rect; l1.Dx() != 151 || l1.Dy() != 100 {
		t.Fatalf("level 1 is %v, want 151×100", l1)
	}
	// A 2×2 block averages exactly.
	if got, want := p.levels[1].RGBAAt(3, 4).R, uint8((int(img.RGBAAt(6, 8).R)+int(img.RGBAAt(7, 8).R)+int(img.RGBAAt(6, 9).R)+int(img.RGBAAt(7, 9).R)+2)/4); got != want {
		t.Fatalf("halved pixel %d, want %d", got, want)
	}
	// At scale 1 from the origin the view is the image itself.
	dst := image.NewRGBA(image.Rect(0, 0, 50, 40))
	p.Viewport(dst, 0, 0, 1, [3]uint8{1, 2, 3})
	for y := 0; y < 40; y++ {
		for x := 0; x < 50; x++ {
			if dst.RGBAAt(x, y) != img.RGBAAt(x, y) {
				t.Fatalf("1:1 view differs at (%d,%d)", x, y)
			}
		}
	}
	// Outside the image the background shows; zoomed out the view stays in range.
	p.Viewport(dst, -100, -100, 0.3, [3]uint8{1, 2, 3})
	if c := dst.RGBAAt(0, 0); c.R != 1 || c.G != 2 || c.B != 3 {
		t.Fatalf("background %v", c)
	}
	p.Viewport(dst, 0, 0, 0, [3]uint8{9, 9, 9}) // a degenerate scale paints background
	if dst.RGBAAt(10, 10).R != 9 {
		t.Fatal("scale 0 did not paint the background")
	}
}

func TestEdgeOverlayTintsEveryTab(t *testing.T) {
	p, err := puzzle.New(4, 1, [32]byte{}, 400, 240, puzzle.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	solved := testImage(400, 240)
	out := EdgeOverlay(p, solved)
	for i := range p.EdgeCount() {
		changed := false
		p.Lobe(i).Spans(func(y, x0, x1 int) {
			for x := x0; x < x1; x++ {
				if out.RGBAAt(x, y) != solved.RGBAAt(x, y) {
					changed = true
				}
			}
		})
		if !changed {
			t.Fatalf("edge %d is not marked", i)
		}
	}
	if out.RGBAAt(150, 90) != solved.RGBAAt(150, 90) { // the middle of cell (1,1), far from any cut
		t.Fatal("the overlay changed a cell's interior")
	}
}
