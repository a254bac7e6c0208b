package sweep

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
)

// The shipped specs load, every point of them is a valid scenario, and a bad axis is reported
// by point before anything runs.
func TestShippedSpecs(t *testing.T) {
	specs, _ := filepath.Glob("../../scenarios/sweeps/*.yaml")
	n := 0
	for _, f := range specs {
		sp, err := LoadSpec(f)
		if err != nil {
			if strings.Contains(err.Error(), "base: missing") {
				continue // a base scenario, not a spec
			}
			t.Fatal(err)
		}
		if _, _, err := PlanSpec(sp, nil); err != nil {
			t.Fatalf("%s: %v", f, err)
		}
		n++
	}
	if n < 2 {
		t.Fatalf("found %d specs", n)
	}
	sp, err := ParseSpec("../../scenarios/sweeps/bad.yaml", []byte("base: tiny.yaml\naxes:\n  - grid:\n      mysql.innodb_buffer_pool_sise: [1GiB]\n      policy: [fullscan, nosuch]\n"))
	if err != nil {
		t.Fatal(err)
	}
	_, _, err = PlanSpec(sp, nil)
	// Each problem once, where the spec writes it, with the points it breaks.
	for _, want := range []string{
		"bad.yaml:4:7: mysql.innodb_buffer_pool_sise: unknown MySQL variable (did you mean innodb_buffer_pool_size?)",
		"(points 0, 1 — 2 of 2)",
	} {
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("bad axis: error lacks %q:\n%v", want, err)
		}
	}
}

// The real binding end to end: runs through config and runner, deterministic across jobs.
func TestCompareWithRunner(t *testing.T) {
	base, err := LoadBase("../../scenarios/sweeps/tiny.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PlanCompare(base, []string{"fullscan", "indexed"}, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	var got []string
	for _, jobs := range []int{1, 2} {
		dir := t.TempDir()
		rep, err := Execute(context.Background(), plan, Options{Dir: dir, Jobs: jobs, Run: base.RunFunc(), SaveSeries: true})
		if err != nil {
			t.Fatal(err)
		}
		if len(rep.Rows) != 4 || rep.Rows[1].Seed != base.Seed+1 || rep.Rows[2].Params[0].Value != "indexed" {
			t.Fatalf("rows: %+v", rep.Rows)
		}
		j, c := readStripped(t, dir)
		got = append(got, j+c)
	}
	if got[0] != got[1] {
		t.Fatal("jobs 1 and 2 differ")
	}
}
