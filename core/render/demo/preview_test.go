package demo

import (
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPreview writes every scene, a contact sheet of them all and, as flat-NAME.png, each
// scene with its low-detail blocks (see TestDetail) tinted red, to $JIGBENCH_DEMO_PREVIEW
// for a person to look at. Skipped unless that variable names a folder:
//
//	JIGBENCH_DEMO_PREVIEW=/tmp/demo-preview go test -run TestPreview -v ./core/render/demo/
func TestPreview(t *testing.T) {
	dir := os.Getenv("JIGBENCH_DEMO_PREVIEW")
	if dir == "" {
		t.Skip("set JIGBENCH_DEMO_PREVIEW=DIR to write PNGs")
	}
	const cols, tw, th = 4, width / 4, height / 4
	rows := (len(scenes) + cols - 1) / cols
	sheet := image.NewRGBA(image.Rect(0, 0, cols*tw, rows*th))
	for i, s := range scenes {
		t0 := time.Now()
		img := render(s)
		t.Logf("%-14s rendered in %v", s.name, time.Since(t0).Round(time.Millisecond))
		writePNG(t, filepath.Join(dir, s.name+".png"), img)
		writePNG(t, filepath.Join(dir, "flat-"+s.name+".png"), shrink(flatOverlay(img), 2))
		thumb := shrink(img, 4)
		ox, oy := (i%cols)*tw, (i/cols)*th
		for y := 0; y < th; y++ {
			copy(sheet.Pix[(oy+y)*sheet.Stride+4*ox:], thumb.Pix[y*thumb.Stride:y*thumb.Stride+4*tw])
		}
	}
	writePNG(t, filepath.Join(dir, "contact-sheet.png"), sheet)
}

func writePNG(t *testing.T, path string, img image.Image) {
	t.Helper()
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := png.Encode(f, img); err != nil {
		t.Fatal(err)
	}
	if err := f.Close(); err != nil {
		t.Fatal(err)
	}
}

// flatOverlay tints the low-detail blocks (those TestDetail counts) red.
func flatOverlay(img *image.RGBA) *image.RGBA {
	out := image.NewRGBA(img.Bounds())
	copy(out.Pix, img.Pix)
	for by := 0; by+16 <= height; by += 16 {
		for bx := 0; bx+16 <= width; bx += 16 {
			if !flatBlock(img, bx, by) {
				continue
			}
			for y := by; y < by+16; y++ {
				for x := bx; x < bx+16; x++ {
					p := out.Pix[y*out.Stride+4*x:]
					p[0] = uint8((int(p[0]) + 255) / 2)
					p[1], p[2] = p[1]/2, p[2]/2
				}
			}
		}
	}
	return out
}
