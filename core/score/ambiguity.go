package score

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"math/big"

	"github.com/jigbench/jigbench/core/progress"
	"github.com/jigbench/jigbench/core/puzzle"
)

// AmbiguityFormat names version 1 of the ambiguity report.
const AmbiguityFormat = "jigbench.ambiguity/v1"

// AmbiguityReport measures how far each instance's answer is determined by
// its sheets (docs/ambiguity-and-hints.md): the classes of exchangeable
// pieces per condition, the number of arrangements that look exactly like
// the truth, and per grid the share of instances whose answer is unique.
type AmbiguityReport struct {
	Format    string              `json:"format"`
	Grids     []GridAmbiguity     `json:"grids"`
	Instances []InstanceAmbiguity `json:"instances"`
	Problems  []string            `json:"problems"`
}

// InstanceAmbiguity is one instance in both conditions.
type InstanceAmbiguity struct {
	ID    string             `json:"id"`
	Grid  int                `json:"grid"`
	Shape ConditionAmbiguity `json:"shape"`
	Rect  ConditionAmbiguity `json:"rect"`
}

// ConditionAmbiguity is one condition of one instance.
type ConditionAmbiguity struct {
	// Classes are the classes of two or more exchangeable pieces (IDs).
	Classes [][]int `json:"classes"`
	// Pairs counts the unordered exchangeable pairs.
	Pairs int `json:"pairs"`
	// Arrangements is ∏ |C|!, exact, in decimal: "1" when the answer is unique.
	Arrangements string `json:"arrangements"`
	Unique       bool   `json:"unique"`
}

// GridAmbiguity summarises one grid.
type GridAmbiguity struct {
	Grid      int `json:"grid"`
	Instances int `json:"instances"`
	// UniqueShape and UniqueRect count the instances whose answer is unique
	// in each condition; the Share fields are the same as fractions.
	UniqueShape      int     `json:"unique_shape"`
	UniqueRect       int     `json:"unique_rect"`
	UniqueShapeShare float64 `json:"unique_shape_share"`
	UniqueRectShare  float64 `json:"unique_rect_share"`
}

func conditionAmbiguity(e puzzle.Exchange) ConditionAmbiguity {
	classes := e.Classes()
	if classes == nil {
		classes = [][]int{}
	}
	return ConditionAmbiguity{Classes: classes, Pairs: e.Pairs(), Arrangements: e.Arrangements().String(), Unique: e.Unique()}
}

// Ambiguity computes the report for every instance of truth read from a
// folder (with f, as scoring does, and reusing what scoring computed).
// Instances whose classes cannot be computed are listed in Problems.
func Ambiguity(ctx context.Context, truth *TruthSet, f ExchangeFunc, report progress.Func) (*AmbiguityReport, error) {
	report = progress.Serial(report)
	problems, err := truth.computeExchange(ctx, nil, f, report)
	if err != nil {
		return nil, err
	}
	rep := &AmbiguityReport{Format: AmbiguityFormat, Problems: append(append([]string{}, truth.Problems...), problems...)}
	for _, ti := range truth.Instances { // sorted by grid, then ID
		if ti.Exchange == nil {
			continue
		}
		ia := InstanceAmbiguity{ID: ti.ID, Grid: ti.Grid,
			Shape: conditionAmbiguity(ti.Exchange.Shape), Rect: conditionAmbiguity(ti.Exchange.Rect)}
		rep.Instances = append(rep.Instances, ia)
		if len(rep.Grids) == 0 || rep.Grids[len(rep.Grids)-1].Grid != ti.Grid {
			rep.Grids = append(rep.Grids, GridAmbiguity{Grid: ti.Grid})
		}
		g := &rep.Grids[len(rep.Grids)-1]
		g.Instances++
		if ia.Shape.Unique {
			g.UniqueShape++
		}
		if ia.Rect.Unique {
			g.UniqueRect++
		}
	}
	for i := range rep.Grids {
		g := &rep.Grids[i]
		g.UniqueShapeShare = float64(g.UniqueShape) / float64(g.Instances)
		g.UniqueRectShare = float64(g.UniqueRect) / float64(g.Instances)
	}
	if len(rep.Instances) == 0 {
		if len(problems) > 0 {
			return nil, fmt.Errorf("no instance's exchangeable pieces could be computed (%s)", problems[len(problems)-1])
		}
		return nil, fmt.Errorf("no instance read from a folder, so no pixels to compare")
	}
	return rep, nil
}

// WriteJSON writes the report with one grid, instance or problem a line,
// so a large dataset's report stays readable and diffable.
func (r *AmbiguityReport) WriteJSON(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "{\n \"format\": %q,\n", r.Format)
	lists := []struct {
		name  string
		n     int
		item  func(i int) any
		comma string
	}{
		{"grids", len(r.Grids), func(i int) any { return r.Grids[i] }, ","},
		{"instances", len(r.Instances), func(i int) any { return r.Instances[i] }, ","},
		{"problems", len(r.Problems), func(i int) any { return r.Problems[i] }, ""},
	}
	for _, l := range lists {
		fmt.Fprintf(bw, " %q: [", l.name)
		for i := range l.n {
			b, err := json.Marshal(l.item(i))
			if err != nil {
				return err
			}
			if i > 0 {
				bw.WriteByte(',')
			}
			bw.WriteString("\n  ")
			bw.Write(b)
		}
		if l.n > 0 {
			bw.WriteString("\n ")
		}
		fmt.Fprintf(bw, "]%s\n", l.comma)
	}
	bw.WriteString("}\n")
	return bw.Flush()
}

// WriteTable writes the per-grid summary and one line per instance.
func (r *AmbiguityReport) WriteTable(w io.Writer) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "%6s %9s %13s %13s\n", "grid", "instances", "unique shape", "unique rect")
	for _, g := range r.Grids {
		fmt.Fprintf(bw, "%6s %9d %13s %13s\n", gridName(g.Grid), g.Instances,
			fmt.Sprintf("%d (%s)", g.UniqueShape, pct(g.UniqueShapeShare)), fmt.Sprintf("%d (%s)", g.UniqueRect, pct(g.UniqueRectShare)))
	}
	width := len("instance")
	for _, ia := range r.Instances {
		width = min(48, max(width, len([]rune(ia.ID))))
	}
	fmt.Fprintf(bw, "\n%-*s %6s %13s %16s %13s %16s\n", width, "instance", "grid", "shape classes", "shape arrangem.", "rect classes", "rect arrangem.")
	for _, ia := range r.Instances {
		fmt.Fprintf(bw, "%-*s %6s %13d %16s %13d %16s\n", width, clip(ia.ID, width), gridName(ia.Grid),
			len(ia.Shape.Classes), shortBig(ia.Shape.Arrangements), len(ia.Rect.Classes), shortBig(ia.Rect.Arrangements))
	}
	return bw.Flush()
}

// shortBig writes a decimal integer of up to 16 digits as it is, a longer
// one as d.ddde+N.
func shortBig(s string) string {
	if len(s) <= 16 {
		return s
	}
	var x big.Float
	x.SetString(s)
	return x.Text('e', 3)
}
