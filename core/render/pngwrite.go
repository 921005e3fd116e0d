package render

import (
	"bytes"
	stdzlib "compress/zlib"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"slices"
	"sync"

	"github.com/klauspost/compress/zlib"
)

// The PNG writer for jigbench's outputs. image/png at BestSpeed spends about
// half its time trying all five row filters; this one picks each row's
// filter from a sparse sample of its bytes, computes only that filter, and
// deflates with klauspost/compress (deflateLevel).
// The files are ordinary PNGs (8-bit gray, RGB or RGBA; one IDAT chunk), so
// any decoder reads them exactly; image types it does not know go to
// image/png unchanged.

// pngFallback encodes the image types writePNG does not handle.
var pngFallback = png.Encoder{CompressionLevel: png.BestSpeed}

// PNG colour types (PNG spec §11.2.2).
const (
	pngGray = 0
	pngRGB  = 2
	pngRGBA = 6
)

// PNG row filter types (PNG spec §9.2).
const (
	filterNone = iota
	filterSub
	filterUp
	filterAverage
	filterPaeth
)

// deflateLevel is klauspost/compress's level 2: on sheets and photographs
// it is faster than image/png's BestSpeed and 0.5–6 % smaller (level 1 is
// up to 0.4 % larger on some rect sheets).
const deflateLevel = 2

// deepLevel is the level used where deflateLevel loses (fastLevelLoses).
const deepLevel = 4

var deepZlibWriters = sync.Pool{New: func() any {
	w, err := zlib.NewWriterLevel(nil, deepLevel)
	if err != nil {
		panic(err) // a valid level; unreachable
	}
	return w
}}

// stdZlibWriters are image/png's deflate at BestSpeed, for the sample
// in fastLevelLoses and the retry of very repetitive images.
var stdZlibWriters = sync.Pool{New: func() any {
	w, err := stdzlib.NewWriterLevel(nil, stdzlib.BestSpeed)
	if err != nil {
		panic(err) // a valid level; unreachable
	}
	return w
}}

// filterBuffers hold filtered images between encodings.
var filterBuffers = sync.Pool{New: func() any { return new([]byte) }}

var zlibWriters = sync.Pool{New: func() any {
	w, err := zlib.NewWriterLevel(nil, deflateLevel)
	if err != nil {
		panic(err) // level 1 is valid; unreachable
	}
	return w
}}

// EncodePNG encodes img as the instance files do.
func EncodePNG(img image.Image) ([]byte, error) {
	var b bytes.Buffer
	if err := encodePNG(&b, img); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}

// rowSource fills row with the 8-bit samples of image row y.
type rowSource func(row []byte, y int)

// rgbRows fills rows with the RGB of 4-byte pixels (alpha dropped), row 0
// starting at pix[start].
func rgbRows(pix []byte, start, stride int) rowSource {
	return func(row []byte, y int) {
		src := pix[start+y*stride:]
		for i, j := 0, 0; i < len(row); i, j = i+3, j+4 {
			s := src[j : j+3 : j+3]
			row[i], row[i+1], row[i+2] = s[0], s[1], s[2]
		}
	}
}

func encodePNG(b *bytes.Buffer, img image.Image) error {
	r := img.Bounds()
	w, h := r.Dx(), r.Dy()
	var kind byte
	var bpp int
	var fill rowSource
	switch m := img.(type) {
	case *image.RGBA:
		if m.Opaque() {
			kind, bpp = pngRGB, 3
			fill = rgbRows(m.Pix, m.PixOffset(r.Min.X, r.Min.Y), m.Stride)
		} else {
			kind, bpp = pngRGBA, 4
			fill = func(row []byte, y int) {
				src := m.Pix[m.PixOffset(r.Min.X, r.Min.Y+y):]
				for i := 0; i < len(row); i += 4 {
					c := color.NRGBAModel.Convert(color.RGBA{src[i], src[i+1], src[i+2], src[i+3]}).(color.NRGBA)
					row[i], row[i+1], row[i+2], row[i+3] = c.R, c.G, c.B, c.A
				}
			}
		}
	case *image.NRGBA:
		if m.Opaque() {
			kind, bpp = pngRGB, 3
			fill = rgbRows(m.Pix, m.PixOffset(r.Min.X, r.Min.Y), m.Stride)
		} else {
			kind, bpp = pngRGBA, 4
			fill = func(row []byte, y int) {
				copy(row, m.Pix[m.PixOffset(r.Min.X, r.Min.Y+y):])
			}
		}
	case *image.Gray:
		kind, bpp = pngGray, 1
		fill = func(row []byte, y int) {
			copy(row, m.Pix[m.PixOffset(r.Min.X, r.Min.Y+y):])
		}
	default:
		return pngFallback.Encode(b, img)
	}
	if w <= 0 || h <= 0 || int64(w)*int64(h) >= 1<<31 {
		return pngFallback.Encode(b, img) // and its error
	}

	b.WriteString("\x89PNG\r\n\x1a\n")
	var ihdr [13]byte
	binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
	binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
	ihdr[8], ihdr[9] = 8, kind // bit depth 8; compression, filter, interlace 0
	writeChunk(b, "IHDR", ihdr[:])

	bufp := filterBuffers.Get().(*[]byte)
	defer filterBuffers.Put(bufp)
	filtered := filterImage(*bufp, fill, w*bpp, h, bpp, filterStep)
	*bufp = filtered
	// IDAT: length placeholder, then the zlib stream written straight into b.
	b.Grow(len(filtered)/2 + 1024)
	start := b.Len()
	b.Write([]byte{0, 0, 0, 0, 'I', 'D', 'A', 'T'})
	writers := &zlibWriters
	if fastLevelLoses(filtered) {
		writers = &deepZlibWriters
	}
	zw := writers.Get().(*zlib.Writer)
	defer writers.Put(zw)
	zw.Reset(b)
	if _, err := zw.Write(filtered); err != nil {
		return err
	}
	if err := zw.Close(); err != nil {
		return err
	}
	// klauspost's fast levels lose to the standard library's on
	// extremely repetitive data (smooth synthetic gradients: up to 3×
	// larger), and sampled filter choices matter more there; output that
	// small is cheap to make again, so filter every pixel and try both.
	if n := b.Len() - start - 8; n < len(filtered)/retryRatio {
		filtered = filterImage(filtered, fill, w*bpp, h, bpp, 1)
		var std bytes.Buffer
		sw := stdZlibWriters.Get().(*stdzlib.Writer)
		defer stdZlibWriters.Put(sw)
		sw.Reset(&std)
		sw.Write(filtered) // a bytes.Buffer does not fail
		if err := sw.Close(); err != nil {
			return err
		}
		if std.Len() < n {
			b.Truncate(start + 8)
			b.Write(std.Bytes())
		}
	}
	return finishPNG(b, start)
}

// finishPNG closes the IDAT chunk that starts at start (its length and CRC)
// and ends the file.
func finishPNG(b *bytes.Buffer, start int) error {
	data := b.Bytes()[start:]
	binary.BigEndian.PutUint32(data, uint32(len(data)-8))
	var crc [4]byte
	binary.BigEndian.PutUint32(crc[:], crc32.ChecksumIEEE(data[4:]))
	b.Write(crc[:])
	writeChunk(b, "IEND", nil)
	return nil
}

// sampleBytes is how much of the filtered image fastLevelLoses deflates
// both ways.
const sampleBytes = 128 << 10

// fastLevelLoses reports whether the standard library's BestSpeed deflates
// a sample from the middle of filtered at least 3 % smaller than
// deflateLevel does. klauspost's fast levels search matches less deeply; on
// some pictures (a graphic such as mate-backgrounds' Elephants) they lose by
// up to a fifth, which would break "no larger than image/png", and its
// level deepLevel, still faster than image/png, wins there. Deflating
// 128 KB twice costs a few per cent of the encoding.
func fastLevelLoses(filtered []byte) bool {
	if len(filtered) < 4*sampleBytes {
		return false // small images go through the retry below
	}
	mid := len(filtered)/2 - sampleBytes/2
	sample := filtered[mid : mid+sampleBytes]
	var fast, std countWriter
	zw := zlibWriters.Get().(*zlib.Writer)
	defer zlibWriters.Put(zw)
	zw.Reset(&fast)
	zw.Write(sample)
	zw.Close()
	sw := stdZlibWriters.Get().(*stdzlib.Writer)
	defer stdZlibWriters.Put(sw)
	sw.Reset(&std)
	sw.Write(sample)
	sw.Close()
	return std*100 < fast*97
}

// countWriter counts the bytes written to it.
type countWriter int

func (c *countWriter) Write(p []byte) (int, error) {
	*c += countWriter(len(p))
	return len(p), nil
}

// filterImage filters every row (fill gives its samples) into one buffer,
// each row choosing its filter from every step-th pixel. It reuses buf's
// memory if it is large enough.
func filterImage(buf []byte, fill rowSource, stride, h, bpp, step int) []byte {
	filtered := slices.Grow(buf[:0], (stride+1)*h)[:(stride+1)*h]
	rows := make([]byte, 2*stride)
	prev, cur := rows[:stride], rows[stride:]
	for y := range h {
		out := filtered[y*(stride+1) : (y+1)*(stride+1)]
		fill(cur, y)
		if y > 0 && bytes.Equal(cur, prev) && subCostPositive(cur, bpp, step) {
			// A repeated row (the background between a sheet's slots):
			// Up and Paeth cost nothing, Sub something, so filterRow
			// would pick Up, which is all zeros.
			out[0] = filterUp
			clear(out[1:])
		} else {
			out[0] = filterRow(out[1:], cur, prev, bpp, step, y == 0)
		}
		prev, cur = cur, prev
	}
	return filtered
}

// subCostPositive reports whether filterRow's sampled Sub cost of row cur
// is above zero.
func subCostPositive(cur []byte, bpp, step int) bool {
	for i := bpp; i < len(cur); i += step * bpp {
		for k := i; k < i+bpp && k < len(cur); k++ {
			if cur[k] != cur[k-bpp] {
				return true
			}
		}
	}
	return false
}

// retryRatio: filtered data that deflates to less than 1/retryRatio of its
// size is deflated again with compress/zlib, and the smaller stream kept.
const retryRatio = 20

func writeChunk(b *bytes.Buffer, name string, data []byte) {
	var n [4]byte
	binary.BigEndian.PutUint32(n[:], uint32(len(data)))
	b.Write(n[:])
	c := crc32.NewIEEE()
	c.Write([]byte(name))
	c.Write(data)
	b.WriteString(name)
	b.Write(data)
	binary.BigEndian.PutUint32(n[:], c.Sum32())
	b.Write(n[:])
}

// filterStep is the sampling stride of the filter choice, in pixels.
const filterStep = 8

// filterRow writes cur filtered into out and returns the filter type. The
// choice is the standard heuristic (least sum of absolute filtered values,
// None counted as bytes) over every step-th pixel, among all five
// filters; only the chosen one is computed in full.
func filterRow(out, cur, prev []byte, bpp, step int, first bool) byte {
	if first {
		filterSubRow(out, cur, bpp)
		return filterSub
	}
	var cost [5]int
	for i := bpp; i < len(cur); i += step * bpp {
		for k := i; k < i+bpp && k < len(cur); k++ {
			x, a, b, c := cur[k], cur[k-bpp], prev[k], prev[k-bpp]
			cost[filterNone] += absSigned(x)
			cost[filterSub] += absSigned(x - a)
			cost[filterUp] += absSigned(x - b)
			cost[filterAverage] += absSigned(x - byte((int(a)+int(b))/2))
			cost[filterPaeth] += absSigned(x - paeth(a, b, c))
		}
	}
	best := filterSub
	for f := filterUp; f <= filterPaeth; f++ {
		if cost[f] < cost[best] {
			best = f
		}
	}
	if cost[filterNone] < cost[best] {
		best = filterNone
	}
	switch best {
	case filterNone:
		copy(out, cur)
	case filterSub:
		filterSubRow(out, cur, bpp)
	case filterUp:
		for i := range cur {
			out[i] = cur[i] - prev[i]
		}
	case filterAverage:
		for i := range bpp {
			out[i] = cur[i] - prev[i]/2
		}
		for i := bpp; i < len(cur); i++ {
			out[i] = cur[i] - byte((int(cur[i-bpp])+int(prev[i]))/2)
		}
	default:
		filterPaethRow(out, cur, prev, bpp)
	}
	return byte(best)
}

func absSigned(d byte) int {
	if d >= 128 {
		return 256 - int(d)
	}
	return int(d)
}

func filterSubRow(out, cur []byte, bpp int) {
	copy(out[:bpp], cur[:bpp])
	for i := bpp; i < len(cur); i++ {
		out[i] = cur[i] - cur[i-bpp]
	}
}

func filterPaethRow(out, cur, prev []byte, bpp int) {
	for i := range bpp {
		out[i] = cur[i] - prev[i]
	}
	n := len(cur)
	out, prev = out[:n], prev[:n]
	for i := bpp; i < n; i++ {
		a, b, c := int(cur[i-bpp]), int(prev[i]), int(prev[i-bpp])
		pa, pb, pc := b-c, a-c, a+b-2*c
		pa = (pa ^ (pa >> 31)) - (pa >> 31)
		pb = (pb ^ (pb >> 31)) - (pb >> 31)
		pc = (pc ^ (pc >> 31)) - (pc >> 31)
		if pb < pa {
			a, pa = b, pb
		}
		if pc < pa {
			a = c
		}
		out[i] = cur[i] - byte(a)
	}
}

// paeth is the Paeth predictor (PNG spec §9.4) of left a, above b, upper-left c.
func paeth(a, b, c byte) byte {
	p := int(a) + int(b) - int(c)
	pa, pb, pc := p-int(a), p-int(b), p-int(c)
	if pa < 0 {
		pa = -pa
	}
	if pb < 0 {
		pb = -pb
	}
	if pc < 0 {
		pc = -pc
	}
	if pa <= pb && pa <= pc {
		return a
	}
	if pb <= pc {
		return b
	}
	return c
}
