package runner_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

func load(t testing.TB, y string) *config.Scenario {
	t.Helper()
	sc, err := config.LoadBytes("test.yaml", []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

func run(t testing.TB, y string) *runner.Result {
	t.Helper()
	r, err := runner.Run(load(t, y), runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func get(t testing.TB, r *runner.Result, name string) float64 {
	t.Helper()
	v, ok := r.Summary.Get(name)
	if !ok {
		t.Fatalf("summary has no %s", name)
	}
	return v
}

func ddlOf(t testing.TB, r *runner.Result, op string) metrics.DDLResult {
	t.Helper()
	for _, d := range r.DDL {
		if d.Op == op {
			if d.Failed {
				t.Fatalf("%s failed: %s", op, d.Reason)
			}
			return d
		}
	}
	t.Fatalf("no %s result (%d DDL results)", op, len(r.DDL))
	return metrics.DDLResult{}
}

func phase(d metrics.DDLResult, name string) (s float64) {
	for _, p := range d.Phases {
		if p.Name == name {
			s += p.EndS - p.StartS
		}
	}
	return s
}

// colMean is the mean of a series column.
func colMean(t testing.TB, r *runner.Result, name string) float64 {
	t.Helper()
	c := r.Series.Col(name)
	if c < 0 {
		t.Fatalf("no column %s", name)
	}
	var s float64
	for _, row := range r.Series.Rows {
		s += row[c]
	}
	return s / float64(len(r.Series.Rows))
}
