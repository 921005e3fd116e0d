package vigor

import (
	"bufio"
	"fmt"
	"io"
	"strings"
	"text/tabwriter"

	"github.com/jigbench/jigbench/core/safecsv"
)

// Table is one table of a report, its figures formatted once: the
// terminal (writeText), Markdown (writeMarkdown) and the app's Agreement
// pane lay out the same Tables, so a column or a number format is defined
// in one place.
type Table struct {
	Title string
	// Note says what the figures mean, if the title does not; "" for none.
	Note string
	// Columns are the headers; the first column names the rows ("" when
	// the rows' names say it all).
	Columns []string
	// Rows are the cells, formatted for people; a table without rows is a
	// title and a note ("No bootstrap intervals").
	Rows [][]string
}

// writeText lays out a report for a terminal: the intro line, then each
// table under its title and note, aligned, then the outro line ("" for
// none).
func writeText(w io.Writer, intro string, tables []Table, outro string) error {
	bw := bufio.NewWriter(w)
	// One tabwriter for the whole report: a title line (no tab) ends the
	// previous table's column block, so each table is aligned on its own.
	tw := tabwriter.NewWriter(bw, 0, 0, 2, ' ', 0)
	line := func(cells []string) { fmt.Fprintln(tw, strings.Join(cells, "\t")) }
	fmt.Fprintln(tw, intro)
	for _, t := range tables {
		fmt.Fprintf(tw, "\n%s\n", t.Title)
		if t.Note != "" {
			fmt.Fprintln(tw, t.Note)
		}
		if len(t.Rows) == 0 {
			continue
		}
		line(t.Columns)
		for _, r := range t.Rows {
			line(r)
		}
	}
	if outro != "" {
		fmt.Fprintf(tw, "\n%s\n", outro)
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return bw.Flush()
}

// writeMarkdown writes a report as Markdown: a heading and the intro
// paragraph, then each table as a section with its note.
func writeMarkdown(w io.Writer, heading, intro string, tables []Table) error {
	bw := bufio.NewWriter(w)
	fmt.Fprintf(bw, "# %s\n\n%s\n", heading, intro)
	for _, t := range tables {
		fmt.Fprintf(bw, "\n## %s\n\n", t.Title)
		if t.Note != "" {
			fmt.Fprintln(bw, t.Note)
			if len(t.Rows) > 0 {
				fmt.Fprintln(bw)
			}
		}
		if len(t.Rows) == 0 {
			continue
		}
		mdRow(bw, t.Columns)
		fmt.Fprintf(bw, "|%s\n", strings.Repeat("---|", len(t.Columns)))
		for _, r := range t.Rows {
			mdRow(bw, r)
		}
	}
	return bw.Flush()
}

func mdRow(w io.Writer, cells []string) {
	esc := make([]string, len(cells))
	for i, c := range cells {
		esc[i] = strings.ReplaceAll(c, "|", `\|`)
	}
	fmt.Fprintf(w, "| %s |\n", strings.Join(esc, " | "))
}

// writeCSV writes t's columns and rows as CSV that a spreadsheet opens as
// data (core/safecsv); the title and note are not written.
func (t *Table) writeCSV(w io.Writer) error {
	cw := safecsv.NewWriter(w)
	cw.Write(t.Columns)
	for _, r := range t.Rows {
		cw.Write(r)
	}
	cw.Flush()
	return cw.Error()
}
