package vigor

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/safecsv"
)

// RatingsFormat is a ratings export format.
type RatingsFormat string

// The export formats of docs/formats.md, "Ratings".
const (
	CSV   RatingsFormat = "csv"
	JSONL RatingsFormat = "jsonl"
)

// RatingsFormatOf picks the format from a file name's extension.
func RatingsFormatOf(path string) (RatingsFormat, error) {
	switch strings.ToLower(filepath.Ext(path)) {
	case ".csv":
		return CSV, nil
	case ".jsonl", ".ndjson":
		return JSONL, nil
	}
	return "", fmt.Errorf("%s: unknown ratings format; name the file .csv or .jsonl", path)
}

// RatingsColumns are the export columns, in order (docs/formats.md, "Ratings"). The JSONL
// keys are the same names.
var RatingsColumns = [...]string{
	"split", "item_id", "annotator",
	"background_consistency", "rule_obey", "visual_quality", "reasoning",
	"flagged", "comment", "updated_at",
}

// column indices into RatingsColumns.
const (
	colSplit = iota
	colItem
	colAnnotator
	colScores  // the four dimensions follow in Dims order
	colFlagged = colScores + NumDims
	colComment = colFlagged + 1
	colUpdated = colComment + 1
)

// LineError is a problem with one line of an input file.
type LineError struct {
	Line int
	Err  error
}

func (e *LineError) Error() string { return fmt.Sprintf("line %d: %v", e.Line, e.Err) }
func (e *LineError) Unwrap() error { return e.Err }

func lineErrorf(line int, format string, a ...any) error {
	return &LineError{Line: line, Err: fmt.Errorf(format, a...)}
}

// CheckRating checks that r belongs to s and its scores are on the item's
// track scale.
func (s *Split) CheckRating(r Rating) error {
	if r.Split != s.Name {
		return fmt.Errorf("split %q is not this split (%q)", r.Split, s.Name)
	}
	if r.SplitDigest != "" && s.digest != "" && r.SplitDigest != s.digest {
		return fmt.Errorf("the rating of item %s belongs to other items named %q (identity %s, this split's %s)",
			r.Item, s.Name, shortDigest(r.SplitDigest), shortDigest(s.digest))
	}
	it, ok := s.Item(r.Item)
	if !ok {
		return fmt.Errorf("item %q is not in split %q", r.Item, s.Name)
	}
	if err := r.Scores.CheckScale(it.Track); err != nil {
		return fmt.Errorf("item %s: %w", r.Item, err)
	}
	return checkRating(&r)
}

// WriteRatings writes ratings in format f.
func WriteRatings(w io.Writer, f RatingsFormat, ratings []Rating) error {
	switch f {
	case CSV:
		cw := safecsv.NewWriter(w)
		if err := cw.Write(RatingsColumns[:]); err != nil {
			return err
		}
		rec := make([]string, len(RatingsColumns))
		for _, r := range ratings {
			rec[colSplit], rec[colItem], rec[colAnnotator] = r.Split, r.Item, r.Annotator
			for _, d := range Dims {
				rec[colScores+int(d)] = ""
				if v := r.Scores[d]; v != NoScore {
					rec[colScores+int(d)] = strconv.Itoa(v)
				}
			}
			rec[colFlagged] = strconv.FormatBool(r.Flagged)
			rec[colComment] = r.Comment
			rec[colUpdated] = ""
			if !r.Updated.IsZero() {
				rec[colUpdated] = timeText(r.Updated)
			}
			if err := cw.Write(rec); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case JSONL:
		bw := bufio.NewWriter(w)
		for _, r := range ratings {
			line, err := json.Marshal(toRatingJSON(r))
			if err != nil {
				return err
			}
			bw.Write(line)
			bw.WriteByte('\n')
		}
		return bw.Flush()
	}
	return fmt.Errorf("unknown ratings format %q", f)
}

// WriteRatingsFile writes ratings to path, the format chosen by extension,
// atomically (a crash leaves the old file or the new one, never half).
func WriteRatingsFile(path string, ratings []Rating) error {
	f, err := RatingsFormatOf(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteRatings(&buf, f, ratings); err != nil {
		return fmt.Errorf("write ratings %s: %w", path, err)
	}
	return fsutil.WriteFile(path, buf.Bytes())
}

// ratingJSON is one JSONL line; pointers tell an absent or null score.
type ratingJSON struct {
	Split                 string `json:"split"`
	ItemID                string `json:"item_id"`
	Annotator             string `json:"annotator"`
	BackgroundConsistency *int   `json:"background_consistency"`
	RuleObey              *int   `json:"rule_obey"`
	VisualQuality         *int   `json:"visual_quality"`
	Reasoning             *int   `json:"reasoning"`
	Flagged               bool   `json:"flagged"`
	Comment               string `json:"comment"`
	UpdatedAt             string `json:"updated_at"`
}

func (j *ratingJSON) scores() [NumDims]**int {
	return [NumDims]**int{&j.BackgroundConsistency, &j.RuleObey, &j.VisualQuality, &j.Reasoning}
}

func toRatingJSON(r Rating) ratingJSON {
	j := ratingJSON{Split: r.Split, ItemID: r.Item, Annotator: r.Annotator, Flagged: r.Flagged, Comment: r.Comment}
	for d, p := range j.scores() {
		if v := r.Scores[d]; v != NoScore {
			*p = &v
		}
	}
	if !r.Updated.IsZero() {
		j.UpdatedAt = timeText(r.Updated)
	}
	return j
}

// maxRatingLine bounds one JSONL line (a comment is at most 10 kB).
const maxRatingLine = 1 << 20

// ReadRatings reads ratings of split sp in format f. It refuses, naming the
// line (a *LineError): a split other than sp, an unknown item, a score off
// the item's track scale, a malformed value, and an annotator/item pair
// given twice. It reads everything or nothing.
func ReadRatings(r io.Reader, f RatingsFormat, sp *Split) ([]Rating, error) {
	rr := ratingsReader{sp: sp, seen: make(map[[2]string]location)}
	switch f {
	case CSV:
		return rr.readCSV(r)
	case JSONL:
		return rr.readJSONL(r)
	}
	return nil, fmt.Errorf("unknown ratings format %q", f)
}

// ReadRatingsFiles reads ratings exports of sp, each in the format its
// extension names, with ReadRatings' checks; an annotator/item pair given
// in two of the files is refused too. All files or nothing.
func ReadRatingsFiles(paths []string, sp *Split) ([]Rating, error) {
	rr := ratingsReader{sp: sp, seen: make(map[[2]string]location)}
	for _, path := range paths {
		f, err := RatingsFormatOf(path)
		if err != nil {
			return nil, err
		}
		file, err := fsutil.Open(path)
		if err != nil {
			return nil, fmt.Errorf("read ratings: %w", err)
		}
		rr.source = path
		if fi, err := file.Stat(); err == nil && fi.Size() == 0 {
			file.Close()
			return nil, fmt.Errorf("read ratings %s: the file is empty (an export has at least a header or one line)", path)
		}
		switch f {
		case CSV:
			_, err = rr.readCSV(file)
		case JSONL:
			_, err = rr.readJSONL(file)
		}
		file.Close()
		if err != nil {
			return nil, fmt.Errorf("read ratings %s: %w", path, err)
		}
	}
	return rr.out, nil
}

// location is where a rating was read.
type location struct {
	source string
	line   int
}

type ratingsReader struct {
	sp     *Split
	source string                 // the file being read, for cross-file duplicates
	seen   map[[2]string]location // (annotator, item) → where first given
	out    []Rating
}

func (rr *ratingsReader) readCSV(r io.Reader) ([]Rating, error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1 // checked below, with a clearer message
	header, err := cr.Read()
	if err == io.EOF {
		return nil, nil
	}
	if err != nil {
		return nil, csvErr(err)
	}
	if len(header) > 0 {
		header[0] = strings.TrimPrefix(header[0], "\ufeff") // spreadsheet BOM
	}
	idx, err := csvHeader(header)
	if err != nil {
		return nil, &LineError{Line: 1, Err: err}
	}
	rec := make([]string, len(RatingsColumns))
	for {
		fields, err := cr.Read()
		if err == io.EOF {
			return rr.out, nil
		}
		if err != nil {
			return nil, csvErr(err)
		}
		line, _ := cr.FieldPos(0)
		if len(fields) != len(header) {
			return nil, lineErrorf(line, "%d fields; the header has %d", len(fields), len(header))
		}
		for c, i := range idx {
			rec[c] = safecsv.Unescape(fields[i])
		}
		if err := rr.addCSV(line, rec); err != nil {
			return nil, err
		}
	}
}

func csvErr(err error) error {
	var pe *csv.ParseError
	if errors.As(err, &pe) {
		return &LineError{Line: pe.Line, Err: pe.Err}
	}
	return err
}

// csvHeader maps each export column to its position in header; every
// column must be there exactly once, in any order, and nothing else.
func csvHeader(header []string) ([len(RatingsColumns)]int, error) {
	var idx [len(RatingsColumns)]int
	pos := make(map[string]int, len(header))
	for i, h := range header {
		h = strings.TrimSpace(h)
		if _, dup := pos[h]; dup {
			return idx, fmt.Errorf("column %q appears twice in the header", h)
		}
		pos[h] = i
	}
	for c, name := range RatingsColumns {
		i, ok := pos[name]
		if !ok {
			return idx, fmt.Errorf("the header lacks column %q; want %s", name, strings.Join(RatingsColumns[:], ","))
		}
		idx[c] = i
		delete(pos, name)
	}
	if len(pos) > 0 {
		return idx, fmt.Errorf("unknown column %q; want %s", sortedKeys(pos)[0], strings.Join(RatingsColumns[:], ","))
	}
	return idx, nil
}

func (rr *ratingsReader) addCSV(line int, rec []string) error {
	r := Rating{Split: rec[colSplit], Item: rec[colItem], Annotator: strings.TrimSpace(rec[colAnnotator]),
		Comment: rec[colComment], Scores: Unscored()}
	for _, d := range Dims {
		s := strings.TrimSpace(rec[colScores+int(d)])
		if s == "" {
			continue
		}
		v, err := strconv.Atoi(s)
		if err != nil {
			return lineErrorf(line, "%s: %q is not an integer", RatingsColumns[colScores+int(d)], s)
		}
		if v < 0 {
			return lineErrorf(line, "%s is %d; scores are not negative (leave the cell empty for no score)", RatingsColumns[colScores+int(d)], v)
		}
		r.Scores[d] = v
	}
	switch strings.ToLower(strings.TrimSpace(rec[colFlagged])) {
	case "", "0", "false", "no":
	case "1", "true", "yes":
		r.Flagged = true
	default:
		return lineErrorf(line, "flagged: %q is not true or false", rec[colFlagged])
	}
	if s := strings.TrimSpace(rec[colUpdated]); s != "" {
		t, err := time.Parse(time.RFC3339Nano, s)
		if err != nil {
			return lineErrorf(line, "updated_at: %q is not an RFC 3339 time", s)
		}
		r.Updated = t.UTC()
	}
	return rr.add(line, r)
}

func (rr *ratingsReader) readJSONL(r io.Reader) ([]Rating, error) {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 0, 64<<10), maxRatingLine)
	line := 0
	for sc.Scan() {
		line++
		b := bytes.TrimSpace(sc.Bytes())
		if line == 1 {
			b = bytes.TrimPrefix(b, []byte("\ufeff"))
		}
		if len(b) == 0 {
			continue
		}
		if !utf8.Valid(b) { // the decoder would turn the bad bytes into U+FFFD
			return nil, lineErrorf(line, "not valid UTF-8")
		}
		var j ratingJSON
		dec := json.NewDecoder(bytes.NewReader(b))
		dec.DisallowUnknownFields()
		if err := dec.Decode(&j); err != nil {
			return nil, lineErrorf(line, "%s", describeJSONErr(err))
		}
		if dec.More() {
			return nil, lineErrorf(line, "more than one JSON value on the line")
		}
		r := Rating{Split: j.Split, Item: j.ItemID, Annotator: strings.TrimSpace(j.Annotator), Flagged: j.Flagged,
			Comment: j.Comment, Scores: Unscored()}
		for d, p := range j.scores() {
			if *p == nil {
				continue
			}
			if **p < 0 {
				return nil, lineErrorf(line, "%s is %d; scores are not negative (use null for no score)", RatingsColumns[colScores+d], **p)
			}
			r.Scores[d] = **p
		}
		if j.UpdatedAt != "" {
			t, err := time.Parse(time.RFC3339Nano, j.UpdatedAt)
			if err != nil {
				return nil, lineErrorf(line, "updated_at: %q is not an RFC 3339 time", j.UpdatedAt)
			}
			r.Updated = t.UTC()
		}
		if err := rr.add(line, r); err != nil {
			return nil, err
		}
	}
	if err := sc.Err(); err != nil {
		if errors.Is(err, bufio.ErrTooLong) {
			return nil, lineErrorf(line+1, "longer than %d bytes", maxRatingLine)
		}
		return nil, err
	}
	return rr.out, nil
}

// describeJSONErr turns decoder errors into a message about the field.
func describeJSONErr(err error) string {
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Field != "" {
		want := "a string"
		switch te.Type.String() {
		case "*int", "int":
			want = "an integer or null"
		case "bool":
			want = "true or false"
		}
		return fmt.Sprintf("%s: want %s, got %s", te.Field, want, te.Value)
	}
	if msg, ok := strings.CutPrefix(err.Error(), "json: unknown field "); ok {
		return "unknown key " + msg
	}
	return "not a JSON object: " + err.Error()
}

// add validates one rating against the split and the file so far.
func (rr *ratingsReader) add(line int, r Rating) error {
	if err := rr.sp.CheckRating(r); err != nil {
		return &LineError{Line: line, Err: err}
	}
	key := [2]string{r.Annotator, r.Item}
	if first, dup := rr.seen[key]; dup {
		where := fmt.Sprintf("line %d", first.line)
		if first.source != rr.source {
			where = fmt.Sprintf("%s line %d", first.source, first.line)
		}
		return lineErrorf(line, "%s's rating of item %s is given twice (also on %s)", r.Annotator, r.Item, where)
	}
	rr.seen[key] = location{rr.source, line}
	rr.out = append(rr.out, r)
	return nil
}
