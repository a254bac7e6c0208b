package server_test

// Issue 3 "Done when": a long randomized load on a pool smaller than the data, then every
// instance's invariants (free/LRU partition, flush list = dirty frames in order, page hash,
// old-sublist length) — under each policy, with a CREATE INDEX and a temp-table connection loop.

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

func loadScenario(t testing.TB, y string) *config.Scenario {
	t.Helper()
	sc, err := config.LoadBytes("test.yaml", []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func checkAll(t *testing.T, srv *server.Server, when string) {
	t.Helper()
	// A frame taken from the free list by a thread still in its miss path (waiting for the
	// LRU mutex) is on neither list, as a BUF_BLOCK_READY_FOR_USE block is.
	if err := srv.CheckInvariants(); err != nil {
		t.Fatalf("%s: %v", when, err)
	}
}

func TestInvariantsAfterRandomizedLoad(t *testing.T) {
	for _, pol := range []string{"fullscan", "lazy", "indexed"} {
		t.Run(pol, func(t *testing.T) {
			t.Parallel()
			// 256 MiB pool (16384 frames) against ~600 MB of sysbench data.
			sc := loadScenario(t, fmt.Sprintf(`
name: invariants
seed: 11
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: 256MiB
  innodb_buffer_pool_instances: 4
  innodb_log_file_size: 64MiB
  innodb_lru_scan_depth: 256
policy: %s
data:
  - {name: sb, tables: 4, rows: 500k}
  - {name: big, tables: 1, rows: 100k}
  - {name: victim, tables: 2, rows: 100k}
warm: {fill: 0.95}
warmup: 0s
duration: 6s
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sb, rand: uniform}
  - temp_table_connections: {threads: 1, temp_rows: 20k}
schedule:
  - {at: 1s, ddl: create_index, table: big, columns: [c]}
  - {at: 2s, ddl: drop_table, table: victim, each: true}
`, pol))
			m, err := runner.Build(sc, runner.BuildOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer m.Close()
			s, srv := m.Sim, m.Server
			checkAll(t, srv, "after warm")
			if err := m.Start(); err != nil {
				t.Fatal(err)
			}
			st0 := srv.Stats
			for sec := 1; sec <= 6; sec++ {
				s.Run(sim.Time(sec) * sim.Second)
				checkAll(t, srv, fmt.Sprintf("t=%ds", sec))
			}
			st := srv.Stats
			// The load must have exercised every path the invariants are about.
			if st.Misses-st0.Misses < 1000 || st.Hits < st.Misses {
				t.Errorf("hits %d misses %d: expected a pool smaller than the data with a good hit ratio", st.Hits, st.Misses)
			}
			if st.MakeYoung == 0 || st.CleanerFlushed == 0 || st.PagesWritten == 0 {
				t.Errorf("make-young %d, cleaner flushed %d, written %d: a path was not exercised", st.MakeYoung, st.CleanerFlushed, st.PagesWritten)
			}
			if st.CleanerLRUEvicted == 0 && st.SinglePageFlushes == 0 {
				t.Errorf("no LRU eviction by cleaners and no single-page flush: pool not under pressure")
			}
			truncs := st.TempTruncations
			if truncs == 0 {
				t.Errorf("no temp-table truncation ran")
			}
			// Under lazy drop the dropped table's and the truncated temp spaces' pages stay
			// until met: the LRU eviction scan must have chosen some of them first
			// (buf_LRU_free_from_common_LRU_list's was_stale path).
			if pol == "lazy" && st.StaleEvicted == 0 {
				t.Errorf("lazy: the eviction scan freed no stale page: the stale-page eviction path did not run (%d stale pages freed elsewhere)", st.StalePagesFreed)
			}
			done := m.DDLs()
			if len(done) != 3 {
				t.Fatalf("DDLs finished: %d, want 3 (%+v)", len(done), done)
			}
			for _, r := range done {
				if r.Failed || r.Unfinished {
					t.Errorf("%s failed: %s", r.Op, r.Reason)
				}
			}
			t.Logf("%s: hits %d misses %d make-young %d single-page %d cleaner-flushed %d cleaner-evicted %d temp-truncations %d stale-freed %d stale-evicted %d",
				pol, st.Hits, st.Misses, st.MakeYoung, st.SinglePageFlushes, st.CleanerFlushed, st.CleanerLRUEvicted, truncs, st.StalePagesFreed, st.StaleEvicted)
		})
	}
}
