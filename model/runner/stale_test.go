package runner_test

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// TestStaleColumns (issue 22 item 3): on MariaDB a dropped table's pages stay in the pool,
// stale, and the series count them: 0 before the DROP, then every page of the table (the
// pool holds all of it and nothing evicts or flushes at lwm 0 on an idle server), the dirty
// ones among them; a MySQL run has no such columns. Fails if the DROP frees the pages at
// once, or the count is not the dropped space's.
func TestStaleColumns(t *testing.T) {
	y := `
name: stale
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "%s", innodb_buffer_pool_size: 256MiB}
data:
  - {name: sb, tables: 2, rows: 100k}
warm: {fill: 1, dirty: 0.3}
warmup: 0s
duration: 4s
schedule:
  - {at: 2s, ddl: drop_table, table: sb2}
`
	sc, err := config.LoadBytes("stale.yaml", []byte(fmt.Sprintf(y, "mariadb-10.11.19")), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	pages := int64(0)
	for _, tab := range m.Server.Tables {
		if tab.Name == "sb2" {
			for _, ix := range tab.Indexes() {
				pages += ix.Pages
			}
		}
	}
	m.Close()
	if pages == 0 {
		t.Fatal("no table sb2")
	}
	r, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	s := &r.Series
	if s.Col("stale_pages") < 0 || s.Col("stale_dirty_pages") < 0 {
		t.Fatalf("MariaDB series lack the stale columns: %v", s.Columns)
	}
	n, d, ts := s.Column("stale_pages"), s.Column("stale_dirty_pages"), s.Column("time_s")
	for i := range n {
		t.Logf("t=%gs stale %g dirty %g", ts[i], n[i], d[i])
		switch {
		case ts[i] < 2 && n[i] != 0:
			t.Errorf("t=%gs: %g stale pages before the DROP", ts[i], n[i])
		case ts[i] > 2.5 && n[i] != float64(pages):
			t.Errorf("t=%gs: %g stale pages, want the dropped table's %d", ts[i], n[i], pages)
		}
		if d[i] > n[i] || (ts[i] > 2.5 && d[i] == 0) {
			t.Errorf("t=%gs: %g stale dirty pages of %g stale", ts[i], d[i], n[i])
		}
	}
	sc2, err := config.LoadBytes("stale.yaml", []byte(fmt.Sprintf(y, "8.0.27")), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	r2, err := runner.Run(sc2, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if r2.Series.Col("stale_pages") >= 0 {
		t.Errorf("a MySQL run has the stale_pages column")
	}
}
