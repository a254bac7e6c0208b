package runner_test

import (
	"fmt"
	"math"
	"os"
	"os/exec"
	"regexp"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
)

// estimateScenario is a small scenario with the knobs the estimate scales with.
func estimateScenario(pool string, instances int, data string, tables int, mix string, threads int, extra string) string {
	return fmt.Sprintf(`
name: estimate
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: %s, innodb_buffer_pool_instances: %d}
data:
  - {name: sbtest, tables: %d, %s}
warmup: 1s
duration: 2s
workload:
  - sysbench: {mix: %s, threads: %d, tables: sbtest}
report: {interval: 1s}
%s`, pool, instances, tables, data, mix, threads, extra)
}

// The statement counts per transaction the estimate uses are the generators' own.
func TestDemandStatementsPerTxn(t *testing.T) {
	if testing.Short() {
		t.Skip("runs every mix")
	}
	for _, mix := range []string{"oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select", "oltp_update_index", "oltp_insert"} {
		r := run(t, estimateScenario("1GiB", 1, "rows: 100k", 1, mix, 4, ""))
		got := get(t, r, "qps_mean") / get(t, r, "tps_mean")
		if want := workload.StatementsPerTxn(mix); math.Abs(got-want) > 0.02*want {
			t.Errorf("%s: %.2f statements per transaction, the estimate uses %g", mix, got, want)
		}
	}
	r := run(t, `
name: tpcc-estimate
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 2GiB}
data: [{name: tpcc, kind: tpcc, warehouses: 4}]
warmup: 1s
duration: 4s
workload: [{tpcc: {threads: 8}}]
`)
	got := get(t, r, "qps_mean") / get(t, r, "tps_mean")
	if want := workload.StatementsPerTxn("tpcc"); math.Abs(got-want) > 0.1*want {
		t.Errorf("tpcc: %.2f statements per transaction, the estimate uses %g", got, want)
	}
}

// The event estimate is within a factor of 2.5 of what runs fire, closed loop and CPU bound,
// cached and not.
func TestEstimateEvents(t *testing.T) {
	if raceEnabled {
		t.Skip("counts events, not data races")
	}
	for _, y := range []string{
		estimateScenario("1GiB", 1, "rows: 100k", 1, "oltp_read_write", 1, ""),
		estimateScenario("4GiB", 4, "rows: 500k", 4, "oltp_read_write", 16, ""),
		estimateScenario("4GiB", 4, "rows: 500k", 4, "oltp_point_select", 256, ""),
		estimateScenario("1GiB", 1, "size: 4GB", 2, "oltp_read_write", 16, ""),
		estimateScenario("1GiB", 1, "rows: 500k", 2, "oltp_insert", 16, ""),
		estimateScenario("4GiB", 4, "rows: 500k", 4, "oltp_read_write", 16, "schedule: [{at: 0.5s, ddl: create_index, table: sbtest, columns: [c]}]"),
	} {
		sc := load(t, y)
		est := runner.EstimateRun(sc)
		r, err := runner.Run(sc, runner.Options{})
		if err != nil {
			t.Fatal(err)
		}
		ratio := est.Events / float64(r.Events)
		t.Logf("estimate %.0f events, ran %d (×%.2f)", est.Events, r.Events, ratio)
		if ratio < 1/2.5 || ratio > 2.5 {
			t.Errorf("%s\nestimate %.0f events, the run fired %d (×%.2f)", y, est.Events, r.Events, ratio)
		}
	}
}

// TestEstimateMemoryMeasured runs scenarios in a child process (this test binary, asked by an
// environment variable to run one scenario and exit) and compares the model's part of the
// memory estimate (without the runtime base) with the child's peak RSS growth over its RSS
// before the model was built: the estimate must not be below it, nor more than 3× above.
func TestEstimateMemoryMeasured(t *testing.T) {
	if os.Getenv("DDLSIM_ESTIMATE_CHILD") != "" {
		t.Skip("the child process of TestEstimateMemoryMeasured")
	}
	if raceEnabled || server.Invariants {
		t.Skip("the race detector's shadow memory, or the invariant checks' scratch, inflate RSS")
	}
	intervals := estimateScenario("1GiB", 1, "rows: 10k", 1, "oltp_point_select", 4, "")
	intervals = strings.Replace(intervals, "report: {interval: 1s}", "report: {interval: 100us}", 1)
	for _, c := range []struct {
		name string
		y    string
	}{
		{"warm 8GiB pool", estimateScenario("8GiB", 8, "size: 6GB", 2, "oltp_point_select", 4, "warm: {fill: 1}")},
		{"5000 threads", estimateScenario("1GiB", 1, "rows: 10k", 1, "oltp_point_select", 5000, "")},
		{"5000 tables", estimateScenario("1GiB", 4, "rows: 1k", 5000, "oltp_point_select", 1, "")},
		{"20000 intervals", intervals},
	} {
		t.Run(c.name, func(t *testing.T) {
			est := runner.EstimateRun(load(t, c.y))
			cmd := exec.Command(os.Args[0], "-test.run=^TestEstimateChild$", "-test.v")
			cmd.Env = append(os.Environ(), "DDLSIM_ESTIMATE_CHILD="+c.y)
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("child: %v\n%s", err, out)
			}
			// The child's own VmHWM: wait4's ru_maxrss of a child counts the parent's pages
			// it shared between fork and exec.
			m := regexp.MustCompile(`base RSS (\d+) kB, peak RSS (\d+) kB`).FindSubmatch(out)
			if m == nil {
				t.Fatalf("child printed no RSS:\n%s", out)
			}
			base, _ := strconv.ParseInt(string(m[1]), 10, 64)
			peak, _ := strconv.ParseInt(string(m[2]), 10, 64)
			grew := (peak - base) << 10
			model := est.Memory - runner.MemBase
			ratio := float64(model) / float64(grew)
			t.Logf("model estimate %d MiB, measured %d MiB (peak %d − base %d kB): ×%.2f", model>>20, grew>>20, peak, base, ratio)
			if ratio < 1 || ratio > 3 {
				t.Errorf("model estimate %d MiB, measured %d MiB (×%.2f): %+v", model>>20, grew>>20, ratio, est.Parts)
			}
		})
	}
}

// TestEstimateChild is the child of TestEstimateMemoryMeasured: it prints its RSS before the
// model is built, then runs the scenario in DDLSIM_ESTIMATE_CHILD.
func TestEstimateChild(t *testing.T) {
	y := os.Getenv("DDLSIM_ESTIMATE_CHILD")
	if y == "" {
		t.Skip("only as TestEstimateMemoryMeasured's child")
	}
	sc := load(t, y)
	base := vmHWM(t)
	if _, err := runner.Run(sc, runner.Options{}); err != nil {
		t.Fatal(err)
	}
	fmt.Printf("base RSS %d kB, peak RSS %d kB\n", base, vmHWM(t))
}

// vmHWM is this process's peak resident set so far, kB.
func vmHWM(t *testing.T) int64 {
	status, err := os.ReadFile("/proc/self/status")
	if err != nil {
		t.Skip("no /proc")
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		t.Skip("no VmHWM")
	}
	n, _ := strconv.ParseInt(string(m[1]), 10, 64)
	return n
}
