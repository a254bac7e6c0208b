package explain

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
	_ "github.com/ddlsim/ddlsim/model/workload" // the workload kinds, for loading
)

// A statement whose time is mostly its observer flush, with an MDL wait and an SLO broken in
// the flush: the paragraph names the flush first with its share, the wait, and where the SLO
// broke; a merge-dominated one on 8.0.36 is most sensitive to innodb_ddl_threads, on 8.0.18
// (no innodb_ddl_threads) to innodb_sort_buffer_size.
func TestParagraphAndRelevant(t *testing.T) {
	d := metrics.DDLResult{Op: "create_index", Table: "sbtest", Policy: "lazy", StartS: 2, EndS: 12, DurationS: 10,
		Phases: []metrics.Phase{{Name: "wait_mdl", StartS: 2, EndS: 3}, {Name: "scan", StartS: 3, EndS: 4},
			{Name: "observer_flush", StartS: 4, EndS: 11}, {Name: "row_log_apply", StartS: 11, EndS: 12}},
		BaselineTPS: 100, MeanTPS: 100, LatP99Ms: 50,
		Latency: &metrics.LatencyHarm{BaseP99Ms: 5, BaseP50Ms: 1, P50Ms: 2, SLO: "p99=10ms", AboveSLOS: 3, SLOBreaches: 1}}
	s := metrics.Series{Columns: []string{"time_s", "tps", "lat_p99_ms", "cpu_util", "pages_written_per_s", "pages_read_per_s"}}
	for i := 1; i <= 14; i++ {
		p99 := 5.0
		if i >= 6 && i <= 8 {
			p99 = 40 // intervals (5,6], (6,7], (7,8]: inside the observer flush
		}
		s.Rows = append(s.Rows, []float64{float64(i), 100, p99, 0.3, 100, 0})
	}
	res := &runner.Result{DDL: []metrics.DDLResult{d}, Series: s}
	p := Paragraphs(res)[0]
	for _, want := range []string{"took 10 s", "The time went to observer_flush 7 s (70%", "waited 1 s for its metadata lock",
		"p99=10ms was broken for 3 s in 1 breach(es) (3 s in observer_flush)", "from 5 ms before it to 50 ms"} {
		if !strings.Contains(p, want) {
			t.Errorf("paragraph lacks %q:\n%s", want, p)
		}
	}

	merge := metrics.DDLResult{DurationS: 10, Phases: []metrics.Phase{{Name: "scan", StartS: 0, EndS: 2},
		{Name: "merge", StartS: 2, EndS: 9}, {Name: "merge_pass_1", StartS: 2, EndS: 3}, {Name: "load", StartS: 9, EndS: 10}}}
	for _, c := range []struct{ version, want string }{{"8.0.36", "mysql.innodb_ddl_threads"}, {"8.0.18", "mysql.innodb_sort_buffer_size"}} {
		sc, err := config.LoadBytes("t.yaml", []byte(`
name: t
hardware: profiles/8c-64g.yaml
mysql: {version: "`+c.version+`", innodb_buffer_pool_size: 1GiB}
data: [{name: sb, tables: 1, rows: 1000}]
duration: 2s
workload: [{sysbench: {mix: oltp_read_only, rate: 100}}]
`), "../../scenarios")
		if err != nil {
			t.Fatal(err)
		}
		got := Relevant(sc, merge, 3)
		if len(got) == 0 || got[0].Path != c.want {
			t.Errorf("%s: most relevant %v, want %s first", c.version, got, c.want)
		}
		for _, g := range got {
			if c.version == "8.0.18" && strings.Contains(g.Path, "innodb_ddl_") {
				t.Errorf("8.0.18 has no %s", g.Path)
			}
		}
	}
}
