package demo

import (
	"fmt"
	"image"
	"image/png"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// TestPreview writes every scene and a contact sheet as PNGs to $JIGBENCH_DEMO_PREVIEW,
// for a person to look at. Skipped unless that variable names a folder.
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
		fmt.Printf("%-16s %v\n", s.name, time.Since(t0).Round(time.Millisecond))
		writePNG(t, filepath.Join(dir, s.name+".png"), img)
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
