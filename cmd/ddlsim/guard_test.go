package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

// Issue 28: every command guards its inputs and its --out as run does. Each refusal here
// must come before any simulation: exit 2, the file (and line) to fix, in under a second and
// 100 MB — the scenarios run for 10^5 simulated seconds, so refusing after simulating would
// take minutes.

const (
	guardTime  = time.Second
	guardBytes = 100 << 20
)

// refuseNow is refuse with issue 28's budget.
func refuseNow(t *testing.T, args []string, want ...string) string {
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
	if strings.Contains(stdout, "[ 1s ]") {
		t.Errorf("%v: simulated before refusing:\n%s", args, stdout)
	}
	if took > guardTime {
		t.Errorf("%v: took %s to refuse", args, took)
	}
	if alloc := m1.TotalAlloc - m0.TotalAlloc; alloc > guardBytes {
		t.Errorf("%v: allocated %d MiB to refuse", args, alloc>>20)
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
