package runner_test

import (
	"math"
	"runtime"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/indexbuild"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/sim"
)

// The CREATE INDEX option study's scenarios (issue 5) run end to end: the insert-benchmark
// table in the server model, the build through the buffer pool, the observer flush.
const createIndexAllAtOnce = "../../scenarios/create-index-options/all-at-once.yaml"

func loadSet(tb testing.TB, path string, sets ...string) *config.Scenario {
	tb.Helper()
	sc, err := config.LoadWith(path, sets, nil)
	if err != nil {
		tb.Fatal(err)
	}
	return sc
}

// buildEnd is when the build proper (scan, merge, load) of d ended, in seconds from its
// start: the end of its last load phase, before the observer flush.
func buildEnd(tb testing.TB, d metrics.DDLResult) float64 {
	tb.Helper()
	end := -1.0
	for _, p := range d.Phases {
		if p.Name == "load" || len(p.Name) > 5 && p.Name[len(p.Name)-5:] == "/load" {
			end = max(end, p.EndS)
		}
	}
	if end < 0 {
		tb.Fatalf("no load phase: %+v", d.Phases)
	}
	return end - d.StartS
}

// aggregateSecs runs the indexbuild-only model of sc's first statement (ddl.AggregateBuild on
// a fresh server of sc) and returns its build time in seconds.
func aggregateSecs(tb testing.TB, sc *config.Scenario) float64 {
	tb.Helper()
	m, err := runner.Build(sc, runner.BuildOptions{Cold: true})
	if err != nil {
		tb.Fatal(err)
	}
	defer m.Close()
	s, srv := m.Sim, m.Server
	env, spec, err := ddl.AggregateBuild(srv, sc.Schedule[0])
	if err != nil {
		tb.Fatal(err)
	}
	var r indexbuild.Result
	s.Spawn("ddl", "ddl", func(p *sim.Proc) { r = indexbuild.Build(p, env, spec) })
	s.Run(sim.Time(1 << 62))
	if r.Failed {
		tb.Fatal(r.Reason)
	}
	return r.Duration().Seconds()
}

// TestCreateIndexEndToEndMatchesBuildModel: at a reduced size, the full server run of the
// study's all-at-once and one-at-a-time statements (runner.Run: insert-benchmark table,
// scan and new pages through the buffer pool, observer flush) agrees with the indexbuild-only
// model the docs/validation.md tables come from: the build (scan, merge, load) within 3%.
// Two pools: one holding the whole table (every page through the pool) and one of 1/8 of the
// table's leaves (the aggregated scan and the pool window of new pages, docs/indexbuild.md).
// The observer flush comes on top in the server model only: with a pool smaller than the new
// indexes it writes at most a pool's worth of pages, and the whole statement stays within 5%
// of the build model; with a pool that holds them all it writes them all (logged).
func TestCreateIndexEndToEndMatchesBuildModel(t *testing.T) {
	if testing.Short() {
		t.Skip("end-to-end builds")
	}
	for _, c := range []struct {
		name     string
		sets     []string
		bigTable bool
	}{
		{"pool holds the table", []string{"data[0].rows=20M", "mysql.innodb_buffer_pool_size=2GiB"}, false},
		{"table 8x the pool", []string{"data[0].rows=50M", "mysql.innodb_buffer_pool_size=160MiB"}, true},
		{"one at a time, table 8x the pool", []string{"data[0].rows=50M", "mysql.innodb_buffer_pool_size=160MiB",
			"schedule[0].one_at_a_time=true"}, true},
	} {
		t.Run(c.name, func(t *testing.T) {
			sets := append([]string{"mysql.innodb_buffer_pool_instances=1", "duration=2h", "report.interval=10s"}, c.sets...)
			sc := loadSet(t, createIndexAllAtOnce, sets...)
			r, err := runner.Run(sc, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			d := ddlOf(t, r, "create_index")
			build, total := buildEnd(t, d), d.DurationS
			want := aggregateSecs(t, loadSet(t, createIndexAllAtOnce, sets...))
			t.Logf("end to end: build %.1f s, with observer flush %.1f s; indexbuild only: %.1f s", build, total, want)
			if math.Abs(build/want-1) > 0.03 {
				t.Errorf("build %.1f s end to end vs %.1f s indexbuild only: differ by more than 3%%", build, want)
			}
			if c.bigTable && math.Abs(total/want-1) > 0.05 {
				t.Errorf("statement with observer flush %.1f s vs build model %.1f s: more than 5%% apart", total, want)
			}
		})
	}
}

// BenchmarkCreateIndex8BAllAtOnce runs the study's largest point end to end, as
// `ddlsim run scenarios/create-index-options/all-at-once.yaml --set data[0].rows=8B` does
// (80c-256g, 180 GiB pool, 8 billion rows, three indexes in one ALTER, 4 threads, 2 GiB):
// wall seconds, bytes allocated and the Go runtime's memory (Sys) per run, and the simulated
// DDL time.
//
//	go test ./model/runner -run '^$' -bench CreateIndex8B -count 3
func BenchmarkCreateIndex8BAllAtOnce(b *testing.B) {
	var wall, alloc, sysB, simS float64
	for i := 0; i < b.N; i++ {
		b.StopTimer()
		sc := loadSet(b, createIndexAllAtOnce, "data[0].rows=8B")
		runtime.GC()
		var m0, m1 runtime.MemStats
		runtime.ReadMemStats(&m0)
		b.StartTimer()
		t0 := time.Now()
		r, err := runner.Run(sc, runner.Options{})
		wall += time.Since(t0).Seconds()
		b.StopTimer()
		if err != nil {
			b.Fatal(err)
		}
		runtime.ReadMemStats(&m1)
		alloc += float64(m1.TotalAlloc - m0.TotalAlloc)
		sysB = max(sysB, float64(m1.Sys))
		d := ddlOf(b, r, "create_index")
		if d.Unfinished {
			b.Fatal("the build did not finish within the scenario's duration")
		}
		simS = d.DurationS
		b.StartTimer()
	}
	n := float64(b.N)
	b.ReportMetric(wall/n, "wall-s/run")
	b.ReportMetric(alloc/n, "alloc-B/run")
	b.ReportMetric(sysB, "sys-B")
	b.ReportMetric(simS, "sim-s")
}
