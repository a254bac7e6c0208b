package trust

import (
	"encoding/json"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/validate"
	"github.com/ddlsim/ddlsim/model/config"
	_ "github.com/ddlsim/ddlsim/model/runner" // installs the assembly's schema (DDL operations, workloads, policies)
)

func load(t *testing.T, path string) *config.Scenario {
	t.Helper()
	sc, err := config.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// A profile built on a shipped one: what it writes itself is its own, what it leaves to the
// base is carried over from the base and named so, with the base's provenance.
func TestCarriedOver(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "p.yaml"), []byte("name: mine\nbase: 8c-64g\ncores: 32\ncosts: {statement: 50us}\nprovenance:\n  - {name: cores, status: measured, source: lscpu}\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "s.yaml"), []byte("name: s\nhardware: p.yaml\nmysql: {innodb_buffer_pool_size: 1GiB, version: mariadb-10.11.6}\ndata: [{name: t, size: 256MiB}]\nworkload: [{sysbench: {mix: oltp_read_write, threads: 2}}]\nschedule: [{at: 1s, ddl: create_index, table: t, columns: [c]}]\nduration: 3s\n"), 0o644)
	tr := Of(load(t, filepath.Join(dir, "s.yaml")))
	by := map[string]Constant{}
	for _, c := range tr.Constants {
		by[c.Name] = c
	}
	if c := by["cores"]; c.Origin != "here" || c.Status != "measured" || c.Source != "lscpu" {
		t.Errorf("cores: %+v", c)
	}
	if c := by["costs.statement"]; c.Origin != "here" || c.Status != "unstated" {
		t.Errorf("costs.statement written here without provenance: %+v", c)
	}
	// 8c-64g's page_hit is fitted there (its provenance says on what): carried over.
	if c := by["costs.page_hit"]; c.Origin != "carried_over" || c.From != "8c-64g" || c.Status != "fitted" || c.On == "" {
		t.Errorf("costs.page_hit: %+v", c)
	}
	line := tr.Line()
	if !strings.Contains(line, "carried over from 8c-64g (") || !strings.Contains(line, "costs.page_hit") && !strings.Contains(line, "+") ||
		!strings.Contains(line, "1 measured") || !strings.HasPrefix(line, "trust: profile mine: ") {
		t.Errorf("line: %s", line)
	}
	if tr.Base != "8c-64g" {
		t.Errorf("base %q", tr.Base)
	}
}

// The validation record is what results.json says: recomputed here naively from the rows
// of the lab's ADD INDEX points (MariaDB 10.11) and compared with Of's.
func TestValidationRecordFromResults(t *testing.T) {
	res, err := validate.ReadResults("../../docs/validation/results.json")
	if err != nil {
		t.Fatal(err)
	}
	lo, hi, n := math.Inf(1), math.Inf(-1), 0
	for _, r := range res.Rows {
		native := r.File == "scenarios/lab/ddl.yaml" && strings.HasPrefix(r.Point, "ADD INDEX") ||
			r.File == "scenarios/lab/osc.yaml" && strings.HasPrefix(r.Point, "native")
		if native && r.Stat == "ddl.duration_s" && r.Role == "predict" {
			lo, hi, n = math.Min(lo, float64(r.Ratio)), math.Max(hi, float64(r.Ratio)), n+1
		}
	}
	if n == 0 {
		t.Fatal("results.json has no lab ADD INDEX rows")
	}
	tr := Of(load(t, "../../scenarios/lab/ddl.yaml"))
	var got *Record
	for i, r := range tr.Validation {
		if r.Statement == "ADD INDEX" && r.Server == "MariaDB 10.11" && r.Stat == "duration" {
			got = &tr.Validation[i]
		}
	}
	if got == nil || got.Points != n || got.MinRatio != lo || got.MaxRatio != hi {
		t.Fatalf("record %+v, want %d points %.3f-%.3f", got, n, lo, hi)
	}
	if line := tr.Line(); !strings.Contains(line, "ADD INDEX on MariaDB 10.11: its duration within "+ratioRange(lo, hi)+" of measured") {
		t.Errorf("line: %s", line)
	}
	// The same statement run by pt-online-schema-change has its own record, from the lab's
	// pt-osc rows only (its native points are not its trust, nor the other way round).
	lo, hi, n = math.Inf(1), math.Inf(-1), 0
	for _, r := range res.Rows {
		if r.File == "scenarios/lab/osc.yaml" && strings.HasPrefix(r.Point, "pt-osc") && r.Stat == "ddl.duration_s" && r.Role == "predict" {
			lo, hi, n = math.Min(lo, float64(r.Ratio)), math.Max(hi, float64(r.Ratio)), n+1
		}
	}
	osc, err := config.LoadWith("../../scenarios/lab/osc.yaml", []string{"method=pt-osc"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	got = nil
	for i, r := range Of(osc).Validation {
		if r.Stat == "duration" {
			got = &Of(osc).Validation[i]
		}
	}
	if n == 0 || got == nil || got.Statement != "ADD INDEX via pt-osc" || got.Points != n || got.MinRatio != lo || got.MaxRatio != hi {
		t.Fatalf("pt-osc record %+v, want ADD INDEX via pt-osc, %d points %.3f-%.3f", got, n, lo, hi)
	}
	gh, err := config.LoadWith("../../scenarios/lab/osc.yaml", []string{"method=gh-ost", "mysql.log_bin=true"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	if tr := Of(gh); len(tr.Validation) != 0 || !strings.Contains(tr.Line(), "ADD INDEX via gh-ost on MariaDB 10.11: never compared with a measurement") {
		t.Errorf("gh-ost: %+v\n%s", tr, tr.Line())
	}
	// A statement never compared on this flavour says so.
	sc := load(t, "../../scenarios/quickstart.yaml")
	tr = Of(sc)
	if len(tr.Validation) != 0 || len(tr.Unvalidated) != 1 || !strings.Contains(tr.Line(), "DROP TABLE on MySQL 8.0: never compared with a measurement") {
		t.Errorf("quickstart: %+v\n%s", tr, tr.Line())
	}
	b, _ := json.Marshal(tr)
	for _, k := range []string{`"profile":`, `"constants":[`, `"validation":[]`, `"unvalidated":[`} {
		if !strings.Contains(string(b), k) {
			t.Errorf("JSON lacks %s: %s", k, b)
		}
	}
}
