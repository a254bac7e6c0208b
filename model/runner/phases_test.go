package runner_test

import (
	"encoding/csv"
	"github.com/ddlsim/ddlsim/internal/output"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Every phase occurrence is kept (CREATE INDEX flushes its observer twice and waits for its
// MDL once per stage), the phases that lie in no other follow each other and add up to the
// statement's duration, and ddl.csv spells out every occurrence and totals each name.
func TestPhasesAddUpToDuration(t *testing.T) {
	r := run(t, `
name: phases
seed: 3
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 256MiB, innodb_buffer_pool_instances: 2, innodb_sort_buffer_size: 64KiB}
data:
  - {name: big, tables: 1, rows: 200k}
warm: {fill: 0.9}
warmup: 1s
duration: 30s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: big}
schedule:
  - {at: 1s, ddl: create_index, table: big, columns: [c]}
  - {at: 4s, ddl: optimize_table, table: big}
report: {interval: 1s}
until: {event: ddl_done}
`)
	dir := filepath.Join(t.TempDir(), "run")
	if err := output.WriteDir(dir, output.Bundle{Series: &r.Series, Summary: r.Summary, DDL: r.DDL}); err != nil {
		t.Fatal(err)
	}
	f, err := os.Open(filepath.Join(dir, output.DDLFile))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	recs, err := csv.NewReader(f).ReadAll()
	if err != nil {
		t.Fatal(err)
	}
	col := map[string]int{}
	for i, h := range recs[0] {
		col[h] = i
	}
	repeated := false
	for i, d := range r.DDL {
		if d.Failed || d.Unfinished {
			t.Fatalf("%s: failed %v unfinished %v", d.Op, d.Failed, d.Unfinished)
		}
		within := metrics.Within(d.Phases)
		var sum float64
		seen := map[string]bool{}
		for j, p := range d.Phases {
			if seen[p.Name] {
				repeated = true
			}
			seen[p.Name] = true
			if !within[j] {
				sum += p.EndS - p.StartS
			}
		}
		if math.Abs(sum-d.DurationS) > 1e-6 {
			t.Errorf("%s: phases add up to %v s, duration %v s: %s", d.Op, sum, d.DurationS, metrics.PhaseList(d.Phases))
		}
		rec := recs[i+1]
		if got := len(strings.Fields(rec[col["phases"]])); got != len(d.Phases) {
			t.Errorf("%s: ddl.csv phases has %d occurrences, the result %d", d.Op, got, len(d.Phases))
		}
		_, total := metrics.PhaseTotals(d.Phases)
		for name, x := range total {
			if got := rec[col["phase_"+name+"_s"]]; got != metrics.FormatFloat(x) {
				t.Errorf("%s: phase_%s_s %s, want the total %v", d.Op, name, got, x)
			}
		}
	}
	if !repeated {
		t.Error("no statement repeated a phase; the test checks nothing")
	}
}
