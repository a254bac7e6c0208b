package config_test

import (
	"strings"
	"testing"

	. "github.com/ddlsim/ddlsim/model/config"
)

const untilBase = `
name: until
hardware: profiles/test-8c.yaml
data:
  - {name: sbtest, tables: 1, rows: 10K}
warmup: 1s
workload:
  - sysbench: {mix: oltp_read_only, threads: 1, tables: sbtest}
`

// duration: until_ddl_done is until: ddl_done with the default cap and tail; the long
// form sets both; an override of duration after the keyword sets the cap, not a fixed run.
func TestUntilDDLDone(t *testing.T) {
	sched := "schedule:\n  - {at: 1s, ddl: create_index, table: sbtest, columns: [c]}\n"
	for _, c := range []struct {
		name, yaml string
		sets       []string
		cap, after Duration
	}{
		{"keyword", "duration: until_ddl_done\n", nil, DefaultUntilCap, DefaultUntilAfter},
		{"scalar", "until: ddl_done\nduration: 20m\n", nil, 20 * Minute, DefaultUntilAfter},
		{"mapping", "until: {event: ddl_done, after: 30s}\n", nil, DefaultUntilCap, 30 * Second},
		{"override cap", "duration: until_ddl_done\n", []string{"duration=5m"}, 5 * Minute, DefaultUntilAfter},
		{"override keyword", "duration: 10s\n", []string{"duration=until_ddl_done", "until.after=2s"}, DefaultUntilCap, 2 * Second},
	} {
		sc, err := LoadBytesWith(c.name, []byte(untilBase+c.yaml+sched), "testdata", c.sets, nil)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if sc.Until.Event != UntilDDLDone || sc.Duration != c.cap || sc.Until.After != c.after {
			t.Errorf("%s: until %+v duration %s, want ddl_done after %s cap %s", c.name, sc.Until, sc.Duration, c.after, c.cap)
		}
		// The effective configuration reloads to the same scenario.
		b, err := Marshal(sc)
		if err != nil {
			t.Fatal(err)
		}
		if !strings.Contains(string(b), "until:") {
			t.Errorf("%s: effective config has no until:\n%s", c.name, b)
		}
	}
	// A fixed duration leaves until out of the effective configuration (and so out of the
	// configuration hash of every scenario that does not use it).
	sc, err := LoadBytesWith("fixed", []byte(untilBase+"duration: 10s\n"), "testdata", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	if b, _ := Marshal(sc); strings.Contains(string(b), "\nuntil:") {
		t.Errorf("fixed duration marshals an until:\n%s", b)
	}
}

func TestUntilDDLDoneMistakes(t *testing.T) {
	for _, c := range []struct{ name, yaml, path, msg string }{
		{"no schedule", "duration: until_ddl_done\n", "until.event", "needs a schedule"},
		{"unknown event", "until: ddl_finished\nschedule:\n  - {at: 1s, ddl: create_index, table: sbtest, columns: [c]}\n", "until.event", "unknown event"},
		{"after without event", "duration: 10s\nuntil: {after: 5s}\n", "until.after", "needs until's event"},
		{"after past cap", "duration: 10s\nuntil: {event: ddl_done, after: 10s}\nschedule:\n  - {at: 1s, ddl: create_index, table: sbtest, columns: [c]}\n", "until.after", "less than duration"},
		{"endless repeat", "duration: until_ddl_done\nschedule:\n  - {at: 1s, every: 5s, ddl: create_index, table: sbtest, columns: [c]}\n", "schedule[0].count", "needs every repeating DDL to end"},
	} {
		errs := loadErrs(t, c.name, untilBase+c.yaml)
		found := false
		for _, e := range errs {
			if e.Path == c.path && strings.Contains(e.Msg, c.msg) {
				found = true
			}
		}
		if !found {
			t.Errorf("%s: no error at %s containing %q: %v", c.name, c.path, c.msg, errs)
		}
	}
}
