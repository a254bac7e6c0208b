package runner_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// The B-tree's non-leaf pages are pool pages like the leaves, and every search goes through
// them: a search of an index of depth d makes d page lookups, root first; from a cold pool a
// few seconds of sysbench (uniform ids, so every part of each index is searched; with
// special the tails of a table are never reached, on a real server too) leave every non-leaf
// page of every index resident while the pool holds a fraction of the leaves, so at small
// pools the upper levels take their share of the frames.
func TestBTreeUpperLevelsInThePool(t *testing.T) {
	sc := load(t, `
name: levels
seed: 1
hardware: profiles/lab-2c.yaml
mysql: {version: "mariadb-10.11.19", innodb_buffer_pool_size: 32MiB}
data:
  - {name: sbtest, tables: 2, rows: 300k}
warm: {fill: 0}
duration: 3s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, rand: uniform}
`)
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	m.Sim.Run(3 * sim.Second)
	srv := m.Server
	resident := func(space uint32, page uint32) bool {
		pid := schema.MakePageID(space, page)
		return srv.InstanceOf(pid).BP.Lookup(bufpool.PageID(pid)) != bufpool.Nil
	}
	upper := 0
	for _, tab := range srv.Tables {
		for _, ix := range tab.Indexes() {
			if ix.Depth < 2 {
				t.Fatalf("%s: depth %d, want a tree with upper levels", ix.Name, ix.Depth)
			}
			for p := ix.Base; int64(p) < int64(ix.Base)+ix.Pages; p++ {
				if ix.IsLeaf(p) {
					continue
				}
				upper++
				if !resident(tab.Space, p) {
					t.Errorf("%s: non-leaf page %d not in the pool after 3 s of searches", ix.Name, p)
				}
			}
		}
	}
	if upper < 8 {
		t.Fatalf("only %d non-leaf pages", upper)
	}
	// One search on a quiet server whose pool holds the table: depth lookups, all hits.
	quiet := load(t, `
name: levels-quiet
seed: 1
hardware: profiles/lab-2c.yaml
mysql: {version: "mariadb-10.11.19", innodb_buffer_pool_size: 256MiB}
data:
  - {name: sbtest, tables: 1, rows: 300k}
duration: 1s
`)
	q, err := runner.Build(quiet, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer q.Close()
	if err := q.Start(); err != nil {
		t.Fatal(err)
	}
	ix := q.Server.Tables[0].Primary
	path := ix.Path(nil, ix.LeafPages()/2)
	var hits, misses uint64
	q.Server.Spawn("probe", "fg", func(th *server.Thread) {
		th.Search(ix, path, false)
		hits, misses = th.Hits, th.Misses
	})
	q.Sim.Run(sim.Second)
	if len(path) != ix.Depth || hits != uint64(ix.Depth) || misses != 0 {
		t.Errorf("a search of depth %d: path %d pages, %d hits, %d misses; want %d hits", ix.Depth, len(path), hits, misses, ix.Depth)
	}
}
