package ui

import (
	"cmp"
	"fmt"
	"slices"
	"sync"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/puzzle"
	"github.com/jigbench/jigbench/core/render"
	"github.com/jigbench/jigbench/core/score"
)

// scoreInstances is the Score pane's instance browser.
type scoreInstances struct {
	onlyInvalid                    *widget.Check
	instGrid, instModel, instOrder *widget.Select
	instRows                       []int // indices into report.Instances
	instList                       *widget.List
	reassembly, solved             *ZoomView
	instInfo, rawText              *widget.Label
	instanceCache                  map[string]*render.Generated
	instanceMu                     sync.Mutex
	selected                       int
}

func (s *ScorePane) instancesView() fyne.CanvasObject {
	s.onlyInvalid = widget.NewCheck("Invalid only", func(bool) { s.filterInstances() })
	s.instGrid = widget.NewSelect(nil, func(string) { s.filterInstances() })
	s.instModel = widget.NewSelect(nil, func(string) { s.filterInstances() })
	s.instOrder = widget.NewSelect([]string{orderScored, orderWorstPA, orderWorstSC}, func(string) { s.filterInstances() })
	s.instOrder.SetSelected(orderScored)
	s.instList = widget.NewList(
		func() int { return len(s.instRows) },
		func() fyne.CanvasObject {
			l := widget.NewLabel("")
			l.Truncation = fyne.TextTruncateEllipsis
			return l
		},
		func(i widget.ListItemID, o fyne.CanvasObject) {
			if s.report == nil || i >= len(s.instRows) {
				o.(*widget.Label).SetText("")
				return
			}
			is := &s.report.Instances[s.instRows[i]]
			// The instance and condition first, so a narrow list still shows them.
			text := fmt.Sprintf("%s · %s · PA %s SC %s · %s", is.ID, is.Condition, score.Percent(is.PA), score.Percent(is.SC), is.Model)
			if !is.Valid {
				text = fmt.Sprintf("%s · %s · INVALID · %s", is.ID, is.Condition, is.Model)
			}
			o.(*widget.Label).SetText(text)
		},
	)
	s.instList.OnSelected = func(i widget.ListItemID) { s.SelectInstance(s.instRows[i]) }
	s.reassembly, s.solved = NewZoomView(nil), NewZoomView(nil)
	s.instInfo = widget.NewLabel("Choose an instance to see the model's reassembly beside the solved image.")
	s.instInfo.Wrapping = fyne.TextWrapWord
	s.rawText = widget.NewLabel("")
	s.rawText.Wrapping = fyne.TextWrapWord
	s.rawText.Selectable = true
	raw := container.NewVScroll(s.rawText)
	raw.SetMinSize(fyne.NewSize(0, 90))
	// Stacked, so the narrow list side holds every filter at 1024 px.
	filters := container.NewVBox(container.NewGridWithColumns(2, s.instModel, s.instGrid),
		container.NewBorder(nil, nil, s.onlyInvalid, nil, s.instOrder))
	left := container.NewBorder(filters, nil, nil, nil, s.instList)
	header := func(text string) *widget.Label {
		l := widget.NewLabelWithStyle(text, fyne.TextAlignCenter, fyne.TextStyle{Bold: true})
		l.Truncation = fyne.TextTruncateEllipsis // never over its neighbour
		return l
	}
	pics := container.NewGridWithColumns(2,
		container.NewBorder(header("Reassembly (green: right cell, red: wrong)"), nil, nil, nil, s.reassembly),
		container.NewBorder(header("Solved"), nil, nil, nil, s.solved))
	right := container.NewBorder(nil, container.NewVBox(s.instInfo, raw), nil, nil, pics)
	split := container.NewHSplit(left, right)
	split.SetOffset(0.36)
	return split
}

// filterInstances applies the instance filters.
func (s *ScorePane) filterInstances() {
	if s.report == nil || s.instList == nil {
		return
	}
	s.instRows = s.instRows[:0]
	model, grid := s.instModel.Selected, parseGrid(s.instGrid.Selected)
	for i, is := range s.report.Instances {
		if s.onlyInvalid.Checked && is.Valid {
			continue
		}
		if model != "" && model != "All models" && is.Model != model {
			continue
		}
		if grid != 0 && is.Grid != grid {
			continue
		}
		s.instRows = append(s.instRows, i)
	}
	s.orderInstances()
	s.instList.UnselectAll()
	s.instList.Refresh()
}

// Instance orders.
const (
	orderScored  = "Scoring order"
	orderWorstPA = "Worst PA first"
	orderWorstSC = "Worst SC first"
)

// orderInstances sorts the listed instances as chosen; ties keep the
// scoring order.
func (s *ScorePane) orderInstances() {
	var key func(*score.InstanceScore) float64
	switch s.instOrder.Selected {
	case orderWorstPA:
		key = func(is *score.InstanceScore) float64 { return is.PA }
	case orderWorstSC:
		key = func(is *score.InstanceScore) float64 { return is.SC }
	default:
		return
	}
	slices.SortStableFunc(s.instRows, func(a, b int) int {
		return cmp.Compare(key(&s.report.Instances[a]), key(&s.report.Instances[b]))
	})
}

// clearInstance empties the instance view (a new report came).
func (s *ScorePane) clearInstance() {
	s.selected = -1
	if s.instInfo == nil {
		return
	}
	s.instInfo.SetText("Choose an instance to see the model's reassembly beside the solved image.")
	s.rawText.SetText("")
	s.reassembly.SetImage(nil)
	s.solved.SetImage(nil)
	s.instanceMu.Lock()
	clear(s.instanceCache)
	s.instanceMu.Unlock()
}

// SelectInstance shows report instance i: its reassembly, or why it is invalid.
func (s *ScorePane) SelectInstance(i int) {
	if s.report == nil || i < 0 || i >= len(s.report.Instances) {
		return
	}
	s.selected = i
	is := s.report.Instances[i]
	if !is.Valid {
		s.instInfo.SetText(fmt.Sprintf("%s on %s (%s): invalid — %s. Every metric counts as 0.", is.Model, is.ID, is.Condition, is.Reason))
		s.rawText.SetText(cmp.Or(is.Raw, "(no text: the answer was missing or not text)"))
	} else {
		s.instInfo.SetText(fmt.Sprintf("%s on %s (%s): PA %s · EM %s · AA %s · AA directed %s · SC %s; %d unknown IDs, %d unusable positions.",
			is.Model, is.ID, is.Condition, score.Percent(is.PA), score.Percent(is.EM), score.Percent(is.AA), score.Percent(is.AADirected), score.Percent(is.SC), is.UnknownIDs, is.BadPositions))
		s.rawText.SetText("")
	}
	rep := s.report
	s.work.Go(func() func() {
		gen, err := s.instance(is.ID)
		var reasm, solved *render.Pyramid
		if err == nil && gen.Puzzle != nil {
			pred := is.Pred
			if pred == nil {
				pred = make([]int, len(gen.Instance.Pieces))
				for k := range pred {
					pred[k] = -1
				}
			}
			reasm = render.NewPyramid(render.Reassembly(gen.Puzzle, gen.Solved, pred, render.ReassemblyOptions{
				Shaped: is.Condition != puzzle.ConditionRect, Title: is.Model + " · " + is.ID + " · " + is.Condition}))
			solved = render.NewPyramid(gen.Solved)
		}
		return func() {
			if s.report != rep || s.selected != i {
				return
			}
			if err != nil {
				s.status.Set("No pictures for " + is.ID + ": " + err.Error())
			}
			s.reassembly.SetImage(reasm)
			s.solved.SetImage(solved)
			s.reassembly.state.Fit()
			s.solved.state.Fit()
		}
	})
}

// instance finds an instance's pictures: in memory (demo) or its folder.
func (s *ScorePane) instance(id string) (*render.Generated, error) {
	if g, ok := s.memory[id]; ok {
		return g, nil
	}
	s.instanceMu.Lock()
	g, ok := s.instanceCache[id]
	s.instanceMu.Unlock()
	if ok {
		return g, nil
	}
	ti, ok := s.report.Truth.Find(id)
	if !ok || ti.Dir == "" {
		return nil, fmt.Errorf("instance %s has no folder", id)
	}
	g, err := render.LoadInstance(ti.Dir)
	if g == nil {
		return nil, err
	}
	s.instanceMu.Lock()
	if len(s.instanceCache) > 32 {
		clear(s.instanceCache)
	}
	s.instanceCache[id] = g
	s.instanceMu.Unlock()
	return g, nil
}

// ---- export ----
