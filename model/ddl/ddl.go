// Package ddl runs DDL statements as simulated server threads. Each operation is one file
// (create_index.go, optimize_table.go, drop_table.go, ...) declaring its YAML fields, their
// defaults and checks, the metadata locks and phases of its stages, and how it runs; the
// registry (registry.go) maps schedule[].ddl names to them. Which buffer-pool routine an
// operation calls is the policy's business (policies/, reached through server.Server's
// DropPages / FlushPages); the sequence of steps follows the InnoDB source cited in each file
// and in docs/innodb-source.md.
package ddl

import (
	"fmt"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Operation is one DDL statement kind: its typed YAML block (config.Params: fields,
// defaults, checks), its stages and how it runs.
type Operation interface {
	config.Params
	// Stages lists the statement's stages in order: the metadata lock each holds on the
	// table and the phases it reports.
	Stages() []Stage
	// Run executes the statement on x.T against x.Table (nil for an operation that takes no
	// table) and records its phases and work in x.R.
	Run(x *Exec)
}

// Stage is one part of a statement: the MDL it holds on its table and the phases it reports.
// A phase name ending in "*" stands for a numbered family ("merge_pass_*": merge_pass_1,
// merge_pass_2, ...); DeclaresPhase matches it.
type Stage struct {
	Name   string
	MDL    server.MDL
	Phases []string
}

// WaitMDL is the phase a statement reports while it waits for a metadata lock (any stage).
const WaitMDL = "wait_mdl"

// PhaseNames lists every phase a statement of op may report, stage by stage (and WaitMDL).
func PhaseNames(op Operation) []string {
	out := []string{WaitMDL}
	for _, s := range op.Stages() {
		out = append(out, s.Phases...)
	}
	return out
}

// DeclaresPhase reports whether name is among declared (PhaseNames), patterns included.
func DeclaresPhase(declared []string, name string) bool {
	for _, d := range declared {
		if d == name || strings.HasSuffix(d, "*") && strings.HasPrefix(name, strings.TrimSuffix(d, "*")) {
			return true
		}
	}
	return false
}

// Result is one statement's outcome in virtual time.
type Result struct {
	metrics.DDLResult
	Start, End sim.Time
	Phases     []Phase
	OSC        *OSCStats // what pt-osc or gh-ost did (nil for the native path)
	// TxnsStart, TxnsEnd: the server's completed client transactions at its start and end.
	TxnsStart, TxnsEnd uint64
}

// Phase is a named interval.
type Phase struct {
	Name       string
	Start, End sim.Time
}

// Exec is one statement being run: the thread, its target and its result.
type Exec struct {
	T     *server.Thread
	Srv   *server.Server
	Ev    config.DDLEvent
	Table *schema.Table // the target table (nil for operations that take none)
	Space *server.Space // Table's tablespace
	R     *Result

	stages []Stage
	lock   server.MDL // the MDL held on Table
}

// Phase runs f as the phase name: its interval and the work it reports are recorded.
func (x *Exec) Phase(name string, f func() server.ScanStats) {
	t := x.T
	st := t.Now()
	s := f()
	t.Pay()
	x.R.Phases = append(x.R.Phases, Phase{name, st, t.Now()})
	x.R.NodesVisited += s.NodesVisited
	x.R.PagesFlushed += s.PagesFlushed
	x.R.PagesFreed += s.PagesFreed
	x.R.Restarts += s.Restarts
	x.R.AHIPagesDropped += s.AHIDropped
}

// Fail ends the statement as failed.
func (x *Exec) Fail(reason string) { x.R.Failed, x.R.Reason = true, reason }

// Enter moves the statement to its stage name: the table's metadata lock becomes the stage's
// (an upgrade waits for every other holder, as mysql_inplace_alter_table's upgrade to
// MDL_EXCLUSIVE waits for the transactions on the table; the wait is a WaitMDL phase). It
// returns false, with the statement failed, when lock_wait_timeout passed first.
func (x *Exec) Enter(name string) bool {
	for _, st := range x.stages {
		if st.Name != name {
			continue
		}
		if x.Table == nil || st.MDL == x.lock {
			return true
		}
		start := x.T.Now()
		res := x.T.AcquireMDL(x.Table, x.lock, st.MDL, false)
		if x.T.Now() > start {
			x.R.Phases = append(x.R.Phases, Phase{WaitMDL, start, x.T.Now()})
		}
		if res != server.MDLGranted {
			x.Fail("ER_LOCK_WAIT_TIMEOUT: metadata lock on " + x.Table.Name)
			return false
		}
		x.lock = st.MDL
		return true
	}
	panic("ddl: " + x.Ev.DDL + " has no stage " + name)
}

// Schedule spawns the thread that runs ev at its time(s): each time, the statement on its
// table, or with each on every table of its group in order. begin receives each statement's
// result as it is being filled (phases appear as they complete), done the finished one.
func Schedule(srv *server.Server, ev config.DDLEvent, begin func(*Result), done func(Result)) {
	name := fmt.Sprintf("ddl:%s:%s@%s", ev.DDL, ev.Table, sim.Time(ev.At))
	srv.Spawn(name, "ddl", func(t *server.Thread) {
		at := sim.Time(ev.At)
		for n := 0; ev.Count == 0 || n < max(ev.Count, 1); n++ {
			if at > t.Now() {
				t.Sleep(at - t.Now())
			}
			for _, tab := range targets(srv, ev) {
				r := &Result{Start: t.Now(), TxnsStart: srv.Stats.Txns}
				r.Op, r.Table, r.Policy = ev.DDL, ev.Table, srv.PolicyName()
				if tab != nil {
					r.Table = tab.Name
				}
				begin(r)
				run(t, ev, tab, r)
				done(*r)
			}
			if ev.Every == 0 {
				return
			}
			at += sim.Time(ev.Every)
		}
	})
}

// targets are the tables ev runs on, in order: none for an operation without a table; else
// the table ev.Table names, or with ev.Each every table of the group it names.
func targets(srv *server.Server, ev config.DDLEvent) []*schema.Table {
	if k, _ := config.DDLKind(ev.DDL); k.NoTable {
		return []*schema.Table{nil}
	}
	tabs := srv.ResolveTables(ev.Table, ev.Each)
	if len(tabs) == 0 {
		return []*schema.Table{{Name: ev.Table, Dropped: true}} // fails as "no such table"
	}
	return tabs
}

// Statements is the number of statements ev runs each time it fires: one per target table
// (every table of the group with each: true).
func Statements(srv *server.Server, ev config.DDLEvent) int { return len(targets(srv, ev)) }

// Run executes one DDL statement on thread t, on the table ev.Table names.
func Run(t *server.Thread, ev config.DDLEvent) Result {
	r := Result{Start: t.Now(), TxnsStart: t.Srv.Stats.Txns}
	r.Op, r.Table, r.Policy = ev.DDL, ev.Table, t.Srv.PolicyName()
	run(t, ev, targets(t.Srv, ev)[0], &r)
	return r
}

func run(t *server.Thread, ev config.DDLEvent, tab *schema.Table, r *Result) {
	x := &Exec{T: t, Srv: t.Srv, Ev: ev, R: r}
	t.StatementStart() // the statement's connection runs it (Threads_running)
	defer func() {
		if x.Table != nil {
			t.ReleaseMDL(x.Table, x.lock)
		}
		t.Pay()
		t.StatementGone()
		r.End, r.TxnsEnd = t.Now(), t.Srv.Stats.Txns
	}()
	op, ok := ev.Params.(Operation)
	if !ok {
		x.Fail("unknown DDL " + ev.DDL)
		return
	}
	x.stages = op.Stages()
	if tab != nil {
		x.Table = tab
		if !x.Enter(x.stages[0].Name) {
			return
		}
		// Checked under the lock: a DROP that held it may have removed the table.
		if tab.Dropped {
			x.Fail("ER_NO_SUCH_TABLE: " + tab.Name)
			return
		}
		x.Space = t.Srv.Spaces.Get(tab.Space)
	}
	op.Run(x)
}
