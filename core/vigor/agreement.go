package vigor

import (
	"context"
	"errors"
	"fmt"
	"math"
	"slices"

	"github.com/jigbench/jigbench/core/progress"
)

// DefaultReplicates is the bootstrap size used unless told otherwise
// (docs/metrics.md, "Agreement statistics" asks for at least 2,000).
const DefaultReplicates = 2000

// Input is what Analyze compares: the human ratings and the judge runs of
// one split.
type Input struct {
	Split  *Split
	Humans []Rating
	Judge  []JudgeRecord
}

// Options tune Analyze.
type Options struct {
	// Replicates is the number of bootstrap replicates; 0 skips the
	// intervals (they are then "undefined").
	Replicates int
	// Seed seeds the bootstrap (PCG), so a report can be reproduced.
	Seed uint64
	// SampleVariance divides variances by n−1 instead of n. The paper does
	// not say which it used; the report says which is shown.
	SampleVariance bool
	// Progress, if set, is called from the calling goroutine, counting
	// bootstrap replicates.
	Progress progress.Func
}

// Analyze computes the agreement report of docs/metrics.md, "Agreement statistics". Inputs that
// contradict the split (unknown items, scores off the scale, a rating or a
// judge run given twice) are errors: statistics over them would mislead.
// The bootstrap stops early with ctx's error when ctx is cancelled.
func Analyze(ctx context.Context, in Input, opt Options) (*Report, error) {
	a, err := prepare(in, opt.SampleVariance)
	if err != nil {
		return nil, err
	}
	rep := a.report()
	if err := a.bootstrap(ctx, rep, opt); err != nil {
		return nil, err
	}
	return rep, nil
}

// scored is one score with who gave it (annotator or run index).
type scored struct {
	who int
	v   int
}

// itemData is everything one item contributes.
type itemData struct {
	it        *Item
	scale     int
	human     [NumDims]cellStat
	judge     [2][NumDims]cellStat // by condition index
	humanVals [NumDims][]scored
	judgeVals [2][NumDims][]scored
	ev        [NumDims]dimEval
}

// dimEval holds the per-(item, dimension) quantities of Table 2.
type dimEval struct {
	hOK    bool // ≥ 2 human ratings
	hVar   float64
	hClass int
	j      [2]judgeEval
}

type judgeEval struct {
	ok          bool // ≥ 2 human ratings and ≥ 1 judge run: the cell counts
	abs, signed float64
	agree       bool
	jClass      int
	varOK       bool // ≥ 2 runs
	v           float64
}

type analysis struct {
	sp         *Split
	items      []itemData
	annotators []string
	runs       [2][]int
	sample     bool
}

func condIndex(c Condition) int {
	if c == WithGT {
		return 1
	}
	return 0
}

func prepare(in Input, sample bool) (*analysis, error) {
	sp := in.Split
	if sp == nil {
		return nil, errors.New("agreement: no split")
	}
	a := &analysis{sp: sp, items: make([]itemData, len(sp.Items)), sample: sample}
	for i := range sp.Items {
		a.items[i].it = &sp.Items[i]
		a.items[i].scale = sp.Items[i].Track.Max()
	}

	who := make(map[string]int)
	for _, r := range in.Humans {
		who[r.Annotator] = 0
	}
	a.annotators = sortedKeys(who)
	for i, n := range a.annotators {
		who[n] = i
	}
	type hkey struct{ item, annotator string }
	seenH := make(map[hkey]bool, len(in.Humans))
	for _, r := range in.Humans {
		if err := sp.CheckRating(r); err != nil {
			return nil, fmt.Errorf("agreement: rating by %s: %w", r.Annotator, err)
		}
		k := hkey{r.Item, r.Annotator}
		if seenH[k] {
			return nil, fmt.Errorf("agreement: %s rated item %s more than once in the input; give each annotator's ratings once",
				r.Annotator, r.Item)
		}
		seenH[k] = true
		d := &a.items[sp.index[r.Item]]
		for _, dim := range Dims {
			if v := r.Scores[dim]; v != NoScore {
				d.human[dim].add(v)
				d.humanVals[dim] = append(d.humanVals[dim], scored{who[r.Annotator], v})
			}
		}
	}

	var runSet [2]map[int]bool
	for c := range runSet {
		runSet[c] = make(map[int]bool)
	}
	type jkey struct {
		item string
		run  int
		cond Condition
	}
	seenJ := make(map[jkey]*JudgeRecord, len(in.Judge))
	for i := range in.Judge {
		r := &in.Judge[i]
		it, ok := sp.Item(r.Item)
		switch {
		case !ok:
			return nil, fmt.Errorf("agreement: %s line %d: item %q is not in split %q", r.Source, r.Line, r.Item, sp.Name)
		case !ValidConditionName(string(r.Condition)):
			return nil, fmt.Errorf("agreement: %s line %d: unknown condition %q", r.Source, r.Line, r.Condition)
		case r.Run < 1:
			return nil, fmt.Errorf("agreement: %s line %d: run %d; runs are numbered from 1", r.Source, r.Line, r.Run)
		}
		if err := r.Scores.CheckScale(it.Track); err != nil {
			return nil, fmt.Errorf("agreement: %s line %d: item %s: %w", r.Source, r.Line, r.Item, err)
		}
		k := jkey{r.Item, r.Run, r.Condition}
		if first, dup := seenJ[k]; dup {
			return nil, fmt.Errorf("agreement: judge run %d (%s) scores item %s twice: %s line %d and %s line %d",
				r.Run, r.Condition, r.Item, first.Source, first.Line, r.Source, r.Line)
		}
		seenJ[k] = r
		if r.Condition != WithGT && r.Condition != WithoutGT {
			continue // Table 2 compares these two; AnalyzeConditions the rest
		}
		c := condIndex(r.Condition)
		runSet[c][r.Run] = true
		d := &a.items[sp.index[r.Item]]
		for _, dim := range Dims {
			if v := r.Scores[dim]; v != NoScore {
				d.judge[c][dim].add(v)
				d.judgeVals[c][dim] = append(d.judgeVals[c][dim], scored{r.Run, v})
			}
		}
	}
	for c := range runSet {
		for r := range runSet[c] {
			a.runs[c] = append(a.runs[c], r)
		}
		slices.Sort(a.runs[c])
	}
	for i := range a.items {
		a.items[i].evaluate(sample)
	}
	return a, nil
}

// evaluate fills d.ev from the sums.
func (d *itemData) evaluate(sample bool) {
	t := d.it.Track
	for _, dim := range Dims {
		h := d.human[dim]
		e := &d.ev[dim]
		if h.n < 2 {
			continue
		}
		e.hOK = true
		e.hVar, _ = h.variance(d.scale, sample)
		e.hClass = h.class(t)
		hm := h.mean(d.scale)
		for c := range 2 {
			j := d.judge[c][dim]
			if j.n < 1 {
				continue
			}
			je := &e.j[c]
			je.ok = true
			je.signed = j.mean(d.scale) - hm
			je.abs = math.Abs(je.signed)
			je.jClass = j.class(t)
			je.agree = je.jClass == e.hClass
			je.v, je.varOK = j.variance(d.scale, sample)
		}
	}
}

// sums accumulates Table 2 quantities over cells.
type sums struct {
	cells, agree int
	abs, signed  float64
	varJ         float64
	nVarJ        int
	varH         float64 // human side: every cell with ≥ 2 ratings
	nVarH        int
}

func (s *sums) addJudge(je *judgeEval) {
	s.cells++
	s.abs += je.abs
	s.signed += je.signed
	if je.agree {
		s.agree++
	}
	if je.varOK {
		s.varJ += je.v
		s.nVarJ++
	}
}

func (s *sums) mae() Value      { return ratio(s.abs, float64(s.cells)) }
func (s *sums) accuracy() Value { return ratio(float64(s.agree), float64(s.cells)) }
func (s *sums) bias() Value     { return ratio(s.signed, float64(s.cells)) }
func (s *sums) judgeVar() Value { return ratio(s.varJ, float64(s.nVarJ)) }
func (s *sums) humanVar() Value { return ratio(s.varH, float64(s.nVarH)) }

// collect sums condition c's judge cells and the human cells of the items
// that pass keep, over dims. items counts items with a judge cell; hItems
// items with a human cell.
func (a *analysis) collect(keep func(*itemData) bool, dims []Dim, c int) (s sums, items, hItems int) {
	for i := range a.items {
		d := &a.items[i]
		if !keep(d) {
			continue
		}
		jAny, hAny := false, false
		for _, dim := range dims {
			e := &d.ev[dim]
			if !e.hOK {
				continue
			}
			hAny = true
			s.varH += e.hVar
			s.nVarH++
			if e.j[c].ok {
				jAny = true
				s.addJudge(&e.j[c])
			}
		}
		if jAny {
			items++
		}
		if hAny {
			hItems++
		}
	}
	return s, items, hItems
}

func onTrack(t Track) func(*itemData) bool {
	return func(d *itemData) bool { return d.it.Track == t }
}

func (a *analysis) report() *Report {
	rep := &Report{
		Format:     AgreementFormat,
		Split:      a.sp.Name,
		Variance:   "population",
		Annotators: a.annotators,
		Runs:       CondRuns{WithoutGT: a.runs[0], WithGT: a.runs[1]},
		Breakdowns: []Breakdown{},
	}
	if a.sample {
		rep.Variance = "sample"
	}
	for _, t := range Tracks {
		*byTrack(t, &rep.Items.Process, &rep.Items.Result) = a.sp.Count(t)
	}
	a.table2(rep)
	a.ceiling(rep)
	a.reliability(rep)
	a.breakdowns(rep)
	a.biasAndConfusion(rep)
	return rep
}

func (a *analysis) table2(rep *Report) {
	for _, t := range Tracks {
		total := a.sp.Count(t)
		for _, cond := range Conditions {
			c := condIndex(cond)
			s, items, hItems := a.collect(onTrack(t), Dims[:], c)
			cell := rep.Table2.Judge(cond).Track(t)
			*cell = Cell{MAE: s.mae(), Accuracy: s.accuracy(), Variance: s.judgeVar(), Items: items, Cells: s.cells,
				Excluded: Excluded{FewHumans: total - hItems, NoJudge: hItems - items}}
			if c == 0 {
				h := rep.Table2.HumanExperts.Track(t)
				*h = Cell{Variance: s.humanVar(), Items: hItems, Cells: s.nVarH, Excluded: Excluded{FewHumans: total - hItems}}
				if s.nVarH > 0 {
					// The humans against their own mean: 0 and 100 % by construction.
					h.MAE, h.Accuracy = Defined(0), Defined(1)
				}
			}
		}
	}
}

// ceiling is the leave-one-out comparison of each annotator with the mean
// of the others, with Table 2's MAE and class agreement.
func (a *analysis) ceiling(rep *Report) {
	type acc struct {
		abs   float64
		agree int
		n     int
	}
	per := make([][2]acc, len(a.annotators)) // [annotator][track index]
	var pooled [2]acc
	for i := range a.items {
		d := &a.items[i]
		t := d.it.Track
		for _, dim := range Dims {
			h := d.human[dim]
			if h.n < 2 {
				continue
			}
			for _, sv := range d.humanVals[dim] {
				others := cellStat{n: h.n - 1, sum: h.sum - int64(sv.v)}
				self := cellStat{n: 1, sum: int64(sv.v)}
				abs := math.Abs(self.mean(d.scale) - others.mean(d.scale))
				agree := 0
				if self.class(t) == others.class(t) {
					agree = 1
				}
				for _, p := range []*acc{&per[sv.who][trackIndex(t)], &pooled[trackIndex(t)]} {
					p.abs += abs
					p.agree += agree
					p.n++
				}
			}
		}
	}
	cell := func(p acc) CeilingCell {
		return CeilingCell{MAE: ratio(p.abs, float64(p.n)), Accuracy: ratio(float64(p.agree), float64(p.n)), Cells: p.n}
	}
	rep.HumanCeiling.PerAnnotator = []AnnotatorCeiling{}
	for _, t := range Tracks {
		*byTrack(t, &rep.HumanCeiling.Process, &rep.HumanCeiling.Result) = cell(pooled[trackIndex(t)])
	}
	for w, name := range a.annotators {
		ac := AnnotatorCeiling{Annotator: name}
		for _, t := range Tracks {
			*byTrack(t, &ac.Process, &ac.Result) = cell(per[w][trackIndex(t)])
		}
		rep.HumanCeiling.PerAnnotator = append(rep.HumanCeiling.PerAnnotator, ac)
	}
}

// reliability computes alpha (interval on the process track, nominal on
// the result track) and, on the result track, Fleiss' kappa and Gwet's AC1,
// among the humans and among each condition's runs.
func (a *analysis) reliability(rep *Report) {
	for g := range 3 { // humans, judge without GT, judge with GT
		set := &rep.Reliability.Humans
		switch g {
		case 1:
			set = &rep.Reliability.JudgeWithoutGT
		case 2:
			set = &rep.Reliability.JudgeWithGT
		}
		vals := func(d *itemData, dim Dim) []scored {
			if g == 0 {
				return d.humanVals[dim]
			}
			return d.judgeVals[g-1][dim]
		}
		for _, t := range Tracks {
			tr := byTrack(t, &set.Process, &set.Result)
			tr.Metric = MetricNominal.String()
			if t == TrackProcess {
				tr.Metric = MetricInterval.String()
			}
			coders := make(map[int]bool)
			var all [][]float64
			tr.ByDimension = make([]DimCoefficients, 0, NumDims)
			for _, dim := range Dims {
				var units [][]float64
				for i := range a.items {
					d := &a.items[i]
					if d.it.Track != t {
						continue
					}
					vs := vals(d, dim)
					if len(vs) == 0 {
						continue
					}
					u := make([]float64, len(vs))
					for k, sv := range vs {
						u[k] = float64(sv.v)
						coders[sv.who] = true
					}
					units = append(units, u)
				}
				all = append(all, units...)
				tr.ByDimension = append(tr.ByDimension, DimCoefficients{Dimension: dim.Name(t), Coefficients: coefficients(units, t)})
			}
			tr.All = coefficients(all, t)
			tr.Coders = len(coders)
		}
	}
}

func coefficients(units [][]float64, t Track) Coefficients {
	c := Coefficients{}
	for _, u := range units {
		if len(u) >= 2 {
			c.Units++
		}
	}
	if t == TrackProcess {
		c.KrippendorffAlpha = KrippendorffAlpha(units, MetricInterval)
		return c
	}
	c.KrippendorffAlpha = KrippendorffAlpha(units, MetricNominal)
	fk, ac1 := FleissKappa(units), GwetAC1(units, 2)
	c.FleissKappa, c.GwetAC1 = &fk, &ac1
	return c
}

// groupKeys are the item attributes breakdowns group by.
var groupKeys = []struct {
	by  string
	key func(*Item) string
}{
	{"domain", func(it *Item) string { return it.Domain }},
	{"subdomain", func(it *Item) string { return it.Subdomain }},
	{"model", func(it *Item) string { return it.Model }},
}

func groupName(s string) string {
	if s == "" {
		return "(none)"
	}
	return s
}

func (a *analysis) breakdowns(rep *Report) {
	add := func(by, group string, t Track, keep func(*itemData) bool, dims []Dim) {
		for _, cond := range Conditions {
			s, items, _ := a.collect(keep, dims, condIndex(cond))
			rep.Breakdowns = append(rep.Breakdowns, Breakdown{
				By: by, Group: group, Track: t, Condition: cond,
				MAE: s.mae(), Accuracy: s.accuracy(), JudgeVariance: s.judgeVar(), HumanVariance: s.humanVar(),
				Bias: s.bias(), Items: items, Cells: s.cells,
			})
		}
	}
	for _, t := range Tracks {
		if a.sp.Count(t) == 0 {
			continue
		}
		for _, dim := range Dims {
			add("dimension", dim.Name(t), t, onTrack(t), []Dim{dim})
		}
		for _, g := range groupKeys {
			for _, v := range a.groupValues(t, g.key) {
				key := g.key
				add(g.by, groupName(v), t, func(d *itemData) bool { return d.it.Track == t && key(d.it) == v }, Dims[:])
			}
		}
	}
}

// groupValues lists the distinct values of key among track t's items.
func (a *analysis) groupValues(t Track, key func(*Item) string) []string {
	set := make(map[string]bool)
	for i := range a.sp.Items {
		if it := &a.sp.Items[i]; it.Track == t {
			set[key(it)] = true
		}
	}
	return sortedKeys(set)
}

func (a *analysis) biasAndConfusion(rep *Report) {
	for _, cond := range Conditions {
		c := condIndex(cond)
		for _, t := range Tracks {
			tb := byCond(cond, &rep.Bias.JudgeWithoutGT, &rep.Bias.JudgeWithGT)
			b := byTrack(t, &tb.Process, &tb.Result)
			s, _, _ := a.collect(onTrack(t), Dims[:], c)
			b.Overall = s.bias()
			b.ByDimension, b.ByModel = []GroupValue{}, []GroupValue{}
			for _, dim := range Dims {
				s, _, _ := a.collect(onTrack(t), []Dim{dim}, c)
				b.ByDimension = append(b.ByDimension, GroupValue{Group: dim.Name(t), Value: s.bias(), Cells: s.cells})
			}
			for _, m := range a.groupValues(t, func(it *Item) string { return it.Model }) {
				s, _, _ := a.collect(func(d *itemData) bool { return d.it.Track == t && d.it.Model == m }, Dims[:], c)
				b.ByModel = append(b.ByModel, GroupValue{Group: groupName(m), Value: s.bias(), Cells: s.cells})
			}

			cs := byCond(cond, &rep.Confusion.JudgeWithoutGT, &rep.Confusion.JudgeWithGT)
			*byTrack(t, &cs.Process, &cs.Result) = a.confusion(t, c)
		}
	}
}

// confusion counts condition c's cells on track t by class.
func (a *analysis) confusion(t Track, c int) Confusion {
	labels := []string{"0", "1"}
	if t == TrackProcess {
		labels = BucketLabels[:]
	}
	cf := Confusion{Labels: labels, Matrix: newMatrix(len(labels)), ByDimension: make([]DimConfusion, NumDims)}
	for _, dim := range Dims {
		cf.ByDimension[dim] = DimConfusion{Dimension: dim.Name(t), Matrix: newMatrix(len(labels))}
	}
	for i := range a.items {
		d := &a.items[i]
		if d.it.Track != t {
			continue
		}
		for _, dim := range Dims {
			e := &d.ev[dim]
			if !e.j[c].ok {
				continue
			}
			cf.Matrix[e.hClass][e.j[c].jClass]++
			cf.ByDimension[dim].Matrix[e.hClass][e.j[c].jClass]++
		}
	}
	return cf
}

func newMatrix(n int) [][]int {
	m := make([][]int, n)
	for i := range m {
		m[i] = make([]int, n)
	}
	return m
}
