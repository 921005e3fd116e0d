package score

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"unicode/utf8"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// Source is one model's answers under one condition.
type Source struct {
	Model     string `json:"model"`
	Path      string `json:"path"`
	Condition string `json:"condition"` // puzzle.ConditionShape or puzzle.ConditionRect
}

// ParseSource reads a "[NAME=]PATH" argument. Without NAME the model is
// named after the file or folder (ModelName). An empty condition is "shape".
func ParseSource(spec, condition string) (Source, error) {
	if condition == "" {
		condition = puzzle.ConditionShape
	}
	if condition != puzzle.ConditionShape && condition != puzzle.ConditionRect {
		return Source{}, fmt.Errorf("condition %q is neither %s nor %s", condition, puzzle.ConditionShape, puzzle.ConditionRect)
	}
	s := Source{Path: spec, Condition: condition}
	if i := strings.IndexByte(spec, '='); i >= 0 {
		if _, err := os.Stat(spec); err != nil { // a path may contain '=' too
			s.Model, s.Path = strings.TrimSpace(spec[:i]), spec[i+1:]
			if s.Model == "" {
				return Source{}, fmt.Errorf("%q: the model name before '=' is empty", spec)
			}
		}
	}
	if s.Path == "" {
		return Source{}, fmt.Errorf("%q names no file or folder", spec)
	}
	if s.Model == "" {
		s.Model = ModelName(s.Path)
	}
	return s, nil
}

// ModelName names a model after its answers' file or folder: the base name
// without a .jsonl, .ndjson, .json or .txt extension.
func ModelName(path string) string {
	base := filepath.Base(filepath.Clean(path))
	for _, ext := range []string{".jsonl", ".ndjson", ".json", ".txt"} {
		if strings.HasSuffix(strings.ToLower(base), ext) && len(base) > len(ext) {
			return base[:len(base)-len(ext)]
		}
	}
	if base == "." || base == string(filepath.Separator) || base == "" {
		return "model"
	}
	return base
}

// AnswerRecord is the answer given for one instance.
type AnswerRecord struct {
	ID string
	Answer
	// Reason says why the answer is invalid; "" when it is valid.
	Reason string
	// Where is the file (and line) it came from.
	Where string
	// Raw is the text of an invalid answer (at most MaxRawText bytes), so a
	// person can see why it failed; "" for valid answers.
	Raw string
	// Usage is the token usage a batch output line reported; nil otherwise.
	Usage *batch.Usage
}

// MaxRawText bounds the invalid answer text kept for display.
const MaxRawText = 64 << 10

// rawText keeps at most MaxRawText bytes of an invalid answer.
func rawText(b []byte) string {
	if len(b) > MaxRawText {
		return string(b[:MaxRawText]) + "\n… (cut at 64 KB)"
	}
	return string(b)
}

// Valid reports whether the answer could be read.
func (a *AnswerRecord) Valid() bool { return a.Reason == "" }

// AnswerSet is one source's answers, one per instance (the last one given
// counts).
type AnswerSet struct {
	Source
	Records []*AnswerRecord
	// Unmatched counts answers for IDs the truth does not have.
	Unmatched int
	// Problems lists lines that could not be used, duplicates and unmatched
	// IDs (the first few of each; then a count).
	Problems []string
	byID     map[string]int
	dropped  int
}

// Find returns the answer for an instance.
func (s *AnswerSet) Find(id string) (*AnswerRecord, bool) {
	i, ok := s.byID[id]
	if !ok {
		return nil, false
	}
	return s.Records[i], true
}

const maxProblems = 20

func (s *AnswerSet) problem(format string, a ...any) {
	if len(s.Problems) >= maxProblems {
		s.dropped++
		return
	}
	s.Problems = append(s.Problems, fmt.Sprintf(format, a...))
}

func (s *AnswerSet) finish() {
	if s.dropped > 0 {
		s.Problems = append(s.Problems, fmt.Sprintf("… and %d more problems", s.dropped))
		s.dropped = 0
	}
}

// put adds rec, replacing an earlier answer for the same instance.
func (s *AnswerSet) put(rec *AnswerRecord) {
	if s.byID == nil {
		s.byID = map[string]int{}
	}
	if i, dup := s.byID[rec.ID]; dup {
		s.problem("%s: a second answer for %s (the first is at %s); the last one counts", rec.Where, rec.ID, s.Records[i].Where)
		s.Records[i] = rec
		return
	}
	s.byID[rec.ID] = len(s.Records)
	s.Records = append(s.Records, rec)
}

// maxLineBytes bounds one JSONL line: an answer plus its envelope.
const maxLineBytes = MaxAnswerBytes + 1<<20

// LoadAnswers reads a source's answers for the instances of truth: a JSONL
// file (one {"id": …, "prediction": {…}} or {"id": …, "response": "…"} a
// line), a folder of <instance id>.json|.txt files, or one file for one
// instance (named <instance id>.json|.txt, or any name when the truth has a
// single instance). Unusable lines and files are recorded, not fatal; an
// error means the source as a whole cannot be read.
func LoadAnswers(ctx context.Context, src Source, truth *TruthSet, report progress.Func) (*AnswerSet, error) {
	report = progress.Serial(report)
	set := &AnswerSet{Source: src, byID: map[string]int{}}
	fi, err := os.Stat(src.Path)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return nil, fmt.Errorf("answers %s do not exist", src.Path)
	case err != nil:
		return nil, fmt.Errorf("answers %s: %w", src.Path, fsutil.WithoutPath(err))
	case fi.IsDir():
		err = loadFolder(ctx, set, truth, report)
	default:
		err = loadFile(ctx, set, truth, report, fi.Size())
	}
	if err != nil {
		return nil, err
	}
	set.finish()
	return set, nil
}

func isJSONLName(path string) bool {
	ext := strings.ToLower(filepath.Ext(path))
	return ext == ".jsonl" || ext == ".ndjson"
}

// stem is a file name without its extension: the instance ID.
func stem(path string) string {
	base := filepath.Base(path)
	return strings.TrimSuffix(base, filepath.Ext(base))
}

func looksBinary(head []byte) bool { return bytes.IndexByte(head, 0) >= 0 }

func loadFile(ctx context.Context, set *AnswerSet, truth *TruthSet, report progress.Func, size int64) error {
	path := set.Path
	f, err := fsutil.Open(path)
	if err != nil {
		return fmt.Errorf("answers: %w", err)
	}
	defer f.Close()
	br := bufio.NewReaderSize(f, 64<<10)
	head, err := br.Peek(8 << 10)
	if err != nil && err != io.EOF && !errors.Is(err, bufio.ErrBufferFull) {
		return fmt.Errorf("read %s: %w", path, err)
	}
	if looksBinary(head) {
		return fmt.Errorf("%s is a binary file, not answers (want JSONL, or a .json/.txt answer)", path)
	}
	if batch.LooksLikeOutput(head) {
		return readBatchInto(ctx, set, truth, br, report, size)
	}
	_, named := truth.Find(stem(path))
	if isJSONLName(path) || !named && firstLineIsEnvelope(head) {
		return readJSONL(ctx, set, truth, br, report, size)
	}
	ti, ok := truth.Find(stem(path))
	if !ok {
		if len(truth.Instances) != 1 {
			return fmt.Errorf("cannot tell which instance %s answers: name it <instance id>.json or .txt, or write JSONL with an \"id\" on each line", path)
		}
		ti = &truth.Instances[0]
	}
	data, err := io.ReadAll(io.LimitReader(br, MaxAnswerBytes+1))
	if err != nil {
		return fmt.Errorf("read %s: %w", path, err)
	}
	var r AnswerReader
	set.put(answerRecord(&r, ti, data, path))
	report(progress.Report{Stage: "reading answers", Done: 1, Total: 1})
	return nil
}

// firstLineIsEnvelope reports whether the first line is a JSONL record: an
// object with an "id" and a prediction or response.
func firstLineIsEnvelope(head []byte) bool {
	line := head
	if i := bytes.IndexByte(head, '\n'); i >= 0 {
		line = head[:i]
	} else if len(head) == 8<<10 {
		// The first line does not fit in the head: judge by its start.
		t := trimSpace(head)
		return len(t) > 0 && t[0] == '{' && salvageID(t) != ""
	}
	var p jparser
	p.lenient = true
	root, err := p.parseAll(trimSpace(line))
	if err != nil || p.nodes[root].kind != vObject {
		return false
	}
	id, body := false, false
	p.pairs(root, func(k, v int32) bool {
		switch envelopeField(&p, k) {
		case fieldID:
			id = true
		case fieldPrediction, fieldResponse:
			body = true
		}
		return true
	})
	return id && body
}

// answerRecord parses one instance's whole answer file.
func answerRecord(r *AnswerReader, ti *TruthInstance, data []byte, where string) *AnswerRecord {
	rec := &AnswerRecord{ID: ti.ID, Where: where}
	if len(data) > MaxAnswerBytes {
		rec.Reason = ErrAnswerTooLarge.Error()
		return rec
	}
	if looksBinary(data[:min(len(data), 8<<10)]) {
		rec.Reason = "the answer file is binary, not text"
		return rec
	}
	a, err := r.Parse(data, ti.Grid)
	if err != nil {
		rec.Reason = err.Error()
		rec.Raw = rawText(data)
		return rec
	}
	rec.Answer = a
	return rec
}

func loadFolder(ctx context.Context, set *AnswerSet, truth *TruthSet, report progress.Func) error {
	entries, err := os.ReadDir(set.Path)
	if err != nil {
		return fmt.Errorf("read answers folder %s: %w", set.Path, fsutil.WithoutPath(err))
	}
	var files []string
	ignored := 0
	for _, e := range entries {
		name := e.Name()
		ext := strings.ToLower(filepath.Ext(name))
		if strings.HasPrefix(name, ".") || e.IsDir() {
			continue
		}
		if ext == ".json" || ext == ".txt" {
			files = append(files, name)
		} else {
			ignored++
		}
	}
	if len(files) == 0 {
		return fmt.Errorf("answers folder %s holds no <instance id>.json or .txt files", set.Path)
	}
	if ignored > 0 {
		set.problem("%s: ignored %d files that are not .json or .txt", set.Path, ignored)
	}
	sort.Strings(files) // x.json before x.txt: a .txt of the same ID wins
	recs := make([]*AnswerRecord, len(files))
	var readers sync.Pool
	var done atomic.Int64
	err = parallel(ctx, len(files), func(i int) {
		if ti, ok := truth.Find(stem(files[i])); ok {
			r, _ := readers.Get().(*AnswerReader)
			if r == nil {
				r = new(AnswerReader)
			}
			recs[i] = readAnswerFile(r, ti, filepath.Join(set.Path, files[i]))
			readers.Put(r)
		}
		report(progress.Report{Stage: "reading answers", Done: done.Add(1), Total: int64(len(files))})
	})
	if err != nil {
		return err
	}
	for i, rec := range recs {
		if rec == nil {
			set.Unmatched++
			set.problem("%s: no instance %s in the truth", filepath.Join(set.Path, files[i]), stem(files[i]))
			continue
		}
		set.put(rec)
	}
	return nil
}

func readAnswerFile(r *AnswerReader, ti *TruthInstance, path string) *AnswerRecord {
	f, err := fsutil.Open(path)
	if err != nil {
		return &AnswerRecord{ID: ti.ID, Where: path, Reason: err.Error()}
	}
	defer f.Close()
	data, err := io.ReadAll(io.LimitReader(f, MaxAnswerBytes+1))
	if err != nil {
		return &AnswerRecord{ID: ti.ID, Where: path, Reason: "cannot read the file: " + err.Error()}
	}
	return answerRecord(r, ti, data, path)
}

// JSONL envelope fields (normalised as in classify).
type field uint8

const (
	fieldOther field = iota
	fieldID
	fieldPrediction
	fieldResponse
)

var envelopeFields = map[string]field{
	"id": fieldID, "instanceid": fieldID, "instance": fieldID,
	"prediction": fieldPrediction, "predictions": fieldPrediction, "mapping": fieldPrediction,
	"answer": fieldPrediction, "solution": fieldPrediction, "positions": fieldPrediction,
	"response": fieldResponse, "text": fieldResponse, "output": fieldResponse,
	"completion": fieldResponse, "content": fieldResponse, "rawresponse": fieldResponse,
}

func envelopeField(p *jparser, k int32) field {
	b := p.raw(k)
	if len(b) > 24 || p.nodes[k].esc {
		return fieldOther
	}
	var buf [24]byte
	return envelopeFields[string(foldKey(&buf, b))]
}

// readJSONL reads one answer a line. A line that is not valid JSON makes its
// instance invalid when its "id" can still be read, and is listed otherwise.
func readJSONL(ctx context.Context, set *AnswerSet, truth *TruthSet, br *bufio.Reader, report progress.Func, size int64) error {
	name := set.Path
	var lp jparser
	lp.lenient = true
	var r AnswerReader
	var read int64
	lines, answers := 0, 0
	var pending []byte // a line longer than the reader's buffer, gathered
	collecting, tooLong := false, false
	for {
		chunk, err := br.ReadSlice('\n')
		read += int64(len(chunk))
		full := errors.Is(err, bufio.ErrBufferFull)
		if full || collecting {
			if !collecting {
				collecting, tooLong, pending = true, false, pending[:0]
			}
			if !tooLong && len(pending)+len(chunk) > maxLineBytes {
				tooLong = true
			}
			if !tooLong {
				pending = append(pending, chunk...)
			}
			if full {
				continue
			}
		}
		line := chunk
		if collecting {
			line = pending
		}
		if err == nil || len(line) > 0 || tooLong {
			lines++
			where := name + ":" + strconv.Itoa(lines)
			if tooLong {
				set.problem("%s: the line is longer than %d MB; skipped", where, maxLineBytes>>20)
			} else if jsonlLine(set, truth, &lp, &r, trimSpace(bytes.TrimPrefix(line, []byte("\xef\xbb\xbf"))), where) {
				answers++
			}
			if lines%256 == 0 {
				if err := ctx.Err(); err != nil {
					return err
				}
				report(progress.Report{Stage: "reading answers", Done: read, Total: size})
			}
		}
		collecting, tooLong = false, false
		if err == io.EOF {
			break
		}
		if err != nil {
			return fmt.Errorf("read %s: %w", name, err)
		}
	}
	report(progress.Report{Stage: "reading answers", Done: read, Total: size})
	if answers == 0 && len(set.Records) == 0 && set.Unmatched == 0 {
		if len(set.Problems) == 0 {
			return fmt.Errorf("%s holds no answers", name)
		}
		return fmt.Errorf("%s holds no usable answer lines (%s)", name, set.Problems[0])
	}
	return nil
}

// jsonlLine handles one line; it reports whether the line was an answer.
func jsonlLine(set *AnswerSet, truth *TruthSet, lp *jparser, r *AnswerReader, line []byte, where string) bool {
	if len(line) == 0 {
		return false
	}
	if !utf8.Valid(line) { // ids with invalid bytes would match nothing, or each other
		set.problem("%s: not valid UTF-8; skipped", where)
		return false
	}
	root, err := lp.parseAll(line)
	if err == nil && lp.nodes[root].kind != vObject {
		err = errors.New("the line is not a JSON object")
	}
	if err != nil {
		id := salvageID(line)
		if id == "" {
			set.problem("%s: not valid JSON (%v) and no instance id; skipped", where, err)
			return false
		}
		ti, ok := truth.Find(id)
		if !ok {
			set.Unmatched++
			set.problem("%s: not valid JSON (%v), for %q, which is not in the truth", where, err, id)
			return false
		}
		set.problem("%s: not valid JSON (%v); %s counts as invalid", where, err, id)
		set.put(&AnswerRecord{ID: ti.ID, Where: where, Reason: fmt.Sprintf("the answer line is not valid JSON (%v)", err), Raw: rawText(line)})
		return true
	}
	idNode, predNode, respNode := int32(-1), int32(-1), int32(-1)
	lp.pairs(root, func(k, v int32) bool {
		switch envelopeField(lp, k) {
		case fieldID:
			if idNode < 0 || envelopeFieldName(lp, k) == "id" {
				idNode = v
			}
		case fieldPrediction:
			predNode = v
		case fieldResponse:
			respNode = v
		}
		return true
	})
	id := ""
	if idNode >= 0 && (lp.nodes[idNode].kind == vString || lp.nodes[idNode].kind == vNumber) {
		id = lp.text(idNode)
	}
	if id == "" {
		set.problem("%s: no \"id\"; skipped", where)
		return false
	}
	ti, ok := truth.Find(id)
	if !ok {
		set.Unmatched++
		set.problem("%s: no instance %q in the truth", where, id)
		return false
	}
	rec := &AnswerRecord{ID: ti.ID, Where: where}
	body := predNode
	if body < 0 {
		body = respNode
	}
	if body < 0 {
		rec.Reason = `the line has neither "prediction" nor "response"`
		rec.Raw = rawText(line)
	} else if a, err := r.parseNode(lp, body, ti.Grid); err != nil {
		rec.Reason = err.Error()
		if lp.nodes[body].kind == vString {
			rec.Raw = rawText([]byte(lp.text(body))) // the model's response, unquoted
		} else {
			rec.Raw = rawText(line)
		}
	} else {
		rec.Answer = a
	}
	set.put(rec)
	return true
}

func envelopeFieldName(p *jparser, k int32) string { return string(p.raw(k)) }

// salvageID finds "id": "<value>" in a line that does not parse.
func salvageID(line []byte) string {
	s := line[:min(len(line), 64<<10)]
	for {
		i := bytes.Index(s, []byte(`"id"`))
		if i < 0 {
			return ""
		}
		rest := trimSpace(s[i+4:])
		s = s[i+4:]
		if len(rest) == 0 || rest[0] != ':' {
			continue
		}
		rest = trimSpace(rest[1:])
		if len(rest) == 0 || rest[0] != '"' {
			continue
		}
		end := bytes.IndexByte(rest[1:], '"')
		if end <= 0 || bytes.IndexByte(rest[1:1+end], '\\') >= 0 {
			continue
		}
		return string(rest[1 : 1+end])
	}
}

// parseNode reads a prediction given as a JSON value (or, as a string, raw
// text) inside another document.
func (r *AnswerReader) parseNode(p *jparser, i int32, n int) (Answer, error) {
	if n < 1 || n > maxGrid {
		return Answer{}, fmt.Errorf("grid %d is out of range", n)
	}
	r.reset(n)
	if p.nodes[i].kind == vString {
		if err := r.fromText([]byte(p.text(i)), 0); err != nil {
			return Answer{}, err
		}
		return r.finish(), nil
	}
	if !r.value(p, i, 0, 0) {
		if p.nodes[i].kind == vNull {
			return Answer{}, ErrEmptyAnswer
		}
		return Answer{}, ErrNoPositions
	}
	return r.finish(), nil
}
