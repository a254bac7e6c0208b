package ddl_test

// Mechanism tests of the copy tools (docs/osc.md): pt-online-schema-change's triggers, its
// adaptive chunk, the final DROP through the policy's path; gh-ost's binlog apply instead of
// triggers. Each runs an ADD INDEX by a tool under a steady open-loop sysbench load and
// checks what the tool did against what the clients did while it ran.

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

const oscYAML = `
name: osc-test
seed: 1
hardware: profiles/16c-128g-nvme.yaml
mysql:
  version: "%s"
  innodb_buffer_pool_size: %s
  log_bin: true
policy: %s
data:
  - {name: sbtest, tables: 1, size: 64MB}
  - {name: filler, tables: 5, size: 1GB}
warm: {fill: 0.97, dirty: 0.2}
warmup: 2s
duration: until_ddl_done
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sbtest, rate: %d}
schedule:
  - {at: 1s, ddl: create_index, table: sbtest, columns: [c], method: %s%s}
`

// oscRun is one tool run under load: its result and the clients' row events on the table
// sampled every 10 ms of virtual time.
type oscRun struct {
	r       ddl.Result
	samples []sample
}

type sample struct {
	at     sim.Time
	events uint64
}

func runOSC(t *testing.T, ver, pool, policy string, rate int, method, opts string) oscRun {
	t.Helper()
	y := fmt.Sprintf(oscYAML, ver, pool, policy, rate, method, opts)
	_, m := build(t, "osc-test.yaml", y)
	if err := m.Start(); err != nil {
		t.Fatal(err)
	}
	srv := m.Server
	tabs := srv.ResolveTables("sbtest", false)
	if len(tabs) != 1 {
		t.Fatalf("sbtest: %d tables", len(tabs))
	}
	tab := tabs[0]
	var o oscRun
	srv.Spawn("probe", "probe", func(th *server.Thread) {
		for {
			o.samples = append(o.samples, sample{th.Now(), srv.BinlogEvents(tab)})
			th.Sleep(10 * sim.Millisecond)
		}
	})
	for m.Sim.Now() < m.End && len(m.DDLs()) == 0 || m.DDLRunning() {
		m.Sim.Run(m.End)
		if m.Sim.Now() >= 600*sim.Second {
			t.Fatal("the tool did not finish within 600 s of virtual time")
		}
	}
	ds := m.DDLs()
	if len(ds) != 1 || ds[0].Unfinished || ds[0].Failed {
		t.Fatalf("want one finished statement, got %+v", ds)
	}
	o.r = ds[0]
	if o.r.OSC == nil {
		t.Fatalf("%s: no tool stats on the result", method)
	}
	t.Logf("%s %s %s rate %d%s: %.2f s, %+v, phases %v", pool, policy, method, rate, opts,
		(o.r.End - o.r.Start).Seconds(), *o.r.OSC, o.r.Phases)
	return o
}

// TestPtOSCTriggersDoubleWrites: while pt-osc copies, every client row change on the table is
// also written to the shadow table by a trigger in the same transaction, so the rows the
// triggers write equal the clients' row changes in that window (about 2x the table's writes);
// with the triggers gone the count is 0.
func TestPtOSCTriggersDoubleWrites(t *testing.T) {
	o := runOSC(t, "8.0.36", "512MiB", "lazy", 1000, "pt-osc", "")
	a, _ := o.phase(t, "create_triggers")
	_, b := o.phase(t, "swap")
	client := o.events(a, b)
	trig := float64(o.r.OSC.TriggerRows)
	if client < 100 {
		t.Fatalf("only %.0f client row changes while the triggers were in place: the test needs load", client)
	}
	if r := trig / client; r < 0.9 || r > 1.1 {
		t.Errorf("trigger rows %.0f vs client row changes %.0f while the triggers were in place (ratio %.2f): want about 1", trig, client, r)
	}
	if o.r.OSC.RowsCopied == 0 || o.r.OSC.Chunks == 0 {
		t.Errorf("copied %d rows in %d chunks", o.r.OSC.RowsCopied, o.r.OSC.Chunks)
	}
}

// TestPtOSCChunkTime: a smaller --chunk-time gives smaller chunks (the adaptive chunk size
// follows rows per second x chunk time) and so more chunks and a longer copy.
func TestPtOSCChunkTime(t *testing.T) {
	short := runOSC(t, "8.0.36", "512MiB", "lazy", 1000, "pt-osc", ", pt_osc: {chunk_time: 50ms}")
	long := runOSC(t, "8.0.36", "512MiB", "lazy", 1000, "pt-osc", ", pt_osc: {chunk_time: 500ms}")
	if short.r.OSC.Chunks <= 2*long.r.OSC.Chunks {
		t.Errorf("chunk_time 50ms: %d chunks, 500ms: %d: want many more with the shorter time", short.r.OSC.Chunks, long.r.OSC.Chunks)
	}
	cs, ce := short.phase(t, "copy")
	ls, le := long.phase(t, "copy")
	if ce-cs <= le-ls {
		t.Errorf("copy took %.2f s at chunk_time 50ms, %.2f s at 500ms: want longer with the shorter time", (ce - cs).Seconds(), (le - ls).Seconds())
	}
}

// TestPtOSCDropOldTable: the old table's DROP goes through the version's and policy's drop
// path: on 8.0.18 (before 8.0.23's lazy drop) under fullscan it walks the pool's lists
// (its time grows with the pool); under indexed it reads the table's own pages only and the
// pool's size does not matter.
func TestPtOSCDropOldTable(t *testing.T) {
	drop := func(pool, policy string) sim.Time {
		o := runOSC(t, "8.0.18", pool, policy, 200, "pt-osc", "")
		a, b := o.phase(t, "drop")
		return b - a
	}
	fsSmall, fsBig := drop("512MiB", "fullscan"), drop("4GiB", "fullscan")
	ixSmall, ixBig := drop("512MiB", "indexed"), drop("4GiB", "indexed")
	if fsBig < 2*fsSmall {
		t.Errorf("fullscan drop: %.4f s on 512MiB, %.4f s on 4GiB: want it to grow with the pool", fsSmall.Seconds(), fsBig.Seconds())
	}
	if ixBig*2 > fsBig {
		t.Errorf("drop on 4GiB: indexed %.4f s vs fullscan %.4f s: want the indexed drop at most half", ixBig.Seconds(), fsBig.Seconds())
	}
	if float64(ixBig) > 1.5*float64(ixSmall) {
		t.Errorf("indexed drop: %.4f s on 512MiB, %.4f s on 4GiB: want it not to grow with the pool", ixSmall.Seconds(), ixBig.Seconds())
	}
}

// TestGhOstBinlogApply: gh-ost installs no triggers; it applies the binlog's row events on
// the table, so the events it applies follow the clients' write rate (about 2x at twice the
// rate over the same copy).
func TestGhOstBinlogApply(t *testing.T) {
	lo := runOSC(t, "8.0.36", "512MiB", "lazy", 400, "gh-ost", "")
	hi := runOSC(t, "8.0.36", "512MiB", "lazy", 800, "gh-ost", "")
	for _, o := range []oscRun{lo, hi} {
		if o.r.OSC.TriggerRows != 0 {
			t.Errorf("gh-ost wrote %d trigger rows", o.r.OSC.TriggerRows)
		}
		if o.r.OSC.EventsApplied == 0 {
			t.Errorf("gh-ost applied no binlog events")
		}
	}
	perS := func(o oscRun) float64 { return float64(o.r.OSC.EventsApplied) / (o.r.End - o.r.Start).Seconds() }
	if r := perS(hi) / perS(lo); r < 1.6 || r > 2.4 {
		t.Errorf("events applied per second: %.0f at rate 400, %.0f at rate 800 (ratio %.2f): want about 2", perS(lo), perS(hi), r)
	}
}

// events is the clients' row events on the table between a and b (linear between samples).
func (o oscRun) events(a, b sim.Time) float64 {
	at := func(x sim.Time) float64 {
		s := o.samples
		for i := 1; i < len(s); i++ {
			if s[i].at >= x {
				f := float64(x-s[i-1].at) / float64(s[i].at-s[i-1].at)
				return float64(s[i-1].events) + f*float64(s[i].events-s[i-1].events)
			}
		}
		return float64(s[len(s)-1].events)
	}
	return at(b) - at(a)
}

func (o oscRun) phase(t *testing.T, name string) (sim.Time, sim.Time) {
	t.Helper()
	for _, p := range o.r.Phases {
		if p.Name == name {
			return p.Start, p.End
		}
	}
	t.Fatalf("no %s phase in %v", name, o.r.Phases)
	return 0, 0
}
