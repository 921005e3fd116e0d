package score

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"
)

// The 2×2 answer used by the form tests: piece 0 → (1,1), 1 → (0,0),
// 2 → (0,1), 3 → (1,0), i.e. cells [3 0 1 2].
var wantCells = []int{3, 0, 1, 2}

const plainMapping = `{"0": [1, 1], "1": [0, 0], "2": [0, 1], "3": [1, 0]}`

func TestAcceptedForms(t *testing.T) {
	fence := "```"
	forms := map[string]string{
		"string keys":       plainMapping,
		"number keys":       `{0: [1, 1], 1: [0, 0], 2: [0, 1], 3: [1, 0]}`,
		"row/col objects":   `{"0": {"row": 1, "col": 1}, "1": {"row": 0, "col": 0}, "2": {"row": 0, "column": 1}, "3": {"r": 1, "c": 0}}`,
		"mapping wrapper":   `{"mapping": ` + plainMapping + `}`,
		"positions wrapper": `{"positions": ` + plainMapping + `}`,
		"solution wrapper":  `{"solution": ` + plainMapping + `, "confidence": 0.4}`,
		"answer wrapper":    `{"reasoning": "corners first", "answer": ` + plainMapping + `}`,
		"prediction":        `{"prediction": ` + plainMapping + `}`,
		"placements list":   `{"placements": [{"piece_id": 0, "position": [1, 1]}, {"piece_id": 1, "position": [0, 0]}, {"piece_id": 2, "position": [0, 1]}, {"piece_id": 3, "position": [1, 0]}]}`,
		"nested wrappers":   `{"result": {"final_answer": ` + plainMapping + `}}`,
		"any wrapper key":   `{"my_layout": ` + plainMapping + `}`,
		"list piece_id":     `[{"piece_id": 0, "position": [1, 1]}, {"piece_id": 1, "position": [0, 0]}, {"piece_id": 2, "position": [0, 1]}, {"piece_id": 3, "position": [1, 0]}]`,
		"list id/row/col":   `[{"id": 0, "row": 1, "col": 1}, {"id": "1", "row": 0, "col": 0}, {"piece": 2, "position": {"row": 0, "col": 1}}, {"piece_id": "piece 3", "position": ["1", "0"]}]`,
		"fenced":            "Here is my answer:\n" + fence + "json\n" + plainMapping + "\n" + fence + "\nGood luck!",
		"fenced no lang":    fence + "\n" + plainMapping + "\n" + fence,
		"prose around":      "After matching the flat edges, I place them as " + plainMapping + ". Piece {0} is a corner.",
		"python dict":       `{0: (1, 1), 1: (0, 0), 2: (0, 1), 3: (1, 0),}`,
		"single quotes":     `{'0': [1, 1], '1': [0, 0], '2': [0, 1], '3': [1, 0]}`,
		"piece-named keys":  `{"piece 0": [1, 1], "Piece_1": [0, 0], "p2": [0, 1], "#3": [1, 0]}`,
		"integral floats":   `{"0": [1.0, 1], "1": [0, 0e0], "2": [0, 1], "3": [1, 0]}`,
		"whitespace":        "\n\n  " + plainMapping + "  \n",
		"answer as string":  `{"answer": "` + fence + `json\n{\"0\": [1, 1], \"1\": [0, 0], \"2\": [0, 1], \"3\": [1, 0]}\n` + fence + `"}`,
		"chat message":      `{"role": "assistant", "content": "Final: {\"0\": [1, 1], \"1\": [0, 0], \"2\": [0, 1], \"3\": [1, 0]}"}`,
		"last candidate":    "First try: " + `{"0": [0, 0], "1": [1, 1], "2": [1, 0], "3": [0, 1]}` + "\nOn reflection: " + plainMapping,
		"later non-answer":  plainMapping + "\nConfidence: {\"confidence\": 0.8} [1, 2]",
		"broken then good":  `{"0": [1, 1], "1": ` + "\nsorry, again:\n" + plainMapping,
		"inside broken":     `{ my answer is ` + plainMapping + ` ok`,
		"two spellings":     `{"0": [0, 0], 0: [1, 1], "1": [0, 0], "2": [0, 1], "3": [1, 0]}`,
		"BOM and CRLF":      "\ufeff" + strings.ReplaceAll("{\n\"0\": [1, 1],\n\"1\": [0, 0],\n\"2\": [0, 1],\n\"3\": [1, 0]\n}", "\n", "\r\n"),
	}
	for name, text := range forms {
		a, err := ParseAnswer([]byte(text), 2)
		if err != nil {
			t.Errorf("%s: %v\n%s", name, err, text)
			continue
		}
		if !slices.Equal(a.Cells, wantCells) {
			t.Errorf("%s: cells %v, want %v\n%s", name, a.Cells, wantCells, text)
		}
	}
}

func TestInvalidAnswers(t *testing.T) {
	for name, c := range map[string]struct {
		text string
		want error
	}{
		"empty":          {"", ErrEmptyAnswer},
		"blank":          {" \n\t ", ErrEmptyAnswer},
		"refusal":        {"I'm sorry, I cannot solve this puzzle.", ErrNoJSON},
		"truncated":      {`{"0": [1, 1], "1": [0,`, ErrNoPositions},
		"not a mapping":  {`{"note": "no idea"}`, ErrNoPositions},
		"numbers only":   {`[1, 2, 3]`, ErrNoPositions},
		"string values":  {`{"0": "top left", "1": "top right"}`, ErrNoPositions},
		"prose brackets": {"Place {corner} pieces [first] and then the rest.", ErrNoPositions},
		"null":           {`null`, ErrNoJSON},
		"too large":      {strings.Repeat(" ", MaxAnswerBytes+1), ErrAnswerTooLarge},
	} {
		_, err := ParseAnswer([]byte(c.text), 2)
		if !errors.Is(err, c.want) {
			t.Errorf("%s: error %v, want %v", name, err, c.want)
		}
	}
}

// TestHostileInput: deep nesting, huge numbers and megabytes of brackets
// are refused or read in bounded time, never with a panic.
func TestHostileInput(t *testing.T) {
	cases := map[string]string{
		"deep arrays":        strings.Repeat("[", 200000),
		"deep objects":       strings.Repeat(`{"a":`, 100000),
		"closed deep":        strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
		"bracket soup":       strings.Repeat("{[", 1<<20),
		"unclosed long list": "[" + strings.Repeat("1,", 1<<20),
		"nested unclosed":    strings.Repeat("[1,", 60) + strings.Repeat("2,", 1<<19),
		"strings":            strings.Repeat(`["`, 1<<19),
		"quotes in prose":    strings.Repeat(`{"a": "x", "b`, 1<<16),
		"huge numbers":       `{"0": [1e400, 0], "1": [99999999999999999999999, 0], "2": [-0, 1], "3": [1, 1e-400]}`,
		"long number":        `{"0": [` + strings.Repeat("9", 1<<20) + `, 0]}`,
		"many keys":          "{" + strings.Repeat(`"7": [0, 0],`, 1<<15) + `"0": [1, 1]}`,
		"too many values":    "{" + strings.Repeat(`"7": [0, 0],`, 1<<17) + `"0": [1, 1]}`,
		"escapes":            `{"\u0030": [1, 1], "\ud800": [0, 0], "1\u0000": [0, 0]}`,
	}
	for name, text := range cases {
		// Linear work takes milliseconds here; a quadratic scan of these
		// megabytes would make the test time out (no timing is asserted).
		start := time.Now()
		a, err := ParseAnswer([]byte(text), 2)
		t.Logf("%s: %d bytes in %v", name, len(text), time.Since(start))
		if err == nil && len(a.Cells) != 4 {
			t.Errorf("%s: %d cells", name, len(a.Cells))
		}
	}
	a, err := ParseAnswer([]byte(cases["huge numbers"]), 2)
	if err != nil || !slices.Equal(a.Cells, []int{Missing, Missing, 1, Missing}) || a.BadPositions != 3 {
		t.Errorf("huge numbers: %+v %v", a, err)
	}
	a, err = ParseAnswer([]byte(cases["escapes"]), 2)
	if err != nil || a.Cells[0] != 3 || a.Unknown != 2 {
		t.Errorf("escapes: %+v %v", a, err)
	}
	a, err = ParseAnswer([]byte(cases["many keys"]), 2)
	if err != nil || a.Cells[0] != 3 || a.Unknown != 1<<15 {
		t.Errorf("many keys: %+v unknown %d %v", a.Cells, a.Unknown, err)
	}
	// Half a million values is past the parser's node limit: invalid.
	if _, err := ParseAnswer([]byte(cases["too many values"]), 2); err == nil {
		t.Error("an answer of 500,000 values was read")
	}
}

// TestStrictParserMatchesEncodingJSON: in strict mode the parser accepts
// exactly what encoding/json accepts (below the depth limit).
func TestStrictParserMatchesEncodingJSON(t *testing.T) {
	for _, s := range strictCorpus {
		checkStrict(t, []byte(s))
	}
}

var strictCorpus = []string{
	`{}`, `[]`, `{"a":1}`, `[1,2,3]`, `{"a":[1,{"b":null}],"c":true,"d":false}`,
	`"x"`, `"\u00e9\n\t\""`, `-0`, `-0.5e+10`, `1E5`, `0.1`,
	`01`, `1.`, `.5`, `+1`, `-`, `1e`, `[1,]`, `{"a":1,}`, `{a:1}`, `{'a':1}`, `[1 2]`,
	`{"a" 1}`, `"\x"`, `"\u12"`, "\"a\x01\"", `tru`, `True`, `nul`, `[`, `{"a":`, `"abc`,
	` [ 1 , 2 ] `, `[1]x`, `{"a":1}{}`, ``, ` `, `[[[]]]`,
}

func checkStrict(t *testing.T, b []byte) {
	t.Helper()
	depth, maxDepth := 0, 0
	for _, c := range b {
		switch c {
		case '[', '{':
			depth++
			maxDepth = max(maxDepth, depth)
		case ']', '}':
			depth--
		}
	}
	if maxDepth >= jsonMaxDepth {
		return
	}
	var p jparser
	_, err := p.parseAll(b)
	if ok := err == nil; ok != json.Valid(b) {
		t.Errorf("%q: strict parser ok=%v (%v), encoding/json valid=%v", b, ok, err, json.Valid(b))
	}
	if err == nil {
		// Round trip: strings decode as encoding/json decodes them.
		var want any
		if json.Unmarshal(b, &want) == nil {
			if got := p.toAny(0); fmt.Sprint(got) != fmt.Sprint(want) {
				t.Errorf("%q: decoded %v, encoding/json %v", b, got, want)
			}
		}
	}
}

// toAny converts a parsed tree to encoding/json's generic form (numbers as
// float64), for comparison.
func (p *jparser) toAny(i int32) any {
	n := &p.nodes[i]
	switch n.kind {
	case vNull:
		return nil
	case vBool:
		return p.raw(i)[0] == 't'
	case vNumber:
		var f float64
		json.Unmarshal(p.raw(i), &f)
		return f
	case vString:
		return p.text(i)
	case vArray:
		out := []any{}
		p.children(i, func(c int32) bool { out = append(out, p.toAny(c)); return true })
		return out
	default:
		out := map[string]any{}
		p.pairs(i, func(k, v int32) bool { out[p.text(k)] = p.toAny(v); return true })
		return out
	}
}

// TestUnescapeMatchesEncodingJSON covers surrogates and odd escapes.
func TestUnescapeMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{`"\ud83d\ude00"`, `"\ud83d"`, `"\ude00x"`, `"\ud83d\u0041"`, `"a\/b\\c\bd\fe"`, `"\u0000"`} {
		var want string
		if err := json.Unmarshal([]byte(s), &want); err != nil {
			t.Fatal(err)
		}
		var p jparser
		root, err := p.parseAll([]byte(s))
		if err != nil {
			t.Fatal(err)
		}
		if got := p.text(root); got != want {
			t.Errorf("%s: %q, want %q", s, got, want)
		}
	}
}

func TestParseAnswerRejectsBadGrid(t *testing.T) {
	for _, n := range []int{0, -1, 65} {
		if _, err := ParseAnswer([]byte(plainMapping), n); err == nil {
			t.Errorf("grid %d accepted", n)
		}
	}
}

func TestPieceKey(t *testing.T) {
	for key, want := range map[string]int{"17": 17, " 17 ": 17, "piece 17": 17, "Piece_17": 17, "p17": 17, "id:17": 17, "#17": 17, "017": 17, "17.0": 17, "-3": -3} {
		var p jparser
		p.lenient = true
		root, err := p.parseAll([]byte(`"` + key + `"`))
		if err != nil {
			t.Fatal(err)
		}
		if got, ok := pieceKey(&p, root); !ok || got != want {
			t.Errorf("%q: %d %v, want %d", key, got, ok, want)
		}
	}
	for _, key := range []string{"row", "x17", "17a", "", "piece", "1.5", "１７"} {
		var p jparser
		root, _ := p.parseAll([]byte(`"` + key + `"`))
		if got, ok := pieceKey(&p, root); ok {
			t.Errorf("%q read as piece %d", key, got)
		}
	}
}

func BenchmarkParseAnswer16(b *testing.B) {
	var buf bytes.Buffer
	buf.WriteString("{")
	for k := range 256 {
		if k > 0 {
			buf.WriteString(", ")
		}
		fmt.Fprintf(&buf, `"%d": [%d, %d]`, k, k/16, k%16)
	}
	buf.WriteString("}")
	var r AnswerReader
	b.SetBytes(int64(buf.Len()))
	for b.Loop() {
		if _, err := r.Parse(buf.Bytes(), 16); err != nil {
			b.Fatal(err)
		}
	}
}
