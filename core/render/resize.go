package render

import (
	"fmt"
	"image"
	"image/color"
	"runtime"
	"sync"
)

// Prepared is the solved image of an instance: the source, oriented, scaled
// so its longer side is at most size and centre-cropped to multiples of N.
type Prepared struct {
	Image *image.RGBA
	// Note says what a person should know, e.g. that a small source was not enlarged.
	Note string
}

// Prepare scales and crops src for an n×n puzzle with the given longer side.
//
// Downscaling averages the source pixels each output pixel covers (a box
// filter over exact pixel fractions, in integer arithmetic): alias-free,
// cheap, and the same bytes on every platform. A source smaller than size is
// never enlarged; the note says so.
func Prepare(src *Source, size, n int) (*Prepared, error) {
	w, h := src.Width, src.Height // as displayed
	long, short := max(w, h), min(w, h)
	out := &Prepared{}
	tw, th := w, h
	if long > size {
		s := (short*size + long/2) / long // the shorter side, rounded half up
		if w >= h {
			tw, th = size, s
		} else {
			tw, th = s, size
		}
	} else if long < size {
		out.Note = fmt.Sprintf("the source is %d×%d, smaller than size %d; it was not enlarged", w, h, size)
	}
	cw, ch := tw-tw%n, th-th%n
	if cw/n < 1 || ch/n < 1 {
		return nil, fmt.Errorf("%s: the image (%d×%d after scaling) is too small for a %d×%d grid", src.Name, tw, th, n, n)
	}

	// Resize in the stored orientation, then orient the small result.
	rw, rh := tw, th
	if src.orientation >= 5 {
		rw, rh = th, tw
	}
	scaled := resizeTo(src.img, rw, rh)
	scaled = orient(scaled, src.orientation)
	out.Image = crop(scaled, image.Rect(0, 0, cw, ch).Add(image.Pt((tw-cw)/2, (th-ch)/2)))
	return out, nil
}

// resizeTo scales img (stored orientation) to exactly w×h, w and h no larger
// than its own size. JPEG's YCbCr is averaged plane by plane at its own
// resolution and converted at the end, which skips a full-size RGB copy.
func resizeTo(img image.Image, w, h int) *image.RGBA {
	b := img.Bounds()
	if yc, ok := img.(*image.YCbCr); ok && b.Min == (image.Point{}) && (w != b.Dx() || h != b.Dy()) {
		if out, ok := boxResizeYCbCr(yc, w, h); ok {
			return out
		}
	}
	rgba, ok := img.(*image.RGBA)
	if !ok || b.Min != (image.Point{}) {
		rgba = toRGBA(img)
	}
	if w == b.Dx() && h == b.Dy() {
		return rgba
	}
	return boxResize(rgba, w, h)
}

// boxResizeYCbCr averages each plane down to w×h and converts to RGB; false
// when a chroma plane is smaller than the output (it would need enlarging).
func boxResizeYCbCr(src *image.YCbCr, w, h int) (*image.RGBA, bool) {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	cw, ch := sw, sh
	switch src.SubsampleRatio {
	case image.YCbCrSubsampleRatio444:
	case image.YCbCrSubsampleRatio422:
		cw = (sw + 1) / 2
	case image.YCbCrSubsampleRatio420:
		cw, ch = (sw+1)/2, (sh+1)/2
	case image.YCbCrSubsampleRatio440:
		ch = (sh + 1) / 2
	case image.YCbCrSubsampleRatio411:
		cw = (sw + 3) / 4
	case image.YCbCrSubsampleRatio410:
		cw, ch = (sw+3)/4, (sh+1)/2
	default:
		return nil, false
	}
	if cw < w || ch < h {
		return nil, false
	}
	y := boxPlane(src.Y, src.YStride, sw, sh, w, h)
	cb := boxPlane(src.Cb, src.CStride, cw, ch, w, h)
	cr := boxPlane(src.Cr, src.CStride, cw, ch, w, h)
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	inHalves(h, func(r0, r1 int) {
		for i := r0 * w; i < r1*w; i++ {
			r, g, b := color.YCbCrToRGB(y[i], cb[i], cr[i])
			p := dst.Pix[4*i : 4*i+4 : 4*i+4]
			p[0], p[1], p[2], p[3] = r, g, b, 0xFF
		}
	})
	return dst, true
}

// boxPlane area-averages one 8-bit plane (sw×sh, stride) down to w×h.
func boxPlane(pix []uint8, stride, sw, sh, w, h int) []uint8 {
	xt, yt := boxWeights(sw, w), boxWeights(sh, h)
	mid := make([]uint16, w*sh) // value × 256
	inHalves(sh, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			boxRow(mid[y*w:(y+1)*w], pix[y*stride:y*stride+sw], xt)
		}
	})
	dst := make([]uint8, w*h)
	inHalves(h, func(y0, y1 int) {
		// 32 bits suffice: the weights sum to 65536 and mid ≤ 255×256, so
		// acc + 1<<23 < 65536×65280 + 1<<23 < 1<<32.
		acc := make([]uint32, w)
		for y := y0; y < y1; y++ {
			t := yt[y]
			clear(acc)
			for k, wt := range t.weights {
				in := mid[(t.first+k)*w : (t.first+k+1)*w]
				in = in[:len(acc)]
				for i, v := range in {
					acc[i] += wt * uint32(v)
				}
			}
			out := dst[y*w : (y+1)*w]
			for i, v := range acc {
				out[i] = uint8((v + 1<<23) >> 24)
			}
		}
	})
	return dst
}

// boxRow is boxPlane's horizontal pass over one row: out[x] is the
// weighted sum of row's taps xt[x], as value × 256. The usual tap counts
// are written out, which the compiler turns into straight-line code.
func boxRow(out []uint16, row []uint8, xt []boxTaps) {
	for x, t := range xt {
		in, wt := row[t.first:], t.weights
		var acc uint32
		switch len(wt) {
		case 2:
			in = in[:2]
			acc = wt[0]*uint32(in[0]) + wt[1]*uint32(in[1])
		case 3:
			in, wt = in[:3], wt[:3]
			acc = wt[0]*uint32(in[0]) + wt[1]*uint32(in[1]) + wt[2]*uint32(in[2])
		case 4:
			in, wt = in[:4], wt[:4]
			acc = wt[0]*uint32(in[0]) + wt[1]*uint32(in[1]) + wt[2]*uint32(in[2]) + wt[3]*uint32(in[3])
		default:
			for k, w := range wt {
				acc += w * uint32(in[k])
			}
		}
		out[x] = uint16((acc + 128) >> 8)
	}
}

// inHalves calls f(lo, hi) on [0, n/2) and [n/2, n) side by side when
// there is more than one processor and enough work, else f(0, n) once.
// Callers write disjoint rows, so the result is the same either way.
func inHalves(n int, f func(lo, hi int)) {
	if n < 64 || runtime.GOMAXPROCS(0) < 2 {
		f(0, n)
		return
	}
	var wg sync.WaitGroup
	wg.Go(func() { f(0, n/2) })
	f(n/2, n)
	wg.Wait()
}

// crop copies r out of src into a new image with origin (0, 0).
func crop(src *image.RGBA, r image.Rectangle) *image.RGBA {
	dst := image.NewRGBA(image.Rect(0, 0, r.Dx(), r.Dy()))
	for y := 0; y < r.Dy(); y++ {
		si := src.PixOffset(r.Min.X, r.Min.Y+y)
		copy(dst.Pix[y*dst.Stride:y*dst.Stride+4*r.Dx()], src.Pix[si:si+4*r.Dx()])
	}
	return dst
}

// boxTaps are the source pixels (from first, len(weights) of them) that an
// output pixel covers, with weights in 1/65536 that sum to exactly 65536.
type boxTaps struct {
	first   int
	weights []uint32
}

// boxWeights computes the taps of each of dst output pixels over src input
// pixels (dst ≤ src). In units of 1/dst of an input pixel, output i covers
// [i·src, (i+1)·src) and input j covers [j·dst, (j+1)·dst).
func boxWeights(src, dst int) []boxTaps {
	taps := make([]boxTaps, dst)
	for i := range taps {
		lo, hi := i*src, (i+1)*src
		j0, j1 := lo/dst, (hi-1)/dst
		t := boxTaps{first: j0, weights: make([]uint32, j1-j0+1)}
		var sum uint32
		big := 0
		for j := j0; j <= j1; j++ {
			overlap := min(hi, (j+1)*dst) - max(lo, j*dst)
			w := uint32((uint64(overlap)<<16 + uint64(src)/2) / uint64(src))
			t.weights[j-j0] = w
			sum += w
			if w > t.weights[big] {
				big = j - j0
			}
		}
		t.weights[big] += 1<<16 - sum // the rounding remainder, so weights sum to one
		taps[i] = t
	}
	return taps
}

// boxResize area-averages src (origin (0,0)) down to w×h.
func boxResize(src *image.RGBA, w, h int) *image.RGBA {
	sw, sh := src.Rect.Dx(), src.Rect.Dy()
	xt := boxWeights(sw, w)
	yt := boxWeights(sh, h)

	// Horizontal pass: every source row to w pixels, kept as value×256.
	mid := make([]uint16, 4*w*sh)
	inHalves(sh, func(y0, y1 int) {
		for y := y0; y < y1; y++ {
			row := src.Pix[y*src.Stride : y*src.Stride+4*sw]
			out := mid[4*w*y : 4*w*(y+1)]
			for x, t := range xt {
				var r, g, b, a uint32
				p := row[4*t.first:]
				for k, wt := range t.weights {
					q := p[4*k : 4*k+4 : 4*k+4]
					r += wt * uint32(q[0])
					g += wt * uint32(q[1])
					b += wt * uint32(q[2])
					a += wt * uint32(q[3])
				}
				o := out[4*x : 4*x+4 : 4*x+4]
				o[0] = uint16((r + 128) >> 8)
				o[1] = uint16((g + 128) >> 8)
				o[2] = uint16((b + 128) >> 8)
				o[3] = uint16((a + 128) >> 8)
			}
		}
	})

	// Vertical pass: columns of the intermediate down to h rows.
	dst := image.NewRGBA(image.Rect(0, 0, w, h))
	inHalves(h, func(y0, y1 int) {
		acc := make([]uint64, 4*w)
		for y := y0; y < y1; y++ {
			t := yt[y]
			clear(acc)
			for k, wt := range t.weights {
				in := mid[4*w*(t.first+k) : 4*w*(t.first+k+1)]
				w64 := uint64(wt)
				for i, v := range in {
					acc[i] += w64 * uint64(v)
				}
			}
			out := dst.Pix[y*dst.Stride : y*dst.Stride+4*w]
			for i, v := range acc {
				out[i] = uint8((v + 1<<23) >> 24)
			}
		}
	})
	return dst
}
