package runner_test

// Issue 4 mechanism checks on reduced sizes (bands, not snapshots).

import (
	"fmt"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

const ddlBase = `
name: policy-mech
seed: 42
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: %s
  innodb_buffer_pool_instances: 1
  innodb_log_file_size: 512MiB
  innodb_adaptive_hash_index: %v
policy: %s
data:
  - {name: sb, tables: 4, rows: 1M}
  - {name: big, tables: 1, rows: 300k}
warm: {fill: 0.95}
warmup: 2s
duration: %s
workload:
  - sysbench: {mix: %s, threads: %d, tables: sb, rand: special%s}
%s
report: {interval: 1s}
`

type dd struct {
	pool     string
	ahi      bool
	policy   string
	duration string
	mix      string
	threads  int
	extra    string
	rest     string
}

func (c dd) yaml() string {
	if c.duration == "" {
		c.duration = "4s"
	}
	if c.mix == "" {
		c.mix = "oltp_read_write"
	}
	return fmt.Sprintf(ddlBase, c.pool, c.ahi, c.policy, c.duration, c.mix, c.threads, c.extra, c.rest)
}

const tempConn = "  - temp_table_connections: {threads: 1, temp_rows: 20k}\n"

// Doubling the pool roughly doubles fullscan's temp-tablespace truncation (nodes visited and
// duration) and leaves indexed within 10%.
func TestTempTruncationScalesWithPool(t *testing.T) {
	t.Parallel()
	type m struct{ ms, nodes float64 }
	got := map[string][2]m{}
	for _, pol := range []string{"fullscan", "indexed"} {
		var ms [2]m
		for i, pool := range []string{"256MiB", "512MiB"} {
			r := run(t, dd{pool: pool, ahi: true, policy: pol, duration: "3s", threads: 4, mix: "oltp_read_only", rest: tempConn}.yaml())
			if get(t, r, "temp_truncations") < 5 {
				t.Fatalf("%s %s: only %v truncations", pol, pool, get(t, r, "temp_truncations"))
			}
			ms[i] = m{get(t, r, "temp_truncate_ms_mean"), get(t, r, "temp_truncate_nodes_mean")}
		}
		got[pol] = ms
		t.Logf("%s: 256MiB %.3f ms %.0f nodes; 512MiB %.3f ms %.0f nodes", pol, ms[0].ms, ms[0].nodes, ms[1].ms, ms[1].nodes)
	}
	f := got["fullscan"]
	if r := f[1].nodes / f[0].nodes; r < 1.6 || r > 2.4 {
		t.Errorf("fullscan nodes visited ×%.2f when the pool doubles, want 1.6–2.4", r)
	}
	if r := f[1].ms / f[0].ms; r < 1.6 || r > 2.4 {
		t.Errorf("fullscan truncation duration ×%.2f when the pool doubles, want 1.6–2.4", r)
	}
	x := got["indexed"]
	if r := x[1].ms / x[0].ms; r < 0.9 || r > 1.1 {
		t.Errorf("indexed truncation duration ×%.2f when the pool doubles, want within 10%%", r)
	}
	if r := x[1].nodes / x[0].nodes; r < 0.9 || r > 1.1 {
		t.Errorf("indexed nodes visited ×%.2f when the pool doubles, want within 10%%", r)
	}
	if !(x[0].ms*5 < f[0].ms) {
		t.Errorf("indexed truncation %.3f ms not much cheaper than fullscan %.3f ms", x[0].ms, f[0].ms)
	}
}

// DROP TABLE's AHI cleanup (btr_drop_ahi_for_table) loops while the table has hashed pages:
// with the AHI off, or with the AHI on but the table never searched, lazy DROP does no scan and
// takes almost no time; a searched table's hashed pages make it walk the LRU and drop their
// entries. fullscan still walks the flush list without the AHI.
func TestDropAHIWalks(t *testing.T) {
	t.Parallel()
	drop := "schedule:\n  - {at: 1s, ddl: drop_table, table: big}\n"
	searchBig := "  - sysbench: {mix: oltp_point_select, threads: 4, tables: big, rand: uniform}\n"
	type out struct {
		secs       float64
		nodes, ahi uint64
	}
	res := map[string]out{}
	for _, c := range []struct {
		name, pol string
		ahi       bool
		rest      string
	}{
		{"lazy/ahi=off", "lazy", false, searchBig + drop},
		{"fullscan/ahi=off", "fullscan", false, searchBig + drop},
		{"lazy/ahi=on/cold", "lazy", true, drop},
		{"lazy/ahi=on/searched", "lazy", true, searchBig + drop},
	} {
		r := run(t, dd{pool: "512MiB", ahi: c.ahi, policy: c.pol, threads: 8, duration: "3s", rest: c.rest}.yaml())
		d := ddlOf(t, r, "drop_table")
		res[c.name] = out{phase(d, "drop"), d.NodesVisited, d.AHIPagesDropped}
		t.Logf("%s: drop %.6f s, %d nodes, %d AHI pages dropped", c.name, phase(d, "drop"), d.NodesVisited, d.AHIPagesDropped)
	}
	for _, k := range []string{"lazy/ahi=off", "lazy/ahi=on/cold"} {
		if l := res[k]; l.nodes != 0 || l.secs > 1e-3 {
			t.Errorf("%s: drop took %.6f s and visited %d nodes, want ~0 (no hashed page, no walk)", k, l.secs, l.nodes)
		}
	}
	if f := res["fullscan/ahi=off"]; f.nodes < 100 {
		t.Errorf("fullscan without AHI visited only %d nodes (the flush-list walk is missing)", f.nodes)
	}
	// 512 MiB = 32768 frames: a round walks the LRU to its head when fewer than 1024 of the
	// table's pages are hashed.
	if l := res["lazy/ahi=on/searched"]; l.nodes < 20000 || l.ahi == 0 {
		t.Errorf("lazy with a searched table: %d nodes, %d AHI pages dropped (btr_drop_ahi_for_table's LRU walk is missing)", l.nodes, l.ahi)
	}
}

const createBig = "schedule:\n  - {at: 1s, ddl: create_index, table: big, columns: [c]}\n"

// restart: false makes fullscan's CREATE INDEX observer flush visit far fewer nodes.
func TestFullscanRestartFromTail(t *testing.T) {
	t.Parallel()
	var nodes, secs [2]float64
	for i, pol := range []string{"fullscan", "{name: fullscan, restart: false}"} {
		r := run(t, dd{pool: "512MiB", ahi: true, policy: pol, threads: 8, duration: "30s",
			mix: "oltp_write_only", extra: ", rate: 1500", rest: createBig}.yaml())
		d := ddlOf(t, r, "create_index")
		nodes[i], secs[i] = float64(d.NodesVisited), phase(d, "observer_flush")
		t.Logf("%s: observer flush %.3f s, %d nodes, %d flushed, %d restarts", pol, secs[i], d.NodesVisited, d.PagesFlushed, d.Restarts)
	}
	if !(nodes[1]*5 < nodes[0]) {
		t.Errorf("restart=false visited %.0f nodes vs restart=true %.0f: want far fewer (<1/5)", nodes[1], nodes[0])
	}
	if !(secs[1] < secs[0]) {
		t.Errorf("restart=false observer flush %.3f s not shorter than restart=true %.3f s", secs[1], secs[0])
	}
}

// Doubling the write rate lengthens the flush list and fullscan's CREATE INDEX observer flush.
func TestWriteRateLengthensObserverFlush(t *testing.T) {
	t.Parallel()
	var dirty, flush, nodes [2]float64
	for i, rate := range []int{800, 1600} {
		r := run(t, dd{pool: "512MiB", ahi: true, policy: "fullscan", threads: 16, duration: "30s",
			mix: "oltp_write_only", extra: fmt.Sprintf(", rate: %d", rate), rest: createBig}.yaml())
		d := ddlOf(t, r, "create_index")
		dirty[i], flush[i], nodes[i] = colMean(t, r, "dirty_pages"), phase(d, "observer_flush"), float64(d.NodesVisited)
		t.Logf("rate %d: dirty %.0f, observer flush %.3f s, %d nodes, tps %.0f", rate, dirty[i], flush[i], d.NodesVisited, get(t, r, "tps_mean"))
	}
	if !(dirty[1] > 1.15*dirty[0]) {
		t.Errorf("flush list: %.0f → %.0f when the write rate doubles, want longer (>1.15×)", dirty[0], dirty[1])
	}
	if !(flush[1] > 1.2*flush[0]) {
		t.Errorf("observer flush: %.3f → %.3f s when the write rate doubles, want longer (>1.2×)", flush[0], flush[1])
	}
	if !(nodes[1] > 1.2*nodes[0]) {
		t.Errorf("nodes visited: %.0f → %.0f when the write rate doubles, want more (>1.2×)", nodes[0], nodes[1])
	}
}

// Indexed CREATE INDEX is much faster than fullscan under load.
func TestIndexedCreateIndexFaster(t *testing.T) {
	t.Parallel()
	var dur [2]float64
	for i, pol := range []string{"fullscan", "indexed"} {
		r := run(t, dd{pool: "512MiB", ahi: true, policy: pol, threads: 16, duration: "30s",
			mix: "oltp_write_only", extra: ", rate: 1500", rest: createBig}.yaml())
		d := ddlOf(t, r, "create_index")
		dur[i] = d.DurationS
		t.Logf("%s: create index %.3f s (observer flush %.3f s, %d nodes)", pol, d.DurationS, phase(d, "observer_flush"), d.NodesVisited)
	}
	if !(dur[1]*2 < dur[0]) {
		t.Errorf("indexed CREATE INDEX %.3f s vs fullscan %.3f s: want at least 2× faster", dur[1], dur[0])
	}
}

// A FLUSH_WRITE pass writes each target page once: fullscan (restart from the tail) must
// flush exactly as many pages as the restart-free walk and indexed do for the same CREATE
// INDEX, since the observer's page set is the same.
func TestObserverFlushWritesEachPageOnce(t *testing.T) {
	t.Parallel()
	var flushed [3]uint64
	for i, pol := range []string{"fullscan", "{name: fullscan, restart: false}", "indexed"} {
		r := run(t, dd{pool: "512MiB", ahi: true, policy: pol, threads: 8, duration: "30s",
			mix: "oltp_write_only", extra: ", rate: 1500", rest: createBig}.yaml())
		flushed[i] = ddlOf(t, r, "create_index").PagesFlushed
	}
	t.Logf("pages flushed: fullscan %d, restart=false %d, indexed %d", flushed[0], flushed[1], flushed[2])
	if lo, hi := float64(flushed[2])*0.9, float64(flushed[2])*1.1; float64(flushed[0]) < lo || float64(flushed[0]) > hi {
		t.Errorf("fullscan flushed %d pages, indexed %d: a restart-from-tail walk writes pages twice", flushed[0], flushed[2])
	}
}

// A DDL still running when the run ends is reported, marked unfinished, with the run's end as
// its end (a lower bound), never dropped or passed off as complete.
func TestUnfinishedDDLIsReported(t *testing.T) {
	t.Parallel()
	r := run(t, dd{pool: "512MiB", ahi: true, policy: "fullscan", threads: 8, duration: "2s",
		mix: "oltp_write_only", extra: ", rate: 1500", rest: createBig}.yaml())
	if len(r.DDL) != 1 {
		t.Fatalf("%d DDL results, want the one unfinished CREATE INDEX", len(r.DDL))
	}
	d := r.DDL[0]
	if !d.Unfinished || d.Failed {
		t.Fatalf("unfinished=%v failed=%v, want an unfinished statement", d.Unfinished, d.Failed)
	}
	if d.StartS != 1 || d.EndS != 2 || d.DurationS != 1 {
		t.Errorf("start %.3f end %.3f duration %.3f, want 1, 2 (the end of the run), 1", d.StartS, d.EndS, d.DurationS)
	}
	// The same statement given time to finish is not marked.
	r = run(t, dd{pool: "512MiB", ahi: true, policy: "indexed", threads: 8, duration: "30s",
		mix: "oltp_write_only", extra: ", rate: 1500", rest: createBig}.yaml())
	if d := ddlOf(t, r, "create_index"); d.Unfinished {
		t.Errorf("a finished CREATE INDEX is marked unfinished")
	}
}

// The mutex report says who held the LRU mutex: under fullscan the temp-table cleanup threads
// hold it for long stretches (whole-LRU walks), under indexed only briefly; and the client
// threads' wait for it follows.
func TestMutexReportByHolder(t *testing.T) {
	t.Parallel()
	row := func(rows []metrics.MutexRow, mutex, thread string) metrics.MutexRow {
		for _, r := range rows {
			if r.Mutex == mutex && r.Thread == thread {
				return r
			}
		}
		return metrics.MutexRow{}
	}
	var temp, fg [2]metrics.MutexRow
	for i, pol := range []string{"fullscan", "indexed"} {
		r := run(t, dd{pool: "512MiB", ahi: true, policy: pol, duration: "3s", threads: 8, mix: "oltp_read_only", rest: tempConn}.yaml())
		temp[i], fg[i] = row(r.Mutexes, "LRU_list_mutex", "temp"), row(r.Mutexes, "LRU_list_mutex", "fg")
		t.Logf("%s: temp holds %.4f s (max %.3f ms), fg waits %.4f s", pol, temp[i].HoldS, temp[i].HoldMaxMs, fg[i].WaitS)
	}
	if temp[0].Acquisitions == 0 || fg[0].Acquisitions == 0 {
		t.Fatalf("no LRU_list_mutex rows for temp/fg threads: %+v %+v", temp[0], fg[0])
	}
	if !(temp[0].HoldMaxMs > 10*temp[1].HoldMaxMs && temp[0].HoldS > 10*temp[1].HoldS) {
		t.Errorf("fullscan temp hold %.4f s (max %.3f ms) not far above indexed %.4f s (max %.3f ms)",
			temp[0].HoldS, temp[0].HoldMaxMs, temp[1].HoldS, temp[1].HoldMaxMs)
	}
	if !(fg[0].WaitS > 3*fg[1].WaitS) {
		t.Errorf("client threads waited %.4f s under fullscan vs %.4f s under indexed: want far more", fg[0].WaitS, fg[1].WaitS)
	}
}
