package render

import (
	"fmt"
	"image"
	"path/filepath"

	"github.com/jigbench/jigbench/core/puzzle"
)

// LoadImage decodes an image file into RGBA as displayed, with the same
// checks as a source (format, size limit, EXIF orientation).
func LoadImage(path string) (*image.RGBA, error) {
	s, err := LoadSource(path)
	if err != nil {
		return nil, err
	}
	return s.RGBA(), nil
}

// RGBA is the source's pixels as displayed (EXIF orientation applied), at
// full size, from the image already decoded.
func (s *Source) RGBA() *image.RGBA {
	b := s.img.Bounds()
	return orient(resizeTo(s.img, b.Dx(), b.Dy()), s.orientation)
}

// LoadInstance reads an instance folder written by WriteDir: instance.json
// and the three images. The puzzle geometry is rebuilt from the instance
// (for overlays); if that fails (a hand-edited file) Puzzle is nil and the
// error is returned alongside a usable result.
func LoadInstance(dir string) (*Generated, error) {
	inst, err := puzzle.ReadInstance(filepath.Join(dir, FileInstance))
	if err != nil {
		return nil, err
	}
	g := &Generated{Instance: inst}
	for _, f := range []struct {
		name string
		dst  **image.RGBA
	}{{FileShape, &g.Shape}, {FileRect, &g.Rect}, {FileSolved, &g.Solved}} {
		img, err := LoadImage(filepath.Join(dir, f.name))
		if err != nil {
			return nil, err
		}
		*f.dst = img
	}
	l := inst.Layout
	if g.Shape.Rect.Dx() != l.SheetWidth || g.Shape.Rect.Dy() != l.SheetHeight ||
		g.Rect.Rect.Dx() != l.SheetWidth || g.Rect.Rect.Dy() != l.SheetHeight {
		return nil, fmt.Errorf("%s: the sheets are not the %d×%d px that instance.json describes", dir, l.SheetWidth, l.SheetHeight)
	}
	if g.Solved.Rect.Dx() != inst.Image.Width || g.Solved.Rect.Dy() != inst.Image.Height {
		return nil, fmt.Errorf("%s: solved.png is not the %d×%d px that instance.json describes", dir, inst.Image.Width, inst.Image.Height)
	}
	p, err := inst.Puzzle()
	if err != nil {
		return g, err
	}
	g.Puzzle = p
	return g, nil
}
