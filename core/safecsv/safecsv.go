// Package safecsv writes CSV that a spreadsheet opens as data, never as
// formulas, and reads it back unchanged (docs/formats.md, "CSV files").
//
// A spreadsheet evaluates a cell that starts with =, +, - or @ (and some
// treat a leading tab or carriage return the same way), so a rater's
// comment "=HYPERLINK(…)" would run when the export is opened. Such a
// cell, and one that starts with an apostrophe, is written with one
// apostrophe in front — the mark spreadsheets themselves use for "text".
// A cell that is a number ("-0.5", "+3") is left as it is. Reading removes
// one leading apostrophe, so every value comes back as it was written.
package safecsv

import (
	"encoding/csv"
	"io"
	"strconv"
)

// Escape returns the cell as it is written.
func Escape(cell string) string {
	if cell == "" {
		return cell
	}
	switch cell[0] {
	case '=', '+', '-', '@', '\t', '\r':
		if _, err := strconv.ParseFloat(cell, 64); err == nil {
			return cell
		}
	case '\'':
	default:
		return cell
	}
	return "'" + cell
}

// Unescape undoes Escape.
func Unescape(cell string) string {
	if len(cell) > 0 && cell[0] == '\'' {
		return cell[1:]
	}
	return cell
}

// Writer is a csv.Writer that escapes every cell.
type Writer struct {
	*csv.Writer
	buf []string
}

// NewWriter returns a Writer to w.
func NewWriter(w io.Writer) *Writer { return &Writer{Writer: csv.NewWriter(w)} }

// Write writes one record, escaping its cells.
func (w *Writer) Write(record []string) error {
	w.buf = w.buf[:0]
	for _, c := range record {
		w.buf = append(w.buf, Escape(c))
	}
	return w.Writer.Write(w.buf)
}

// WriteAll writes records and flushes.
func (w *Writer) WriteAll(records [][]string) error {
	for _, r := range records {
		if err := w.Write(r); err != nil {
			return err
		}
	}
	w.Flush()
	return w.Error()
}
