package server_test

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
)

// The pool-fill warning judges a scenario by the pages GroupTotalPages gives its groups; they
// must be the pages of the tables the server builds (every table of the group, not only the
// largest), at every page size and kind.
func TestGroupTotalPagesMatchesBuildTables(t *testing.T) {
	for _, page := range []string{"4KiB", "16KiB", "64KiB"} {
		sc := loadScenario(t, `
name: shapes
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 64MiB, innodb_page_size: `+page+`}
data:
  - {name: a, rows: 300k}
  - {name: b, tables: 3, size: 200MB, secondary_indexes: 2}
  - {name: c, kind: insert_benchmark, rows: 1M}
  - {name: d, kind: insert_benchmark, tables: 2, size: 50MB, secondary_indexes: 3}
  - {name: e, tables: 4, rows: 50k, row_size: 1000}
  - {name: f, kind: tpcc, warehouses: 3}
warm: {whole_working_set: true}
warmup: 0s
duration: 1s
`)
		m, err := runner.Build(sc, runner.BuildOptions{Cold: true})
		if err != nil {
			t.Fatal(err)
		}
		for _, g := range sc.Data {
			var built int64
			for _, tab := range m.Server.Groups[g.Name] {
				built += int64(tab.NextPage)
			}
			if got := server.GroupTotalPages(g, int64(sc.MySQL.PageSize)); got != built {
				t.Errorf("%s pages, group %s: GroupTotalPages says %d pages, the server builds %d", page, g.Name, got, built)
			}
		}
		m.Close()
	}
}

// The warning fires exactly when the built server's tables fill under half of its frames
// (a naive oracle: build the server, count), is silenced by warm.whole_working_set, and is
// placed at the data: block of the file.
func TestPoolFillWarning(t *testing.T) {
	const head = `name: fill
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 1GiB, innodb_buffer_pool_instances: 3}
data:
`
	fired := map[bool]bool{}
	for _, size := range []string{"100MB", "450MB", "480MB", "500MB", "520MB", "560MB", "2GB"} {
		for _, whole := range []bool{false, true} {
			y := head + "  - {name: a, tables: 2, size: " + size + "}\n  - {name: b, kind: tpcc, warehouses: 1}\n"
			if whole {
				y += "warm: {fill: 0.5, whole_working_set: true}\n"
			}
			y += "duration: 1s\nworkload: [{sysbench: {mix: oltp_read_only, threads: 1, tables: a}}]\n"
			sc := loadScenario(t, y)
			m, err := runner.Build(sc, runner.BuildOptions{Cold: true})
			if err != nil {
				t.Fatal(err)
			}
			var built int64
			for _, tab := range m.Server.Tables {
				built += int64(tab.NextPage)
			}
			want := !whole && 2*built < int64(m.Server.Frames())
			m.Close()
			var got []*config.FieldError
			for _, w := range sc.Warnings {
				if strings.Contains(w.Msg, "buffer pool: the simulated pool stays mostly empty") {
					got = append(got, w)
				}
			}
			if want != (len(got) == 1) || len(got) > 1 {
				t.Errorf("size %s whole_working_set %v: %d of %d frames built, want warning %v, got %d", size, whole, built, m.Server.Frames(), want, len(got))
				continue
			}
			fired[want] = true
			if len(got) == 1 {
				w := got[0]
				if w.File != "test.yaml" || w.Line != 5 || w.Path != "data" || !strings.Contains(w.Msg, "whole_working_set: true") ||
					!strings.Contains(w.Warning(), "test.yaml:5:3: warning: data: the data groups hold ") {
					t.Errorf("size %s: warning %q at %s:%d path %s", size, w.Warning(), w.File, w.Line, w.Path)
				}
			}
		}
	}
	if !fired[true] || !fired[false] {
		t.Errorf("the sizes do not straddle the threshold: fired %v", fired)
	}
}
