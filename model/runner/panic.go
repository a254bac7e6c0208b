package runner

import (
	"fmt"
	"runtime/debug"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/sim"
)

// PanicError is an internal failure of the simulator — a bug, never the input's fault, since
// everything a run uses is validated before it starts. Run turns a panic into one so the
// caller can write a bug report (cmd/ddlsim: the seed, the configuration hash, the command
// that reproduces it and the stack, in a file) instead of dying with a goroutine dump.
type PanicError struct {
	Value      any    // what was panicked with
	Proc       string // the simulated thread that panicked ("" outside a thread)
	Stack      []byte // the stack where it panicked
	Seed       uint64
	ConfigHash string
	SimTime    sim.Time // virtual time of the panic (0 when it happened before the run)
	// Reproduce is the command line that reruns it, when the caller knows it (set by the
	// layer that built the scenario: ddlsim run, a sweep point).
	Reproduce []string
}

func (e *PanicError) Error() string {
	where := ""
	if e.Proc != "" {
		where = " in simulated thread " + e.Proc
	}
	return fmt.Sprintf("internal error (a bug in ddlsim, not in the scenario)%s at simulated time %s: %v", where, config.Duration(e.SimTime), e.Value)
}

// Unwrap exposes an error panic value.
func (e *PanicError) Unwrap() error {
	err, _ := e.Value.(error)
	return err
}

// NewPanicError wraps a recovered value r; stack is debug.Stack() taken in the deferred
// recover (a process panic carries its own, which is used instead).
func NewPanicError(r any, stack []byte) *PanicError {
	if pe, ok := r.(*PanicError); ok {
		return pe
	}
	e := &PanicError{Value: r, Stack: stack}
	if pp, ok := r.(*sim.ProcPanic); ok {
		e.Value, e.Proc, e.Stack = pp.Value, pp.Proc, pp.Stack
	}
	return e
}

// recoverRun is Run's deferred handler: a panic becomes a *PanicError in *err, and the
// kernel's processes are released without letting a second panic hide the first.
func recoverRun(sc *config.Scenario, m **Model, err *error, res **Result) {
	r := recover()
	if r == nil {
		return
	}
	pe := NewPanicError(r, debug.Stack())
	pe.Seed = sc.Seed
	func() {
		defer func() { recover() }()
		pe.ConfigHash = config.Hash(sc)
	}()
	if *m != nil {
		pe.SimTime = (*m).Sim.Now()
		func() {
			defer func() { recover() }()
			(*m).Close()
		}()
	}
	*err, *res = pe, nil
}
