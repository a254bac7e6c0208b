package sweep

import (
	"context"
	"fmt"
	"hash/fnv"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/model/metrics"
)

const testSpec = `
name: test
base: base.yaml
seeds: 3
seed: 7
axes:
  - grid:
      policy: [fullscan, lazy, {name: indexed, batch: 256}]
      mysql.innodb_buffer_pool_size: [1GiB, 2GiB]
  - zip:
      workload.0.sysbench.threads: [8, 16]
      workload.0.sysbench.rate: [100, 200]
`

func TestSpecEnumerate(t *testing.T) {
	sp, err := ParseSpec("dir/spec.yaml", []byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	if sp.Base != filepath.Join("dir", "base.yaml") || sp.Seeds != 3 || *sp.Seed != 7 {
		t.Fatalf("spec header: %+v", sp)
	}
	pts := sp.Enumerate()
	if len(pts) != 3*2*2 {
		t.Fatalf("%d points, want 12", len(pts))
	}
	// First block outermost, first key outermost within a grid, zip lists in step.
	want0 := "{policy=fullscan, mysql.innodb_buffer_pool_size=1GiB, workload.0.sysbench.threads=8, workload.0.sysbench.rate=100}"
	want11 := "{policy={name: indexed, batch: 256}, mysql.innodb_buffer_pool_size=2GiB, workload.0.sysbench.threads=16, workload.0.sysbench.rate=200}"
	if got := paramString(pts[0].Params); got != want0 {
		t.Errorf("point 0 = %s\nwant %s", got, want0)
	}
	if got := paramString(pts[11].Params); got != want11 {
		t.Errorf("point 11 = %s\nwant %s", got, want11)
	}
	for i, p := range pts {
		if p.ID != i {
			t.Fatalf("point %d has id %d", i, p.ID)
		}
	}
}

func TestSpecErrorsAllAtOnce(t *testing.T) {
	bad := `
seeds: 0
axes:
  - zip:
      a: [1, 2]
      b: [1]
  - frob: {x: [1]}
  - grid:
      seed: [1, 2]
extra: 1
`
	_, err := ParseSpec("s.yaml", []byte(bad))
	if err == nil {
		t.Fatal("no error")
	}
	for _, want := range []string{"s.yaml:2: seeds", "same length", "unknown block \"frob\"", "seed: cannot be an axis", "extra: unknown field", "base: missing"} {
		if !strings.Contains(err.Error(), want) {
			t.Errorf("error lacks %q:\n%v", want, err)
		}
	}
}

func TestSpecPoints(t *testing.T) {
	sp, err := ParseSpec("s.yaml", []byte("base: b.yaml\naxes:\n  - points:\n      - {duration: 60s, warmup: 10s}\n      - {duration: 120s}\n"))
	if err != nil {
		t.Fatal(err)
	}
	pts := sp.Enumerate()
	if len(pts) != 2 || len(pts[0].Params) != 2 || pts[1].Params[0].Value != "120s" {
		t.Fatalf("points: %+v", pts)
	}
}

// fakeRun is deterministic in (params, seed) and gives each point a different number of DDL
// statements and metrics, so the CSV column union is exercised.
func fakeRun(_ context.Context, pt Point, seed uint64) (*Outcome, error) {
	h := fnv.New64a()
	fmt.Fprint(h, paramString(pt.Params), seed)
	x := float64(h.Sum64()%10000) / 7
	out := &Outcome{ConfigHash: fmt.Sprintf("%016x", h.Sum64()),
		Summary: metrics.Summary{{Name: "tps_mean", Value: 1000 + x}, {Name: "p99_ms", Value: x / 100}}}
	if pt.ID%3 == 0 {
		out.Summary = append(out.Summary, metrics.Metric{Name: "only_some", Value: math.NaN()})
	}
	for i := 0; i < pt.ID%3; i++ {
		out.DDL = append(out.DDL, metrics.DDLResult{Op: "create_index", Table: "big", StartS: 10, EndS: 10 + x/1000,
			DurationS: x / 1000, Phases: []metrics.Phase{{Name: "scan", StartS: 10, EndS: 11}}})
	}
	out.Series = &metrics.Series{Columns: []string{"time_s", "tps"}, Rows: [][]float64{{1, x}, {2, x + 1}}}
	return out, nil
}

func testPlan(t testing.TB) *Plan {
	sp, err := ParseSpec("spec.yaml", []byte(testSpec))
	if err != nil {
		t.Fatal(err)
	}
	return NewPlan("sweep", sp.Base, "basehash", sp.Enumerate(), []uint64{7, 8, 9}, testSpec)
}

func readStripped(t *testing.T, dir string) (string, string) {
	t.Helper()
	j, err := os.ReadFile(filepath.Join(dir, output.JSONLFile))
	if err != nil {
		t.Fatal(err)
	}
	c, err := os.ReadFile(filepath.Join(dir, output.CSVFile))
	if err != nil {
		t.Fatal(err)
	}
	return output.StripWallTime(string(j), false), output.StripWallTime(string(c), true)
}

func TestJobsDoNotChangeResults(t *testing.T) {
	plan := testPlan(t)
	var outs [2][2]string
	for i, jobs := range []int{1, 4} {
		dir := t.TempDir()
		rep, err := Execute(context.Background(), plan, Options{Dir: dir, Jobs: jobs, Run: fakeRun, SaveSeries: true})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Ran != 12 || rep.Runs != 36 || len(rep.Rows) != 36 {
			t.Fatalf("jobs %d: %+v", jobs, rep)
		}
		outs[i][0], outs[i][1] = readStripped(t, dir)
	}
	if outs[0] != outs[1] {
		t.Fatalf("--jobs 1 and --jobs 4 differ:\n%s\n----\n%s", outs[0][1], outs[1][1])
	}
	if strings.Contains(outs[0][0], "wall_time_s") || !strings.Contains(outs[0][1], "ddl1_phase_scan_s") {
		t.Fatalf("unexpected stripped output:\n%s", outs[0][1])
	}
}

func TestShardedMergeEqualsUnsharded(t *testing.T) {
	plan := testPlan(t)
	root := t.TempDir()
	full := filepath.Join(root, "full")
	if _, err := Execute(context.Background(), plan, Options{Dir: full, Jobs: 2, Run: fakeRun}); err != nil {
		t.Fatal(err)
	}
	var shards []string
	for i := 0; i < 3; i++ {
		d := filepath.Join(root, fmt.Sprintf("shard%d", i))
		rep, err := Execute(context.Background(), plan, Options{Dir: d, Jobs: 2, Run: fakeRun, Shard: &Shard{Index: i, Count: 3}})
		if err != nil {
			t.Fatal(err)
		}
		if rep.Total != 4 {
			t.Fatalf("shard %d has %d points", i, rep.Total)
		}
		shards = append(shards, d)
	}
	merged := filepath.Join(root, "merged")
	if _, err := Merge(merged, shards, nil); err != nil {
		t.Fatal(err)
	}
	fj, fc := readStripped(t, full)
	mj, mc := readStripped(t, merged)
	if fj != mj || fc != mc {
		t.Fatalf("merged differs from unsharded")
	}

	// A missing shard and a duplicated one are both reported.
	_, err := Merge(filepath.Join(root, "m2"), []string{shards[0], shards[1], shards[1]}, nil)
	if err == nil || !strings.Contains(err.Error(), "points missing: 2,5,8,11") || !strings.Contains(err.Error(), "is in both") {
		t.Fatalf("merge of bad shards: %v", err)
	}
	// A shard of another spec is refused.
	other := NewPlan("sweep", plan.Base, "otherbase", plan.Points, plan.Seeds, "")
	od := filepath.Join(root, "other")
	if _, err := Execute(context.Background(), other, Options{Dir: od, Run: fakeRun, Shard: &Shard{Index: 2, Count: 3}}); err != nil {
		t.Fatal(err)
	}
	_, err = Merge(filepath.Join(root, "m3"), []string{shards[0], shards[1], od}, nil)
	if err == nil || !strings.Contains(err.Error(), "ran spec") {
		t.Fatalf("merge of mixed specs: %v", err)
	}
}

func TestResumeRunsOnlyMissing(t *testing.T) {
	plan := testPlan(t)
	dir := t.TempDir()
	if _, err := Execute(context.Background(), plan, Options{Dir: dir, Run: fakeRun}); err != nil {
		t.Fatal(err)
	}
	want, _ := readStripped(t, dir)
	// Lose three points and leave a torn temp file, as a kill would.
	for _, id := range []int{1, 5, 11} {
		os.Remove(output.PointFile(dir, id))
	}
	os.WriteFile(filepath.Join(dir, output.PointsDir, ".tmp-p000005.jsonl-123"), []byte(`{"schema_`), 0o644)
	if _, err := Execute(context.Background(), plan, Options{Dir: dir, Run: fakeRun}); err == nil {
		t.Fatal("rerun into a used directory without --resume succeeded")
	}
	calls := 0
	count := func(ctx context.Context, pt Point, seed uint64) (*Outcome, error) {
		calls++
		return fakeRun(ctx, pt, seed)
	}
	rep, err := Execute(context.Background(), plan, Options{Dir: dir, Run: count, Resume: true, Jobs: 1})
	if err != nil {
		t.Fatal(err)
	}
	if rep.Ran != 3 || rep.Skipped != 9 || calls != 9 {
		t.Fatalf("resume ran %d points (%d runs), skipped %d", rep.Ran, calls, rep.Skipped)
	}
	got, _ := readStripped(t, dir)
	if got != want {
		t.Fatal("resumed results differ")
	}
	other := NewPlan("sweep", plan.Base, "otherbase", plan.Points, plan.Seeds, "")
	if _, err := Execute(context.Background(), other, Options{Dir: dir, Run: fakeRun, Resume: true}); err == nil {
		t.Fatal("resume with another spec succeeded")
	}
}

func TestShardFromEnv(t *testing.T) {
	env := func(kv ...string) func(string) string {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return func(k string) string { return m[k] }
	}
	cases := []struct {
		env  func(string) string
		want string
		err  bool
	}{
		{env(), "all", false},
		{env("SLURM_ARRAY_TASK_ID", "1", "SLURM_ARRAY_TASK_COUNT", "2", "SLURM_ARRAY_TASK_MIN", "0"), "1/2", false},
		{env("SLURM_ARRAY_TASK_ID", "3", "SLURM_ARRAY_TASK_COUNT", "4", "SLURM_ARRAY_TASK_MIN", "1"), "2/4", false},
		{env("SLURM_ARRAY_TASK_ID", "4", "SLURM_ARRAY_TASK_COUNT", "3", "SLURM_ARRAY_TASK_MIN", "0", "SLURM_ARRAY_TASK_STEP", "2"), "2/3", false},
		{env("SLURM_ARRAY_TASK_ID", "5", "SLURM_ARRAY_TASK_COUNT", "2", "SLURM_ARRAY_TASK_MIN", "0"), "", true},
		{env("SLURM_ARRAY_TASK_ID", "1"), "", true},
		{env("JOB_COMPLETION_INDEX", "2", ShardCountEnv, "3"), "2/3", false},
		{env("JOB_COMPLETION_INDEX", "2"), "", true},
	}
	for i, c := range cases {
		s, _, err := ShardFromEnv(c.env)
		if (err != nil) != c.err || (err == nil && s.String() != c.want) {
			t.Errorf("case %d: got %v, %v; want %s (err %v)", i, s, err, c.want, c.err)
		}
	}
	if _, err := ParseShard("2/2"); err == nil {
		t.Error("2/2 accepted")
	}
}
