package render

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"fmt"
	"hash/crc32"
	"image"
	"image/color"
	"image/png"
	"io"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

// sameAsImagePNG fails unless decodeOwnPNG reads data as image/png does
// (type, bounds and pixels) or leaves it to image/png; it reports whether
// decodeOwnPNG read it.
func sameAsImagePNG(t *testing.T, data []byte) bool {
	t.Helper()
	got, ok := decodeOwnPNG(data)
	if !ok {
		return false
	}
	want, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("read a file image/png refuses (%v)", err)
	}
	if !reflect.DeepEqual(got, want) {
		t.Fatalf("read %T %v, image/png %T %v, or other pixels", got, got.Bounds(), want, want.Bounds())
	}
	return true
}

// TestDecodeOwnPNG: the files jigbench writes — gray, RGB and RGBA, of
// random pixels (every filter the writer picks) and an instance's sheets —
// and image/png's own (five filters, IDAT chunks of 32 KB) read as
// image/png reads them.
func TestDecodeOwnPNG(t *testing.T) {
	var files [][]byte
	for kind := range 5 { // all but the paletted, which jigbench writes as image/png does
		for _, size := range []image.Point{{1, 1}, {1, 9}, {9, 1}, {37, 23}, {300, 200}} {
			img := randomImage(kind, size.X, size.Y, uint64(kind*1000+size.X))
			data, err := EncodePNG(img)
			if err != nil {
				t.Fatal(err)
			}
			var std bytes.Buffer
			if err := png.Encode(&std, img); err != nil {
				t.Fatal(err)
			}
			files = append(files, data, std.Bytes())
		}
	}
	scene, err := demo.Image("harbor-town")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Generate(SourceFromImage("harbor-town", scene), 16, 1, puzzle.DefaultOptions())
	if err != nil {
		t.Fatal(err)
	}
	for _, img := range []*image.RGBA{g.Shape, g.Rect, g.Solved} {
		data, err := EncodePNG(img)
		if err != nil {
			t.Fatal(err)
		}
		files = append(files, data)
	}
	for i, data := range files {
		if !sameAsImagePNG(t, data) {
			t.Fatalf("file %d: left to image/png", i)
		}
	}
	// The decoded sheet is the image written, so DecodeSource gives it back.
	data, _ := EncodePNG(g.Rect)
	s, err := DecodeSource("rect.png", "rect", data)
	if err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(s.RGBA(), g.Rect) {
		t.Fatal("the rect sheet read back differs from the one written")
	}
}

// TestDecodeOwnPNGLeaves: what is not a PNG as jigbench writes it, or is
// damaged, is left to image/png: a palette, 16-bit samples, a chunk it does
// not write, sides too large (2³² − 1 squared overflows int64: a fuzzing
// find, the rows' length wrapped negative), a file cut short, a byte
// flipped in three places of the IDAT chunk (its CRC left), a filter type
// that does not exist, and rows a byte short or long (the CRCs right).
func TestDecodeOwnPNGLeaves(t *testing.T) {
	rgb, _ := EncodePNG(randomImage(0, 40, 30, 7))
	var pal, deep bytes.Buffer
	png.Encode(&pal, image.NewPaletted(image.Rect(0, 0, 8, 8), color.Palette{color.Black, color.White}))
	png.Encode(&deep, image.NewRGBA64(image.Rect(0, 0, 8, 8)))
	cases := map[string][]byte{
		"palette":   pal.Bytes(),
		"16-bit":    deep.Bytes(),
		"truncated": rgb[:len(rgb)-20],
		"empty":     nil,
		"gAMA":      withChunk(rgb, "gAMA", []byte{0, 0, 0xb1, 0x8f}),
	}
	idat := bytes.Index(rgb, []byte("IDAT"))
	for _, at := range []int{idat + 4, idat + 10, len(rgb) - 20} {
		bad := bytes.Clone(rgb)
		bad[at] ^= 0x40
		cases[fmt.Sprintf("CRC, byte %d", at)] = bad
	}
	// Sides too large: 2³¹ (their product too) and 2³² − 1, whose product
	// wraps past int64 to a negative number.
	for _, side := range []uint32{1 << 31, 1<<32 - 1} {
		cases[fmt.Sprintf("%d×%d", side, side)] = withSize(rgb, side, side)
	}
	raw := rawRows(t, rgb)
	cases["rows short"] = withIDAT(rgb, raw[:len(raw)-1])
	cases["rows long"] = withIDAT(rgb, append(bytes.Clone(raw), 0))
	raw[0] = 7
	cases["filter 7"] = withIDAT(rgb, raw)
	if !sameAsImagePNG(t, withIDAT(rgb, rawRows(t, rgb))) {
		t.Fatal("the file rebuilt from its own rows is left to image/png: the cases above test nothing")
	}
	for name, data := range cases {
		if sameAsImagePNG(t, data) {
			t.Errorf("%s: read, not left to image/png", name)
		}
	}
}

// rawRows returns the inflated rows (filter bytes and samples) of a PNG
// with one IDAT chunk.
func rawRows(t *testing.T, data []byte) []byte {
	t.Helper()
	_, _, _, idat, ok := ownPNGLayout(data)
	if !ok {
		t.Fatal("not a PNG as jigbench writes them")
	}
	zr, err := zlib.NewReader(bytes.NewReader(idat))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := io.ReadAll(zr)
	if err != nil {
		t.Fatal(err)
	}
	return rows
}

// withIDAT returns data with its pixel data replaced by rows deflated.
func withIDAT(data, rows []byte) []byte {
	var z bytes.Buffer
	zw := zlib.NewWriter(&z)
	zw.Write(rows)
	zw.Close()
	i := bytes.Index(data, []byte("IDAT")) - 4
	n := binary.BigEndian.Uint32(data[i:])
	out := append(bytes.Clone(data[:i]), chunk("IDAT", z.Bytes())...)
	return append(out, data[i+12+int(n):]...)
}

// withSize returns data with the size in its header replaced (its CRC
// right).
func withSize(data []byte, w, h uint32) []byte {
	out := bytes.Clone(data)
	at := len(pngSignature) + 8 // IHDR's body
	binary.BigEndian.PutUint32(out[at:], w)
	binary.BigEndian.PutUint32(out[at+4:], h)
	return withCRCs(out)
}

// withChunk returns data with a chunk inserted after IHDR.
func withChunk(data []byte, name string, body []byte) []byte {
	at := len(pngSignature) + 12 + 13
	out := append(bytes.Clone(data[:at]), chunk(name, body)...)
	return append(out, data[at:]...)
}

// chunk is a PNG chunk: length, name, body, CRC.
func chunk(name string, body []byte) []byte {
	out := binary.BigEndian.AppendUint32(nil, uint32(len(body)))
	out = append(append(out, name...), body...)
	return binary.BigEndian.AppendUint32(out, crc32.ChecksumIEEE(out[4:]))
}

func FuzzDecodeOwnPNG(f *testing.F) {
	for _, name := range []string{"small.png", "heatmap-aa-4x4.png"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(data)
	}
	rng := rand.New(rand.NewPCG(1, 2))
	for kind := range 6 {
		data, _ := EncodePNG(randomImage(kind, 1+rng.IntN(20), 1+rng.IntN(20), uint64(kind)))
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		sameAsImagePNG(t, data)
		sameAsImagePNG(t, withCRCs(data)) // so that mutations inside chunks are read
	})
}

// FuzzDecodeOwnPNGRows: PNGs built from a header and rows of any bytes
// (filter types, lengths and samples), deflated and with every CRC right.
func FuzzDecodeOwnPNGRows(f *testing.F) {
	f.Add(uint8(2), uint8(3), uint8(2), []byte{4, 1, 2, 3, 4, 5, 6, 7, 8, 9, 1, 9, 8, 7, 6, 5, 4, 3, 2, 1})
	f.Add(uint8(0), uint8(2), uint8(3), []byte{0, 9, 9, 1, 3, 4, 2, 5, 6})
	f.Add(uint8(6), uint8(1), uint8(2), []byte{3, 1, 2, 3, 4, 4, 5, 6, 7, 8})
	f.Fuzz(func(t *testing.T, kind, w, h uint8, rows []byte) {
		var ihdr [13]byte
		binary.BigEndian.PutUint32(ihdr[0:], uint32(w))
		binary.BigEndian.PutUint32(ihdr[4:], uint32(h))
		ihdr[8], ihdr[9] = 8, kind
		data := append([]byte(pngSignature), chunk("IHDR", ihdr[:])...)
		var z bytes.Buffer
		zw := zlib.NewWriter(&z)
		zw.Write(rows)
		zw.Close()
		data = append(data, chunk("IDAT", z.Bytes())...)
		sameAsImagePNG(t, append(data, chunk("IEND", nil)...))
	})
}

// withCRCs returns data with the CRC of each whole chunk set right.
func withCRCs(data []byte) []byte {
	out := bytes.Clone(data)
	for at := len(pngSignature); at+12 <= len(out); {
		n := int(binary.BigEndian.Uint32(out[at:]))
		if n > len(out)-at-12 {
			break
		}
		binary.BigEndian.PutUint32(out[at+8+n:], crc32.ChecksumIEEE(out[at+4:at+8+n]))
		at += 12 + n
	}
	return out
}
