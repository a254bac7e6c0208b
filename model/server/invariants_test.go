package server_test

// Issue 3 "Done when": a long randomized load on a pool smaller than the data, then every
// instance's invariants (free/LRU partition, flush list = dirty frames in order, page hash,
// old-sublist length) — under each policy, with a CREATE INDEX and a temp-table connection loop.

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/policies"
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
	for i, in := range srv.Inst {
		if err := in.BP.Check(); err != nil {
			t.Fatalf("%s: instance %d: %v", when, i, err)
		}
		// A frame taken from the free list by a thread still in its miss path (waiting for
		// the LRU mutex) is on neither list, as a BUF_BLOCK_READY_FOR_USE block is.
		if in.BP.LRULen()+in.BP.FreeLen()+in.BP.Taken() != in.BP.Frames() {
			t.Fatalf("%s: instance %d: LRU %d + free %d + in transit %d != frames %d", when, i, in.BP.LRULen(), in.BP.FreeLen(), in.BP.Taken(), in.BP.Frames())
		}
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
warm: {fill: 0.95}
warmup: 0s
duration: 6s
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sb, rand: uniform}
  - temp_table_connections: {threads: 1, temp_rows: 20k}
schedule:
  - {at: 1s, ddl: create_index, table: big, columns: [c]}
  - {at: 2s, ddl: drop_table, table: sb}
`, pol))
			s := sim.New(sc.Seed)
			defer s.Close()
			srv, err := server.New(s, sc)
			if err != nil {
				t.Fatal(err)
			}
			p, err := policies.New(sc.Policy.Name, srv, sc.Policy.Params)
			if err != nil {
				t.Fatal(err)
			}
			srv.Policy = p
			srv.Warm()
			checkAll(t, srv, "after warm")
			srv.StartBackground()
			if err := workload.StartSysbench(srv, sc.Workload[0].Sysbench, 0); err != nil {
				t.Fatal(err)
			}
			var truncs int
			if err := workload.StartTempTableConnections(srv, sc.Workload[1].TempTableConnections,
				func(a, b sim.Time, st server.ScanStats) { truncs++ }); err != nil {
				t.Fatal(err)
			}
			var done []ddl.Result
			for _, ev := range sc.Schedule {
				ddl.Schedule(srv, ev, pol, func(*ddl.Result) {}, func(r ddl.Result) { done = append(done, r) })
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
			if truncs == 0 {
				t.Errorf("no temp-table truncation ran")
			}
			if len(done) != 2 {
				t.Fatalf("DDLs finished: %d, want 2 (%+v)", len(done), done)
			}
			for _, r := range done {
				if r.Failed {
					t.Errorf("%s failed: %s", r.Op, r.Reason)
				}
			}
			t.Logf("%s: hits %d misses %d make-young %d single-page %d cleaner-flushed %d cleaner-evicted %d temp-truncations %d",
				pol, st.Hits, st.Misses, st.MakeYoung, st.SinglePageFlushes, st.CleanerFlushed, st.CleanerLRUEvicted, truncs)
		})
	}
}
