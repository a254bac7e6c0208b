package server_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/sim"
)

// The write costs under test: per page written page_flush_cpu + page_write_cpu + its 16 KiB
// in the doublewrite batch's sequential write at seq_write_kib; per batch seq_write_cpu and
// sync_cpu (the doublewrite write and its fdatasync).
const (
	flushCPU, pageWrite, seqCPU, seqKiB, syncCPU = 2300, 7000, 61000, 33, 40000
	pageKiB                                      = 16
)

var writeCosts = fmt.Sprintf("page_flush_cpu: %dns, page_write_cpu: %dns, seq_write_cpu: %dns, seq_write_kib: %dns, sync_cpu: %dns",
	flushCPU, pageWrite, seqCPU, seqKiB, syncCPU)

// writeLoad runs oltp_write_only for 10 s (8 threads on 8 cores, so nothing queues for a
// core and the foreground does the same work whatever the cleaner costs) over a pool that
// holds the data, at io_capacity io, with the costs given (every other cost 0: the foreground costs only its mutex acquisitions, so the server CPU is the cleaner's and the log's). It
// returns the server's CPU (the cores' busy time), the pages written, the doublewrite
// batches (the sequential writes charged less the redo log's) and the log's writes.
func writeLoad(t *testing.T, io int, costs string) (busy sim.Time, pages, batches, logWrites uint64) {
	t.Helper()
	hw := strings.Replace(freeCostHardware(costs, true), "cores: 1", "cores: 8", 1)
	y := `
name: writecpu
seed: 1
` + hw + `  client_rtt: 100us
mysql: {version: "8.0.34", innodb_buffer_pool_size: 1GiB, innodb_buffer_pool_instances: 1,
  innodb_log_file_size: 4GiB, innodb_io_capacity: ` + fmt.Sprint(io) + `, innodb_io_capacity_max: ` + fmt.Sprint(4*io) + `,
  innodb_max_dirty_pages_pct: 5, innodb_max_dirty_pages_pct_lwm: 1}
data:
  - {name: sbtest, tables: 2, rows: 500k}
duration: 10s
workload:
  - sysbench: {mix: oltp_write_only, threads: 8, rand: uniform}
`
	sc := loadScenario(t, y)
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(m.Close)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	srv := m.Server
	m.Sim.Run(m.End)
	return srv.Cores.Stats().BusyNs, srv.Stats.PagesWritten, srv.Paths.SeqWrites - srv.Redo.Flushes, srv.Redo.Flushes
}

// Doubling io_capacity under a write-heavy load raises the server's CPU by the modelled
// per-page write cost × the extra pages (docs/cpu-model.md §9.5): the extra pages each cost
// their preparation, their data-file write and their share of the doublewrite write, and
// each extra batch its sequential write's call and its sync. Without the write costs the
// same doubling costs ~0 (only the batches' mutex acquisitions). The test fails if flushing
// does not follow io_capacity (Δpages ≤ 0) or if a write path does not charge WriteCPU.
func TestIOCapacityCostsItsWrites(t *testing.T) {
	if testing.Short() {
		t.Skip("four 10 s write-only runs")
	}
	b1, p1, s1, l1 := writeLoad(t, 500, writeCosts)
	b2, p2, s2, l2 := writeLoad(t, 1000, writeCosts)
	n1, q1, _, _ := writeLoad(t, 500, "")
	n2, q2, _, _ := writeLoad(t, 1000, "")
	dPages, dSeq := float64(p2)-float64(p1), float64(s2)-float64(s1)
	// The foreground commits a little more or less as flushing moves (io-fixed pages): its
	// log writes (each a sequential write and a sync; their bytes are < 1 % of it) are
	// modelled as such and not part of the per-page cost.
	dLog := (float64(l2) - float64(l1)) * (seqCPU + syncCPU)
	if dPages < 0.3*float64(p1) {
		t.Fatalf("pages written %d → %d at io_capacity 500 → 1000: flushing does not follow io_capacity", p1, p2)
	}
	perPage := float64(flushCPU + pageWrite + pageKiB*seqKiB)
	want := dPages*perPage + dSeq*(seqCPU+syncCPU)
	// Less what the doubling costs without the write costs (the batches' mutex acquisitions).
	got := float64(b2-b1) - dLog - float64(n2-n1)
	t.Logf("pages %d → %d, doublewrite batches %d → %d, log writes %d → %d; CPU +%.1f ms less the log's %.1f ms and the no-cost run's: +%.1f ms, modelled +%.1f ms (%.2f µs a page with its batch share); without the costs +%.3f ms (pages %d → %d)",
		p1, p2, s1, s2, l1, l2, float64(b2-b1)/1e6, dLog/1e6, got/1e6, want/1e6, want/dPages/1e3, float64(n2-n1)/1e6, q1, q2)
	if s2 <= s1 || s1 < p1/120 || s2 < p2/120 {
		t.Errorf("doublewrite batches %d → %d for %d → %d pages: want more, at least one per 120 (srv_doublewrite_batch_size)", s1, s2, p1, p2)
	}
	if math.Abs(got-want) > 0.01*want {
		t.Errorf("Δ server CPU = %.2f ms, want Δpages × per-page cost + Δbatches × (seq_write_cpu + sync_cpu) = %.2f ms ± 1%%", got/1e6, want/1e6)
	}
	if nd := math.Abs(float64(n2 - n1)); nd > 0.02*want {
		t.Errorf("without the write costs doubling io_capacity moved server CPU by %.2f ms, want ~0 (< 2%% of %.2f ms)", nd/1e6, want/1e6)
	}
}
