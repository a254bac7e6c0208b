package runner_test

import (
	"fmt"
	"testing"
)

// runningYAML: closed-loop sysbench, 12 threads, on a pool that holds the data, with the
// client round trip a parameter.
const runningYAML = `
name: running
seed: 1
hardware: {base: 16c-128g-nvme, client_rtt: %s}
mysql: {innodb_buffer_pool_size: 1GiB}
data:
  - {name: sbtest, tables: 2, size: 128MB}
warm: {fill: 0.9}
warmup: 1s
duration: 2s
workload:
  - sysbench: {mix: oltp_read_write, threads: 12, tables: sbtest}
report: {interval: 100ms}
`

// TestThreadsRunningCountsStatementsNotRoundTrips: Threads_running counts a connection from
// its statement's arrival to the end of its work (MySQL's dispatch_command). Without a round
// trip a closed-loop client is never between statements, so every sample is all 12; with a
// 5 ms round trip and statements that take tens of microseconds a client is almost always
// waiting for its next packet, so the samples average well under one.
func TestThreadsRunningCountsStatementsNotRoundTrips(t *testing.T) {
	for _, rtt := range []string{"0s", "5ms"} {
		r := run(t, fmt.Sprintf(runningYAML, rtt))
		c := r.Series.Col("threads_running")
		if c < 0 {
			t.Fatal("no threads_running column")
		}
		sum, lo, hi := 0.0, 1e9, -1.0
		for _, row := range r.Series.Rows {
			v := row[c]
			sum += v
			lo, hi = min(lo, v), max(hi, v)
		}
		mean := sum / float64(len(r.Series.Rows))
		t.Logf("client_rtt %s: threads_running mean %.2f, min %.0f, max %.0f", rtt, mean, lo, hi)
		switch rtt {
		case "0s":
			if lo != 12 || hi != 12 {
				t.Errorf("no round trip: samples %.0f-%.0f, want all 12", lo, hi)
			}
		default:
			if mean > 1 {
				t.Errorf("5 ms round trip: mean %.2f running, want well under 1 of 12", mean)
			}
		}
	}
}
