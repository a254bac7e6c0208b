package runner

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/policies"
)

// Schema is the open part of the scenario schema as this assembly builds it: every DDL
// operation, workload and policy kind, the table shaping the tablespace limit uses and the
// warnings only a kind's package computes. It is the one list: the packages above config
// only export theirs (ddl.Kinds, workload.Kinds, policies.Kinds), none registers itself.
func Schema() config.Schema {
	return config.Schema{
		DDL:       ddl.Kinds(),
		Workloads: workload.Kinds(),
		Policies:  policies.Kinds(),
		DataShape: server.GroupPages,
		Warners:   []func(*config.Scenario) []config.Warning{ddl.TempWarnings, server.PoolFillWarnings},
	}
}

// The assembly installs its schema once, here, the only place any kind reaches config
// (internal/archtest's TestKindsInstalledByTheAssembly): a binary or test that links runner
// loads scenarios with exactly this schema, whatever else it links.
func init() { config.Install(Schema()) }
