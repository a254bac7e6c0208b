package output

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

func testBundle() Bundle {
	return Bundle{
		Series: &metrics.Series{Columns: []string{"time_s", "tps", "lat_p95_ms"}, Rows: [][]float64{
			{1, 1834.07, 24.38}, {2, 2e6, math.NaN()},
		}},
		Summary: metrics.Summary{{Name: "tps_mean", Value: 1834.5}, {Name: "ddl_duration_s", Value: 56}, {Name: "nan_metric", Value: math.NaN()}},
		DDL: []metrics.DDLResult{
			{Op: "create_index", Table: "big", Policy: "fullscan", StartS: 60, EndS: 116, DurationS: 56,
				Phases: []metrics.Phase{{Name: "read", StartS: 60, EndS: 80}, {Name: "sort", StartS: 80, EndS: 100.5}, {Name: "flush", StartS: 100.5, EndS: 116}}, PagesFlushed: 1234567},
			{Op: "drop_table", Table: "big", Policy: "fullscan", StartS: 120, EndS: 121, DurationS: 1,
				Phases: []metrics.Phase{{Name: "flush", StartS: 120, EndS: 121}, {Name: "free", StartS: 121, EndS: 121}}, MinTPS: math.Inf(1)},
		},
		Meta:   []MetaItem{{"scenario", "x"}, {"seed", uint64(42)}, {"config_hash", "abcd"}, {"version", "0.1"}},
		Config: []byte("name: x\n"),
	}
}

func read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

func TestWriteDir(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "run1")
	if err := WriteDir(dir, testBundle()); err != nil {
		t.Fatal(err)
	}
	if got, want := read(t, filepath.Join(dir, SeriesFile)), "time_s,tps,lat_p95_ms\n1,1834.07,24.38\n2,2000000,\n"; got != want {
		t.Errorf("series.csv:\n%s\nwant\n%s", got, want)
	}
	wantDDL := "op,table,policy,start_s,end_s,duration_s,failed,reason,unfinished,nodes_visited,pages_flushed,pages_freed,restarts,ahi_pages_dropped,baseline_tps,min_tps,mean_tps,lat_p95_ms,lat_p99_ms,below_half_s,lost_txns,phases,phase_read_s,phase_sort_s,phase_flush_s,phase_free_s\n" +
		"create_index,big,fullscan,60,116,56,false,,false,0,1234567,0,0,0,0,0,0,0,0,0,0,read=20 sort=20.5 flush=15.5,20,20.5,15.5,\n" +
		"drop_table,big,fullscan,120,121,1,false,,false,0,0,0,0,0,0,+Inf,0,0,0,0,0,flush=1 free=0,,,1,0\n"
	if got := read(t, filepath.Join(dir, DDLFile)); got != wantDDL {
		t.Errorf("ddl.csv:\n%s\nwant\n%s", got, wantDDL)
	}
	sum := read(t, filepath.Join(dir, SummaryFile))
	var parsed struct {
		Meta    map[string]any
		Summary map[string]any
		DDL     []map[string]any
	}
	if err := json.Unmarshal([]byte(sum), &parsed); err != nil {
		t.Fatalf("summary.json is not JSON: %v\n%s", err, sum)
	}
	if parsed.Meta["seed"] != 42.0 || parsed.Summary["tps_mean"] != 1834.5 || parsed.Summary["nan_metric"] != nil ||
		len(parsed.DDL) != 2 || parsed.DDL[1]["min_tps"] != nil {
		t.Errorf("summary.json content: %s", sum)
	}
	if strings.Index(sum, `"scenario"`) > strings.Index(sum, `"seed"`) || strings.Index(sum, `"tps_mean"`) > strings.Index(sum, `"ddl_duration_s"`) {
		t.Errorf("summary.json lost key order:\n%s", sum)
	}
	if read(t, filepath.Join(dir, ConfigFile)) != "name: x\n" {
		t.Error("config.yaml")
	}

	// Same input, same bytes.
	again := filepath.Join(t.TempDir(), "run2")
	if err := WriteDir(again, testBundle()); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{SeriesFile, DDLFile, SummaryFile} {
		if read(t, filepath.Join(dir, f)) != read(t, filepath.Join(again, f)) {
			t.Errorf("%s differs between identical writes", f)
		}
	}
}

func TestWriteDirReplacesPreviousResult(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "out")
	b := testBundle()
	if err := WriteDir(dir, b); err != nil {
		t.Fatal(err)
	}
	b.Config = nil
	b.Series.Rows = b.Series.Rows[:1]
	if err := WriteDir(dir, b); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, ConfigFile)); !os.IsNotExist(err) {
		t.Error("stale config.yaml from the previous result survived")
	}
	entries, _ := os.ReadDir(filepath.Dir(dir))
	if len(entries) != 1 {
		t.Errorf("leftovers next to the result: %v", entries)
	}
}

// noPartialResult asserts that a failed write left parent exactly as it found it.
func noPartialResult(t *testing.T, parent string, want int) {
	t.Helper()
	entries, _ := os.ReadDir(parent)
	if len(entries) != want {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("parent holds %v, want %d entries", names, want)
	}
}

func TestWriteDirFailures(t *testing.T) {
	parent := t.TempDir()

	// The target is a file.
	file := filepath.Join(parent, "out")
	os.WriteFile(file, []byte("precious"), 0o644)
	if err := WriteDir(file, testBundle()); err == nil {
		t.Error("writing over a file succeeded")
	}
	if read(t, file) != "precious" {
		t.Error("the file was touched")
	}
	noPartialResult(t, parent, 1)

	// The target is a directory that is not a result.
	other := filepath.Join(parent, "notes")
	os.Mkdir(other, 0o755)
	os.WriteFile(filepath.Join(other, "todo.txt"), []byte("x"), 0o644)
	if err := WriteDir(other, testBundle()); err == nil || !strings.Contains(err.Error(), "not a ddlsim result") {
		t.Errorf("got %v", err)
	}
	noPartialResult(t, parent, 2)

	// Generating a file fails after others were written: nothing named like a result
	// remains, and no temporary directory either.
	b := testBundle()
	b.Series.Rows = append(b.Series.Rows, []float64{3})
	if err := WriteDir(filepath.Join(parent, "run"), b); err == nil {
		t.Error("ragged series accepted")
	}
	noPartialResult(t, parent, 2)
}

// One number format everywhere: plain notation (no exponent), NaN empty in CSV and null in
// JSON, infinities +Inf/-Inf in CSV and null in JSON; and the files of a run directory hold no
// exponent whatever the values.
func TestOneNumberFormat(t *testing.T) {
	b := testBundle()
	b.Series.Rows = append(b.Series.Rows, []float64{3, 1.435e5 + 0.25, 2.5e-9})
	b.Summary = append(b.Summary, metrics.Metric{Name: "huge", Value: 1.5e22}, metrics.Metric{Name: "tiny", Value: 3e-12})
	b.DDL[0].LatP95Ms, b.DDL[0].MeanTPS, b.DDL[0].LatP99Ms = 1.25e-8, 2.5e21, math.NaN()
	dir := filepath.Join(t.TempDir(), "run")
	if err := WriteDir(dir, b); err != nil {
		t.Fatal(err)
	}
	exp := regexp.MustCompile(`[0-9][eE][-+]?[0-9]`)
	for _, f := range []string{SeriesFile, SummaryFile, DDLFile} {
		if s := read(t, filepath.Join(dir, f)); exp.MatchString(s) {
			t.Errorf("%s holds exponent notation: %s", f, exp.FindString(s))
		}
	}
	// A DDL result round-trips through JSON, NaN as null and back.
	j, err := json.Marshal(b.DDL[0])
	if err != nil {
		t.Fatal(err)
	}
	var back metrics.DDLResult
	if err := json.Unmarshal(j, &back); err != nil {
		t.Fatal(err)
	}
	if !math.IsNaN(back.LatP99Ms) || back.LatP95Ms != 1.25e-8 || len(back.Phases) != 3 || back.Phases[1] != b.DDL[0].Phases[1] {
		t.Errorf("round trip: %s -> %+v", j, back)
	}
}
