package sweep

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"runtime/debug"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Files of a results directory (docs/sweeps.md).
const (
	ManifestFile = "manifest.json"
	PointsDir    = "points"
	SeriesDir    = "series"
	JSONLFile    = "results.jsonl"
	CSVFile      = "results.csv"
)

// Manifest describes a results directory. It is written before the first run, so a shard that
// died still says what it was running.
type Manifest struct {
	SchemaVersion int      `json:"schema_version"`
	Kind          string   `json:"kind"` // sweep | compare
	SpecHash      string   `json:"spec_hash"`
	Base          string   `json:"base"`
	BaseHash      string   `json:"base_config_hash"`
	Points        int      `json:"points"` // in the whole sweep, not only this shard
	Seeds         []uint64 `json:"seeds"`
	Axes          []string `json:"axes"`
	Shard         *Shard   `json:"shard,omitempty"`
	MergedFrom    []string `json:"merged_from,omitempty"`
	Version       string   `json:"ddlsim_version"`
	Command       []string `json:"command,omitempty"`
	Spec          string   `json:"spec"` // the spec text (or the synthesized compare spec)
}

// Version identifies the ddlsim build in every row: the module version and VCS revision when
// the binary was built with them, "devel" otherwise.
var Version = func() string {
	bi, ok := debug.ReadBuildInfo()
	if !ok {
		return "devel"
	}
	v := bi.Main.Version
	if v == "" || v == "(devel)" {
		v = "devel"
	}
	for _, s := range bi.Settings {
		if s.Key == "vcs.revision" && len(s.Value) >= 12 {
			v += "+" + s.Value[:12]
		}
	}
	return v
}()

// WriteFileAtomic writes data to path so that a reader (or a resumed sweep) sees either the
// old file or the complete new one, never a torn one: temp file in the same directory, fsync,
// rename, fsync of the directory.
func WriteFileAtomic(path string, data []byte) error {
	dir := filepath.Dir(path)
	f, err := os.CreateTemp(dir, ".tmp-"+filepath.Base(path)+"-*")
	if err != nil {
		return err
	}
	tmp := f.Name()
	// CreateTemp makes 0600; results are for everyone who can read the directory.
	if err := f.Chmod(0o644); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if _, err := f.Write(data); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Sync(); err != nil {
		f.Close()
		os.Remove(tmp)
		return err
	}
	if err := f.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, path); err != nil {
		os.Remove(tmp)
		return err
	}
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

func pointFile(dir string, id int) string {
	return filepath.Join(dir, PointsDir, fmt.Sprintf("p%06d.jsonl", id))
}

// ReadManifest reads dir's manifest.
func ReadManifest(dir string) (*Manifest, error) {
	b, err := os.ReadFile(filepath.Join(dir, ManifestFile))
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("%s: %v", filepath.Join(dir, ManifestFile), err)
	}
	return &m, nil
}

func writeManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// donePoints lists the point ids whose file exists in dir/points, and removes temp files left by
// a killed writer.
func donePoints(dir string) (map[int]string, error) {
	ents, err := os.ReadDir(filepath.Join(dir, PointsDir))
	if os.IsNotExist(err) {
		return map[int]string{}, nil
	}
	if err != nil {
		return nil, err
	}
	out := map[int]string{}
	for _, e := range ents {
		name := e.Name()
		if strings.HasPrefix(name, ".tmp-") {
			os.Remove(filepath.Join(dir, PointsDir, name))
			continue
		}
		if !strings.HasPrefix(name, "p") || !strings.HasSuffix(name, ".jsonl") {
			continue
		}
		id, err := strconv.Atoi(strings.TrimSuffix(strings.TrimPrefix(name, "p"), ".jsonl"))
		if err != nil {
			continue
		}
		out[id] = filepath.Join(dir, PointsDir, name)
	}
	return out, nil
}

// ReadPoints reads every completed point's rows in dir, keyed by point id.
func ReadPoints(dir string) (map[int][]Row, error) {
	files, err := donePoints(dir)
	if err != nil {
		return nil, err
	}
	out := map[int][]Row{}
	for id, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rows, err := ReadJSONL(bytes.NewReader(b))
		if err != nil {
			return nil, fmt.Errorf("%s: %v", f, err)
		}
		for _, r := range rows {
			if r.Point != id {
				return nil, fmt.Errorf("%s: holds a row of point %d", f, r.Point)
			}
		}
		out[id] = rows
	}
	return out, nil
}

// ReadResults reads a results directory's combined rows (results.jsonl), falling back to the
// point files of an unfinished sweep.
func ReadResults(dir string) ([]Row, error) {
	f, err := os.Open(filepath.Join(dir, JSONLFile))
	if err == nil {
		defer f.Close()
		return ReadJSONL(f)
	}
	pts, err := ReadPoints(dir)
	if err != nil {
		return nil, err
	}
	return flatten(pts), nil
}

func flatten(pts map[int][]Row) []Row {
	ids := make([]int, 0, len(pts))
	for id := range pts {
		ids = append(ids, id)
	}
	sort.Ints(ids)
	var rows []Row
	for _, id := range ids {
		rows = append(rows, pts[id]...)
	}
	SortRows(rows)
	return rows
}

// WriteCombined (re)writes results.jsonl and results.csv from rows, sorted by (point, seed).
func WriteCombined(dir string, rows []Row) error {
	SortRows(rows)
	var j, c bytes.Buffer
	if err := WriteJSONL(&j, rows); err != nil {
		return err
	}
	if err := WriteCSV(&c, rows); err != nil {
		return err
	}
	if err := WriteFileAtomic(filepath.Join(dir, JSONLFile), j.Bytes()); err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, CSVFile), c.Bytes())
}

// SeriesFile is where a run's per-interval series is kept (compare, or sweep --series).
func SeriesFile(dir string, point int, seed uint64) string {
	return filepath.Join(dir, SeriesDir, fmt.Sprintf("p%06d-s%d.csv", point, seed))
}

// WriteSeriesCSV writes a per-interval series as CSV.
func WriteSeriesCSV(path string, s *metrics.Series) error {
	var b bytes.Buffer
	b.WriteString(strings.Join(s.Columns, ","))
	b.WriteByte('\n')
	for _, row := range s.Rows {
		for i, v := range row {
			if i > 0 {
				b.WriteByte(',')
			}
			b.WriteString(metrics.FormatFloat(v))
		}
		b.WriteByte('\n')
	}
	return WriteFileAtomic(path, b.Bytes())
}

// ReadSeriesCSV reads a series written by WriteSeriesCSV (or any numeric CSV with a header).
func ReadSeriesCSV(path string) (*metrics.Series, error) {
	b, err := os.ReadFile(path)
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
			row[i] = nan
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
