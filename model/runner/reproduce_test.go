//go:build validation

package runner_test

import (
	"sync"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// The published CREATE INDEX figures (../shared/seeds/faster-ddl-en.md: 56 s feature off,
// 4.9 s feature on) as bands of ±30% around them. The feature-on time is fitted (the sort,
// merge and load costs of the 8c-64g profile); the feature-off time must emerge from the
// fullscan mechanism, and without its restart from the flush-list tail it must fall out of the
// band (that variant is the mechanism removed).
func TestReproduceCreateIndexBands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the full reproduction scenario (~15 s per policy)")
	}
	cases := []struct {
		policy   string
		lo, hi   float64
		inBand   bool
		describe string
	}{
		{"fullscan", 56 * 0.7, 56 * 1.3, true, "feature off (emerges)"},
		{"indexed", 4.9 * 0.7, 4.9 * 1.3, true, "feature on (fitted)"},
		{"{name: fullscan, restart: false}", 56 * 0.7, 56 * 1.3, false, "fullscan without restart-from-tail"},
	}
	for _, c := range cases {
		t.Run(c.policy, func(t *testing.T) {
			t.Parallel()
			r := runReproduction(t, "create-index", c.policy)
			d := ddlOf(t, r, "create_index")
			if d.Unfinished {
				t.Fatalf("CREATE INDEX did not finish within the scenario")
			}
			in := d.DurationS >= c.lo && d.DurationS <= c.hi
			t.Logf("%s (%s): %.2f s, band [%.1f, %.1f]", c.policy, c.describe, d.DurationS, c.lo, c.hi)
			if in != c.inBand {
				t.Errorf("%s: CREATE INDEX %.2f s; in band [%.1f, %.1f] = %v, want %v", c.describe, d.DurationS, c.lo, c.hi, in, c.inBand)
			}
		})
	}
}

// OPTIMIZE TABLE (published 220 s feature off, 17 s on). The feature-on time is fitted
// (costs.rebuild_row) and checked here as a band; the feature-off figure is NOT reproduced
// (docs/validation.md, "Known gaps"), so the test checks the mechanism instead: the observer
// flush's restarting walk makes fullscan several times slower than indexed, and lazy
// (8.0.23) leaves that walk as it is.
func TestReproduceOptimizeTable(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the full reproduction scenario (~15 s per policy)")
	}
	var mu sync.Mutex
	dur := map[string]float64{}
	t.Run("runs", func(t *testing.T) {
		for _, p := range []string{"fullscan", "lazy", "indexed"} {
			t.Run(p, func(t *testing.T) {
				t.Parallel()
				d := ddlOf(t, runReproduction(t, "optimize-table", p), "optimize_table")
				if d.Unfinished {
					t.Fatalf("%s: OPTIMIZE TABLE did not finish within the scenario", p)
				}
				mu.Lock()
				dur[p] = d.DurationS
				mu.Unlock()
			})
		}
	})
	if len(dur) != 3 {
		t.Fatalf("runs failed: %v", dur)
	}
	t.Logf("OPTIMIZE TABLE: fullscan %.1f s, lazy %.1f s, indexed %.1f s", dur["fullscan"], dur["lazy"], dur["indexed"])
	if on := dur["indexed"]; on < 17*0.7 || on > 17*1.3 {
		t.Errorf("indexed %.2f s outside the fitted band [%.1f, %.1f]", on, 17*0.7, 17*1.3)
	}
	if dur["fullscan"] < 2.5*dur["indexed"] {
		t.Errorf("fullscan %.1f s is not well above indexed %.1f s: the observer walk lost its cost", dur["fullscan"], dur["indexed"])
	}
	if r := dur["lazy"] / dur["fullscan"]; r < 0.9 || r > 1.1 {
		t.Errorf("lazy/fullscan = %.2f: 8.0.23 did not change the observer flush", r)
	}
}

// The published temp-table figures (42,000 no DDL, 40,000 feature on, < 10,000 feature off)
// as the bands on the ratio of iud/s during the connection loop to before it: fullscan
// below 25%, indexed and lazy at least 90%. The feature-on figure is fitted (temp_rows); the
// collapse must emerge from fullscan's unyielding LRU walks, and the policies that do not walk
// (indexed: the space's own pages; lazy: a version bump) are that mechanism removed.
func TestReproduceTempTableBands(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the full reproduction scenario (~5 s per policy)")
	}
	for _, c := range []struct {
		policy string
		lo, hi float64
	}{{"fullscan", 0, 0.25}, {"indexed", 0.90, 1.01}, {"lazy", 0.90, 1.01}} {
		t.Run(c.policy, func(t *testing.T) {
			t.Parallel()
			r := runReproduction(t, "temp-table", c.policy)
			ratio := get(t, r, "temp_loop_iud_ratio")
			t.Logf("%s: iud/s %.0f -> %.0f (%.1f%%), %v truncations", c.policy, get(t, r, "temp_loop_baseline_iud_per_s"), get(t, r, "temp_loop_iud_per_s"), 100*ratio, get(t, r, "temp_truncations"))
			if ratio < c.lo || ratio > c.hi {
				t.Errorf("%s: iud ratio %.3f outside [%.2f, %.2f]", c.policy, ratio, c.lo, c.hi)
			}
		})
	}
}

// runReproduction runs scenarios/faster-ddl/NAME.yaml under policy.
func runReproduction(t *testing.T, name, policy string) *runner.Result {
	t.Helper()
	sc, err := config.LoadWith("../../scenarios/faster-ddl/"+name+".yaml", []string{"policy=" + policy}, nil)
	if err != nil {
		t.Fatal(err)
	}
	r, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}
