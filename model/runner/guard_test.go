package runner_test

import (
	"errors"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/workload/workloadtest"
	"github.com/ddlsim/ddlsim/sim"
)

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
	workloadtest.Install()
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
	if !strings.Contains(string(pe.Stack), "workloadtest/panic.go") {
		t.Errorf("the stack does not reach the panic:\n%s", pe.Stack)
	}
}
