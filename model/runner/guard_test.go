package runner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/sim"
)

// panicLoad is a workload whose one client panics at 1.5 s of simulated time: a stand-in
// for a bug in the model.
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

const panicScenario = `
name: panics
seed: 7
hardware: profiles/8c-64g.yaml
mysql: {innodb_buffer_pool_size: 128MiB}
data: [{name: sbtest, rows: 10k}]
warmup: 1s
duration: 2s
workload:
  - sysbench: {mix: oltp_point_select, threads: 1}
  - test_panic: {}
`

// A panic in a simulated thread comes back from Run as a *PanicError with what a bug report
// needs; it does not crash the caller.
func TestRunPanicIsAnError(t *testing.T) {
	sc := load(t, panicScenario)
	_, err := runner.Run(sc, runner.Options{})
	var pe *runner.PanicError
	if !errors.As(err, &pe) {
		t.Fatalf("Run returned %v, want a *PanicError", err)
	}
	if pe.Value != "deliberate test panic" || pe.Proc != "panicker" || pe.Seed != 7 || pe.ConfigHash != config.Hash(sc) {
		t.Errorf("%+v", pe)
	}
	if pe.SimTime != 1500*sim.Millisecond {
		t.Errorf("simulated time %s, want 1.5s", pe.SimTime)
	}
	if !strings.Contains(string(pe.Stack), "guard_test.go") {
		t.Errorf("the stack does not reach the panic:\n%s", pe.Stack)
	}
}
