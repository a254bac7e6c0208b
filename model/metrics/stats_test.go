package metrics

import (
	"fmt"
	"math"
	"strings"
	"testing"
)

// A phase that occurs twice in one statement is one metric, its total, not two values of the
// same metric (which compare would average as if they were two runs).
func TestKeyMetricsSumsRepeatedPhases(t *testing.T) {
	ddl := []DDLResult{{Op: "create_index", DurationS: 10, Phases: []Phase{
		{Name: "observer_flush", StartS: 0, EndS: 3}, {Name: "row_log_apply", StartS: 3, EndS: 4},
		{Name: "observer_flush", StartS: 4, EndS: 4.5}}}}
	var names []string
	var flush float64
	for _, m := range KeyMetrics(nil, ddl) {
		names = append(names, m.Name)
		if m.Name == "ddl0_create_index_observer_flush_s" {
			flush += m.Value
		}
	}
	want := []string{"ddl0_create_index_duration_s"}
	for _, f := range ImpactFields {
		want = append(want, "ddl0_create_index_"+f)
	}
	want = append(want, "ddl0_create_index_observer_flush_s", "ddl0_create_index_row_log_apply_s")
	if strings.Join(names, ",") != strings.Join(want, ",") {
		t.Fatalf("metrics %v, want %v", names, want)
	}
	if flush != 3.5 {
		t.Errorf("observer_flush total %v, want 3.5", flush)
	}
}

// A run with more statements than ListedDDLs (a DROP loop) gets per-operation aggregates, not
// a block of rows per statement: the table stays the same size whatever the loop's length, and
// the aggregates are those of a literal pass over the statements.
func TestManyStatementsAggregate(t *testing.T) {
	var ddls []DDLResult
	const n = 25
	wantTotal, wantMax, wantMin, wantBelow := 0.0, 0.0, math.Inf(1), 0.0
	for i := range n {
		d := DDLResult{Op: "drop_table", Table: fmt.Sprintf("t%d", i), DurationS: 1 + float64(i%7)/10,
			BaselineTPS: 1000, MinTPS: 900 - float64(i*13%50), MeanTPS: 950, LatP99Ms: float64(10 + i%5), BelowHalfS: 0.25,
			Phases: []Phase{{Name: "free_pages", StartS: 0, EndS: 0.125}, {Name: "drop", StartS: 0.125, EndS: 1}}}
		wantTotal += d.DurationS
		wantMax = max(wantMax, d.DurationS)
		wantMin = min(wantMin, d.MinTPS)
		wantBelow += d.BelowHalfS
		ddls = append(ddls, d)
	}
	ddls = append(ddls, DDLResult{Op: "truncate_table", Table: "x", DurationS: 2, Failed: true})
	got := map[string]float64{}
	for _, m := range KeyMetricsOf(nil, ddls) {
		if strings.HasPrefix(m.Name, "ddl0_") || strings.HasPrefix(m.Name, "ddl1_") {
			t.Fatalf("per-statement metric %s in a run of %d statements", m.Name, len(ddls))
		}
		got[m.Name] = m.Value
	}
	near := func(name string, want float64) {
		t.Helper()
		if v, ok := got[name]; !ok || math.Abs(v-want) > 1e-9 {
			t.Errorf("%s = %v (present %v), want %v", name, v, ok, want)
		}
	}
	near("ddl_all_drop_table_count", n)
	near("ddl_all_drop_table_failed", 0)
	near("ddl_all_drop_table_total_duration_s", wantTotal)
	near("ddl_all_drop_table_mean_duration_s", wantTotal/n)
	near("ddl_all_drop_table_max_duration_s", wantMax)
	near("ddl_all_drop_table_min_tps", wantMin)
	near("ddl_all_drop_table_lat_p99_ms", 14)
	near("ddl_all_drop_table_below_half_s", wantBelow)
	near("ddl_all_drop_table_free_pages_s", 0.125*n)
	near("ddl_all_truncate_table_count", 1)
	near("ddl_all_truncate_table_failed", 1)
	if v := got["ddl_all_truncate_table_total_duration_s"]; v != 0 {
		t.Errorf("a failed statement's time counted in the total: %v", v)
	}

	// Unfinished statements: the durations are lower bounds, spelled out.
	ddls[n-1].Unfinished = true
	for _, m := range KeyMetricsOf(nil, ddls) {
		if m.Name == "ddl_all_drop_table_total_duration_s" {
			if !m.Unfinished || !math.IsNaN(m.Value) || math.Abs(m.Bound-wantTotal) > 1e-9 {
				t.Errorf("with one unfinished: %+v, want NaN, unfinished, bound %v", m, wantTotal)
			}
		}
	}

	// At ListedDDLs statements or fewer, each is listed as before.
	var listed bool
	for _, m := range KeyMetricsOf(nil, ddls[:ListedDDLs]) {
		listed = listed || m.Name == fmt.Sprintf("ddl%d_drop_table_duration_s", ListedDDLs-1)
		if strings.HasPrefix(m.Name, "ddl_all_") {
			t.Fatalf("aggregate %s for %d statements", m.Name, ListedDDLs)
		}
	}
	if !listed {
		t.Error("the last of ListedDDLs statements is not listed")
	}
}

func TestStatStringPlain(t *testing.T) {
	for _, c := range []struct {
		s    Stat
		want string
	}{
		{Stat{N: 5, Mean: 13184.6, Half: 46.2}, "13185 ± 46"},
		{Stat{N: 5, Mean: 3.3481, Half: 0.0601}, "3.348 ± 0.060"},
		{Stat{N: 5, Mean: 659.24, Half: 19.3}, "659 ± 19"},
		{Stat{N: 5, Mean: 0.99999, Half: 0.00000052}, "0.9999900 ± 0.0000005"},
		{Stat{N: 5, Mean: 651, Half: 0}, "651 ± 0"},
		{Stat{N: 1, Mean: 143500, Half: math.NaN()}, "143500"},
		{Stat{N: 1, Mean: 1.4351e12, Half: math.NaN()}, "1435100000000"},
		{Stat{N: 1, Mean: 0.0000125, Half: math.NaN()}, "0.0000125"},
		{Stat{N: 0, Mean: math.NaN(), Half: math.NaN()}, "—"},
		{Stat{N: 2, Mean: 10, Half: 1, Unfinished: 1, Bound: 600}, "10.0 ± 1.0 (1 unfinished, > 600 s)"},
	} {
		if got := c.s.Cell(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

func TestMeanCI(t *testing.T) {
	s := MeanCI([]float64{1, 2, 3, 4, 5, math.NaN()})
	// mean 3, sd sqrt(2.5), t(0.975, 4) = 2.7764
	if s.N != 5 || s.Mean != 3 || math.Abs(s.Half-2.7764451*math.Sqrt(2.5)/math.Sqrt(5)) > 1e-5 {
		t.Fatalf("%+v", s)
	}
	if s := MeanCI([]float64{4}); s.Mean != 4 || !math.IsNaN(s.Half) || s.String() != "4" {
		t.Fatalf("%+v", s)
	}
}
