package server_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
)

// The tablespace limit judges a data group by the size config's shape function gives its
// largest table; that size must be the size of the tables the server builds (the function
// repeats buildTables' choices, this test keeps the two together).
func TestGroupPagesMatchesBuildTables(t *testing.T) {
	for _, page := range []string{"4KiB", "16KiB", "64KiB"} {
		sc := loadScenario(t, `
name: shapes
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 64MiB, innodb_page_size: `+page+`}
data:
  - {name: a, rows: 300k}
  - {name: b, tables: 3, size: 200MB, secondary_indexes: 2}
  - {name: c, kind: insert_benchmark, rows: 1M}
  - {name: d, kind: insert_benchmark, size: 50MB, secondary_indexes: 3}
  - {name: e, rows: 50k, row_size: 1000}
  - {name: f, kind: tpcc, warehouses: 3}
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
				built = max(built, int64(tab.NextPage))
			}
			if got := server.GroupPages(g, int64(sc.MySQL.PageSize)); got != built {
				t.Errorf("%s pages, group %s: the limit's shape says %d pages, the server builds %d", page, g.Name, got, built)
			}
		}
		m.Close()
	}
}
