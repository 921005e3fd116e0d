package ui

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/widget"
	"github.com/jigbench/jigbench/core/vigor"
)

// agreementTables is the Agreement pane's tables tab.
type agreementTables struct {
	summary   *widget.Label
	tablesBox *fyne.Container
	tables    []*textTable
}

// showTables shows the report's summary line and tables.
func (a *AgreementPane) showTables(rep *vigor.Report) {
	a.summary.SetText(fmt.Sprintf("Split %s: %d process and %d result items; %d annotators (%s); judge runs without GT: %s, with GT: %s.",
		rep.Split, rep.Items.Process, rep.Items.Result, len(rep.Annotators), strings.Join(rep.Annotators, ", "),
		runWords(rep.Runs.WithoutGT), runWords(rep.Runs.WithGT)))
	a.tables = nil
	a.tablesBox.Objects = nil
	for _, t := range rep.TextTables() {
		tt := newTextTable(t)
		a.tables = append(a.tables, tt)
		a.tablesBox.Add(tt.box)
	}
	a.tablesBox.Refresh()
}

func runWords(runs []int) string {
	if len(runs) == 0 {
		return "none"
	}
	s := make([]string, len(runs))
	for i, r := range runs {
		s[i] = strconv.Itoa(r)
	}
	return strings.Join(s, ", ")
}
