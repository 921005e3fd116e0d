package vigor

import (
	"encoding/csv"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
)

// IRROptions describe a reliability-data CSV (one row per coder, one column
// per unit; an empty cell or * is a missing value).
type IRROptions struct {
	Metric Metric
	// Header: the first row names the units. Labels: the first column
	// names the coders.
	Header, Labels bool
}

// IRRResult is the reliability of one data set, as `jigbench vigor irr`
// prints it. Fleiss' kappa and Gwet's AC1 treat values as categories and so
// apply to the nominal metric only; they are nil (null) otherwise.
type IRRResult struct {
	KrippendorffAlpha Value  `json:"krippendorff_alpha"`
	FleissKappa       *Value `json:"fleiss_kappa"`
	GwetAC1           *Value `json:"gwet_ac1"`
	Units             int    `json:"units"`
	Coders            int    `json:"coders"`
	Metric            string `json:"metric"`
	PairableUnits     int    `json:"pairable_units"` // units with ≥ 2 values
}

// MaxReliabilityBytes bounds a reliability-data file: coders × units of
// short labels, never near this size.
const MaxReliabilityBytes = 64 << 20

// IRR reads reliability data and computes its reliability.
func IRR(r io.Reader, opt IRROptions) (IRRResult, error) {
	units, coders, err := ReadReliabilityData(r, opt)
	if err != nil {
		return IRRResult{}, err
	}
	res := IRRResult{KrippendorffAlpha: KrippendorffAlpha(units, opt.Metric), Units: len(units), Coders: coders,
		Metric: opt.Metric.String()}
	for _, u := range units {
		if len(u) >= 2 {
			res.PairableUnits++
		}
	}
	if opt.Metric == MetricNominal {
		fk, ac1 := FleissKappa(units), GwetAC1(units, 0)
		res.FleissKappa, res.GwetAC1 = &fk, &ac1
	}
	return res, nil
}

// ReadReliabilityData reads the coder × unit CSV into units (the values each
// unit received, missing ones left out) and the number of coders. For the
// nominal metric values may be any labels; otherwise they must be numbers
// (non-negative for ratio).
func ReadReliabilityData(r io.Reader, opt IRROptions) (units [][]float64, coders int, err error) {
	cr := csv.NewReader(r)
	cr.FieldsPerRecord = -1
	cr.TrimLeadingSpace = true
	rows, err := cr.ReadAll()
	if err != nil {
		var pe *csv.ParseError
		if errors.As(err, &pe) {
			return nil, 0, &LineError{Line: pe.Line, Err: pe.Err}
		}
		return nil, 0, err
	}
	first := 1 // line number of rows[0]
	if opt.Header && len(rows) > 0 {
		rows = rows[1:]
		first = 2
	}
	col0 := 0
	if opt.Labels {
		col0 = 1
	}
	width := 0
	for _, row := range rows {
		width = max(width, len(row)-col0)
	}
	if len(rows) == 0 || width <= 0 {
		return nil, 0, errors.New("no reliability data: want one row per coder, one column per unit")
	}

	// Nominal labels become codes; their numeric value does not matter,
	// only equality, so sorted label order is as good as any.
	var codes map[string]float64
	if opt.Metric == MetricNominal {
		set := make(map[string]bool)
		for _, row := range rows {
			for _, cell := range row[min(col0, len(row)):] {
				if v, ok := cellValue(cell); ok {
					set[v] = true
				}
			}
		}
		labels := sortedKeys(set)
		codes = make(map[string]float64, len(labels))
		for i, l := range labels {
			codes[l] = float64(i)
		}
	}

	units = make([][]float64, width)
	for ri, row := range rows {
		if len(row) > col0 {
			coders++
		}
		for ci := col0; ci < len(row); ci++ {
			s, ok := cellValue(row[ci])
			if !ok {
				continue
			}
			var v float64
			if codes != nil {
				v = codes[s]
			} else {
				v, err = strconv.ParseFloat(s, 64)
				if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
					return nil, 0, lineErrorf(first+ri, "column %d: %q is not a number (the %s metric needs numbers%s)",
						ci+1, s, opt.Metric, labelHint(ri, ci, opt))
				}
				if opt.Metric == MetricRatio && v < 0 {
					return nil, 0, lineErrorf(first+ri, "column %d: %v is negative; the ratio metric needs values ≥ 0", ci+1, v)
				}
			}
			units[ci-col0] = append(units[ci-col0], v)
		}
	}
	return slices.Clip(units), coders, nil
}

// cellValue trims a cell; empty and * are missing.
func cellValue(cell string) (string, bool) {
	s := strings.TrimSpace(cell)
	if s == "" || s == "*" {
		return "", false
	}
	return s, true
}

func labelHint(row, col int, opt IRROptions) string {
	header, labels := row == 0 && !opt.Header, col == 0 && !opt.Labels
	switch {
	case header && labels:
		return "; use --header if the first row names the units, --labels if the first column names the coders"
	case header:
		return "; if the first row names the units, use --header"
	case labels:
		return "; if the first column names the coders, use --labels"
	}
	return ""
}

// String renders a short summary, for logs.
func (r IRRResult) String() string {
	return fmt.Sprintf("alpha(%s)=%s units=%d coders=%d", r.Metric, r.KrippendorffAlpha, r.Units, r.Coders)
}
