package vigor

import "fmt"

// TextTables returns the whole-split Table 3 of each track and the ranking
// agreement of the whole split and each domain, as the app shows them;
// the strings are WriteText's.
func (lb *Leaderboard) TextTables() []TextTable {
	var ts []TextTable
	for _, t := range Tracks {
		header, rows := lb.table3("all", "all", t, lb.CI.Replicates > 0)
		if len(rows) == 0 {
			continue
		}
		ts = append(ts, TextTable{Title: fmt.Sprintf("Table 3, %s track", t),
			Note:   "Per model, judge and humans over the same items, in %; intervals from the item bootstrap.",
			Header: header, Rows: rows})
	}
	rank := TextTable{Title: "Ranking agreement", Note: "Judge vs humans over the models (Kendall τ-b, Spearman ρ, intervals in brackets); " +
		"runs' τ-b: how alike the judge's runs rank the models.", Header: rankHeader}
	for i := range lb.Rankings {
		if lb.Rankings[i].By != "subdomain" {
			rank.Rows = append(rank.Rows, lb.Rankings[i].cells())
		}
	}
	return append(ts, rank)
}

// TextTable is Table 2 with a row per judge condition and the paired
// differences, as the app shows it; the strings are WriteText's.
func (cr *ConditionsReport) TextTable() TextTable {
	rows, _, diffs := cr.tableRows()
	return TextTable{Title: "Table 2 by judge condition",
		Note:   "Judge runs " + cr.runsLine() + ". Paired differences A − B below the rows, estimate and interval.",
		Header: cr.header(), Rows: append(rows, diffs...)}
}
