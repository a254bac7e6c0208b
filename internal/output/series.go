package output

import (
	"bytes"
	"encoding/csv"
	"fmt"
	"math"
	"strconv"
	"strings"

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

// ReadSeriesCSV reads a series written by SeriesCSV (or any numeric CSV with a header).
func ReadSeriesCSV(path string) (*metrics.Series, error) {
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	lines := strings.Split(strings.TrimSpace(string(b)), "\n")
	if len(lines) == 0 || lines[0] == "" {
		return nil, fmt.Errorf("%s: empty", path)
	}
	s := &metrics.Series{Columns: strings.Split(lines[0], ",")}
	for ln, l := range lines[1:] {
		cells := strings.Split(l, ",")
		row := make([]float64, len(s.Columns))
		for i := range row {
			row[i] = math.NaN()
			if i < len(cells) && cells[i] != "" {
				v, err := strconv.ParseFloat(cells[i], 64)
				if err != nil {
					return nil, fmt.Errorf("%s:%d: %v", path, ln+2, err)
				}
				row[i] = v
			}
		}
		s.Rows = append(s.Rows, row)
	}
	return s, nil
}
