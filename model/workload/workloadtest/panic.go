// Package workloadtest holds workloads that only tests use; a test installs them with the
// assembly's schema by calling Install:
//
//	workloadtest.Install()
//
// test_panic: one client that panics at 1.5 s of simulated time, a stand-in for a bug in the
// model (the runner's guard and the CLI's crash report are tested with it).
package workloadtest

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/sim"
)

type panicLoad struct {
	config.NoParams `yaml:"-"`
}

func (p *panicLoad) Launch(env workload.Env) (workload.Running, error) {
	env.Srv.Spawn("panicker", "fg", func(t *server.Thread) {
		t.Sleep(1500 * sim.Millisecond)
		panic("deliberate test panic")
	})
	return nil, nil
}

// Kind is test_panic: a workload that panics at 1.5 s.
var Kind = config.Kind{Name: "test_panic", Doc: "test only: panics at 1.5 s",
	New: func() config.Params { return new(panicLoad) }}

// Install installs the assembly's schema with test_panic added (tests of the crash path call
// it before loading a scenario that names it).
func Install() {
	s := runner.Schema()
	s.Workloads = append(s.Workloads, Kind)
	config.Install(s)
}
