package validate

import (
	"os"
	"path/filepath"
	"testing"
)

// A profile built on another declares only its own values' provenance; the doc's tables must
// still say where every value the runs use comes from: the based profile's table (its own
// values) is followed by its bases' (the bases' values, not the child's), once each.
func TestConstantsFollowTheBase(t *testing.T) {
	dir := t.TempDir()
	write := func(name, text string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	write("machine.yaml", `name: machine
base: 8c-64g
cores: 2
costs: {statement: 96us, list_node: 156ns}
provenance:
  - {name: cores, status: measured, source: lscpu}
  - {name: costs.statement, status: assumed, source: "carried over from 8c-64g"}
  - {name: costs.list_node, status: measured, source: chase}
`)
	write("fitted.yaml", `name: fitted
base: machine.yaml
costs: {statement: 28.7us}
provenance:
  - {name: costs.statement, status: fitted, on: "a baseline"}
`)
	scen := `hardware: fitted.yaml
mysql: {version: mariadb-10.11.19, innodb_buffer_pool_size: 1GiB}
data: [{name: sbtest, tables: 1, rows: 10K}]
duration: 1s
workload: [{sysbench: {mix: oltp_read_only, threads: 1}}]
`
	write("s1.yaml", "name: s1\n"+scen)
	write("s2.yaml", "name: s2\n"+scen)
	var files []string
	for _, n := range []string{"a1", "a2"} {
		files = append(files, write(n+".yaml", "scenario: s"+n[1:]+".yaml\nvalidation:\n  table: "+n+"\n  points:\n    - {label: p, role: predict, compare: [{stat: tps_mean, measured: 1, source: s}]}\n"))
	}
	ps, err := ProfileConstants(files, dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(ps) != 3 || ps[0].Name != "fitted" || ps[1].Name != "machine" || ps[2].Name != "8c-64g" {
		t.Fatalf("want the tables of fitted, then its bases machine and 8c-64g (once each, although two files use them): %+v", ps)
	}
	if ps[0].File != "fitted.yaml" || ps[1].File != "machine.yaml" {
		t.Errorf("files %q, %q", ps[0].File, ps[1].File)
	}
	if e := ps[0].Entries; len(e) != 1 || e[0].Name != "costs.statement" || e[0].Value != "28.7us" || e[0].Status != "fitted" {
		t.Errorf("fitted's table: %+v", e)
	}
	got := map[string]Constant{}
	for _, e := range ps[1].Entries {
		got[e.Name] = e
	}
	if len(got) != 3 || got["costs.statement"].Value != "96us" || got["costs.statement"].Status != "assumed" || got["cores"].Value != "2" {
		t.Errorf("machine's table (its own values): %+v", ps[1].Entries)
	}
}
