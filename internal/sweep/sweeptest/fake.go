// Package sweeptest makes results directories without the simulator, for the tests of the
// packages that read them (plot, report, the CLI).
package sweeptest

import (
	"context"
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/internal/output"
	"github.com/ddlsim/ddlsim/internal/sweep"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// Run produces a plausible run without the simulator: a throughput series with a dip while
// a DDL runs, longer under "fullscan"; pool size (when swept) scales the dip.
func Run(_ context.Context, pt sweep.Point, seed uint64) (*sweep.Outcome, error) {
	dur := 5.0
	switch v, _ := pt.Get("policy"); v {
	case "fullscan":
		dur = 25
	case "lazy":
		dur = 15
	}
	if v, ok := pt.Get("mysql.innodb_buffer_pool_size"); ok {
		dur *= map[string]float64{"1GiB": 1, "2GiB": 2, "4GiB": 4}[v]
	}
	noise := float64(seed%5) * 0.3
	dur += noise
	start := 20.0
	s := &metrics.Series{Columns: []string{"time_s", "tps"}}
	for t := 1.0; t <= 60; t++ {
		v := 4000 + 50*float64((int(t)*7+int(seed))%5)
		if t > start && t <= start+dur {
			v *= 0.3
		}
		s.Rows = append(s.Rows, []float64{t, v})
	}
	d := metrics.DDLResult{Op: "create_index", Table: "big", StartS: start, EndS: start + dur, DurationS: dur,
		Phases: []metrics.Phase{{Name: "scan", StartS: start, EndS: start + dur*0.3}, {Name: "sort", StartS: start + dur*0.3, EndS: start + dur*0.5},
			{Name: "load", StartS: start + dur*0.5, EndS: start + dur*0.7}, {Name: "observer_flush", StartS: start + dur*0.7, EndS: start + dur}},
		BaselineTPS: 4100 + noise, MinTPS: 1200 + 10*noise, MeanTPS: 1230 + 10*noise, LatP95Ms: 20 + dur/2, LatP99Ms: 30 + dur, BelowHalfS: math.Floor(dur)}
	return &sweep.Outcome{ConfigHash: "h", Series: s, DDL: []metrics.DDLResult{d},
		Summary: metrics.Summary{{Name: "tps_mean", Value: 3800 - 20*dur}, {Name: "ddl_dip_s", Value: dur}}}, nil
}

// Dir writes a compare (kind "compare", policies × 3 seeds, series kept) or a sweep (policy ×
// pool size) results directory made by Run.
func Dir(t testing.TB, kind string) string {
	dir := t.TempDir()
	var pts []sweep.Point
	pols := []string{"fullscan", "lazy", "indexed"}
	for i, p := range pols {
		if kind == "compare" {
			pts = append(pts, sweep.Point{ID: i, Params: output.Params{{Path: "policy", Value: p}}})
			continue
		}
		for _, sz := range []string{"1GiB", "2GiB", "4GiB"} {
			pts = append(pts, sweep.Point{ID: len(pts), Params: output.Params{{Path: "policy", Value: p}, {Path: "mysql.innodb_buffer_pool_size", Value: sz}}})
		}
	}
	plan := sweep.NewPlan(kind, "fake.yaml", "fake", pts, []uint64{1, 2, 3}, "base: fake.yaml\n")
	if _, err := sweep.Execute(context.Background(), plan, sweep.Options{Dir: dir, Run: Run, SaveSeries: kind == "compare"}); err != nil {
		t.Fatal(err)
	}
	return dir
}
