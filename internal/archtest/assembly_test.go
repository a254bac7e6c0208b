package archtest_test

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

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
		if rel == filepath.FromSlash("model/runner/build.go") || rel == filepath.FromSlash("internal/archtest/assembly_test.go") {
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
