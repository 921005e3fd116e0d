package puzzle

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
)

// InstanceFormat names version 1 of instance.json.
const InstanceFormat = "jigbench.instance/v1"

// maxInstanceBytes bounds what ReadInstance will parse: a 64×64 instance is
// about 1 MB.
const maxInstanceBytes = 32 << 20

// Instance is the content of instance.json (docs/formats.md, "The instance file"). Row, Col, Sides,
// Edges and Solution are the answer; a solver sees only PublicInstance.
type Instance struct {
	Format   string      `json:"format"`
	ID       string      `json:"id"`
	Grid     int         `json:"grid"`
	Seed     uint64      `json:"seed"`
	Options  Options     `json:"options"`
	Source   SourceInfo  `json:"source"`
	Image    Size        `json:"image"`
	Piece    PieceInfo   `json:"piece"`
	Edges    EdgeInfo    `json:"edges"`
	Pieces   []PieceFile `json:"pieces"`
	Solution Solution    `json:"solution"`
	// Hints are the hint studies' extras (absent without them).
	Hints  *Hints `json:"hints,omitempty"`
	Layout Layout `json:"layout"`
}

// SourceInfo identifies the source image.
type SourceInfo struct {
	Name   string `json:"name"`
	SHA256 string `json:"sha256"`
	Width  int    `json:"width"`
	Height int    `json:"height"`
}

// Size is a width and height in pixels.
type Size struct {
	Width  int `json:"width"`
	Height int `json:"height"`
}

// PieceInfo is the cell size and the nominal tab radius.
type PieceInfo struct {
	Width     int `json:"width"`
	Height    int `json:"height"`
	TabRadius int `json:"tab_radius"`
}

// EdgeInfo holds the polarities of the internal edges.
type EdgeInfo struct {
	Horizontal [][]int `json:"horizontal"`
	Vertical   [][]int `json:"vertical"`
}

// PieceFile is one entry of "pieces".
type PieceFile struct {
	ID    int       `json:"id"`
	Row   int       `json:"row"`
	Col   int       `json:"col"`
	Sides SideNames `json:"sides"`
	Slot  SlotPos   `json:"slot"`
}

// SideNames spells out the four sides.
type SideNames struct {
	Top    Side `json:"top"`
	Right  Side `json:"right"`
	Bottom Side `json:"bottom"`
	Left   Side `json:"left"`
}

// Array returns the sides as Sides.
func (s SideNames) Array() Sides { return Sides{s.Top, s.Right, s.Bottom, s.Left} }

// SlotPos is a slot's row and column on the sheet.
type SlotPos struct {
	Row int `json:"row"`
	Col int `json:"col"`
}

// Solution maps piece ID to its true cell. It marshals in ID order.
type Solution []Cell

// MarshalJSON writes {"0": [r, c], "1": …} in numeric ID order.
func (s Solution) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	b.WriteByte('{')
	for id, c := range s {
		if id > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `"%d": [%d, %d]`, id, c.Row, c.Col)
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// UnmarshalJSON reads the ID → [row, col] object.
func (s *Solution) UnmarshalJSON(b []byte) error {
	if sol, ok := parseSolutionObject(b); ok {
		*s = sol
		return nil
	}
	var m map[string][2]int
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	out := make(Solution, len(m))
	for k, v := range m {
		id, err := strconv.Atoi(k)
		if err != nil || id < 0 || id >= len(m) {
			return fmt.Errorf("solution key %q is not a piece ID 0–%d", k, len(m)-1)
		}
		out[id] = Cell{v[0], v[1]}
	}
	*s = out
	return nil
}

// SourceName turns a file name into the stem used in instance IDs: the base
// name without extension, with anything but letters, digits, '.', '_' and '-'
// replaced by '-'.
func SourceName(path string) string {
	base := path[strings.LastIndexAny(path, `/\`)+1:]
	if i := strings.LastIndexByte(base, '.'); i > 0 {
		base = base[:i]
	}
	base = unsafeNameChars.ReplaceAllString(base, "-")
	if base == "" {
		return "image"
	}
	return base
}

var unsafeNameChars = regexp.MustCompile(`[^A-Za-z0-9._-]+`)

// InstanceID is <source-stem>-g<N>-s<seed> for the paper's semicircle
// tabs and <source-stem>-g<N>-s<seed>-<style> for any other tab style, so
// two instances that differ only in their tabs never share an ID (or a
// folder) while the paper's IDs stay as they were (docs/formats.md).
func InstanceID(source string, n int, seed uint64, tabStyle string) string {
	id := fmt.Sprintf("%s-g%d-s%d", source, n, seed)
	if tabStyle != "" && tabStyle != StyleSemicircle {
		id += "-" + tabStyle
	}
	return id
}

// Instance describes p as instance.json; src is the source's name and size.
func (p *Puzzle) Instance(name string, srcWidth, srcHeight int) *Instance {
	n := p.N
	inst := &Instance{
		Format:  InstanceFormat,
		ID:      InstanceID(name, n, p.Seed, p.Options.TabStyle),
		Grid:    n,
		Seed:    p.Seed,
		Options: p.Options,
		Source:  SourceInfo{Name: name, SHA256: hex.EncodeToString(p.Source[:]), Width: srcWidth, Height: srcHeight},
		Image:   Size{p.Width, p.Height},
		Piece:   PieceInfo{p.PieceW, p.PieceH, p.TabRadius},
		Edges:   EdgeInfo{p.Horizontal, p.Vertical},
		Pieces:  make([]PieceFile, n*n),
		Layout:  p.Layout,
		Hints:   p.hints(),
	}
	inst.Solution = append(Solution(nil), p.CellOf...)
	for id, c := range p.CellOf {
		s := p.Sides(c)
		inst.Pieces[id] = PieceFile{
			ID: id, Row: c.Row, Col: c.Col,
			Sides: SideNames{s[Top], s[Right], s[Bottom], s[Left]},
			Slot:  SlotPos{id / n, id % n},
		}
	}
	return inst
}

// MarshalIndent writes the instance with one top-level field per line and one
// piece or edge row per line, so the file is both compact and diffable.
func (inst *Instance) MarshalIndent() ([]byte, error) {
	var b bytes.Buffer
	field := func(name string, v any, last bool) error {
		j, err := json.Marshal(v)
		if err != nil {
			return err
		}
		fmt.Fprintf(&b, "  %q: %s", name, j)
		if !last {
			b.WriteByte(',')
		}
		b.WriteByte('\n')
		return nil
	}
	rows := func(v any) ([]byte, error) { return json.Marshal(v) }
	b.WriteString("{\n")
	for _, f := range []struct {
		name string
		v    any
	}{
		{"format", inst.Format}, {"id", inst.ID}, {"grid", inst.Grid}, {"seed", inst.Seed},
		{"options", inst.Options}, {"source", inst.Source}, {"image", inst.Image}, {"piece", inst.Piece},
	} {
		if err := field(f.name, f.v, false); err != nil {
			return nil, err
		}
	}
	b.WriteString("  \"edges\": {\n")
	for i, part := range []struct {
		name string
		rows [][]int
	}{{"horizontal", inst.Edges.Horizontal}, {"vertical", inst.Edges.Vertical}} {
		fmt.Fprintf(&b, "    %q: [", part.name)
		for r, row := range part.rows {
			j, err := rows(row)
			if err != nil {
				return nil, err
			}
			if r > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n      ")
			b.Write(j)
		}
		if len(part.rows) > 0 {
			b.WriteString("\n    ")
		}
		b.WriteString("]")
		if i == 0 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("  },\n  \"pieces\": [")
	for i, pc := range inst.Pieces {
		j, err := json.Marshal(pc)
		if err != nil {
			return nil, err
		}
		if i > 0 {
			b.WriteString(",")
		}
		b.WriteString("\n    ")
		b.Write(j)
	}
	b.WriteString("\n  ],\n")
	if err := field("solution", inst.Solution, false); err != nil {
		return nil, err
	}
	if inst.Hints != nil {
		if err := field("hints", inst.Hints, false); err != nil {
			return nil, err
		}
	}
	if err := field("layout", inst.Layout, true); err != nil {
		return nil, err
	}
	b.WriteString("}\n")
	return b.Bytes(), nil
}

// ReadInstance reads and checks an instance.json file.
func ReadInstance(path string) (*Instance, error) {
	return readInstanceFile(path, ParseInstance)
}

// readInstanceFile reads an instance.json of at most maxInstanceBytes and
// parses it, naming the file in a parse error.
func readInstanceFile[T any](path string, parse func([]byte) (T, error)) (T, error) {
	var zero T
	data, err := readLimited(path, maxInstanceBytes)
	if err != nil {
		return zero, err
	}
	v, err := parse(data)
	if err != nil {
		return zero, fmt.Errorf("%s: %w", path, err)
	}
	return v, nil
}

// ReadSolution reads only the grid and the solution of an instance.json and
// checks that the solution puts each piece on its own cell of the grid. It
// is for exports that write many answers: decoding the whole file (pieces,
// edges, layout) cost most of an export's time.
func ReadSolution(path string) (grid int, sol Solution, err error) {
	f, err := readInstanceFile(path, parseSolution)
	return f.Grid, f.Solution, err
}

// solutionFile is the part of instance.json that ReadSolution decodes.
type solutionFile struct {
	Format   string   `json:"format"`
	Grid     int      `json:"grid"`
	Solution Solution `json:"solution"`
}

func parseSolution(data []byte) (solutionFile, error) {
	var f solutionFile
	data, err := instanceText(data)
	if err != nil {
		return f, err
	}
	// Only three of the file's members are decoded; the rest (pieces,
	// edges, layout: 90% of a 16×16 file) are only scanned.
	data, err = selectFields(data, "format", "grid", "solution")
	if err != nil {
		return f, fmt.Errorf("not a valid instance.json: %w", err)
	}
	if err := json.Unmarshal(data, &f); err != nil {
		return f, fmt.Errorf("not a valid instance.json: %w", err)
	}
	if err := f.check(); err != nil {
		return f, fmt.Errorf("not a valid instance.json: %w", err)
	}
	return f, nil
}

func (f *solutionFile) check() error {
	if f.Format != InstanceFormat {
		return fmt.Errorf("format is %q, want %q", f.Format, InstanceFormat)
	}
	n := f.Grid
	if err := ValidateGrid(n); err != nil {
		return err
	}
	if len(f.Solution) != n*n {
		return fmt.Errorf("solution has %d entries, want %d", len(f.Solution), n*n)
	}
	seen := make([]bool, n*n)
	for id, c := range f.Solution {
		if c.Row < 0 || c.Row >= n || c.Col < 0 || c.Col >= n {
			return fmt.Errorf("piece %d is at (%d, %d), outside the grid", id, c.Row, c.Col)
		}
		if seen[c.Row*n+c.Col] {
			return fmt.Errorf("two pieces are at (%d, %d)", c.Row, c.Col)
		}
		seen[c.Row*n+c.Col] = true
	}
	return nil
}

// Indices gives each piece's cell as row*n + col, in piece ID order.
func (s Solution) Indices(n int) []int {
	out := make([]int, len(s))
	for k, c := range s {
		out[k] = c.Row*n + c.Col
	}
	return out
}

// ParseInstance decodes instance.json and checks that it is complete and consistent.
func ParseInstance(data []byte) (*Instance, error) {
	data, err := instanceText(data)
	if err != nil {
		return nil, err
	}
	var inst Instance
	if err := json.Unmarshal(data, &inst); err != nil {
		return nil, fmt.Errorf("not a valid instance.json: %w", err)
	}
	if err := inst.check(); err != nil {
		return nil, fmt.Errorf("not a valid instance.json: %w", err)
	}
	return &inst, nil
}

func (inst *Instance) check() error {
	if inst.Format != InstanceFormat {
		return fmt.Errorf("format is %q, want %q", inst.Format, InstanceFormat)
	}
	n := inst.Grid
	if err := ValidateGrid(n); err != nil {
		return err
	}
	if len(inst.Pieces) != n*n {
		return fmt.Errorf("%d pieces for grid %d, want %d", len(inst.Pieces), n, n*n)
	}
	if len(inst.Solution) != n*n {
		return fmt.Errorf("solution has %d entries, want %d", len(inst.Solution), n*n)
	}
	seenCell := make([]bool, n*n)
	for i, pc := range inst.Pieces {
		if pc.ID != i {
			return fmt.Errorf("pieces[%d] has id %d; pieces must be listed in ID order", i, pc.ID)
		}
		if pc.Row < 0 || pc.Row >= n || pc.Col < 0 || pc.Col >= n {
			return fmt.Errorf("piece %d is at (%d, %d), outside the grid", i, pc.Row, pc.Col)
		}
		if seenCell[pc.Row*n+pc.Col] {
			return fmt.Errorf("two pieces are at (%d, %d)", pc.Row, pc.Col)
		}
		seenCell[pc.Row*n+pc.Col] = true
		if (inst.Solution[i] != Cell{pc.Row, pc.Col}) {
			return fmt.Errorf("piece %d: solution and pieces disagree", i)
		}
		if pc.Slot.Row != i/n || pc.Slot.Col != i%n {
			return fmt.Errorf("piece %d is in slot (%d, %d), want (%d, %d)", i, pc.Slot.Row, pc.Slot.Col, i/n, i%n)
		}
	}
	if len(inst.Edges.Horizontal) != n || len(inst.Edges.Vertical) != n-1 {
		return fmt.Errorf("edge tables have the wrong shape for grid %d", n)
	}
	for _, row := range inst.Edges.Horizontal {
		if len(row) != n-1 {
			return fmt.Errorf("edge tables have the wrong shape for grid %d", n)
		}
	}
	for _, row := range inst.Edges.Vertical {
		if len(row) != n {
			return fmt.Errorf("edge tables have the wrong shape for grid %d", n)
		}
	}
	if inst.Piece.Width < 1 || inst.Piece.Height < 1 || inst.Layout.SlotWidth < inst.Piece.Width || inst.Layout.SlotHeight < inst.Piece.Height {
		return fmt.Errorf("piece or slot size is missing")
	}
	return inst.checkHints()
}

// checkHints checks the hints against the options that asked for them and
// the revealed cells against the solution.
func (inst *Instance) checkHints() error {
	h, o := inst.Hints, inst.Options
	if h == nil {
		h = &Hints{}
	}
	if err := h.check(inst.Grid); err != nil {
		return err
	}
	if len(h.Revealed) != o.Reveal {
		return fmt.Errorf("options reveal %d pieces but hints list %d", o.Reveal, len(h.Revealed))
	}
	if (o.Hints == HintsSimilarity) != (h.Similarity != nil) {
		return fmt.Errorf("similarity groups are present without similarity hints, or missing with them")
	}
	for _, rp := range h.Revealed {
		if (inst.Solution[rp.ID] != Cell{rp.Row, rp.Col}) {
			return fmt.Errorf("hints reveal piece %d at (%d, %d), but the solution has it elsewhere", rp.ID, rp.Row, rp.Col)
		}
	}
	return nil
}

// Puzzle rebuilds the full geometry of inst from its seed, source hash, grid
// and options, and checks it against the file, so tab shapes (which the file
// does not list) are available for drawing.
func (inst *Instance) Puzzle() (*Puzzle, error) {
	var src [32]byte
	h, err := hex.DecodeString(inst.Source.SHA256)
	if err != nil || len(h) != 32 {
		return nil, fmt.Errorf("instance %s: source sha256 %q is not 64 hex digits", inst.ID, inst.Source.SHA256)
	}
	copy(src[:], h)
	p, err := New(inst.Grid, inst.Seed, src, inst.Image.Width, inst.Image.Height, inst.Options)
	if err != nil {
		return nil, fmt.Errorf("instance %s: %w", inst.ID, err)
	}
	for id, c := range p.CellOf {
		if inst.Solution[id] != c {
			return nil, fmt.Errorf("instance %s: the permutation does not follow from its seed (edited by hand?)", inst.ID)
		}
	}
	for r := range p.Horizontal {
		for c := range p.Horizontal[r] {
			if p.Horizontal[r][c] != inst.Edges.Horizontal[r][c] {
				return nil, fmt.Errorf("instance %s: the edges do not follow from its seed (edited by hand?)", inst.ID)
			}
		}
	}
	if !slices.Equal(p.Revealed, inst.Hints.RevealedIDs()) {
		return nil, fmt.Errorf("instance %s: the revealed pieces do not follow from its seed (edited by hand?)", inst.ID)
	}
	if inst.Hints != nil {
		p.Similarity = inst.Hints.Similarity
	}
	return p, nil
}

// Sides returns the sides of each piece, indexed by ID.
func (inst *Instance) Sides() []Sides {
	out := make([]Sides, len(inst.Pieces))
	for i, pc := range inst.Pieces {
		out[i] = pc.Sides.Array()
	}
	return out
}

// readLimited reads a whole file, refusing one larger than limit bytes.
func readLimited(path string, limit int64) ([]byte, error) {
	data, err := fsutil.ReadFile(path, limit)
	if errors.Is(err, fsutil.ErrTooLarge) {
		return nil, fmt.Errorf("%s is larger than %d MB; it is not an instance file", path, limit>>20)
	}
	return data, err
}

// instanceText is an instance.json's bytes ready to decode: a byte order
// mark dropped, and refused unless UTF-8 (the decoder would hide bad bytes).
func instanceText(data []byte) ([]byte, error) {
	data = fsutil.TrimBOM(data)
	if err := fsutil.CheckUTF8(data); err != nil {
		return nil, fmt.Errorf("not a valid instance.json: %w", err)
	}
	return data, nil
}
