package maint_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// Device latencies of the batch-effect test: constant, so the naive oracle is exact up to
// the CPU the walks and mutexes take.
const (
	sfWrite    = 40 * sim.Microsecond
	sfSync     = 30 * sim.Microsecond
	sfChannels = 4
)

// spaceFlushServer is a warm one-instance server of version ver whose target space has its
// first d resident pages dirty (every third other page dirty too, interleaved on the flush
// list), on a data device with constant latencies and every CPU cost 0.
func spaceFlushServer(t *testing.T, ver string, d int) (*sim.Sim, *server.Server, uint32) {
	t.Helper()
	costs := ""
	for _, c := range []string{"page_read_cpu", "page_write_cpu", "context_switch", "page_hit", "page_miss",
		"list_node", "row", "statement", "commit", "mutex_handoff", "mutex_spin", "ahi_fold", "ahi_node",
		"block_scan", "page_free", "page_flush_cpu", "sort_row", "merge_row", "load_row", "connect",
		"temp_table_row", "page_cache_copy", "rebuild_row"} {
		costs += c + ": 0, "
	}
	dev := fmt.Sprintf("{channels: %d, read: {dist: constant, value: 50us}, write: {dist: constant, value: %dus}, sync: {dist: constant, value: %dus}}",
		sfChannels, sfWrite/sim.Microsecond, sfSync/sim.Microsecond)
	y := fmt.Sprintf(`
name: space-flush
seed: 1
hardware:
  name: t
  cores: 2
  memory: 4GiB
  storage:
    data: %s
  costs: {%s}
mysql: {version: "%s", innodb_buffer_pool_size: 64MiB, innodb_buffer_pool_instances: 1, innodb_doublewrite: on, innodb_io_capacity: 200}
data:
  - {name: sb, tables: 2, rows: 100k}
warm: {fill: 0.9}
duration: 1s
`, dev, costs[:len(costs)-2], ver)
	sc, err := config.LoadBytes("space-flush.yaml", []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	target := m.Server.Tables[1].Space
	bp := m.Server.Inst[0].BP
	var lsn uint64
	n, i := 0, 0
	for f := bp.LRUTail(); f != bufpool.Nil; f = bp.LRUPrev(f) {
		i++
		if bp.Key(f).Space() == target {
			if n == d {
				continue
			}
			n++
		} else if i%3 != 0 {
			continue
		}
		lsn += 100
		bp.MarkDirty(f, lsn)
	}
	if n != d {
		t.Fatalf("only %d pages of the target are resident, want %d", n, d)
	}
	m.Server.Redo.Advance(lsn)
	return m.Sim, m.Server, target
}

// flushTime runs route on a fresh thread (then the wait for the writes and the fsync) and
// returns its duration, what it did, and the target's dirty pages left.
func flushTime(t *testing.T, s *sim.Sim, srv *server.Server, target uint32, route func(th *server.Thread) server.ScanStats) (sim.Time, server.ScanStats, int) {
	t.Helper()
	var took sim.Time
	var st server.ScanStats
	srv.Spawn("flusher", "ddl", func(th *server.Thread) {
		start := th.Now()
		st = route(th)
		th.WaitPendingWrites()
		th.FsyncData()
		took = th.Now() - start
	})
	s.Run(sim.Second)
	left := 0
	bp := srv.Inst[0].BP
	for f := bp.SpaceOldestDirty(target); f != bufpool.Nil; f = bp.SpaceNewerDirty(f) {
		left++
	}
	return took, st, left
}

// TestBatchedSpaceFlushBeatsSinglePage (issue 22 item 1): MariaDB's tablespace flush of D
// dirty pages (buf_flush_list_space through the two-slot doublewrite pipeline) against the
// MySQL 5.6 – 8.0 single-page route of the same pages (a doublewrite slot write + fsync per
// page, then the asynchronous data write). The naive oracle, from the device latencies
// alone: single-page ≈ D·(w + s) + the last write + the fsync; batched ≈ Σ over ⌈D/128⌉
// batches of (w + s + ⌈n_b/channels⌉·w) + the fsync (the next slot's batch waits for the
// running one, so batches do not overlap on the device). Both routes must write the same D
// pages and leave none dirty; MySQL's FLUSH_WRITE route must be unchanged (its own oracle).
// Fails if the pipeline fsyncs per page, does not batch, or writes the pages one at a time.
func TestBatchedSpaceFlushBeatsSinglePage(t *testing.T) {
	for _, d := range []int{511, 128, 40} {
		t.Run(fmt.Sprint(d), func(t *testing.T) {
			s, srv, target := spaceFlushServer(t, "mariadb-10.11.19", d)
			batched, bst, left := flushTime(t, s, srv, target, func(th *server.Thread) server.ScanStats {
				return maint.FlushSpaceBatched(th, srv.Inst[0], target)
			})
			if left != 0 || bst.PagesFlushed != uint64(d) {
				t.Fatalf("batched: %d pages written, %d left dirty, want %d and 0", bst.PagesFlushed, left, d)
			}
			if srv.Stats.PagesWritten != uint64(d) {
				t.Errorf("batched: server counted %d pages written, want %d", srv.Stats.PagesWritten, d)
			}

			s2, srv2, target2 := spaceFlushServer(t, "8.0.18", d)
			single, sst, left2 := flushTime(t, s2, srv2, target2, func(th *server.Thread) server.ScanStats {
				return maint.FlushDirtyPages(th, srv2.Inst[0], maint.FlushTarget{Space: target2},
					maint.FlushOptions{Write: true, RestartFromTail: true})
			})
			if left2 != 0 || sst.PagesFlushed != uint64(d) {
				t.Fatalf("single-page: %d pages written, %d left dirty, want %d and 0", sst.PagesFlushed, left2, d)
			}

			// Each buf_flush_list_space call takes io_capacity (200) pages and submits its
			// partly filled slot at its end: 511 pages are batches of 128+72, 128+72, 111.
			var wantBatched sim.Time
			nb := 0
			for call := d; call > 0; call -= 200 {
				for rest := min(call, 200); rest > 0; rest -= 128 {
					n := min(rest, 128)
					wantBatched += sfWrite + sfSync + sim.Time((n+sfChannels-1)/sfChannels)*sfWrite
					nb++
				}
			}
			wantBatched += sfSync
			if srv.DblwrBatches() != uint64(nb) {
				t.Errorf("batched: %d doublewrite batches, want %d", srv.DblwrBatches(), nb)
			}
			// The single-page walk's last pass meets the last page still in flight
			// (DB_FAIL) and sleeps 2 ms before the pass that finds nothing.
			wantSingle := sim.Time(d)*(sfWrite+sfSync) + sfWrite + sfSync + 2*sim.Millisecond
			t.Logf("D=%d: batched %v (oracle %v, %d calls), single-page %v (oracle %v): %.1fx",
				d, batched, wantBatched, bst.Restarts+1, single, wantSingle, float64(single)/float64(batched))
			within := func(name string, got, want sim.Time, tol float64) {
				if r := float64(got) / float64(want); math.Abs(r-1) > tol {
					t.Errorf("%s: %v, oracle %v (ratio %.3f, tolerance ±%.0f%%)", name, got, want, r, tol*100)
				}
			}
			within("batched", batched, wantBatched, 0.10)
			within("single-page", single, wantSingle, 0.10)
			if ratio := float64(single) / float64(batched); ratio < 0.8*float64(wantSingle)/float64(wantBatched) {
				t.Errorf("batch effect %.2fx, the oracle's is %.2fx", ratio, float64(wantSingle)/float64(wantBatched))
			}
		})
	}
}

// TestExportRouteByFlavour: FLUSH TABLES ... FOR EXPORT's FlushPages goes through the
// doublewrite pipeline on MariaDB and through the single-page route on MySQL 8.0 (no
// doublewrite batch submitted); both write every page of the space.
func TestExportRouteByFlavour(t *testing.T) {
	for _, c := range []struct {
		ver     string
		batches bool
	}{{"mariadb-10.11.19", true}, {"8.0.18", false}} {
		s, srv, target := spaceFlushServer(t, c.ver, 100)
		_, st, left := flushTime(t, s, srv, target, func(th *server.Thread) server.ScanStats {
			return srv.FlushPages(th, srv.Spaces.Get(target), 0, version.OpExport)
		})
		if left != 0 || st.PagesFlushed != 100 {
			t.Errorf("%s: %d pages written, %d left, want 100 and 0", c.ver, st.PagesFlushed, left)
		}
		if got := srv.DblwrBatches() > 0; got != c.batches {
			t.Errorf("%s: doublewrite pipeline used = %v, want %v", c.ver, got, c.batches)
		}
	}
}
