package archtest_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The output room's boundary, checked on the code (non-test files; lab/ and the *test helper
// packages left out):
//   - nothing in model/, sim/ or policies/ reads the wall clock or the host (time.Now,
//     time.Since, time.Until, os.Hostname, os.Getpid): a run depends on its scenario and seed
//     only;
//   - only internal/output writes files (os.Create, os.CreateTemp, os.MkdirTemp, os.Rename,
//     os.WriteFile, os.OpenFile) or CSV (encoding/csv's NewWriter), so each output file kind
//     has one writer, and every write is atomic;
//   - named exceptions: the crash report (written when anything else may have failed), the
//     --cpuprofile stream (runtime/pprof's) and the non-blocking read of an input file.
func TestOneOutputRoom(t *testing.T) {
	clock := map[string]bool{"time.Now": true, "time.Since": true, "time.Until": true, "os.Hostname": true, "os.Getpid": true}
	write := map[string]bool{"os.Create": true, "os.CreateTemp": true, "os.MkdirTemp": true, "os.Rename": true,
		"os.WriteFile": true, "os.OpenFile": true, "csv.NewWriter": true}
	except := map[string]string{
		"cmd/ddlsim/crash.go:os.CreateTemp": "the crash report",
		"cmd/ddlsim/cmd_run.go:os.Create":   "the --cpuprofile stream",
		"model/config/input.go:os.OpenFile": "the non-blocking read of an input file",
	}
	root := "../.."
	fset := token.NewFileSet()
	checked := 0
	err := filepath.WalkDir(root, func(path string, d os.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(root, path)
		rel = filepath.ToSlash(rel)
		if d.IsDir() {
			n := d.Name()
			if rel != "." && (strings.HasPrefix(n, ".") || n == "testdata" || strings.HasSuffix(n, "test") || n == "lab" || n == "notebooks") {
				return filepath.SkipDir
			}
			return nil
		}
		if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
			return nil
		}
		f, err := parser.ParseFile(fset, path, nil, parser.SkipObjectResolution)
		if err != nil {
			return err
		}
		checked++
		names := map[string]string{} // local name -> import path
		for _, im := range f.Imports {
			p, _ := strconv.Unquote(im.Path.Value)
			local := p[strings.LastIndex(p, "/")+1:]
			if im.Name != nil {
				local = im.Name.Name
			}
			names[local] = p
		}
		model := strings.HasPrefix(rel, "model/") || strings.HasPrefix(rel, "sim/") || strings.HasPrefix(rel, "policies/")
		room := strings.HasPrefix(rel, "internal/output/")
		ast.Inspect(f, func(n ast.Node) bool {
			sel, ok := n.(*ast.SelectorExpr)
			if !ok {
				return true
			}
			id, ok := sel.X.(*ast.Ident)
			if !ok {
				return true
			}
			pkg := names[id.Name]
			if pkg != "time" && pkg != "os" && pkg != "encoding/csv" {
				return true
			}
			call := pkg[strings.LastIndex(pkg, "/")+1:] + "." + sel.Sel.Name
			pos := fset.Position(sel.Pos())
			if model && clock[call] {
				t.Errorf("%s:%d: %s in %s: the model may not read the wall clock or the host", rel, pos.Line, call, filepath.Dir(rel))
			}
			if !room && write[call] && except[rel+":"+call] == "" {
				t.Errorf("%s:%d: %s outside internal/output: write files through the output room (WriteFileAtomic, Stage)", rel, pos.Line, call)
			}
			return true
		})
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if checked < 100 {
		t.Fatalf("checked %d files; did the layout change?", checked)
	}
}
