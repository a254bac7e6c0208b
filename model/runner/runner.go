// Package runner builds a simulated server from a validated scenario, runs it and returns
// what it measured. CONTRACT: Run and Result are used by cmd/ddlsim, compare and sweep.
package runner

import (
	"context"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// Options control a run without changing its results.
type Options struct {
	// Progress, if set, is called now and then with virtual time done and total (ns).
	Progress func(doneNs, totalNs int64)
	// Interval, if set, is called at the end of each report interval with the new row
	// (for the console's sysbench-style lines).
	Interval func(s *metrics.Series, row []float64)
	// Inspect, if set, is called with the model when the run has ended, before it is
	// closed (the simulation fuzzer checks conservation there).
	Inspect func(m *Model)
	// Context, if set, stops the run when it is cancelled (Ctrl-C in a sweep): Run returns
	// an error wrapping the context's within a tenth of a simulated second of simulation.
	Context context.Context
}

// Result is everything one run measured.
type Result struct {
	Scenario   *config.Scenario
	Seed       uint64
	ConfigHash string
	Series     metrics.Series
	Summary    metrics.Summary
	DDL        []metrics.DDLResult
	Mutexes    []metrics.MutexRow // hold/wait by mutex class and thread kind, measured time only
	Events     uint64             // kernel events fired (for performance reporting)
	// HitCap: the scenario runs until its DDL is done (until: ddl_done) and reached its
	// duration, the hard cap, first; its DDL results are marked unfinished.
	HitCap bool
}

// Run simulates sc (already loaded and validated) and returns its result. A simulated DDL
// failure is a result (DDLResult.Failed), not an error; an error means the run itself failed.
func Run(sc *config.Scenario, opt Options) (*Result, error) {
	return run(sc, opt)
}
