package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/workload/workloadtest"
)

// Issue 28: every command guards its inputs and its --out as run does. Each refusal here
// must come before any simulation: exit 2, the file (and line) to fix, in under a second and
// 100 MB — the scenarios run for 10^5 simulated seconds, so refusing after simulating would
// take minutes.

const (
	guardTime  = time.Second
	guardBytes = 100 << 20
)

// refuseNow is refuse with issue 28's budget, and nothing simulated before the refusal.
func refuseNow(t *testing.T, args []string, want ...string) string {
	t.Helper()
	stdout, stderr := refuseWithin(t, guardTime, guardBytes, args, want...)
	if strings.Contains(stdout, "[ 1s ]") {
		t.Errorf("%v: simulated before refusing:\n%s", args, stdout)
	}
	return stderr
}

// longScenario is testdata/small.yaml's shape; callers --set duration=100000s.
func longScenario(t *testing.T, dir string) string {
	return scenarioFile(t, dir, "policy: fullscan\n")
}

// mountTmpfs mounts a tmpfs on dir (opts: "ro" for a read-only one), or skips the test.
func mountTmpfs(t *testing.T, dir, opts string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	args := []string{"-t", "tmpfs", "-o", "size=1m"}
	if opts != "" {
		args[3] += "," + opts
	}
	if out, err := exec.Command("mount", append(args, "tmpfs", dir)...).CombinedOutput(); err != nil {
		t.Skipf("cannot mount a tmpfs here (needs root or CAP_SYS_ADMIN): %v %s", err, out)
	}
	t.Cleanup(func() { exec.Command("umount", dir).Run() })
}

// "run --out DIR where DIR is a mount point simulates to the end and then fails with rename
// … device or resource busy": refused before the run, writable or read-only.
func TestOutMountPointRefusedBeforeRun(t *testing.T) {
	dir := t.TempDir()
	sc := longScenario(t, dir)
	for _, opts := range []string{"", "ro"} {
		m := filepath.Join(dir, "mnt-"+opts)
		mountTmpfs(t, m, opts)
		refuseNow(t, []string{"run", sc, "--set", "duration=100000s", "--out", m}, "--out: "+m+" is a mount point", filepath.Join(m, "result"))
	}
	// Inside the mount point is fine (and is what the message suggests).
	m := filepath.Join(dir, "mnt-")
	if _, stderr, code := ddlsim(t, "run", sc, "--quiet", "--out", filepath.Join(m, "result")); code != 0 {
		t.Fatalf("run into a directory inside a mount point: exit %d\n%s", code, stderr)
	}
	if _, err := os.Stat(filepath.Join(m, "result", "summary.json")); err != nil {
		t.Error(err)
	}
}

// startSweep starts bin with args and returns the command and its stderr.
func startSweep(t *testing.T, bin string, args ...string) (*exec.Cmd, *lockedBuffer) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Env = wfCleanEnv()
	errb := &lockedBuffer{}
	cmd.Stderr = errb
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cmd.Process.Kill() })
	return cmd, errb
}

// interrupt sends SIGINT to cmd and returns how long it took to exit.
func interrupt(t *testing.T, cmd *exec.Cmd) time.Duration {
	t.Helper()
	start := time.Now()
	cmd.Process.Signal(os.Interrupt)
	done := make(chan struct{})
	go func() { cmd.Wait(); close(done) }()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		t.Fatal("still running 30 s after SIGINT")
	}
	return time.Since(start)
}

// "sweep ignores SIGINT (twice) while its in-flight runs last hours": the first SIGINT stops
// runs that are mid-simulation (10^5 simulated seconds each) within 2 s, leaving no point and
// no partial output.
func TestSweepSIGINTStopsLongRuns(t *testing.T) {
	bin := wfBuild(t, "")
	dir := t.TempDir()
	sc := longScenario(t, dir)
	spec := filepath.Join(dir, "long.yaml")
	os.WriteFile(spec, []byte("name: long\nbase: "+sc+"\nseeds: 2\naxes:\n  - grid:\n      policy: [fullscan, lazy, indexed]\n"), 0o644)
	out := filepath.Join(dir, "out")
	cmd, errb := startSweep(t, bin, "sweep", spec, "--set", "duration=100000s", "--jobs", "2", "--series", "--out", out)
	time.Sleep(1500 * time.Millisecond) // planned, and both runs simulating
	took := interrupt(t, cmd)
	if took > 2*time.Second {
		t.Errorf("exited %s after SIGINT, want < 2 s", took)
	}
	stderr := errb.String()
	for _, want := range []string{"stopping the runs in flight", "interrupted after 0 runs; finish with the same command and --resume"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if cmd.ProcessState.ExitCode() == 0 {
		t.Error("an interrupted sweep exited 0")
	}
	for _, sub := range []string{output.PointsDir, output.SeriesDir} {
		if ents, _ := os.ReadDir(filepath.Join(out, sub)); len(ents) > 0 {
			t.Errorf("%s holds %d files after the interrupt", sub, len(ents))
		}
	}
	t.Logf("SIGINT → exit in %s", took.Round(time.Millisecond))
}

// An interrupted sweep finishes with --resume into exactly the files of an uninterrupted one
// (wall times aside): the runs in flight at the interrupt — slowed down by the test delay,
// which the signal interrupts like a run — and the series of their unfinished points are
// gone, and run again.
func TestSweepSIGINTResumeIdentical(t *testing.T) {
	root := t.TempDir()
	full := filepath.Join(root, "full")
	wfRun(t, wfBuild(t, ""), nil, "sweep", wfCISpec, "--jobs", "2", "--series", "--out", full)

	part := filepath.Join(root, "part")
	// 3 workers, 1 s a run: at ~1 s point 0 (2 seeds) and point 1's first seed are done, and
	// point 1's second seed and point 2 are in flight.
	cmd, errb := startSweep(t, wfBuild(t, "1s"), "sweep", wfCISpec, "--jobs", "3", "--series", "--out", part)
	deadline := time.Now().Add(30 * time.Second)
	for {
		if pts, _ := filepath.Glob(filepath.Join(part, output.PointsDir, "p*.jsonl")); len(pts) >= 1 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("no point finished")
		}
		time.Sleep(5 * time.Millisecond)
	}
	time.Sleep(200 * time.Millisecond)
	if took := interrupt(t, cmd); took > 2*time.Second {
		t.Errorf("exited %s after SIGINT, want < 2 s", took)
	}
	pts, _ := filepath.Glob(filepath.Join(part, output.PointsDir, "p*.jsonl"))
	series, _ := filepath.Glob(filepath.Join(part, output.SeriesDir, "*.csv"))
	if len(pts) == 0 || len(pts) >= 6 || len(series) != 2*len(pts) {
		t.Fatalf("after the interrupt: %d points, %d series (want 1-5 points, 2 series each: no partial point's)\n%s", len(pts), len(series), errb.String())
	}
	out := wfRun(t, wfBuild(t, ""), nil, "sweep", wfCISpec, "--jobs", "3", "--series", "--out", part, "--resume")
	if !strings.Contains(out, fmt.Sprintf("(%d run now, %d already done)", 6-len(pts), len(pts))) {
		t.Errorf("resume: %s", out)
	}
	for _, f := range []string{output.JSONLFile, output.CSVFile} {
		a, _ := os.ReadFile(filepath.Join(full, f))
		b, _ := os.ReadFile(filepath.Join(part, f))
		if output.StripWallTime(string(a), strings.HasSuffix(f, ".csv")) != output.StripWallTime(string(b), strings.HasSuffix(f, ".csv")) {
			t.Errorf("%s differs between the uninterrupted and the resumed sweep", f)
		}
	}
	fs, _ := filepath.Glob(filepath.Join(full, output.SeriesDir, "*.csv"))
	for _, f := range fs {
		a, _ := os.ReadFile(f)
		b, err := os.ReadFile(filepath.Join(part, output.SeriesDir, filepath.Base(f)))
		if err != nil || !bytes.Equal(a, b) {
			t.Errorf("series %s differs (%v)", filepath.Base(f), err)
		}
	}
	if len(fs) != 12 {
		t.Errorf("%d series, want 12", len(fs))
	}
}

// lockedBuffer is a bytes.Buffer a subprocess's output is copied into while the test reads it.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// The first SIGINT cancels, the second exits at once (with 130, as a shell reports SIGINT).
func TestSecondSignalExitsAtOnce(t *testing.T) {
	exited := make(chan int, 1)
	exitNow = func(code int) { exited <- code }
	defer func() { exitNow = os.Exit }()
	var errb lockedBuffer
	ctx, stop := interruptible(&errb)
	defer stop()
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case <-ctx.Done():
	case <-time.After(5 * time.Second):
		t.Fatal("the first SIGINT did not cancel")
	}
	select {
	case code := <-exited:
		t.Fatalf("exited (%d) on the first signal", code)
	case <-time.After(50 * time.Millisecond):
	}
	syscall.Kill(os.Getpid(), syscall.SIGINT)
	select {
	case code := <-exited:
		if code != 130 {
			t.Errorf("exit %d, want 130", code)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the second SIGINT did not exit")
	}
	if s := errb.String(); !strings.Contains(s, "again exits at once") || !strings.Contains(s, "again: exiting now") {
		t.Errorf("stderr: %s", s)
	}
}

// "run prints its first progress line after 111 s instead of every 30 s": the lines keep their
// 30 s cadence from the start even while the simulator reports nothing (building and warming
// a large pool).
func TestProgressCadenceWithoutUpdates(t *testing.T) {
	var errb lockedBuffer
	var mu sync.Mutex
	now := time.Unix(0, 0)
	clock := func() time.Time { mu.Lock(); defer mu.Unlock(); return now }
	ticks := make(chan time.Time)
	e := &env{stderr: &errb, now: clock, tick: func() (<-chan time.Time, func()) { return ticks, func() {} }}
	p := newProgress(e)
	p.run(100e9)
	defer p.stop()
	for s := 1; s <= 61; s++ {
		mu.Lock()
		now = now.Add(time.Second)
		mu.Unlock()
		ticks <- now
	}
	ticks <- now // the tick after 61 s has been handled
	want := "progress:   0%  0s/100s virtual  30s wall\nprogress:   0%  0s/100s virtual  1m0s wall\n"
	if got := errb.String(); got != want {
		t.Errorf("lines:\n%q\nwant\n%q", got, want)
	}
	p.update(50e9, 100e9)
	for s := 1; s <= 30; s++ {
		mu.Lock()
		now = now.Add(time.Second)
		mu.Unlock()
		ticks <- now
	}
	ticks <- now
	if got := errb.String(); !strings.HasSuffix(got, "progress:  50%  50s/100s virtual  1m30s wall\n") || strings.Count(got, "\n") != 3 {
		t.Errorf("after an update:\n%s", got)
	}
}

// runDirFor writes a run directory of the small scenario (20 intervals) and returns it.
func runDirFor(t *testing.T, dir string) string {
	t.Helper()
	sc := longScenario(t, dir)
	out := filepath.Join(dir, "run")
	if _, stderr, code := ddlsim(t, "run", sc, "--quiet", "--set", "duration=20s", "--out", out); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return out
}

// "plot RUNDIR with half a series.csv exits 0 and silently draws 9 of 20 intervals": a
// series cut short is refused at its file and line, or drawn with an explicit warning under
// --partial — whether it was cut inside a line or at a line boundary.
func TestPlotTruncatedSeries(t *testing.T) {
	dir := t.TempDir()
	out := runDirFor(t, dir)
	series := filepath.Join(out, output.SeriesFile)
	b, _ := os.ReadFile(series)
	lines := strings.SplitAfter(string(b), "\n")
	if len(lines) != 22 { // header, 20 rows, ""
		t.Fatalf("series.csv has %d lines", len(lines))
	}
	// Cut inside line 11 (the 10th interval): 9 complete intervals.
	cut := strings.Join(lines[:10], "") + lines[10][:len(lines[10])/2]
	os.WriteFile(series, []byte(cut), 0o644)
	refuseNow(t, []string{"plot", out}, series+":11: truncated: holds 9 of the run's 20 intervals; line 11 is cut short", "--partial")
	stdout, stderr, code := ddlsim(t, "plot", "--partial", out)
	if code != 0 || !strings.Contains(stderr, "warning: "+series+": partial: 9 of 20 intervals, cut at line 11") || !strings.Contains(stdout, "figures") {
		t.Errorf("plot --partial: exit %d\n%s%s", code, stdout, stderr)
	}
	// Cut at a line boundary: only summary.json's interval count tells.
	os.WriteFile(series, []byte(strings.Join(lines[:10], "")), 0o644)
	refuseNow(t, []string{"plot", out}, series+": truncated: holds 9 of the run's 20 intervals")
}

// "ddlsim plot on a results directory of the older schema exits 1 and names no file (so do
// merge and --resume on it); plot --report on a truncated results.jsonl exits 1 with a line
// number but no file".
func TestResultsDirectoryChecked(t *testing.T) {
	root := t.TempDir()
	full := filepath.Join(root, "full")
	if _, stderr, code := ddlsim(t, "sweep", wfCISpec, "--jobs", "2", "--out", full); code != 0 {
		t.Fatalf("sweep: exit %d\n%s", code, stderr)
	}
	// A truncated results.jsonl: the file and the line.
	jsonl := filepath.Join(full, output.JSONLFile)
	b, _ := os.ReadFile(jsonl)
	good := append([]byte(nil), b...)
	os.WriteFile(jsonl, b[:len(b)-40], 0o644)
	refuseNow(t, []string{"plot", "--report", full}, jsonl+":12: truncated: the file ends inside line 12")
	os.WriteFile(jsonl, good, 0o644)

	// An older schema: refused by plot, merge and --resume, naming the manifest and the
	// command that re-creates the directory.
	man := filepath.Join(full, output.ManifestFile)
	mb, _ := os.ReadFile(man)
	os.WriteFile(man, bytes.Replace(mb, []byte(`"schema_version": 2`), []byte(`"schema_version": 1`), 1), 0o644)
	for _, args := range [][]string{
		{"plot", full},
		{"merge", "--out", filepath.Join(root, "merged"), full},
		{"sweep", wfCISpec, "--resume", "--out", full},
	} {
		refuseNow(t, args, man+": schema_version 1, this ddlsim reads 2", "re-create it with: ddlsim sweep")
	}
	// A run directory of the older schema.
	out := runDirFor(t, root)
	sum := filepath.Join(out, output.SummaryFile)
	sb, _ := os.ReadFile(sum)
	os.WriteFile(sum, bytes.Replace(sb, []byte(`"schema_version": 2`), []byte(`"schema_version": 1`), 1), 0o644)
	refuseNow(t, []string{"plot", out}, sum+": schema_version 1, this ddlsim reads 2", "re-create it with: ddlsim run --seed 42")
	// Not a result, and a device where a result file belongs.
	refuseNow(t, []string{"plot", root}, root+": not a ddlsim result")
	os.Remove(jsonl)
	if err := os.Symlink("/dev/zero", jsonl); err != nil {
		t.Fatal(err)
	}
	os.WriteFile(man, mb, 0o644)
	refuseNow(t, []string{"plot", full}, jsonl, "not a regular file (a device)")
}

// "with TMPDIR unwritable a crash loses its stack but still says 'report it with that
// file'": the report goes to stderr instead.
func TestCrashWithoutWritableTmpdir(t *testing.T) {
	workloadtest.Install()
	dir := t.TempDir()
	old := crashDir
	crashDir = func() string { return filepath.Join(dir, "no-such-dir") }
	defer func() { crashDir = old }()
	f := scenarioFile(t, dir, "  - test_panic: {}\n")
	_, stderr, code := ddlsim(t, "run", "--quiet", "--seed", "9", f)
	if code != 1 {
		t.Fatalf("exit %d, want 1:\n%s", code, stderr)
	}
	for _, want := range []string{"the crash report could not be written", "stack:", "goroutine ", "workloadtest/panic.go:", "please report it with the text above"} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "with that file") {
		t.Errorf("points to a file that was not written:\n%s", stderr)
	}
}

// Item 6 of issue 28: an old profile's renamed cost gets its replacements, a base: cycle is
// the only message, and row_size: 0 is refused like row_size: 3.
func TestRenamedCycleAndZeroRow(t *testing.T) {
	dir := t.TempDir()
	sc := longScenario(t, dir)
	old := filepath.Join(dir, "old.yaml")
	os.WriteFile(old, []byte("base: 8c-64g\nname: old\ncosts:\n  ahi_drop: 1us\n"), 0o644)
	refuseNow(t, []string{"check", sc, "--set", "hardware=" + old}, old+":4:3: hardware.costs.ahi_drop: renamed; use ahi_fold, ahi_node, block_scan")
	refuseNow(t, []string{"check", sc, "--set", "hardware.costs.ahi_drop=1us"}, "ahi_drop: renamed; use ahi_fold, ahi_node, block_scan")

	a, b := filepath.Join(dir, "a.yaml"), filepath.Join(dir, "b.yaml")
	os.WriteFile(a, []byte("base: b.yaml\nname: a\n"), 0o644)
	os.WriteFile(b, []byte("base: a.yaml\nname: b\n"), 0o644)
	stderr := refuseNow(t, []string{"check", sc, "--set", "hardware=" + a}, "base: references form a cycle: "+a+" → "+b+" → "+a)
	if lines := strings.Split(strings.TrimSpace(stderr), "\n"); len(lines) != 1 {
		t.Errorf("a base: cycle is not the only message:\n%s", stderr)
	}
	for _, v := range []string{"0", "3"} {
		refuseNow(t, []string{"check", sc, "--set", "data[0].row_size=" + v}, `data[0].row_size: bad value "`+v+`": expected a value from 4`)
	}
}

// "validate --run on a validation file with missing fields, an unknown --set path in a point,
// or an unknown stat exits 1, the last only after simulating every point": exit 2, every
// problem at its line, nothing simulated or written.
func TestValidateRefusesBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	longScenario(t, dir)
	v := filepath.Join(dir, "v.yaml")
	os.WriteFile(v, []byte(`scenario: scenario.yaml
validation:
  table: t
  points:
    - label: a
      set: ["duration=100000s", "mysql.innodb_buffer_pool_sise=1GiB"]
      role: check
      compare:
        - {stat: tps_men, measured: 1, source: x}
`), 0o644)
	out := filepath.Join(dir, "out")
	stderr := refuseNow(t, []string{"validate", "--run", "--root", dir, "--annotations", dir, "--out", out, v},
		v+":6:33: validation.points[0].set[1]", "innodb_buffer_pool_sise",
		v+":9:18: validation.points[0].compare[0].stat: bad value \"tps_men\"", "did you mean tps_mean?")
	if strings.Contains(stderr, "validate: ") {
		t.Errorf("started before the check:\n%s", stderr)
	}
	if ents, _ := os.ReadDir(out); len(ents) > 0 {
		t.Errorf("wrote %d files into --out", len(ents))
	}
}
