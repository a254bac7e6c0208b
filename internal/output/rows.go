package output

import (
	"bufio"
	"bytes"
	"encoding/csv"
	"encoding/json"
	"fmt"
	"io"
	"math"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Param is one assignment of a sweep or compare point: a scenario field path and the value
// (YAML text) given to it.
type Param struct {
	Path  string `json:"path"`
	Value string `json:"value"`
}

// Params are a point's assignments, in spec order.
type Params []Param

// Get returns the value of a parameter.
func (ps Params) Get(path string) (string, bool) {
	for _, q := range ps {
		if q.Path == path {
			return q.Value, true
		}
	}
	return "", false
}

// Row is one run of a compare or sweep: one JSONL line, one CSV row (docs/sweeps.md).
type Row struct {
	Point      int
	Params     Params
	Seed       uint64
	Version    string
	ConfigHash string
	Metrics    metrics.Summary
	DDL        []metrics.DDLResult
	WallTimeS  float64 // the only field that differs between identical runs
}

// MarshalJSON writes the row with a fixed key order: parameters and metrics keep their order
// (a Go map would sort them), and wall_time_s comes last so StripWallTime can cut it.
func (r *Row) MarshalJSON() ([]byte, error) {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"schema_version":%d,"point":%d,"params":{`, SchemaVersion, r.Point)
	for i, p := range r.Params {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, p.Path)
		b.WriteByte(':')
		writeJSONString(&b, p.Value)
	}
	fmt.Fprintf(&b, `},"seed":%d,"ddlsim_version":`, r.Seed)
	writeJSONString(&b, r.Version)
	b.WriteString(`,"config_hash":`)
	writeJSONString(&b, r.ConfigHash)
	b.WriteString(`,"metrics":{`)
	for i, m := range r.Metrics {
		if i > 0 {
			b.WriteByte(',')
		}
		writeJSONString(&b, m.Name)
		b.WriteByte(':')
		b.WriteString(metrics.JSONFloat(m.Value))
	}
	b.WriteString(`},"ddl":`)
	ddl := r.DDL
	if ddl == nil {
		ddl = []metrics.DDLResult{}
	}
	d, err := json.Marshal(ddl)
	if err != nil {
		return nil, err
	}
	b.Write(d)
	fmt.Fprintf(&b, `,"wall_time_s":%s}`, metrics.JSONFloat(r.WallTimeS))
	return b.Bytes(), nil
}

func writeJSONString(b *bytes.Buffer, s string) {
	q, _ := json.Marshal(s)
	b.Write(q)
}

// UnmarshalJSON reads a row written by MarshalJSON, keeping the order of params and metrics.
func (r *Row) UnmarshalJSON(data []byte) error {
	var raw struct {
		SchemaVersion int                 `json:"schema_version"`
		Point         int                 `json:"point"`
		Params        json.RawMessage     `json:"params"`
		Seed          uint64              `json:"seed"`
		Version       string              `json:"ddlsim_version"`
		ConfigHash    string              `json:"config_hash"`
		Metrics       json.RawMessage     `json:"metrics"`
		DDL           []metrics.DDLResult `json:"ddl"`
		WallTimeS     *float64            `json:"wall_time_s"`
	}
	if err := json.Unmarshal(data, &raw); err != nil {
		return err
	}
	if raw.SchemaVersion != SchemaVersion {
		return fmt.Errorf("row schema_version %d, this ddlsim reads %d: the results were written by another ddlsim version (names and columns changed, docs/output.md); run the sweep or compare again into a new directory", raw.SchemaVersion, SchemaVersion)
	}
	*r = Row{Point: raw.Point, Seed: raw.Seed, Version: raw.Version, ConfigHash: raw.ConfigHash, DDL: raw.DDL}
	if raw.WallTimeS != nil {
		r.WallTimeS = *raw.WallTimeS
	}
	if err := orderedObject(raw.Params, func(k string, v json.RawMessage) error {
		var s string
		if err := json.Unmarshal(v, &s); err != nil {
			return fmt.Errorf("params.%s: %v", k, err)
		}
		r.Params = append(r.Params, Param{Path: k, Value: s})
		return nil
	}); err != nil {
		return err
	}
	return orderedObject(raw.Metrics, func(k string, v json.RawMessage) error {
		var f *float64
		if err := json.Unmarshal(v, &f); err != nil {
			return fmt.Errorf("metrics.%s: %v", k, err)
		}
		val := math.NaN()
		if f != nil {
			val = *f
		}
		r.Metrics = append(r.Metrics, metrics.Metric{Name: k, Value: val})
		return nil
	})
}

// orderedObject calls fn for each member of a JSON object in document order.
func orderedObject(data json.RawMessage, fn func(k string, v json.RawMessage) error) error {
	if len(data) == 0 || string(data) == "null" {
		return nil
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return fmt.Errorf("expected an object")
	}
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			return err
		}
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return err
		}
		if err := fn(t.(string), v); err != nil {
			return err
		}
	}
	return nil
}

// SortRows orders rows by (point, seed): the canonical order of every results file.
func SortRows(rows []Row) {
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].Point != rows[j].Point {
			return rows[i].Point < rows[j].Point
		}
		return rows[i].Seed < rows[j].Seed
	})
}

// WriteJSONL writes one row per line.
func WriteJSONL(w io.Writer, rows []Row) error {
	bw := bufio.NewWriter(w)
	for i := range rows {
		b, err := rows[i].MarshalJSON()
		if err != nil {
			return err
		}
		bw.Write(b)
		bw.WriteByte('\n')
	}
	return bw.Flush()
}

// ReadJSONL reads rows written by WriteJSONL.
func ReadJSONL(r io.Reader) ([]Row, error) {
	var rows []Row
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 1<<20), 64<<20)
	line := 0
	for sc.Scan() {
		line++
		if len(bytes.TrimSpace(sc.Bytes())) == 0 {
			continue
		}
		var row Row
		if err := row.UnmarshalJSON(sc.Bytes()); err != nil {
			return nil, fmt.Errorf("line %d: %v", line, err)
		}
		rows = append(rows, row)
	}
	return rows, sc.Err()
}

// Columns are the flattened CSV layout of a set of rows.
type Columns struct {
	Params  []string
	Metrics []string
	DDL     []ddlCol
}

type ddlCol struct {
	idx  int
	name string
	get  func(d *metrics.DDLResult) string
}

// ColumnsOf derives the CSV columns from the rows (already sorted): parameters and metrics in
// first-seen order, then per-DDL columns ddl<i>_<field> for the largest number of DDL
// statements any run had. The same rows always give the same columns, so a merged sweep and an
// unsharded one write the same header.
func ColumnsOf(rows []Row) Columns {
	var c Columns
	seenP, seenM := map[string]bool{}, map[string]bool{}
	nddl := 0
	phases := map[int][]string{}
	seenPh := map[string]bool{}
	harm := map[int]bool{} // ddl index: some run measured its latency harm
	for _, r := range rows {
		for _, p := range r.Params {
			if !seenP[p.Path] {
				seenP[p.Path] = true
				c.Params = append(c.Params, p.Path)
			}
		}
		for _, m := range r.Metrics {
			if !seenM[m.Name] {
				seenM[m.Name] = true
				c.Metrics = append(c.Metrics, m.Name)
			}
		}
		nddl = max(nddl, len(r.DDL))
		for i, d := range r.DDL {
			if d.Latency != nil {
				harm[i] = true
			}
			for _, ph := range d.Phases {
				key := fmt.Sprint(i, "/", ph.Name)
				if !seenPh[key] {
					seenPh[key] = true
					phases[i] = append(phases[i], ph.Name)
				}
			}
		}
	}
	f := metrics.FormatFloat
	for i := 0; i < nddl; i++ {
		add := func(name string, get func(d *metrics.DDLResult) string) {
			c.DDL = append(c.DDL, ddlCol{i, fmt.Sprintf("ddl%d_%s", i, name), get})
		}
		add("op", func(d *metrics.DDLResult) string { return d.Op })
		add("table", func(d *metrics.DDLResult) string { return d.Table })
		add("start_s", func(d *metrics.DDLResult) string { return f(d.StartS) })
		add("duration_s", func(d *metrics.DDLResult) string { return f(d.DurationS) })
		add("failed", func(d *metrics.DDLResult) string { return strconv.FormatBool(d.Failed) })
		add("unfinished", func(d *metrics.DDLResult) string { return strconv.FormatBool(d.Unfinished) })
		add("nodes_visited", func(d *metrics.DDLResult) string { return strconv.FormatUint(d.NodesVisited, 10) })
		add("pages_flushed", func(d *metrics.DDLResult) string { return strconv.FormatUint(d.PagesFlushed, 10) })
		add("pages_freed", func(d *metrics.DDLResult) string { return strconv.FormatUint(d.PagesFreed, 10) })
		add("restarts", func(d *metrics.DDLResult) string { return strconv.FormatUint(d.Restarts, 10) })
		add("baseline_tps", func(d *metrics.DDLResult) string { return f(d.BaselineTPS) })
		add("min_tps", func(d *metrics.DDLResult) string { return f(d.MinTPS) })
		add("mean_tps", func(d *metrics.DDLResult) string { return f(d.MeanTPS) })
		add("lat_p95_ms", func(d *metrics.DDLResult) string { return f(d.LatP95Ms) })
		add("lat_p99_ms", func(d *metrics.DDLResult) string { return f(d.LatP99Ms) })
		add("below_half_s", func(d *metrics.DDLResult) string { return f(d.BelowHalfS) })
		add("lost_txns", func(d *metrics.DDLResult) string { return f(d.LostTxns) })
		if harm[i] {
			for j, name := range harmColumns() {
				add(name, func(d *metrics.DDLResult) string {
					if d.Latency == nil {
						return ""
					}
					return harmCells(d.Latency)[j]
				})
			}
		}
		add("phases", func(d *metrics.DDLResult) string { return metrics.PhaseList(d.Phases) })
		for _, name := range phases[i] {
			add("phase_"+name+"_s", func(d *metrics.DDLResult) string {
				if _, total := metrics.PhaseTotals(d.Phases); total != nil {
					if x, ok := total[name]; ok {
						return f(x)
					}
				}
				return ""
			})
		}
	}
	return c
}

// Header is the CSV header row.
func (c Columns) Header() []string {
	h := []string{"point", "seed"}
	h = append(h, c.Params...)
	h = append(h, "config_hash", "ddlsim_version", "schema_version")
	h = append(h, c.Metrics...)
	for _, d := range c.DDL {
		h = append(h, d.name)
	}
	return append(h, "wall_time_s")
}

// WriteCSV writes the flattened rows; missing values are empty cells.
func WriteCSV(w io.Writer, rows []Row) error {
	c := ColumnsOf(rows)
	cw := csv.NewWriter(w)
	if err := cw.Write(c.Header()); err != nil {
		return err
	}
	rec := make([]string, 0, len(c.Header()))
	for i := range rows {
		r := &rows[i]
		rec = rec[:0]
		rec = append(rec, strconv.Itoa(r.Point), strconv.FormatUint(r.Seed, 10))
		for _, p := range c.Params {
			v, _ := r.Params.Get(p)
			rec = append(rec, v)
		}
		rec = append(rec, r.ConfigHash, r.Version, strconv.Itoa(SchemaVersion))
		for _, m := range c.Metrics {
			v, ok := r.Metrics.Get(m)
			if !ok {
				rec = append(rec, "")
				continue
			}
			rec = append(rec, metrics.FormatFloat(v))
		}
		for _, d := range c.DDL {
			if d.idx < len(r.DDL) {
				rec = append(rec, d.get(&r.DDL[d.idx]))
			} else {
				rec = append(rec, "")
			}
		}
		rec = append(rec, metrics.FormatFloat(r.WallTimeS))
		if err := cw.Write(rec); err != nil {
			return err
		}
	}
	cw.Flush()
	return cw.Error()
}

var (
	jsonlWall = regexp.MustCompile(`,"wall_time_s":[^,}]*}$`)
	csvWall   = regexp.MustCompile(`,[^,]*$`)
)

// StripWallTime removes the wall_time_s field from results.jsonl text (isCSV false) or the last
// column from results.csv text (isCSV true), leaving only what must be identical between two
// runs of the same sweep. The shell equivalent is in .ci/slurm-test.sh.
func StripWallTime(text string, isCSV bool) string {
	lines := strings.Split(text, "\n")
	for i, l := range lines {
		if l == "" {
			continue
		}
		if isCSV {
			lines[i] = csvWall.ReplaceAllString(l, "")
		} else {
			lines[i] = jsonlWall.ReplaceAllString(l, "}")
		}
	}
	return strings.Join(lines, "\n")
}
