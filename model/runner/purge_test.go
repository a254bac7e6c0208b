package runner_test

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Purge's mechanism checks (model/server purge.go): a write burst leaves a history list that
// drains after the load stops, its lookups show in the counters, every delete-marked
// secondary entry is removed (a naive oracle: the count the workload marked), no writes
// mean no purge work, and one purge thread drains slower than four.

const purgeYAML = `
name: purge
seed: 7
hardware: profiles/lab-2c.yaml
mysql:
  version: "%s"
  innodb_buffer_pool_size: 512MiB
  innodb_purge_threads: %d
  innodb_purge_batch_size: %d
data:
  - {name: sbtest, tables: 4, rows: 200k}
warm: {fill: 1}
warmup: 0s
duration: 8s
workload:
  - sysbench: {mix: %s, threads: 8, rand: uniform, stop: 3s}
report: {interval: 1s}
`

// purgeRun runs the burst and returns the server after t of simulated time, with the
// series' history_length per second.
func purgeRun(t *testing.T, ver, mix string, threads, batch int, until sim.Time) (*server.Server, func()) {
	t.Helper()
	m, err := runner.Build(load(t, fmt.Sprintf(purgeYAML, ver, threads, batch, mix)), runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	m.Sim.Run(until)
	return m.Server, m.Close
}

func TestPurgeDrainsBurstHistory(t *testing.T) {
	for _, ver := range []string{"mariadb-10.11.19", "8.0.41"} {
		t.Run(ver, func(t *testing.T) {
			srv, done := purgeRun(t, ver, "oltp_read_write", 4, 0, 2500*sim.Millisecond)
			p := srv.Stats.Purge
			t.Logf("during: history %d, %+v", srv.HistoryLength(), p)
			if srv.HistoryLength() == 0 && p.Committed == 0 {
				t.Fatal("no history during the write load")
			}
			if p.Lookups == 0 || p.Removed == 0 || p.Batches == 0 {
				t.Fatalf("purge did nothing during the load: %+v", p)
			}
			// Its lookups are buffer-pool lookups: per transaction, about 2 removals of
			// (k depth + PK depth + 1 undo page), each counted in Hits+Misses.
			per := float64(p.Lookups) / float64(p.Purged)
			if per < 8 || per > 20 {
				t.Errorf("purge lookups per purged transaction %.1f, want 8-20 (2 x (2-3 + 3 + 1) + undo pages)", per)
			}
			done()
			srv, done = purgeRun(t, ver, "oltp_read_write", 4, 0, 8*sim.Second)
			defer done()
			p = srv.Stats.Purge
			if h := srv.HistoryLength(); h != 0 {
				t.Errorf("history list %d, 5 s after the load stopped: want 0", h)
			}
			if p.Purged != p.Committed {
				t.Errorf("purged %d transactions of %d committed", p.Purged, p.Committed)
			}
			if p.Removed != p.DelMarked || p.DelMarked == 0 {
				t.Errorf("removed %d delete-marked entries, the workload marked %d", p.Removed, p.DelMarked)
			}
		})
	}
}

func TestNoWritesNoPurge(t *testing.T) {
	srv, done := purgeRun(t, "mariadb-10.11.19", "oltp_read_only", 4, 0, 3*sim.Second)
	defer done()
	if p := srv.Stats.Purge; p != (server.PurgeStats{}) {
		t.Errorf("a read-only load gave purge work: %+v", p)
	}
	if srv.Stats.Hits == 0 {
		t.Fatal("no load ran")
	}
}

// TestPurgeThreadsDrainTime: a long transaction's read view holds purge back during a
// 4 s write burst; when it commits the history is purged, and with a pool smaller than the
// rows written purge's lookups miss and read, so 4 purge threads drain it in less time than 1.
func TestPurgeThreadsDrainTime(t *testing.T) {
	drain := func(threads int) float64 {
		r := run(t, fmt.Sprintf(drainYAML, threads))
		c := r.Series.Col("history_length")
		peak, at := 0.0, 0.0
		for _, row := range r.Series.Rows {
			if row[c] > peak {
				peak = row[c]
			}
			if row[c] > 0 {
				at = row[0]
			}
		}
		if peak < 1000 {
			t.Fatalf("%d threads: history peaked at %.0f: the read view did not hold purge back", threads, peak)
		}
		return at - 4 // seconds after the view closed until the history list is empty
	}
	one, four := drain(1), drain(4)
	t.Logf("history drained %.0f s after the view closed with 1 purge thread, %.0f s with 4", one, four)
	if !(one > four) {
		t.Errorf("drain with 1 purge thread %.0f s, with 4 %.0f s: want longer with 1", one, four)
	}
}

const drainYAML = `
name: purge-drain
seed: 7
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.41"
  innodb_buffer_pool_size: 64MiB
  innodb_buffer_pool_instances: 1
  innodb_purge_threads: %d
data:
  - {name: sbtest, tables: 4, rows: 1M}
warm: {fill: 1}
warmup: 0s
duration: 10s
workload:
  - sysbench: {mix: oltp_write_only, threads: 32, rand: uniform, stop: 4s}
  - long_transaction: {table: sbtest, rows: 1, start: 0s, hold: 4s}
report: {interval: 1s}
`
