package output

import (
	"fmt"
	"math"
	"regexp"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// The compare table leads with each DDL statement's duration and traffic impact, then the
// run's metrics, then the phases; numbers are in plain notation; an unfinished statement is
// spelled out; one seed prints no "±".
func TestTableImpactFirstPlainNumbers(t *testing.T) {
	row := func(point int, pol string, seed uint64, dur float64, unfinished bool) Row {
		return Row{Point: point, Params: Params{{Path: "policy", Value: pol}}, Seed: seed,
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
		"ddl0_create_index_lost_txns", "tps_mean", "hit_ratio_mean", "ddl0_create_index_scan_s", "ddl0_create_index_load_s"}
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

// A run of many statements is tabulated as per-operation aggregates: one impact section per
// operation, titled with the count, whatever the number of statements.
func TestTableAggregatesManyStatements(t *testing.T) {
	var ddls []metrics.DDLResult
	for i := range 25 {
		ddls = append(ddls, metrics.DDLResult{Op: "drop_table", Table: fmt.Sprintf("t%d", i), DurationS: 1 + float64(i%7)/10,
			Phases: []metrics.Phase{{Name: "free_pages", StartS: 0, EndS: 0.125}, {Name: "drop", StartS: 0.125, EndS: 1}}})
	}
	ddls = append(ddls, metrics.DDLResult{Op: "truncate_table", Table: "x", DurationS: 2, Failed: true})
	// The table: one impact section per operation, titled with the count.
	var b strings.Builder
	if err := Tabulate(GroupByPoint([]Row{{Params: Params{{Path: "policy", Value: "fullscan"}}, Seed: 1, DDL: ddls}})).Print(&b); err != nil {
		t.Fatal(err)
	}
	out := b.String()
	if !strings.Contains(out, "-- all 25 drop_table statements: duration and traffic impact --") {
		t.Errorf("no aggregate section:\n%s", out)
	}
	if lines := strings.Count(out, "\n"); lines > 40 {
		t.Errorf("table of %d lines for %d statements:\n%s", lines, len(ddls), out)
	}

}

// results.csv and results.jsonl use the run directory's number format: no exponent, NaN an
// empty cell / null, infinities +Inf in CSV and null in JSON.
func TestResultsNumberFormat(t *testing.T) {
	rows := []Row{{Point: 0, Seed: 1, Metrics: metrics.Summary{{Name: "big", Value: 1.435e5 + 0.5}, {Name: "huge", Value: 2e21},
		{Name: "tiny", Value: 2.5e-9}, {Name: "none", Value: math.NaN()}, {Name: "inf", Value: math.Inf(1)}},
		DDL: []metrics.DDLResult{{Op: "drop_table", DurationS: 1e-7, LatP95Ms: math.NaN(), MinTPS: math.Inf(1),
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

// Unfinished lists exactly the runs with an unfinished statement, naming the point's
// parameters, the seed and the statement; PrintUnfinished prints nothing when there are none.
func TestUnfinishedListsCappedRuns(t *testing.T) {
	rows := []Row{
		{Point: 0, Params: Params{{Path: "policy", Value: "fullscan"}}, Seed: 1, DDL: []metrics.DDLResult{{Op: "create_index", Table: "sbtest", DurationS: 40, Unfinished: true}}},
		{Point: 1, Params: Params{{Path: "policy", Value: "indexed"}}, Seed: 1, DDL: []metrics.DDLResult{{Op: "create_index", Table: "sbtest", DurationS: 5}}},
		{Point: 2, Seed: 3, DDL: []metrics.DDLResult{{Op: "optimize_table", Table: "t", DurationS: 9, Failed: true}}},
	}
	got := Unfinished(rows)
	if len(got) != 1 || !strings.Contains(got[0], "policy=fullscan seed 1") || !strings.Contains(got[0], "create_index sbtest (> 40 s)") {
		t.Fatalf("%q", got)
	}
	var b strings.Builder
	PrintUnfinished(&b, rows[1:])
	if b.Len() != 0 {
		t.Fatalf("printed %q for runs that all finished", b.String())
	}
	PrintUnfinished(&b, rows)
	if !strings.Contains(b.String(), "1 run(s) hit the end of the run") {
		t.Fatalf("%q", b.String())
	}
}

func TestRowRoundTrip(t *testing.T) {
	r := Row{Point: 4, Params: Params{{Path: "b", Value: "2"}, {Path: "a", Value: "x\"y"}}, Seed: 3, Version: "v", ConfigHash: "h",
		Metrics: metrics.Summary{{Name: "tps_mean", Value: 1234.5}, {Name: "nan", Value: math.NaN()}},
		DDL: []metrics.DDLResult{{Op: "create_index", Table: "big", DurationS: 12.5, MinTPS: math.Inf(1), LatP95Ms: math.NaN(),
			Phases: []metrics.Phase{{Name: "scan", StartS: 1, EndS: 2}}}}, WallTimeS: 0.5}
	b, err := r.MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	var back Row
	if err := back.UnmarshalJSON(b); err != nil {
		t.Fatal(err)
	}
	b2, _ := back.MarshalJSON()
	if string(b) != string(b2) {
		t.Fatalf("round trip:\n%s\n%s", b, b2)
	}
	if !strings.HasSuffix(string(b), `,"wall_time_s":0.5}`) || StripWallTime(string(b), false) != strings.TrimSuffix(string(b), `,"wall_time_s":0.5}`)+"}" {
		t.Fatalf("wall time not last / not stripped: %s", b)
	}
}
