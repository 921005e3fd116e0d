// Package render turns puzzles into pixels: source decoding and resizing,
// piece masks, the shuffled sheets with their labels, overlays, heatmaps and
// reassembly views. Everything written into instance files is computed with
// integer arithmetic (or floating point rounded before every addition), so the
// bytes are the same on every platform.
package render

import (
	"bytes"
	"crypto/sha256"
	"errors"
	"fmt"
	"image"
	"image/color"
	"image/draw"
	_ "image/gif"  // registered decoders: GIF (first frame),
	_ "image/jpeg" // JPEG (baseline and progressive),
	_ "image/png"  // PNG,
	"path/filepath"
	"strconv"

	_ "golang.org/x/image/webp" // and WebP.

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/puzzle"
)

// MaxPixels is the largest image jigbench will decode: 100 megapixels. The
// limit is checked from the header before any pixel is decoded, so a small
// file that declares a huge image (a decompression bomb) costs nothing.
const MaxPixels = 100_000_000

// MaxSourceBytes bounds the size of a source file.
const MaxSourceBytes = 512 << 20

// Source is a decoded source image with what identifies it.
type Source struct {
	Name   string   // stem used in instance IDs
	SHA256 [32]byte // of the file's bytes (of the pixels, for built-in images)
	// Width and Height are as displayed, after the EXIF orientation.
	Width, Height int
	img           image.Image // as decoded, before orientation
	orientation   int         // EXIF orientation 1–8
}

// WithoutPixels returns a copy of s that keeps its name, digest and size
// but not its pixels, for work that needs only those (GenerateFrom with a
// prepared image) while the decoded image is let go.
func (s *Source) WithoutPixels() *Source {
	c := *s
	c.img = nil
	return &c
}

// Image returns the source as stored in the file, before orientation.
func (s *Source) Image() image.Image { return s.img }

// ErrNotImage is wrapped by errors for files that are no supported image.
var ErrNotImage = errors.New("not a PNG, JPEG, GIF or WebP image")

// LoadSource reads and decodes an image file.
func LoadSource(path string) (*Source, error) {
	data, err := fsutil.ReadFile(path, MaxSourceBytes)
	if errors.Is(err, fsutil.ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than %d MB; jigbench reads images up to that size", path, MaxSourceBytes>>20)
	}
	if err != nil {
		return nil, err
	}
	return DecodeSource(filepath.Base(path), puzzle.SourceName(path), data)
}

// DecodeSource decodes image bytes; file names the data in errors, name
// becomes the instance-ID stem.
func DecodeSource(file, name string, data []byte) (*Source, error) {
	cfg, format, err := image.DecodeConfig(bytes.NewReader(data))
	if err != nil {
		if errors.Is(err, image.ErrFormat) {
			return nil, fmt.Errorf("%s: %w", file, ErrNotImage)
		}
		return nil, fmt.Errorf("%s: corrupt or truncated image header: %v", file, err)
	}
	if cfg.Width <= 0 || cfg.Height <= 0 {
		return nil, fmt.Errorf("%s: the image has no pixels (%d×%d)", file, cfg.Width, cfg.Height)
	}
	if int64(cfg.Width)*int64(cfg.Height) > MaxPixels {
		// The exact figure: 10001×10000 is not "100 megapixels".
		mp := strconv.FormatFloat(float64(cfg.Width)*float64(cfg.Height)/1e6, 'f', -1, 64)
		return nil, fmt.Errorf("%s: the image is %d×%d (%s megapixels); jigbench refuses images over %d megapixels",
			file, cfg.Width, cfg.Height, mp, MaxPixels/1_000_000)
	}
	img, ok := image.Image(nil), false
	if format == "png" {
		img, ok = decodeOwnPNG(data) // the PNGs jigbench writes, faster (pngread.go)
	}
	if !ok {
		if img, _, err = image.Decode(bytes.NewReader(data)); err != nil {
			return nil, fmt.Errorf("%s: corrupt or truncated %s image: %v", file, format, err)
		}
	}
	b := img.Bounds()
	if b.Dx() != cfg.Width || b.Dy() != cfg.Height {
		return nil, fmt.Errorf("%s: corrupt %s image: header says %d×%d, data holds %d×%d",
			file, format, cfg.Width, cfg.Height, b.Dx(), b.Dy())
	}
	s := &Source{Name: name, SHA256: sha256.Sum256(data), img: img, orientation: 1}
	if format == "jpeg" {
		s.orientation = jpegOrientation(data)
	}
	s.Width, s.Height = b.Dx(), b.Dy()
	if s.orientation >= 5 {
		s.Width, s.Height = s.Height, s.Width
	}
	return s, nil
}

// SourceFromImage wraps an in-memory image (a built-in demo); its identity is
// the SHA-256 of its RGBA pixels.
func SourceFromImage(name string, img *image.RGBA) *Source {
	b := img.Bounds()
	h := sha256.New()
	for y := b.Min.Y; y < b.Max.Y; y++ {
		i := img.PixOffset(b.Min.X, y)
		h.Write(img.Pix[i : i+4*b.Dx()])
	}
	s := &Source{Name: name, img: img, orientation: 1, Width: b.Dx(), Height: b.Dy()}
	h.Sum(s.SHA256[:0])
	return s
}

// toRGBA converts img to an opaque *image.RGBA with origin (0, 0),
// compositing any transparency over white.
func toRGBA(img image.Image) *image.RGBA {
	b := img.Bounds()
	dst := image.NewRGBA(image.Rect(0, 0, b.Dx(), b.Dy()))
	switch img.(type) {
	case *image.YCbCr, *image.Gray, *image.CMYK:
		draw.Draw(dst, dst.Rect, img, b.Min, draw.Src)
	default:
		draw.Draw(dst, dst.Rect, image.NewUniform(color.White), image.Point{}, draw.Src)
		draw.Draw(dst, dst.Rect, img, b.Min, draw.Over)
	}
	return dst
}
