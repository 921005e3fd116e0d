package render

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"image"
	"image/color"
	"image/png"
	"math/rand/v2"
	"os"
	"runtime"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render/demo"
)

// randomImage draws a w×h image of the given kind (0 opaque RGBA, 1
// translucent RGBA, 2 opaque NRGBA, 3 translucent NRGBA, 4 Gray, 5
// Paletted) from seed: flat patches, gradients and noise, so every row
// filter gets chosen somewhere.
func randomImage(kind, w, h int, seed uint64) image.Image {
	rng := rand.New(rand.NewPCG(seed, 20))
	r := image.Rect(3, -2, 3+w, -2+h) // a non-zero origin on purpose
	px := func(x, y int) color.NRGBA {
		var c color.NRGBA
		switch (x/7 + y/5 + int(seed)) % 3 {
		case 0: // flat
			c = color.NRGBA{200, 120, 40, 255}
		case 1: // gradient
			c = color.NRGBA{uint8(x * 3), uint8(y * 5), uint8(x + y), 255}
		default: // noise
			c = color.NRGBA{uint8(rng.Uint32()), uint8(rng.Uint32()), uint8(rng.Uint32()), 255}
		}
		if kind == 1 || kind == 3 {
			c.A = uint8(rng.Uint32())
		}
		return c
	}
	var m interface {
		image.Image
		Set(x, y int, c color.Color)
	}
	switch kind {
	case 0, 1:
		m = image.NewRGBA(r)
	case 2, 3:
		m = image.NewNRGBA(r)
	case 4:
		m = image.NewGray(r)
	default:
		m = image.NewPaletted(r, color.Palette{color.Black, color.White, color.NRGBA{255, 0, 0, 128}, color.Gray{99}})
	}
	for y := r.Min.Y; y < r.Max.Y; y++ {
		for x := r.Min.X; x < r.Max.X; x++ {
			m.Set(x, y, px(x, y))
		}
	}
	return m
}

// checkRoundTrip: image/png decodes EncodePNG's file to exactly the pixels
// it decodes from the standard encoder's file of img (for opaque and gray
// images, exactly img's own pixels).
func checkRoundTrip(t *testing.T, img image.Image) {
	t.Helper()
	data, err := EncodePNG(img)
	if err != nil {
		t.Fatal(err)
	}
	got, err := png.Decode(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("image/png cannot read the file: %v", err)
	}
	var std bytes.Buffer
	if err := png.Encode(&std, img); err != nil {
		t.Fatal(err)
	}
	want, err := png.Decode(&std)
	if err != nil {
		t.Fatal(err)
	}
	r := img.Bounds()
	if got.Bounds().Size() != r.Size() {
		t.Fatalf("size %v, want %v", got.Bounds().Size(), r.Size())
	}
	g0, w0 := got.Bounds().Min, want.Bounds().Min
	for y := range r.Dy() {
		for x := range r.Dx() {
			g := color.NRGBA64Model.Convert(got.At(g0.X+x, g0.Y+y))
			w := color.NRGBA64Model.Convert(want.At(w0.X+x, w0.Y+y))
			if g != w {
				t.Fatalf("%T %v: pixel (%d,%d) decodes as %v, want %v", img, r.Size(), x, y, g, w)
			}
			if o, ok := img.(interface{ Opaque() bool }); ok && o.Opaque() {
				if src := color.NRGBA64Model.Convert(img.At(r.Min.X+x, r.Min.Y+y)); g != src {
					t.Fatalf("%T: pixel (%d,%d) decodes as %v, was %v", img, x, y, g, src)
				}
			}
		}
	}
}

func TestEncodePNGRoundTrip(t *testing.T) {
	for kind := range 6 {
		for _, size := range []image.Point{{1, 1}, {1, 9}, {9, 1}, {2, 3}, {37, 23}, {300, 40}} {
			checkRoundTrip(t, randomImage(kind, size.X, size.Y, uint64(kind*1000+size.X)))
		}
	}
	// A sub-image: rows do not start at Pix[0] and the stride is wider.
	big := randomImage(0, 60, 50, 3).(*image.RGBA)
	checkRoundTrip(t, big.SubImage(image.Rect(10, 5, 41, 30)))
}

func FuzzEncodePNG(f *testing.F) {
	f.Add(uint8(0), uint8(17), uint8(9), uint64(1))
	f.Add(uint8(1), uint8(1), uint8(1), uint64(2))
	f.Add(uint8(4), uint8(64), uint8(3), uint64(3))
	f.Fuzz(func(t *testing.T, kind, w, h uint8, seed uint64) {
		checkRoundTrip(t, randomImage(int(kind%6), int(w%80)+1, int(h%80)+1, seed))
	})
}

// TestEncodePNGNoLarger: on instance sheets and solved images the files
// are no larger than image/png's at BestSpeed (the encoder it replaces).
func TestEncodePNGNoLarger(t *testing.T) {
	var srcs []*Source
	for _, name := range []string{"harbor-town", "misty-pines"} {
		img, err := demo.Image(name)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, SourceFromImage(name, img))
	}
	// Photographs from mate-backgrounds (.ci/deps test), and a smooth
	// synthetic gradient, where klauspost's fast levels alone lose.
	for _, f := range []string{"nature/Garden.jpg", "nature/Dune.jpg", "abstract/Flow.png", "abstract/Elephants.jpg"} {
		data, err := os.ReadFile("/usr/share/backgrounds/mate/" + f)
		if err != nil {
			t.Logf("%s: %v (skipped)", f, err)
			continue
		}
		s, err := DecodeSource(f, f, data)
		if err != nil {
			t.Fatal(err)
		}
		srcs = append(srcs, s)
	}
	enc := png.Encoder{CompressionLevel: png.BestSpeed}
	for _, s := range srcs {
		g, err := Generate(s, 8, 1, puzzle.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		for name, img := range map[string]*image.RGBA{FileShape: g.Shape, FileRect: g.Rect, FileSolved: g.Solved} {
			data, err := EncodePNG(img)
			if err != nil {
				t.Fatal(err)
			}
			var std bytes.Buffer
			if err := enc.Encode(&std, img); err != nil {
				t.Fatal(err)
			}
			if len(data) > std.Len() {
				t.Errorf("%s %s: %d bytes, image/png BestSpeed %d", s.Name, name, len(data), std.Len())
			}
			t.Logf("%s %s: %d bytes, %.3f of image/png BestSpeed", s.Name, name, len(data), float64(len(data))/float64(std.Len()))
		}
	}
}

// TestInstanceFilesDeterministic: an instance's files are the same bytes
// on every run, with one processor or more, encoded one by one or at once.
func TestInstanceFilesDeterministic(t *testing.T) {
	img, err := demo.Image("coral-reef")
	if err != nil {
		t.Fatal(err)
	}
	files := func(procs int) map[string][]byte {
		defer runtime.GOMAXPROCS(runtime.GOMAXPROCS(procs))
		g, err := Generate(SourceFromImage("coral-reef", img), 8, 5, puzzle.DefaultOptions())
		if err != nil {
			t.Fatal(err)
		}
		f, err := g.files(procs > 1)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	a, b, c := files(1), files(2), files(3)
	for name := range a {
		if !bytes.Equal(a[name], b[name]) || !bytes.Equal(b[name], c[name]) {
			t.Errorf("%s differs between runs", name)
		}
	}
}

// goldenSheetDigests pin the PNG bytes of testdata/small.png's 3×3 seed-7
// instance (TestGoldenInstance's), so a change of encoder shows up here.
// They changed once, when EncodePNG replaced image/png (README, Files).
var goldenSheetDigests = map[string]string{
	FileShape:  "aee7294ce4afe2da1770717b910771befe37d556438a2ad7f98dca098eaa0faa",
	FileRect:   "7c5df6adee7cb4e2836eecd0eaafde040454e335d9e6f4b6555dbf477bfb6e0d",
	FileSolved: "ca27d08ae0228f4a3e22601244bfb20069673f5cd0a103e3bfa4797797050f45",
}

func TestGoldenSheetBytes(t *testing.T) {
	src, err := LoadSource("testdata/small.png")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Generate(src, 3, 7, puzzle.Options{Size: 96, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	files, err := g.Files()
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{FileShape, FileRect, FileSolved} {
		sum := sha256.Sum256(files[name])
		if got := hex.EncodeToString(sum[:]); got != goldenSheetDigests[name] {
			t.Errorf("%s: sha256 %s, golden %s", name, got, goldenSheetDigests[name])
		}
	}
}

// TestFilterImageRepeatedRows: filterImage's shortcut for a row equal to
// the one above gives the bytes filterRow gives, on images with flat,
// repeated and noisy rows (a uniform repeated row too, where Sub costs
// nothing), at the sampling steps used.
func TestFilterImageRepeatedRows(t *testing.T) {
	for seed := range uint64(12) {
		img := randomImage(0, 5+int(seed)*13, 9+int(seed)*3, seed).(*image.RGBA)
		r := img.Rect
		for y := 2; y < r.Dy(); y += 3 {
			copy(img.Pix[y*img.Stride:(y+1)*img.Stride], img.Pix[(y-1)*img.Stride:y*img.Stride])
		}
		if seed%4 == 0 {
			for x := range r.Dx() {
				copy(img.Pix[4*x:4*x+4], []byte{9, 9, 9, 255})
				copy(img.Pix[img.Stride+4*x:img.Stride+4*x+4], []byte{9, 9, 9, 255})
			}
		}
		w, h := r.Dx(), r.Dy()
		fill := rgbRows(img.Pix, 0, img.Stride)
		for _, step := range []int{1, filterStep} {
			want := make([]byte, 0, (3*w+1)*h)
			cur, prev := make([]byte, 3*w), make([]byte, 3*w)
			for y := range h {
				fill(cur, y)
				out := make([]byte, 3*w)
				f := filterRow(out, cur, prev, 3, step, y == 0)
				want = append(append(want, f), out...)
				prev, cur = cur, prev
			}
			if got := filterImage(nil, fill, 3*w, h, 3, step); !bytes.Equal(got, want) {
				t.Fatalf("seed %d step %d: filterImage differs from filterRow row by row", seed, step)
			}
		}
	}
}
