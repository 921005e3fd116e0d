package render

import (
	"image"
	"math"
)

// Pyramid holds an image and its successive halvings, so a view can show it
// at any zoom without aliasing and without resampling the full image on
// every frame.
type Pyramid struct {
	levels []*image.RGBA // levels[k] is the image scaled by 2^-k
}

// NewPyramid builds the levels down to about 64 px on the longer side. Build
// it where heavy work belongs (off a UI thread); Viewport is cheap.
func NewPyramid(img *image.RGBA) *Pyramid {
	if img.Rect.Min != (image.Point{}) {
		img = crop(img, img.Rect)
	}
	p := &Pyramid{levels: []*image.RGBA{img}}
	for {
		last := p.levels[len(p.levels)-1]
		w, h := last.Rect.Dx(), last.Rect.Dy()
		if max(w, h) <= 64 || min(w, h) < 2 {
			return p
		}
		p.levels = append(p.levels, boxResize(last, (w+1)/2, (h+1)/2))
	}
}

// Image is the full-size image.
func (p *Pyramid) Image() *image.RGBA { return p.levels[0] }

// Size is the full-size image's size.
func (p *Pyramid) Size() image.Point { return p.levels[0].Rect.Size() }

// Viewport fills dst with the view whose top-left pixel shows image point
// (ox, oy) at scale dst pixels per image pixel; outside the image it paints bg.
// Zoomed out it samples the finest level no larger than needed; zoomed in it
// shows image pixels as crisp blocks.
func (p *Pyramid) Viewport(dst *image.RGBA, ox, oy, scale float64, bg [3]uint8) {
	if scale <= 0 || math.IsNaN(scale) || math.IsInf(scale, 0) {
		fillRGB(dst, bg)
		return
	}
	k := 0
	for k+1 < len(p.levels) && scale*math.Exp2(float64(k+1)) <= 1 {
		k++
	}
	lv := p.levels[k]
	f := math.Exp2(float64(k)) // level pixels per image pixel = 1/f
	lw, lh := lv.Rect.Dx(), lv.Rect.Dy()
	w, h := dst.Rect.Dx(), dst.Rect.Dy()
	xs := make([]int, w) // source column per destination column, -1 outside
	for x := range xs {
		sx := math.Floor((ox + (float64(x)+0.5)/scale) / f)
		xs[x] = -1
		if sx >= 0 && sx < float64(lw) {
			xs[x] = int(sx)
		}
	}
	for y := 0; y < h; y++ {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
		sy := math.Floor((oy + (float64(y)+0.5)/scale) / f)
		if sy < 0 || sy >= float64(lh) {
			for i := 0; i < len(row); i += 4 {
				row[i], row[i+1], row[i+2], row[i+3] = bg[0], bg[1], bg[2], 0xFF
			}
			continue
		}
		src := lv.Pix[int(sy)*lv.Stride:]
		for x, sx := range xs {
			d := row[4*x : 4*x+4 : 4*x+4]
			if sx < 0 {
				d[0], d[1], d[2], d[3] = bg[0], bg[1], bg[2], 0xFF
				continue
			}
			copy(d, src[4*sx:4*sx+4])
		}
	}
}
