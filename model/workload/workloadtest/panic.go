// Package workloadtest registers workloads that only tests use; import it for its side effect:
//
//	import _ "github.com/ddlsim/ddlsim/model/workload/workloadtest"
//
// test_panic: one client that panics at 1.5 s of simulated time, a stand-in for a bug in the
// model (the runner's guard and the CLI's crash report are tested with it).
package workloadtest

import (
	"github.com/ddlsim/ddlsim/model/config"
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

func init() {
	config.RegisterWorkload(config.Kind{Name: "test_panic", Doc: "test only: panics at 1.5 s",
		New: func() config.Params { return new(panicLoad) }})
}
