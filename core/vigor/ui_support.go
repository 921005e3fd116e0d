package vigor

// This file holds what the desktop app needs beyond the CLI: the data
// behind the agreement pictures, computed by the same code as Analyze.

// PlotData is what the agreement pictures show, computed with Analyze's
// own definitions (the same cells, means, classes and accuracy).
type PlotData struct {
	Split string
	// Conditions are the judge conditions in Table 2 order
	// (OrderConditions); the paper's two when no judge run is given.
	Conditions []Condition
	// Accuracy is one grid per condition and track that has items: the
	// judge's accuracy by subdomain (rows) and dimension (columns).
	Accuracy []AccuracyGrid
	// Confusion is one matrix per condition and track that has items.
	Confusion []ConditionConfusion
	// Points are the (item, dimension) cells Table 2 compares: the
	// humans' mean against the judge's mean, both on the 0–1 scale.
	Points []ScatterPoint
}

// AccuracyGrid is the judge's accuracy for one condition and track.
type AccuracyGrid struct {
	Condition Condition
	Track     Track
	Rows      []string // subdomains, sorted; "(none)" for items without one
	Dims      []string // the dimensions' short names on the track
	Accuracy  [][]Value
	Cells     [][]int // the (item, dimension) cells behind each figure
}

// ConditionConfusion is the confusion matrix of one condition and track.
type ConditionConfusion struct {
	Condition Condition
	Track     Track
	Confusion
}

// ScatterPoint is one (item, dimension) cell under one condition.
type ScatterPoint struct {
	Condition Condition
	Track     Track
	Dim       Dim
	Item      string
	Human     float64 // h̄, 0–1
	Judge     float64 // j̄, 0–1
}

// Plots computes the picture data for in, for every judge condition;
// sampleVariance is Options' SampleVariance (it does not change these
// figures but is passed through so the same preparation runs).
func Plots(in Input, sampleVariance bool) (*PlotData, error) {
	// The whole input is checked once, as Analyze checks it; each
	// condition is then measured in the with-GT slot on its own.
	all, err := prepare(in, sampleVariance)
	if err != nil {
		return nil, err
	}
	pd := &PlotData{Split: all.sp.Name, Conditions: OrderConditions(in.Judge)}
	if len(pd.Conditions) == 0 {
		pd.Conditions = Conditions[:]
	}
	c := condIndex(WithGT)
	for _, cond := range pd.Conditions {
		one := in
		one.Judge = in.slotted("", cond)
		a, err := prepare(one, sampleVariance)
		if err != nil {
			return nil, err
		}
		for _, t := range Tracks {
			if a.sp.Count(t) == 0 {
				continue
			}
			g := AccuracyGrid{Condition: cond, Track: t}
			for _, d := range Dims {
				g.Dims = append(g.Dims, d.Short(t))
			}
			for _, sub := range a.groupValues(t, func(it *Item) string { return it.Subdomain }) {
				accs, cells := make([]Value, NumDims), make([]int, NumDims)
				for _, dim := range Dims {
					s, _, _ := a.collect(func(d *itemData) bool { return d.it.Track == t && d.it.Subdomain == sub }, []Dim{dim}, c)
					accs[dim], cells[dim] = s.accuracy(), s.cells
				}
				g.Rows = append(g.Rows, groupName(sub))
				g.Accuracy = append(g.Accuracy, accs)
				g.Cells = append(g.Cells, cells)
			}
			pd.Accuracy = append(pd.Accuracy, g)
			pd.Confusion = append(pd.Confusion, ConditionConfusion{Condition: cond, Track: t, Confusion: a.confusion(t, c)})
		}
		for i := range a.items {
			d := &a.items[i]
			for _, dim := range Dims {
				if !d.ev[dim].j[c].ok {
					continue
				}
				pd.Points = append(pd.Points, ScatterPoint{Condition: cond, Track: d.it.Track, Dim: dim, Item: d.it.ID,
					Human: d.human[dim].mean(d.scale), Judge: d.judge[c][dim].mean(d.scale)})
			}
		}
	}
	return pd, nil
}

// ConfusionOf returns the confusion matrix of cond and t, if the split has
// items on t.
func (pd *PlotData) ConfusionOf(cond Condition, t Track) (Confusion, bool) {
	for _, cf := range pd.Confusion {
		if cf.Condition == cond && cf.Track == t {
			return cf.Confusion, true
		}
	}
	return Confusion{}, false
}

// Grid returns the accuracy grid of cond and t, if the split has items on t.
func (pd *PlotData) Grid(cond Condition, t Track) (AccuracyGrid, bool) {
	for _, g := range pd.Accuracy {
		if g.Condition == cond && g.Track == t {
			return g, true
		}
	}
	return AccuracyGrid{}, false
}
