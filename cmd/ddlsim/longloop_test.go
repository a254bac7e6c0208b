package main

import (
	"regexp"
	"strings"
	"testing"
)

// A run of many DDL statements (a DROP loop over 40 tables) prints its first and last
// statements and the per-operation aggregates, not a line per statement; compare's table is
// one impact section for the operation, whatever the loop's length.
func TestLongDDLLoopIsSummarized(t *testing.T) {
	args := []string{"--set", "mysql.innodb_buffer_pool_size=256MB", "--set", "data[0].size=20MB",
		"--set", "data[1].tables=40", "--set", "mysql.version=8.0.18",
		"../../scenarios/predictions/tkachenko-2011-drop1000.yaml"}
	out, stderr, code := ddlsim(t, append([]string{"run", "--out", t.TempDir()}, args...)...)
	if code != 0 {
		t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	listed := regexp.MustCompile(`(?m)^  drop_table  ts\d+ `).FindAllString(out, -1)
	if len(listed) != 8 || !strings.Contains(out, "ts40 ") || strings.Contains(out, "ts20 ") {
		t.Errorf("run lists %d statements (want the first 4 and last 4 of 40):\n%s", len(listed), out)
	}
	if !strings.Contains(out, "(32 more statements") || !strings.Contains(out, "all 40 drop_table statements:") ||
		!regexp.MustCompile(`ddl_all_drop_table_count +40\n`).MatchString(out) {
		t.Errorf("no aggregate of the 40 statements:\n%s", out)
	}
	out, stderr, code = ddlsim(t, append([]string{"compare", "--out", t.TempDir(), "--policies", "fullscan,indexed"}, args...)...)
	if code != 0 {
		t.Fatalf("compare: exit %d\n%s", code, stderr)
	}
	if strings.Contains(out, "ddl0_") || !strings.Contains(out, "-- all 40 drop_table statements: duration and traffic impact --") {
		t.Errorf("compare table not aggregated:\n%s", out)
	}
}
