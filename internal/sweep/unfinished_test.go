package sweep

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Unfinished lists exactly the runs with an unfinished statement, naming the point's
// parameters, the seed and the statement; PrintUnfinished prints nothing when there are none.
func TestUnfinishedListsCappedRuns(t *testing.T) {
	rows := []Row{
		{Point: 0, Params: []Param{{"policy", "fullscan"}}, Seed: 1, DDL: []metrics.DDLResult{{Op: "create_index", Table: "sbtest", DurationS: 40, Unfinished: true}}},
		{Point: 1, Params: []Param{{"policy", "indexed"}}, Seed: 1, DDL: []metrics.DDLResult{{Op: "create_index", Table: "sbtest", DurationS: 5}}},
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
