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

// MDL is a metadata-lock type (sql/mdl.h).
type MDL uint8

const (
	MDLNone             MDL = iota
	MDLSharedRead           // MDL_SHARED_READ: SELECT
	MDLSharedWrite          // MDL_SHARED_WRITE: INSERT/UPDATE/DELETE
	MDLSharedUpgradable     // MDL_SHARED_UPGRADABLE: online ALTER while it copies/builds; DML goes on
	MDLExclusive            // MDL_EXCLUSIVE: no other statement may touch the table
)

func (m MDL) String() string {
	return [...]string{"none", "shared_read", "shared_write", "shared_upgradable", "exclusive"}[m]
}

// Stage is one part of a statement: the MDL it holds on its table and the phases it reports.
type Stage struct {
	Name   string
	MDL    MDL
	Phases []string
}

// PhaseNames lists every phase a statement of op may report, stage by stage.
func PhaseNames(op Operation) []string {
	var out []string
	for _, s := range op.Stages() {
		out = append(out, s.Phases...)
	}
	return out
}

// Result is one statement's outcome in virtual time.
type Result struct {
	metrics.DDLResult
	Start, End sim.Time
	Phases     []Phase
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

// Schedule spawns the thread that runs ev at its time(s); begin receives each statement's
// result as it is being filled (phases appear as they complete), done the finished one.
func Schedule(srv *server.Server, ev config.DDLEvent, begin func(*Result), done func(Result)) {
	name := fmt.Sprintf("ddl:%s:%s@%s", ev.DDL, ev.Table, sim.Time(ev.At))
	srv.Spawn(name, "ddl", func(t *server.Thread) {
		at := sim.Time(ev.At)
		for n := 0; ev.Count == 0 || n < max(ev.Count, 1); n++ {
			if at > t.Now() {
				t.Sleep(at - t.Now())
			}
			r := &Result{Start: t.Now()}
			r.Op, r.Table, r.Policy = ev.DDL, ev.Table, srv.PolicyName()
			begin(r)
			run(t, ev, r)
			done(*r)
			if ev.Every == 0 {
				return
			}
			at += sim.Time(ev.Every)
		}
	})
}

// Run executes one DDL statement on thread t.
func Run(t *server.Thread, ev config.DDLEvent) Result {
	r := Result{Start: t.Now()}
	r.Op, r.Table, r.Policy = ev.DDL, ev.Table, t.S.PolicyName()
	run(t, ev, &r)
	return r
}

func run(t *server.Thread, ev config.DDLEvent, r *Result) {
	defer func() {
		t.Pay()
		r.End = t.Now()
	}()
	op, ok := ev.Params.(Operation)
	if !ok {
		r.Failed, r.Reason = true, "unknown DDL "+ev.DDL
		return
	}
	x := &Exec{T: t, Srv: t.S, Ev: ev, R: r}
	if k, _ := config.DDLKind(ev.DDL); !k.NoTable {
		tabs := t.S.Groups[ev.Table]
		if len(tabs) == 0 {
			x.Fail("no table " + ev.Table)
			return
		}
		x.Table = tabs[0]
		x.Space = t.S.Spaces.Get(x.Table.Space)
	}
	op.Run(x)
}
