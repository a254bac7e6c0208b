package trust

import (
	"fmt"
	"math"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// ObservedBand is how far the simulated statement rate may be from the observed one, either
// way, before a run warns: the simulated load is then not the server's, and neither is the
// DDL's harm under it.
const ObservedBand = 1.5

// Observed compares a run's simulated statement rate with what the real server did
// (the scenario's observed: block).
type Observed struct {
	StatementsPerSObserved float64 `json:"statements_per_s_observed"`
	Simulated              float64 `json:"simulated"` // statements/s over Basis
	Ratio                  float64 `json:"ratio"`     // simulated / observed
	WithinBand             bool    `json:"within_band"`
	// Basis is what Simulated is the mean over: "no_ddl_intervals" (the report intervals
	// that overlap no DDL statement) or "whole_run" (every interval overlaps one).
	Basis  string `json:"basis"`
	Source string `json:"source,omitempty"`
	// Closed says the workload has a closed loop (threads without a rate), the usual cause
	// of a rate far above the observed one.
	Closed bool `json:"-"`
}

// ObservedRun is one run of a compare or sweep compared with the observed rate: its point
// (number and overrides) and seed.
type ObservedRun struct {
	Point  int    `json:"point"`
	Params string `json:"params,omitempty"`
	Seed   uint64 `json:"seed"`
	Observed
}

// CompareObserved compares the run's simulated statements/s (the series' qps, BEGIN and
// COMMIT included, as the server's Questions counts them) with sc.Observed: its mean over
// the report intervals during which no DDL statement ran, or over the whole run when every
// interval overlaps one. nil when the scenario has no observed rate or the series no qps.
func CompareObserved(sc *config.Scenario, s *metrics.Series, ddl []metrics.DDLResult) *Observed {
	obs := sc.Observed.StatementsPerS
	qi, ti := s.Col("qps"), s.Col("time_s")
	if obs <= 0 || qi < 0 || ti < 0 || len(s.Rows) == 0 {
		return nil
	}
	var quiet, all, quietN float64
	prev := 0.0
	for _, row := range s.Rows {
		t := row[ti]
		all += row[qi]
		if !overlapsDDL(prev, t, ddl) {
			quiet += row[qi]
			quietN++
		}
		prev = t
	}
	o := &Observed{StatementsPerSObserved: obs, Source: sc.Observed.Source, Closed: closedLoop(sc)}
	if quietN > 0 {
		o.Simulated, o.Basis = quiet/quietN, "no_ddl_intervals"
	} else {
		o.Simulated, o.Basis = all/float64(len(s.Rows)), "whole_run"
	}
	o.Ratio = o.Simulated / obs
	o.WithinBand = o.Ratio >= 1/ObservedBand && o.Ratio <= ObservedBand
	return o
}

// overlapsDDL reports whether the report interval (from, to] overlaps a statement's run
// (an unfinished one runs to the end).
func overlapsDDL(from, to float64, ddl []metrics.DDLResult) bool {
	for _, d := range ddl {
		end := d.StartS + d.DurationS
		if d.Unfinished || math.IsNaN(end) {
			end = math.Inf(1)
		}
		if d.StartS < to && end > from {
			return true
		}
	}
	return false
}

// closedLoop: a workload that sends its next statement as soon as the last returns.
func closedLoop(sc *config.Scenario) bool {
	for _, w := range sc.Workload {
		if r, ok := w.Params.(interface{ OpenLoop() bool }); ok && !r.OpenLoop() {
			return true
		}
	}
	return false
}

// Warning is the console warning for a rate outside the band, at the observed: line of the
// scenario ("" within the band).
func (o *Observed) Warning(sc *config.Scenario) string {
	if o == nil || o.WithinBand {
		return ""
	}
	fe := &config.FieldError{Path: "observed.statements_per_s"}
	pos, ok := sc.Origins["observed"]
	if !ok {
		pos = sc.Origins["observed.statements_per_s"]
	}
	fe.File, fe.Line, fe.Col = pos.File, pos.Line, pos.Col
	basis := "over the intervals without DDL"
	if o.Basis == "whole_run" {
		basis = "over the whole run (a DDL ran in every interval)"
	}
	how := fmt.Sprintf("%.3g× the observed", o.Ratio)
	if o.Ratio < 1 {
		how = fmt.Sprintf("1/%.3g of the observed", 1/o.Ratio)
	}
	fe.Msg = fmt.Sprintf("the simulated traffic is %.1f statements/s %s, %s %.1f statements/s (outside %g× either way): the simulated load is not the server's, and neither is the DDL's harm under it. ",
		o.Simulated, basis, how, o.StatementsPerSObserved, ObservedBand)
	switch {
	case o.Ratio > 1 && o.Closed:
		fe.Msg += "Closed-loop threads run as fast as the simulated server answers: give the workload the server's open-loop rate (sysbench rate: events/s, as ddlsim import --status writes it), or calibrate the profile (ddlsim calibrate, docs/calibrate.md) so the simulated server is as slow as the real one"
	case o.Ratio > 1:
		fe.Msg += "The open-loop rate is above the server's: lower the workload's rate to what the server served"
	default:
		fe.Msg += "The simulated server serves less than the real one: raise the workload's rate or threads to the server's, or calibrate the profile (ddlsim calibrate, docs/calibrate.md) if it saturates"
	}
	return fe.Warning()
}
