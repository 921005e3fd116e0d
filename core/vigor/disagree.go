package vigor

import (
	"cmp"
	"io"
	"math"
	"slices"
	"strconv"

	"github.com/jigbench/jigbench/core/safecsv"
)

// Disagreement is one item × dimension × judge condition where both the
// humans and the judge scored: the humans' mean over raters and the judge's
// mean over runs, on the 0–1 scale, and the size of their gap
// (docs/vigor-campaign.md, "Reviewing disagreements").
type Disagreement struct {
	Item      string
	Track     Track
	Model     string
	Domain    string
	Subdomain string
	Dim       Dim
	Condition Condition
	Human     float64
	Judge     float64
	Raters    int
	Runs      int
}

// Gap is |judge − humans|.
func (d *Disagreement) Gap() float64 { return math.Abs(d.Judge - d.Human) }

// Dimension is the dimension's name on the item's track.
func (d *Disagreement) Dimension() string { return d.Dim.Name(d.Track) }

// Disagreements lists every item × dimension × condition scored by at
// least one rater and one judge run, largest gap first; equal gaps keep the
// split's item order, then dimension order, then condition order
// (OrderConditions). The input is checked as Analyze checks it.
func Disagreements(in Input) ([]Disagreement, error) {
	var out []Disagreement
	conds := OrderConditions(in.Judge)
	for ci, cond := range conds {
		a, err := prepareCondition(in, cond)
		if err != nil {
			return nil, err
		}
		for i := range a.items {
			d := &a.items[i]
			for _, dim := range Dims {
				h, j := d.human[dim], d.judge[1][dim]
				if h.n < 1 || j.n < 1 {
					continue
				}
				out = append(out, Disagreement{Item: d.it.ID, Track: d.it.Track, Model: d.it.Model,
					Domain: d.it.Domain, Subdomain: d.it.Subdomain, Dim: dim, Condition: conds[ci],
					Human: h.mean(d.scale), Judge: j.mean(d.scale), Raters: int(h.n), Runs: int(j.n)})
			}
		}
	}
	if in.Split == nil {
		return out, nil
	}
	pos := func(id string) int { return in.Split.index[id] }
	slices.SortStableFunc(out, func(x, y Disagreement) int {
		if c := cmp.Compare(y.Gap(), x.Gap()); c != 0 {
			return c
		}
		if c := cmp.Compare(pos(x.Item), pos(y.Item)); c != 0 {
			return c
		}
		if c := cmp.Compare(x.Dim, y.Dim); c != 0 {
			return c
		}
		return cmp.Compare(slices.Index(conds, x.Condition), slices.Index(conds, y.Condition))
	})
	return out, nil
}

// prepareCondition validates in and prepares it for one judge condition,
// which takes Analyze's with-GT slot (the other conditions are left out).
func prepareCondition(in Input, cond Condition) (*analysis, error) {
	sub := in
	sub.Judge = nil
	for _, r := range in.Judge {
		if r.Condition == cond {
			r.Condition = WithGT
			sub.Judge = append(sub.Judge, r)
		}
	}
	return prepare(sub, false)
}

// DisagreementFilter keeps the cells that match every field set ("" and
// a negative Dim match anything).
type DisagreementFilter struct {
	Dim       Dim // -1: any
	Model     string
	Condition Condition
	Track     Track
}

// AnyDisagreement matches every cell.
var AnyDisagreement = DisagreementFilter{Dim: -1}

// Match reports whether d passes the filter.
func (f DisagreementFilter) Match(d *Disagreement) bool {
	return (f.Dim < 0 || d.Dim == f.Dim) && (f.Model == "" || d.Model == f.Model) &&
		(f.Condition == "" || d.Condition == f.Condition) && (f.Track == "" || d.Track == f.Track)
}

// FilterDisagreements keeps the cells of ds that pass f, in order.
func FilterDisagreements(ds []Disagreement, f DisagreementFilter) []Disagreement {
	var out []Disagreement
	for i := range ds {
		if f.Match(&ds[i]) {
			out = append(out, ds[i])
		}
	}
	return out
}

// DisagreementCSVColumns is the header of WriteDisagreementsCSV.
var DisagreementCSVColumns = [...]string{"rank", "item_id", "track", "model", "domain", "subdomain",
	"dimension", "condition", "humans", "judge", "gap", "raters", "judge_scores"}

// WriteDisagreementsCSV writes the list one cell a row, at full precision,
// through safecsv (a model or item name is never read as a formula).
func WriteDisagreementsCSV(w io.Writer, ds []Disagreement) error {
	cw := safecsv.NewWriter(w)
	num := func(x float64) string { return strconv.FormatFloat(x, 'g', -1, 64) }
	rows := [][]string{DisagreementCSVColumns[:]}
	for i := range ds {
		d := &ds[i]
		rows = append(rows, []string{strconv.Itoa(i + 1), d.Item, string(d.Track), d.Model, d.Domain, d.Subdomain,
			d.Dimension(), string(d.Condition), num(d.Human), num(d.Judge), num(d.Gap()),
			strconv.Itoa(d.Raters), strconv.Itoa(d.Runs)})
	}
	return cw.WriteAll(rows)
}

// ItemReview is everything known about one item for the analyst's review:
// every rater's rating and every judge record, raters by name, judge
// records by condition (OrderConditions) then run.
type ItemReview struct {
	Item    *Item
	Ratings []Rating
	Judge   []JudgeRecord
}

// ReviewItem gathers item id's ratings and judge records from in.
func ReviewItem(in Input, id string) (ItemReview, bool) {
	if in.Split == nil {
		return ItemReview{}, false
	}
	it, ok := in.Split.Item(id)
	if !ok {
		return ItemReview{}, false
	}
	rv := ItemReview{Item: it}
	for _, r := range in.Humans {
		if r.Item == id {
			rv.Ratings = append(rv.Ratings, r)
		}
	}
	slices.SortStableFunc(rv.Ratings, func(x, y Rating) int { return cmp.Compare(x.Annotator, y.Annotator) })
	conds := OrderConditions(in.Judge)
	for _, r := range in.Judge {
		if r.Item == id {
			rv.Judge = append(rv.Judge, r)
		}
	}
	slices.SortStableFunc(rv.Judge, func(x, y JudgeRecord) int {
		if c := cmp.Compare(slices.Index(conds, x.Condition), slices.Index(conds, y.Condition)); c != 0 {
			return c
		}
		return cmp.Compare(x.Run, y.Run)
	})
	return rv, true
}
