package runner_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/runner"
)

const module = "github.com/ddlsim/ddlsim/"

// TestImportGraphMatchesArchitectureDoc: docs/architecture.md's package table lists, for each
// package, the project packages its non-test code imports; the code must import exactly those.
func TestImportGraphMatchesArchitectureDoc(t *testing.T) {
	doc, err := os.ReadFile("../../docs/architecture.md")
	if err != nil {
		t.Fatal(err)
	}
	row := regexp.MustCompile("^\\| `([a-z/]+)` \\|.*\\| ([^|]*) \\|$")
	tick := regexp.MustCompile("`([a-z/]+)`")
	documented := map[string][]string{}
	for _, line := range strings.Split(string(doc), "\n") {
		m := row.FindStringSubmatch(line)
		if m == nil {
			continue
		}
		var deps []string
		for _, d := range tick.FindAllStringSubmatch(m[2], -1) {
			deps = append(deps, d[1])
		}
		slices.Sort(deps)
		documented[m[1]] = deps
	}
	if len(documented) < 10 {
		t.Fatalf("found %d package rows in docs/architecture.md; the table's format changed?", len(documented))
	}
	actual := projectImports(t, "../..")
	for pkg, deps := range actual {
		want, ok := documented[pkg]
		if !ok {
			t.Errorf("package %s is not in docs/architecture.md's table", pkg)
			continue
		}
		if !slices.Equal(deps, want) {
			t.Errorf("%s imports %v; docs/architecture.md says %v", pkg, deps, want)
		}
	}
	for pkg := range documented {
		if _, ok := actual[pkg]; !ok {
			t.Errorf("docs/architecture.md lists %s, which has no non-test Go code", pkg)
		}
	}
}

// projectImports maps each package directory under root (non-test code, test-only helper
// packages left out) to the sorted project packages it imports.
func projectImports(t *testing.T, root string) map[string][]string {
	t.Helper()
	out := map[string][]string{}
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || strings.HasSuffix(n, "test") || n == "lab" || n == "notebooks") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, filepath.Dir(path))
		rel = filepath.ToSlash(rel)
		deps := out[rel]
		for _, im := range f.Imports {
			p := strings.Trim(im.Path.Value, `"`)
			if dep, ok := strings.CutPrefix(p, module); ok && !slices.Contains(deps, dep) {
				deps = append(deps, dep)
			}
		}
		slices.Sort(deps)
		out[rel] = deps
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestOneAssemblyPath: no code but runner.Build makes a server (tests and benchmarks
// included), so what the tests exercise is what ddlsim runs.
func TestOneAssemblyPath(t *testing.T) {
	calls := regexp.MustCompile(`\bserver\.New\(`)
	var offenders []string
	filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		if rel == filepath.FromSlash("model/runner/build.go") || rel == filepath.FromSlash("model/runner/architecture_test.go") {
			return nil
		}
		if loc := calls.FindIndex(b); loc != nil {
			offenders = append(offenders, rel+": "+string(b[loc[0]:loc[1]]))
		}
		return nil
	})
	if len(offenders) > 0 {
		t.Errorf("servers assembled outside runner.Build:\n%s", strings.Join(offenders, "\n"))
	}
}

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
