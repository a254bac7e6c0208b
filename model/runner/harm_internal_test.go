package runner

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// TestAboveSLO checks the SLO seconds against hand-counted series: intervals overlapping the
// statement count, the breach it ends in is followed to its end, a later breach is not its.
func TestAboveSLO(t *testing.T) {
	p99 := []float64{1, 9, 1, 9, 9, 9, 9, 1, 9, 9, 1, 0, 1}
	s := &metrics.Series{Columns: []string{"time_s", "lat_p99_ms", "tps"}}
	for i, v := range p99 {
		tps := 100.0
		if v == 0 {
			tps = 0 // no transaction completed: the clients are stuck
		}
		s.Rows = append(s.Rows, []float64{float64(i + 1), v, tps})
	}
	cases := []struct {
		start, end     float64
		secs, breaches float64
	}{
		{1, 4, 5, 2},     // intervals ending 2..4 (9 1 9), then the breach it ends in goes on to 7
		{0, 0.5, 0, 0},   // inside interval 1 (p99 1), nothing after
		{7.2, 7.5, 0, 0}, // inside interval 8 (p99 1): the breach at 9-10 is not its
		{4.5, 4.6, 3, 1}, // inside interval 5, in a breach that lasts to 7
		{8.1, 10, 2, 1},  // to the end of the breach
		{10.5, 13, 1, 1}, // interval 12 had no transactions: stuck, above
	}
	for _, c := range cases {
		d := &metrics.DDLResult{StartS: c.start, EndS: c.end, BaselineTPS: 100}
		secs, n := aboveSLO(s, 1, 2, 5, 1, d)
		if secs != c.secs || n != c.breaches {
			t.Errorf("statement [%v, %v]: %v s in %v breaches, want %v s in %v", c.start, c.end, secs, n, c.secs, c.breaches)
		}
	}
}
