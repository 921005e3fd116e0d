// Package puzzle is the JigShape puzzle model: grid geometry, edge
// polarities, tab shapes, the ID permutation, the sheet layout, the
// instance.json format and the prompts. Everything here is a pure function of
// (source hash, grid, seed, options, image size); pixels live in core/render.
package puzzle

import (
	"fmt"
	"math"
)

// Tab styles.
const (
	StyleSemicircle = "semicircle" // a half-disk, as in the JigShape paper
	StyleClassic    = "classic"    // knob and neck from cubic Béziers, jittered per edge
)

// Limits of the generator.
const (
	MinGrid = 2
	MaxGrid = 64
	// MinPiecePixels is the smallest cell side that still shows a tab and a label.
	MinPiecePixels = 12
)

// Options are the generator settings besides grid and seed.
type Options struct {
	Size     int     `json:"size"`      // longer side of the output image, px
	TabStyle string  `json:"tab_style"` // StyleSemicircle or StyleClassic
	TabRatio float64 `json:"tab_ratio"` // tab size as a fraction of the shorter cell side

	// Hints for the hint studies (docs/ambiguity-and-hints.md); the zero
	// values give none and leave every output byte as without them.
	Reveal   int    `json:"reveal,omitempty"`   // pieces whose true cells the prompt states
	Hints    string `json:"hints,omitempty"`    // "" or HintsSimilarity
	Clusters int    `json:"clusters,omitempty"` // similarity groups; 0 means ⌈N/2⌉ for grid N
}

// HintsSimilarity groups pieces by colour in the prompt.
const HintsSimilarity = "similarity"

// DefaultOptions are the paper's settings.
func DefaultOptions() Options {
	return Options{Size: 1024, TabStyle: StyleSemicircle, TabRatio: 0.2}
}

// The tab ratio's range. MaxTabRatio keeps neighbouring tabs of one cell
// from overlapping: two half-disks on adjacent sides of a square cell touch
// at R = m/(2√2) ≈ 0.354m; the classic knob is wider than it is tall, so it
// gets less room (MaxClassicTabRatio).
const (
	MinTabRatio        = 0.05
	MaxTabRatio        = 0.33
	MaxClassicTabRatio = 0.25
)

// MaxTabRatioFor is the largest tab ratio of a tab style.
func MaxTabRatioFor(style string) float64 {
	if style == StyleClassic {
		return MaxClassicTabRatio
	}
	return MaxTabRatio
}

// Validate reports the first setting out of range.
func (o Options) Validate() error {
	switch o.TabStyle {
	case StyleSemicircle, StyleClassic:
	default:
		return fmt.Errorf("tab style %q is not one of %s, %s", o.TabStyle, StyleSemicircle, StyleClassic)
	}
	if o.Size < 64 || o.Size > 8192 {
		return fmt.Errorf("size %d is outside 64–8192 px", o.Size)
	}
	if math.IsNaN(o.TabRatio) || o.TabRatio < MinTabRatio || o.TabRatio > MaxTabRatioFor(o.TabStyle) {
		return fmt.Errorf("tab ratio %g is outside %g–%g for %s tabs", o.TabRatio, MinTabRatio, MaxTabRatioFor(o.TabStyle), o.TabStyle)
	}
	switch {
	case o.Hints != "" && o.Hints != HintsSimilarity:
		return fmt.Errorf("hints %q is not %s", o.Hints, HintsSimilarity)
	case o.Reveal < 0 || o.Reveal >= MaxGrid*MaxGrid:
		return fmt.Errorf("reveal %d is outside 0–%d", o.Reveal, MaxGrid*MaxGrid-1)
	case o.Clusters < 0 || o.Clusters > MaxGrid*MaxGrid:
		return fmt.Errorf("clusters %d is outside 1–%d", o.Clusters, MaxGrid*MaxGrid)
	case o.Clusters > 0 && o.Hints != HintsSimilarity:
		return fmt.Errorf("clusters %d needs similarity hints", o.Clusters)
	}
	return nil
}

// ValidateFor checks the settings that depend on the grid: fewer revealed
// pieces than there are pieces, at most one similarity group per piece.
func (o Options) ValidateFor(n int) error {
	if o.Reveal >= n*n {
		return fmt.Errorf("reveal %d leaves no piece to place in a %d×%d puzzle (at most %d)", o.Reveal, n, n, n*n-1)
	}
	if o.Clusters > n*n {
		return fmt.Errorf("clusters %d exceeds the %d pieces of a %d×%d puzzle", o.Clusters, n*n, n, n)
	}
	return nil
}

// SimilarityGroups is the number of colour groups asked for at grid n.
func (o Options) SimilarityGroups(n int) int {
	if o.Clusters > 0 {
		return o.Clusters
	}
	return (n + 1) / 2
}

// ValidateGrid reports whether n is a supported grid size.
func ValidateGrid(n int) error {
	if n < MinGrid || n > MaxGrid {
		return fmt.Errorf("grid %d is outside %d–%d", n, MinGrid, MaxGrid)
	}
	return nil
}
