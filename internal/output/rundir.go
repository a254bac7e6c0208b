package output

import (
	"bytes"
	"encoding/csv"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Bundle is everything one run writes to its result directory (docs/output.md): what the
// model measured (model/metrics' types) and what identifies the run.
type Bundle struct {
	Series  *metrics.Series
	Summary metrics.Summary
	DDL     []metrics.DDLResult
	// Mutexes: hold and wait time by mutex class and thread kind (mutexes.csv); nil writes none.
	Mutexes []metrics.MutexRow
	// Meta identifies the run (scenario, seed, config_hash, version, command ...); order is
	// kept in summary.json.
	Meta []MetaItem
	// Config is the effective configuration (config.Marshal) written as config.yaml so the
	// directory alone reproduces the run; nil writes none.
	Config []byte
	// Trust is how far to trust the run (internal/trust: the profile's constants by origin,
	// the statements' validation record), written as summary.json's "trust"; nil writes none.
	Trust any
}

// MetaItem is one key of summary.json's "meta" object. Value is any JSON-encodable value
// (numbers stay numbers, so a seed reads back as an integer).
type MetaItem struct {
	Key   string
	Value any
}

// Files in a result directory. summary.json marks a directory as a ddlsim result, which is
// what lets WriteDir replace a previous result but refuse to replace anything else.
const (
	SeriesFile  = "series.csv"
	SummaryFile = "summary.json"
	DDLFile     = "ddl.csv"
	ConfigFile  = "config.yaml"
	MutexFile   = "mutexes.csv"
)

// WriteDir writes the bundle to dir atomically: every file is written and fsynced in a
// sibling temporary directory which is then renamed to dir. An existing previous result at
// dir is replaced (moved aside, new one renamed in, old one removed); an existing directory
// that is not a result, or a file, is an error. On any failure no dir that looks complete is
// left behind, and the temporary directory is removed.
func WriteDir(dir string, b Bundle) error {
	st, err := Stage(dir)
	if err != nil {
		return err
	}
	return st.Write(b)
}

// Write writes the bundle into the staging directory and renames it into place (see
// WriteDir). On failure the staging directory is removed.
func (st *Staging) Write(b Bundle) (err error) {
	dir, tmp := st.dir, st.tmp
	parent := filepath.Dir(dir)
	defer func() {
		if err != nil {
			st.Abort()
		}
	}()
	if err := checkReplaceable(dir); err != nil {
		return err
	}

	files := []struct {
		name string
		gen  func() ([]byte, error)
	}{
		{SeriesFile, func() ([]byte, error) { return SeriesCSV(b.Series) }},
		{DDLFile, func() ([]byte, error) { return ddlCSV(b.DDL) }},
		{SummaryFile, func() ([]byte, error) { return summaryJSON(b) }},
	}
	if b.Mutexes != nil {
		files = append(files, struct {
			name string
			gen  func() ([]byte, error)
		}{MutexFile, func() ([]byte, error) { return mutexCSV(b.Mutexes) }})
	}
	if b.Config != nil {
		files = append(files, struct {
			name string
			gen  func() ([]byte, error)
		}{ConfigFile, func() ([]byte, error) { return b.Config, nil }})
	}
	for _, f := range files {
		data, err := f.gen()
		if err != nil {
			return fmt.Errorf("%s: %w", f.name, err)
		}
		if err := writeSynced(filepath.Join(tmp, f.name), data); err != nil {
			return err
		}
	}
	// The owner mark goes last: unmarked, a staging directory left by a kill here is stale
	// a minute later.
	if err := os.Remove(filepath.Join(tmp, stagingMark)); err != nil {
		return err
	}
	if err := syncDir(tmp); err != nil {
		return err
	}
	if err := os.Chmod(tmp, 0o755); err != nil { // MkdirTemp makes 0700
		return err
	}

	// Swap in. Between the two renames dir does not exist, which is better than a dir that
	// mixes two runs' files.
	var old string
	if _, statErr := os.Lstat(dir); statErr == nil {
		old = tmp + ".old"
		if err := os.Rename(dir, old); err != nil {
			return err
		}
	}
	if err := os.Rename(tmp, dir); err != nil {
		if old != "" {
			os.Rename(old, dir) // put the previous result back
		}
		return err
	}
	st.tmp = ""
	if old != "" {
		os.RemoveAll(old)
	}
	return syncDir(parent)
}

// CheckDir reports whether WriteDir could write to dir: it must be absent, an empty
// directory or a previous result. Callers check before a long run so a mistyped --out fails
// in a second rather than after the simulation.
func CheckDir(dir string) error { return checkReplaceable(filepath.Clean(dir)) }

// checkReplaceable allows a missing dir, an empty directory or a previous result.
func checkReplaceable(dir string) error {
	fi, err := os.Lstat(dir)
	if errors.Is(err, os.ErrNotExist) {
		return nil
	}
	if err != nil {
		return err
	}
	if !fi.IsDir() {
		return fmt.Errorf("%s exists and is not a directory", dir)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return err
	}
	if len(entries) == 0 {
		return nil
	}
	if _, err := os.Stat(filepath.Join(dir, SummaryFile)); err != nil {
		return fmt.Errorf("%s exists and is not a ddlsim result (no %s); not replacing it", dir, SummaryFile)
	}
	return nil
}

// ddlColumns are DDLResult's JSON field names except phases, in declaration order, so a
// field the model adds to DDLResult appears in ddl.csv without touching this file.
func ddlColumns() []string {
	t := reflect.TypeFor[metrics.DDLResult]()
	var cols []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		if name == "" || name == "-" || name == "phases" || name == "latency" {
			continue
		}
		cols = append(cols, name)
	}
	return cols
}

// harmColumns are LatencyHarm's JSON field names, the columns ddl.csv adds when the run
// measured latency harm (docs/output.md).
func harmColumns() []string {
	t := reflect.TypeFor[metrics.LatencyHarm]()
	var cols []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		cols = append(cols, name)
	}
	return cols
}

// harmCells are h's values in harmColumns order.
func harmCells(h *metrics.LatencyHarm) []string {
	v := reflect.ValueOf(*h)
	out := make([]string, v.NumField())
	for i := range out {
		out[i] = formatValue(v.Field(i))
	}
	return out
}

func anyHarm(ddl []metrics.DDLResult) bool {
	for _, d := range ddl {
		if d.Latency != nil {
			return true
		}
	}
	return false
}

func ddlCSV(ddl []metrics.DDLResult) ([]byte, error) {
	cols := ddlColumns()
	// Phase columns: the union of phase names in order of first appearance, each the
	// statement's total time in that phase (all its occurrences); a DDL that did not have the
	// phase leaves it empty. The phases column spells out every occurrence in order.
	var phases []string
	seen := map[string]bool{}
	for _, d := range ddl {
		for _, p := range d.Phases {
			if !seen[p.Name] {
				seen[p.Name] = true
				phases = append(phases, p.Name)
			}
		}
	}
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	header := append([]string(nil), cols...)
	harm := anyHarm(ddl)
	if harm {
		header = append(header, harmColumns()...)
	}
	header = append(header, "phases")
	for _, p := range phases {
		header = append(header, "phase_"+p+"_s")
	}
	w.Write(header)
	for _, d := range ddl {
		v := reflect.ValueOf(d)
		t := v.Type()
		rec := make([]string, 0, len(header))
		for i := 0; i < t.NumField(); i++ {
			name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
			if name == "" || name == "-" || name == "phases" || name == "latency" {
				continue
			}
			rec = append(rec, formatValue(v.Field(i)))
		}
		if harm {
			if d.Latency != nil {
				rec = append(rec, harmCells(d.Latency)...)
			} else {
				rec = append(rec, make([]string, len(harmColumns()))...)
			}
		}
		rec = append(rec, metrics.PhaseList(d.Phases))
		_, total := metrics.PhaseTotals(d.Phases)
		for _, name := range phases {
			cell := ""
			if x, ok := total[name]; ok {
				cell = metrics.FormatFloat(x)
			}
			rec = append(rec, cell)
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

// mutexCSV writes MutexRow's JSON field names as the header, one row per (mutex, thread).
func mutexCSV(rows []metrics.MutexRow) ([]byte, error) {
	var buf bytes.Buffer
	w := csv.NewWriter(&buf)
	t := reflect.TypeFor[metrics.MutexRow]()
	var header []string
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("json"), ",")
		header = append(header, name)
	}
	w.Write(header)
	for _, r := range rows {
		v := reflect.ValueOf(r)
		rec := make([]string, t.NumField())
		for i := range rec {
			rec[i] = formatValue(v.Field(i))
		}
		w.Write(rec)
	}
	w.Flush()
	return buf.Bytes(), w.Error()
}

func formatValue(v reflect.Value) string {
	switch v.Kind() {
	case reflect.Float32, reflect.Float64:
		return metrics.FormatFloat(v.Float())
	case reflect.Bool:
		return strconv.FormatBool(v.Bool())
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return strconv.FormatInt(v.Int(), 10)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return strconv.FormatUint(v.Uint(), 10)
	case reflect.String:
		return v.String()
	}
	b, _ := json.Marshal(v.Interface())
	return string(b)
}

// SchemaVersion is the version of the output files' layout and names: a run directory's
// (summary.json's schema_version) and a compare or sweep's results (rows.go). Bump it
// when a column or field is renamed, changes meaning or disappears; adding one does not.
// 2: rates end in _per_s (iud_per_s, was iud_s), seconds_below_half is below_half_s, ddl.csv
// totals repeated phases and lists them all in phases, DDL results have lat_p95_ms/lat_p99_ms.
const SchemaVersion = 2

// summaryJSON writes {"schema_version": N, "intervals": N, "meta": {...}, "summary": {...}, "ddl": [...]} with keys in their
// given order (Go maps would sort them, and summary order is part of the format).
func summaryJSON(b Bundle) ([]byte, error) {
	var buf bytes.Buffer
	intervals := 0
	if b.Series != nil {
		intervals = len(b.Series.Rows)
	}
	// intervals: the rows series.csv holds, so a reader can tell a complete one from one cut
	// short at a line boundary (ReadRunDir).
	fmt.Fprintf(&buf, "{\n  \"schema_version\": %d,\n  \"intervals\": %d,\n  \"meta\": {", SchemaVersion, intervals)
	for i, m := range b.Meta {
		v, err := json.Marshal(m.Value)
		if err != nil {
			return nil, fmt.Errorf("meta %s: %w", m.Key, err)
		}
		sep(&buf, i)
		fmt.Fprintf(&buf, "    %s: %s", quote(m.Key), v)
	}
	closeObj(&buf, len(b.Meta), "}")
	buf.WriteString(",\n  \"summary\": {")
	for i, m := range b.Summary {
		sep(&buf, i)
		fmt.Fprintf(&buf, "    %s: %s", quote(m.Name), metrics.JSONFloat(m.Value))
	}
	closeObj(&buf, len(b.Summary), "}")
	buf.WriteString(",\n  \"ddl\": [")
	for i, d := range b.DDL {
		sep(&buf, i)
		v, err := json.Marshal(d)
		if err != nil {
			return nil, err
		}
		buf.WriteString("    ")
		buf.Write(v)
	}
	closeObj(&buf, len(b.DDL), "]")
	if b.Trust != nil {
		v, err := json.Marshal(b.Trust)
		if err != nil {
			return nil, fmt.Errorf("trust: %w", err)
		}
		buf.WriteString(",\n  \"trust\": ")
		buf.Write(v)
	}
	buf.WriteString("\n}\n")
	return buf.Bytes(), nil
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func sep(buf *bytes.Buffer, i int) {
	if i > 0 {
		buf.WriteByte(',')
	}
	buf.WriteByte('\n')
}

func closeObj(buf *bytes.Buffer, n int, closer string) {
	if n > 0 {
		buf.WriteString("\n  ")
	}
	buf.WriteString(closer)
}

// RunDir is a run directory read back (plot, report): its series, the statements with their
// phases, and the command that re-creates it.
type RunDir struct {
	Series  *metrics.Series
	DDL     []metrics.DDLResult
	Command string
	// Partial is set when series.csv holds fewer intervals than the run measured (only
	// with ReadRunDir's partial; otherwise that is an error).
	Partial *Partial
}

// ReadRunDir reads a run directory written by WriteDir: summary.json first (its schema
// version, the number of intervals), then series.csv, checked complete against it. A
// series cut short is an error at its file and line unless partial is set, when it is read
// as far as it goes and RunDir.Partial says how far.
func ReadRunDir(dir string, partial bool) (*RunDir, error) {
	path := filepath.Join(dir, SummaryFile)
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	var sum struct {
		Intervals int `json:"intervals"`
		Meta      struct {
			Command string `json:"command"`
		} `json:"meta"`
		DDL []metrics.DDLResult `json:"ddl"`
	}
	recreate := ""
	if err := json.Unmarshal(b, &sum); err == nil && sum.Meta.Command != "" {
		recreate = sum.Meta.Command + " --out " + dir
	}
	if err := checkSchema(path, b, recreate); err != nil {
		return nil, err
	}
	if err := json.Unmarshal(b, &sum); err != nil {
		return nil, &ReadError{File: path, Msg: err.Error()}
	}
	s, part, err := ReadSeries(filepath.Join(dir, SeriesFile), sum.Intervals)
	if err != nil {
		return nil, err
	}
	if part != nil && !partial {
		return nil, part.Err()
	}
	return &RunDir{Series: s, DDL: sum.DDL, Command: sum.Meta.Command, Partial: part}, nil
}
