package puzzle

import (
	"fmt"
	"strings"
)

// Conditions of the shape ablation.
const (
	ConditionShape = "shape" // tab-and-blank pieces (shape.png)
	ConditionRect  = "rect"  // straight cuts (rect.png)
)

// Prompt returns the model prompt for an N×N instance in the given condition.
func Prompt(n int, condition string) string { return PromptWithHints(n, condition, nil) }

// PromptWithHints is Prompt with a paragraph stating the hints (none when
// h is nil) before the answer format.
func PromptWithHints(n int, condition string, h *Hints) string {
	var b strings.Builder
	last := n*n - 1
	fmt.Fprintf(&b, "You are given an image of %d jigsaw puzzle pieces laid out in a %d×%d arrangement of slots. "+
		"Each piece carries a numeric label (its piece ID, 0 to %d).\n\n", n*n, n, n, last)
	b.WriteString("The IDs were assigned at random. Neither a piece's ID nor the slot it is shown in tells you " +
		"anything about where it belongs or what kind of piece it is.\n\n")
	fmt.Fprintf(&b, "Your task: reassemble the original picture on a %d×%d grid. Rows and columns are numbered "+
		"from 0 at the top-left corner to %d.\n\n", n, n, n-1)
	if condition == ConditionRect {
		b.WriteString("The pieces are plain rectangles: all have straight sides, so their outlines give no clue. " +
			"Only the picture itself helps: match colours, lines, textures and objects that continue across the " +
			"borders of neighbouring pieces.\n\n")
	} else {
		b.WriteString("The pieces interlock. Each side of a piece is flat, has a tab (a round knob that sticks out) " +
			"or a blank (a round notch cut in):\n" +
			"- Flat sides lie on the border of the finished puzzle. A piece with two flat sides is a corner; " +
			"a piece with one flat side lies on an edge; a piece with none is in the interior.\n" +
			"- Neighbouring pieces fit together: where one piece has a tab, its neighbour has a blank on the facing side.\n" +
			"Use both the shapes of the pieces and the picture content that continues across their borders.\n\n")
	}
	b.WriteString(h.promptText())
	b.WriteString("Answer with a single JSON object that maps every piece ID (as a string) to its 0-indexed " +
		"[row, col] position in the solved puzzle, for example:\n")
	fmt.Fprintf(&b, "{\"0\": [r, c], \"1\": [r, c], …, \"%d\": [r, c]}\n", last)
	fmt.Fprintf(&b, "Every ID from 0 to %d must appear exactly once, and every position exactly once.\n", last)
	return b.String()
}
