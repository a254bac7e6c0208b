package ddl_test

// Mechanism tests of the copy tools' throttles (docs/osc.md §3.4, §4.4): pt-osc's max_load
// pauses and critical_load abort on Threads_running, gh-ost's heartbeat-lag throttle.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// burstYAML: an ADD INDEX by a tool at 1 s under a steady open-loop load on its table (its
// rate a parameter), with
// burstLoad, a closed-loop point-select burst of 40 threads on another table from 2 s to
// 2.5 s: Threads_running rises from a few to about 40-56 while it lasts.
const burstYAML = `
name: osc-throttle
seed: 1
hardware: %s
mysql: {version: "8.0.36", innodb_buffer_pool_size: 256MiB, log_bin: true}
policy: lazy
data:
  - {name: sbtest, tables: 1, size: %s}
  - {name: filler, tables: 1, size: 512MB}
warm: {fill: 0.97, dirty: 0.2}
warmup: 2s
duration: until_ddl_done
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sbtest, rate: %d}
%s
schedule:
  - {at: 1s, ddl: create_index, table: sbtest, columns: [c], method: %s}
`

const burstLoad = "  - sysbench: {mix: oltp_point_select, threads: 40, tables: filler, start: 2s, stop: 2500ms}"

// gauged is a tool run with Threads_running sampled every 5 ms.
type gauged struct {
	r       ddl.Result
	rows    int64 // the table's rows
	at      []sim.Time
	running []int64
}

func runGauged(t *testing.T, hw, size string, rate int, load, method string) gauged {
	t.Helper()
	_, m := build(t, "osc-throttle.yaml", fmt.Sprintf(burstYAML, hw, size, rate, load, method))
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	srv := m.Server
	var g gauged
	g.rows = srv.ResolveTables("sbtest", false)[0].Rows
	srv.Spawn("probe", "probe", func(th *server.Thread) {
		for {
			g.at = append(g.at, th.Now())
			g.running = append(g.running, srv.Stats.ThreadsRunning)
			th.Sleep(5 * sim.Millisecond)
		}
	})
	for m.Sim.Now() < m.End && len(m.DDLs()) == 0 || m.DDLRunning() {
		m.Sim.Run(m.End)
		if m.Sim.Now() >= 600*sim.Second {
			t.Fatal("the tool did not finish within 600 s of virtual time")
		}
	}
	ds := m.DDLs()
	if len(ds) != 1 || ds[0].Unfinished || ds[0].OSC == nil {
		t.Fatalf("want one finished tool run, got %+v", ds)
	}
	g.r = ds[0]
	t.Logf("%s: %.2f s, failed %v %q, %d chunks, throttled %.2f s in %d pauses, phases %v", method,
		(g.r.End - g.r.Start).Seconds(), g.r.Failed, g.r.Reason, g.r.OSC.Chunks, g.r.OSC.Throttled.Seconds(), len(g.r.OSC.Pauses), g.r.Phases)
	return g
}

// peak is the highest sampled Threads_running in [a, b].
func (g gauged) peak(a, b sim.Time) int64 {
	p := int64(-1)
	for i, at := range g.at {
		if at >= a && at <= b {
			p = max(p, g.running[i])
		}
	}
	return p
}

// noChunkIn fails when a chunk's copy began inside one of the run's pauses.
func noChunkIn(t *testing.T, g gauged) {
	t.Helper()
	for _, c := range g.r.OSC.ChunkStarts {
		for _, p := range g.r.OSC.Pauses {
			if c > p.From && c < p.To {
				t.Errorf("a chunk began at %.3f s inside the pause %.3f-%.3f s", c.Seconds(), p.From.Seconds(), p.To.Seconds())
			}
		}
	}
}

const nvme = "profiles/16c-128g-nvme.yaml"

// TestPtOSCMaxLoadPauses: with the burst above max_load 25 (critical_load out of reach),
// pt-osc pauses after a chunk while Threads_running >= 25 and copies nothing until a check
// finds it below; the run is longer than the same run with max_load out of reach by about
// the time paused. Every pause starts when the sampled gauge is at or above 25, and the
// pauses lie in the burst (plus one check_interval).
func TestPtOSCMaxLoadPauses(t *testing.T) {
	free := runGauged(t, nvme, "64MB", 1000, burstLoad, "pt-osc, pt_osc: {max_load: 1000, critical_load: 2000}")
	held := runGauged(t, nvme, "64MB", 1000, burstLoad, "pt-osc, pt_osc: {max_load: 25, critical_load: 2000}")
	if free.r.Failed || held.r.Failed {
		t.Fatalf("failed: %q %q", free.r.Reason, held.r.Reason)
	}
	if len(free.r.OSC.Pauses) != 0 {
		t.Errorf("max_load 1000: %d pauses, want none", len(free.r.OSC.Pauses))
	}
	st := held.r.OSC
	if st.Throttled < 400*sim.Millisecond {
		t.Fatalf("max_load 25 under a 0.5 s burst of 40 threads: paused %.2f s, want at least 0.4 s", st.Throttled.Seconds())
	}
	grow := (held.r.End - held.r.Start) - (free.r.End - free.r.Start)
	if grow < st.Throttled/2 {
		t.Errorf("the run grew by %.2f s with %.2f s paused: want at least half the pause", grow.Seconds(), st.Throttled.Seconds())
	}
	burstFrom, burstTo := held.r.Start+sim.Second, held.r.Start+1500*sim.Millisecond
	for _, p := range st.Pauses {
		if pk := held.peak(p.From-5*sim.Millisecond, p.From+5*sim.Millisecond); pk < 25 {
			t.Errorf("pause at %.3f s: Threads_running sampled %d around it, below max_load 25", p.From.Seconds(), pk)
		}
		if p.From < burstFrom || p.To > burstTo+sim.Second+100*sim.Millisecond {
			t.Errorf("pause %.3f-%.3f s outside the burst %.3f-%.3f s (+1 s check_interval)", p.From.Seconds(), p.To.Seconds(), burstFrom.Seconds(), burstTo.Seconds())
		}
	}
	noChunkIn(t, held)
}

// TestPtOSCCriticalLoadAborts: at critical_load 30 (checked before max_load), the burst's
// running threads make pt-osc die after the chunk that saw it: the statement is reported failed
// with the tool's message, its cleanup phase drops the triggers and the new table, and it
// ends with part of the table copied.
func TestPtOSCCriticalLoadAborts(t *testing.T) {
	died := runGauged(t, nvme, "64MB", 1000, burstLoad, "pt-osc, pt_osc: {critical_load: 30}")
	if !died.r.Failed || !strings.Contains(died.r.Reason, "exceeds its critical threshold 30") {
		t.Fatalf("want the run failed by critical_load, got failed=%v %q", died.r.Failed, died.r.Reason)
	}
	names := ""
	for _, p := range died.r.Phases {
		names += p.Name + " "
	}
	if !strings.Contains(names, "cleanup") || strings.Contains(names, "swap") || strings.Contains(names, "analyze") {
		t.Errorf("phases %q: want a cleanup and no analyze or swap", names)
	}
	if died.r.End > died.r.Start+2*sim.Second {
		t.Errorf("aborted at %.2f s after the start: want within the burst's first second", (died.r.End - died.r.Start).Seconds())
	}
	if died.r.OSC.RowsCopied >= died.rows {
		t.Errorf("copied %d of %d rows before dying: want the copy cut short", died.r.OSC.RowsCopied, died.rows)
	}
}

// slowSync: the redo log's device takes 150 ms per fsync, so every commit (the heartbeat's
// included: the redo's sync, then the binlog's under LOCK_log) takes 300 ms and more.
const slowSync = "{base: 16c-128g-nvme, storage: {log: {sync: {dist: constant, value: 150ms}}}}"

// TestGhOstLagThrottles (a light load, 5 transactions a second, that the applier keeps up
// with at ~300 ms a commit): gh-ost's heartbeat is a transaction of its own every 100 ms; on a
// server whose commits take ~300 ms the lag it reads back (the time since the last committed
// heartbeat was issued) swings between ~0.4 and ~0.9 s. Under max_lag_millis 700 the write
// loop is throttled part of the time and begins no chunk while throttled, and the copy takes
// longer than under the default 1500 ms, which never throttles; on the fast device 700 ms
// never throttles either.
func TestGhOstLagThrottles(t *testing.T) {
	const small = "4MB"
	slow := runGauged(t, slowSync, small, 5, "", "gh-ost, gh_ost: {max_lag_millis: 700ms}")
	dflt := runGauged(t, slowSync, small, 5, "", "gh-ost")
	fast := runGauged(t, nvme, small, 5, "", "gh-ost, gh_ost: {max_lag_millis: 700ms}")
	if slow.r.Failed || dflt.r.Failed || fast.r.Failed {
		t.Fatalf("failed: %q %q %q", slow.r.Reason, dflt.r.Reason, fast.r.Reason)
	}
	if slow.r.OSC.Throttled < 200*sim.Millisecond {
		t.Fatalf("max_lag_millis 700 with ~300 ms commits: throttled %.2f s, want some", slow.r.OSC.Throttled.Seconds())
	}
	if n := len(dflt.r.OSC.Pauses) + len(fast.r.OSC.Pauses); n != 0 {
		t.Errorf("default max_lag_millis on the slow device: %d pauses, 700 ms on the fast one: %d; want none",
			len(dflt.r.OSC.Pauses), len(fast.r.OSC.Pauses))
	}
	copyTime := func(g gauged) sim.Time { return g.r.OSC.CopyTime }
	if grow := copyTime(slow) - copyTime(dflt); grow < slow.r.OSC.Throttled/2 {
		t.Errorf("copy %.2f s throttled vs %.2f s not (throttled %.2f s): want it longer by at least half the throttled time",
			copyTime(slow).Seconds(), copyTime(dflt).Seconds(), slow.r.OSC.Throttled.Seconds())
	}
	noChunkIn(t, slow)
}

// TestGhOstLoadThrottleAndAbort: gh-ost has no load limits by default; max_load 25 throttles
// its write loop during the burst (checked once a second), critical_load 30 aborts the
// migration with gh-ost's message and leaves the ghost table (no cut-over, no drop).
func TestGhOstLoadThrottleAndAbort(t *testing.T) {
	free := runGauged(t, nvme, "64MB", 1000, burstLoad, "gh-ost")
	held := runGauged(t, nvme, "64MB", 1000, burstLoad, "gh-ost, gh_ost: {max_load: 25}")
	died := runGauged(t, nvme, "64MB", 1000, burstLoad, "gh-ost, gh_ost: {critical_load: 30}")
	if free.r.Failed || len(free.r.OSC.Pauses) != 0 {
		t.Errorf("no limits: failed %v, %d pauses; want neither", free.r.Failed, len(free.r.OSC.Pauses))
	}
	if held.r.Failed || held.r.OSC.Throttled < 200*sim.Millisecond {
		t.Errorf("max_load 25: failed %v, throttled %.2f s; want a pause in the burst", held.r.Failed, held.r.OSC.Throttled.Seconds())
	}
	noChunkIn(t, held)
	if !died.r.Failed || !strings.Contains(died.r.Reason, "critical-load met: Threads_running=") {
		t.Fatalf("critical_load 30: failed %v %q; want the migration aborted", died.r.Failed, died.r.Reason)
	}
	for _, p := range died.r.Phases {
		if p.Name == "cut_over" || p.Name == "drop" {
			t.Errorf("aborted migration has a %s phase", p.Name)
		}
	}
}

// TestGhOstCriticalLoadInterval: with critical_load_interval, gh-ost aborts only if a second
// reading that much later still meets critical_load: 200 ms into the 0.5 s burst it does
// ("met again"), 2 s later the burst is over and the migration goes on to its cut-over.
func TestGhOstCriticalLoadInterval(t *testing.T) {
	again := runGauged(t, nvme, "64MB", 1000, burstLoad, "gh-ost, gh_ost: {critical_load: 30, critical_load_interval: 200ms}")
	if !again.r.Failed || !strings.Contains(again.r.Reason, "critical-load met again after 200 millis") {
		t.Errorf("interval 200ms: failed %v %q; want the second reading to abort", again.r.Failed, again.r.Reason)
	}
	passed := runGauged(t, nvme, "64MB", 1000, burstLoad, "gh-ost, gh_ost: {critical_load: 30, critical_load_interval: 2s}")
	if passed.r.Failed {
		t.Errorf("interval 2s (after the burst): failed %q; want the migration to finish", passed.r.Reason)
	}
}
