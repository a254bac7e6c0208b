package runner_test

import (
	"fmt"
	"testing"
)

// redoBuildYAML: CREATE INDEX on c of one 100 MB sysbench table under a light load, with
// the version's own redo log (MariaDB 10.11: 96 MiB; 5.6: 2 × 48 MiB; 8.0.18: 2 × 48 MiB).
const redoBuildYAML = `
name: redo-build
seed: 2
hardware: profiles/8c-64g.yaml
mysql: {version: "%s", innodb_buffer_pool_size: 2GiB}
data:
  - {name: sbtest, tables: 2, size: 200MB}
warm: {fill: 0.9, dirty: 0.05}
warmup: 1s
duration: 20s
workload:
  - sysbench: {mix: oltp_read_write, threads: 2, tables: sbtest}
schedule:
  - {at: 2s, ddl: create_index, table: "sbtest[1]", columns: [c]}
report: {interval: 500ms}
`

// A redo-logged build (MariaDB 10.5+, and 5.5/5.6 before the bulk load) has no observer
// flush: its pages are ordinary dirty pages with redo, so the redo rate jumps while the
// index loads and the checkpoint age rises with it. 8.0.18's build skips redo and flushes its
// pages through the observer instead: no jump, an observer_flush phase.
func TestRedoLoggedBuild(t *testing.T) {
	peak := map[string]float64{}
	base := map[string]float64{}
	for _, v := range []string{"mariadb-10.11.6", "5.6.40", "8.0.18"} {
		r := run(t, fmt.Sprintf(redoBuildYAML, v))
		d := ddlOf(t, r, "create_index")
		flush := phase(d, "observer_flush")
		redo, tcol := r.Series.Col("redo_mb_per_s"), r.Series.Col("time_s")
		for _, row := range r.Series.Rows {
			switch {
			case row[tcol] <= d.StartS:
				base[v] = max(base[v], row[redo])
			case row[tcol] <= d.EndS+0.5:
				peak[v] = max(peak[v], row[redo])
			}
		}
		t.Logf("%s: %.2f s, observer_flush %.2f s, redo MiB/s before %.1f, peak during %.1f",
			v, d.DurationS, flush, base[v], peak[v])
		logged := v != "8.0.18"
		if logged && flush != 0 {
			t.Errorf("%s: redo-logged build has an observer_flush phase (%.2f s)", v, flush)
		}
		if !logged && flush == 0 {
			t.Errorf("%s: no observer_flush phase", v)
		}
		// The index is ~19 MiB of leaf pages per 100 MB table: logged, it is redo.
		if logged && peak[v] < 3*base[v]+5 {
			t.Errorf("%s: redo peaks at %.1f MiB/s during the build, baseline %.1f: the pages wrote no redo", v, peak[v], base[v])
		}
	}
	// Unlogged, the redo during the build is the workload's (which catches up after the
	// observer flush), far below what the logged build writes.
	if p := peak["8.0.18"]; p > 0.1*peak["mariadb-10.11.6"] {
		t.Errorf("8.0.18: redo peaks at %.1f MiB/s during the build, a logged build at %.1f", p, peak["mariadb-10.11.6"])
	}
}
