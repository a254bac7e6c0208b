package sweep

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// A phase that occurs twice in one statement is one metric, its total, not two values of the
// same metric (which compare would average as if they were two runs).
func TestKeyMetricsSumsRepeatedPhases(t *testing.T) {
	r := &Row{DDL: []metrics.DDLResult{{Op: "create_index", DurationS: 10, Phases: []metrics.Phase{
		{Name: "observer_flush", StartS: 0, EndS: 3}, {Name: "row_log_apply", StartS: 3, EndS: 4},
		{Name: "observer_flush", StartS: 4, EndS: 4.5}}}}}
	var names []string
	var flush float64
	for _, m := range KeyMetrics(r) {
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

// The compare table leads with each DDL statement's duration and traffic impact, then the
// run's metrics, then the phases; numbers are in plain notation; an unfinished statement is
// spelled out; one seed prints no "±".
func TestTableImpactFirstPlainNumbers(t *testing.T) {
	row := func(point int, pol string, seed uint64, dur float64, unfinished bool) Row {
		return Row{Point: point, Params: []Param{{"policy", pol}}, Seed: seed,
			Metrics: metrics.Summary{{Name: "tps_mean", Value: 143512.25 + float64(seed)}, {Name: "hit_ratio_mean", Value: 0.9999991}},
			DDL: []metrics.DDLResult{{Op: "create_index", Table: "big", DurationS: dur, Unfinished: unfinished,
				BaselineTPS: 150000, MinTPS: 1234567.5, MeanTPS: 90000, LatP95Ms: 12.5, LatP99Ms: 40.25, BelowHalfS: 3,
				Phases: []metrics.Phase{{Name: "scan", StartS: 0, EndS: 0.0000125}, {Name: "load", StartS: 0.5, EndS: dur}}}}}
	}
	rows := []Row{row(0, "fullscan", 1, 600, true), row(0, "fullscan", 2, 600, true),
		row(1, "indexed", 1, 5.5, false), row(1, "indexed", 2, 6.25, false)}
	var b strings.Builder
	if err := Tabulate(GroupByPoint(rows)).Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	lines := strings.Split(out, "\n")
	var order []string
	for _, l := range lines {
		if f := strings.Fields(l); len(f) > 0 && f[0] != "--" {
			order = append(order, f[0])
		}
	}
	want := []string{"metric", "runs", "ddl0_create_index_duration_s", "ddl0_create_index_baseline_tps", "ddl0_create_index_min_tps",
		"ddl0_create_index_mean_tps", "ddl0_create_index_lat_p95_ms", "ddl0_create_index_lat_p99_ms", "ddl0_create_index_below_half_s",
		"tps_mean", "hit_ratio_mean", "ddl0_create_index_scan_s", "ddl0_create_index_load_s"}
	if strings.Join(order, " ") != strings.Join(want, " ") {
		t.Errorf("row order\n%v\nwant\n%v\n%s", order, want, out)
	}
	for _, bad := range []string{"e+", "e-", "nan", "NaN", "Inf"} {
		if strings.Contains(out, bad) {
			t.Errorf("table holds %q:\n%s", bad, out)
		}
	}
	for _, w := range []string{"unfinished (> 600 s)", "143513.8 ± 6.4", "1234568", "0.0000125", "5.9 ± 4.8"} {
		if !strings.Contains(out, w) {
			t.Errorf("no %q in\n%s", w, out)
		}
	}
	b.Reset()
	if err := Tabulate(GroupByPoint([]Row{rows[0], rows[2]})).Print(&b); err != nil {
		t.Fatal(err)
	}
	if strings.Contains(b.String(), "±") || strings.Contains(b.String(), "nan") {
		t.Errorf("one seed:\n%s", b.String())
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
		{Stat{N: 1, Mean: 143500, Half: nan}, "143500"},
		{Stat{N: 1, Mean: 1.4351e12, Half: nan}, "1435100000000"},
		{Stat{N: 1, Mean: 0.0000125, Half: nan}, "0.0000125"},
		{Stat{N: 0, Mean: nan, Half: nan}, "—"},
		{Stat{N: 2, Mean: 10, Half: 1, Unfinished: 1, Bound: 600}, "10.0 ± 1.0 (1 unfinished, > 600 s)"},
	} {
		if got := c.s.Cell(); got != c.want {
			t.Errorf("%+v: %q, want %q", c.s, got, c.want)
		}
	}
}

// results.csv and results.jsonl use the run directory's number format: no exponent, NaN an
// empty cell / null, infinities +Inf in CSV and null in JSON.
func TestResultsNumberFormat(t *testing.T) {
	rows := []Row{{Point: 0, Seed: 1, Metrics: metrics.Summary{{Name: "big", Value: 1.435e5 + 0.5}, {Name: "huge", Value: 2e21},
		{Name: "tiny", Value: 2.5e-9}, {Name: "none", Value: nan}, {Name: "inf", Value: math.Inf(1)}},
		DDL: []metrics.DDLResult{{Op: "drop_table", DurationS: 1e-7, LatP95Ms: nan, MinTPS: math.Inf(1),
			Phases: []metrics.Phase{{Name: "drop", StartS: 0, EndS: 1e-7}}}}, WallTimeS: 1e-8}}
	var c, j strings.Builder
	if err := WriteCSV(&c, rows); err != nil {
		t.Fatal(err)
	}
	if err := WriteJSONL(&j, rows); err != nil {
		t.Fatal(err)
	}
	exp := regexp.MustCompile(`[0-9][eE][-+]?[0-9]`)
	for name, s := range map[string]string{"csv": c.String(), "jsonl": j.String()} {
		if exp.MatchString(s) {
			t.Errorf("%s holds exponent notation %q:\n%s", name, exp.FindString(s), s)
		}
	}
	if !strings.Contains(c.String(), ",143500.5,2000000000000000000000,0.0000000025,,+Inf,") {
		t.Errorf("csv:\n%s", c.String())
	}
	if !strings.Contains(j.String(), `"none":null,"inf":null`) || !strings.Contains(j.String(), `"lat_p95_ms":null`) {
		t.Errorf("jsonl:\n%s", j.String())
	}
	back, err := ReadJSONL(strings.NewReader(j.String()))
	if err != nil || len(back) != 1 || !math.IsNaN(back[0].DDL[0].LatP95Ms) {
		t.Errorf("read back: %+v %v", back, err)
	}
}

// A run with more statements than ListedDDLs (a DROP loop) gets per-operation aggregates, not
// a block of rows per statement: the table stays the same size whatever the loop's length, and
// the aggregates are those of a literal pass over the statements.
func TestManyStatementsAggregate(t *testing.T) {
	var ddls []metrics.DDLResult
	const n = 25
	wantTotal, wantMax, wantMin, wantBelow := 0.0, 0.0, math.Inf(1), 0.0
	for i := range n {
		d := metrics.DDLResult{Op: "drop_table", Table: fmt.Sprintf("t%d", i), DurationS: 1 + float64(i%7)/10,
			BaselineTPS: 1000, MinTPS: 900 - float64(i*13%50), MeanTPS: 950, LatP99Ms: float64(10 + i%5), BelowHalfS: 0.25,
			Phases: []metrics.Phase{{Name: "free_pages", StartS: 0, EndS: 0.125}, {Name: "drop", StartS: 0.125, EndS: 1}}}
		wantTotal += d.DurationS
		wantMax = max(wantMax, d.DurationS)
		wantMin = min(wantMin, d.MinTPS)
		wantBelow += d.BelowHalfS
		ddls = append(ddls, d)
	}
	ddls = append(ddls, metrics.DDLResult{Op: "truncate_table", Table: "x", DurationS: 2, Failed: true})
	got := map[string]float64{}
	for _, m := range KeyMetricsOf(&Row{DDL: ddls}) {
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

	// The table: one impact section per operation, titled with the count.
	var b strings.Builder
	if err := Tabulate(GroupByPoint([]Row{{Params: []Param{{"policy", "fullscan"}}, Seed: 1, DDL: ddls}})).Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "-- all 25 drop_table statements: duration and traffic impact --") {
		t.Errorf("no aggregate section:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines > 40 {
		t.Errorf("table of %d lines for %d statements:\n%s", lines, len(ddls), out)
	}

	// Unfinished statements: the durations are lower bounds, spelled out.
	ddls[n-1].Unfinished = true
	for _, m := range KeyMetricsOf(&Row{DDL: ddls}) {
		if m.Name == "ddl_all_drop_table_total_duration_s" {
			if !m.Unfinished || !math.IsNaN(m.Value) || math.Abs(m.Bound-wantTotal) > 1e-9 {
				t.Errorf("with one unfinished: %+v, want NaN, unfinished, bound %v", m, wantTotal)
			}
		}
	}

	// At ListedDDLs statements or fewer, each is listed as before.
	var listed bool
	for _, m := range KeyMetricsOf(&Row{DDL: ddls[:ListedDDLs]}) {
		listed = listed || m.Name == fmt.Sprintf("ddl%d_drop_table_duration_s", ListedDDLs-1)
		if strings.HasPrefix(m.Name, "ddl_all_") {
			t.Fatalf("aggregate %s for %d statements", m.Name, ListedDDLs)
		}
	}
	if !listed {
		t.Error("the last of ListedDDLs statements is not listed")
	}
}
