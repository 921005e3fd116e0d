package score

import (
	"errors"
	"fmt"

	"github.com/jigbench/jigbench/core/puzzle"
)

const maxGrid = puzzle.MaxGrid

// Answer is one instance's parsed prediction (docs/formats.md, "Answers and predictions"), ready for
// Score: Cells[k] is piece k's predicted cell index row*N+col, or Missing.
type Answer struct {
	Cells []int
	// Unknown counts the entries that name no piece of this puzzle (an ID
	// outside 0..N²-1, or a key that is not an ID but holds a position); they
	// are ignored.
	Unknown int
	// BadPositions counts the pieces whose (last) position is off the grid or
	// not a pair of integers; those pieces are Missing.
	BadPositions int
}

// Placed is the number of pieces with a predicted cell.
func (a Answer) Placed() int {
	k := 0
	for _, c := range a.Cells {
		if c >= 0 {
			k++
		}
	}
	return k
}

// MaxAnswerBytes bounds one answer (a file, a response string).
const MaxAnswerBytes = 16 << 20

// Reasons an answer is invalid.
var (
	ErrEmptyAnswer    = errors.New("the answer is empty")
	ErrAnswerTooLarge = fmt.Errorf("the answer is larger than %d MB", MaxAnswerBytes>>20)
	ErrNoJSON         = errors.New("no JSON object or list in the answer")
	ErrNoPositions    = errors.New("no JSON in the answer maps piece IDs to positions")
	ErrTangled        = errors.New("the answer is too tangled to search for JSON (gave up)")
)

// ParseAnswer reads the answer to an n×n puzzle: a JSON value in any form of
// docs/formats.md, "Answers and predictions", or raw model text that contains one (in ``` fences or with
// prose around it; the last candidate that is a prediction wins). An error
// means the answer is invalid; its text is the reason.
func ParseAnswer(data []byte, n int) (Answer, error) {
	var r AnswerReader
	return r.Parse(data, n)
}

// AnswerReader parses answers, reusing its buffers; one per goroutine.
type AnswerReader struct {
	parsers []*jparser // one per level of answer-text nesting
	n       int
	cells   []int
	unknown int
	spans   [maxTextNesting][][2]int // candidate spans, per nesting level
	skip    []uint64
	marks   []int32
}

// badCell marks, while parsing, a piece whose last position was unusable.
const badCell = -2

// maxTextNesting bounds answers inside JSON strings inside answers.
const maxTextNesting = 3

// Parse is ParseAnswer with reused buffers.
func (r *AnswerReader) Parse(data []byte, n int) (Answer, error) {
	if n < 1 || n > maxGrid {
		return Answer{}, fmt.Errorf("grid %d is out of range", n)
	}
	r.reset(n)
	if err := r.fromText(data, 0); err != nil {
		return Answer{}, err
	}
	return r.finish(), nil
}

func (r *AnswerReader) reset(n int) {
	r.n = n
	r.cells = make([]int, n*n)
	for i := range r.cells {
		r.cells[i] = Missing
	}
	r.unknown = 0
}

func (r *AnswerReader) finish() Answer {
	a := Answer{Cells: r.cells, Unknown: r.unknown}
	for k, c := range a.Cells {
		if c == badCell {
			a.Cells[k] = Missing
			a.BadPositions++
		}
	}
	r.cells = nil
	return a
}

func (r *AnswerReader) parser(level int) *jparser {
	for len(r.parsers) <= level {
		r.parsers = append(r.parsers, &jparser{lenient: true})
	}
	return r.parsers[level]
}

// fromText finds the prediction in raw text.
func (r *AnswerReader) fromText(data []byte, level int) error {
	if len(data) > MaxAnswerBytes {
		return ErrAnswerTooLarge
	}
	data = trimSpace(data)
	if len(data) == 0 {
		return ErrEmptyAnswer
	}
	if level >= maxTextNesting {
		return ErrNoPositions
	}
	p := r.parser(level)
	// The common case: the whole text is one value.
	if c := data[0]; c == '{' || c == '[' {
		if root, err := p.parseAll(data); err == nil {
			if r.value(p, root, 0, level) {
				return nil
			}
			return ErrNoPositions
		}
	}
	return r.scan(p, data, level)
}

// scan tries a parse at every '{' and '[' of text, left to right; a value
// that parses is a candidate and the scan resumes after it. The last
// candidate that reads as a prediction wins.
//
// Work is bounded: when a parse fails, every container it had opened would
// fail at the same byte, so those starts are skipped; and the bytes examined
// over all attempts are capped at a multiple of the text's length.
func (r *AnswerReader) scan(p *jparser, text []byte, level int) error {
	spans := r.spans[level][:0]
	budget := 8*len(text) + 1<<20
	if len(r.skip) < (len(text)+63)/64 {
		r.skip = make([]uint64, (len(text)+63)/64)
	} else {
		clear(r.skip[:(len(text)+63)/64])
	}
	skip := r.skip
	brackets := false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if c != '{' && c != '[' {
			continue
		}
		brackets = true
		if skip[i>>6]&(1<<(i&63)) != 0 {
			continue
		}
		_, end, err := p.parse(text, i)
		budget -= end - i + 1
		if budget < 0 {
			r.spans[level] = spans
			return ErrTangled
		}
		if err == nil {
			spans = append(spans, [2]int{i, end})
			i = end - 1
			continue
		}
		for _, o := range p.open {
			skip[o>>6] |= 1 << (o & 63)
		}
	}
	r.spans[level] = spans
	if !brackets {
		return ErrNoJSON
	}
	if len(spans) == 0 {
		return fmt.Errorf("no well-formed JSON in the answer: %w", ErrNoPositions)
	}
	// Interpreting may parse strings as nested text, with the next level's
	// parser and spans.
	for k := len(spans) - 1; k >= 0; k-- {
		s := spans[k]
		root, _, err := p.parse(text[:s[1]], s[0])
		if err != nil {
			continue // cannot happen: it parsed before
		}
		if r.value(p, root, 0, level) {
			return nil
		}
	}
	return ErrNoPositions
}

// Key classes, looked up after normalising a key (lower case, without
// '_', '-' and spaces).
type keyClass uint8

const (
	keyOther   keyClass = iota
	keyWrapper          // holds the prediction: {"mapping": {…}}
	keyPieceID          // names the piece in a list entry
	keyPos              // a list entry's position
	keyRow
	keyCol
)

var keyClasses = map[string]keyClass{
	"mapping": keyWrapper, "map": keyWrapper, "positions": keyWrapper, "solution": keyWrapper,
	"answer": keyWrapper, "finalanswer": keyWrapper, "prediction": keyWrapper,
	"predictions": keyWrapper, "predictedpositions": keyWrapper, "placements": keyWrapper,
	"placement": keyWrapper, "assignment": keyWrapper, "assignments": keyWrapper,
	"arrangement": keyWrapper, "result": keyWrapper, "output": keyWrapper, "pieces": keyWrapper,
	"response": keyWrapper, "content": keyWrapper, "text": keyWrapper,

	"pieceid": keyPieceID, "id": keyPieceID, "piece": keyPieceID, "piecenumber": keyPieceID,
	"pieceindex": keyPieceID, "pieceno": keyPieceID, "label": keyPieceID,

	"position": keyPos, "pos": keyPos, "cell": keyPos, "location": keyPos, "loc": keyPos,
	"coords": keyPos, "coordinates": keyPos, "target": keyPos, "predictedposition": keyPos,
	"gridposition": keyPos, "rowcol": keyPos,

	"row": keyRow, "r": keyRow, "col": keyCol, "column": keyCol, "c": keyCol,
}

// classify normalises key node k and looks it up.
func classify(p *jparser, k int32) keyClass {
	b := p.raw(k)
	if p.nodes[k].esc || len(b) > 24 {
		if len(b) > 24*6 {
			return keyOther
		}
		b = []byte(unescape(b))
		if len(b) > 24 {
			return keyOther
		}
	}
	var buf [24]byte
	return keyClasses[string(foldKey(&buf, b))]
}

// foldKey writes key b (at most 24 bytes) into buf lower-cased and without
// '_', '-' and ' ', so "Piece_ID", "piece-id" and "pieceid" are one name.
func foldKey(buf *[24]byte, b []byte) []byte {
	n := 0
	for _, c := range b {
		switch {
		case c == '_' || c == '-' || c == ' ':
			continue
		case c >= 'A' && c <= 'Z':
			c += 'a' - 'A'
		}
		buf[n] = c
		n++
	}
	return buf[:n]
}

// pieceKey reads a piece ID from a key or string: "17", 17, " 17 ",
// "piece 17", "Piece_17", "p17", "id:17", "#17". ok is false when it is not
// an integer at all; the ID may still be out of range.
func pieceKey(p *jparser, k int32) (int, bool) {
	b := p.raw(k)
	if len(b) > 0 && b[0] >= '0' && b[0] <= '9' && !p.nodes[k].esc {
		if v, ok := parseInt(b); ok {
			return v, true
		}
	}
	if p.nodes[k].esc {
		if len(b) > 256 {
			return 0, false
		}
		b = []byte(unescape(b))
	}
	b = trimSpace(b)
	for _, prefix := range [...]string{"piece", "id", "p", ""} {
		if len(b) < len(prefix) || !equalFold(b[:len(prefix)], prefix) {
			continue
		}
		rest := b[len(prefix):]
		if prefix != "" {
			for len(rest) > 0 && (rest[0] == ' ' || rest[0] == '_' || rest[0] == '-' || rest[0] == '#' || rest[0] == ':') {
				rest = rest[1:]
			}
		}
		if prefix == "" && len(rest) > 0 && rest[0] == '#' {
			rest = rest[1:]
		}
		if v, ok := parseInt(rest); ok {
			return v, true
		}
	}
	return 0, false
}

func equalFold(b []byte, s string) bool {
	for i := range len(s) {
		c := b[i]
		if c >= 'A' && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != s[i] {
			return false
		}
	}
	return true
}

func isContainer(p *jparser, i int32) bool {
	k := p.nodes[i].kind
	return k == vObject || k == vArray
}

// value reads node i of p as a prediction. It writes into r only when it
// recognises one, and reports whether it did.
func (r *AnswerReader) value(p *jparser, i int32, depth, level int) bool {
	if depth > jsonMaxDepth {
		return false
	}
	switch p.nodes[i].kind {
	case vObject:
		return r.object(p, i, depth, level)
	case vArray:
		return r.array(p, i, depth, level)
	case vString:
		// A prediction written as a string, e.g. {"answer": "```json {…}```"}.
		return r.fromText([]byte(p.text(i)), level+1) == nil
	}
	return false
}

// object reads {"<id>": position, …}, or a wrapper around a prediction.
func (r *AnswerReader) object(p *jparser, i int32, depth, level int) bool {
	isMapping := false
	p.pairs(i, func(k, v int32) bool {
		if _, ok := pieceKey(p, k); ok && isContainer(p, v) {
			isMapping = true
			return false
		}
		return true
	})
	if isMapping {
		m := r.n * r.n
		p.pairs(i, func(k, v int32) bool {
			id, ok := pieceKey(p, k)
			switch {
			case !ok:
				if isContainer(p, v) {
					r.unknown++
				}
			case id < 0 || id >= m:
				r.unknown++
			default:
				r.set(id, r.position(p, v))
			}
			return true
		})
		return true
	}
	// A wrapper: the known names first, then any key holding a container;
	// later keys before earlier ones, as the last candidate wins.
	mark := len(r.marks)
	p.pairs(i, func(k, v int32) bool {
		if classify(p, k) == keyWrapper && (isContainer(p, v) || p.nodes[v].kind == vString) {
			r.marks = append(r.marks, v)
		}
		return true
	})
	if r.tryMarks(p, mark, depth, level) {
		return true
	}
	p.pairs(i, func(k, v int32) bool {
		if classify(p, k) != keyWrapper && isContainer(p, v) {
			r.marks = append(r.marks, v)
		}
		return true
	})
	return r.tryMarks(p, mark, depth, level)
}

// tryMarks reads the candidates r.marks[mark:] from the last to the first
// (the last candidate wins) until one holds a prediction, and drops them.
func (r *AnswerReader) tryMarks(p *jparser, mark, depth, level int) bool {
	ok := false
	for j := len(r.marks) - 1; j >= mark && !ok; j-- {
		ok = r.value(p, r.marks[j], depth+1, level)
	}
	r.marks = r.marks[:mark]
	return ok
}

// array reads [{"piece_id": k, "position": [r, c]}, …], or a list whose
// last prediction-shaped element wins.
func (r *AnswerReader) array(p *jparser, i int32, depth, level int) bool {
	entries := false
	p.children(i, func(c int32) bool {
		if _, _, ok := r.entry(p, c); ok {
			entries = true
			return false
		}
		return true
	})
	if entries {
		m := r.n * r.n
		p.children(i, func(c int32) bool {
			id, cell, ok := r.entry(p, c)
			switch {
			case !ok:
				if isContainer(p, c) {
					r.unknown++
				}
			case id < 0 || id >= m:
				r.unknown++
			default:
				r.set(id, cell)
			}
			return true
		})
		return true
	}
	mark := len(r.marks)
	p.children(i, func(c int32) bool {
		if p.nodes[c].kind == vObject {
			r.marks = append(r.marks, c)
		}
		return true
	})
	return r.tryMarks(p, mark, depth, level)
}

// entry reads one list element {"piece_id": k, "position": [r, c]} (or
// "id"/"piece", and "row"/"col" instead of a position). ok is false when c
// is not such an element; an unusable position gives cell badCell. Repeated
// keys: the last counts.
func (r *AnswerReader) entry(p *jparser, c int32) (id, cell int, ok bool) {
	if p.nodes[c].kind != vObject {
		return 0, 0, false
	}
	idNode, posNode, rowNode, colNode := int32(-1), int32(-1), int32(-1), int32(-1)
	p.pairs(c, func(k, v int32) bool {
		switch classify(p, k) {
		case keyPieceID:
			idNode = v
		case keyPos:
			posNode = v
		case keyRow:
			rowNode = v
		case keyCol:
			colNode = v
		}
		return true
	})
	if idNode < 0 || posNode < 0 && (rowNode < 0 || colNode < 0) {
		return 0, 0, false
	}
	switch p.nodes[idNode].kind {
	case vNumber:
		id, ok = parseInt(p.raw(idNode))
	case vString:
		id, ok = pieceKey(p, idNode)
	}
	if !ok {
		return 0, 0, false
	}
	if posNode >= 0 {
		return id, r.position(p, posNode), true
	}
	return id, r.rowCol(p, rowNode, colNode), true
}

// position reads [r, c] or {"row": r, "col": c}; badCell when unusable.
func (r *AnswerReader) position(p *jparser, v int32) int {
	switch p.nodes[v].kind {
	case vArray:
		a := p.nodes[v].first
		if a < 0 {
			return badCell
		}
		b := p.nodes[a].next
		if b < 0 || p.nodes[b].next >= 0 {
			return badCell
		}
		return r.rowCol(p, a, b)
	case vObject:
		row, col := int32(-1), int32(-1)
		p.pairs(v, func(k, x int32) bool {
			switch classify(p, k) {
			case keyRow:
				row = x
			case keyCol:
				col = x
			}
			return true
		})
		if row < 0 || col < 0 {
			return badCell
		}
		return r.rowCol(p, row, col)
	}
	return badCell
}

func (r *AnswerReader) rowCol(p *jparser, a, b int32) int {
	row, ok1 := p.intValue(a)
	col, ok2 := p.intValue(b)
	if !ok1 || !ok2 || row < 0 || col < 0 || row >= r.n || col >= r.n {
		return badCell
	}
	return row*r.n + col
}

// set records piece id's position; a later entry for the same piece replaces
// an earlier one.
func (r *AnswerReader) set(id, cell int) { r.cells[id] = cell }
