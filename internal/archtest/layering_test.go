package archtest_test

import (
	"slices"
	"testing"
)

// TestMaintenanceLayering: policies → model/maint → model/server → model/bufpool, and never
// policies → model/bufpool: a policy is written on the maintenance room's walks and toolkit,
// which own the mutex order, the fix protocol and the charging, so "every policy goes through
// the toolkit" is a boundary, not a convention. Non-test code only: the conformance suite
// inspects the pool directly to judge a policy.
func TestMaintenanceLayering(t *testing.T) {
	imports := projectImports(t, "../..")
	rules := []struct {
		pkg, dep string
		want     bool
	}{
		{"policies", "model/maint", true},
		{"policies", "model/bufpool", false},
		{"model/maint", "model/server", true},
		{"model/maint", "model/bufpool", true},
		{"model/server", "model/bufpool", true},
		{"model/server", "model/maint", false},
		{"model/bufpool", "model/server", false},
	}
	for _, r := range rules {
		deps, ok := imports[r.pkg]
		if !ok {
			t.Errorf("package %s not found", r.pkg)
			continue
		}
		if got := slices.Contains(deps, r.dep); got != r.want {
			verb := "must not import"
			if r.want {
				verb = "must import"
			}
			t.Errorf("%s %s %s (imports %v)", r.pkg, verb, r.dep, deps)
		}
	}
}
