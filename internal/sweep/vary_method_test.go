package sweep

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
)

// --vary method=native,pt-osc,gh-ost (the shorthand for every schedule entry's method)
// plans three runs per seed, each with the scenario's create_index run by that method.
func TestVaryMethodExpandsToThreeRuns(t *testing.T) {
	base, err := LoadBase("../../scenarios/osc/add-index.yaml", nil)
	if err != nil {
		t.Fatal(err)
	}
	plan, err := PlanVary(base, []Vary{{Path: "method", Values: []string{"native", "pt-osc", "gh-ost"}}}, nil, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	if len(plan.Points) != 3 || len(plan.Seeds) != 2 {
		t.Fatalf("%d points × %d seeds, want 3 × 2", len(plan.Points), len(plan.Seeds))
	}
	for i, want := range []string{"native", "pt-osc", "gh-ost"} {
		sc, err := base.Scenario(plan.Points[i], plan.Seeds[0])
		if err != nil {
			t.Fatal(err)
		}
		ci, ok := sc.Schedule[0].Params.(*ddl.CreateIndex)
		if !ok || ci.Method != want {
			t.Errorf("point %d: schedule[0] is %T %+v, want create_index by %s", i, sc.Schedule[0].Params, sc.Schedule[0].Params, want)
		}
		if (want == "pt-osc") != (ci.PtOSC != nil) || (want == "gh-ost") != (ci.GhOst != nil) {
			t.Errorf("point %d (%s): pt_osc %v, gh_ost %v: the method's options block should be defaulted for it only", i, want, ci.PtOSC != nil, ci.GhOst != nil)
		}
	}
}

// method=V sets the method of every schedule entry that has one and no other entry; a
// scenario with none refuses it with a message that says what the shorthand means.
func TestMethodShorthandSetsEveryCreateIndex(t *testing.T) {
	y := []byte(`
name: m
hardware: profiles/16c-128g-nvme.yaml
mysql: {innodb_buffer_pool_size: 512MiB, log_bin: true}
data:
  - {name: sbtest, tables: 2, size: 64MB}
duration: 10s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sbtest}
schedule:
  - {at: 1s, ddl: create_index, table: sbtest1, columns: [c]}
  - {at: 2s, ddl: drop_table, table: sbtest2}
  - {at: 3s, ddl: create_index, table: sbtest1, columns: [pad]}
`)
	sc, err := config.LoadBytesWith("m.yaml", y, "../../scenarios", []string{"method=gh-ost"}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, i := range []int{0, 2} {
		if ci := sc.Schedule[i].Params.(*ddl.CreateIndex); ci.Method != "gh-ost" {
			t.Errorf("schedule[%d].method = %q, want gh-ost", i, ci.Method)
		}
	}
	noCI := []byte(strings.Replace(strings.Replace(string(y), "ddl: create_index, table: sbtest1, columns: [c]", "ddl: drop_table, table: sbtest1", 1),
		"  - {at: 3s, ddl: create_index, table: sbtest1, columns: [pad]}\n", "", 1))
	_, err = config.LoadBytesWith("m.yaml", noCI, "../../scenarios", []string{"method=pt-osc"}, nil)
	if err == nil || !strings.Contains(err.Error(), "shorthand for the method of every schedule entry") {
		t.Errorf("method= on a scenario without create_index: %v", err)
	}
}
