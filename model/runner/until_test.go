package runner_test

import (
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
)

const untilYAML = `
name: until
seed: 3
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 512MiB}
data:
  - {name: sbtest, tables: 1, rows: 50K}
  - {name: big, tables: 1, size: 40MB}
warmup: 1s
workload:
  - sysbench: {mix: oltp_read_write, threads: 2, tables: sbtest, rand: uniform}
schedule:
  - {at: 1s, ddl: create_index, table: big, columns: [c]}
  - {at: 1500ms, ddl: create_index, table: sbtest, columns: [c]}
report: {interval: 1s}
`

// until ddl_done ends the run at the last statement's end plus until.after, rounded up to a
// whole report interval; the same scenario with a fixed duration long enough gives the same
// DDL results and the same series up to that point (ending early changes nothing before
// the end). With a cap shorter than the DDL, the run ends at the cap and says so.
func TestUntilDDLDoneEndsAfterLastStatement(t *testing.T) {
	early, err := runner.Run(load(t, untilYAML+"duration: until_ddl_done\nuntil: {event: ddl_done, after: 2s}\n"), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if early.HitCap || len(early.DDL) != 2 {
		t.Fatalf("hit cap %v, %d statements", early.HitCap, len(early.DDL))
	}
	last := math.Max(early.DDL[0].EndS, early.DDL[1].EndS)
	t.Logf("statements end at %.3f and %.3f s", early.DDL[0].EndS, early.DDL[1].EndS)
	want := math.Ceil(last + 2)
	if n := len(early.Series.Rows); float64(n) != want {
		t.Fatalf("%d intervals, want %v (last statement ended at %.3f s, after 2 s)", n, want, last)
	}
	fixed := run(t, untilYAML+"duration: 60s\n")
	for i, d := range early.DDL {
		if d.Unfinished || d.DurationS != fixed.DDL[i].DurationS {
			t.Fatalf("statement %d: %+v, fixed-duration run %+v", i, d, fixed.DDL[i])
		}
	}
	for i, row := range early.Series.Rows {
		for j, v := range row {
			if v != fixed.Series.Rows[i][j] {
				t.Fatalf("interval %d column %s: %v, fixed-duration run %v", i, early.Series.Columns[j], v, fixed.Series.Rows[i][j])
			}
		}
	}

	capped, err := runner.Run(load(t, untilYAML+"duration: 2s\nuntil: {event: ddl_done, after: 1s}\n"), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if !capped.HitCap || len(capped.Series.Rows) != 2 {
		t.Fatalf("capped run: hit cap %v, %d intervals", capped.HitCap, len(capped.Series.Rows))
	}
	unfinished := 0
	for _, d := range capped.DDL {
		if d.Unfinished {
			unfinished++
		}
	}
	if unfinished == 0 {
		t.Fatalf("capped run reports every statement finished: %+v", capped.DDL)
	}
}

// With each: true an event runs one statement per table of the group: until ddl_done waits
// for all of them, not for the first.
func TestUntilDDLDoneWaitsForEveryTableOfEach(t *testing.T) {
	r, err := runner.Run(load(t, `
name: until-each
seed: 3
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 256MiB}
data:
  - {name: t, tables: 6, rows: 50K}
warmup: 0s
duration: until_ddl_done
until: {event: ddl_done, after: 0s}
schedule:
  - {at: 100ms, ddl: optimize_table, table: t, each: true}
report: {interval: 100ms}
`), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(r.DDL) != 6 {
		t.Fatalf("%d statements, want 6", len(r.DDL))
	}
	for _, d := range r.DDL {
		if d.Unfinished || d.Failed {
			t.Errorf("%s: unfinished %v failed %v (%s)", d.Table, d.Unfinished, d.Failed, d.Reason)
		}
	}
}
