package runner_test

import (
	"fmt"
	"testing"
)

// harmYAML: open-loop sysbench (1000 transactions/s) on a 16 GiB pool while DROP TABLE t runs;
// t is read by one client, so its pages and their adaptive-hash entries are in the pool.
// Under fullscan (8.0.18) the DROP holds each instance's LRU mutex while it walks the LRU;
// under indexed it visits t's pages only.
const harmYAML = `
name: harm
seed: %d
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: 16GiB
  innodb_buffer_pool_instances: 8
policy: %s
data:
  - {name: sbtest, tables: 4, size: 5GB}
  - {name: t, tables: 1, size: 1GB}
warm: {fill: 0.95}
warmup: 2s
duration: 4s
workload:
  - sysbench: {mix: oltp_read_write, threads: 16, tables: sbtest, rand: uniform, rate: %d}
  - sysbench: {mix: oltp_read_only, threads: 1, tables: t, ignore_errors: all}
schedule:
  - {at: 2s, ddl: drop_table, table: t}
report: {interval: 200ms}
%s`

// TestLatencyHarmRisesOnlyUnderAContendingDDL: with an open-loop load the harm columns rise
// during a DROP that holds the LRU mutexes (fullscan) and stay at the baseline under one that
// does not (indexed); a closed-loop run without an SLO measures none (opt-in).
func TestLatencyHarmRisesOnlyUnderAContendingDDL(t *testing.T) {
	for _, seed := range []int{1} {
		for _, pol := range []string{"fullscan", "indexed"} {
			r := run(t, fmt.Sprintf(harmYAML, seed, pol, 1000, "slo: p99=50ms\n"))
			d := ddlOf(t, r, "drop_table")
			h := d.Latency
			if h == nil {
				t.Fatalf("%s: no latency harm in an open-loop run with an SLO", pol)
			}
			if h.SLO != "p99=50ms" || h.BaseP99Ms <= 0 || h.BaseP50Ms > h.BaseP99Ms {
				t.Fatalf("%s: bad harm %+v", pol, *h)
			}
			ratio := d.LatP99Ms / h.BaseP99Ms
			switch pol {
			case "fullscan":
				if ratio < 2 || h.AboveSLOS < 0.2 || h.SLOBreaches != 1 || h.P50Ms < 2*h.BaseP50Ms {
					t.Errorf("seed %d fullscan: p50 %.3g → %.3g, p99 %.3g → %.3g ms, %.3g s above the SLO in %v breaches; want the latency up and the SLO breached",
						seed, h.BaseP50Ms, h.P50Ms, h.BaseP99Ms, d.LatP99Ms, h.AboveSLOS, h.SLOBreaches)
				}
			case "indexed":
				if ratio > 1.5 || h.AboveSLOS != 0 || h.SLOBreaches != 0 {
					t.Errorf("seed %d indexed: p99 %.3g → %.3g ms, %.3g s above the SLO; want the baseline kept", seed, h.BaseP99Ms, d.LatP99Ms, h.AboveSLOS)
				}
			}
		}
	}
	closed := run(t, fmt.Sprintf(harmYAML, 1, "fullscan", 0, ""))
	if h := ddlOf(t, closed, "drop_table").Latency; h != nil {
		t.Errorf("a closed-loop run without an SLO measured latency harm: %+v", *h)
	}
	open := run(t, fmt.Sprintf(harmYAML, 1, "fullscan", 1000, ""))
	if h := ddlOf(t, open, "drop_table").Latency; h == nil || h.SLO != "" || h.AboveSLOS == h.AboveSLOS {
		t.Errorf("an open-loop run without an SLO: want harm without SLO seconds (NaN), got %+v", h)
	}
}
