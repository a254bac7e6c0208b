package runner_test

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
)

var update = flag.Bool("update", false, "rewrite the golden traces in testdata/golden (TestGoldenTraces)")

// goldenRuns are short runs of shipped scenarios whose whole result — every report interval's
// series row, the summary, each DDL statement's result and phases, the mutex table — is kept
// as a text trace under testdata/golden. Any change of simulated behaviour moves one of them;
// a change that should move them is re-recorded with
//
//	go test ./model/runner -run TestGoldenTraces -update
//
// and the diff of the traces reviewed with the change. The three cover a DROP TABLE under
// 8.0.18's scans, a CREATE INDEX under the indexed policy (the bulk load's flush-observer
// flush in batches) and session temp-tablespace truncations under 8.0.27's lazy drop.
var goldenRuns = []struct {
	name, scenario string
	sets           []string
}{
	{"quickstart-drop", "../../scenarios/quickstart.yaml", []string{"duration=8s"}},
	{"create-index-indexed", "../../scenarios/faster-ddl/create-index.yaml",
		[]string{"policy=indexed", "duration=20s", "workload[0].sysbench.threads=8"}},
	{"temp-table-lazy", "../../scenarios/faster-ddl/temp-table.yaml",
		[]string{"mysql.version=8.0.27", "policy=lazy", "duration=20s", "workload[0].tpcc.threads=8", "workload[1].temp_table_connections.start=10s"}},
}

func TestGoldenTraces(t *testing.T) {
	if testing.Short() {
		t.Skip("three short simulations (~5 CPU-s)")
	}
	if server.Invariants {
		// The pool is checked after every policy call: the temp-table run's thousands of
		// truncations take over ten minutes so, and the traces are the same either way.
		t.Skip("the golden traces run without the invariants tag (go test ./model/runner)")
	}
	for _, g := range goldenRuns {
		t.Run(g.name, func(t *testing.T) {
			sc, err := config.LoadWith(g.scenario, g.sets, nil)
			if err != nil {
				t.Fatal(err)
			}
			res, err := runner.Run(sc, runner.Options{})
			if err != nil {
				t.Fatal(err)
			}
			got := trace(g.scenario, g.sets, res)
			path := filepath.Join("testdata", "golden", g.name+".txt")
			if *update {
				if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
					t.Fatal(err)
				}
				return
			}
			want, err := os.ReadFile(path)
			if err != nil {
				t.Fatalf("%v (record it with -update)", err)
			}
			if got != string(want) {
				t.Errorf("the trace of %s differs from %s (first difference: %s); if the change is meant, re-record with -update and review the diff",
					g.name, path, firstDiff(string(want), got))
			}
		})
	}
}

// trace renders a result as text, every number at full precision (shortest round-trip form),
// so any change of a simulated value shows. The kernel's event count is left out: a faster
// kernel that fires fewer events for the same behaviour does not move a trace.
func trace(scenario string, sets []string, res *runner.Result) string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s --set %s (seed %d); TestGoldenTraces, re-record with -update\n", filepath.Base(scenario), strings.Join(sets, " --set "), res.Seed)
	b.WriteString("series\t" + strings.Join(res.Series.Columns, "\t") + "\n")
	for _, row := range res.Series.Rows {
		for i, v := range row {
			if i > 0 {
				b.WriteByte('\t')
			}
			b.WriteString(strconv.FormatFloat(v, 'g', -1, 64))
		}
		b.WriteByte('\n')
	}
	for _, m := range res.Summary {
		fmt.Fprintf(&b, "summary\t%+v\n", m)
	}
	for _, d := range res.DDL {
		fmt.Fprintf(&b, "ddl\t%+v\n", d)
	}
	for _, m := range res.Mutexes {
		fmt.Fprintf(&b, "mutex\t%+v\n", m)
	}
	fmt.Fprintf(&b, "hit_cap\t%v\n", res.HitCap)
	return b.String()
}

func firstDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := 0; i < len(w) || i < len(g); i++ {
		var a, c string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			c = g[i]
		}
		if a != c {
			return fmt.Sprintf("line %d: want %.120q, got %.120q", i+1, a, c)
		}
	}
	return "none"
}
