package mycnf

import (
	"fmt"
	"math"
	"strconv"
	"strings"
)

// What SHOW GLOBAL STATUS says about the server's traffic: its statement rate and mix, and
// how many statements were running. One snapshot gives averages since the server started
// (the counters over Uptime); that is what an import can know.

// sysbenchMix is one sysbench 1.0 script's statements per event with its defaults
// (oltp_common.lua: point_selects 10, simple/sum/order/distinct ranges 1 each, index and
// non-index updates 1 each, delete_inserts 1; BEGIN and COMMIT unless skip_trx; the
// point_select, update_index and insert scripts run one statement per event, no
// transaction).
type sysbenchMix struct {
	name                                    string
	selects, updates, inserts, deletes, trx float64
}

func (m sysbenchMix) statements() float64 {
	return m.selects + m.updates + m.inserts + m.deletes + m.trx
}

var sysbenchMixes = []sysbenchMix{
	{"oltp_read_write", 14, 2, 1, 1, 2},
	{"oltp_read_only", 14, 0, 0, 0, 2},
	{"oltp_write_only", 0, 2, 1, 1, 2},
	{"oltp_point_select", 1, 0, 0, 0, 0},
	{"oltp_update_index", 0, 1, 0, 0, 0},
	{"oltp_insert", 0, 0, 1, 0, 0},
}

// traffic is the workload the import writes.
type traffic struct {
	mix        sysbenchMix
	mixNote    string
	stmtPerS   float64 // Questions / Uptime; 0 when not known
	rateNote   string
	txnPerS    float64 // the open-loop rate: stmtPerS / the mix's statements per event
	threads    int
	threadNote string
}

// statusCounters are the STATUS values the import reads: each must be a non-negative
// integer (a counter or a gauge), else it is a problem at its line.
var statusCounters = []string{
	"uptime", "questions", "threads_running",
	"com_select", "com_update", "com_update_multi", "com_insert", "com_insert_select", "com_replace",
	"com_replace_select", "com_delete", "com_delete_multi", "com_begin", "com_commit", "com_rollback",
	"innodb_rows_read", "innodb_rows_inserted", "innodb_rows_updated", "innodb_rows_deleted",
	"innodb_buffer_pool_pages_data", "innodb_buffer_pool_pages_total", "innodb_buffer_pool_pages_dirty",
}

// readStatus returns the counters the import uses, and a problem for each that is present
// but no non-negative integer.
func readStatus(status []Setting) (map[string]float64, Problems) {
	want := map[string]bool{}
	for _, n := range statusCounters {
		want[n] = true
	}
	out := map[string]float64{}
	var probs Problems
	for _, s := range status {
		if !want[s.Name] {
			continue
		}
		n, err := strconv.ParseUint(strings.TrimSpace(s.Value), 10, 64)
		if err != nil {
			probs = append(probs, fmt.Sprintf("%s: %s = %q: expected a non-negative integer (SHOW GLOBAL STATUS prints counters as digits)", s.Where, s.Name, s.Value))
			continue
		}
		out[s.Name] = float64(n)
	}
	if _, ok := out["uptime"]; ok && out["uptime"] == 0 {
		for _, s := range status {
			if s.Name == "uptime" {
				probs = append(probs, fmt.Sprintf("%s: Uptime = 0: a server that has run for no second has no rates; take SHOW GLOBAL STATUS after it has served its load", s.Where))
			}
		}
	}
	return out, probs
}

// observedTraffic maps the counters to a sysbench mix (the script whose share of SELECT,
// UPDATE, INSERT, DELETE and BEGIN/COMMIT is nearest the server's Com_* counters, by the sum
// of absolute differences of the shares) run open-loop at the observed statement rate.
func observedTraffic(st map[string]float64) traffic {
	tr := traffic{mix: sysbenchMixes[0], mixNote: "no Com_* counters in SHOW GLOBAL STATUS: oltp_read_write assumed", threads: 16,
		threadNote: "a guess: set your traffic's concurrency"}
	obs := [5]float64{
		st["com_select"],
		st["com_update"] + st["com_update_multi"],
		st["com_insert"] + st["com_insert_select"] + st["com_replace"] + st["com_replace_select"],
		st["com_delete"] + st["com_delete_multi"],
		st["com_begin"] + st["com_commit"] + st["com_rollback"],
	}
	total := obs[0] + obs[1] + obs[2] + obs[3] + obs[4]
	if total > 0 {
		best, bestD := 0, math.Inf(1)
		for i, m := range sysbenchMixes {
			v := [5]float64{m.selects, m.updates, m.inserts, m.deletes, m.trx}
			d := 0.0
			for k := range v {
				d += math.Abs(obs[k]/total - v[k]/m.statements())
			}
			if d < bestD {
				best, bestD = i, d
			}
		}
		tr.mix = sysbenchMixes[best]
		tr.mixNote = fmt.Sprintf("the sysbench script nearest the server's statement mix: Com_select %.1f%%, update %.1f%%, insert %.1f%%, delete %.1f%%, begin/commit/rollback %.1f%% (this script: %s; distance %.2f of 2)",
			100*obs[0]/total, 100*obs[1]/total, 100*obs[2]/total, 100*obs[3]/total, 100*obs[4]/total, mixShares(tr.mix), bestD)
	}
	if up := st["uptime"]; up > 0 {
		if q, ok := st["questions"]; ok {
			tr.stmtPerS = q / up
			tr.txnPerS = round3(tr.stmtPerS / tr.mix.statements())
			tr.rateNote = fmt.Sprintf("Questions / Uptime = %.0f / %.0f s = %.1f statements/s, / %g statements per %s event = %g events/s, open loop",
				q, up, tr.stmtPerS, tr.mix.statements(), tr.mix.name, tr.txnPerS)
			if r, ok := st["innodb_rows_read"]; ok && q > 0 {
				tr.rateNote += fmt.Sprintf("; Innodb_rows_read %.1f per statement (the script reads ~%.1f)", r/q, mixRowsRead(tr.mix))
			}
		}
	}
	if n, ok := st["threads_running"]; ok && n > 0 {
		tr.threads, tr.threadNote = max(int(n)-1, 1), fmt.Sprintf("Threads_running was %.0f when SHOW GLOBAL STATUS ran (one of them that statement)", n)
	}
	return tr
}

// mixRowsRead is the rows a script's event reads per statement (sysbench 1.0: a point
// select 1 row, each of the four ranges 100, an update or delete 1, an insert 0).
func mixRowsRead(m sysbenchMix) float64 {
	if m.selects == 0 {
		return (m.updates + m.deletes) / m.statements()
	}
	ranges := 0.0
	if m.selects > 1 {
		ranges = 4
	}
	return ((m.selects - ranges) + 100*ranges + m.updates + m.deletes) / m.statements()
}

func mixShares(m sysbenchMix) string {
	n := m.statements()
	return fmt.Sprintf("%.0f/%.0f/%.0f/%.0f/%.0f%%", 100*m.selects/n, 100*m.updates/n, 100*m.inserts/n, 100*m.deletes/n, 100*m.trx/n)
}
