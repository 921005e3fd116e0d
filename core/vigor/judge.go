package vigor

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/fsutil"
)

// Condition names the template variant a judge run used: any name of
// lower-case letters, digits and underscores (docs/vigor-campaign.md). with_gt and
// without_gt are the paper's two.
type Condition string

// The two judge conditions of docs/formats.md, "Judge files".
const (
	WithoutGT Condition = "without_gt"
	WithGT    Condition = "with_gt"
)

// Conditions lists the paper's conditions in Table 2 order; the agreement
// report compares these two, AnalyzeConditions any number.
var Conditions = [...]Condition{WithoutGT, WithGT}

// ParseCondition accepts a condition name in any case, with spaces or
// hyphens for the underscore.
func ParseCondition(s string) (Condition, bool) {
	c := normKey(s)
	if !ValidConditionName(c) {
		return "", false
	}
	return Condition(c), true
}

// JudgeRecord is one judge run's scores for one item.
type JudgeRecord struct {
	Item      string
	Run       int
	Condition Condition
	Scores    Scores // NoScore where the judge gave no score for a dimension
	// Explanation is the record's "explanation": a string, or an object of
	// texts per dimension written "name: text" a line in the file's order.
	Explanation string
	Source      string // the file it came from, for messages
	Line        int    // its line in Source
}

// JudgeProblem is a record that was left out, with where it was.
type JudgeProblem struct {
	Source string
	Line   int
	Item   string // if known
	Msg    string
}

func (p JudgeProblem) String() string {
	var b strings.Builder
	if p.Source != "" {
		b.WriteString(p.Source + ":")
	}
	fmt.Fprintf(&b, "%d: ", p.Line)
	if p.Item != "" {
		b.WriteString("item " + p.Item + ": ")
	}
	b.WriteString(p.Msg)
	return b.String()
}

// JudgeOptions tells ReadJudge what the file itself does not.
type JudgeOptions struct {
	// Source names the file in records and problems.
	Source string
	// Condition applies to records that name none. With Fixed, a record
	// naming the other condition is reported and left out (the file was
	// given as one condition on the command line).
	Condition Condition
	Fixed     bool
	// Run applies to records without a "run" (one file per run).
	Run int
}

// maxJudgeBytes bounds one judge file (a paper-sized run is a few MiB).
const maxJudgeBytes = 512 << 20

// ReadJudge reads one judge-run file — a JSON array of records or JSONL,
// one record a line — for split sp. Records that cannot be used are
// returned as problems with their line and are never scored. The error is
// for failures to read the input at all.
func ReadJudge(r io.Reader, sp *Split, opt JudgeOptions) ([]JudgeRecord, []JudgeProblem, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxJudgeBytes+1))
	if err != nil {
		return nil, nil, fmt.Errorf("read judge run %s: %w", opt.Source, err)
	}
	if len(data) > maxJudgeBytes {
		return nil, nil, fmt.Errorf("read judge run %s: larger than %d MiB", opt.Source, maxJudgeBytes>>20)
	}
	jr := judgeReader{sp: sp, opt: opt, seen: make(map[judgeKey]int)}
	data = fsutil.TrimBOM(data)
	if err := fsutil.CheckUTF8(data); err != nil {
		return nil, nil, fmt.Errorf("read judge run %s: %w", opt.Source, err)
	}
	if t := bytes.TrimLeft(data, " \t\r\n"); len(t) > 0 && t[0] == '[' {
		jr.readArray(data)
	} else {
		jr.readLines(data)
	}
	return jr.records, jr.problems, nil
}

// ReadJudgeFile is ReadJudge on a file; Source defaults to its path.
func ReadJudgeFile(path string, sp *Split, opt JudgeOptions) ([]JudgeRecord, []JudgeProblem, error) {
	f, err := fsutil.Open(path)
	if err != nil {
		return nil, nil, fmt.Errorf("read judge run: %w", err)
	}
	defer f.Close()
	if opt.Source == "" {
		opt.Source = path
	}
	return ReadJudge(f, sp, opt)
}

type judgeKey struct {
	item string
	run  int
	cond Condition
}

type judgeReader struct {
	sp       *Split
	opt      JudgeOptions
	seen     map[judgeKey]int // → line
	records  []JudgeRecord
	problems []JudgeProblem
}

func (jr *judgeReader) problem(line int, item, format string, a ...any) {
	jr.problems = append(jr.problems, JudgeProblem{Source: jr.opt.Source, Line: line, Item: item, Msg: fmt.Sprintf(format, a...)})
}

func (jr *judgeReader) readLines(data []byte) {
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(nil, len(data)+1)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if len(b) == 0 {
			continue
		}
		jr.record(line, b)
	}
}

func (jr *judgeReader) readArray(data []byte) {
	dec := json.NewDecoder(bytes.NewReader(data))
	if _, err := dec.Token(); err != nil { // '['
		jr.problem(1, "", "cannot read the JSON array: %v", err)
		return
	}
	for dec.More() {
		start := skipSeparators(data, dec.InputOffset())
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			jr.problem(lineAt(data, start), "", "cannot read the JSON array from here on: %s", describeJSONErr(err))
			return
		}
		jr.record(lineAt(data, start), raw)
	}
	if _, err := dec.Token(); err != nil { // ']'
		jr.problem(lineAt(data, dec.InputOffset()), "", "the JSON array is not closed: %v", err)
	}
}

// skipSeparators moves off from the end of the previous token to the start
// of the next value.
func skipSeparators(data []byte, off int64) int64 {
	for off < int64(len(data)) {
		switch data[off] {
		case ' ', '\t', '\r', '\n', ',':
			off++
		default:
			return off
		}
	}
	return off
}

// record parses one record and keeps it or reports it.
func (jr *judgeReader) record(line int, raw []byte) {
	ms, err := decodeObject(raw)
	if err != nil {
		jr.problem(line, "", "not a JSON object: %v", err)
		return
	}
	rec := JudgeRecord{Run: jr.opt.Run, Condition: jr.opt.Condition, Scores: Unscored(), Source: jr.opt.Source, Line: line}
	var scores []member
	var responseText string
	hasScores, hasResponse := false, false
	var dimMembers []member // scores given at the top level
	for _, m := range ms {
		switch normKey(m.key) {
		case "id", "item_id", "item":
			if json.Unmarshal(m.val, &rec.Item) != nil {
				jr.problem(line, "", "id: want a string")
				return
			}
		case "run":
			n, err := parseScoreValue(m.val)
			if err != nil || n < 1 {
				jr.problem(line, rec.Item, "run: want a positive integer, got %s", clip(string(m.val), 40))
				return
			}
			rec.Run = n
		case "condition":
			var s string
			c, ok := Condition(""), false
			if json.Unmarshal(m.val, &s) == nil {
				c, ok = ParseCondition(s)
			}
			if !ok {
				jr.problem(line, rec.Item, "condition: want a name of letters, digits and underscores such as %q, got %s", WithGT, clip(string(m.val), 40))
				return
			}
			if jr.opt.Fixed && c != jr.opt.Condition {
				jr.problem(line, rec.Item, "the record says %s but the file was given as %s", c, jr.opt.Condition)
				return
			}
			rec.Condition = c
		case "scores":
			inner, err := decodeObject(m.val)
			if err != nil {
				jr.problem(line, rec.Item, "scores: want an object of dimension scores")
				return
			}
			scores, hasScores = inner, true
		case "explanation":
			rec.Explanation = explanationText(m.val)
		case "response":
			if json.Unmarshal(m.val, &responseText) != nil {
				jr.problem(line, rec.Item, "response: want a string")
				return
			}
			hasResponse = true
		default:
			if _, ok := ParseDim(m.key); ok {
				dimMembers = append(dimMembers, m)
			}
		}
	}
	if rec.Item == "" {
		jr.problem(line, "", "no item id")
		return
	}
	it, ok := jr.sp.Item(rec.Item)
	if !ok {
		jr.problem(line, rec.Item, "not an item of split %q", jr.sp.Name)
		return
	}
	if rec.Condition == "" {
		jr.problem(line, rec.Item, "no condition; give it in the record or for the whole file")
		return
	}
	if rec.Run == 0 {
		jr.problem(line, rec.Item, "no run number; give it in the record or for the whole file")
		return
	}
	switch {
	case hasScores:
	case hasResponse:
		if scores, err = scoresFromResponse(responseText); err != nil {
			jr.problem(line, rec.Item, "%v", err)
			return
		}
	case len(dimMembers) > 0:
		scores = dimMembers
	default:
		jr.problem(line, rec.Item, "no scores: want a \"scores\" object or a raw \"response\"")
		return
	}
	for _, m := range scores {
		d, ok := ParseDim(m.key)
		if !ok {
			continue // e.g. an "overall" or "average" field
		}
		v, err := parseScoreValue(m.val)
		if err != nil {
			jr.problem(line, rec.Item, "%s: %v", d.Name(it.Track), err)
			return
		}
		if err := checkValue(it.Track, d, v); err != nil {
			jr.problem(line, rec.Item, "%v", err)
			return
		}
		rec.Scores[d] = v
	}
	if !rec.Scores.Any() {
		jr.problem(line, rec.Item, "no dimension scores (want %s)", dimList(it.Track))
		return
	}
	key := judgeKey{rec.Item, rec.Run, rec.Condition}
	if first, dup := jr.seen[key]; dup {
		jr.problem(line, rec.Item, "run %d (%s) scores this item again (first on line %d); only the first is kept",
			rec.Run, rec.Condition, first)
		return
	}
	jr.seen[key] = line
	jr.records = append(jr.records, rec)
}

func dimList(t Track) string {
	names := make([]string, NumDims)
	for _, d := range Dims {
		names[d] = d.Name(t)
	}
	return strings.Join(names, ", ")
}

// WriteJudge writes records as JSONL in the docs/formats.md, "Judge files" record format
// (for simulated runs and round trips).
func WriteJudge(w io.Writer, sp *Split, records []JudgeRecord) error {
	bw := bufio.NewWriter(w)
	for _, r := range records {
		it, ok := sp.Item(r.Item)
		if !ok {
			return fmt.Errorf("write judge run: item %q is not in split %q", r.Item, sp.Name)
		}
		bw.WriteString(`{"id":`)
		writeJSONString(bw, r.Item)
		bw.WriteString(`,"run":` + strconv.Itoa(r.Run) + `,"condition":`)
		writeJSONString(bw, string(r.Condition))
		bw.WriteString(`,"scores":{`)
		first := true
		for _, d := range Dims {
			if r.Scores[d] == NoScore {
				continue
			}
			if !first {
				bw.WriteByte(',')
			}
			first = false
			writeJSONString(bw, d.Name(it.Track))
			bw.WriteString(":" + strconv.Itoa(r.Scores[d]))
		}
		bw.WriteString("}}\n")
	}
	return bw.Flush()
}

func writeJSONString(w *bufio.Writer, s string) {
	b, _ := json.Marshal(s) // a string always marshals
	w.Write(b)
}

// explanationText reads an "explanation" member: a string, or an object of
// strings (one "key: text" line each, in order); anything else is dropped,
// since the explanation is shown to the analyst, never scored.
func explanationText(raw []byte) string {
	var s string
	if json.Unmarshal(raw, &s) == nil {
		return s
	}
	ms, err := decodeObject(raw)
	if err != nil {
		return ""
	}
	var lines []string
	for _, m := range ms {
		if json.Unmarshal(m.val, &s) == nil && s != "" {
			lines = append(lines, m.key+": "+s)
		}
	}
	return strings.Join(lines, "\n")
}
