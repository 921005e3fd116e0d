package puzzle

import (
	"encoding/json"
	"fmt"
)

// PublicInstance is what a solver may read of an instance (docs/formats.md,
// "The instance file"): the ID, grid, options, piece size and tab radius, the
// sheet layout, each piece ID's slot, and the hints the prompt states
// (revealed cells are part of the answer, but given away;
// docs/ambiguity-and-hints.md). It has no other field for the answer — no
// rows, columns, sides, edges or solution, and neither the seed nor the
// source hash, which together would regenerate the permutation (New) — and
// ReadPublicInstance decodes instance.json into a structure that lacks them,
// so a solver holding a PublicInstance cannot reach the rest of the answer.
type PublicInstance struct {
	Format  string
	ID      string
	Grid    int
	Options Options
	Piece   PieceInfo
	Layout  Layout
	// Slots[k] is the sheet slot of piece ID k: (k div N, k mod N).
	Slots []SlotPos
	// Hints are what the prompt states besides the sheet (nil for none).
	Hints *Hints
}

// publicFile is the part of instance.json that PublicInstance is read from.
// Unknown (and answer) fields are skipped by the decoder without being stored.
type publicFile struct {
	Format  string    `json:"format"`
	ID      string    `json:"id"`
	Grid    int       `json:"grid"`
	Options Options   `json:"options"`
	Piece   PieceInfo `json:"piece"`
	Layout  Layout    `json:"layout"`
	Hints   *Hints    `json:"hints"`
	Pieces  []struct {
		ID   int     `json:"id"`
		Slot SlotPos `json:"slot"`
	} `json:"pieces"`
}

// ReadPublicInstance reads the public fields of an instance.json file.
func ReadPublicInstance(path string) (*PublicInstance, error) {
	return readInstanceFile(path, ParsePublicInstance)
}

// ParsePublicInstance decodes the public fields of instance.json and checks
// that they describe a usable sheet.
func ParsePublicInstance(data []byte) (*PublicInstance, error) {
	data, err := instanceText(data)
	if err != nil {
		return nil, err
	}
	var f publicFile
	if err := json.Unmarshal(data, &f); err != nil {
		return nil, fmt.Errorf("not a valid instance.json: %w", err)
	}
	pub := &PublicInstance{
		Format: f.Format, ID: f.ID, Grid: f.Grid, Options: f.Options,
		Piece: f.Piece, Layout: f.Layout, Slots: make([]SlotPos, len(f.Pieces)), Hints: f.Hints,
	}
	for i, pc := range f.Pieces {
		if pc.ID != i {
			return nil, fmt.Errorf("not a valid instance.json: pieces[%d] has id %d; pieces must be listed in ID order", i, pc.ID)
		}
		pub.Slots[i] = pc.Slot
	}
	if err := pub.Check(); err != nil {
		return nil, fmt.Errorf("not a valid instance.json: %w", err)
	}
	return pub, nil
}

// Public returns the public part of a full instance.
func (inst *Instance) Public() *PublicInstance {
	pub := &PublicInstance{
		Format: inst.Format, ID: inst.ID, Grid: inst.Grid, Options: inst.Options,
		Piece: inst.Piece, Layout: inst.Layout, Slots: make([]SlotPos, len(inst.Pieces)), Hints: inst.Hints,
	}
	for i, pc := range inst.Pieces {
		pub.Slots[i] = pc.Slot
	}
	return pub
}

// Check reports the first inconsistency: wrong format, grid, piece list,
// slots, a layout whose slots cannot hold a piece, or malformed hints.
func (pub *PublicInstance) Check() error {
	if pub.Format != InstanceFormat {
		return fmt.Errorf("format is %q, want %q", pub.Format, InstanceFormat)
	}
	n := pub.Grid
	if err := ValidateGrid(n); err != nil {
		return err
	}
	if len(pub.Slots) != n*n {
		return fmt.Errorf("%d pieces for grid %d, want %d", len(pub.Slots), n, n*n)
	}
	for i, s := range pub.Slots {
		if s.Row != i/n || s.Col != i%n {
			return fmt.Errorf("piece %d is in slot (%d, %d), want (%d, %d)", i, s.Row, s.Col, i/n, i%n)
		}
	}
	if err := pub.Options.Validate(); err != nil {
		return err
	}
	p, l := pub.Piece, pub.Layout
	if p.Width < 1 || p.Height < 1 || p.TabRadius < 0 {
		return fmt.Errorf("piece size %d×%d (tab radius %d) is missing or invalid", p.Width, p.Height, p.TabRadius)
	}
	if l.SlotWidth < p.Width || l.SlotHeight < p.Height || l.CellOffsetX < 0 || l.CellOffsetY < 0 ||
		l.CellOffsetX+p.Width > l.SlotWidth || l.CellOffsetY+p.Height > l.SlotHeight {
		return fmt.Errorf("the layout's slots (%d×%d, cell at %d,%d) cannot hold %d×%d pieces",
			l.SlotWidth, l.SlotHeight, l.CellOffsetX, l.CellOffsetY, p.Width, p.Height)
	}
	if l.OriginX < 0 || l.OriginY < 0 || l.OriginX+n*l.SlotWidth > l.SheetWidth || l.OriginY+n*l.SlotHeight > l.SheetHeight {
		return fmt.Errorf("the layout's %d×%d slots do not fit its %d×%d sheet", n, n, l.SheetWidth, l.SheetHeight)
	}
	if pub.Hints != nil {
		return pub.Hints.check(n)
	}
	return nil
}
