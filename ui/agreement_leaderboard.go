package ui

import (
	"context"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/widget"

	"github.com/jigbench/jigbench/core/vigor"
)

// agreementBoard is the Agreement pane's Leaderboard tab: the paper's
// Table 3 for the judge and the humans and how alike they rank the models,
// for one judge condition at a time.
type agreementBoard struct {
	board     *vigor.Leaderboard
	boardCond *widget.Select
	boardNote *widget.Label
	boardBox  *fyne.Container
	boardTabs []*textTable
	boardReq  uint64
}

func (a *AgreementPane) leaderboardView() fyne.CanvasObject {
	a.boardCond = widget.NewSelect(nil, func(s string) { a.rankCondition(vigor.Condition(s)) })
	a.boardNote = widget.NewLabel("Compute to see the leaderboard.")
	a.boardNote.Wrapping = fyne.TextWrapWord
	a.boardBox = container.NewVBox()
	top := container.NewVBox(container.NewBorder(nil, nil, widget.NewLabel("Judge condition"), nil, a.boardCond), a.boardNote)
	return container.NewBorder(container.NewPadded(top), nil, nil, nil, container.NewScroll(container.NewPadded(a.boardBox)))
}

// showBoard shows lb (nil: none) and offers the conditions of judge.
func (a *AgreementPane) showBoard(judge []vigor.JudgeRecord, lb *vigor.Leaderboard) {
	a.board = lb
	var opts []string
	for _, c := range vigor.OrderConditions(judge) {
		opts = append(opts, string(c))
	}
	a.boardCond.OnChanged = nil
	a.boardCond.SetOptions(opts)
	if lb == nil {
		a.boardCond.ClearSelected()
		a.boardNote.SetText("No leaderboard: it ranks the models by a judge condition, and no judge run is loaded.")
		a.setTables(a.boardBox, &a.boardTabs, nil)
	} else {
		a.boardCond.SetSelected(string(lb.Condition))
		a.boardNote.SetText("Split " + lb.Split + ", judge condition " + string(lb.Condition) + ", runs " + vigor.RunList(lb.Runs) + ". " +
			"Scores 0–100 %; rank 1 is the best model. Ranks that agree give τ-b and ρ near 1.")
		a.setTables(a.boardBox, &a.boardTabs, lb.Tables())
	}
	a.boardCond.OnChanged = func(s string) { a.rankCondition(vigor.Condition(s)) }
}

// rankCondition ranks the models by another judge condition, off the UI
// goroutine.
func (a *AgreementPane) rankCondition(c vigor.Condition) {
	if a.report == nil || (a.board != nil && a.board.Condition == c) {
		return
	}
	in, opts := a.input, a.opts
	a.boardReq++
	id := a.boardReq
	a.status.Set("Ranking the models by " + condWords(c) + "…")
	a.work.Go(func() func() {
		lb, err := vigor.BuildLeaderboard(context.Background(), in, vigor.LeaderboardOptions{Condition: c, Replicates: opts.Replicates, Seed: opts.Seed})
		return func() {
			if id != a.boardReq {
				return
			}
			if err != nil {
				a.showError(err)
				return
			}
			a.showBoard(in.Judge, lb)
			a.status.Set("Leaderboard by " + condWords(c) + ".")
		}
	})
}
