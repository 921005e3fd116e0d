package puzzle

import (
	"encoding/json"
	"fmt"
	"slices"
	"strings"
)

// selectFields returns the JSON object data with only the members whose
// names match one of names as encoding/json matches a struct field (case
// folded, escapes decoded), in their order, so that decoding the result into
// a struct with those fields gives what decoding data would. The members it
// drops are checked for structure (quotes, escapes, nesting) but not
// decoded: ReadSolution skips the 30 KB of pieces and layout this way.
func selectFields(data []byte, names ...string) ([]byte, error) {
	s := scanner{data: data}
	s.space()
	if !s.consume('{') {
		return nil, s.fail("an object")
	}
	out := []byte{'{'}
	s.space()
	if s.consume('}') {
		return s.end(append(out, '}'))
	}
	for {
		s.space()
		keyStart := s.i
		if err := s.skipString(); err != nil {
			return nil, err
		}
		key := data[keyStart:s.i]
		s.space()
		if !s.consume(':') {
			return nil, s.fail("':'")
		}
		s.space()
		valueStart := s.i
		if err := s.skipValue(); err != nil {
			return nil, err
		}
		keep, err := matchesName(key, names)
		if err != nil {
			return nil, fmt.Errorf("offset %d: %w", keyStart, err)
		}
		if keep {
			if len(out) > 1 {
				out = append(out, ',')
			}
			out = append(out, key...)
			out = append(out, ':')
			out = append(out, data[valueStart:s.i]...)
		}
		s.space()
		if s.consume('}') {
			return s.end(append(out, '}'))
		}
		if !s.consume(',') {
			return nil, s.fail("',' or '}'")
		}
	}
}

// matchesName reports whether the quoted key names one of names.
func matchesName(quoted []byte, names []string) (bool, error) {
	key := string(quoted[1 : len(quoted)-1])
	if strings.IndexByte(key, '\\') >= 0 {
		if err := json.Unmarshal(quoted, &key); err != nil {
			return false, err
		}
	}
	for _, n := range names {
		if strings.EqualFold(key, n) {
			return true, nil
		}
	}
	return false, nil
}

type scanner struct {
	data []byte
	i    int
}

func (s *scanner) fail(want string) error {
	if s.i >= len(s.data) {
		return fmt.Errorf("unexpected end of JSON input, want %s", want)
	}
	return fmt.Errorf("offset %d: found %q, want %s", s.i, s.data[s.i], want)
}

func (s *scanner) space() {
	for s.i < len(s.data) {
		switch s.data[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
		default:
			return
		}
	}
}

func (s *scanner) consume(c byte) bool {
	if s.i < len(s.data) && s.data[s.i] == c {
		s.i++
		return true
	}
	return false
}

// end accepts out if only white space follows the object.
func (s *scanner) end(out []byte) ([]byte, error) {
	s.space()
	if s.i < len(s.data) {
		return nil, s.fail("the end of the file")
	}
	return out, nil
}

// skipString moves past the string that starts at s.i.
func (s *scanner) skipString() error {
	if !s.consume('"') {
		return s.fail("a string")
	}
	for s.i < len(s.data) {
		switch c := s.data[s.i]; {
		case c == '"':
			s.i++
			return nil
		case c == '\\':
			s.i += 2
		case c < 0x20:
			return s.fail("a character of a string")
		default:
			s.i++
		}
	}
	s.i = len(s.data)
	return s.fail("the end of a string")
}

// skipValue moves past the value that starts at s.i, checking that its
// brackets pair and its strings end.
func (s *scanner) skipValue() error {
	var open []byte // the closing brackets awaited
	for {
		if s.i >= len(s.data) {
			return s.fail("a value")
		}
		switch c := s.data[s.i]; c {
		case '"':
			if err := s.skipString(); err != nil {
				return err
			}
		case '{', '[':
			open = append(open, c+2) // '{'+2 == '}', '['+2 == ']'
			s.i++
			continue
		case '}', ']':
			if len(open) == 0 || open[len(open)-1] != c {
				return s.fail("a value")
			}
			open = open[:len(open)-1]
			s.i++
		case ',', ':', ' ', '\t', '\n', '\r':
			if len(open) == 0 {
				return s.fail("a value")
			}
			s.i++
			continue
		default: // a number, true, false or null
			start := s.i
			for s.i < len(s.data) && !endsScalar[s.data[s.i]] {
				s.i++
			}
			if s.i == start {
				return s.fail("a value")
			}
		}
		if len(open) == 0 {
			return nil
		}
	}
}

// endsScalar marks the bytes that end a number, true, false or null.
var endsScalar = func() (t [256]bool) {
	for _, c := range []byte(",:]} \t\n\r\"{[") {
		t[c] = true
	}
	return t
}()

// parseSolutionObject reads a solution object in the form jigbench writes,
// {"0": [r, c], "1": …} with the IDs 0…n-1 each once, in a tenth of the
// time encoding/json takes. Anything else (other spellings of numbers,
// repeated or missing IDs, other shapes) returns false and is left to
// encoding/json, which decides and words the error.
func parseSolutionObject(b []byte) (Solution, bool) {
	s := scanner{data: b}
	if !s.next('{') {
		return nil, false
	}
	var sol Solution
	var seen []bool
	for empty := true; ; empty = false {
		if empty && s.next('}') {
			break
		}
		// An ID is unsigned: encoding/json keeps "-0" a key of its own,
		// not piece 0, so it is left to that.
		var id, row, col int
		if !(s.next('"') && !s.consume('-') && s.integer(&id) && s.consume('"') && s.next(':') &&
			s.next('[') && s.nextInteger(&row) && s.next(',') && s.nextInteger(&col) && s.next(']')) {
			return nil, false
		}
		if id >= len(sol) {
			if id >= 1<<20 {
				return nil, false
			}
			sol = append(sol, make(Solution, id+1-len(sol))...)
			seen = append(seen, make([]bool, id+1-len(seen))...)
		}
		if seen[id] {
			return nil, false
		}
		seen[id] = true
		sol[id] = Cell{row, col}
		if s.next('}') {
			break
		}
		if !s.consume(',') {
			return nil, false
		}
	}
	if _, err := s.end(nil); err != nil || slices.Contains(seen, false) {
		return nil, false
	}
	if sol == nil {
		sol = Solution{}
	}
	return sol, true
}

// next skips white space and consumes c if it comes next.
func (s *scanner) next(c byte) bool {
	s.space()
	return s.consume(c)
}

// nextInteger skips white space and reads an integer into n.
func (s *scanner) nextInteger(n *int) bool {
	s.space()
	return s.integer(n)
}

// integer reads -?[0-9]+ as JSON writes an integer (no leading zeros)
// into v, refusing values of more than 9 digits.
func (s *scanner) integer(v *int) bool {
	neg := s.consume('-')
	start := s.i
	n := 0
	for s.i < len(s.data) && s.data[s.i] >= '0' && s.data[s.i] <= '9' {
		n = n*10 + int(s.data[s.i]-'0')
		s.i++
		if s.i-start > 9 {
			return false
		}
	}
	if s.i == start || (s.data[start] == '0' && s.i-start > 1) {
		return false
	}
	if s.i < len(s.data) && (s.data[s.i] == '.' || s.data[s.i] == 'e' || s.data[s.i] == 'E') {
		return false
	}
	if neg {
		n = -n
	}
	*v = n
	return true
}
