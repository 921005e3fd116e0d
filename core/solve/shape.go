// Package solve holds the classical JigShape solvers (docs/cli.md, "solve").
//
// Shape mode (this file) reads only the pieces' side signatures: it finds a
// shape-consistent arrangement by backtracking with constraint propagation and
// counts exactly how many arrangements are shape-consistent. Content mode
// (content.go) reads the sheet image and the public fields of instance.json.
package solve

import (
	"errors"
	"fmt"
	"math/big"
	"math/rand/v2"
	"strings"

	"github.com/jigbench/jigbench/core/puzzle"
)

// Signatures and their position classes.
//
// A signature is a piece's four sides; its flat sides fix where it may go: two
// flat sides a corner, one a border, none the interior, and which sides are
// flat says which corner or border. Pieces never rotate, so a piece can only
// go to cells of its class, and within a class the free sides are tab or
// blank: 4 types per corner, 8 per border, 16 in the interior — 64 types.

// sigCode packs sides into 0–80 (base 3, top first).
func sigCode(s puzzle.Sides) int {
	return int(s[puzzle.Top]) + 3*int(s[puzzle.Right]) + 9*int(s[puzzle.Bottom]) + 27*int(s[puzzle.Left])
}

func sigSides(code int) puzzle.Sides {
	return puzzle.Sides{puzzle.Side(code % 3), puzzle.Side(code / 3 % 3), puzzle.Side(code / 9 % 3), puzzle.Side(code / 27)}
}

// cellFlats is the pattern of flat sides a cell at (r, c) of an n×n grid has.
func cellFlats(n, r, c int) [4]bool {
	return [4]bool{r == 0, c == n-1, r == n-1, c == 0}
}

func sigFlats(s puzzle.Sides) [4]bool {
	return [4]bool{s[0] == puzzle.Flat, s[1] == puzzle.Flat, s[2] == puzzle.Flat, s[3] == puzzle.Flat}
}

// opposite is the side that a neighbour's side must be to interlock with s.
func opposite(s puzzle.Side) puzzle.Side {
	switch s {
	case puzzle.Tab:
		return puzzle.Blank
	case puzzle.Blank:
		return puzzle.Tab
	}
	return puzzle.Flat
}

// ErrNoArrangement means the signatures admit no consistent arrangement.
var ErrNoArrangement = errors.New("the pieces' sides admit no shape-consistent arrangement")

// checkClasses verifies that every signature fits some cell and each class
// has as many pieces as cells, the necessary condition every search below
// relies on. It returns nil or an error naming the first mismatch.
func checkClasses(n int, sides []puzzle.Sides) error {
	if n < 2 {
		return fmt.Errorf("grid %d is too small", n)
	}
	if len(sides) != n*n {
		return fmt.Errorf("%d pieces for grid %d, want %d", len(sides), n, n*n)
	}
	need := map[[4]bool]int{}
	for r := 0; r < n; r++ {
		for c := 0; c < n; c++ {
			need[cellFlats(n, r, c)]++
		}
	}
	have := map[[4]bool]int{}
	for id, s := range sides {
		f := sigFlats(s)
		if need[f] == 0 {
			return fmt.Errorf("piece %d has sides %s, which fit no cell of a %d×%d grid: %w", id, sidesString(s), n, n, ErrNoArrangement)
		}
		have[f]++
	}
	for f, k := range need {
		if have[f] != k {
			return fmt.Errorf("%d pieces have the flat sides of %s, which has %d cells: %w", have[f], className(f), k, ErrNoArrangement)
		}
	}
	return nil
}

func className(f [4]bool) string {
	var parts []string
	for i, name := range []string{"top", "right", "bottom", "left"} {
		if f[i] {
			parts = append(parts, name)
		}
	}
	switch len(parts) {
	case 0:
		return "the interior"
	case 1:
		return "the " + parts[0] + " border"
	}
	return "the " + strings.Join(parts, "-") + " corner"
}

func sidesString(s puzzle.Sides) string {
	return fmt.Sprintf("%s/%s/%s/%s", s[0], s[1], s[2], s[3])
}

// search is a row-major backtracking search over signature layouts: each cell
// takes a signature type whose supply is not exhausted, whose top and left
// sides interlock with the cells already placed and whose flat sides match
// the cell's position. It counts layouts with memoisation of whole subtrees:
// two partial layouts with the same position, the same frontier (the bottom
// sides of the last row of cells and the right side of the cell to the left)
// and the same remaining supply have the same number of completions.
type search struct {
	n     int
	dense [81]int // signature code → index into supply, or -1
	codes []int   // index → signature code
	// supply[i] is how many pieces of type i are still unplaced.
	supply []int
	// bottom[c] is the bottom side of the last placed cell of column c;
	// right is the right side of the previous cell in the current row.
	bottom []puzzle.Side
	right  puzzle.Side
	// layout[pos] is the type placed at cell pos (while searching).
	layout []int

	// cap stops counting once this many layouts are found (limit+1).
	cap       uint64
	memo      map[string]uint64
	maxStates int
	wide      bool // supplies need two bytes in memo keys
	key       []byte

	// find mode: stop at the first complete layout and keep it.
	find  bool
	found []int
	// rng, when set, orders the candidates at random (find mode restarts);
	// guide, when set, is a layout whose choice is tried first (counting).
	rng   *rand.Rand
	guide []int
	// budget ends the search after that many nodes (0: no bound).
	budget int64

	cnt sideCounts // the unplaced pieces' sides, for the balance checks

	stop  bool   // set when the search must end (cap, state budget or first find)
	cause string // why it stopped early
	nodes int64
}

func newSearch(n int, sides []puzzle.Sides) *search {
	s := &search{n: n, bottom: make([]puzzle.Side, n), layout: make([]int, n*n)}
	for i := range s.dense {
		s.dense[i] = -1
	}
	for _, sd := range sides {
		code := sigCode(sd)
		if s.dense[code] < 0 {
			s.dense[code] = len(s.codes)
			s.codes = append(s.codes, code)
			s.supply = append(s.supply, 0)
		}
		s.supply[s.dense[code]]++
		if s.supply[s.dense[code]] > 255 {
			s.wide = true
		}
		s.cnt.add(sd, 1)
	}
	return s
}

// Groups of pieces for the balance checks: all pieces, those of the left and
// right columns (left or right side flat) and of the top and bottom rows.
const (
	gAll = iota
	gCol0
	gColLast
	gRow0
	gRowLast
)

// sideCounts[g][side][value] counts the unplaced pieces of group g (see
// the constants above) by the value of one side, for the balance checks.
type sideCounts [5][4][3]int32

// add adds d to the side counts of every group sd belongs to.
func (k *sideCounts) add(sd puzzle.Sides, d int32) {
	add := func(g int) {
		for side, v := range sd {
			k[g][side][v] += d
		}
	}
	add(gAll)
	if sd[puzzle.Left] == puzzle.Flat {
		add(gCol0)
	}
	if sd[puzzle.Right] == puzzle.Flat {
		add(gColLast)
	}
	if sd[puzzle.Top] == puzzle.Flat {
		add(gRow0)
	}
	if sd[puzzle.Bottom] == puzzle.Flat {
		add(gRowLast)
	}
}

// balanced checks the counting invariants of the unplaced pieces before
// cell pos of an n×n grid is filled row-major, bottom[j] being the bottom
// side of the last placed cell of column j and right the right side of the
// cell left of pos. Every column below the placed cells is a chain of
// pieces from its next cell down to the bottom row, each piece's top
// interlocking with the bottom above it; so among the unplaced pieces of a
// group of columns, #(top tab) − #(bottom blank) equals the number of those
// columns whose next cell must have a top tab, and likewise with tab and blank
// exchanged. The same holds for rows with left and right sides, where only
// the current row starts with a requirement. A partial layout that breaks one
// has no completion; the check costs O(N) and prunes most dead subtrees
// long before their last row.
func (k *sideCounts) balanced(n, pos int, bottom []puzzle.Side, right puzzle.Side) bool {
	r, c := pos/n, pos%n
	var req [3][3]int32 // [all, col0, colLast][value]
	for j := 0; j < n; j++ {
		nr := r
		if j < c {
			nr = r + 1
		}
		if nr == 0 || nr >= n {
			continue
		}
		v := opposite(bottom[j])
		req[0][v]++
		if j == 0 {
			req[1][v]++
		}
		if j == n-1 {
			req[2][v]++
		}
	}
	for i, g := range [3]int{gAll, gCol0, gColLast} {
		k := &k[g]
		if k[puzzle.Top][puzzle.Tab]-k[puzzle.Bottom][puzzle.Blank] != req[i][puzzle.Tab] ||
			k[puzzle.Top][puzzle.Blank]-k[puzzle.Bottom][puzzle.Tab] != req[i][puzzle.Blank] {
			return false
		}
	}
	var left [3]int32 // the current row's requirement on its next cell's left side
	if c > 0 && pos < n*n {
		left[opposite(right)] = 1
	}
	for _, g := range [3]int{gAll, gRow0, gRowLast} {
		want := left
		if g == gRow0 && r != 0 || g == gRowLast && r != n-1 {
			want = [3]int32{}
		}
		k := &k[g]
		if k[puzzle.Left][puzzle.Tab]-k[puzzle.Right][puzzle.Blank] != want[puzzle.Tab] ||
			k[puzzle.Left][puzzle.Blank]-k[puzzle.Right][puzzle.Tab] != want[puzzle.Blank] {
			return false
		}
	}
	return true
}

// fittingCodes lists the signature codes a piece may have at cell (r, c) of
// an n×n grid whose top and left sides its placed neighbours fix (flat on
// the boundary): the free right and bottom sides are tab or blank, or flat
// on the last column and row. It fills out and returns the used part.
func fittingCodes(n, r, c int, top, left puzzle.Side, out *[4]int) []int {
	k := 0
	for _, rs := range freeSides(c == n-1) {
		for _, bs := range freeSides(r == n-1) {
			out[k] = sigCode(puzzle.Sides{top, rs, bs, left})
			k++
		}
	}
	return out[:k]
}

var (
	flatOnly   = []puzzle.Side{puzzle.Flat}
	tabOrBlank = []puzzle.Side{puzzle.Tab, puzzle.Blank}
)

// freeSides are the values a side not yet fixed by a neighbour may take.
func freeSides(boundary bool) []puzzle.Side {
	if boundary {
		return flatOnly
	}
	return tabOrBlank
}

// candidates lists the signature codes that may go to cell (r, c) given its
// placed neighbours: at most four (the free right and bottom sides).
func (s *search) candidates(r, c int, out *[4]int) int {
	n := s.n
	top := puzzle.Flat
	if r > 0 {
		top = opposite(s.bottom[c])
	}
	left := puzzle.Flat
	if c > 0 {
		left = opposite(s.right)
	}
	k := 0
	for _, code := range fittingCodes(n, r, c, top, left, out) {
		if i := s.dense[code]; i >= 0 && s.supply[i] > 0 {
			out[k] = code
			k++
		}
	}
	switch {
	case s.rng != nil: // a restart's own order
		for a := k - 1; a > 0; a-- {
			b := int(s.rng.Uint64() % uint64(a+1))
			out[a], out[b] = out[b], out[a]
		}
	case s.guide != nil: // a known layout's choice first
		for a := 1; a < k; a++ {
			if out[a] == s.guide[r*n+c] {
				out[0], out[a] = out[a], out[0]
			}
		}
	}
	return k
}

// stateKey encodes the memo key of the search state at pos.
func (s *search) stateKey(pos int) []byte {
	k := s.key[:0]
	k = append(k, byte(pos), byte(pos>>8))
	var bits byte
	for c, b := range s.bottom {
		if b == puzzle.Tab {
			bits |= 1 << (c & 7)
		}
		if c&7 == 7 || c == len(s.bottom)-1 {
			k = append(k, bits)
			bits = 0
		}
	}
	if pos%s.n != 0 {
		k = append(k, byte(s.right))
	}
	for _, v := range s.supply {
		if s.wide {
			k = append(k, byte(v), byte(v>>8))
		} else {
			k = append(k, byte(v))
		}
	}
	s.key = k
	return k
}

// count returns the number of completions of the partial layout of cells
// 0..pos-1, saturated at s.cap; it sets s.stop when the search must end.
func (s *search) count(pos int) uint64 {
	n := s.n
	if pos == n*n {
		if s.find {
			s.found = append([]int(nil), s.layout...)
			s.stop, s.cause = true, "found"
		}
		return 1
	}
	s.nodes++
	if s.budget > 0 && s.nodes > s.budget {
		s.stop, s.cause = true, "budget"
		return 0
	}
	useMemo := s.memo != nil && pos > 0
	var key string
	if useMemo {
		key = string(s.stateKey(pos))
		if v, ok := s.memo[key]; ok && !(s.find && v > 0) {
			return v
		}
	}
	r, c := pos/n, pos%n
	var cand [4]int
	k := s.candidates(r, c, &cand)
	var total uint64
	savedBottom, savedRight := s.bottom[c], s.right
	for _, code := range cand[:k] {
		i := s.dense[code]
		sd := sigSides(code)
		s.supply[i]--
		s.cnt.add(sd, -1)
		s.bottom[c], s.right = sd[puzzle.Bottom], sd[puzzle.Right]
		s.layout[pos] = code
		var sub uint64
		if s.cnt.balanced(n, pos+1, s.bottom, s.right) {
			sub = s.count(pos + 1)
		}
		s.supply[i]++
		s.cnt.add(sd, 1)
		s.bottom[c], s.right = savedBottom, savedRight
		if sub >= s.cap-total {
			total = s.cap
		} else {
			total += sub
		}
		if s.stop {
			return total // a lower bound: every layout counted so far exists
		}
		if total >= s.cap {
			s.stop, s.cause = true, "limit"
			return total
		}
	}
	if useMemo {
		if len(s.memo) >= s.maxStates {
			s.stop, s.cause = true, "states"
			return total
		}
		s.memo[key] = total
	}
	return total
}

// SolveShape finds one arrangement of the pieces (sides indexed by piece ID)
// on an n×n grid in which every flat side lies on the boundary and every
// pair of neighbours interlocks. It returns pred[id] = cell index
// (row·n + col); pieces with the same signature are interchangeable for
// shape and fill that signature's cells in ID order.
//
// The search is the paper's classical baseline made robust: backtracking row
// by row over the signature types, candidates filtered first by their flat
// sides (corners, then borders, then the interior), then by the placed top
// and left neighbours, with the counting invariants of balanced propagated
// after every placement and dead states memoised. Chronological
// backtracking alone has heavy-tailed running times here (a bad choice in an
// early row is refuted only in the last ones), so it restarts with a fresh
// candidate order after a growing node budget (the Luby sequence, seeded,
// deterministic); dead states stay memoised across restarts. Even so a
// 64×64 can take minutes, so after quickFindNodes the search hands over to
// a local search over edge polarities (annealLayout), which finds a layout
// of any grid in well under a second, and only if that fails goes on
// backtracking to the end (which also proves that none exists).
func SolveShape(n int, sides []puzzle.Sides) ([]int, error) {
	layout, err := findLayout(n, sides, quickFindNodes)
	if errors.Is(err, errBudget) {
		if layout = annealLayout(n, sides, 1, annealFlips*4*n*n); layout == nil {
			layout, err = findLayout(n, sides, maxFindNodes)
		} else {
			err = nil
		}
	}
	if err != nil {
		return nil, err
	}
	return assignPieces(n, sides, layout), nil
}

// quickFindNodes bounds the backtracking before the local search takes over
// (a few tenths of a second); annealFlips is the local search's budget per edge.
const (
	quickFindNodes = 1 << 19
	annealFlips    = 5000
)

// errBudget means the search ran out of nodes without an answer.
var errBudget = errors.New("search budget exhausted")

// restartBase is the node budget of the shortest restart.
const restartBase = 2048

// maxFindNodes bounds the whole find over all restarts.
const maxFindNodes = 1 << 28

func findLayout(n int, sides []puzzle.Sides, maxNodes int64) ([]int, error) {
	if err := checkClasses(n, sides); err != nil {
		return nil, err
	}
	s := newSearch(n, sides)
	s.find = true
	s.cap = 2
	s.memo = map[string]uint64{}
	s.maxStates = 1 << 22
	rng := rand.New(rand.NewPCG(1, uint64(n)))
	var spent int64
	for i := 1; spent < maxNodes; i++ {
		if i > 1 {
			s.rng = rng
		}
		s.nodes, s.stop, s.cause = 0, false, ""
		s.budget = restartBase * luby(i)
		if len(s.memo) >= s.maxStates {
			clear(s.memo)
		}
		s.count(0)
		spent += s.nodes
		switch s.cause {
		case "found":
			return s.found, nil
		case "":
			return nil, ErrNoArrangement // the whole tree was searched
		}
	}
	return nil, fmt.Errorf("no shape-consistent arrangement found within %d search nodes: %w", maxNodes, errBudget)
}

// luby is the i-th term (from 1) of the Luby restart sequence 1 1 2 1 1 2 4 ….
func luby(i int) int64 {
	for k := 1; ; k++ {
		if i == 1<<k-1 {
			return 1 << (k - 1)
		}
		if i < 1<<k-1 {
			return luby(i - (1<<(k-1) - 1))
		}
	}
}

// assignPieces turns a signature layout into pred[id] = cell: the pieces of
// each signature, in ID order, take that signature's cells in row-major order.
func assignPieces(n int, sides []puzzle.Sides, layout []int) []int {
	byCode := map[int][]int{}
	for id, sd := range sides {
		code := sigCode(sd)
		byCode[code] = append(byCode[code], id)
	}
	pred := make([]int, n*n)
	for pos, code := range layout {
		ids := byCode[code]
		pred[ids[0]] = pos
		byCode[code] = ids[1:]
	}
	return pred
}

// CountOptions bound the exact count.
type CountOptions struct {
	// Limit is the most signature layouts counted; beyond it the count stops
	// and reports Limit as a lower bound. 0 means DefaultLimit.
	Limit uint64
	// MaxStates bounds the memo (each state costs ~100–200 bytes); reaching
	// it also ends the count with a lower bound. 0 means DefaultMaxStates.
	MaxStates int
}

// Defaults of CountOptions.
const (
	DefaultLimit     = 1_000_000
	DefaultMaxStates = 1 << 19
)

// Count is the number of shape-consistent arrangements of one instance.
type Count struct {
	// Layouts is the number of distinct signature layouts: assignments of a
	// signature to every cell that use each signature as often as there are
	// pieces with it and interlock everywhere. When LimitReached it is a
	// lower bound (the layouts counted before the search stopped).
	Layouts uint64
	// Permutations is ∏ m! over the signatures, m the number of pieces with
	// that signature: the ways to put the pieces on one signature layout.
	Permutations *big.Int
	// Arrangements = Layouts × Permutations: exact unless LimitReached, then
	// a lower bound.
	Arrangements *big.Int
	LimitReached bool
	// Stopped says why the count is incomplete: "limit" (Layouts reached
	// the limit) or "states" (the memo budget ran out); "" when exact.
	Stopped string
	// Signatures is the number of distinct signatures among the pieces.
	Signatures int
	// Repeated lists the signatures shared by more than one piece, with their
	// multiplicity, in signature order.
	Repeated []Multiplicity
}

// Multiplicity is a signature held by Count pieces.
type Multiplicity struct {
	Sides puzzle.Sides
	Count int
}

// CountShape counts the shape-consistent arrangements of the pieces exactly
// (sides indexed by piece ID): Layouts × ∏ m!. The layouts are counted by
// the row-major backtracking of SolveShape, memoised on (cell, frontier,
// remaining supply) so that subtrees reached by different partial layouts are
// counted once — a profile dynamic programme evaluated on demand. Counting
// stops at the limit (or the state budget) and then reports a lower bound.
func CountShape(n int, sides []puzzle.Sides, opt CountOptions) (Count, error) {
	if opt.Limit == 0 {
		opt.Limit = DefaultLimit
	}
	if opt.MaxStates <= 0 {
		opt.MaxStates = DefaultMaxStates
	}
	var out Count
	mult := map[int]int{}
	for _, sd := range sides {
		mult[sigCode(sd)]++
	}
	out.Signatures = len(mult)
	out.Permutations = big.NewInt(1)
	for code := range 81 {
		m := mult[code]
		if m > 1 {
			out.Repeated = append(out.Repeated, Multiplicity{sigSides(code), m})
		}
		for k := 2; k <= m; k++ {
			out.Permutations.Mul(out.Permutations, big.NewInt(int64(k)))
		}
	}
	if err := checkClasses(n, sides); err != nil {
		if errors.Is(err, ErrNoArrangement) {
			out.Arrangements = new(big.Int)
			return out, nil
		}
		return out, err
	}
	guide, err := findLayout(n, sides, quickFindNodes)
	if errors.Is(err, ErrNoArrangement) {
		out.Arrangements = new(big.Int)
		return out, nil
	}
	if guide == nil { // large grids: the local search finds one as SolveShape does
		guide = annealLayout(n, sides, 1, annealFlips*4*n*n)
	}
	s := newSearch(n, sides)
	s.guide = guide // nil if none was found in time: the count still runs
	s.cap = opt.Limit + 1
	if s.cap == 0 { // Limit was the largest uint64
		s.cap = opt.Limit
	}
	s.memo = map[string]uint64{}
	s.maxStates = opt.MaxStates
	total := s.count(0)
	switch {
	case s.cause == "limit":
		out.Layouts, out.LimitReached, out.Stopped = opt.Limit, true, "limit"
	case s.cause == "states":
		// The layouts counted before the memo budget ran out all exist, and
		// so does the guide: a stopped count is a lower bound, never a
		// verdict that there is no arrangement.
		out.Layouts, out.LimitReached, out.Stopped = min(total, opt.Limit), true, "states"
		if out.Layouts == 0 && guide != nil {
			out.Layouts = 1
		}
	default:
		out.Layouts = total
	}
	out.Arrangements = new(big.Int).Mul(new(big.Int).SetUint64(out.Layouts), out.Permutations)
	return out, nil
}
