package runner_test

import (
	"os"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/runner"
)

// TestScenarioDocCoversRegistry: docs/scenarios.md names every registered DDL operation,
// workload and policy, and every field of each.
func TestScenarioDocCoversRegistry(t *testing.T) {
	b, err := os.ReadFile("../../docs/scenarios.md")
	if err != nil {
		t.Fatal(err)
	}
	doc := string(b)
	section := func(title string) string {
		i := strings.Index(doc, "\n## "+title+"\n")
		if i < 0 {
			t.Fatalf("docs/scenarios.md has no section %q", title)
		}
		rest := doc[i+1:]
		if j := strings.Index(rest[3:], "\n## "); j >= 0 {
			rest = rest[:j+3]
		}
		return rest
	}
	for _, f := range []struct {
		section string
		kinds   []config.Kind
	}{{"schedule", config.DDLKinds()}, {"workload", config.WorkloadKinds()}, {"policy", config.PolicyKinds()}} {
		sec := section(f.section)
		for _, k := range f.kinds {
			if strings.HasPrefix(k.Name, "test_") {
				continue // registered by tests (model/workload/workloadtest: test_panic)
			}
			if !strings.Contains(sec, "`"+k.Name+"`") {
				t.Errorf("docs/scenarios.md ## %s does not name `%s`", f.section, k.Name)
			}
			for _, field := range k.Fields() {
				if !strings.Contains(sec, "`"+field+"`") {
					t.Errorf("docs/scenarios.md ## %s does not document %s's field `%s`", f.section, k.Name, field)
				}
			}
		}
	}
}

// TestDDLPhasesDeclared: every phase a statement reports is one its operation declares in
// Stages, and every registered operation runs.
func TestDDLPhasesDeclared(t *testing.T) {
	var sched []string
	kinds := config.DDLKinds()
	for i, k := range kinds {
		table := ", table: \"t[" + strconv.Itoa(i+1) + "]\""
		extra := ""
		switch k.Name {
		case "undo_truncate":
			table = ""
		case "create_index":
			extra = ", columns: [c]"
		}
		sched = append(sched, "  - {at: "+strconv.Itoa(i+1)+"s, ddl: "+k.Name+table+extra+"}")
	}
	sc := load(t, `
name: phases
seed: 3
hardware: profiles/8c-64g.yaml
mysql: {version: "8.0.18", innodb_buffer_pool_size: 256MiB}
data:
  - {name: sb, tables: 2, rows: 40k}
  - {name: t, tables: `+strconv.Itoa(len(kinds))+`, rows: 20k}
warmup: 0s
duration: 30s
workload:
  - sysbench: {mix: oltp_read_write, threads: 4, tables: sb}
schedule:
`+strings.Join(sched, "\n")+"\n")
	res, err := runner.Run(sc, runner.Options{})
	if err != nil {
		t.Fatal(err)
	}
	ran := map[string]bool{}
	for _, d := range res.DDL {
		if d.Failed || d.Unfinished {
			t.Errorf("%s: failed %v (%s), unfinished %v", d.Op, d.Failed, d.Reason, d.Unfinished)
		}
		ran[d.Op] = true
		k, _ := config.DDLKind(d.Op)
		declared := ddl.PhaseNames(k.New().(ddl.Operation))
		for _, p := range d.Phases {
			name := p.Name
			if i := strings.Index(name, "/"); i >= 0 {
				name = name[i+1:] // a one-at-a-time build's statement prefix
			}
			if !ddl.DeclaresPhase(declared, name) {
				t.Errorf("%s reported phase %q; it declares %v", d.Op, p.Name, declared)
			}
		}
	}
	for _, k := range config.DDLKinds() {
		if !ran[k.Name] {
			t.Errorf("%s did not run", k.Name)
		}
	}
}
