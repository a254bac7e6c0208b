package output

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// SeriesCSV is the one writer of a per-interval series (a run directory's series.csv, a
// compare's or sweep's series/pNNNNNN-sS.csv): a header row of the column names, time_s
// first, then one row per interval in FormatFloat's numbers (NaN an empty cell).
func SeriesCSV(s *metrics.Series) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	if s == nil {
		s = &metrics.Series{Columns: []string{"time_s"}}
	}
	if len(s.Columns) == 0 || s.Columns[0] != "time_s" {
		return nil, fmt.Errorf("series must start with column time_s, has %v", s.Columns)
	}
	w.Write(s.Columns)
	rec := make([]string, len(s.Columns))
	for i, row := range s.Rows {
		if len(row) != len(s.Columns) {
			return nil, fmt.Errorf("row %d has %d values for %d columns", i, len(row), len(s.Columns))
		}
		for j, v := range row {
			rec[j] = metrics.FormatFloat(v)
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// WriteSeriesCSV writes a series to path atomically (SeriesCSV's bytes).
func WriteSeriesCSV(path string, s *metrics.Series) error {
	b, err := SeriesCSV(s)
	if err != nil {
		return fmt.Errorf("%s: %w", path, err)
	}
	return WriteFileAtomic(path, b)
}

// ReadSeriesCSV reads a series written by SeriesCSV, refusing one that is cut short
// (ReadError at the torn line).
func ReadSeriesCSV(path string) (*metrics.Series, error) {
	s, part, err := ReadSeries(path, 0)
	if err != nil {
		return nil, err
	}
	if part != nil {
		return nil, part.Err()
	}
	return s, nil
}

// Partial says a series holds fewer intervals than its run measured: Have rows, of Want
// (0 when the count is not known), the file cut at Line (0: cut at a line boundary).
type Partial struct {
	File       string
	Have, Want int
	Line       int
}

// Warning is the line printed when a partial series is drawn anyway.
func (p *Partial) Warning() string {
	of := fmt.Sprintf("%d intervals", p.Have)
	if p.Want > 0 {
		of = fmt.Sprintf("%d of %d intervals", p.Have, p.Want)
	}
	at := ""
	if p.Line > 0 {
		at = fmt.Sprintf(", cut at line %d", p.Line)
	}
	return fmt.Sprintf("%s: partial: %s%s", p.File, of, at)
}

// Err is the refusal of a partial series.
func (p *Partial) Err() error {
	of := fmt.Sprintf("holds %d intervals", p.Have)
	if p.Want > 0 {
		of = fmt.Sprintf("holds %d of the run's %d intervals", p.Have, p.Want)
	}
	msg := "truncated: " + of
	if p.Line > 0 {
		msg += fmt.Sprintf("; line %d is cut short", p.Line)
	}
	return &ReadError{File: p.File, Line: p.Line, Msg: msg + " (the file was cut short; re-create the result, or draw what is there with ddlsim plot --partial)"}
}

// ReadSeries reads a series written by SeriesCSV. want is the number of intervals the run
// measured (0: unknown). A file cut short — its last line torn (no newline, fewer cells
// than the header), or fewer rows than want — is returned with the complete rows before the
// cut and a Partial; anything else wrong (a cell that is not a number, more rows than the
// run had) is an error at its line.
func ReadSeries(path string, want int) (*metrics.Series, *Partial, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, nil, err
	}
	ls, torn := lines(path, b)
	if len(ls) == 0 || ls[0] == "" {
		return nil, nil, &ReadError{File: path, Msg: "empty: expected a header row (time_s, ...) and one row per report interval"}
	}
	s := &metrics.Series{Columns: strings.Split(strings.TrimSuffix(ls[0], "\r"), ",")}
	if s.Columns[0] != "time_s" {
		return nil, nil, &ReadError{File: path, Line: 1, Msg: fmt.Sprintf("expected a series header starting with time_s, got %s", config.Excerpt(ls[0], 60))}
	}
	if torn != nil && len(ls) == 1 {
		return nil, nil, torn
	}
	var part *Partial
	for i, l := range ls[1:] {
		ln := i + 2
		cells := strings.Split(strings.TrimSuffix(l, "\r"), ",")
		if len(cells) != len(s.Columns) || torn != nil && ln == len(ls) {
			if ln == len(ls) && len(cells) <= len(s.Columns) { // the last line: torn
				part = &Partial{File: path, Line: ln}
				break
			}
			return nil, nil, &ReadError{File: path, Line: ln, Msg: fmt.Sprintf("%d cells for %d columns", len(cells), len(s.Columns))}
		}
		row := make([]float64, len(s.Columns))
		for j, c := range cells {
			row[j] = math.NaN()
			if c == "" {
				continue
			}
			v, err := strconv.ParseFloat(c, 64)
			if err != nil {
				return nil, nil, &ReadError{File: path, Line: ln, Msg: fmt.Sprintf("column %s: %q is not a number", s.Columns[j], config.Excerpt(c, 40))}
			}
			row[j] = v
		}
		s.Rows = append(s.Rows, row)
	}
	if want > 0 && len(s.Rows) > want {
		return nil, nil, &ReadError{File: path, Line: want + 2, Msg: fmt.Sprintf("%d intervals, the run measured %d (summary.json intervals)", len(s.Rows), want)}
	}
	if part == nil && want > 0 && len(s.Rows) < want {
		part = &Partial{File: path}
	}
	if part != nil {
		part.Have, part.Want = len(s.Rows), want
	}
	return s, part, nil
}
