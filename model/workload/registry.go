package workload

import (
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Generator is a workload kind's parameter block (its YAML fields, defaults and checks) that
// knows how to start the load it describes.
type Generator interface {
	config.Params
	// Launch spawns the load's client threads on env.Srv.
	Launch(env Env) (Running, error)
}

// Env is what a starting workload gets from the run.
type Env struct {
	Srv *server.Server
	// Warm is the end of warmup in simulation time: 0 on the report clock, which every time
	// in a scenario is measured on.
	Warm sim.Time
}

// OnClock converts a report-clock start to simulation time: 0 means from the very beginning,
// so a load that starts at 0 runs through warmup, which is what warmup is for.
func (e Env) OnClock(start config.Duration) sim.Time {
	if start <= 0 {
		return 0
	}
	return e.Warm + sim.Time(start)
}

// Running is a started workload.
type Running interface {
	// Summary returns the workload's own summary metrics over the measured series (nil when
	// it has none); interval is the report interval in seconds.
	Summary(s *metrics.Series, interval float64) metrics.Summary
}

// SummaryNamer is a Generator whose Running adds summary metrics: it names them, so what a
// run can report is known from the configuration (runner.StatNames) before it runs.
type SummaryNamer interface {
	SummaryNames() []string
}

// kinds: adding a workload is one file plus one line here.
var kinds = []config.Kind{
	{Name: "sysbench", Doc: "sysbench 1.0 oltp_* scripts (point/range selects, updates, delete+insert)", New: func() config.Params { return new(Sysbench) }},
	{Name: "tpcc", Doc: "tpcc-mysql's driver: New-Order/Payment/Order-Status/Delivery/Stock-Level 10:10:1:1:1", New: func() config.Params { return new(TPCC) }},
	{Name: "other_cpu", Doc: "other processes on the machine taking a share of its cores (the lab's other_cpu_util)", New: func() config.Params { return new(OtherCPU) }},
	{Name: "long_transaction", Doc: "one connection that begins a transaction, reads (or updates) a table and commits after hold: it holds its metadata lock", New: func() config.Params { return new(LongTransaction) }},
	{Name: "temp_table_connections", Doc: "clients looping connect, a statement with an internal temp table, disconnect", New: func() config.Params { return new(TempTableConnections) }},
}

// Kinds lists the workloads, for the assembly's config.Schema (model/runner).
func Kinds() []config.Kind { return kinds }

// noSummary is the Running of a workload without summary metrics of its own.
type noSummary struct{}

func (noSummary) Summary(*metrics.Series, float64) metrics.Summary { return nil }
