package runner

import (
	"fmt"
	"sort"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/workload"
	"github.com/ddlsim/ddlsim/policies"
	"github.com/ddlsim/ddlsim/sim"
)

// Model is one assembled simulation: the kernel and the simulated server of a scenario, its
// policy attached and its pool warmed, with the scenario's workloads and DDL schedule ready to
// start. Build is the one place a server is assembled — ddlsim run, compare and sweep (through
// Run), the tests and the benchmarks all use it — so what is tested is what runs.
type Model struct {
	Scenario *config.Scenario
	Sim      *sim.Sim
	Server   *server.Server
	// Warm and End are the end of warmup and of the run in simulation time. With until:
	// ddl_done, End is the cap until the last statement ends, then that end plus
	// until.after rounded up to a report interval (EndedEarly).
	Warm, End sim.Time
	// EndedEarly: until ddl_done moved End before the cap.
	EndedEarly bool

	statements int // DDL statements the schedule will run (until ddl_done)
	finished   int

	started  bool
	begun    int // DDL statements started
	running  []workload.Running
	ddls     []ddl.Result  // finished statements
	inflight []*ddl.Result // begun, not done, in start order
}

// BuildOptions change how a model is assembled. The zero value is what ddlsim runs.
type BuildOptions struct {
	// Policy, when set, replaces the scenario's policy: the conformance suite uses it to run
	// policies that are not registered (deliberately broken ones).
	Policy server.PolicyFactory
	// Cold leaves the pool empty (no warm fill).
	Cold bool
}

// Build assembles sc (loaded and validated): the server with the policy of sc.Policy, its
// pool warmed per sc.Warm. No thread runs until Start.
func Build(sc *config.Scenario, opt BuildOptions) (*Model, error) {
	newPolicy := opt.Policy
	if newPolicy == nil {
		var err error
		if newPolicy, err = policies.Factory(sc.Policy); err != nil {
			return nil, err
		}
	}
	s := sim.New(sc.Seed)
	srv, err := server.New(s, sc, newPolicy)
	if err != nil {
		s.Close()
		return nil, err
	}
	if !opt.Cold {
		srv.Warm()
	}
	warm := sim.Time(sc.Warmup)
	return &Model{Scenario: sc, Sim: s, Server: srv, Warm: warm, End: warm + sim.Time(sc.Duration)}, nil
}

// Close releases the kernel's processes.
func (m *Model) Close() { m.Sim.Close() }

// Start starts the server's background threads (page cleaners, log writer), every workload
// and the DDL schedule. Every time in a scenario is on the report clock (0 = end of warmup).
func (m *Model) Start() error {
	if m.started {
		return fmt.Errorf("runner: model started twice")
	}
	m.started = true
	srv := m.Server
	srv.StartBackground()
	env := workload.Env{Srv: srv, Warm: m.Warm}
	for i, w := range m.Scenario.Workload {
		g, ok := w.Params.(workload.Generator)
		if !ok {
			return fmt.Errorf("workload[%d]: %q is not a workload this build knows", i, w.Kind)
		}
		r, err := g.Launch(env)
		if err != nil {
			return err
		}
		m.running = append(m.running, r)
	}
	for _, ev := range m.Scenario.Schedule {
		m.statements += max(1, ev.Count) * ddl.Statements(srv, ev)
	}
	// An entry written at: {after: previous, delay: D} is scheduled when the previous entry's
	// statements have all returned, D later; the others at their time.
	sched := m.Scenario.Schedule
	var start func(i int, at config.Duration)
	start = func(i int, at config.Duration) {
		ev := sched[i]
		ev.At = at
		left := max(1, ev.Count) * ddl.Statements(srv, ev) // statements until it has returned
		ddl.Schedule(srv, ev, func(r *ddl.Result) {
			m.begun++
			m.inflight = append(m.inflight, r)
		}, func(r ddl.Result) {
			for i, p := range m.inflight {
				if p.Start == r.Start && p.Op == r.Op && p.Table == r.Table {
					m.inflight = append(m.inflight[:i], m.inflight[i+1:]...)
					break
				}
			}
			m.ddls = append(m.ddls, r)
			m.finished++
			if left--; left == 0 && i+1 < len(sched) && sched[i+1].After != "" {
				start(i+1, config.Duration(srv.Sim.Now())+sched[i+1].At)
			}
			m.untilDone()
		})
	}
	for i, ev := range sched {
		if ev.After == "" {
			start(i, ev.At+config.Duration(m.Warm))
		}
	}
	return nil
}

// DDLsBegun is the number of scheduled statements that have started: each is either
// finished or still running, so it equals len(DDLs()).
func (m *Model) DDLsBegun() int { return m.begun }

// untilDone ends the run early once until ddl_done's last statement has ended: at its end
// plus until.after, rounded up to a whole report interval after warmup (so the last
// interval is sampled), unless that is past the cap.
func (m *Model) untilDone() {
	sc := m.Scenario
	if sc.Until.Event != config.UntilDDLDone || m.finished < m.statements {
		return
	}
	iv := sim.Time(sc.Report.Interval)
	since := m.Sim.Now() + sim.Time(sc.Until.After) - m.Warm
	end := m.Warm + (since+iv-1)/iv*iv
	if end < m.End {
		m.End, m.EndedEarly = end, true
		m.Sim.Stop() // Run's current slice may reach past the new end
	}
}

// HitCap reports whether a run that waits for its DDL (until ddl_done) reached the cap with a
// statement still to finish.
func (m *Model) HitCap() bool {
	return m.Scenario.Until.Event == config.UntilDDLDone && m.finished < m.statements
}

// DDLRunning reports whether a scheduled statement is running.
func (m *Model) DDLRunning() bool { return len(m.inflight) > 0 }

// DDLs returns the statements that finished and, marked unfinished with End = now, those still
// running (their duration is a lower bound, never passed off as a complete result), in start
// order.
func (m *Model) DDLs() []ddl.Result {
	out := append([]ddl.Result(nil), m.ddls...)
	for _, p := range m.inflight {
		d := *p
		d.End, d.Unfinished, d.TxnsEnd = m.Sim.Now(), true, m.Server.Stats.Txns
		out = append(out, d)
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].Start < out[j].Start })
	return out
}
