package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// TestObservedRateWarning: a closed loop far above the real server's observed statements/s
// warns on stderr at the observed: line, with the ratio and what to do, and summary.json has
// trust.observed with its keys; an open loop at the rate the server served (sysbench
// oltp_read_write: 20 statements an event, 200 events/s) does not warn and is within the band.
func TestObservedRateWarning(t *testing.T) {
	base, err := os.ReadFile(small)
	if err != nil {
		t.Fatal(err)
	}
	abs, _ := filepath.Abs("../../scenarios")
	text := strings.Replace(string(base), "../../../scenarios", abs, 1)
	dir := t.TempDir()
	for _, tc := range []struct {
		name, workload string
		warn           bool
	}{
		{"closed", "threads: 4,", true},
		{"open", "threads: 4, rate: 200,", false},
	} {
		y := strings.Replace(text, "threads: 4,", tc.workload, 1) +
			"observed: {statements_per_s: 4000, source: \"Questions / Uptime\"}\n"
		path := filepath.Join(dir, tc.name+".yaml")
		if err := os.WriteFile(path, []byte(y), 0o644); err != nil {
			t.Fatal(err)
		}
		line := 1 + strings.Count(y[:strings.Index(y, "observed:")], "\n")
		out := filepath.Join(dir, tc.name)
		_, stderr, code := ddlsim(t, "run", "--quiet", "--out", out, path)
		if code != 0 {
			t.Fatalf("%s: exit %d: %s", tc.name, code, stderr)
		}
		at := path + ":" + strconv.Itoa(line) + ":"
		got := strings.Contains(stderr, "warning: observed.statements_per_s:")
		if got != tc.warn {
			t.Errorf("%s: warning %v, want %v; stderr:\n%s", tc.name, got, tc.warn, stderr)
		}
		if tc.warn && (!strings.Contains(stderr, at) || !strings.Contains(stderr, "× the observed 4000.0 statements/s") ||
			!strings.Contains(stderr, "Closed-loop threads") || !strings.Contains(stderr, "open-loop rate")) {
			t.Errorf("%s: the warning lacks its line %s, the ratio or what to do:\n%s", tc.name, at, stderr)
		}
		b, err := os.ReadFile(filepath.Join(out, "summary.json"))
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Trust struct {
				Observed map[string]any `json:"observed"`
			} `json:"trust"`
		}
		if err := json.Unmarshal(b, &sum); err != nil {
			t.Fatal(err)
		}
		o := sum.Trust.Observed
		for _, k := range []string{"statements_per_s_observed", "simulated", "ratio", "within_band", "basis", "source"} {
			if _, ok := o[k]; !ok {
				t.Errorf("%s: trust.observed lacks %q: %v", tc.name, k, o)
			}
		}
		ratio, _ := o["ratio"].(float64)
		sim, _ := o["simulated"].(float64)
		if o["within_band"] != !tc.warn || o["statements_per_s_observed"] != 4000.0 || ratio != sim/4000 || o["basis"] != "no_ddl_intervals" {
			t.Errorf("%s: trust.observed %v", tc.name, o)
		}
		if tc.warn && ratio < 2 || !tc.warn && (ratio < 0.9 || ratio > 1.1) {
			t.Errorf("%s: ratio %.3g: the closed loop should run far above 4000 statements/s, the open loop at it", tc.name, ratio)
		}
	}
}
