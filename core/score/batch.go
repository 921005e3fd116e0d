package score

import (
	"bufio"
	"bytes"
	"cmp"
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"strconv"
	"strings"

	"github.com/jigbench/jigbench/core/batch"
	"github.com/jigbench/jigbench/core/fsutil"
	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// Batch output files (docs/models.md): each line's custom_id names the
// instance and the condition, so one file may answer both conditions.

// LoadSources reads a source that may hold several conditions: a batch
// output file gives one answer set per condition its custom_ids name (shape
// before rect) and ignores src.Condition; any other source gives the one set
// of LoadAnswers.
func LoadSources(ctx context.Context, src Source, truth *TruthSet, report progress.Func) ([]*AnswerSet, error) {
	f, err := fsutil.Open(src.Path)
	if err != nil {
		set, err := LoadAnswers(ctx, src, truth, report)
		return []*AnswerSet{set}, err
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil || fi.IsDir() {
		set, err := LoadAnswers(ctx, src, truth, report)
		return []*AnswerSet{set}, err
	}
	br := bufio.NewReaderSize(f, 64<<10)
	head, _ := br.Peek(8 << 10)
	if !batch.LooksLikeOutput(head) {
		set, err := LoadAnswers(ctx, src, truth, report)
		return []*AnswerSet{set}, err
	}
	sets, err := readBatch(ctx, src, truth, br, progress.Serial(report), fi.Size())
	if err != nil {
		return nil, err
	}
	for _, s := range sets {
		s.finish()
	}
	return sets, nil
}

// readBatchInto fills set with the answers a batch output file gives for
// set.Condition (the LoadAnswers path).
func readBatchInto(ctx context.Context, set *AnswerSet, truth *TruthSet, br *bufio.Reader, report progress.Func, size int64) error {
	sets, err := readBatch(ctx, set.Source, truth, br, report, size)
	if err != nil {
		return err
	}
	var have []string
	for _, s := range sets {
		if s.Condition == set.Condition {
			src := set.Source
			*set = *s
			set.Source = src
			return nil
		}
		have = append(have, s.Condition)
	}
	return fmt.Errorf("%s answers no instance in the %s condition (it answers %s)", set.Path, set.Condition, strings.Join(have, ", "))
}

// readBatch reads every line of a batch output file. The last status-200
// line for a custom_id counts; a failed line replaces only another failed
// one, so a resumed run's earlier failures do not hide its answers.
func readBatch(ctx context.Context, src Source, truth *TruthSet, br *bufio.Reader, report progress.Func, size int64) ([]*AnswerSet, error) {
	byCond := map[string]*AnswerSet{}
	answered := map[string]bool{} // custom_ids with a status-200 line
	var general AnswerSet         // problems not tied to a condition
	setOf := func(cond string) *AnswerSet {
		s, ok := byCond[cond]
		if !ok {
			s = &AnswerSet{Source: src, byID: map[string]int{}}
			s.Condition = cond
			byCond[cond] = s
		}
		return s
	}
	var r AnswerReader
	var read int64
	lines := 0
	for {
		line, tooLong, err := readLine(br, maxLineBytes)
		read += int64(len(line))
		if len(line) > 0 || tooLong {
			lines++
			where := src.Path + ":" + strconv.Itoa(lines)
			if tooLong {
				general.problem("%s: the line is longer than %d MB; skipped", where, maxLineBytes>>20)
			} else {
				batchLine(&general, setOf, answered, truth, &r, line, where)
			}
			if lines%256 == 0 {
				if err := ctx.Err(); err != nil {
					return nil, err
				}
				report(progress.Report{Stage: "reading answers", Done: read, Total: size})
			}
		}
		if err == io.EOF {
			break
		}
		if err != nil {
			return nil, fmt.Errorf("read %s: %w", src.Path, fsutil.WithoutPath(err))
		}
	}
	report(progress.Report{Stage: "reading answers", Done: size, Total: size})
	var out []*AnswerSet
	for _, c := range []string{puzzle.ConditionShape, puzzle.ConditionRect} {
		if s, ok := byCond[c]; ok {
			out = append(out, s)
		}
	}
	if len(out) == 0 {
		if len(general.Problems) > 0 {
			return nil, fmt.Errorf("%s holds no usable batch output lines (%s)", src.Path, general.Problems[0])
		}
		return nil, fmt.Errorf("%s holds no answers", src.Path)
	}
	out[0].Problems = append(general.Problems, out[0].Problems...)
	out[0].dropped += general.dropped
	return out, nil
}

// batchLine reads one output line into the set of its condition.
func batchLine(general *AnswerSet, setOf func(string) *AnswerSet, answered map[string]bool, truth *TruthSet, r *AnswerReader, line []byte, where string) {
	a, err := batch.ParseOutput(line)
	if err != nil {
		general.problem("%s: %v; skipped", where, err)
		return
	}
	id, cond, ok := batch.SplitCustomID(a.CustomID)
	if !ok || cond != puzzle.ConditionShape && cond != puzzle.ConditionRect {
		general.problem("%s: custom_id %q is not <instance id>:shape or <instance id>:rect; skipped", where, a.CustomID)
		return
	}
	set := setOf(cond)
	ti, ok := truth.Find(id)
	if !ok {
		set.Unmatched++
		set.problem("%s: no instance %q in the truth", where, id)
		return
	}
	if answered[a.CustomID] && !a.OK {
		return // a failure after an answer: the answer counts
	}
	rec := &AnswerRecord{ID: ti.ID, Where: where, Usage: a.Usage}
	switch {
	case !a.OK:
		rec.Reason = a.Reason
	case len(a.Text) > MaxAnswerBytes:
		rec.Reason = ErrAnswerTooLarge.Error()
	default:
		ans, err := r.Parse([]byte(a.Text), ti.Grid)
		if err != nil {
			rec.Reason = err.Error()
			if a.Truncated() {
				rec.Reason = `truncated (finish_reason "length"): ` + rec.Reason
			}
			rec.Raw = rawText([]byte(a.Text))
		} else {
			rec.Answer = ans
		}
	}
	if i, dup := set.byID[rec.ID]; dup {
		if answered[a.CustomID] {
			set.problem("%s: a second answer for %s (the first is at %s); the last one counts", where, rec.ID, set.Records[i].Where)
		}
		set.Records[i] = rec
	} else {
		set.byID[rec.ID] = len(set.Records)
		set.Records = append(set.Records, rec)
	}
	answered[a.CustomID] = answered[a.CustomID] || a.OK
}

// readLine returns the next line without its line ending; a line longer than
// limit is consumed and reported as tooLong.
func readLine(br *bufio.Reader, limit int) (line []byte, tooLong bool, err error) {
	var long []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if errors.Is(err, bufio.ErrBufferFull) {
			if !tooLong && len(long)+len(chunk) <= limit {
				long = append(long, chunk...)
			} else {
				tooLong, long = true, nil
			}
			continue
		}
		if long != nil || tooLong {
			if !tooLong && len(long)+len(chunk) <= limit {
				chunk = append(long, chunk...)
			} else {
				tooLong, chunk = true, nil
			}
		}
		return bytes.TrimSpace(chunk), tooLong, err
	}
}

// UsageGroup is the token usage of one model × grid × condition, over the
// instances whose answers reported it.
type UsageGroup struct {
	Model     string `json:"model"`
	Grid      int    `json:"grid"`
	Condition string `json:"condition"`
	// N counts the instances with usage; the means are over them.
	N                     int     `json:"n"`
	PromptTokens          float64 `json:"prompt_tokens"`
	CompletionTokens      float64 `json:"completion_tokens"`
	TotalPromptTokens     int64   `json:"total_prompt_tokens"`
	TotalCompletionTokens int64   `json:"total_completion_tokens"`
}

// usageGroups sums the answers' token usage per model × grid × condition, in
// the order of Aggregate's groups. It is never nil, so the report always has
// the key.
func usageGroups(truth *TruthSet, sets []*AnswerSet) []UsageGroup {
	out := []UsageGroup{}
	modelRank := map[string]int{}
	for _, set := range sets {
		if _, ok := modelRank[set.Model]; !ok {
			modelRank[set.Model] = len(modelRank)
		}
		at := map[int]int{} // grid → index in out
		for _, rec := range set.Records {
			ti, ok := truth.Find(rec.ID)
			if rec.Usage == nil || !ok {
				continue
			}
			i, ok := at[ti.Grid]
			if !ok {
				i = len(out)
				at[ti.Grid] = i
				out = append(out, UsageGroup{Model: set.Model, Grid: ti.Grid, Condition: set.Condition})
			}
			g := &out[i]
			g.N++
			g.TotalPromptTokens += rec.Usage.PromptTokens
			g.TotalCompletionTokens += rec.Usage.CompletionTokens
		}
	}
	for i := range out {
		g := &out[i]
		g.PromptTokens = float64(g.TotalPromptTokens) / float64(g.N)
		g.CompletionTokens = float64(g.TotalCompletionTokens) / float64(g.N)
	}
	condRank := func(c string) int {
		if c == puzzle.ConditionShape {
			return 0
		}
		return 1
	}
	slices.SortStableFunc(out, func(a, b UsageGroup) int {
		return cmp.Or(cmp.Compare(modelRank[a.Model], modelRank[b.Model]), cmp.Compare(a.Grid, b.Grid),
			cmp.Compare(condRank(a.Condition), condRank(b.Condition)))
	})
	return out
}
