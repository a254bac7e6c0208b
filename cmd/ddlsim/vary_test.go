package main

import (
	"path/filepath"
	"strings"
	"testing"
)

// compare --vary ranks the settings by harm, least first, whatever order they were given in:
// the indexed policy's DROP keeps the p99 under the SLO, fullscan's breaches it. The key table
// leads the output and the full table follows with its columns in the ranked order.
func TestCompareVaryRanksSettings(t *testing.T) {
	out, stderr, code := ddlsim(t, "compare", "testdata/harm.yaml", "--vary", "policy=fullscan,indexed", "--seeds", "2",
		"--jobs", "2", "--out", filepath.Join(t.TempDir(), "c"))
	if code != 0 {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	lines := strings.Split(out, "\n")
	var rank []string
	for i, l := range lines {
		if strings.HasPrefix(l, "rank ") {
			if !strings.Contains(l, "above_slo_s") || !strings.Contains(lines[i-1], "least harm first, by above_slo_s") {
				t.Errorf("key table heading %q after %q", l, lines[i-1])
			}
			for _, r := range lines[i+1 : i+3] {
				rank = append(rank, strings.Fields(r)[1])
			}
		}
	}
	if strings.Join(rank, ",") != "indexed,fullscan" {
		t.Fatalf("ranked %v, want indexed first:\n%s", rank, out)
	}
	if !strings.Contains(out, "compare testdata/harm.yaml: 2 settings × 2 seeds") {
		t.Errorf("header:\n%s", out)
	}
	// The full table: columns in ranked order, the impact section led by the latency harm.
	for _, l := range lines {
		if strings.HasPrefix(l, "metric ") {
			if f := strings.Fields(l); len(f) != 3 || f[1] != "indexed" {
				t.Errorf("table header %q: want indexed first", l)
			}
		}
	}
	if i, j := strings.Index(out, "ddl0_drop_table_above_slo_s"), strings.Index(out, "ddl0_drop_table_baseline_tps"); i < 0 || j < i {
		t.Errorf("the impact section does not lead with the SLO seconds:\n%s", out)
	}
}

// --vary refuses a key given twice and a missing value, as a usage error (exit 2).
func TestCompareVaryMistakes(t *testing.T) {
	for _, args := range [][]string{
		{"--vary", "policy=fullscan", "--vary", "policy=indexed"},
		{"--vary", "policy="},
		{"--vary", "no_such_key=1,2"},
	} {
		_, stderr, code := ddlsim(t, append([]string{"compare", "testdata/harm.yaml", "--seeds", "1", "--out", filepath.Join(t.TempDir(), "c")}, args...)...)
		if code != 2 || stderr == "" {
			t.Errorf("%v: exit %d, stderr %q; want 2 and a message", args, code, stderr)
		}
	}
}

// check takes --policy as run does: a registered policy passes, an unknown one is exit 2.
func TestCheckPolicy(t *testing.T) {
	if out, stderr, code := ddlsim(t, "check", small, "--policy", "indexed"); code != 0 || !strings.HasPrefix(out, "ok: ") {
		t.Errorf("check --policy indexed: exit %d, %s %s", code, out, stderr)
	}
	if _, stderr, code := ddlsim(t, "check", small, "--policy", "nosuch"); code != 2 || !strings.Contains(stderr, "unknown policy") {
		t.Errorf("check --policy nosuch: exit %d, stderr %q", code, stderr)
	}
}
