package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
)

// The mistakes of issue 17's "Why", each reproduced as a user would make it: every one must
// end with a clear message and exit status 2 (or a warning and 0 where the setting is legal),
// never a panic, within a few seconds and a few hundred MB.

// refusalBudget is what saying no may cost.
const (
	refusalTime  = 10 * time.Second // "a few seconds", with room for a loaded CI machine
	refusalBytes = 300 << 20        // allocated by the whole command, a bound on its peak
)

// profile is the shipped 8c-64g profile, absolute, for scenarios written to temp dirs.
func profile(t *testing.T) string {
	p, err := filepath.Abs("../../scenarios/profiles/8c-64g.yaml")
	if err != nil {
		t.Fatal(err)
	}
	return p
}

// scenarioFile writes a small scenario (the shape of testdata/small.yaml) with extra YAML
// lines appended (later keys must not repeat earlier ones) to dir and returns its path.
func scenarioFile(t *testing.T, dir, body string) string {
	t.Helper()
	if body == "" {
		body = `policy: fullscan
schedule:
  - {at: 2s, ddl: create_index, table: big, columns: [c]}
`
	}
	y := fmt.Sprintf(`name: mistake
seed: 42
hardware: %s
mysql:
  innodb_buffer_pool_size: 512MiB
data:
  - {name: sbtest, tables: 2, rows: 50K}
  - {name: big, tables: 1, size: 40MB}
warmup: 1s
duration: 6s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sbtest, rand: special}
%s`, profile(t), body)
	p := filepath.Join(dir, "scenario.yaml")
	if err := os.WriteFile(p, []byte(y), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// lineOf is the 1-based line of file on which substr first appears.
func lineOf(t *testing.T, file, substr string) int {
	b, _ := os.ReadFile(file)
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, substr) {
			return i + 1
		}
	}
	t.Fatalf("%s has no %q", file, substr)
	return 0
}

func execCommand(bin string, args ...string) *exec.Cmd {
	cmd := exec.Command(bin, args...)
	cmd.Env = wfCleanEnv()
	return cmd
}

// refuse runs the command and checks it says no: exit 2, every want in stderr, within the
// budget.
func refuse(t *testing.T, args []string, want ...string) string {
	t.Helper()
	_, stderr := refuseWithin(t, refusalTime, refusalBytes, args, want...)
	return stderr
}

// refuseWithin is refuse within the given wall time and allocation; it returns stdout and stderr.
func refuseWithin(t *testing.T, limit time.Duration, limitBytes uint64, args []string, want ...string) (string, string) {
	t.Helper()
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	stdout, stderr, code := ddlsim(t, args...)
	took := time.Since(start)
	runtime.ReadMemStats(&m1)
	if code != 2 {
		t.Errorf("%v: exit %d, want 2\nstdout %s\nstderr %s", args, code, stdout, stderr)
	}
	for _, w := range want {
		if !strings.Contains(stderr, w) {
			t.Errorf("%v: stderr lacks %q:\n%s", args, w, stderr)
		}
	}
	if strings.Contains(stderr, "goroutine ") || strings.Contains(stderr, "panic") {
		t.Errorf("%v: a panic:\n%s", args, stderr)
	}
	if took > limit {
		t.Errorf("%v: took %s to refuse", args, took)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > limitBytes {
		t.Errorf("%v: allocated %d MiB to refuse", args, alloc>>20)
	}
	t.Logf("%v: exit 2 in %s, %d MiB allocated", args[:min(len(args), 4)], took.Round(time.Millisecond), (m1.TotalAlloc-m0.TotalAlloc)>>20)
	return stdout, stderr
}

// "check says ok, then run panics with more than 16M pending events when the run is long or
// the report interval tiny": the interval count is a limit, judged by check and run alike
// (and the sampler no longer books intervals ahead: runner's TestSamplerIsOneEvent).
func TestMistakeTinyReportInterval(t *testing.T) {
	for _, cmd := range []string{"check", "run"} {
		refuse(t, []string{cmd, small, "--set", "report.interval=1us", "--set", "duration=100s"},
			"report.interval", "100,000,000 report intervals", "the limit is 1,000,000 intervals", "docs/limits.md")
	}
}

// "a pool instance of 2^28 frames or more panics in bufpool".
func TestMistakePoolInstanceTooLarge(t *testing.T) {
	for _, cmd := range []string{"check", "run"} {
		refuse(t, []string{cmd, small, "--set", "hardware.memory=8TiB", "--set", "mysql.innodb_buffer_pool_size=4TiB", "--set", "mysql.innodb_buffer_pool_instances=1"},
			"mysql.innodb_buffer_pool_size", "268,435,456 frames per buffer-pool instance", "innodb_buffer_pool_instances")
	}
}

// "a very long warm-up, or a million client threads, runs on for minutes and gigabytes after
// check said ok": a million threads is over MySQL's max_connections; a run whose memory
// estimate exceeds the machine (or --max-memory) is refused with the estimate; a long
// warm-up is priced by check (and keeps no latencies: runner's TestWarmupKeepsNoLatencies).
func TestMistakeHugeLoad(t *testing.T) {
	refuse(t, []string{"check", small, "--set", "workload[0].sysbench.threads=1000000"},
		"workload[0].sysbench.threads", "1,000,000 client threads", "max_connections")
	refuse(t, []string{"run", small, "--set", "workload[0].sysbench.threads=100000", "--max-memory", "200MiB"},
		"refusing to run", "memory estimate", "threads (100000 clients")
	if total := machineMemory(); total > 0 {
		// 64 bytes of frame state per 16 KiB page: a pool 300× the machine's memory needs
		// more than all of it.
		big := fmt.Sprintf("%dGiB", 300*(total>>30)+64)
		refuse(t, []string{"run", small, "--set", "hardware.memory=64TiB", "--set", "mysql.innodb_buffer_pool_size=" + big, "--set", "mysql.innodb_buffer_pool_instances=64"},
			"refusing to run", "this machine's memory", "buffer pool")
	}
	stdout, _, code := ddlsim(t, "check", small, "--set", "warmup=100000s")
	if code != 0 || !strings.Contains(stdout, "billion events") || !regexp.MustCompile(` (min|h|days) of simulator CPU`).MatchString(stdout) {
		t.Errorf("a 100000 s warm-up: exit %d, check should price it in billions of events and minutes or more:\n%s", code, stdout)
	}
}

// "inputs are read with no size limit: --set hardware=/dev/zero or a profile pointing at a
// device file exhausts memory; a 50 MB scenario file takes over a minute and 2 GB".
func TestMistakeUntrustedInputs(t *testing.T) {
	dir := t.TempDir()
	refuse(t, []string{"check", small, "--set", "hardware=/dev/zero"}, "/dev/zero", "not a regular file")
	withDevice := scenarioFile(t, dir, "")
	b, _ := os.ReadFile(withDevice)
	os.WriteFile(withDevice, []byte(strings.Replace(string(b), "hardware: "+profile(t), "hardware: /dev/urandom", 1)), 0o644)
	refuse(t, []string{"run", withDevice}, "/dev/urandom", "not a regular file")

	huge := filepath.Join(dir, "huge.yaml")
	var buf strings.Builder
	buf.WriteString("name: huge\n")
	for buf.Len() < 50<<20 {
		buf.WriteString("# a comment line that pads the scenario out to fifty megabytes of text.........\n")
	}
	os.WriteFile(huge, []byte(buf.String()), 0o644)
	refuse(t, []string{"check", huge}, "huge.yaml", "input file too large", "1MiB")

	fifo := filepath.Join(dir, "fifo.yaml")
	if err := syscall.Mkfifo(fifo, 0o644); err != nil {
		t.Fatal(err)
	}
	refuse(t, []string{"check", fifo}, "named pipe")
	refuse(t, []string{"run", dir}, "a directory")
}

// "a sweep spec of 10^9 points or 10^9 seeds allocates until it dies".
func TestMistakeHugeSweep(t *testing.T) {
	dir := t.TempDir()
	base := scenarioFile(t, dir, "")
	vals := make([]string, 1000)
	for i := range vals {
		vals[i] = fmt.Sprint(i + 1)
	}
	list := "[" + strings.Join(vals, ", ") + "]"
	points := filepath.Join(dir, "points.sweep.yaml")
	os.WriteFile(points, []byte(fmt.Sprintf("base: %s\naxes:\n  - grid:\n      hardware.cores: %s\n      mysql.innodb_io_capacity: %s\n      workload[0].sysbench.threads: %s\n",
		base, list, list, list)), 0o644)
	for _, cmd := range []string{"check", "sweep"} {
		refuse(t, []string{cmd, points, "--out", filepath.Join(dir, "o1")}[:map[string]int{"check": 2, "sweep": 4}[cmd]],
			"1,000,000,000 points", "the limit is 100,000 points")
	}
	seeds := filepath.Join(dir, "seeds.sweep.yaml")
	os.WriteFile(seeds, []byte(fmt.Sprintf("base: %s\nseeds: 1000000000\naxes:\n  - grid:\n      policy: [fullscan, lazy]\n", base)), 0o644)
	for _, cmd := range []string{"check", "sweep"} {
		refuse(t, []string{cmd, seeds, "--out", filepath.Join(dir, "o2")}[:map[string]int{"check": 2, "sweep": 4}[cmd]],
			"seeds.sweep.yaml:2", "2,000,000,000 runs", "the limit is 1,000,000 runs")
	}
	refuse(t, []string{"compare", base, "--seeds", "1000000000", "--out", filepath.Join(dir, "o3")}, "--seeds", "runs")
}

// "policy parameters (batch: lots, batch: -1, an unknown parameter) pass check, then fail at
// run time with exit 1 and no line number — and in one case exit 0".
func TestMistakePolicyParameters(t *testing.T) {
	for _, c := range []struct{ policy, want string }{
		{"{name: indexed, batch: lots}", `policy.batch: bad value "lots": expected an integer`},
		{"{name: indexed, batch: -1}", `policy.batch: bad value "-1": expected a value from 1 to 1048576`},
		{"{name: indexed, batchsize: 64}", "policy.batchsize: unknown field (did you mean batch?)"},
		{"{name: fullscan, restart: maybe}", `policy.restart: bad value "maybe"`},
	} {
		dir := t.TempDir()
		f := scenarioFile(t, dir, "policy: "+c.policy+"\n")
		for _, cmd := range []string{"check", "run", "compare"} {
			args := []string{cmd, f}
			if cmd == "compare" {
				args = append(args, "--seeds", "1", "--out", filepath.Join(dir, "cmp"))
			}
			refuse(t, args, fmt.Sprintf("%s:%d:", f, lineOf(t, f, "policy:")), c.want) // file:line:col of the policy line
		}
		refuse(t, []string{"compare", small, "--seeds", "1", "--policies", "lazy," + c.policy, "--out", filepath.Join(dir, "cmp2")}, c.want)
	}
}

// "physically impossible setups are accepted silently: a table above InnoDB's 64 TiB
// tablespace limit, bandwidth: 350 (bytes/s) without a warning, a DDL every: 1ns".
func TestMistakeImpossibleSetups(t *testing.T) {
	refuse(t, []string{"check", small, "--set", "data[1].size=70TiB"}, "data[1].size", "tablespace", "64.0 TiB")
	refuse(t, []string{"check", small, "--set", "data[0].rows=400B"}, "data[0].rows", "pages", "the limit is 4,294,967,295 pages")
	refuse(t, []string{"check", small, "--set", "schedule[0].every=1ns"}, "schedule[0].every", "DDL statements", "the limit is 100,000 statements")

	// Legal but absurd: a warning, named, once, and the check still passes.
	stdout, stderr, code := ddlsim(t, "check", small, "--set", "hardware.storage.data.bandwidth=350", "--set", "schedule[0].every=1ns", "--set", "schedule[0].count=3")
	if code != 0 || !strings.HasPrefix(stdout, "ok: ") {
		t.Errorf("exit %d\n%s%s", code, stdout, stderr)
	}
	for _, w := range []string{
		`warning: hardware.storage.data.bandwidth: "350": 350 bytes per second is under 1 MB/s`,
		"did you mean 350MB?",
		`warning: schedule[0].every: "1ns": 1ns between statements is under 1ms`,
	} {
		if strings.Count(stderr, w) != 1 {
			t.Errorf("stderr should say %q once:\n%s", w, stderr)
		}
	}

	// A DDL on a table an earlier DDL dropped.
	f := scenarioFile(t, t.TempDir(), `schedule:
  - {at: 1s, ddl: drop_table, table: big}
  - {at: 3s, ddl: create_index, table: big, columns: [c]}
`)
	_, stderr, code = ddlsim(t, "check", f)
	if want := "warning: schedule[1].table"; code != 0 || !strings.Contains(stderr, want) || !strings.Contains(stderr, "ER_NO_SUCH_TABLE") {
		t.Errorf("exit %d, want a warning %q naming ER_NO_SUCH_TABLE:\n%s", code, want, stderr)
	}
	if !strings.Contains(stderr, fmt.Sprintf("%s:%d:", f, lineOf(t, f, "create_index"))) {
		t.Errorf("the warning is not at the entry's line:\n%s", stderr)
	}
}

// "naming a text file that is not a profile prints the whole file inside the error".
func TestMistakeForeignFileExcerpt(t *testing.T) {
	dir := t.TempDir()
	notes := filepath.Join(dir, "notes.txt")
	os.WriteFile(notes, []byte(strings.Repeat("Meeting notes - the quarterly review moved to Thursday afternoon. ", 500)), 0o644)
	stderr := refuse(t, []string{"check", small, "--set", "hardware=" + notes}, "notes.txt", "…", "bytes)")
	if len(stderr) > 600 {
		t.Errorf("%d bytes of error for a foreign file:\n%s", len(stderr), stderr)
	}
	lines := filepath.Join(dir, "lines.txt")
	os.WriteFile(lines, []byte(strings.Repeat("key: value with a very long line "+strings.Repeat("x", 5000)+"\n", 3)), 0o644)
	if stderr := refuse(t, []string{"check", lines}); len(stderr) > 2000 {
		t.Errorf("%d bytes of error for a file of long lines:\n%s", len(stderr), stderr)
	}
}

// "run --out on an unwritable place simulates the whole run first and then exits 1".
func TestMistakeUnwritableOut(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "a-file")
	os.WriteFile(file, nil, 0o644)
	start := time.Now()
	stdout, stderr, code := ddlsim(t, "run", small, "--out", filepath.Join(file, "result"))
	if code != 2 || !strings.Contains(stderr, "--out") {
		t.Errorf("exit %d: %s", code, stderr)
	}
	if stdout != "" {
		t.Errorf("it simulated before refusing (%s):\n%s", time.Since(start), stdout)
	}
	for _, cmd := range []string{"compare", "sweep"} {
		target := small
		args := []string{cmd, target, "--out", filepath.Join(file, cmd)}
		if cmd == "sweep" {
			args[1] = "../../scenarios/sweeps/ci-small.yaml"
		} else {
			args = append(args, "--seeds", "1", "--policies", "fullscan")
		}
		_, stderr, code := ddlsim(t, args...)
		if code != 2 || !strings.Contains(stderr, "results directory") {
			t.Errorf("%s into an unwritable --out: exit %d: %s", cmd, code, stderr)
		}
	}
}

// "refusals ("already holds points", "different spec") exit 1 instead of 2".
func TestMistakeRefusalsExit2(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "cmp")
	if _, stderr, code := ddlsim(t, "compare", small, "--seeds", "1", "--policies", "fullscan", "--out", dir); code != 0 {
		t.Fatalf("first compare: exit %d: %s", code, stderr)
	}
	refuse(t, []string{"compare", small, "--seeds", "1", "--policies", "fullscan", "--out", dir}, "already holds 1 finished points", "--resume")
	refuse(t, []string{"compare", small, "--seeds", "1", "--policies", "lazy", "--out", dir, "--resume"}, "different spec")

	// The files of a compare are readable by everyone, like a run's (0644, directories 0755).
	syscall.Umask(0o022)
	filepath.Walk(dir, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		want := os.FileMode(0o644)
		if fi.IsDir() {
			want = 0o755
		}
		if fi.Mode().Perm() != want {
			t.Errorf("%s: mode %v, want %v", p, fi.Mode().Perm(), want)
		}
		return nil
	})
}

// "a killed run --out leaves its staging folder behind forever": the next run for the same
// --out removes it.
func TestMistakeKilledRunStaging(t *testing.T) {
	bin := wfBuild(t, "")
	dir := t.TempDir()
	out := filepath.Join(dir, "result")
	cmd := execCommand(bin, "run", "--quiet", "--out", out, small, "--set", "duration=600s")
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		m, _ := filepath.Glob(out + ".tmp-*")
		if len(m) > 0 {
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("no staging directory appeared")
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Kill()
	cmd.Wait()
	if m, _ := filepath.Glob(out + ".tmp-*"); len(m) != 1 {
		t.Fatalf("after the kill: %v", m)
	}
	if _, stderr, code := ddlsim(t, "run", "--quiet", "--out", out, small); code != 0 {
		t.Fatalf("rerun: exit %d: %s", code, stderr)
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 || entries[0].Name() != "result" {
		var names []string
		for _, e := range entries {
			names = append(names, e.Name())
		}
		t.Errorf("left in the parent: %v", names)
	}
}

// The limits table and docs/limits.md agree: every limit, its value and its reason.
func TestLimitsDocumented(t *testing.T) {
	b, err := os.ReadFile("../../docs/limits.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	for _, l := range config.Limits {
		row := fmt.Sprintf("| %s | %s |", l.Name, l.MaxText())
		if !strings.Contains(doc, row) {
			t.Errorf("docs/limits.md lacks the row starting %q", row)
		}
		if !strings.Contains(doc, l.Why) {
			t.Errorf("docs/limits.md lacks the reason of %q: %q", l.Name, l.Why)
		}
	}
}
