package server_test

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/sim"
)

// cleanerRun runs a rate-limited oltp_write_only load for d on a pool that holds the data
// (no LRU pressure, dirty share far below innodb_max_dirty_pages_pct), lwm 0, and returns
// the pages the cleaner wrote, the checkpoint age at the end and the async point.
func cleanerRun(t *testing.T, ver, logSize string, rate int, d sim.Time) (written uint64, age, async, lwmAge uint64) {
	t.Helper()
	sc := loadScenario(t, fmt.Sprintf(`
name: cleaner
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "%s", innodb_buffer_pool_size: 512MiB, innodb_buffer_pool_instances: 1, innodb_log_file_size: %s,
        innodb_max_dirty_pages_pct_lwm: 0, innodb_max_dirty_pages_pct: 90, innodb_io_capacity: 200}
data:
  - {name: sb, tables: 2, rows: 200k}
warm: {fill: 1}
warmup: 0s
duration: 1s
workload:
  - sysbench: {mix: oltp_write_only, threads: 2, tables: sb, rate: %d}
`, ver, logSize, rate))
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	srv := m.Server
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	m.Sim.Run(d)
	if got := float64(srv.DirtyPages()) / float64(srv.LRUPages()+srv.Inst[0].BP.FreeLen()); got > 0.5 {
		t.Fatalf("%s: dirty share %.2f, the test wants it well below max_dirty_pages_pct", ver, got)
	}
	if f := srv.Inst[0].BP.FreeLen(); f < srv.Scenario.MySQL.LRUScanDepth {
		t.Fatalf("%s: free list %d below lru_scan_depth: the test wants no LRU pressure", ver, f)
	}
	r := srv.Redo
	return srv.Stats.CleanerFlushed, r.Age(), r.AsyncAge, uint64(float64(r.Capacity) * srv.Scenario.MySQL.AdaptiveFlushingLWM / 100)
}

// TestMariaCleanerIdleAtLWMZero (issue 22 item 2): MariaDB 10.11's page cleaner with
// innodb_max_dirty_pages_pct_lwm = 0 and the dirty share below max_dirty_pages_pct writes
// nothing while the checkpoint age stays below innodb_adaptive_flushing_lwm (10 %) of the log
// capacity and below max_modified_age_async: it sleeps without a timeout and nothing wakes
// it. With a small log the same load pushes the age past the async point: flush-ahead wakes
// the cleaner and it writes, holding the age at or below the async point (plus a second of
// redo). MySQL 8.0's cleaner on the first configuration still flushes (pages_for_lsn > 0). Fails if MariaDB's cleaner flushes when neither the dirty share nor the
// log asks it to (8.0's rule: pct_for_lsn or pages_for_lsn every second), or never wakes for
// redo (flush-ahead not wired to the LSN).
func TestMariaCleanerIdleAtLWMZero(t *testing.T) {
	const rate = 200
	w, age, _, lwm := cleanerRun(t, "mariadb-10.11.19", "2GiB", rate, 30*sim.Second)
	t.Logf("MariaDB, 2 GiB log: %d pages written, age %d (af lwm %d)", w, age, lwm)
	if age >= lwm {
		t.Fatalf("the checkpoint age %d reached the adaptive-flushing lwm %d: the load is too heavy for the test", age, lwm)
	}
	if w != 0 {
		t.Errorf("MariaDB, lwm 0, dirty below max, age below the lwm: the cleaner wrote %d pages, want 0", w)
	}
	w, age, async, _ := cleanerRun(t, "mariadb-10.11.19", "16MiB", rate, 30*sim.Second)
	t.Logf("MariaDB, 16 MiB log: %d pages written, age %d (async point %d)", w, age, async)
	if w == 0 {
		t.Errorf("MariaDB, 16 MiB log: the cleaner wrote nothing under redo pressure")
	}
	if age > async+async/4 {
		t.Errorf("MariaDB, 16 MiB log: checkpoint age %d well past the async point %d: flush-ahead did not hold it", age, async)
	}
	w, _, _, _ = cleanerRun(t, "8.0.18", "2GiB", rate, 30*sim.Second)
	t.Logf("MySQL 8.0.18, 2 GiB log: %d pages written", w)
	if w == 0 {
		t.Errorf("MySQL 8.0: the cleaner wrote nothing; its adaptive flushing should still run every second")
	}
}

// TestMariaCleanerCleanPoolShortOfFree: a read-only load on a pool smaller than the data,
// nothing dirty: the free list runs short, and MariaDB's cleaner must serve it with LRU
// batches (10.11.18's fully_unemployed path ends with one when need_LRU_eviction) instead of
// looping without a wait or a batch (the run would never advance: the test would hang).
func TestMariaCleanerCleanPoolShortOfFree(t *testing.T) {
	sc := loadScenario(t, `
name: clean-short
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "mariadb-10.11.19", innodb_buffer_pool_size: 32MiB}
data:
  - {name: sb, tables: 1, rows: 300k}
warm: {fill: 1}
warmup: 0s
duration: 1s
workload:
  - sysbench: {mix: oltp_point_select, threads: 4, tables: sb}
`)
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	m.Sim.Run(2 * sim.Second)
	srv := m.Server
	if srv.DirtyPages() != 0 {
		t.Fatalf("%d dirty pages: the test wants a clean pool", srv.DirtyPages())
	}
	if srv.Stats.CleanerLRUEvicted == 0 || srv.Stats.Txns == 0 {
		t.Errorf("cleaner evicted %d pages, %d transactions: the LRU batches did not serve the free list", srv.Stats.CleanerLRUEvicted, srv.Stats.Txns)
	}
}
