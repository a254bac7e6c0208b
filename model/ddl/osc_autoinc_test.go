package ddl_test

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// autoincYAML: pt-osc on MariaDB 10.11 under an open-loop sysbench load on the table (so the
// clients' writes arrive whatever the lock does), with innodb_autoinc_lock_mode given.
const autoincYAML = `
name: osc-autoinc
seed: 1
hardware: profiles/16c-128g-nvme.yaml
mysql:
  version: "mariadb-10.11.19"
  innodb_buffer_pool_size: 512MiB
  innodb_autoinc_lock_mode: %d
data:
  - {name: sbtest, tables: 1, size: 128MB}
warmup: 2s
duration: until_ddl_done
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sbtest, rate: 100}
schedule:
  - {at: 1s, ddl: create_index, table: sbtest, columns: [c], method: pt-osc, pt_osc: {chunk_time: %s}}
`

type autoincRun struct {
	locks      int64 // trigger REPLACEs that took the lock
	waits      uint64
	meanWaitMs float64
	copyS      float64
}

func runAutoInc(t *testing.T, mode int, chunk string) autoincRun {
	t.Helper()
	_, m := build(t, "osc-autoinc.yaml", fmt.Sprintf(autoincYAML, mode, chunk))
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	for m.Sim.Now() < m.End && len(m.DDLs()) == 0 || m.DDLRunning() {
		m.Sim.Run(m.End)
	}
	ds := m.DDLs()
	if len(ds) != 1 || ds[0].Failed || ds[0].OSC == nil {
		t.Fatalf("want one finished pt-osc run, got %+v", ds)
	}
	st := m.Server.Stats.AutoInc
	r := autoincRun{locks: ds[0].OSC.TriggerAutoIncLocks, waits: st.Waits, copyS: ds[0].OSC.CopyTime.Seconds()}
	if st.Waits > 0 {
		r.meanWaitMs = float64(st.WaitNs) / float64(st.Waits) / 1e6
	}
	t.Logf("mode %d chunk %s: %+v (grants %d)", mode, chunk, r, st.Grants)
	return r
}

// TestPtOSCAutoIncLock: under innodb_autoinc_lock_mode 1 (MariaDB's and MySQL 5.7's default)
// the copy's INSERT ... SELECT holds the shadow's AUTO-INC table lock for each chunk, and the
// triggers' REPLACEs that insert wait for it: a client waits about as long as a chunk lasts,
// so a shorter --chunk-time shortens the waits. Under mode 2 (MySQL 8.0's default) nothing
// takes the table lock. Mode 0 takes it for every inserting REPLACE, so at least as often as
// mode 1.
func TestPtOSCAutoIncLock(t *testing.T) {
	m2 := runAutoInc(t, 2, "500ms")
	if m2.locks != 0 || m2.waits != 0 {
		t.Errorf("mode 2: %d trigger locks, %d waits: want none", m2.locks, m2.waits)
	}
	long := runAutoInc(t, 1, "500ms")
	short := runAutoInc(t, 1, "100ms")
	for _, r := range []autoincRun{long, short} {
		if r.locks == 0 || r.waits == 0 {
			t.Fatalf("mode 1: %d trigger locks, %d waits: want the triggers to wait for the copy", r.locks, r.waits)
		}
	}
	if long.meanWaitMs < 2.5*short.meanWaitMs {
		t.Errorf("mode 1: mean AUTO-INC wait %.1f ms at chunk_time 500ms, %.1f ms at 100ms: want the longer chunk to hold clients much longer",
			long.meanWaitMs, short.meanWaitMs)
	}
	if long.meanWaitMs < 50 || long.meanWaitMs > 500 {
		t.Errorf("mode 1, chunk_time 500ms: mean wait %.1f ms: want a sizeable part of a chunk", long.meanWaitMs)
	}
	m0 := runAutoInc(t, 0, "500ms")
	if m0.locks < long.locks/2 {
		t.Errorf("mode 0: %d trigger locks vs mode 1's %d: want at least as many (every inserting REPLACE)", m0.locks, long.locks)
	}
}

// TestAutoIncLockFIFO: the AUTO-INC table lock is granted in request order, each waiter when
// the previous holder's statement ends (a literal queue: holder, then the waiters in turn).
func TestAutoIncLockFIFO(t *testing.T) {
	_, m := build(t, "autoinc-fifo.yaml", fmt.Sprintf(autoincYAML, 1, "500ms"))
	srv := m.Server
	tab := srv.ResolveTables("sbtest", false)[0]
	var order []string
	hold := func(name string, start, d int64) {
		srv.Spawn(name, "test", func(th *server.Thread) {
			th.Sleep(sim.Time(start) * sim.Millisecond)
			th.LockAutoInc(tab)
			order = append(order, fmt.Sprintf("%s@%d", name, th.Now()/sim.Millisecond))
			th.Sleep(sim.Time(d) * sim.Millisecond)
			th.UnlockAutoInc(tab)
		})
	}
	hold("a", 0, 100)
	hold("b", 10, 50)
	hold("c", 20, 10)
	m.Sim.Run(sim.Second)
	want := "[a@0 b@100 c@150]"
	if got := fmt.Sprint(order); got != want {
		t.Errorf("grants %s, want %s", got, want)
	}
	if st := srv.Stats.AutoInc; st.Waits != 2 || st.Grants != 3 {
		t.Errorf("stats %+v: want 3 grants, 2 waits", st)
	}
}
