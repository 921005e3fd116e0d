package puzzle

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/rng"
)

// Hints are what the prompt tells a model beyond the sheet, for the hint
// studies (docs/ambiguity-and-hints.md). They are public: a solver may read
// them, since the prompt states them.
type Hints struct {
	// Revealed are pieces given with their true cells, ascending by ID.
	Revealed []RevealedPiece `json:"revealed,omitempty"`
	// Similarity groups the piece IDs by colour: every ID in exactly one
	// group, each group ascending, groups ordered by their first ID.
	Similarity [][]int `json:"similarity,omitempty"`
}

// RevealedPiece is a piece whose cell the prompt gives away.
type RevealedPiece struct {
	ID  int `json:"id"`
	Row int `json:"row"`
	Col int `json:"col"`
}

// kmeansIterations is how many assignment-and-update rounds the colour
// grouping runs (it stops sooner once nothing moves, with the same result).
const kmeansIterations = 50

// drawReveal chooses k of the m pieces by a partial Fisher–Yates shuffle of
// the IDs 0..m-1: for i from 0 to k-1, swap i with i + drawBelow(m-i). The
// first k IDs, sorted, are the revealed pieces.
func drawReveal(r *rand.Rand, m, k int) []int {
	ids := make([]int, m)
	for i := range ids {
		ids[i] = i
	}
	for i := range k {
		j := i + int(rng.Below(r, uint64(m-i)))
		ids[i], ids[j] = ids[j], ids[i]
	}
	out := ids[:k:k]
	slices.Sort(out)
	return out
}

// GroupBySimilarity clusters the pieces by their colour features
// (features[id], vectors of one length) with k-means and sets p.Similarity.
// k is Options.SimilarityGroups(N); the seeding is k-means++ drawn from the
// instance's generator where New left it, then Lloyd rounds with Euclidean
// distances (ties go to the lower centre). Fewer groups come out when fewer
// than k pieces differ in colour.
func (p *Puzzle) GroupBySimilarity(features [][]float64) error {
	if p.hintState == nil {
		return fmt.Errorf("the puzzle was made without similarity hints")
	}
	if len(features) != p.N*p.N {
		return fmt.Errorf("%d feature vectors for %d pieces", len(features), p.N*p.N)
	}
	var pcg rand.PCG
	if err := pcg.UnmarshalBinary(p.hintState); err != nil {
		return err
	}
	assign := kmeans(rand.New(&pcg), features, p.Options.SimilarityGroups(p.N))
	p.Similarity = groupsOf(assign)
	return nil
}

// kmeans returns each point's cluster (0..k-1, some possibly unused).
func kmeans(r *rand.Rand, x [][]float64, k int) []int {
	m := len(x)
	k = min(k, m)
	centres := [][]float64{slices.Clone(x[rng.Below(r, uint64(m))])}
	// k-means++: each further centre is a point drawn with probability
	// proportional to its squared distance from the nearest centre so far,
	// walking the points in ID order.
	d2 := make([]float64, m)
	for i := range d2 {
		d2[i] = distance2(x[i], centres[0])
	}
	for len(centres) < k {
		total := 0.0
		for _, d := range d2 {
			total += d
		}
		if total == 0 {
			break // every point sits on a centre
		}
		u := float64(drawUnit(r) * total)
		pick, acc := -1, 0.0
		for i, d := range d2 {
			if d == 0 {
				continue
			}
			pick, acc = i, acc+d
			if acc > u {
				break
			}
		}
		c := slices.Clone(x[pick])
		centres = append(centres, c)
		for i := range d2 {
			d2[i] = min(d2[i], distance2(x[i], c))
		}
	}
	assign := make([]int, m)
	for i := range assign {
		assign[i] = -1
	}
	sums := make([]float64, len(x[0]))
	for range kmeansIterations {
		moved := false
		for i, xi := range x {
			best, bestD := 0, distance2(xi, centres[0])
			for c := 1; c < len(centres); c++ {
				if d := distance2(xi, centres[c]); d < bestD {
					best, bestD = c, d
				}
			}
			if assign[i] != best {
				assign[i], moved = best, true
			}
		}
		if !moved {
			break
		}
		for c := range centres {
			clear(sums)
			count := 0
			for i, xi := range x {
				if assign[i] != c {
					continue
				}
				count++
				for j, v := range xi {
					sums[j] += v
				}
			}
			if count == 0 {
				continue // an empty cluster keeps its centre
			}
			for j := range sums {
				centres[c][j] = sums[j] / float64(count)
			}
		}
	}
	return assign
}

// distance2 is the squared Euclidean distance; each square is rounded
// before it is added so no platform fuses the two.
func distance2(a, b []float64) float64 {
	s := 0.0
	for i := range a {
		d := a[i] - b[i]
		s += float64(d * d)
	}
	return s
}

// groupsOf turns cluster labels into groups of IDs, each ascending, ordered
// by their first ID, empty clusters dropped.
func groupsOf(assign []int) [][]int {
	index := map[int]int{}
	var groups [][]int
	for id, c := range assign {
		g, ok := index[c]
		if !ok {
			g = len(groups)
			index[c] = g
			groups = append(groups, nil)
		}
		groups[g] = append(groups[g], id)
	}
	return groups
}

// hints describes p's hints for instance.json, or nil without any.
func (p *Puzzle) hints() *Hints {
	if p.Revealed == nil && p.Similarity == nil {
		return nil
	}
	h := &Hints{Similarity: p.Similarity}
	for _, id := range p.Revealed {
		c := p.CellOf[id]
		h.Revealed = append(h.Revealed, RevealedPiece{ID: id, Row: c.Row, Col: c.Col})
	}
	return h
}

// RevealedIDs lists the revealed pieces' IDs (nil for no hints).
func (h *Hints) RevealedIDs() []int {
	if h == nil {
		return nil
	}
	ids := make([]int, len(h.Revealed))
	for i, rp := range h.Revealed {
		ids[i] = rp.ID
	}
	return ids
}

// check reports the first problem of hints for an n×n puzzle: revealed
// pieces out of range, repeated or off the grid; similarity groups that are
// not a partition of the IDs in the documented order.
func (h *Hints) check(n int) error {
	m := n * n
	if len(h.Revealed) >= m {
		return fmt.Errorf("hints reveal %d of %d pieces; at most %d may be", len(h.Revealed), m, m-1)
	}
	for i, rp := range h.Revealed {
		switch {
		case rp.ID < 0 || rp.ID >= m:
			return fmt.Errorf("hints reveal piece %d, not an ID 0–%d", rp.ID, m-1)
		case i > 0 && rp.ID <= h.Revealed[i-1].ID:
			return fmt.Errorf("hints reveal piece %d out of order or twice", rp.ID)
		case rp.Row < 0 || rp.Row >= n || rp.Col < 0 || rp.Col >= n:
			return fmt.Errorf("hints reveal piece %d at (%d, %d), outside the grid", rp.ID, rp.Row, rp.Col)
		}
	}
	if h.Similarity == nil {
		return nil
	}
	seen := make([]bool, m)
	count := 0
	for g, group := range h.Similarity {
		if len(group) == 0 {
			return fmt.Errorf("similarity group %d is empty", g)
		}
		if g > 0 && group[0] <= h.Similarity[g-1][0] {
			return fmt.Errorf("similarity groups are not ordered by their first ID")
		}
		for i, id := range group {
			if id < 0 || id >= m || seen[id] || i > 0 && id <= group[i-1] {
				return fmt.Errorf("similarity group %d lists %d, not a new ID 0–%d in ascending order", g, id, m-1)
			}
			seen[id] = true
			count++
		}
	}
	if count != m {
		return fmt.Errorf("similarity groups hold %d of the %d pieces", count, m)
	}
	return nil
}

// promptText is the prompt's paragraph on the hints ("" without any).
func (h *Hints) promptText() string {
	if h == nil {
		return ""
	}
	var b strings.Builder
	if len(h.Revealed) > 0 {
		b.WriteString("Some pieces are placed for you; these positions are correct (include them in your answer too):\n")
		for _, rp := range h.Revealed {
			fmt.Fprintf(&b, "Piece %d belongs at [%d, %d].\n", rp.ID, rp.Row, rp.Col)
		}
		b.WriteString("\n")
	}
	var groups [][]int
	for _, g := range h.Similarity {
		if len(g) > 1 {
			groups = append(groups, g)
		}
	}
	if len(groups) > 0 {
		b.WriteString("Pieces grouped by similar colours (a hint from colour histograms; pieces in one group need not be neighbours):\n")
		for _, g := range groups {
			ids := make([]string, len(g))
			for i, id := range g {
				ids[i] = strconv.Itoa(id)
			}
			fmt.Fprintf(&b, "Pieces %s look alike in colour.\n", strings.Join(ids, ", "))
		}
		b.WriteString("\n")
	}
	return b.String()
}
