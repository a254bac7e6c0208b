package runner_test

// Issue 12's mechanism checks: DROP / TRUNCATE per version, the AHI's per-record cost, the
// Percona lazy drop, metadata locks and tables as DDL targets. Bands and mechanism ratios,
// not snapshots.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// dropYAML: a 1 GiB pool in 2 instances, nearly full, under a small sysbench load on sb; the
// DDL runs on group t, which the load does not touch unless rest adds a workload on it.
const dropYAML = `
name: drop
seed: 5
hardware: profiles/8c-64g.yaml
mysql:
  version: "%s"
  innodb_buffer_pool_size: %s
  innodb_buffer_pool_instances: 2
  innodb_adaptive_hash_index: %v
policy: %s
data:
  - {name: sb, tables: 4, rows: %s}
  - {name: t, tables: 2, rows: %s}
warm: {fill: 0.97, dirty: 0.2}
warmup: 1s
duration: 4s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sb}
%sschedule:
  - {at: 1s, ddl: %s, table: "t[1]"}
`

type dropCase struct {
	version, pool, policy, rows, ddl, rest string
	ahi                                    bool
}

// dropSQL is the scenario of a drop case; the sb group is sized to fill the pool.
func (c dropCase) yaml() string {
	if c.pool == "" {
		c.pool = "1GiB"
	}
	if c.rows == "" {
		c.rows = "200k"
	}
	sb := "1.2M"
	if c.pool == "2GiB" {
		sb = "2.5M"
	}
	return fmt.Sprintf(dropYAML, c.version, c.pool, c.ahi, c.policy, sb, c.rows, c.rest, c.ddl)
}

// run returns the DDL's result and the LRU length (both instances) when it started.
func (c dropCase) run(t *testing.T) (metrics.DDLResult, float64) {
	t.Helper()
	r := run(t, c.yaml())
	d := ddlOf(t, r, c.ddl)
	if d.Failed || d.Unfinished {
		t.Fatalf("%+v: failed %v (%s) unfinished %v", c, d.Failed, d.Reason, d.Unfinished)
	}
	lru := 0.0
	lc := r.Series.Col("lru_pages")
	for _, row := range r.Series.Rows {
		if row[0] <= d.StartS {
			lru = row[lc]
		}
	}
	return d, lru
}

// TestDropPathsPerVersion: 5.5 before 5.5.23 invalidates with two walks of the whole LRU;
// 5.6 walks only the flush list (after freeing the table's pages one by one); 8.0.18 drops the
// AHI in table rounds (none here: the table is not searched) and walks the flush list. The
// walks show in nodes visited.
func TestDropPathsPerVersion(t *testing.T) {
	t.Parallel()
	v55, lru := dropCase{version: "5.5.20", policy: "fullscan", ddl: "drop_table"}.run(t)
	v56, _ := dropCase{version: "5.6.40", policy: "fullscan", ddl: "drop_table"}.run(t)
	v80, _ := dropCase{version: "8.0.18", policy: "fullscan", ddl: "drop_table"}.run(t)
	t.Logf("LRU %.0f; nodes: 5.5.20 %d, 5.6.40 %d, 8.0.18 %d", lru, v55.NodesVisited, v56.NodesVisited, v80.NodesVisited)
	// Two walks, and a rescan of the whole LRU each time the removal walk meets a page being
	// written (a cleaner's write of a dirty page of the table): 2 to 4 LRU lengths.
	if r := float64(v55.NodesVisited) / lru; r < 1.95 || r > 4.5 {
		t.Errorf("5.5.20 DROP visited %d nodes = %.2f LRU lengths, want two full LRU walks or more", v55.NodesVisited, r)
	}
	// The flush list holds about the warm dirty fifth of the pool: one walk of it.
	for _, c := range []struct {
		v string
		d metrics.DDLResult
	}{{"5.6.40", v56}, {"8.0.18", v80}} {
		if r := float64(c.d.NodesVisited) / lru; r < 0.05 || r > 0.5 {
			t.Errorf("%s DROP visited %d nodes = %.2f LRU lengths, want one flush-list walk (0.05-0.5)", c.v, c.d.NodesVisited, r)
		}
	}
	if !hasPhase(v56, "free_pages") || !hasPhase(v55, "free_pages") || hasPhase(v80, "free_pages") {
		t.Errorf("page freeing: 5.5 %v, 5.6 %v (want both), 8.0 %v (want none)", hasPhase(v55, "free_pages"), hasPhase(v56, "free_pages"), hasPhase(v80, "free_pages"))
	}
}

// TestTruncatePerVersion: 5.6 TRUNCATE is ALL_NO_WRITE (an AHI walk and a removal walk of the
// whole LRU); 8.0.18's is the DROP path (a flush-list walk).
func TestTruncatePerVersion(t *testing.T) {
	t.Parallel()
	v56, lru := dropCase{version: "5.6.40", policy: "fullscan", ddl: "truncate_table"}.run(t)
	v80, _ := dropCase{version: "8.0.18", policy: "fullscan", ddl: "truncate_table"}.run(t)
	t.Logf("LRU %.0f; nodes: 5.6.40 %d (%.2f s), 8.0.18 %d (%.2f s)", lru, v56.NodesVisited, v56.DurationS, v80.NodesVisited, v80.DurationS)
	if r := float64(v56.NodesVisited) / lru; r < 1.95 || r > 4.5 {
		t.Errorf("5.6 TRUNCATE visited %.2f LRU lengths, want two walks or more", r)
	}
	if v80.NodesVisited*3 > v56.NodesVisited {
		t.Errorf("8.0 TRUNCATE visited %d nodes, not far fewer than 5.6's %d", v80.NodesVisited, v56.NodesVisited)
	}
}

func hasPhase(d metrics.DDLResult, name string) bool {
	for _, p := range d.Phases {
		if p.Name == name {
			return true
		}
	}
	return false
}

// TestPerconaLazyDrop: Percona's lazy drop walks the LRU once (marking) and the chunk's blocks
// once (AHI), where 5.5.20's DROP walks the LRU twice holding the mutex; both walks are of the
// pool, so doubling the pool about doubles the nodes. (The issue expected the lazy drop to
// scale with the table; the source's buf_LRU_mark_space_was_deleted walks the whole LRU.)
func TestPerconaLazyDrop(t *testing.T) {
	t.Parallel()
	p1, lru1 := dropCase{version: "percona-5.5.30", pool: "1GiB", policy: "percona_lazy", ddl: "drop_table"}.run(t)
	p2, lru2 := dropCase{version: "percona-5.5.30", pool: "2GiB", policy: "percona_lazy", ddl: "drop_table"}.run(t)
	f1, _ := dropCase{version: "percona-5.5.30", pool: "1GiB", policy: "fullscan", ddl: "drop_table"}.run(t)
	t.Logf("percona_lazy drop: 1GiB LRU %.0f %d nodes %.4f s, 2GiB LRU %.0f %d nodes %.4f s; fullscan 1GiB %d nodes %.4f s",
		lru1, p1.NodesVisited, phaseSecs(p1, "drop"), lru2, p2.NodesVisited, phaseSecs(p2, "drop"), f1.NodesVisited, phaseSecs(f1, "drop"))
	if r := float64(p1.NodesVisited) / lru1; r < 0.98 || r > 1.02 {
		t.Errorf("percona_lazy DROP visited %.2f LRU lengths, want 1 (the mark walk)", r)
	}
	if r := float64(p2.NodesVisited) / float64(p1.NodesVisited); r < 1.7 || r > 2.3 {
		t.Errorf("pool ×2: percona_lazy nodes ×%.2f, want ~2", r)
	}
}

func phaseSecs(d metrics.DDLResult, name string) float64 {
	s := 0.0
	for _, p := range d.Phases {
		if p.Name == name {
			s += p.EndS - p.StartS
		}
	}
	return s
}

// TestLazyDropScalesWithHashedPages: 8.0.23's lazy DROP with the AHI on walks the LRU once per
// round of 1024 hashed pages of the table (per instance), so its cost follows the table's
// hashed pages: a table searched (point selects on it) costs rounds, the same table unsearched
// none.
func TestLazyDropScalesWithHashedPages(t *testing.T) {
	t.Parallel()
	search := "  - sysbench: {mix: oltp_point_select, threads: 4, tables: t, rand: uniform}\n"
	cold, _ := dropCase{version: "8.0.30", policy: "lazy", ddl: "drop_table", ahi: true}.run(t)
	hot, lru := dropCase{version: "8.0.30", policy: "lazy", ddl: "drop_table", ahi: true, rest: search}.run(t)
	t.Logf("lazy DROP: cold %d nodes %d AHI pages; searched %d nodes %d AHI pages", cold.NodesVisited, cold.AHIPagesDropped, hot.NodesVisited, hot.AHIPagesDropped)
	if cold.NodesVisited != 0 || cold.AHIPagesDropped != 0 {
		t.Errorf("an unsearched table's lazy DROP visited %d nodes", cold.NodesVisited)
	}
	if hot.AHIPagesDropped < 500 || float64(hot.NodesVisited) < 0.9*lru {
		t.Errorf("a searched table's lazy DROP: %d AHI pages dropped, %d nodes (want its hashed pages and at least one LRU walk)", hot.AHIPagesDropped, hot.NodesVisited)
	}
}

// TestAHIDropGrowsWithRecordsPerPage: the same number of hashed pages costs more to drop when
// each holds more records (btr_search_drop_page_hash_index folds and deletes per record): a
// table of 100-byte rows against one of 400-byte rows.
func TestAHIDropGrowsWithRecordsPerPage(t *testing.T) {
	t.Parallel()
	secs := map[int]float64{}
	recs := map[int]int{}
	for _, rowBytes := range []int{100, 400} {
		y := fmt.Sprintf(`
name: ahi-recs
seed: 9
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.30", innodb_buffer_pool_size: 1GiB, innodb_buffer_pool_instances: 1, innodb_adaptive_hash_index: on}
policy: lazy
data:
  - {name: t, tables: 1, rows: %d, row_size: %d}
warmup: 0s
duration: 1s
`, 2000*schemaLeafRecs(rowBytes), rowBytes)
		m, err := runner.Build(load(t, y), runner.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		srv := m.Server
		tab := srv.Tables[0]
		recs[rowBytes] = tab.Primary.LeafRecs
		// Hash every leaf: as many searches as the build limits want.
		var dur sim.Time
		srv.Spawn("t", "fg", func(th *server.Thread) {
			for range 200 {
				for l := int64(0); l < tab.Primary.LeafPages(); l++ {
					th.Search(tab.Primary, tab.Primary.Path(nil, l), false)
				}
			}
			sp := srv.Spaces.Get(tab.Space)
			sp.Deleted = true
			th.Pay()
			t0 := th.Now()
			srv.DropPages(th, sp, version.OpDropTable)
			th.Pay()
			dur = th.Now() - t0
		})
		m.Sim.Run(sim.Time(1 << 62))
		m.Close()
		secs[rowBytes] = dur.Seconds()
	}
	t.Logf("2000 hashed leaves: %d recs/page %.4f s; %d recs/page %.4f s", recs[100], secs[100], recs[400], secs[400])
	// The cost per page grows with its records, and a little more: more entries load the hash
	// table more (α), lengthening every delete's chain walks.
	want := float64(recs[100]) / float64(recs[400])
	if r := secs[100] / secs[400]; r < 0.8*want || r > 1.6*want {
		t.Errorf("drop time ratio %.2f for a records-per-page ratio of %.2f", r, want)
	}
}

// schemaLeafRecs is the records per primary-key leaf of a sysbench table of rowBytes columns.
func schemaLeafRecs(rowBytes int) int {
	return int(float64(16384-120) * 15 / 16 / (float64(rowBytes+13+5) + 1.0/3))
}

// TestRowSizeSetsTableSize: rows: 2M, row_size: 500 is a table of about a gigabyte (2M × 500
// bytes of columns, plus headers and the k index), not sysbench's own 188-byte rows.
func TestRowSizeSetsTableSize(t *testing.T) {
	sc := load(t, `
name: rowsize
hardware: profiles/8c-64g.yaml
data:
  - {name: a, rows: 2M, row_size: 500}
  - {name: b, rows: 2M}
  - {name: c, size: 1GB, row_size: 500}
duration: 1s
`)
	m, err := runner.Build(sc, runner.BuildOptions{Cold: true})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	a, b, c := m.Server.Groups["a"][0], m.Server.Groups["b"][0], m.Server.Groups["c"][0]
	gb := func(tab interface{ Pages() int64 }) float64 { return float64(tab.Pages()*16384) / 1e9 }
	t.Logf("a %.2f GB, b %.2f GB, c %.2f GB (%d rows)", gb(a), gb(b), gb(c), c.Rows)
	if gb(a) < 1.0 || gb(a) > 1.3 {
		t.Errorf("rows 2M, row_size 500: %.2f GB, want 1.0-1.3", gb(a))
	}
	if gb(b) > 0.6 {
		t.Errorf("rows 2M of sysbench rows: %.2f GB, want ~0.5", gb(b))
	}
	if c.Rows < 1_500_000 || c.Rows > 2_000_000 {
		t.Errorf("size 1GB of 500-byte rows: %d rows, want 1.5M-2M", c.Rows)
	}
}

// TestMDLClientWaitsForExclusivePhase: a client statement on a table being truncated waits
// exactly until the TRUNCATE releases its exclusive lock.
func TestMDLClientWaitsForExclusivePhase(t *testing.T) {
	sc := load(t, dropCase{version: "8.0.18", policy: "fullscan", ddl: "truncate_table"}.yaml())
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	srv := m.Server
	tab := srv.Groups["t"][0]
	var ddlStart, ddlEnd, reqAt, grantAt sim.Time
	ev := sc.Schedule[0]
	srv.Spawn("ddl", "ddl", func(th *server.Thread) {
		ddlStart = th.Now()
		r := ddl.Run(th, ev)
		if r.Failed {
			t.Errorf("truncate failed: %s", r.Reason)
		}
		ddlEnd = r.End
	})
	srv.Spawn("client", "fg", func(th *server.Thread) {
		th.Sleep(50 * sim.Microsecond)
		reqAt = th.Now()
		if res := th.AcquireMDL(tab, server.MDLNone, server.MDLSharedWrite, true); res != server.MDLGranted {
			t.Errorf("client: %v", res)
		}
		grantAt = th.Now()
		th.ReleaseMDL(tab, server.MDLSharedWrite)
	})
	m.Sim.Run(sim.Time(1 << 62))
	t.Logf("truncate %v-%v, client asked at %v, granted at %v", ddlStart, ddlEnd, reqAt, grantAt)
	if ddlEnd-ddlStart < sim.Millisecond || reqAt >= ddlEnd {
		t.Fatalf("setup: truncate %v long, client asked at %v", ddlEnd-ddlStart, reqAt)
	}
	if grantAt != ddlEnd {
		t.Errorf("client granted at %v, want the end of the exclusive phase %v", grantAt, ddlEnd)
	}
}

// TestDDLsOnOneTableQueue: a DROP issued while a CREATE INDEX builds on the same table waits
// (wait_mdl) for it to commit; a second CREATE INDEX on the dropped table fails; clients of the
// dropped table get errors, not rows (sysbench with ignore_errors: all re-runs them).
func TestDDLsOnOneTableQueue(t *testing.T) {
	t.Parallel()
	rest := "  - sysbench: {mix: oltp_read_only, threads: 2, tables: t, ignore_errors: all}\n"
	y := strings.Replace(dropCase{version: "8.0.18", ahi: true, policy: "fullscan", rest: rest, ddl: "create_index"}.yaml(),
		`  - {at: 1s, ddl: create_index, table: "t[1]"}`,
		`  - {at: 1s, ddl: create_index, table: "t[1]", columns: [c]}
  - {at: 1.1s, ddl: drop_table, table: "t[1]"}
  - {at: 2.9s, ddl: create_index, table: "t[1]", columns: [pad]}`, 1)
	r := run(t, strings.Replace(y, "duration: 4s", "duration: 15s", 1))
	var ci, drop, ci2 metrics.DDLResult
	for _, d := range r.DDL {
		switch {
		case d.Op == "create_index" && d.StartS < 2:
			ci = d
		case d.Op == "drop_table":
			drop = d
		default:
			ci2 = d
		}
	}
	t.Logf("create_index %.3f-%.3f, drop %.3f-%.3f (wait %.3f s), second create_index failed=%v %q",
		ci.StartS, ci.EndS, drop.StartS, drop.EndS, phaseSecs(drop, ddl.WaitMDL), ci2.Failed, ci2.Reason)
	if ci.Failed || drop.Failed {
		t.Fatalf("create_index failed %v, drop failed %v", ci.Failed, drop.Failed)
	}
	if w := phaseSecs(drop, ddl.WaitMDL); w < ci.EndS-drop.StartS-0.01 {
		t.Errorf("drop waited %.3f s for the metadata lock; the create_index it queued behind ended %.3f s after it started", w, ci.EndS-drop.StartS)
	}
	if !ci2.Failed || !strings.Contains(ci2.Reason, "ER_NO_SUCH_TABLE") {
		t.Errorf("a create_index on the dropped table: failed %v (%s), want ER_NO_SUCH_TABLE", ci2.Failed, ci2.Reason)
	}
	var errs float64
	ec := r.Series.Col("err_per_s")
	for _, row := range r.Series.Rows {
		if row[0] > drop.EndS {
			errs += row[ec]
		}
	}
	if errs == 0 {
		t.Errorf("no statement errors after the table was dropped")
	}
}

// TestDropThousandTables: one schedule line drops every table of a 1000-table group.
func TestDropThousandTables(t *testing.T) {
	t.Parallel()
	r := run(t, `
name: drop1000
seed: 2
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 1GiB}
data:
  - {name: tiny, tables: 1000, rows: 100}
warmup: 0s
duration: 30s
schedule:
  - {at: 0s, ddl: drop_table, table: tiny, each: true}
`)
	ok := 0
	for _, d := range r.DDL {
		if d.Op == "drop_table" && !d.Failed && !d.Unfinished {
			ok++
		}
	}
	if ok != 1000 || r.DDL[999].Table != "tiny1000" {
		t.Errorf("%d of 1000 drops done; last %+v", ok, r.DDL[len(r.DDL)-1])
	}
}
