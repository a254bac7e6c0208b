package output

import (
	"bytes"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
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

// Shard selects the points whose id ≡ Index (mod Count) (internal/sweep runs them).
type Shard struct {
	Index int `json:"index"`
	Count int `json:"count"`
}

// Has reports whether point id belongs to the shard; a nil shard holds every point.
func (s *Shard) Has(id int) bool { return s == nil || id%s.Count == s.Index }

func (s *Shard) String() string {
	if s == nil {
		return "all"
	}
	return fmt.Sprintf("%d/%d", s.Index, s.Count)
}

// PointFile is where a finished point's rows are kept.
func PointFile(dir string, id int) string {
	return filepath.Join(dir, PointsDir, fmt.Sprintf("p%06d.jsonl", id))
}

// ReadManifest reads dir's manifest, refusing one of another schema version (SchemaError,
// with the command that re-creates the directory).
func ReadManifest(dir string) (*Manifest, error) {
	path := filepath.Join(dir, ManifestFile)
	b, err := readFile(path)
	if err != nil {
		return nil, err
	}
	var m Manifest
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, &ReadError{File: path, Line: jsonLine(b, err), Msg: "not a ddlsim manifest: " + err.Error()}
	}
	if m.SchemaVersion != SchemaVersion {
		return nil, &SchemaError{File: path, Have: m.SchemaVersion, Recreate: recreateCommand(dir, &m)}
	}
	return &m, nil
}

// recreateCommand is the command that writes a results directory again: the one recorded
// in its manifest, into a fresh directory.
func recreateCommand(dir string, m *Manifest) string {
	cmd := "ddlsim " + m.Kind + " SPEC --out " + dir
	switch {
	case len(m.Command) > 0:
		cmd = quoteArgs(m.Command)
	case m.Kind == "compare" && m.Base != "":
		cmd = "ddlsim compare " + m.Base + " --out " + dir
	}
	return cmd + " (into another --out, or after removing " + dir + ")"
}

// quoteArgs joins a command line, quoting the arguments a shell would split.
func quoteArgs(args []string) string {
	q := make([]string, len(args))
	for i, a := range args {
		q[i] = a
		if a == "" || strings.ContainsAny(a, " \t'\"\\$`*?[]{}()<>|&;#~") {
			q[i] = "'" + strings.ReplaceAll(a, "'", `'\''`) + "'"
		}
	}
	return strings.Join(q, " ")
}

// WriteManifest (re)writes dir's manifest.
func WriteManifest(dir string, m *Manifest) error {
	b, err := json.MarshalIndent(m, "", "  ")
	if err != nil {
		return err
	}
	return WriteFileAtomic(filepath.Join(dir, ManifestFile), append(b, '\n'))
}

// DonePoints lists the point ids whose file exists in dir/points, and removes temp files left by
// a killed writer.
func DonePoints(dir string) (map[int]string, error) {
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
	files, err := DonePoints(dir)
	if err != nil {
		return nil, err
	}
	out := map[int][]Row{}
	for id, f := range files {
		rows, err := readJSONLFile(f)
		if err != nil {
			return nil, err
		}
		for i, r := range rows {
			if r.Point != id {
				return nil, &ReadError{File: f, Line: i + 1, Msg: fmt.Sprintf("holds a row of point %d", r.Point)}
			}
		}
		out[id] = rows
	}
	return out, nil
}

// ReadResults reads a results directory's combined rows (results.jsonl), falling back to the
// point files of an unfinished sweep.
func ReadResults(dir string) ([]Row, error) {
	rows, err := readJSONLFile(filepath.Join(dir, JSONLFile))
	if !os.IsNotExist(err) {
		return rows, err
	}
	pts, err := ReadPoints(dir)
	if err != nil {
		return nil, err
	}
	return Flatten(pts), nil
}

// Flatten lists the rows of points (keyed by point id) in (point, seed) order.
func Flatten(pts map[int][]Row) []Row {
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

// SeriesPath is where a run's per-interval series is kept in a results directory (compare,
// or sweep --series).
func SeriesPath(dir string, point int, seed uint64) string {
	return filepath.Join(dir, SeriesDir, fmt.Sprintf("p%06d-s%d.csv", point, seed))
}

// WritePoint writes a finished point's rows, sorted by seed, atomically.
func WritePoint(dir string, id int, rows []Row) error {
	rows = append([]Row(nil), rows...)
	SortRows(rows)
	var b bytes.Buffer
	if err := WriteJSONL(&b, rows); err != nil {
		return err
	}
	return WriteFileAtomic(PointFile(dir, id), b.Bytes())
}
