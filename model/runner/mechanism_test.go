package runner_test

// Issue 3 mechanism checks (bands, not snapshots).

import (
	"fmt"
	"reflect"
	"testing"
)

const base = `
name: mech
seed: %d
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: %s
  innodb_buffer_pool_instances: 1
  innodb_log_file_size: 256MiB
policy: %s
data:
  - {name: sb, tables: 4, rows: %s}
warm: {fill: 0.95}
warmup: %s
duration: %s
workload:
  - sysbench: {mix: %s, threads: %d, tables: sb, rand: %s%s}
%s
report: {interval: 1s}
`

type sb struct {
	seed             uint64
	pool, rows       string
	policy           string
	warmup, duration string
	mix              string
	threads          int
	rand             string
	extra            string // more sysbench keys, e.g. ", rate: 2000"
	rest             string // more top-level YAML (schedule, extra workload)
}

func (c sb) yaml() string {
	if c.seed == 0 {
		c.seed = 42
	}
	if c.policy == "" {
		c.policy = "fullscan"
	}
	if c.rand == "" {
		c.rand = "special"
	}
	if c.warmup == "" {
		c.warmup = "2s"
	}
	if c.duration == "" {
		c.duration = "3s"
	}
	return fmt.Sprintf(base, c.seed, c.pool, c.policy, c.rows, c.warmup, c.duration, c.mix, c.threads, c.rand, c.extra, c.rest)
}

// Over four pool sizes smaller than the data, hit ratio and TPS fall as the pool shrinks.
func TestPoolSizeMonotone(t *testing.T) {
	t.Parallel()
	// 4 × 1M rows ≈ 1.1 GB of data (primary + k index).
	pools := []string{"640MiB", "384MiB", "256MiB", "128MiB"}
	var hit, tps []float64
	for _, p := range pools {
		r := run(t, sb{pool: p, rows: "1M", mix: "oltp_read_only", threads: 16, rand: "uniform"}.yaml())
		hit = append(hit, get(t, r, "hit_ratio_mean"))
		tps = append(tps, get(t, r, "tps_mean"))
	}
	t.Logf("pools %v: hit %.4f tps %.0f", pools, hit, tps)
	for i := 1; i < len(pools); i++ {
		if !(hit[i] < hit[i-1]) {
			t.Errorf("hit ratio did not fall from %s (%.4f) to %s (%.4f)", pools[i-1], hit[i-1], pools[i], hit[i])
		}
		if !(tps[i] < tps[i-1]) {
			t.Errorf("TPS did not fall from %s (%.0f) to %s (%.0f)", pools[i-1], tps[i-1], pools[i], tps[i])
		}
	}
	if hit[0] > 0.999 || hit[len(hit)-1] > 0.98 {
		t.Errorf("pools are not smaller than the data: hit ratios %v", hit)
	}
}

// Threads beyond what saturates the cores raise latency, not throughput (8 cores, in-memory
// load; with the client round trip, ~40 threads keep 8 cores busy).
func TestThreadsBeyondCores(t *testing.T) {
	t.Parallel()
	res := map[int][2]float64{}
	for _, n := range []int{48, 192} {
		r := run(t, sb{pool: "1GiB", rows: "100k", mix: "oltp_read_only", threads: n}.yaml())
		res[n] = [2]float64{get(t, r, "tps_mean"), get(t, r, "lat_p95_ms_mean")}
		if h := get(t, r, "hit_ratio_mean"); h < 0.999 {
			t.Fatalf("load is not in memory: hit ratio %.4f", h)
		}
		if u := get(t, r, "cpu_util_mean"); u < 0.9 {
			t.Errorf("%d threads: CPU utilization %.2f, want a CPU-bound load", n, u)
		}
	}
	t.Logf("48 threads: tps %.0f p95 %.2f ms; 192 threads: tps %.0f p95 %.2f ms", res[48][0], res[48][1], res[192][0], res[192][1])
	if ratio := res[192][0] / res[48][0]; ratio < 0.9 || ratio > 1.1 {
		t.Errorf("TPS 192 vs 48 threads: ratio %.3f, want within 10%%", ratio)
	}
	if res[192][1] < 2.5*res[48][1] {
		t.Errorf("p95 latency 192 threads %.2f ms vs 48 threads %.2f ms: want clearly higher (≥2.5×)", res[192][1], res[48][1])
	}
}

// A write-heavy mix grows the flush list and the page cleaners' write rate.
func TestWriteHeavyMixFlushes(t *testing.T) {
	t.Parallel()
	ro := run(t, sb{pool: "512MiB", rows: "500k", mix: "oltp_read_only", threads: 16}.yaml())
	wo := run(t, sb{pool: "512MiB", rows: "500k", mix: "oltp_write_only", threads: 16}.yaml())
	dRO, dWO := get(t, ro, "dirty_pages_mean"), get(t, wo, "dirty_pages_mean")
	wRO, wWO := get(t, ro, "pages_written_per_s_mean"), get(t, wo, "pages_written_per_s_mean")
	t.Logf("read_only: dirty %.0f written/s %.0f; write_only: dirty %.0f written/s %.0f", dRO, wRO, dWO, wWO)
	if !(dWO > 5*dRO+100) {
		t.Errorf("flush list: write_only %.0f vs read_only %.0f dirty pages", dWO, dRO)
	}
	if !(wWO > 5*wRO+10) {
		t.Errorf("pages written/s: write_only %.0f vs read_only %.0f", wWO, wRO)
	}
}

// Same scenario + seed twice → identical rows and summary; another seed → different rows.
func TestDeterminism(t *testing.T) {
	t.Parallel()
	c := sb{pool: "256MiB", rows: "300k", mix: "oltp_read_write", threads: 16, duration: "3s",
		rest: "schedule:\n  - {at: 1s, ddl: create_index, table: sb, columns: [c]}\n"}
	a := run(t, c.yaml())
	b := run(t, c.yaml())
	if !reflect.DeepEqual(a.Series.Rows, b.Series.Rows) {
		t.Errorf("same seed: series rows differ")
	}
	if !reflect.DeepEqual(a.Summary, b.Summary) || !reflect.DeepEqual(a.DDL, b.DDL) || a.Events != b.Events {
		t.Errorf("same seed: summary/DDL/events differ:\n%v\n%v", a.Summary, b.Summary)
	}
	c.seed = 43
	d := run(t, c.yaml())
	if reflect.DeepEqual(a.Series.Rows, d.Series.Rows) {
		t.Errorf("different seeds gave identical series rows")
	}
}
