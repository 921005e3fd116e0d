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
		p.levels = append(p.levels, halve(last))
	}
}

// halve averages 2×2 blocks (an odd last row or column is averaged with
// itself), the exact box filter for a factor of two, in one pass.
func halve(src *image.RGBA) *image.RGBA {
	w, h := src.Rect.Dx(), src.Rect.Dy()
	dw, dh := (w+1)/2, (h+1)/2
	dst := image.NewRGBA(image.Rect(0, 0, dw, dh))
	for y := 0; y < dh; y++ {
		r0 := src.Pix[(2*y)*src.Stride:]
		r1 := r0
		if 2*y+1 < h {
			r1 = src.Pix[(2*y+1)*src.Stride:]
		}
		d := dst.Pix[y*dst.Stride : y*dst.Stride+4*dw]
		for x := 0; x < dw; x++ {
			a := 8 * x
			b := a + 4
			if 2*x+1 >= w {
				b = a
			}
			for c := 0; c < 4; c++ {
				d[4*x+c] = uint8((uint32(r0[a+c]) + uint32(r0[b+c]) + uint32(r1[a+c]) + uint32(r1[b+c]) + 2) >> 2)
			}
		}
	}
	return dst
}

// Image is the full-size image.
func (p *Pyramid) Image() *image.RGBA { return p.levels[0] }

// Size is the full-size image's size.
func (p *Pyramid) Size() image.Point { return p.levels[0].Rect.Size() }

// Viewport fills dst with the view whose top-left pixel shows image point
// (ox, oy) at scale dst pixels per image pixel; outside the image it paints bg.
// Zoomed out it interpolates bilinearly in the finest level that is at most
// twice the needed size (so no detail aliases); zoomed in it shows image
// pixels as crisp blocks.
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
	f := math.Exp2(float64(k)) // image pixels per level pixel
	smooth := scale*f < 1
	xs := viewportTaps(dst.Rect.Dx(), lv.Rect.Dx(), ox, scale, f, smooth)
	ys := viewportTaps(dst.Rect.Dy(), lv.Rect.Dy(), oy, scale, f, smooth)
	for y, ty := range ys {
		row := dst.Pix[y*dst.Stride : y*dst.Stride+4*len(xs)]
		if ty.i0 < 0 {
			for i := 0; i < len(row); i += 4 {
				row[i], row[i+1], row[i+2], row[i+3] = bg[0], bg[1], bg[2], 0xFF
			}
			continue
		}
		r0 := lv.Pix[ty.i0*lv.Stride:]
		r1 := lv.Pix[ty.i1*lv.Stride:]
		for x, tx := range xs {
			d := row[4*x : 4*x+4 : 4*x+4]
			if tx.i0 < 0 {
				d[0], d[1], d[2], d[3] = bg[0], bg[1], bg[2], 0xFF
				continue
			}
			a, b := 4*tx.i0, 4*tx.i1
			for c := 0; c < 3; c++ {
				top := uint32(r0[a+c])*(256-tx.w) + uint32(r0[b+c])*tx.w
				bot := uint32(r1[a+c])*(256-tx.w) + uint32(r1[b+c])*tx.w
				d[c] = uint8((top*(256-ty.w) + bot*ty.w + 1<<15) >> 16)
			}
			d[3] = 0xFF
		}
	}
}

// tap is where one output column (or row) samples a level: between level
// pixels i0 and i1 with weight w/256 on i1; i0 < 0 outside the image.
type tap struct {
	i0, i1 int
	w      uint32
}

func viewportTaps(n, size int, origin, scale, f float64, smooth bool) []tap {
	out := make([]tap, n)
	for i := range out {
		s := (origin + (float64(i)+0.5)/scale) / f // in level pixels
		if s < 0 || s >= float64(size) {
			out[i] = tap{i0: -1}
			continue
		}
		if !smooth {
			j := int(s)
			out[i] = tap{i0: j, i1: j}
			continue
		}
		c := s - 0.5 // between the centres of pixels ⌊c⌋ and ⌊c⌋+1
		j := int(math.Floor(c))
		w := uint32((c - float64(j)) * 256)
		j0, j1 := max(j, 0), min(j+1, size-1)
		out[i] = tap{i0: j0, i1: j1, w: w}
	}
	return out
}
