package vigor

import (
	"bufio"
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"

	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/safecsv"
)

// Action is what a revision did to a rating.
type Action string

// The revision actions.
const (
	ActionSave   Action = "save"   // a rater saved it (Save)
	ActionDelete Action = "delete" // Delete removed it
	ActionImport Action = "import" // Import added or replaced it
)

// Values are a rating's contents as a revision records them.
type Values struct {
	Scores  Scores
	Flagged bool
	Comment string
}

// Revision is one change of one rating, appended in the transaction that
// made it (docs/formats.md, "Ratings store").
type Revision struct {
	ID          int64 // increasing in the order the changes committed
	Split       string
	SplitDigest string // the split's identity; "" for a change made before identities
	Item        string
	Annotator   string // who made the change: the rater whose rating it is
	Action      Action
	At          time.Time // UTC
	Old         *Values   // nil: there was no rating before
	New         *Values   // nil: the rating was deleted
}

func valuesOf(r *Rating) *Values {
	if r == nil {
		return nil
	}
	return &Values{Scores: r.Scores, Flagged: r.Flagged, Comment: r.Comment}
}

// oldOf is the rating a change replaced, nil when there was none.
func oldOf(old Rating, found bool) *Rating {
	if !found {
		return nil
	}
	return &old
}

// keyWhere selects one rating by its key (ratingKey.args order).
const keyWhere = "split = ? AND split_digest = ? AND item_id = ? AND annotator = ?"

func (k ratingKey) args() []any { return []any{k.split, k.digest, k.item, k.annotator} }

// String is the key as one text, for per-rating locks. The unit separator
// cannot occur in names (checkID refuses control characters).
func (k ratingKey) String() string {
	return k.split + "\x1f" + k.digest + "\x1f" + k.item + "\x1f" + k.annotator
}

func (r *Rating) key() ratingKey { return ratingKey{r.Split, r.SplitDigest, r.Item, r.Annotator} }

const revisionColumns = `id, split, split_digest, item_id, annotator, action, at,
	old_background_consistency, old_rule_obey, old_visual_quality, old_reasoning, old_flagged, old_comment,
	new_background_consistency, new_rule_obey, new_visual_quality, new_reasoning, new_flagged, new_comment`

// valueArgs are the six columns of v (all NULL for nil).
func valueArgs(v *Values) []any {
	if v == nil {
		return []any{nil, nil, nil, nil, nil, nil}
	}
	return []any{nullScore(v.Scores[0]), nullScore(v.Scores[1]), nullScore(v.Scores[2]), nullScore(v.Scores[3]),
		boolInt(v.Flagged), v.Comment}
}

func (s *Store) addRevision(ctx context.Context, tx *sql.Tx, a Action, at time.Time, k ratingKey, old, new *Rating) error {
	args := append(k.args(), string(a), timeText(at))
	args = append(args, valueArgs(valuesOf(old))...)
	args = append(args, valueArgs(valuesOf(new))...)
	_, err := tx.ExecContext(ctx, s.d.rebind(`INSERT INTO revisions (`+strings.TrimPrefix(revisionColumns, "id, ")+`)
		VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`), args...)
	if err != nil {
		return fmt.Errorf("record the revision: %w", err)
	}
	return nil
}

// nullValues are the six scanned columns of one side of a revision.
type nullValues struct {
	scores  [NumDims]sql.NullInt64
	flagged sql.NullInt64
	comment sql.NullString
}

func (n *nullValues) dest() []any {
	return []any{&n.scores[0], &n.scores[1], &n.scores[2], &n.scores[3], &n.flagged, &n.comment}
}

func (n *nullValues) values() *Values {
	if !n.flagged.Valid {
		return nil
	}
	v := &Values{Flagged: n.flagged.Int64 != 0, Comment: n.comment.String}
	for d, sc := range n.scores {
		v.Scores[d] = NoScore
		if sc.Valid {
			v.Scores[d] = int(sc.Int64)
		}
	}
	return v
}

// Revisions lists the revisions of the ratings q selects, oldest first
// (q.FlaggedOnly is ignored: a revision is not flagged, its values may be).
func (s *Store) Revisions(ctx context.Context, q Query) ([]Revision, error) {
	where, args := q.where()
	query := "SELECT " + revisionColumns + " FROM revisions"
	if len(where) > 0 {
		query += " WHERE " + strings.Join(where, " AND ")
	}
	query += " ORDER BY id"
	rows, err := s.db.QueryContext(ctx, s.d.rebind(query), args...)
	if err != nil {
		return nil, fmt.Errorf("list revisions: %w", s.explain(err))
	}
	defer rows.Close()
	var revs []Revision
	for rows.Next() {
		var rv Revision
		var action, at string
		var old, new nullValues
		dest := append([]any{&rv.ID, &rv.Split, &rv.SplitDigest, &rv.Item, &rv.Annotator, &action, &at}, old.dest()...)
		if err := rows.Scan(append(dest, new.dest()...)...); err != nil {
			return nil, fmt.Errorf("list revisions: %w", s.explain(err))
		}
		rv.Action = Action(action)
		if rv.At, err = parseTimeText(at); err != nil {
			return nil, fmt.Errorf("list revisions: revision %d: at: %w", rv.ID, err)
		}
		rv.Old, rv.New = old.values(), new.values()
		revs = append(revs, rv)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("list revisions: %w", s.explain(err))
	}
	return revs, nil
}

// RevisionColumns are the columns of a revisions export (docs/formats.md,
// "Ratings store"); the JSONL keys are the same names. An empty old_flagged
// means there was no rating before, an empty new_flagged that it was deleted.
var RevisionColumns = [...]string{
	"revision", "split", "split_digest", "item_id", "annotator", "action", "at",
	"old_background_consistency", "old_rule_obey", "old_visual_quality", "old_reasoning", "old_flagged", "old_comment",
	"new_background_consistency", "new_rule_obey", "new_visual_quality", "new_reasoning", "new_flagged", "new_comment",
}

// revisionRecord is rv as export fields, in RevisionColumns order; a nil
// entry is an absent value (empty in CSV, null in JSONL).
func revisionRecord(rv Revision) []*string {
	str := func(s string) *string { return &s }
	rec := []*string{str(strconv.FormatInt(rv.ID, 10)), str(rv.Split), str(rv.SplitDigest), str(rv.Item), str(rv.Annotator),
		str(string(rv.Action)), str(timeText(rv.At))}
	for _, v := range []*Values{rv.Old, rv.New} {
		if v == nil {
			rec = append(rec, nil, nil, nil, nil, nil, nil)
			continue
		}
		for _, sc := range v.Scores {
			if sc == NoScore {
				rec = append(rec, nil)
			} else {
				rec = append(rec, str(strconv.Itoa(sc)))
			}
		}
		rec = append(rec, str(strconv.FormatBool(v.Flagged)), str(v.Comment))
	}
	return rec
}

// WriteRevisions writes revisions in format f: CSV with RevisionColumns,
// or JSONL objects with those keys (scores as numbers, flags as booleans).
func WriteRevisions(w io.Writer, f RatingsFormat, revs []Revision) error {
	switch f {
	case CSV:
		cw := safecsv.NewWriter(w)
		if err := cw.Write(RevisionColumns[:]); err != nil {
			return err
		}
		out := make([]string, len(RevisionColumns))
		for _, rv := range revs {
			for i, p := range revisionRecord(rv) {
				out[i] = ""
				if p != nil {
					out[i] = *p
				}
			}
			if err := cw.Write(out); err != nil {
				return err
			}
		}
		cw.Flush()
		return cw.Error()
	case JSONL:
		bw := bufio.NewWriter(w)
		for _, rv := range revs {
			var b strings.Builder
			b.WriteByte('{')
			for i, p := range revisionRecord(rv) {
				if i > 0 {
					b.WriteByte(',')
				}
				key, _ := json.Marshal(RevisionColumns[i])
				b.Write(key)
				b.WriteByte(':')
				b.WriteString(revisionJSONValue(RevisionColumns[i], p))
			}
			b.WriteString("}\n")
			bw.WriteString(b.String())
		}
		return bw.Flush()
	}
	return fmt.Errorf("unknown revisions format %q", f)
}

// WriteRevisionsFile writes revisions to path, the format chosen by
// extension, atomically.
func WriteRevisionsFile(path string, revs []Revision) error {
	f, err := RatingsFormatOf(path)
	if err != nil {
		return err
	}
	var buf bytes.Buffer
	if err := WriteRevisions(&buf, f, revs); err != nil {
		return fmt.Errorf("write revisions %s: %w", path, err)
	}
	return fsutil.WriteFile(path, buf.Bytes())
}

// revisionJSONValue is one JSONL value: numbers and booleans bare, the
// rest as JSON strings.
func revisionJSONValue(col string, p *string) string {
	switch {
	case p == nil:
		return "null"
	case col == "revision" || strings.HasSuffix(col, "_flagged") ||
		(strings.HasPrefix(col, "old_") || strings.HasPrefix(col, "new_")) && !strings.HasSuffix(col, "_comment"):
		return *p
	}
	q, _ := json.Marshal(*p)
	return string(q)
}
