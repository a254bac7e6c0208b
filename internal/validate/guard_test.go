package validate

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
)

// A validation file is checked whole before the first simulation: every problem at its
// file:line, as config.Errors (exit 2), in well under a second. The scenario runs for 10^5
// simulated seconds, so a check that came after simulating would take minutes.
func writeScenario(t *testing.T, dir string) string {
	t.Helper()
	abs, _ := filepath.Abs("../../scenarios/profiles/8c-64g.yaml")
	sc := fmt.Sprintf(`name: long
seed: 1
hardware: %s
mysql: {version: "8.0.18", innodb_buffer_pool_size: 512MiB}
policy: fullscan
data:
  - {name: sbtest, tables: 2, rows: 50K}
  - {name: big, tables: 1, size: 40MB}
warmup: 1s
duration: 100000s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sbtest}
schedule:
  - {at: 2s, ddl: create_index, table: big, columns: [c]}
`, abs)
	p := filepath.Join(dir, "long.yaml")
	if err := os.WriteFile(p, []byte(sc), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestValidationFileCheckedWholeBeforeRunning(t *testing.T) {
	dir := t.TempDir()
	writeScenario(t, dir)
	v := filepath.Join(dir, "v.yaml")
	os.WriteFile(v, []byte(`scenario: long.yaml
validation:
  table: t
  points:
    - label: a
      set: ["mysql.innodb_buffer_pool_size=banana", "workload[0].sysbench.threadz=3"]
      role: check
      compare:
        - {stat: tps_mean, measured: 1, source: x}
    - label: b
      role: check
      compare:
        - {stat: tps_men, measured: 1, source: x}
        - {stat: ddl0_create_index_scan_s, measured: 1, source: x}
    - label: c
      compare:
        - {stat: tps_mean, measured: 1}
`), 0o644)
	start := time.Now()
	_, err := Run(context.Background(), []string{v}, Options{Jobs: 1})
	if d := time.Since(start); d > time.Second {
		t.Errorf("took %v: the file was not refused before simulating", d)
	}
	var ce config.Errors
	if !errors.As(err, &ce) {
		t.Fatalf("want config.Errors (exit 2), got %T %v", err, err)
	}
	// The file's own rules are checked first: c's missing role and source.
	for _, want := range []string{v + ":15:7: validation.points[2].role", v + ":17:11: validation.points[2].compare[0].source: missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
	// Then, with the file's own fields right, the overrides and statistics.
	b, _ := os.ReadFile(v)
	os.WriteFile(v, bytes.Replace(b, []byte("    - label: c\n      compare:\n        - {stat: tps_mean, measured: 1}\n"), nil, 1), 0o644)
	_, err = Run(context.Background(), []string{v}, Options{Jobs: 1})
	if !errors.As(err, &ce) || len(ce) != 3 {
		t.Fatalf("want 3 problems as config.Errors, got %T:\n%v", err, err)
	}
	for _, want := range []string{
		v + `:6:13: validation.points[0].set[0]: bad value "mysql.innodb_buffer_pool_size=banana": point "a": mysql.innodb_buffer_pool_size: bad value "banana"`,
		v + `:6:`, `validation.points[0].set[1]`, `unknown key "threadz"`,
		v + `:13:18: validation.points[1].compare[0].stat: bad value "tps_men": not a statistic a run of this point reports (did you mean tps_mean?)`,
	} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("missing %q in:\n%v", want, err)
		}
	}
}

// A scenario that is a device, and a validation file far beyond any real one, are refused
// without being read (< 1 s, < 100 MB allocated).
func TestValidationInputsAreGuarded(t *testing.T) {
	dir := t.TempDir()
	v := filepath.Join(dir, "zero.yaml")
	os.WriteFile(v, []byte("scenario: /dev/zero\nvalidation: {table: t, points: [{label: a, role: check, compare: [{stat: tps_mean, measured: 1, source: x}]}]}\n"), 0o644)
	_, err := Run(context.Background(), []string{v}, Options{Jobs: 1})
	if err == nil || !strings.Contains(err.Error(), v+":1:11: scenario") || !strings.Contains(err.Error(), "not a regular file (a device)") {
		t.Errorf("/dev/zero as the scenario: %v", err)
	}

	writeScenario(t, dir)
	big := filepath.Join(dir, "big.yaml")
	var b bytes.Buffer
	b.WriteString("scenario: long.yaml\nvalidation:\n  table: t\n  points:\n")
	for i := 0; b.Len() < 80<<20; i++ {
		fmt.Fprintf(&b, "    - {label: p%07d, role: check, compare: [{stat: tps_mean, measured: 1, source: x}]}\n", i)
	}
	os.WriteFile(big, b.Bytes(), 0o644)
	b = bytes.Buffer{}
	var m0, m1 runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&m0)
	start := time.Now()
	_, err = Run(context.Background(), []string{big}, Options{Jobs: 1})
	d := time.Since(start)
	runtime.ReadMemStats(&m1)
	if err == nil || !strings.Contains(err.Error(), big+": input file too large") {
		t.Errorf("an 80 MB validation file: %v", err)
	}
	if d > time.Second || m1.TotalAlloc-m0.TotalAlloc > 100<<20 {
		t.Errorf("refusing an 80 MB validation file took %v and %d MB", d, (m1.TotalAlloc-m0.TotalAlloc)>>20)
	}
}
