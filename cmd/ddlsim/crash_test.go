package main

import (
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/workload/workloadtest"
)

// A panic is a bug report: exit 1, the seed, the configuration hash and the reproducing
// command on stderr, and a crash file with all of it and the stack — for run and for one run
// of a compare (a worker goroutine, which would otherwise take the process down).
func TestPanicIsABugReport(t *testing.T) {
	workloadtest.Install()
	dir := t.TempDir()
	old := crashDir
	crashDir = func() string { return dir }
	defer func() { crashDir = old }()
	f := scenarioFile(t, dir, "  - test_panic: {}\n")
	for _, args := range [][]string{
		{"run", "--quiet", "--seed", "9", f},
		{"compare", f, "--seeds", "1", "--seed", "9", "--policies", "lazy", "--jobs", "1", "--out", filepath.Join(dir, "cmp")},
	} {
		t.Run(args[0], func(t *testing.T) {
			_, stderr, code := ddlsim(t, args...)
			if code != 1 {
				t.Fatalf("exit %d, want 1:\n%s", code, stderr)
			}
			for _, want := range []string{
				"internal error (a bug in ddlsim, not in the scenario) in simulated thread panicker at simulated time 1.5s: deliberate test panic",
				"seed=9 config=",
				"reproduce: ddlsim run --seed 9 ",
				"crash report with the stack: " + dir,
			} {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			if strings.Contains(stderr, "goroutine ") {
				t.Errorf("the stack went to the terminal:\n%s", stderr)
			}
			m := regexp.MustCompile(`crash report with the stack: (\S+)`).FindStringSubmatch(stderr)
			if m == nil {
				return
			}
			b, err := os.ReadFile(m[1])
			if err != nil {
				t.Fatal(err)
			}
			report := string(b)
			for _, want := range []string{"seed:           9", "config hash:    ", "reproduce:      ddlsim run --seed 9", "thread:         panicker",
				"panic:          deliberate test panic", "workloadtest/panic.go:", fmt.Sprintf("command:        ddlsim %s", args[0])} {
				if !strings.Contains(report, want) {
					t.Errorf("the crash report lacks %q:\n%s", want, report)
				}
			}
			os.Remove(m[1])
		})
	}
}
