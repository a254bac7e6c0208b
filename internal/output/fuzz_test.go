package output_test

import (
	"bytes"
	"errors"
	"io/fs"
	"math"
	"os"
	"path/filepath"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/output"
	modelmetrics "github.com/ddlsim/ddlsim/model/metrics"
)

var allocSample = []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}

func allocated() uint64 {
	metrics.Read(allocSample)
	return allocSample[0].Value.Uint64()
}

// fuzzSeeds is a real results directory's files and a run directory's, written by the
// writers themselves.
func fuzzSeeds(t testing.TB) (manifest, jsonl, series, summary []byte) {
	dir := t.TempDir()
	rows := []output.Row{
		{Point: 0, Seed: 1, Params: output.Params{{Path: "policy", Value: "fullscan"}}, Version: "v", ConfigHash: "h",
			Metrics: modelmetrics.Summary{{Name: "tps_mean", Value: 100.5}, {Name: "lat", Value: math.NaN()}},
			DDL:     []modelmetrics.DDLResult{{Op: "drop_table", Table: "t", DurationS: 1.5, Phases: []modelmetrics.Phase{{Name: "drop", StartS: 1, EndS: 2.5}}}}, WallTimeS: 0.1},
		{Point: 1, Seed: 1, Params: output.Params{{Path: "policy", Value: "lazy"}}, Metrics: modelmetrics.Summary{{Name: "tps_mean", Value: 99}}},
	}
	var j bytes.Buffer
	output.WriteJSONL(&j, rows)
	output.WriteManifest(dir, &output.Manifest{SchemaVersion: output.SchemaVersion, Kind: "sweep", Points: 2, Seeds: []uint64{1}, Command: []string{"ddlsim", "sweep", "x.yaml"}})
	m, _ := os.ReadFile(filepath.Join(dir, output.ManifestFile))
	s := &modelmetrics.Series{Columns: []string{"time_s", "tps"}, Rows: [][]float64{{1, 10}, {2, math.NaN()}, {3, 12.25}}}
	sb, _ := output.SeriesCSV(s)
	run := filepath.Join(dir, "run")
	output.WriteDir(run, output.Bundle{Series: s, Meta: []output.MetaItem{{Key: "command", Value: "ddlsim run x.yaml"}}})
	sum, _ := os.ReadFile(filepath.Join(run, output.SummaryFile))
	return m, j.Bytes(), sb, sum
}

// FuzzResultsDir feeds a results directory's files (manifest.json, results.jsonl, a point
// file, a series) and a run directory's (summary.json, series.csv) to their readers. No
// input may panic or allocate more than a few times its size; every refusal is a
// ReadError, a SchemaError or a missing file (the command line's exit 2), never a bare
// error; and what is accepted writes back to bytes that read back the same.
func FuzzResultsDir(f *testing.F) {
	m, j, s, sum := fuzzSeeds(f)
	f.Add(m, j, s, sum)
	f.Add(m, j[:len(j)-7], s[:len(s)-3], sum)
	f.Add(bytes.Replace(m, []byte(`"schema_version": 2`), []byte(`"schema_version": 1`), 1), j, s, bytes.Replace(sum, []byte(`"intervals": 3`), []byte(`"intervals": 9`), 1))
	f.Add([]byte("{"), []byte("{}\n"), []byte("time_s\n"), []byte("[]"))
	f.Fuzz(func(t *testing.T, manifest, jsonl, series, summary []byte) {
		dir := t.TempDir()
		os.MkdirAll(filepath.Join(dir, output.PointsDir), 0o755)
		os.MkdirAll(filepath.Join(dir, "run"), 0o755)
		os.WriteFile(filepath.Join(dir, output.ManifestFile), manifest, 0o644)
		os.WriteFile(filepath.Join(dir, output.JSONLFile), jsonl, 0o644)
		os.WriteFile(output.PointFile(dir, 0), jsonl, 0o644)
		os.WriteFile(filepath.Join(dir, "s.csv"), series, 0o644)
		os.WriteFile(filepath.Join(dir, "run", output.SeriesFile), series, 0o644)
		os.WriteFile(filepath.Join(dir, "run", output.SummaryFile), summary, 0o644)
		size := uint64(len(manifest) + len(jsonl) + len(series) + len(summary))
		before := allocated()
		defer func() {
			if a := allocated() - before; a > 64<<20+200*size {
				t.Fatalf("reading %d bytes allocated %d MiB", size, a>>20)
			}
		}()
		judged := func(what string, err error) {
			var re *output.ReadError
			var se *output.SchemaError
			if err != nil && !errors.As(err, &re) && !errors.As(err, &se) && !errors.Is(err, fs.ErrNotExist) {
				t.Fatalf("%s: a refusal that is not a ReadError or SchemaError (%T): %v", what, err, err)
			}
			if err != nil && !strings.Contains(err.Error(), dir) {
				t.Fatalf("%s: the refusal names no file: %v", what, err)
			}
		}
		_, err := output.ReadManifest(dir)
		judged("manifest", err)
		rows, err := output.ReadResults(dir)
		judged("results.jsonl", err)
		if err == nil {
			var a, b bytes.Buffer
			if err := output.WriteJSONL(&a, rows); err != nil {
				t.Fatalf("rows read do not write: %v", err)
			}
			back, err := output.ReadJSONL(bytes.NewReader(a.Bytes()))
			if err != nil {
				t.Fatalf("rows written do not read back: %v\n%s", err, a.Bytes())
			}
			output.WriteJSONL(&b, back)
			if !bytes.Equal(a.Bytes(), b.Bytes()) {
				t.Fatalf("rows change on a round trip:\n%s\n%s", a.Bytes(), b.Bytes())
			}
			var c bytes.Buffer
			if err := output.WriteCSV(&c, rows); err != nil {
				t.Fatalf("rows read do not write as CSV: %v", err)
			}
		}
		_, err = output.ReadPoints(dir)
		judged("point file", err)
		sr, part, err := output.ReadSeries(filepath.Join(dir, "s.csv"), 0)
		judged("series", err)
		if err == nil && part == nil {
			b, err := output.SeriesCSV(sr)
			if err == nil {
				os.WriteFile(filepath.Join(dir, "s2.csv"), b, 0o644)
				again, p2, err := output.ReadSeries(filepath.Join(dir, "s2.csv"), 0)
				if err != nil || p2 != nil || len(again.Rows) != len(sr.Rows) {
					t.Fatalf("a series read does not read back after writing (%v, %v):\n%s", err, p2, b)
				}
			}
		}
		if part != nil && part.Have != len(sr.Rows) {
			t.Fatalf("partial says %d intervals, %d read", part.Have, len(sr.Rows))
		}
		rd, err := output.ReadRunDir(filepath.Join(dir, "run"), true)
		judged("run directory", err)
		if err == nil && rd.Partial == nil {
			if _, err := output.ReadRunDir(filepath.Join(dir, "run"), false); err != nil {
				t.Fatalf("complete when partial is allowed, refused when not: %v", err)
			}
		}
	})
}
