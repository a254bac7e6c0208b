package runner_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
)

// TestNoSchemaFieldIgnored: every field a scenario or profile can set is read by some code
// outside the loader (model/config decodes, defaults and checks fields; that is not use). A
// field that only the loader touches is accepted and then ignored — the data[].row_size bug.
// The check walks the schema types by reflection and the code's selector expressions by
// parsing it.
func TestNoSchemaFieldIgnored(t *testing.T) {
	used := selectorNames(t, "../..")
	var types []reflect.Type
	seen := map[reflect.Type]bool{}
	var walk func(reflect.Type)
	walk = func(ty reflect.Type) {
		for ty.Kind() == reflect.Pointer || ty.Kind() == reflect.Slice {
			ty = ty.Elem()
		}
		if ty.Kind() != reflect.Struct || seen[ty] || ty.PkgPath() == "" {
			return
		}
		seen[ty] = true
		types = append(types, ty)
		for i := 0; i < ty.NumField(); i++ {
			walk(ty.Field(i).Type)
		}
	}
	walk(reflect.TypeFor[config.Scenario]())
	for _, fam := range [][]config.Kind{config.DDLKinds(), config.WorkloadKinds(), config.PolicyKinds()} {
		for _, k := range fam {
			walk(reflect.TypeOf(k.New()))
		}
	}
	var ignored []string
	for _, ty := range types {
		for i := 0; i < ty.NumField(); i++ {
			f := ty.Field(i)
			if !f.IsExported() || f.Anonymous || ty == reflect.TypeFor[config.HardwareRef]() {
				continue // a HardwareRef is resolved into Scenario.HardwareProfile by the loader
			}
			if !used[f.Name] {
				ignored = append(ignored, ty.Name()+"."+f.Name)
			}
		}
	}
	sort.Strings(ignored)
	if len(ignored) > 0 {
		t.Errorf("schema fields no code outside model/config reads (accepted and ignored):\n  %s", strings.Join(ignored, "\n  "))
	}
}

// selectorNames collects the names selected (x.Name) in the non-test Go code under root,
// model/config excepted, and the kinds' own Defaults and Check methods excepted.
func selectorNames(t *testing.T, root string) map[string]bool {
	used := map[string]bool{}
	filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() {
			if n := d.Name(); n != ".." && (strings.HasPrefix(n, ".") || n == "testdata" || n == "config" || n == "lab") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			t.Fatal(err)
		}
		for _, decl := range f.Decls {
			if fd, ok := decl.(*ast.FuncDecl); ok && fd.Recv != nil && (fd.Name.Name == "Defaults" || fd.Name.Name == "Check") {
				continue // a kind judging its own fields is not using them
			}
			ast.Inspect(decl, func(n ast.Node) bool {
				if s, ok := n.(*ast.SelectorExpr); ok {
					used[s.Sel.Name] = true
				}
				return true
			})
		}
		return nil
	})
	return used
}
