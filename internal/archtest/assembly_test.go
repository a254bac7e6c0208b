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

// TestKindsInstalledByTheAssembly: the open kinds reach config in one call, config.Install,
// made only by the assembly (model/runner/schema.go; tests' extra kinds through
// model/workload/workloadtest.Install, which starts from runner.Schema). No package registers
// itself from an init, so what a scenario may name never depends on what a binary links or
// on the order init functions ran.
func TestKindsInstalledByTheAssembly(t *testing.T) {
	install := regexp.MustCompile(`\bconfig\.Install\(`)
	register := regexp.MustCompile(`\bconfig\.Register[A-Za-z]*\(`)
	allowed := map[string]bool{
		filepath.FromSlash("model/runner/schema.go"):               true,
		filepath.FromSlash("model/workload/workloadtest/panic.go"): true,
	}
	var offenders []string
	filepath.WalkDir("../..", func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
			return err
		}
		rel, _ := filepath.Rel("../..", path)
		if rel == filepath.FromSlash("internal/archtest/assembly_test.go") || filepath.Dir(rel) == filepath.FromSlash("model/config") {
			return nil // the rule's own text, and config, which defines Install
		}
		b, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		if loc := register.FindIndex(b); loc != nil {
			offenders = append(offenders, rel+": "+string(b[loc[0]:loc[1]]))
		}
		if loc := install.FindIndex(b); loc != nil && !allowed[rel] {
			offenders = append(offenders, rel+": "+string(b[loc[0]:loc[1]]))
		}
		return nil
	})
	if len(offenders) > 0 {
		t.Errorf("kinds reach config outside the assembly (model/runner.Schema, config.Install):\n%s", strings.Join(offenders, "\n"))
	}
}
