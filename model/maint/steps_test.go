package maint_test

import (
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
)

// TestLoadStepsGapIsAnError: a key with no rows for operations the version has fails at load,
// naming every such operation at once; the shipped keys load on every family; a flush
// operation is not a DropPages operation (programmer error: panic).
func TestLoadStepsGapIsAnError(t *testing.T) {
	m, err := runner.Build(oracleScenario(t, true), runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	srv := m.Server
	_, err = maint.LoadSteps(srv, version.Policy("no_such_rows"))
	if err == nil {
		t.Fatal("LoadSteps accepted a key with no rows")
	}
	for _, o := range server.Ops {
		if !o.Flush && version.Has(srv.Ver, o.Op) && !strings.Contains(err.Error(), string(o.Op)) {
			t.Errorf("the error does not name %s: %v", o.Op, err)
		}
	}
	for _, key := range []version.Policy{version.PolicyFullscan, version.PolicyLazy, version.PolicyPerconaLazy} {
		st, err := maint.LoadSteps(srv, key)
		if err != nil {
			t.Fatalf("%s: %v", key, err)
		}
		if key == version.PolicyFullscan && len(st.Of(version.OpDropTable)) == 0 {
			t.Errorf("8.0.18 fullscan DROP has no steps")
		}
		func() {
			defer func() {
				if recover() == nil {
					t.Errorf("%s: Of(flush_for_export) did not panic", key)
				}
			}()
			st.Of(version.OpExport)
		}()
	}
}
