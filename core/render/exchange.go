package render

import (
	"encoding/binary"
	"fmt"
	"image"
	"path/filepath"

	"github.com/jigbench/jigbench/core/puzzle"
)

// ExchangeClasses finds which pieces of p can trade cells without changing
// one condition's sheet (docs/ambiguity-and-hints.md). Straight cuts
// (shaped false): pieces whose cells hold identical pixels. Shaped: pieces
// with identical sides whose regions, tabs included and blanks left out,
// have the same outline and identical pixels. The sheet draws a piece from
// exactly these — its region's pixels and an outline that depends on the
// region alone — while labels and slots stay with the IDs, so exchanging two
// such pieces leaves the sheet byte-identical.
//
// Each piece's region is written out as a byte string (sides, the region's
// offset and size, its mask, the pixels under the mask); equal strings are
// the exchangeable pieces, so the classes are exact, not hashed.
func ExchangeClasses(p *puzzle.Puzzle, solved *image.RGBA, shaped bool) puzzle.Exchange {
	first := make([]int, len(p.CellOf))
	seen := map[string]int{}
	var key []byte
	for id, c := range p.CellOf {
		key = pieceKey(key[:0], p, solved, c, shaped)
		if f, ok := seen[string(key)]; ok {
			first[id] = f
			continue
		}
		seen[string(key)] = id
		first[id] = id
	}
	e, err := puzzle.NewExchange(first)
	if err != nil {
		panic(err) // first is built in ID order, so it is always a valid partition
	}
	return e
}

// pieceKey appends to b what the sheet shows of the piece at cell c.
func pieceKey(b []byte, p *puzzle.Puzzle, solved *image.RGBA, c puzzle.Cell, shaped bool) []byte {
	m := PieceMask(p, c, shaped)
	if shaped {
		s := p.Sides(c)
		b = append(b, byte(s[0]), byte(s[1]), byte(s[2]), byte(s[3]))
	}
	x0, y0, _, _ := p.CellRect(c)
	r := m.Rect.Sub(image.Pt(x0, y0)) // the region relative to its cell
	for _, v := range []int{r.Min.X, r.Min.Y, r.Dx(), r.Dy()} {
		b = binary.BigEndian.AppendUint32(b, uint32(int32(v)))
	}
	b = append(b, m.Pix...)
	for y := m.Rect.Min.Y; y < m.Rect.Max.Y; y++ {
		mrow := m.Pix[m.PixOffset(m.Rect.Min.X, y):]
		srow := solved.Pix[solved.PixOffset(m.Rect.Min.X, y):]
		for i := range m.Rect.Dx() {
			if mrow[i] != 0 {
				b = append(b, srow[4*i:4*i+4]...)
			}
		}
	}
	return b
}

// InstanceExchange reads an instance folder (instance.json and solved.png)
// and returns its exchangeable classes in the shape and rect conditions.
func InstanceExchange(dir string) (shape, rect puzzle.Exchange, err error) {
	inst, err := puzzle.ReadInstance(filepath.Join(dir, FileInstance))
	if err != nil {
		return shape, rect, err
	}
	p, err := inst.Puzzle()
	if err != nil {
		return shape, rect, err
	}
	path := filepath.Join(dir, FileSolved)
	solved, err := LoadImage(path)
	if err != nil {
		return shape, rect, err
	}
	if solved.Rect.Dx() != p.Width || solved.Rect.Dy() != p.Height {
		return shape, rect, fmt.Errorf("%s is %d×%d, but instance.json says %d×%d", path, solved.Rect.Dx(), solved.Rect.Dy(), p.Width, p.Height)
	}
	return ExchangeClasses(p, solved, true), ExchangeClasses(p, solved, false), nil
}
