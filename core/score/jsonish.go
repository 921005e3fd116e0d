package score

import (
	"fmt"
	"unicode/utf16"
	"unicode/utf8"
)

// A small JSON parser for model answers. It exists for three reasons that
// encoding/json cannot meet: it keeps object keys in document order (so "the
// last occurrence of a key counts" is well defined even when two spellings
// name one piece, "3" and 3); in lenient mode it accepts what chat models
// write besides JSON (unquoted number or word keys, single quotes, trailing
// commas, Python's True/False/None and tuples); and it bounds its work —
// nesting depth and node count — so hostile input costs linear time and
// bounded memory. The tree is a flat slice of nodes reused between parses.

type vkind uint8

const (
	vNull vkind = iota
	vBool
	vNumber
	vString
	vArray
	vObject
)

// jnode is one value. Containers link their children through first/next;
// an object's children alternate key, value.
type jnode struct {
	kind       vkind
	esc        bool  // string: contains a backslash escape
	quote      byte  // string: '"', '\'' or 0 for a bare word or number key
	start, end int32 // scalars: the literal (strings without their quotes); containers: the brackets
	first      int32 // containers: first child, -1 if empty
	next       int32 // next sibling, -1 if last
}

// Parser limits.
const (
	jsonMaxDepth = 64      // deeper values are refused (a prediction needs about 5)
	jsonMaxNodes = 1 << 19 // 12 MB of nodes; a 64×64 answer needs 20,000–120,000
)

// jsonError is a syntax error at a byte offset.
type jsonError struct {
	msg string
	pos int
}

func (e *jsonError) Error() string { return fmt.Sprintf("%s at byte %d", e.msg, e.pos+1) }

type jparser struct {
	src     []byte
	pos     int
	nodes   []jnode
	depth   int
	lenient bool
	open    []int32 // start offsets of the containers being parsed
	err     jsonError
}

// parse parses one value starting at src[from] and returns its node (the
// tree replaces any earlier one) and the offset just after it. Leading white
// space is skipped; trailing bytes are the caller's business.
func (p *jparser) parse(src []byte, from int) (root int32, end int, err error) {
	p.src, p.pos, p.depth = src, from, 0
	p.nodes = p.nodes[:0]
	p.open = p.open[:0]
	root, ok := p.value()
	if !ok {
		return -1, p.err.pos, &p.err
	}
	return root, p.pos, nil
}

// parseAll parses src as exactly one value (surrounded by white space).
func (p *jparser) parseAll(src []byte) (int32, error) {
	root, end, err := p.parse(src, 0)
	if err != nil {
		return -1, err
	}
	p.pos = end
	p.ws()
	if p.pos < len(src) {
		return -1, p.fail("unexpected text after the value")
	}
	return root, nil
}

func (p *jparser) fail(msg string) error {
	p.err = jsonError{msg: msg, pos: p.pos}
	return &p.err
}

func (p *jparser) ws() {
	for p.pos < len(p.src) {
		switch p.src[p.pos] {
		case ' ', '\t', '\n', '\r':
			p.pos++
		default:
			return
		}
	}
}

func (p *jparser) add(n jnode) (int32, bool) {
	if len(p.nodes) >= jsonMaxNodes {
		p.fail("too many values")
		return -1, false
	}
	n.first, n.next = -1, -1
	p.nodes = append(p.nodes, n)
	return int32(len(p.nodes) - 1), true
}

func (p *jparser) value() (int32, bool) {
	p.ws()
	if p.pos >= len(p.src) {
		p.fail("unexpected end of input")
		return -1, false
	}
	switch c := p.src[p.pos]; {
	case c == '{':
		return p.container(vObject, '}')
	case c == '[':
		return p.container(vArray, ']')
	case c == '(' && p.lenient:
		return p.container(vArray, ')')
	case c == '"' || c == '\'' && p.lenient:
		return p.str(c)
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	default:
		return p.literal()
	}
}

func (p *jparser) container(kind vkind, closer byte) (int32, bool) {
	if p.depth >= jsonMaxDepth {
		p.fail("nested too deeply")
		return -1, false
	}
	idx, ok := p.add(jnode{kind: kind, start: int32(p.pos)})
	if !ok {
		return -1, false
	}
	p.open = append(p.open, int32(p.pos))
	p.depth++
	p.pos++
	last := int32(-1)
	link := func(c int32) {
		if last < 0 {
			p.nodes[idx].first = c
		} else {
			p.nodes[last].next = c
		}
		last = c
	}
	for count := 0; ; count++ {
		p.ws()
		if p.pos >= len(p.src) {
			p.fail("unexpected end of input")
			return -1, false
		}
		if p.src[p.pos] == closer {
			p.pos++
			break
		}
		if count > 0 {
			if p.src[p.pos] != ',' {
				p.fail(fmt.Sprintf("expected ',' or '%c'", closer))
				return -1, false
			}
			p.pos++
			p.ws()
			if p.lenient && p.pos < len(p.src) && p.src[p.pos] == closer {
				p.pos++ // a trailing comma
				break
			}
		}
		if kind == vObject {
			k, ok := p.key()
			if !ok {
				return -1, false
			}
			link(k)
			p.ws()
			if p.pos >= len(p.src) || p.src[p.pos] != ':' {
				p.fail("expected ':' after an object key")
				return -1, false
			}
			p.pos++
		}
		v, ok := p.value()
		if !ok {
			return -1, false
		}
		link(v)
	}
	p.nodes[idx].end = int32(p.pos)
	p.depth--
	p.open = p.open[:len(p.open)-1]
	return idx, true
}

// key reads an object key: a string, or in lenient mode a number or a word.
func (p *jparser) key() (int32, bool) {
	p.ws()
	if p.pos >= len(p.src) {
		p.fail("unexpected end of input")
		return -1, false
	}
	c := p.src[p.pos]
	if c == '"' || c == '\'' && p.lenient {
		return p.str(c)
	}
	if !p.lenient {
		p.fail("expected a string key")
		return -1, false
	}
	start := p.pos
	if c == '-' || c >= '0' && c <= '9' {
		n, ok := p.number()
		if ok {
			p.nodes[n].kind = vString // a number key is its digits
		}
		return n, ok
	}
	for p.pos < len(p.src) && isWordByte(p.src[p.pos]) {
		p.pos++
	}
	if p.pos == start {
		p.fail("expected an object key")
		return -1, false
	}
	return p.add(jnode{kind: vString, start: int32(start), end: int32(p.pos)})
}

func isWordByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func (p *jparser) str(quote byte) (int32, bool) {
	p.pos++
	start := p.pos
	esc := false
	for {
		if p.pos >= len(p.src) {
			p.fail("unterminated string")
			return -1, false
		}
		c := p.src[p.pos]
		switch {
		case c == quote:
			n, ok := p.add(jnode{kind: vString, esc: esc, quote: quote, start: int32(start), end: int32(p.pos)})
			p.pos++
			return n, ok
		case c == '\\':
			esc = true
			if p.pos+1 >= len(p.src) {
				p.pos++
				p.fail("unterminated string")
				return -1, false
			}
			switch p.src[p.pos+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.pos += 2
			case 'u':
				if p.pos+6 > len(p.src) || !isHex4(p.src[p.pos+2:p.pos+6]) {
					p.fail(`bad \u escape`)
					return -1, false
				}
				p.pos += 6
			default:
				if !p.lenient {
					p.fail("bad escape")
					return -1, false
				}
				p.pos += 2 // \' and friends: the character itself
			}
		case c < 0x20 && !p.lenient:
			p.fail("control character in string")
			return -1, false
		default:
			p.pos++
		}
	}
}

func isHex4(b []byte) bool {
	for _, c := range b[:4] {
		if !(c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F') {
			return false
		}
	}
	return true
}

// number reads a JSON number literal (RFC 8259 grammar).
func (p *jparser) number() (int32, bool) {
	start := p.pos
	s := p.src
	if p.pos < len(s) && s[p.pos] == '-' {
		p.pos++
	}
	digits := func() int {
		d := p.pos
		for p.pos < len(s) && s[p.pos] >= '0' && s[p.pos] <= '9' {
			p.pos++
		}
		return p.pos - d
	}
	if p.pos < len(s) && s[p.pos] == '0' {
		p.pos++
	} else if digits() == 0 {
		p.fail("bad number")
		return -1, false
	}
	if p.pos < len(s) && s[p.pos] == '.' {
		p.pos++
		if digits() == 0 {
			p.fail("bad number")
			return -1, false
		}
	}
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E') {
		p.pos++
		if p.pos < len(s) && (s[p.pos] == '+' || s[p.pos] == '-') {
			p.pos++
		}
		if digits() == 0 {
			p.fail("bad number")
			return -1, false
		}
	}
	return p.add(jnode{kind: vNumber, start: int32(start), end: int32(p.pos)})
}

func (p *jparser) literal() (int32, bool) {
	rest := p.src[p.pos:]
	for _, l := range [...]struct {
		word    string
		kind    vkind
		lenient bool
	}{{"true", vBool, false}, {"false", vBool, false}, {"null", vNull, false},
		{"True", vBool, true}, {"False", vBool, true}, {"None", vNull, true}} {
		if (p.lenient || !l.lenient) && len(rest) >= len(l.word) && string(rest[:len(l.word)]) == l.word {
			start := p.pos
			p.pos += len(l.word)
			return p.add(jnode{kind: l.kind, start: int32(start), end: int32(p.pos)})
		}
	}
	if r, _ := utf8.DecodeRune(rest); r != utf8.RuneError {
		p.fail(fmt.Sprintf("unexpected %q", r))
	} else {
		p.fail("unexpected byte")
	}
	return -1, false
}

// raw is a node's literal bytes (a string's without quotes or decoding).
func (p *jparser) raw(i int32) []byte { n := &p.nodes[i]; return p.src[n.start:n.end] }

// text decodes a string node (or returns any scalar's literal). As in
// encoding/json, each byte of invalid UTF-8 becomes U+FFFD.
func (p *jparser) text(i int32) string {
	n := &p.nodes[i]
	var s string
	if n.kind != vString || !n.esc {
		s = string(p.raw(i))
	} else {
		s = unescape(p.raw(i))
	}
	if !utf8.ValidString(s) {
		b := make([]byte, 0, len(s)+8)
		for _, r := range s { // ranging over a string yields RuneError per bad byte
			b = utf8.AppendRune(b, r)
		}
		s = string(b)
	}
	return s
}

// unescape decodes the backslash escapes of a string literal validated by
// str. Unpaired surrogates become U+FFFD.
func unescape(b []byte) string {
	out := make([]byte, 0, len(b))
	for i := 0; i < len(b); i++ {
		c := b[i]
		if c != '\\' || i+1 >= len(b) {
			out = append(out, c)
			continue
		}
		i++
		switch b[i] {
		case 'b':
			out = append(out, '\b')
		case 'f':
			out = append(out, '\f')
		case 'n':
			out = append(out, '\n')
		case 'r':
			out = append(out, '\r')
		case 't':
			out = append(out, '\t')
		case 'u':
			r := rune(hex4(b[i+1:]))
			i += 4
			if utf16.IsSurrogate(r) {
				if i+6 < len(b) && b[i+1] == '\\' && b[i+2] == 'u' && isHex4(b[i+3:]) {
					r2 := rune(hex4(b[i+3:]))
					if d := utf16.DecodeRune(r, r2); d != utf8.RuneError {
						r = d
						i += 6
					} else {
						r = utf8.RuneError
					}
				} else {
					r = utf8.RuneError
				}
			}
			out = utf8.AppendRune(out, r)
		default:
			out = append(out, b[i]) // \" \\ \/ and, leniently, anything else
		}
	}
	return string(out)
}

func hex4(b []byte) int {
	v := 0
	for _, c := range b[:4] {
		v <<= 4
		switch {
		case c >= '0' && c <= '9':
			v |= int(c - '0')
		case c >= 'a' && c <= 'f':
			v |= int(c-'a') + 10
		default:
			v |= int(c-'A') + 10
		}
	}
	return v
}

// children calls f for each child of container i, in document order, until
// f returns false.
func (p *jparser) children(i int32, f func(c int32) bool) {
	for c := p.nodes[i].first; c >= 0; c = p.nodes[c].next {
		if !f(c) {
			return
		}
	}
}

// pairs calls f for each key and value of object i, in document order.
func (p *jparser) pairs(i int32, f func(k, v int32) bool) {
	for k := p.nodes[i].first; k >= 0; {
		v := p.nodes[k].next
		if v < 0 || !f(k, v) {
			return
		}
		k = p.nodes[v].next
	}
}

// intValue reads an integer from a number node or a string holding one
// (" 3 ", "3.0" and "3e0" included). ok is false for anything that is not an
// integer or does not fit in 32 bits.
func (p *jparser) intValue(i int32) (int, bool) {
	n := &p.nodes[i]
	switch n.kind {
	case vNumber:
		return parseInt(p.raw(i))
	case vString:
		b := p.raw(i)
		if n.esc {
			b = []byte(unescape(b))
		}
		return parseInt(trimSpace(b))
	}
	return 0, false
}

// parseInt parses a decimal integer, or a number with a fraction or an
// exponent whose value is exactly an integer ("3.0", "30e-1"), reading the
// digits exactly (1e-400 is not 0). ok is false for anything else and for
// magnitudes of 10⁹ or more.
func parseInt(b []byte) (int, bool) {
	if len(b) > 0 && len(b) <= 9 && b[0] >= '0' && b[0] <= '9' { // the common case: plain digits
		v := 0
		for _, c := range b {
			if c < '0' || c > '9' {
				return parseNumber(b)
			}
			v = v*10 + int(c-'0')
		}
		return v, true
	}
	return parseNumber(b)
}

// parseNumber is parseInt's general case.
func parseNumber(b []byte) (int, bool) {
	neg := false
	if len(b) > 0 && (b[0] == '-' || b[0] == '+') {
		neg = b[0] == '-'
		b = b[1:]
	}
	i := 0
	for i < len(b) && b[i] >= '0' && b[i] <= '9' {
		i++
	}
	intPart := b[:i]
	var frac []byte
	if i < len(b) && b[i] == '.' {
		j := i + 1
		for j < len(b) && b[j] >= '0' && b[j] <= '9' {
			j++
		}
		frac, i = b[i+1:j], j
	}
	if len(intPart)+len(frac) == 0 {
		return 0, false
	}
	exp := 0
	if i < len(b) && (b[i] == 'e' || b[i] == 'E') {
		i++
		eneg := false
		if i < len(b) && (b[i] == '+' || b[i] == '-') {
			eneg = b[i] == '-'
			i++
		}
		j := i
		for i < len(b) && b[i] >= '0' && b[i] <= '9' {
			i++
		}
		digits := b[j:i]
		for len(digits) > 1 && digits[0] == '0' {
			digits = digits[1:]
		}
		if len(digits) == 0 || len(digits) > 6 {
			return 0, false // no exponent digits, or far too large or too small to be an ID or a cell
		}
		for _, c := range digits {
			exp = exp*10 + int(c-'0')
		}
		if eneg {
			exp = -exp
		}
	}
	if i != len(b) {
		return 0, false
	}
	// The value is mantissa × 10^e, mantissa = intPart‖frac without leading
	// zeros and with trailing zeros moved into e.
	mant := append(append([]byte(nil), intPart...), frac...)
	for len(mant) > 0 && mant[0] == '0' {
		mant = mant[1:]
	}
	if len(mant) == 0 {
		return 0, true
	}
	e := exp - len(frac)
	for mant[len(mant)-1] == '0' {
		mant = mant[:len(mant)-1]
		e++
	}
	if e < 0 || len(mant)+e > 9 {
		return 0, false
	}
	v := 0
	for _, c := range mant {
		v = v*10 + int(c-'0')
	}
	for range e {
		v *= 10
	}
	if neg {
		v = -v
	}
	return v, true
}

func trimSpace(b []byte) []byte {
	for len(b) > 0 && (b[0] == ' ' || b[0] == '\t' || b[0] == '\n' || b[0] == '\r') {
		b = b[1:]
	}
	for len(b) > 0 && (b[len(b)-1] == ' ' || b[len(b)-1] == '\t' || b[len(b)-1] == '\n' || b[len(b)-1] == '\r') {
		b = b[:len(b)-1]
	}
	return b
}
