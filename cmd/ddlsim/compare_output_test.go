package main

import (
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// ddlsim compare prints the DDL's duration and traffic impact first, then the run metrics,
// then the phases; no number in exponent notation; one seed prints no "±" (and no "nan").
func TestCompareOutputImpactFirst(t *testing.T) {
	out, stderr, code := ddlsim(t, "compare", small, "--seeds", "1", "--policies", "fullscan,indexed", "--out", filepath.Join(t.TempDir(), "c"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	var names []string
	for _, l := range strings.Split(out, "\n") {
		if f := strings.Fields(l); len(f) > 1 && (strings.HasPrefix(f[0], "ddl") || strings.HasSuffix(f[0], "_mean")) {
			names = append(names, f[0])
		}
	}
	if len(names) < 8 || !strings.HasSuffix(names[0], "_duration_s") {
		t.Fatalf("first rows %v:\n%s", names, out)
	}
	impact := []string{"_duration_s", "_baseline_tps", "_min_tps", "_mean_tps", "_lat_p95_ms", "_lat_p99_ms", "_below_half_s", "_lost_txns"}
	for i, suffix := range impact {
		if !strings.HasSuffix(names[i], suffix) {
			t.Errorf("row %d is %s, want ddl0_<op>%s", i+1, names[i], suffix)
		}
	}
	if names[len(impact)] != "tps_mean" && !strings.HasSuffix(names[len(impact)], "_mean") {
		t.Errorf("after the impact rows: %s, want the run metrics", names[len(impact)])
	}
	if m := regexp.MustCompile(`[0-9][eE][-+][0-9]`).FindString(out); m != "" {
		t.Errorf("exponent notation %q in:\n%s", m, out)
	}
	if strings.Contains(out, "±") || strings.Contains(strings.ToLower(out), "nan") {
		t.Errorf("one seed printed a ± or nan:\n%s", out)
	}
}
