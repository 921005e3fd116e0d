package render

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"io"

	"github.com/klauspost/compress/zlib"
)

// The PNG reader for the files jigbench writes (pngwrite.go): 8-bit gray,
// RGB or RGBA, not interlaced, its IDAT chunks together between IHDR and
// IEND. image/png inflates the pixel data and undoes each row's filter one
// after the other on one core; here the stream is inflated on one goroutine
// while the caller's undoes the filters of the rows already inflated (a
// 32×32 rect sheet, 1478 × 1094 px: about 40 ms → 25). The inflating is
// github.com/klauspost/compress/zlib's, a quarter faster than compress/zlib
// on that sheet (38–40 → 28–30 ms the whole decode; docs/solver.md), which
// checks the stream as strictly; the images are of the types image/png
// returns (*image.Gray, *image.RGBA, *image.NRGBA) with the same pixels. Any other file, and any file this reader finds fault with, goes to
// image/png (decodeOwnPNG reports false), so its errors are image/png's.

// pngSignature opens every PNG file (PNG spec §5.2).
const pngSignature = "\x89PNG\r\n\x1a\n"

// maxDeflateRatio bounds what deflate makes of a byte: a 258-byte match
// takes at least 2 bits, so a byte (with the zlib and block overhead) makes
// under 1,032.
const maxDeflateRatio = 1032

// inflateChunk is how many bytes of rows the inflating goroutine hands over
// at a time.
const inflateChunk = 64 << 10

// decodeOwnPNG decodes data as above; ok is false where it leaves the file
// to image/png.
func decodeOwnPNG(data []byte) (img image.Image, ok bool) {
	w, h, kind, idat, ok := ownPNGLayout(data)
	if !ok {
		return nil, false
	}
	bpp := 4
	switch kind {
	case pngGray:
		bpp = 1
	case pngRGB:
		bpp = 3
	}
	stride := w * bpp
	if int64(h)*int64(1+stride) > int64(len(idat))*maxDeflateRatio {
		return nil, false // too little data for the rows, whatever it holds
	}
	raw := make([]byte, h*(1+stride)) // each row: its filter byte, then its samples

	// The inflating goroutine sends how many bytes of raw it has filled, and
	// closes the channel when it ends; inflated reports whether the stream
	// held exactly raw, its checksum right and no IDAT byte left over (what
	// image/png requires). The channel holds every send, so the goroutine
	// never waits for a reader that gave up.
	filled := make(chan int, len(raw)/inflateChunk+2)
	inflated := false
	go func() {
		defer close(filled)
		src := bytes.NewReader(idat)
		zr, err := zlib.NewReader(src)
		if err != nil {
			return
		}
		for n, idle := 0, 0; n < len(raw); {
			k, err := zr.Read(raw[n:min(n+inflateChunk, len(raw))])
			n += k
			if k > 0 {
				filled <- n
				idle = 0
			} else if idle++; idle == 100 {
				return // io.ErrNoProgress in image/png
			}
			if err != nil && (err != io.EOF || n < len(raw)) {
				return
			}
		}
		var one [1]byte
		k, err := 0, error(nil)
		for i := 0; k == 0 && err == nil; i++ {
			if i == 100 {
				return // io.ErrNoProgress in image/png
			}
			k, err = zr.Read(one[:])
		}
		inflated = k == 0 && err == io.EOF && src.Len() == 0
	}()

	var out image.Image
	var pix []byte
	var outStride int
	r := image.Rect(0, 0, w, h)
	switch kind {
	case pngGray:
		m := image.NewGray(r)
		out, pix, outStride = m, m.Pix, m.Stride
	case pngRGB:
		m := image.NewRGBA(r)
		out, pix, outStride = m, m.Pix, m.Stride
	default:
		m := image.NewNRGBA(r)
		out, pix, outStride = m, m.Pix, m.Stride
	}
	have := 0
	prev := make([]byte, stride) // the row above, unfiltered (zeros above the first)
	for y := range h {
		for have < (y+1)*(1+stride) {
			n, open := <-filled
			if !open {
				return nil, false // the stream ended early or is corrupt
			}
			have = n
		}
		row := raw[y*(1+stride) : (y+1)*(1+stride)]
		cur := row[1:]
		if !unfilter(row[0], cur, prev, bpp) {
			drain(filled)
			return nil, false // image/png: "bad filter type"
		}
		if kind == pngRGB {
			dst := pix[y*outStride : y*outStride+w*4]
			for i, j := 0, 0; i < len(cur); i, j = i+3, j+4 {
				s, d := cur[i:i+3:i+3], dst[j:j+4:j+4]
				d[0], d[1], d[2], d[3] = s[0], s[1], s[2], 0xff
			}
		} else {
			copy(pix[y*outStride:], cur)
		}
		prev = cur
	}
	drain(filled)
	if !inflated {
		return nil, false
	}
	return out, true
}

// drain waits for the inflating goroutine to end.
func drain(filled <-chan int) {
	for range filled {
	}
}

// ownPNGLayout checks that data is a PNG as jigbench writes them and
// returns its size, colour type and pixel data (the IDAT chunks' data, in
// one slice). Every chunk's CRC is checked, and the size is bounded by
// MaxPixels; what follows IEND is not read (nor does image/png read it).
func ownPNGLayout(data []byte) (w, h int, kind byte, idat []byte, ok bool) {
	if len(data) < len(pngSignature) || string(data[:len(pngSignature)]) != pngSignature {
		return 0, 0, 0, nil, false
	}
	rest := data[len(pngSignature):]
	var parts [][]byte
	for i := 0; ; i++ {
		if len(rest) < 12 {
			return 0, 0, 0, nil, false
		}
		n := binary.BigEndian.Uint32(rest)
		if uint64(n) > uint64(len(rest)-12) {
			return 0, 0, 0, nil, false
		}
		name, body := string(rest[4:8]), rest[8:8+n]
		if crc32.ChecksumIEEE(rest[4:8+n]) != binary.BigEndian.Uint32(rest[8+n:]) {
			return 0, 0, 0, nil, false
		}
		rest = rest[12+n:]
		switch {
		case i == 0:
			if name != "IHDR" || n != 13 {
				return 0, 0, 0, nil, false
			}
			w, h = int(binary.BigEndian.Uint32(body)), int(binary.BigEndian.Uint32(body[4:]))
			kind = body[9]
			// Each side alone is bounded first: two sides near 2³² multiply
			// past int64 and wrap to a small product (image/png reads them
			// as int32 and refuses those before that).
			if w <= 0 || h <= 0 || w > MaxPixels || h > MaxPixels || int64(w)*int64(h) > MaxPixels || body[8] != 8 ||
				kind != pngGray && kind != pngRGB && kind != pngRGBA || body[10] != 0 || body[11] != 0 || body[12] != 0 {
				return 0, 0, 0, nil, false
			}
		case name == "IDAT" && (i == len(parts)+1):
			parts = append(parts, body) // the IDAT chunks follow IHDR together
		case name == "IEND" && n == 0 && len(parts) > 0:
			if len(parts) == 1 {
				return w, h, kind, parts[0], true
			}
			return w, h, kind, bytes.Join(parts, nil), true
		default:
			return 0, 0, 0, nil, false
		}
	}
}

// unfilter undoes filter (PNG spec §9.2) on cur, given the row above prev
// (unfiltered; zeros above the first row) and bpp bytes per pixel, as
// image/png does; false for a filter type that does not exist.
func unfilter(filter byte, cur, prev []byte, bpp int) bool {
	switch filter {
	case filterNone:
	case filterSub:
		for i := bpp; i < len(cur); i++ {
			cur[i] += cur[i-bpp]
		}
	case filterUp:
		for i, p := range prev {
			cur[i] += p
		}
	case filterAverage:
		for i := range bpp {
			cur[i] += prev[i] / 2
		}
		for i := bpp; i < len(cur); i++ {
			cur[i] += uint8((int(cur[i-bpp]) + int(prev[i])) / 2)
		}
	case filterPaeth:
		// One channel at a time, its left and upper-left samples carried
		// in registers (a, c: 0 left of the first pixel): a 1478-px RGB row
		// in 7.6 µs against 9.9 calling the writer's paeth per byte (the
		// same bytes; a scratch benchmark).
		for ch := range bpp {
			a, c := 0, 0
			for i := ch; i < len(cur); i += bpp {
				b := int(prev[i])
				pa, pb := b-c, a-c // |p − a|, |p − b| with p = a + b − c
				pc := pa + pb      // p − c
				pa, pb, pc = max(pa, -pa), max(pb, -pb), max(pc, -pc)
				switch {
				case pa <= pb && pa <= pc:
				case pb <= pc:
					a = b
				default:
					a = c
				}
				a = (a + int(cur[i])) & 0xff
				cur[i] = byte(a)
				c = b
			}
		}
	default:
		return false
	}
	return true
}
