package render

import (
	"bytes"
	"encoding/binary"
	"hash/crc32"
	"image"
	"image/color"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/jigbench/jigbench/core/puzzle"
)

// testImage is a deterministic busy picture, w×h, so that pieces differ.
func testImage(w, h int) *image.RGBA {
	img := image.NewRGBA(image.Rect(0, 0, w, h))
	for y := 0; y < h; y++ {
		for x := 0; x < w; x++ {
			i := img.PixOffset(x, y)
			img.Pix[i] = uint8(x * 255 / max(1, w-1))
			img.Pix[i+1] = uint8(y * 255 / max(1, h-1))
			img.Pix[i+2] = uint8((x*7 + y*13) % 256)
			img.Pix[i+3] = 255
		}
	}
	return img
}

func testSource(w, h int) *Source { return SourceFromImage("test", testImage(w, h)) }

// TestPiecesTileTheImage checks that the piece masks partition the solved
// image — every pixel in exactly one piece — and, for semicircle tabs, that
// each piece's area is its cell's plus (tabs − blanks) × one tab's area.
func TestPiecesTileTheImage(t *testing.T) {
	cases := []struct {
		n     int
		w, h  int
		style string
		ratio float64
		seeds []uint64
	}{
		{2, 200, 120, puzzle.StyleSemicircle, 0.2, []uint64{1, 2}},
		{3, 300, 300, puzzle.StyleSemicircle, 0.33, []uint64{1, 2, 3}},
		{4, 1024, 640, puzzle.StyleSemicircle, 0.2, []uint64{42}},
		{7, 7 * 31, 7 * 17, puzzle.StyleSemicircle, 0.25, []uint64{5}}, // odd cell sides
		{8, 1024, 640, puzzle.StyleSemicircle, 0.33, []uint64{9}},
		{16, 1024, 640, puzzle.StyleSemicircle, 0.2, []uint64{1}},
		{32, 1024, 1024, puzzle.StyleSemicircle, 0.2, []uint64{3}},
		{4, 1024, 640, puzzle.StyleClassic, 0.2, []uint64{1, 2, 3}},
		{8, 800, 800, puzzle.StyleClassic, 0.25, []uint64{4, 5, 6, 7}},
		{16, 1024, 640, puzzle.StyleClassic, 0.25, []uint64{8}},
	}
	for _, tc := range cases {
		for _, seed := range tc.seeds {
			opt := puzzle.Options{Size: 1024, TabStyle: tc.style, TabRatio: tc.ratio}
			p, err := puzzle.New(tc.n, seed, [32]byte{byte(seed)}, tc.w, tc.h, opt)
			if err != nil {
				t.Fatal(err)
			}
			cover := make([]int, tc.w*tc.h)
			area := make([]int, tc.n*tc.n)
			for id, c := range p.CellOf {
				m := PieceMask(p, c, true)
				for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
					for x := m.Rect.Min.X; x < m.Rect.Max.X; x++ {
						if m.Pix[m.PixOffset(x, y)] == 0 {
							continue
						}
						if x < 0 || y < 0 || x >= tc.w || y >= tc.h {
							t.Fatalf("%s n=%d seed=%d: piece %d covers (%d,%d) outside the image", tc.style, tc.n, seed, id, x, y)
						}
						cover[y*tc.w+x]++
						area[id]++
					}
				}
			}
			for i, k := range cover {
				if k != 1 {
					t.Fatalf("%s n=%d seed=%d: pixel (%d,%d) belongs to %d pieces", tc.style, tc.n, seed, i%tc.w, i/tc.w, k)
				}
			}
			if tc.style != puzzle.StyleSemicircle {
				continue
			}
			tabArea := halfDiskArea(p.TabRadius)
			for id, c := range p.CellOf {
				tabs, blanks := 0, 0
				for _, s := range p.Sides(c) {
					switch s {
					case puzzle.Tab:
						tabs++
					case puzzle.Blank:
						blanks++
					}
				}
				want := p.PieceW*p.PieceH + (tabs-blanks)*tabArea
				if area[id] != want {
					t.Errorf("n=%d seed=%d piece %d: area %d, want cell %d + (%d−%d)×%d = %d",
						tc.n, seed, id, area[id], p.PieceW*p.PieceH, tabs, blanks, tabArea, want)
				}
			}
		}
	}
}

// halfDiskArea counts, independently of the lobe code, the pixel centres of
// a half-disk of radius r centred on a pixel corner.
func halfDiskArea(r int) int {
	n := 0
	for y := 0; y < r; y++ {
		for x := -r; x < r; x++ {
			fx, fy := float64(x)+0.5, float64(y)+0.5
			if fx*fx+fy*fy < float64(r*r) {
				n++
			}
		}
	}
	return n
}

// TestRectSheetDiffersOnlyInTheCut renders both sheets without outlines: they
// may differ only where the tab-and-blank mask and the bare cell differ.
func TestRectSheetDiffersOnlyInTheCut(t *testing.T) {
	for _, style := range []string{puzzle.StyleSemicircle, puzzle.StyleClassic} {
		opt := puzzle.Options{Size: 1024, TabStyle: style, TabRatio: 0.2}
		p, err := puzzle.New(5, 11, [32]byte{7}, 500, 350, opt)
		if err != nil {
			t.Fatal(err)
		}
		solved := testImage(500, 350)
		o := SheetOptions{Labels: true}
		shape, rect := Sheet(p, solved, true, o), Sheet(p, solved, false, o)
		if shape.Rect != rect.Rect {
			t.Fatalf("%s: sheet sizes differ: %v vs %v", style, shape.Rect, rect.Rect)
		}
		// Where may they differ? Mark every sheet pixel on which the masks disagree.
		mayDiffer := make([]bool, len(shape.Pix)/4)
		for id, c := range p.CellOf {
			ms, mr := PieceMask(p, c, true), PieceMask(p, c, false)
			cx, cy := p.Layout.CellOrigin(id, p.N)
			off := image.Pt(cx-c.Col*p.PieceW, cy-c.Row*p.PieceH)
			b := ms.Rect.Union(mr.Rect)
			for y := b.Min.Y; y < b.Max.Y; y++ {
				for x := b.Min.X; x < b.Max.X; x++ {
					if ms.AlphaAt(x, y).A != mr.AlphaAt(x, y).A {
						mayDiffer[(y+off.Y)*shape.Rect.Dx()+x+off.X] = true
					}
				}
			}
		}
		diff := 0
		for i := range mayDiffer {
			if !bytes.Equal(shape.Pix[4*i:4*i+4], rect.Pix[4*i:4*i+4]) {
				if !mayDiffer[i] {
					t.Fatalf("%s: sheets differ at (%d,%d), outside the cut", style, i%shape.Rect.Dx(), i/shape.Rect.Dx())
				}
				diff++
			}
		}
		if diff == 0 {
			t.Fatalf("%s: shape and rect sheets are identical", style)
		}
	}
}

func TestGenerateIsDeterministic(t *testing.T) {
	src := testSource(640, 400)
	opt := puzzle.DefaultOptions()
	files := func() map[string][]byte {
		g, err := Generate(src, 8, 42, opt)
		if err != nil {
			t.Fatal(err)
		}
		f, err := g.Files()
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	prev := runtime.GOMAXPROCS(1)
	a := files()
	runtime.GOMAXPROCS(max(2, prev))
	b := files()
	runtime.GOMAXPROCS(prev)
	for name, data := range a {
		if !bytes.Equal(data, b[name]) {
			t.Errorf("%s differs between runs", name)
		}
	}
	g2, err := Generate(src, 8, 43, opt)
	if err != nil {
		t.Fatal(err)
	}
	f2, err := g2.Files()
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Equal(f2[FileShape], a[FileShape]) {
		t.Error("seeds 42 and 43 gave the same sheet")
	}
}

// TestGoldenInstance compares instance.json of a small grid with a file
// checked by hand (see testdata/golden-instance.md for the checks).
func TestGoldenInstance(t *testing.T) {
	src, err := LoadSource("testdata/small.png")
	if err != nil {
		t.Fatal(err)
	}
	g, err := Generate(src, 3, 7, puzzle.Options{Size: 96, TabStyle: puzzle.StyleSemicircle, TabRatio: 0.2})
	if err != nil {
		t.Fatal(err)
	}
	got, err := g.Instance.MarshalIndent()
	if err != nil {
		t.Fatal(err)
	}
	golden := filepath.Join("testdata", "small-g3-s7.instance.json")
	if os.Getenv("JIGBENCH_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(golden, got, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(golden)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("instance.json differs from %s:\n%s", golden, got)
	}
}

func TestDecodeFormats(t *testing.T) {
	for _, f := range []string{"small.png", "baseline.jpg", "progressive.jpg", "small.gif", "small.webp"} {
		s, err := LoadSource(filepath.Join("testdata", f))
		if err != nil {
			t.Errorf("%s: %v", f, err)
			continue
		}
		if s.Width != 120 || s.Height != 75 {
			t.Errorf("%s: %d×%d, want 120×75", f, s.Width, s.Height)
		}
		if s.Name != strings.TrimSuffix(f, filepath.Ext(f)) {
			t.Errorf("%s: name %q", f, s.Name)
		}
	}
}

// withOrientation inserts an EXIF APP1 segment with the given orientation
// right after the JPEG's SOI marker.
func withOrientation(jpeg []byte, o uint16, bigEndian bool) []byte {
	var tiff bytes.Buffer
	var bo binary.ByteOrder = binary.LittleEndian
	tiff.WriteString("II")
	if bigEndian {
		bo = binary.BigEndian
		tiff.Reset()
		tiff.WriteString("MM")
	}
	w := func(v any) { binary.Write(&tiff, bo, v) }
	w(uint16(42))
	w(uint32(8))
	w(uint16(1))      // one IFD entry
	w(uint16(0x0112)) // Orientation
	w(uint16(3))      // SHORT
	w(uint32(1))
	w(o)
	w(uint16(0))
	w(uint32(0)) // no next IFD
	seg := append([]byte("Exif\x00\x00"), tiff.Bytes()...)
	out := append([]byte{}, jpeg[:2]...)
	out = append(out, 0xFF, 0xE1, byte((len(seg)+2)>>8), byte(len(seg)+2))
	out = append(out, seg...)
	return append(out, jpeg[2:]...)
}

func TestEXIFOrientation(t *testing.T) {
	data, err := os.ReadFile("testdata/baseline.jpg")
	if err != nil {
		t.Fatal(err)
	}
	plain, err := DecodeSource("plain.jpg", "plain", data)
	if err != nil {
		t.Fatal(err)
	}
	base, err := Prepare(plain, 120, 1)
	if err != nil {
		t.Fatal(err)
	}
	for o := uint16(1); o <= 8; o++ {
		for _, be := range []bool{false, true} {
			s, err := DecodeSource("o.jpg", "o", withOrientation(data, o, be))
			if err != nil {
				t.Fatal(err)
			}
			if s.orientation != int(o) {
				t.Fatalf("orientation %d read as %d", o, s.orientation)
			}
			wantW, wantH := 120, 75
			if o >= 5 {
				wantW, wantH = 75, 120
			}
			if s.Width != wantW || s.Height != wantH {
				t.Fatalf("orientation %d: %d×%d, want %d×%d", o, s.Width, s.Height, wantW, wantH)
			}
			got, err := Prepare(s, 120, 1)
			if err != nil {
				t.Fatal(err)
			}
			// Where does stored pixel (x, y) show up? Check the corners of the stored image.
			w, h := 120, 75
			corners := [][2]int{{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}}
			want := map[uint16][4][2]int{ // displayed position of each stored corner
				1: {{0, 0}, {w - 1, 0}, {0, h - 1}, {w - 1, h - 1}},
				2: {{w - 1, 0}, {0, 0}, {w - 1, h - 1}, {0, h - 1}},
				3: {{w - 1, h - 1}, {0, h - 1}, {w - 1, 0}, {0, 0}},
				4: {{0, h - 1}, {w - 1, h - 1}, {0, 0}, {w - 1, 0}},
				5: {{0, 0}, {0, w - 1}, {h - 1, 0}, {h - 1, w - 1}},
				6: {{h - 1, 0}, {h - 1, w - 1}, {0, 0}, {0, w - 1}},
				7: {{h - 1, w - 1}, {h - 1, 0}, {0, w - 1}, {0, 0}},
				8: {{0, w - 1}, {0, 0}, {h - 1, w - 1}, {h - 1, 0}},
			}[o]
			for i, c := range corners {
				if base.Image.RGBAAt(c[0], c[1]) != got.Image.RGBAAt(want[i][0], want[i][1]) {
					t.Errorf("orientation %d: stored corner %v is not at %v", o, c, want[i])
				}
			}
		}
	}
}

// pngHeader is a valid PNG signature and IHDR chunk declaring w×h, then a
// truncated stream.
func pngHeader(w, h uint32) []byte {
	var b bytes.Buffer
	b.WriteString("\x89PNG\r\n\x1a\n")
	ihdr := make([]byte, 13)
	binary.BigEndian.PutUint32(ihdr[0:], w)
	binary.BigEndian.PutUint32(ihdr[4:], h)
	ihdr[8], ihdr[9] = 8, 2 // 8-bit RGB
	binary.Write(&b, binary.BigEndian, uint32(13))
	chunk := append([]byte("IHDR"), ihdr...)
	b.Write(chunk)
	binary.Write(&b, binary.BigEndian, crc32.ChecksumIEEE(chunk))
	return b.Bytes()
}

func TestDecodeRefusesBadInput(t *testing.T) {
	valid, err := os.ReadFile("testdata/small.png")
	if err != nil {
		t.Fatal(err)
	}
	cases := map[string]struct {
		data []byte
		want string
	}{
		"text":      {[]byte("hello, this is not an image"), "not a PNG, JPEG, GIF or WebP image"},
		"empty":     {nil, "not a PNG, JPEG, GIF or WebP image"},
		"truncated": {valid[:len(valid)/2], "corrupt or truncated png image"},
		"bomb":      {pngHeader(20000, 10000), "200 megapixels"},
		"just over": {pngHeader(10001, 10000), "(100.01 megapixels)"},
		"zero":      {pngHeader(0, 10), "corrupt or truncated image header"},
	}
	for name, tc := range cases {
		_, err := DecodeSource(name+".png", name, tc.data)
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.HasPrefix(err.Error(), name+".png: ") {
			t.Errorf("%s: error %v, want it to name the file and say %q", name, err, tc.want)
		}
	}
	if _, err := LoadSource(filepath.Join(t.TempDir(), "missing.png")); err == nil || !strings.Contains(err.Error(), "missing.png") {
		t.Errorf("missing file: %v", err)
	}
}

func TestPrepareScalesAndCrops(t *testing.T) {
	cases := []struct {
		w, h, size, n int
		ww, wh        int
		note          bool
	}{
		{2560, 1600, 1024, 8, 1024, 640, false},
		{1600, 2560, 1024, 8, 640, 1024, false},
		{2000, 1000, 1024, 12, 1020, 504, false}, // 1024×512 cropped to multiples of 12
		{500, 300, 1024, 4, 500, 300, true},      // not enlarged
		{1024, 1024, 1024, 16, 1024, 1024, false},
	}
	for _, tc := range cases {
		src := testSource(tc.w, tc.h)
		p, err := Prepare(src, tc.size, tc.n)
		if err != nil {
			t.Fatal(err)
		}
		if b := p.Image.Rect; b.Dx() != tc.ww || b.Dy() != tc.wh {
			t.Errorf("%d×%d size %d grid %d → %v, want %d×%d", tc.w, tc.h, tc.size, tc.n, b, tc.ww, tc.wh)
		}
		if (p.Note != "") != tc.note {
			t.Errorf("%d×%d: note %q", tc.w, tc.h, p.Note)
		}
	}
}

// TestBoxResizeAverages checks the filter on cases worked by hand.
func TestBoxResizeAverages(t *testing.T) {
	// 4×1 → 2×1: plain pair averages.
	src := image.NewRGBA(image.Rect(0, 0, 4, 1))
	for x, v := range []uint8{0, 100, 200, 255} {
		src.SetRGBA(x, 0, color.RGBA{v, v, v, 255})
	}
	got := boxResize(src, 2, 1)
	if a, b := got.RGBAAt(0, 0).R, got.RGBAAt(1, 0).R; a != 50 || b != 228 { // 227.5 rounds up
		t.Errorf("4→2: %d %d, want 50 228", a, b)
	}
	// 3×1 → 2×1: output 0 covers pixel 0 and half of pixel 1.
	src = image.NewRGBA(image.Rect(0, 0, 3, 1))
	for x, v := range []uint8{0, 90, 180} {
		src.SetRGBA(x, 0, color.RGBA{v, v, v, 255})
	}
	got = boxResize(src, 2, 1)
	if a, b := got.RGBAAt(0, 0).R, got.RGBAAt(1, 0).R; a != 30 || b != 150 {
		t.Errorf("3→2: %d %d, want 30 150", a, b)
	}
	// A uniform image stays uniform at any ratio.
	u := image.NewRGBA(image.Rect(0, 0, 97, 61))
	for i := range u.Pix {
		u.Pix[i] = 173
	}
	for _, v := range boxResize(u, 31, 17).Pix {
		if v != 173 {
			t.Fatalf("uniform image changed to %d", v)
		}
	}
}

func FuzzJPEGOrientation(f *testing.F) {
	data, _ := os.ReadFile("testdata/baseline.jpg")
	f.Add(withOrientation(data, 6, false))
	f.Add(withOrientation(data, 3, true))
	f.Add([]byte{0xFF, 0xD8, 0xFF, 0xE1, 0x00, 0x02})
	f.Fuzz(func(t *testing.T, b []byte) {
		if o := jpegOrientation(b); o < 1 || o > 8 {
			t.Fatalf("orientation %d", o)
		}
	})
}

func FuzzDecodeSource(f *testing.F) {
	for _, name := range []string{"small.png", "progressive.jpg", "small.gif", "small.webp"} {
		data, _ := os.ReadFile(filepath.Join("testdata", name))
		f.Add(data)
	}
	f.Add(pngHeader(30000, 30000))
	f.Fuzz(func(t *testing.T, b []byte) {
		s, err := DecodeSource("fuzz", "fuzz", b)
		if err != nil {
			return
		}
		if int64(s.Width)*int64(s.Height) > MaxPixels {
			t.Fatalf("accepted %d×%d", s.Width, s.Height)
		}
		if _, err := Prepare(s, 64, 2); err != nil && !strings.Contains(err.Error(), "too small") {
			t.Fatal(err)
		}
	})
}
