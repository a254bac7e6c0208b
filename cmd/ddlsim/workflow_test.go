package main

import (
	"bytes"
	"fmt"
	"github.com/ddlsim/ddlsim/internal/output"
	"os"
	"os/exec"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/internal/sweep"
)

// The workflow tests run the command as a separate process (kill -9, exit codes, shards
// from the environment), but not a separately linked one: this test binary is the command
// when wfMainEnv is set (TestMain), so no test pays for a `go build` of ddlsim (a link takes
// seconds on a loaded machine). wfBuild writes a wrapper script per delay.
const (
	wfMainEnv  = "DDLSIM_WORKFLOW_TEST_MAIN"
	wfDelayEnv = "DDLSIM_WORKFLOW_TEST_DELAY"
)

var (
	wfBinMu  sync.Mutex
	wfBins   = map[string]string{}
	wfBinDir string
)

func TestMain(m *testing.M) {
	if os.Getenv(wfMainEnv) != "" {
		if d := os.Getenv(wfDelayEnv); d != "" {
			sweep.SetTestRunDelay(d)
		}
		main()
		return
	}
	code := m.Run()
	if wfBinDir != "" {
		os.RemoveAll(wfBinDir)
	}
	os.Exit(code)
}

// wfBuild returns an executable that runs this command (once per delay for the whole test
// binary). delay, when set, slows every simulated run down (sweep.testRunDelay) so a test
// can kill a sweep while it is midway.
func wfBuild(t *testing.T, delay string) string {
	t.Helper()
	wfBinMu.Lock()
	defer wfBinMu.Unlock()
	if bin, ok := wfBins[delay]; ok {
		return bin
	}
	if wfBinDir == "" {
		d, err := os.MkdirTemp("", "ddlsim-test-bin-")
		if err != nil {
			t.Fatal(err)
		}
		wfBinDir = d
	}
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(wfBinDir, fmt.Sprintf("ddlsim-%d", len(wfBins)))
	script := fmt.Sprintf("#!/bin/sh\n%s=1 %s=%s exec %q \"$@\"\n", wfMainEnv, wfDelayEnv, delay, self)
	if err := os.WriteFile(bin, []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	wfBins[delay] = bin
	return bin
}

const wfCISpec = "testdata/sweep-small.yaml"

func wfRun(t *testing.T, bin string, env []string, args ...string) string {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = append(wfCleanEnv(), env...)
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	if err := cmd.Run(); err != nil {
		t.Fatalf("ddlsim %v: %v\n%s%s", args, err, out.String(), errb.String())
	}
	return out.String()
}

// wfCleanEnv drops scheduler variables so the test is not sharded by the machine it runs on.
func wfCleanEnv() []string {
	var env []string
	for _, kv := range os.Environ() {
		if strings.HasPrefix(kv, "SLURM_") || strings.HasPrefix(kv, "JOB_COMPLETION_INDEX=") {
			continue
		}
		env = append(env, kv)
	}
	return env
}

// wfSortedStripped is a results file without wall times, its lines sorted: what must be equal
// byte for byte between two executions of the same sweep.
func wfSortedStripped(t *testing.T, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, name))
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(output.StripWallTime(string(b), strings.HasSuffix(name, ".csv"))), "\n")
	sort.Strings(lines)
	return strings.Join(lines, "\n")
}

func wfSameResults(t *testing.T, a, b string) {
	t.Helper()
	for _, f := range []string{output.JSONLFile, output.CSVFile} {
		if wfSortedStripped(t, a, f) != wfSortedStripped(t, b, f) {
			t.Fatalf("%s differs between %s and %s", f, a, b)
		}
	}
}

// A sweep killed with SIGKILL midway and resumed gives the same results as one never
// interrupted, with every point exactly once.
func TestSweepKillResume(t *testing.T) {
	bin := wfBuild(t, "150ms")
	root := t.TempDir()
	full := filepath.Join(root, "full")
	wfRun(t, bin, nil, "sweep", wfCISpec, "--jobs", "2", "--out", full)

	killed := filepath.Join(root, "killed")
	cmd := exec.Command(bin, "sweep", wfCISpec, "--jobs", "2", "--out", killed)
	cmd.Env = wfCleanEnv()
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	// 6 points × 2 seeds at ≥150 ms a run on 2 workers: kill once 2 points are done.
	deadline := time.Now().Add(60 * time.Second)
	for {
		ents, _ := filepath.Glob(filepath.Join(killed, output.PointsDir, "p*.jsonl"))
		if len(ents) >= 2 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no points appeared")
		}
		time.Sleep(5 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGKILL)
	cmd.Wait()
	pts, _ := filepath.Glob(filepath.Join(killed, output.PointsDir, "p*.jsonl"))
	if len(pts) >= 6 {
		t.Fatalf("kill came too late: %d points done", len(pts))
	}
	if _, err := os.Stat(filepath.Join(killed, output.JSONLFile)); err == nil {
		t.Fatal("killed sweep wrote its combined results")
	}
	out := wfRun(t, bin, nil, "sweep", wfCISpec, "--jobs", "2", "--out", killed, "--resume")
	if !strings.Contains(out, "already done") {
		t.Fatalf("resume output: %s", out)
	}
	wfSameResults(t, full, killed)
	rows, err := output.ReadResults(killed)
	if err != nil {
		t.Fatal(err)
	}
	seen := map[[2]uint64]bool{}
	for _, r := range rows {
		k := [2]uint64{uint64(r.Point), r.Seed}
		if seen[k] {
			t.Fatalf("point %d seed %d twice", r.Point, r.Seed)
		}
		seen[k] = true
	}
	if len(rows) != 12 {
		t.Fatalf("%d rows, want 12", len(rows))
	}
}

// Shards (given by flag, by Slurm variables and by Kubernetes variables) merged equal the
// unsharded sweep; --jobs does not change results.
func TestSweepShardsAndJobs(t *testing.T) {
	bin := wfBuild(t, "")
	root := t.TempDir()
	one := filepath.Join(root, "jobs1")
	two := filepath.Join(root, "jobs2")
	wfRun(t, bin, nil, "sweep", wfCISpec, "--jobs", "1", "--out", one)
	out := wfRun(t, bin, nil, "sweep", wfCISpec, "--jobs", "2", "--out", two, "--plot", "--report")
	wfSameResults(t, one, two)
	if !strings.Contains(out, "report → "+filepath.Join(two, "report.html")) {
		t.Errorf("sweep --report output:\n%s", out)
	}
	// One figure per metric against each swept parameter other than the policy.
	if pngs, _ := filepath.Glob(filepath.Join(two, "plots", "*-vs-mysql.innodb_buffer_pool_size.png")); len(pngs) < 3 {
		t.Errorf("sweep --plot: %d metric-vs-pool-size figures", len(pngs))
	}
	reportEmbedsPlots(t, two)

	s0, s1, s2 := filepath.Join(root, "s0"), filepath.Join(root, "s1"), filepath.Join(root, "s2")
	wfRun(t, bin, nil, "sweep", wfCISpec, "--shard", "0/3", "--out", s0)
	wfRun(t, bin, []string{"SLURM_ARRAY_TASK_ID=2", "SLURM_ARRAY_TASK_COUNT=3", "SLURM_ARRAY_TASK_MIN=1"}, "sweep", wfCISpec, "--out", s1)
	wfRun(t, bin, []string{"JOB_COMPLETION_INDEX=2", "DDLSIM_SHARD_COUNT=3"}, "sweep", wfCISpec, "--out", s2)
	merged := filepath.Join(root, "merged")
	wfRun(t, bin, nil, "merge", s0, s1, s2, "--out", merged, "--report")
	wfSameResults(t, one, merged)
	if _, err := os.Stat(filepath.Join(merged, "report.html")); err != nil {
		t.Fatal(err)
	}

	// Two copies of one shard: refused, naming the duplicates and the missing points.
	cmd := exec.Command(bin, "merge", s0, s0, "--out", filepath.Join(root, "bad"))
	bad, err := cmd.CombinedOutput()
	if err == nil || !strings.Contains(string(bad), "is in both") || !strings.Contains(string(bad), "missing") {
		t.Fatalf("bad merge: %v\n%s", err, bad)
	}
}

func TestCompareAndPlot(t *testing.T) {
	bin := wfBuild(t, "")
	root := t.TempDir()
	var outs []string
	for _, jobs := range []string{"1", "2"} {
		dir := filepath.Join(root, "c"+jobs)
		args := []string{"compare", small, "--policies", "fullscan,{name: indexed},lazy",
			"--seeds", "3", "--jobs", jobs, "--out", dir}
		if jobs == "2" {
			args = append(args, "--plot", "--report")
		}
		out := wfRun(t, bin, nil, args...)
		if !strings.Contains(out, "fullscan") || !strings.Contains(out, "{name: indexed}") || !strings.Contains(out, "±") {
			t.Fatalf("compare table:\n%s", out)
		}
		outs = append(outs, out[strings.Index(out, "metric"):strings.Index(out, "mean ±")])
	}
	if outs[0] != outs[1] {
		t.Fatalf("compare table depends on --jobs:\n%s\n%s", outs[0], outs[1])
	}
	wfSameResults(t, filepath.Join(root, "c1"), filepath.Join(root, "c2"))
	// compare --plot --report: the policies' throughput overlaid and a figure per key metric,
	// all embedded in the report.
	c2 := filepath.Join(root, "c2")
	for _, f := range []string{"plots/throughput.png", "plots/throughput.svg", "report.html"} {
		if _, err := os.Stat(filepath.Join(c2, f)); err != nil {
			t.Error(err)
		}
	}
	if pngs, _ := filepath.Glob(filepath.Join(c2, "plots", "*.png")); len(pngs) < 3 {
		t.Errorf("compare --plot: %d figures", len(pngs))
	}
	reportEmbedsPlots(t, c2)
	out := wfRun(t, bin, nil, "plot", filepath.Join(root, "c1"), "--report")
	if !strings.Contains(out, "report →") {
		t.Fatal(out)
	}
	for _, f := range []string{"plots/throughput.png", "plots/throughput.svg", "report.html"} {
		if _, err := os.Stat(filepath.Join(root, "c1", f)); err != nil {
			t.Error(err)
		}
	}
}

func TestSplitPolicies(t *testing.T) {
	got := splitPolicies("fullscan, {name: indexed, batch: 256},lazy")
	if len(got) != 3 || got[1] != "{name: indexed, batch: 256}" {
		t.Fatalf("%q", got)
	}
}
