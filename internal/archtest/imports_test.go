package archtest_test

import (
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
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
