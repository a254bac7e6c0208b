package runner_test

import (
	"fmt"
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// lostYAML: closed-loop sysbench while DROP TABLE t walks an 8 GiB pool's lists under fullscan
// (8.0.18): the clients stall behind the LRU mutexes, so the statement costs transactions.
// 10 ms report intervals let the test count the transactions done during it from the series.
const lostYAML = `
name: lost
seed: 1
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 8GiB, innodb_buffer_pool_instances: 8}
policy: %s
data:
  - {name: sbtest, tables: 4, size: 2GB}
  - {name: t, tables: 1, size: 1GB}
warm: {fill: 0.95}
warmup: 1s
duration: 2s
workload:
  - sysbench: {mix: oltp_read_write, threads: 8, tables: sbtest, rand: uniform}
  - sysbench: {mix: oltp_read_only, threads: 1, tables: t, ignore_errors: all}
schedule:
  - {at: 1s, ddl: drop_table, table: t}
report: {interval: 10ms}
`

// TestLostTxnsIsBaselineTimesDurationLessDone: a naive oracle for lost_txns — the baseline
// rate (the mean TPS of the intervals before the statement) × its duration, less the
// transactions done while it ran, counted from the 10 ms series (each interval's tps × the
// part of it inside the statement) — agrees with the statement's lost_txns within the
// transactions of one interval, and under fullscan the stall costs at least a tenth of the
// baseline's transactions; the key metric carries it.
func TestLostTxnsIsBaselineTimesDurationLessDone(t *testing.T) {
	for _, pol := range []string{"fullscan", "indexed"} {
		r := run(t, fmt.Sprintf(lostYAML, pol))
		d := ddlOf(t, r, "drop_table")
		tc, step := r.Series.Col("tps"), 0.01
		var base []float64
		done := 0.0
		for _, row := range r.Series.Rows {
			end := row[0]
			if end <= d.StartS+1e-9 {
				base = append(base, row[tc])
				continue
			}
			if in := math.Min(end, d.EndS) - math.Max(end-step, d.StartS); in > 0 {
				done += row[tc] * in
			}
		}
		mean := 0.0
		for _, v := range base {
			mean += v
		}
		mean /= float64(len(base))
		want := mean*d.DurationS - done
		if tol := mean*step + 1; math.Abs(d.LostTxns-want) > tol {
			t.Errorf("%s: lost_txns %.1f, oracle %.1f (baseline %.0f/s × %.3f s − %.1f done), tolerance %.1f",
				pol, d.LostTxns, want, mean, d.DurationS, done, tol)
		}
		if pol == "fullscan" && d.LostTxns < 0.1*mean*d.DurationS {
			t.Errorf("fullscan: lost_txns %.1f of %.0f at the baseline rate: want the stall's cost", d.LostTxns, mean*d.DurationS)
		}
		if got, ok := metrics.KeyMetrics(r.Summary, r.DDL).Get("ddl0_drop_table_lost_txns"); !ok || got != d.LostTxns {
			t.Errorf("%s: key metric ddl0_drop_table_lost_txns %v (%v), statement %v", pol, got, ok, d.LostTxns)
		}
		t.Logf("%s: %.3f s, baseline %.0f/s, lost_txns %.1f (oracle %.1f)", pol, d.DurationS, mean, d.LostTxns, want)
	}
}
