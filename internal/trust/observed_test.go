package trust

import (
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// The simulated rate is the mean qps over the intervals that overlap no DDL statement (one
// that starts or ends inside an interval spoils it; an unfinished one runs to the end), the
// whole run's when none is free; the band is 1.5× either way, inclusive.
func TestCompareObservedIntervals(t *testing.T) {
	s := &metrics.Series{Columns: []string{"time_s", "qps"}}
	for i, q := range []float64{100, 200, 10, 20, 30, 400} {
		s.Rows = append(s.Rows, []float64{float64(i + 1), q})
	}
	sc := &config.Scenario{Observed: config.Observed{StatementsPerS: 200}}
	ddl := []metrics.DDLResult{{StartS: 2.5, DurationS: 2}} // overlaps (2,3], (3,4], (4,5]
	o := CompareObserved(sc, s, ddl)
	if want := (100 + 200 + 400) / 3.0; o.Basis != "no_ddl_intervals" || math.Abs(o.Simulated-want) > 1e-9 {
		t.Errorf("with a DDL in 2.5-4.5 s: %+v, want %.4g over the free intervals", o, want)
	}
	o = CompareObserved(sc, s, []metrics.DDLResult{{StartS: 0.5, Unfinished: true}})
	if want := 760 / 6.0; o.Basis != "whole_run" || math.Abs(o.Simulated-want) > 1e-9 || o.WithinBand {
		t.Errorf("with an unfinished DDL from 0.5 s: %+v, want the whole run's %.4g, outside the band", o, want)
	}
	for _, tc := range []struct {
		obs  float64
		want bool
	}{{760 / 6.0 * 1.5, true}, {760 / 6.0 / 1.5, true}, {760 / 6.0 * 1.51, false}, {760 / 6.0 / 1.51, false}} {
		sc.Observed.StatementsPerS = tc.obs
		if o := CompareObserved(sc, s, nil); o.WithinBand != tc.want {
			t.Errorf("observed %.4g, simulated %.4g: within band %v, want %v", tc.obs, o.Simulated, o.WithinBand, tc.want)
		}
	}
	sc.Observed = config.Observed{}
	if CompareObserved(sc, s, nil) != nil {
		t.Error("a scenario without observed: compared")
	}
}
