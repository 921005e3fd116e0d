package ui

import (
	"fmt"
	"slices"
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

// showTables shows the report's summary line and tables; conds, when
// there are conditions beyond the paper's two, adds its tables (Table 2 by
// condition and, with replicates, their intervals) after Table 2.
func (a *AgreementPane) showTables(rep *vigor.Report, conds *vigor.ConditionsReport) {
	a.summary.SetText(fmt.Sprintf("Split %s: %d process and %d result items; %d annotators (%s); judge runs without GT: %s, with GT: %s.",
		rep.Split, rep.Items.Process, rep.Items.Result, len(rep.Annotators), strings.Join(rep.Annotators, ", "),
		vigor.RunList(rep.Runs.WithoutGT), vigor.RunList(rep.Runs.WithGT)))
	tables := rep.Tables()
	if conds != nil {
		tables = slices.Insert(tables, 1, conds.Tables()...)
	}
	a.setTables(a.tablesBox, &a.tables, tables)
}

// setTables replaces box's tables with ts.
func (a *AgreementPane) setTables(box *fyne.Container, shown *[]*textTable, ts []vigor.Table) {
	*shown = nil
	box.Objects = nil
	for _, t := range ts {
		tt := newTextTable(t)
		*shown = append(*shown, tt)
		box.Add(tt.box)
	}
	box.Refresh()
}
