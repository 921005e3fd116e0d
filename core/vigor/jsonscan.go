package vigor

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"slices"
	"strconv"
	"strings"
)

// member is one key/value of a JSON object, in document order.
type member struct {
	key string
	val json.RawMessage
}

// decodeObject decodes a JSON object keeping its members in order, so a key
// given twice (or two aliases of one dimension) resolve to the last one
// deterministically.
func decodeObject(data []byte) ([]member, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	t, err := dec.Token()
	if err != nil {
		return nil, err
	}
	if t != json.Delim('{') {
		return nil, errors.New("not a JSON object")
	}
	var ms []member
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return nil, err
		}
		key, _ := kt.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, err
		}
		ms = append(ms, member{key, v})
	}
	if _, err := dec.Token(); err != nil { // the closing brace
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("data after the JSON object")
	}
	return ms, nil
}

// parseScoreValue reads a score as the judge may write it: an integral
// number (85, 85.0), a numeric string ("85", "85%"), or a boolean.
func parseScoreValue(raw json.RawMessage) (int, error) {
	s := string(bytes.TrimSpace(raw))
	switch {
	case s == "true":
		return 1, nil
	case s == "false":
		return 0, nil
	case strings.HasPrefix(s, `"`):
		var str string
		if err := json.Unmarshal(raw, &str); err != nil {
			return 0, err
		}
		s = strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(str), "%"))
	}
	f, err := strconv.ParseFloat(s, 64)
	if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
		return 0, fmt.Errorf("%s is not a number", clip(string(raw), 40))
	}
	if f != math.Trunc(f) || math.Abs(f) > 1e9 {
		return 0, fmt.Errorf("%s is not an integer score", clip(string(raw), 40))
	}
	return int(f), nil
}

func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n] + "…"
}

// span is the byte range of a balanced {…} in a text.
type span struct{ start, end int }

// objectSpans finds the balanced brace spans of text, inner and outer,
// tracking JSON strings only inside braces (prose quotes do not count).
// Linear in the text's length.
func objectSpans(text string) []span {
	var spans []span
	var stack []int
	inStr, esc := false, false
	for i := 0; i < len(text); i++ {
		c := text[i]
		if inStr {
			switch {
			case esc:
				esc = false
			case c == '\\':
				esc = true
			case c == '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			if len(stack) > 0 {
				inStr = true
			}
		case '{':
			stack = append(stack, i)
		case '}':
			if n := len(stack); n > 0 {
				spans = append(spans, span{stack[n-1], i + 1})
				stack = stack[:n-1]
			}
		}
	}
	return spans
}

// maxResponseBytes and maxCandidates bound the work on one raw response.
const (
	maxResponseBytes = 1 << 20
	maxCandidates    = 64
)

// errNoScores means a text holds no object with any score in it.
var errNoScores = errors.New("no JSON object with scores found in the response")

// scoresFromResponse extracts the judge's score object from raw response
// text: JSON in ``` fences or with prose around it. The last candidate (by
// where it ends) that parses and holds scores wins.
func scoresFromResponse(text string) (found []member, err error) {
	if len(text) > maxResponseBytes {
		return nil, fmt.Errorf("the response is longer than %d bytes", maxResponseBytes)
	}
	spans := objectSpans(text)
	// Latest end first; for equal ends (impossible for distinct spans) keep order.
	slices.SortStableFunc(spans, func(a, b span) int { return b.end - a.end })
	tried := 0
	for _, sp := range spans {
		if tried == maxCandidates {
			break
		}
		tried++
		ms, err := decodeObject([]byte(text[sp.start:sp.end]))
		if err != nil {
			continue
		}
		if sm := scoreMembers(ms); sm != nil {
			return sm, nil
		}
	}
	return nil, errNoScores
}

// scoreMembers returns the members of a score object: the "scores" member's
// object if there is one, else the object's own dimension-named members —
// provided at least one of them holds a number (an explanation object has
// the same keys with text).
func scoreMembers(ms []member) []member {
	for i := len(ms) - 1; i >= 0; i-- {
		if normKey(ms[i].key) == "scores" {
			inner, err := decodeObject(ms[i].val)
			if err == nil && hasScore(inner) {
				return inner
			}
		}
	}
	if hasScore(ms) {
		return ms
	}
	return nil
}

func hasScore(ms []member) bool {
	for _, m := range ms {
		if _, ok := ParseDim(m.key); ok {
			if _, err := parseScoreValue(m.val); err == nil {
				return true
			}
		}
	}
	return false
}
