package puzzle

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/rand/v2"

	"github.com/jigbench/jigbench/core/rng"
)

// Side is the shape of one side of a piece.
type Side uint8

// The three side shapes.
const (
	Flat  Side = iota // on the puzzle's boundary
	Tab               // protrudes into the neighbour
	Blank             // receives the neighbour's tab
)

var sideNames = [...]string{"flat", "tab", "blank"}

func (s Side) String() string {
	if int(s) < len(sideNames) {
		return sideNames[s]
	}
	return fmt.Sprintf("Side(%d)", s)
}

// MarshalText writes the side's name.
func (s Side) MarshalText() ([]byte, error) { return []byte(s.String()), nil }

// UnmarshalText reads a side's name.
func (s *Side) UnmarshalText(b []byte) error {
	for i, n := range sideNames {
		if string(b) == n {
			*s = Side(i)
			return nil
		}
	}
	return fmt.Errorf("unknown side %q", b)
}

// Complements reports whether two facing sides interlock (one tab, one blank).
func (s Side) Complements(t Side) bool {
	return s == Tab && t == Blank || s == Blank && t == Tab
}

// Sides of a piece, in the order top, right, bottom, left.
type Sides [4]Side

// Directions index Sides.
const (
	Top = iota
	Right
	Bottom
	Left
)

// Cell is a grid position, 0-indexed from the top-left.
type Cell struct{ Row, Col int }

// Puzzle is one instance's geometry and permutation.
type Puzzle struct {
	N       int
	Seed    uint64
	Source  [32]byte // SHA-256 of the source image bytes
	Options Options

	Width, Height int // the cropped image, a multiple of N each way
	PieceW        int // cell width, px
	PieceH        int // cell height, px
	TabRadius     int // R = round(tab_ratio × min(PieceW, PieceH))

	// Horizontal[r][c] is the edge between (r,c) and (r,c+1): +1 when the left
	// piece's tab protrudes right, -1 when the right piece's tab protrudes left.
	Horizontal [][]int
	// Vertical[r][c] is the edge between (r,c) and (r+1,c): +1 when the upper
	// piece's tab protrudes down, -1 when the lower piece's tab protrudes up.
	Vertical [][]int

	// IDAt[r*N+c] is the ID of the piece whose true cell is (r,c); CellOf is
	// its inverse.
	IDAt   []int
	CellOf []Cell

	Layout Layout

	// Revealed lists the pieces whose true cells the prompt states
	// (Options.Reveal of them), ascending by ID; nil without --reveal.
	Revealed []int
	// Similarity groups the piece IDs by colour (Options.Hints); nil until
	// GroupBySimilarity sets it.
	Similarity [][]int

	// hintState is the generator's state after the reveal draws, where the
	// similarity seeding continues (nil without similarity hints).
	hintState []byte

	lobes []Lobe // one per internal edge: horizontal row-major, then vertical
}

// Layout places the pieces on a sheet: piece ID k sits in slot (k div N, k mod N).
type Layout struct {
	SheetWidth  int `json:"sheet_width"`
	SheetHeight int `json:"sheet_height"`
	SlotWidth   int `json:"slot_width"`
	SlotHeight  int `json:"slot_height"`
	OriginX     int `json:"origin_x"`
	OriginY     int `json:"origin_y"`
	// CellOffsetX/Y locate a piece's cell (without its tabs) inside its slot.
	CellOffsetX int `json:"cell_offset_x"`
	CellOffsetY int `json:"cell_offset_y"`
}

// SlotOrigin is the top-left pixel of the slot of piece id.
func (l Layout) SlotOrigin(id, n int) (x, y int) {
	return l.OriginX + (id%n)*l.SlotWidth, l.OriginY + (id/n)*l.SlotHeight
}

// SlotAt returns the ID of the piece whose slot contains sheet pixel (x, y),
// or false between and outside the slots.
func (l Layout) SlotAt(x, y float64, n int) (id int, ok bool) {
	fx, fy := x-float64(l.OriginX), y-float64(l.OriginY)
	if fx < 0 || fy < 0 || l.SlotWidth <= 0 || l.SlotHeight <= 0 {
		return 0, false
	}
	c, r := int(fx)/l.SlotWidth, int(fy)/l.SlotHeight
	if c >= n || r >= n {
		return 0, false
	}
	return r*n + c, true
}

// CellOrigin is where the top-left corner of piece id's cell is drawn on the sheet.
func (l Layout) CellOrigin(id, n int) (x, y int) {
	x, y = l.SlotOrigin(id, n)
	return x + l.CellOffsetX, y + l.CellOffsetY
}

// NewRNG returns the instance's generator: PCG seeded with the user's seed and
// a stream derived from the source hash and the grid, so the same seed gives
// unrelated puzzles for different images and grids.
//
// stream = first 8 bytes (big-endian) of SHA-256(source SHA-256 ‖ N as 8 bytes big-endian).
func NewRNG(seed uint64, source [32]byte, n int) *rand.Rand {
	return rand.New(newPCG(seed, source, n))
}

// newPCG is NewRNG's source, kept so its state can be saved.
func newPCG(seed uint64, source [32]byte, n int) *rand.PCG {
	var buf [40]byte
	copy(buf[:32], source[:])
	binary.BigEndian.PutUint64(buf[32:], uint64(n))
	h := sha256.Sum256(buf[:])
	return rand.NewPCG(seed, binary.BigEndian.Uint64(h[:8]))
}

// drawPolarity is one coin flip: the top bit of the next 64-bit output.
func drawPolarity(r *rand.Rand) int {
	if r.Uint64()>>63 == 1 {
		return 1
	}
	return -1
}

// drawUnit returns a uniform float64 in [0, 1) from the top 53 bits.
func drawUnit(r *rand.Rand) float64 {
	return float64(r.Uint64()>>11) * 0x1p-53
}

// New builds a puzzle for a width×height image (each a multiple of n).
//
// Draw order from NewRNG: horizontal polarities row-major, vertical
// polarities row-major, per-edge jitter (classic tabs only, six draws per edge
// in the same edge order), then the ID permutation by Fisher–Yates
// (i from N²-1 down to 1, swap i with rng.Below(i+1)), then — only with
// hints — the revealed pieces (drawReveal) and the similarity seeding
// (GroupBySimilarity), so an instance without hints draws exactly as before.
func New(n int, seed uint64, source [32]byte, width, height int, opt Options) (*Puzzle, error) {
	if err := ValidateGrid(n); err != nil {
		return nil, err
	}
	if err := opt.Validate(); err != nil {
		return nil, err
	}
	if err := opt.ValidateFor(n); err != nil {
		return nil, err
	}
	if width%n != 0 || height%n != 0 {
		return nil, fmt.Errorf("image %d×%d is not a multiple of grid %d", width, height, n)
	}
	p := &Puzzle{
		N: n, Seed: seed, Source: source, Options: opt,
		Width: width, Height: height, PieceW: width / n, PieceH: height / n,
	}
	if min(p.PieceW, p.PieceH) < MinPiecePixels {
		return nil, fmt.Errorf("pieces of %d×%d px are too small (at least %d px a side); use a smaller grid or a larger size",
			p.PieceW, p.PieceH, MinPiecePixels)
	}
	p.TabRadius = roundHalfUp(float64(opt.TabRatio * float64(min(p.PieceW, p.PieceH))))
	if p.TabRadius < 1 {
		p.TabRadius = 1
	}

	pcg := newPCG(seed, source, n)
	r := rand.New(pcg)
	p.Horizontal = make([][]int, n)
	for i := range p.Horizontal {
		p.Horizontal[i] = make([]int, n-1)
		for j := range p.Horizontal[i] {
			p.Horizontal[i][j] = drawPolarity(r)
		}
	}
	p.Vertical = make([][]int, n-1)
	for i := range p.Vertical {
		p.Vertical[i] = make([]int, n)
		for j := range p.Vertical[i] {
			p.Vertical[i][j] = drawPolarity(r)
		}
	}
	var jitter []classicJitter
	if opt.TabStyle == StyleClassic {
		jitter = make([]classicJitter, p.EdgeCount())
		for i := range jitter {
			for k := range jitter[i] {
				jitter[i][k] = float64(2*drawUnit(r)) - 1
			}
		}
	}
	m := n * n
	p.IDAt = make([]int, m)
	for i := range p.IDAt {
		p.IDAt[i] = i
	}
	for i := m - 1; i > 0; i-- {
		j := int(rng.Below(r, uint64(i+1)))
		p.IDAt[i], p.IDAt[j] = p.IDAt[j], p.IDAt[i]
	}
	p.CellOf = make([]Cell, m)
	for i, id := range p.IDAt {
		p.CellOf[id] = Cell{i / n, i % n}
	}
	if opt.Reveal > 0 {
		p.Revealed = drawReveal(r, m, opt.Reveal)
	}
	if opt.Hints == HintsSimilarity {
		state, err := pcg.MarshalBinary()
		if err != nil {
			return nil, err
		}
		p.hintState = state
	}

	p.lobes = p.buildLobes(jitter)
	p.Layout = p.computeLayout()
	return p, nil
}

// EdgeCount is the number of internal edges, 2N(N-1).
func (p *Puzzle) EdgeCount() int { return 2 * p.N * (p.N - 1) }

// Sides derives the four sides of the piece whose true cell is c.
func (p *Puzzle) Sides(c Cell) Sides { return SidesOf(p.Horizontal, p.Vertical, c) }

// SidesOf derives the sides of the piece at c from the edge polarities of an
// N×N puzzle (horizontal is N×(N-1), vertical (N-1)×N).
func SidesOf(horizontal, vertical [][]int, c Cell) Sides {
	n := len(horizontal)
	s := Sides{Flat, Flat, Flat, Flat}
	if c.Row > 0 {
		s[Top] = Tab
		if vertical[c.Row-1][c.Col] == 1 {
			s[Top] = Blank
		}
	}
	if c.Row < n-1 {
		s[Bottom] = Blank
		if vertical[c.Row][c.Col] == 1 {
			s[Bottom] = Tab
		}
	}
	if c.Col > 0 {
		s[Left] = Tab
		if horizontal[c.Row][c.Col-1] == 1 {
			s[Left] = Blank
		}
	}
	if c.Col < n-1 {
		s[Right] = Blank
		if horizontal[c.Row][c.Col] == 1 {
			s[Right] = Tab
		}
	}
	return s
}

// PieceSides returns the sides of piece id.
func (p *Puzzle) PieceSides(id int) Sides { return p.Sides(p.CellOf[id]) }

// CellRect is the pixel rectangle of cell c in the solved image: x0, y0, x1, y1.
func (p *Puzzle) CellRect(c Cell) (x0, y0, x1, y1 int) {
	x0, y0 = c.Col*p.PieceW, c.Row*p.PieceH
	return x0, y0, x0 + p.PieceW, y0 + p.PieceH
}

// EdgeIndex numbers the internal edges: horizontal[r][c] → r*(N-1)+c, then
// vertical[r][c] → N(N-1) + r*N + c.
func (p *Puzzle) EdgeIndex(vertical bool, r, c int) int {
	if !vertical {
		return r*(p.N-1) + c
	}
	return p.N*(p.N-1) + r*p.N + c
}

// CellEdges lists the internal edges around cell c as edge indices
// (-1 where the side is on the boundary), in the order top, right, bottom, left.
func (p *Puzzle) CellEdges(c Cell) [4]int {
	e := [4]int{-1, -1, -1, -1}
	if c.Row > 0 {
		e[Top] = p.EdgeIndex(true, c.Row-1, c.Col)
	}
	if c.Col < p.N-1 {
		e[Right] = p.EdgeIndex(false, c.Row, c.Col)
	}
	if c.Row < p.N-1 {
		e[Bottom] = p.EdgeIndex(true, c.Row, c.Col)
	}
	if c.Col > 0 {
		e[Left] = p.EdgeIndex(false, c.Row, c.Col-1)
	}
	return e
}

// Lobe returns the tab region of internal edge i (see EdgeIndex).
func (p *Puzzle) Lobe(i int) Lobe { return p.lobes[i] }

// Protrusion is how far any tab reaches beyond its cell, in px.
func (p *Puzzle) Protrusion() int {
	out := 0
	for _, l := range p.lobes {
		out = max(out, l.Reach())
	}
	return out
}

// computeLayout sizes equal slots for a piece with tabs on every side plus a gap.
func (p *Puzzle) computeLayout() Layout {
	reach := p.Protrusion()
	gap := max(6, roundHalfUp(float64(0.15*float64(min(p.PieceW, p.PieceH)))))
	l := Layout{
		SlotWidth:  p.PieceW + 2*reach + gap,
		SlotHeight: p.PieceH + 2*reach + gap,
		OriginX:    gap / 2,
		OriginY:    gap / 2,
	}
	l.CellOffsetX = reach + gap/2
	l.CellOffsetY = reach + gap/2
	l.SheetWidth = 2*l.OriginX + p.N*l.SlotWidth
	l.SheetHeight = 2*l.OriginY + p.N*l.SlotHeight
	return l
}

// roundHalfUp rounds x ≥ 0 to the nearest integer, halves up. Callers wrap a
// product in float64(…) first so no platform fuses it with the +0.5.
func roundHalfUp(x float64) int { return int(x + 0.5) }
