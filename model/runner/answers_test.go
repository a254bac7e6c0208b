package runner_test

import (
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// loadShipped loads a shipped scenario with overrides.
func loadShipped(t testing.TB, path string, sets ...string) *config.Scenario {
	t.Helper()
	sc, err := config.LoadWith("../../scenarios/"+path, sets, nil)
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func runShipped(t testing.TB, path string, sets ...string) *runner.Result {
	t.Helper()
	r, err := runner.Run(loadShipped(t, path, sets...), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// TestMDLPileUp: scenarios/dba/mdl-pileup.yaml's clients queue behind the ALTER's exclusive
// metadata lock request only while the idle transaction is open: the ALTER waits until the
// transaction commits (start 2 s + hold), every client is queued and tps is 0 meanwhile, and
// both end with the commit; a transaction that commits before the ALTER starts causes none.
func TestMDLPileUp(t *testing.T) {
	const alterAt, txnStart, clients = 5.0, 2.0, 8
	for _, hold := range []float64{8, 15} {
		r := runShipped(t, "dba/mdl-pileup.yaml", "workload[1].long_transaction.hold="+config.Duration(hold*1e9).String())
		d := ddlOf(t, r, "create_index")
		commit := txnStart + hold
		if w := d.Phases[0]; w.Name != "wait_mdl" || math.Abs(w.EndS-commit) > 0.05 {
			t.Errorf("hold %v s: first phase %s ends at %.3f s, want wait_mdl until the commit at %v s", hold, w.Name, w.EndS, commit)
		}
		wc, tc := r.Series.Col("mdl_waiting"), r.Series.Col("tps")
		for _, row := range r.Series.Rows {
			end := row[0]
			switch {
			case end > alterAt+0.5 && end <= commit-0.5: // inside the pile-up
				if row[wc] < clients || row[tc] != 0 {
					t.Errorf("hold %v s, at %v s: %v threads waiting for an MDL, tps %v; want all %d clients queued, tps 0", hold, end, row[wc], row[tc], clients)
				}
			case end >= commit+1.5: // the transaction committed: nothing queues any more
				if row[wc] >= clients || row[tc] == 0 {
					t.Errorf("hold %v s, at %v s (after the commit): %v waiting, tps %v", hold, end, row[wc], row[tc])
				}
			}
		}
		if h := d.Latency; h == nil || h.AboveSLOS < hold-alterAt {
			t.Errorf("hold %v s: latency harm %+v: want at least %v s above the SLO", hold, h, hold-alterAt)
		}
	}
	// The cause removed: the transaction commits at 4 s, before the ALTER.
	r := runShipped(t, "dba/mdl-pileup.yaml", "workload[1].long_transaction.hold=2s")
	d := ddlOf(t, r, "create_index")
	if w := phase(d, "wait_mdl"); w > 0.05 {
		t.Errorf("no open transaction: the ALTER waited %.3f s for its MDL", w)
	}
	if d.MinTPS < d.BaselineTPS/2 || d.Latency.AboveSLOS != 0 {
		t.Errorf("no open transaction: min tps %v of %v, %v s above the SLO; want no pile-up", d.MinTPS, d.BaselineTPS, d.Latency.AboveSLOS)
	}
}

// TestRowLogOverflow: scenarios/dba/row-log-overflow.yaml's ADD INDEX fails with
// ER_INNODB_ONLINE_LOG_TOO_BIG only above the write rate that fills its modification log
// within the build, and not when the limit is the default 128MiB.
func TestRowLogOverflow(t *testing.T) {
	failedAt := map[string]bool{}
	for _, rate := range []string{"200", "300"} {
		r := runShipped(t, "dba/row-log-overflow.yaml", "workload[0].sysbench.rate="+rate)
		var d = r.DDL[0]
		failedAt[rate] = d.Failed
		if d.Failed && !strings.Contains(d.Reason, "ER_INNODB_ONLINE_LOG_TOO_BIG") {
			t.Errorf("rate %s: failed for another reason: %s", rate, d.Reason)
		}
		if d.Failed && phase(d, "observer_flush") == 0 {
			t.Errorf("rate %s: failed before the build was done (phases %v): the overflow is found when the log is applied", rate, d.Phases)
		}
	}
	if failedAt["200"] || !failedAt["300"] {
		t.Errorf("failed at rates %v: want ok at 200 transactions/s, failed at 300", failedAt)
	}
	r := runShipped(t, "dba/row-log-overflow.yaml", "mysql.innodb_online_alter_log_max_size=128MiB")
	if d := r.DDL[0]; d.Failed {
		t.Errorf("at the default limit: %s", d.Reason)
	}
}

const phasedYAML = `
name: phased
seed: 2
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.36", innodb_buffer_pool_size: 1GiB}
data:
  - {name: sbtest, tables: 2, rows: 100k}
warmup: 1s
duration: 16s
workload:
  - sysbench:
      mix: oltp_read_write
      threads: 4
      tables: sbtest
      rate: 200
      stop: 12s
      phases:
        - {at: 4s, threads: 8, rate: 800}
        - {at: 8s, rate: 50}
report: {interval: 1s}
`

// TestPhasedWorkloadFollowsPhases: an open-loop load's rate follows its phases (200, then
// 800 on 8 threads, then 50 transactions/s) and stops at its stop.
func TestPhasedWorkloadFollowsPhases(t *testing.T) {
	r := run(t, phasedYAML)
	tc := r.Series.Col("tps")
	mean := func(from, to float64) float64 {
		s, n := 0.0, 0
		for _, row := range r.Series.Rows {
			if row[0] > from && row[0] <= to {
				s += row[tc]
				n++
			}
		}
		return s / float64(n)
	}
	for _, c := range []struct{ from, to, want float64 }{{0, 4, 200}, {5, 8, 800}, {9, 12, 50}} {
		if got := mean(c.from, c.to); math.Abs(got-c.want) > 0.15*c.want {
			t.Errorf("tps over (%v, %v] s: %.1f, want about %v", c.from, c.to, got, c.want)
		}
	}
	if got := mean(13, 16); got != 0 {
		t.Errorf("tps after the stop at 12 s: %v, want 0", got)
	}
}

// TestNightVsDay: scenarios/dba/add-index.yaml's ADD INDEX (scaled to a 1 GB table) breaks
// the p99 objective by day and not at night, at a quarter of the load: the harm's cause is
// the load the ALTER competes with.
func TestNightVsDay(t *testing.T) {
	small := []string{"data[0].size=1GB", "mysql.innodb_buffer_pool_size=2GiB"}
	day := ddlOf(t, runShipped(t, "dba/add-index.yaml", small...), "create_index")
	night := ddlOf(t, runShipped(t, "dba/add-index.yaml", append(small, "workload[0].sysbench.rate=500")...), "create_index")
	if h := day.Latency; h.AboveSLOS < 1 || day.LatP99Ms <= h.BaseP99Ms {
		t.Errorf("day: p99 %.3g → %.3g ms, %v s above the SLO; want the objective broken", h.BaseP99Ms, day.LatP99Ms, h.AboveSLOS)
	}
	if h := night.Latency; h.AboveSLOS != 0 || night.LatP99Ms > 20 {
		t.Errorf("night: p99 %.3g → %.3g ms, %v s above the SLO; want it kept", h.BaseP99Ms, night.LatP99Ms, h.AboveSLOS)
	}
}

const afterYAML = `
name: window
seed: 3
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.36", innodb_buffer_pool_size: 1GiB}
data:
  - {name: sbtest, tables: 2, rows: 200k}
warmup: 1s
duration: until_ddl_done
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sbtest}
schedule:
  - {at: 2s, ddl: create_index, table: sbtest1, columns: [c]}
  - {at: {after: previous, delay: 5s}, ddl: optimize_table, table: sbtest2}
`

// TestAfterPrevious: a statement written at: {after: previous, delay: 5s} starts 5 s after the
// previous one returned, whenever that is; the effective configuration writes it back in the
// same form (config.yaml reruns it with the same hash).
func TestAfterPrevious(t *testing.T) {
	r := run(t, afterYAML)
	if len(r.DDL) != 2 {
		t.Fatalf("%d statements, want 2", len(r.DDL))
	}
	first, second := r.DDL[0], r.DDL[1]
	if math.Abs(second.StartS-(first.EndS+5)) > 1e-6 {
		t.Errorf("second starts at %.6f s, first ended at %.6f s: want 5 s later", second.StartS, first.EndS)
	}
	sc := load(t, afterYAML)
	b, err := config.Marshal(sc)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), "at: {after: previous, delay: 5s}") {
		t.Errorf("config.yaml does not keep the after form:\n%s", b)
	}
	back, err := config.LoadBytes("config.yaml", b, "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	if config.Hash(back) != config.Hash(sc) {
		t.Errorf("the written configuration reloads with another hash")
	}
	for _, bad := range []string{
		strings.Replace(afterYAML, "{at: 2s, ddl: create_index", "{at: {after: previous}, ddl: create_index", 1),
		strings.Replace(afterYAML, "after: previous, delay", "after: first, delay", 1),
	} {
		if _, err := config.LoadBytes("t.yaml", []byte(bad), "../../scenarios"); err == nil {
			t.Errorf("accepted:\n%s", bad)
		}
	}
}

// TestTmpdirCapacity: an ADD INDEX whose sort files outgrow the temp device is warned about
// when the scenario loads, and its build fails as the server's does; with room, neither.
func TestTmpdirCapacity(t *testing.T) {
	for _, c := range []struct {
		capacity string
		fails    bool
	}{{"40MiB", true}, {"800MiB", false}} {
		sets := []string{"hardware.storage.temp.capacity=" + c.capacity, "workload[0].sysbench.rate=10", "data[0].rows=1M"}
		sc := loadShipped(t, "dba/row-log-overflow.yaml", sets...)
		warned := false
		for _, w := range sc.Warnings {
			warned = warned || strings.Contains(w.Error(), "sort files")
		}
		r, err := runner.Run(sc, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		d := r.DDL[0]
		failed := d.Failed && strings.Contains(d.Reason, "ER_TEMP_FILE_WRITE_FAILURE")
		if warned != c.fails || failed != c.fails {
			t.Errorf("temp capacity %s: warned %v, build failed %v (%s); want both %v", c.capacity, warned, failed, d.Reason, c.fails)
		}
	}
}

const hotYAML = `
name: hot
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.36", innodb_buffer_pool_size: 512MiB, innodb_buffer_pool_instances: 2}
data:
  - {name: cold, tables: 1, size: 2GB}
  - {name: hot, tables: 1, size: 600MB}
warm: {fill: 0.95%s}
duration: 1s
`

// TestWarmHotSets: warm.tables puts a hot group's leaves in the pool first, up to its fill;
// without it the leaves are dealt round-robin and the small group gets only its share.
func TestWarmHotSets(t *testing.T) {
	resident := func(extra string) (hot, cold, hotPages int64) {
		m, err := runner.Build(load(t, fmt.Sprintf(hotYAML, extra)), runner.BuildOptions{})
		if err != nil {
			t.Fatal(err)
		}
		defer m.Close()
		for _, tab := range m.Server.Tables {
			n := int64(0)
			for _, in := range m.Server.Inst {
				n += int64(in.BP.SpacePages(tab.Space))
			}
			if tab.Group == "hot" {
				hot, hotPages = n, tab.Pages()
			} else {
				cold += n
			}
		}
		return
	}
	// The hot group (600 MB) is larger than the pool (512 MiB): as a hot set it fills the pool
	// but for the internal pages of both; dealt round-robin it gets about half.
	hot, cold, pages := resident(", tables: [{name: hot, fill: 1}]")
	if float64(hot) < 0.9*float64(hot+cold) {
		t.Errorf("hot set: %d hot pages and %d cold resident; want the pool nearly all hot", hot, cold)
	}
	quarter, _, _ := resident(", tables: [{name: hot, fill: 0.25}]")
	if r := float64(quarter) / float64(pages); r < 0.22 || r > 0.3 {
		t.Errorf("hot set at 0.25: %.2f of its pages resident, want about a quarter", r)
	}
	plain, plainCold, _ := resident("")
	if r := float64(plain) / float64(plain+plainCold); r < 0.35 || r > 0.65 {
		t.Errorf("without a hot set the hot group holds %.2f of the pool, want about half (round-robin)", r)
	}
	if _, err := config.LoadBytes("t.yaml", []byte(fmt.Sprintf(hotYAML, ", tables: [{name: nosuch, fill: 1}]")), "../../scenarios"); err == nil {
		t.Error("a hot set naming no data group was accepted")
	}
}
