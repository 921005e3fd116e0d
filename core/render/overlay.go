package render

import (
	"image"

	"github.com/fogleman/gg"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Overlay colours: tabs tinted amber, cuts drawn dark with a light halo so
// they show on any picture.
var (
	tabTint = [3]uint8{255, 176, 32}
)

// EdgeOverlay draws the cuts of p over a copy of its solved image and tints
// every tab, so each edge's polarity — which side its tab protrudes into —
// can be read off the picture. It is for display, not for instance files.
func EdgeOverlay(p *puzzle.Puzzle, solved *image.RGBA) *image.RGBA {
	out := image.NewRGBA(solved.Rect)
	copy(out.Pix, solved.Pix)
	for i := range p.EdgeCount() {
		p.Lobe(i).Spans(func(y, x0, x1 int) {
			for x := x0; x < x1; x++ {
				blend(out, x, y, tabTint, 110)
			}
		})
	}
	dc := gg.NewContextForRGBA(out)
	lw := max(1.0, float64(min(p.PieceW, p.PieceH))/40)
	tracePath := func() {
		for i := range p.EdgeCount() {
			cut := p.Lobe(i).Cut()
			dc.MoveTo(cut[0].X, cut[0].Y)
			for _, q := range cut[1:] {
				dc.LineTo(q.X, q.Y)
			}
			dc.NewSubPath()
		}
	}
	tracePath()
	dc.SetRGBA(1, 1, 1, 0.55)
	dc.SetLineWidth(lw + 2)
	dc.Stroke()
	tracePath()
	dc.SetRGBA(0.08, 0.08, 0.1, 0.9)
	dc.SetLineWidth(lw)
	dc.Stroke()
	return out
}
