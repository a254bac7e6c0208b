package server_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// zeroCostCosts are every hardware cost a profile must give, all 0: a test's scenario sets
// the ones under test with freeCostHardware and leaves the rest free on purpose (a cost left
// out of a profile is an error).
var zeroCostCosts = []string{"page_read_cpu", "page_write_cpu", "context_switch", "page_hit", "page_miss",
	"list_node", "row", "statement", "commit", "mutex_handoff", "mutex_spin", "ahi_fold", "ahi_node",
	"block_scan", "page_free", "page_flush_cpu", "sort_row", "merge_row", "load_row", "connect",
	"temp_table_row", "page_cache_copy", "rebuild_row"}

// freeCostHardware is a one-core hardware block with constant device latencies (data, and log
// when log is set) and every cost 0 except set ("name: value" pairs, comma-separated), so the
// CPU a thread is charged is exactly what the costs under test say.
func freeCostHardware(set string, log bool) string {
	given := map[string]bool{}
	var costs []string
	for _, kv := range strings.Split(set, ",") {
		if kv = strings.TrimSpace(kv); kv != "" {
			given[strings.TrimSpace(strings.SplitN(kv, ":", 2)[0])] = true
			costs = append(costs, kv)
		}
	}
	for _, c := range zeroCostCosts {
		if !given[c] {
			costs = append(costs, c+": 0")
		}
	}
	dev := "{channels: 4, read: {dist: constant, value: 50us}, write: {dist: constant, value: 40us}, sync: {dist: constant, value: 30us}}"
	h := "hardware:\n  name: t\n  cores: 1\n  memory: 4GiB\n  storage:\n    data: " + dev + "\n"
	if log {
		h += "    log: {channels: 1, read: {dist: constant, value: 50us}, write: {dist: constant, value: 40us}, sync: {dist: constant, value: 30us}}\n"
	}
	return h + "  costs: {" + strings.Join(costs, ", ") + "}\n"
}

// ioCPUScenario: one core, constant device latencies, every cost 0 except the three I/O costs
// under test (all 0 in the baseline), so the CPU a thread is charged for its I/O is exactly what
// the I/O costs say.
func ioCPUScenario(t *testing.T, read, write, cs string) string {
	return `
name: iocpu
seed: 1
` + freeCostHardware(fmt.Sprintf("page_read_cpu: %s, page_write_cpu: %s, context_switch: %s", read, write, cs), false) +
		`mysql: {version: "8.0.18", innodb_buffer_pool_size: 64MiB, innodb_buffer_pool_instances: 1, innodb_doublewrite: on}
policy: fullscan
data:
  - {name: sb, tables: 1, rows: 100k}
warm: {fill: 0}
duration: 1s
`
}

// ioRun runs body on a fresh thread of a server built from y and returns the CPU the thread
// was charged and the sleeps on I/O counted.
func ioRun(t *testing.T, y string, body func(th *server.Thread, srv *server.Server)) (sim.Time, uint64) {
	t.Helper()
	s, srv := warmServer(t, loadScenario(t, y), "fullscan")
	var charged sim.Time
	before := srv.Stats.IOSleeps
	srv.Spawn("probe", "fg", func(th *server.Thread) {
		body(th, srv)
		th.Pay()
		charged = th.Charged()
	})
	s.Run(sim.Second)
	return charged, srv.Stats.IOSleeps - before
}

// page_read_cpu is charged once per page read, page_write_cpu once per write operation, and
// context_switch once per sleep on I/O — and nothing else changes with them.
func TestIOCPUChargedPerOperationAndSleep(t *testing.T) {
	const rd, wr, cs = 7 * sim.Microsecond, 11 * sim.Microsecond, 13 * sim.Microsecond
	zero := ioCPUScenario(t, "0", "0", "0")
	costed := ioCPUScenario(t, "7us", "11us", "13us")
	for _, tc := range []struct {
		name          string
		body          func(th *server.Thread, srv *server.Server)
		sleeps        uint64
		reads, writes int64
	}{
		{"50 page misses", func(th *server.Thread, srv *server.Server) {
			for i := int64(0); i < 50; i++ {
				th.Read(srv.Tables[0].Primary.Leaf(i * 3))
			}
		}, 50, 50, 0},
		{"50 hits after one miss", func(th *server.Thread, srv *server.Server) {
			for i := 0; i < 51; i++ {
				th.Read(srv.Tables[0].Primary.Leaf(0))
			}
		}, 1, 1, 0},
		{"synchronous single-page flush, doublewrite on", func(th *server.Thread, srv *server.Server) {
			th.SyncWritePage() // doublewrite write + fsync, data write + fsync
		}, 4, 0, 2},
		{"a DDL walk's single-page flush", func(th *server.Thread, srv *server.Server) {
			pid := srv.Tables[0].Primary.Leaf(7)
			th.Write(pid)
			in := srv.InstanceOf(pid)
			f := in.BP.Lookup(bufpool.PageID(pid))
			in.BP.SetIOFix(f, bufpool.IOWrite)
			th.FlushPageAsync(in, f) // doublewrite slot write + fsync; the data write async
			th.WaitPendingWrites()   // one more sleep until it completes
		}, 1 + 2 + 1, 1, 2},
	} {
		c0, s0 := ioRun(t, zero, tc.body)
		c1, s1 := ioRun(t, costed, tc.body)
		if s0 != tc.sleeps || s1 != tc.sleeps {
			t.Errorf("%s: %d / %d sleeps on I/O, want %d", tc.name, s0, s1, tc.sleeps)
		}
		want := sim.Time(tc.reads)*rd + sim.Time(tc.writes)*wr + sim.Time(tc.sleeps)*cs
		if got := c1 - c0; got != want {
			t.Errorf("%s: I/O costs added %v of CPU, want %d reads × %v + %d writes × %v + %d sleeps × %v = %v",
				tc.name, got, tc.reads, rd, tc.writes, wr, tc.sleeps, cs, want)
		}
	}
}
