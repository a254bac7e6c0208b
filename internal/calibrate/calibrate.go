// Package calibrate fits a hardware profile to a real server from a no-DDL observation of it
// (`ddlsim calibrate`, docs/calibrate.md): two SHOW GLOBAL STATUS snapshots some seconds apart
// under the server's normal load and the mysqld process's CPU seconds over the same interval
// give the server's statements/s, CPU per statement and page reads per statement. The
// scenario describes the hardware, settings, data and load; its baseline (the schedule left
// out) is simulated, and the foreground CPU costs of its profile — page_hit, row, statement
// and commit, the constants a statement's CPU is made of (docs/cpu-model.md) — are scaled by
// one factor so the simulated server CPU per statement matches the observed. One
// observation cannot separate the four: their ratios stay the base profile's (the lab's
// lab-2c-calibrated.yaml keeps 8c-64g's, which lab-2c carries over). The simulated
// statements/s and page reads per statement are then printed beside the measured ones as
// checks, not fitted.
package calibrate

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/internal/mycnf"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

// Observation is what the two snapshots and the CPU seconds say.
type Observation struct {
	Before, After string  // the files
	Interval      float64 // s: Uptime(after) - Uptime(before)
	Statements    float64 // Questions(after) - Questions(before)
	PageReads     float64 // Innodb_buffer_pool_reads(after) - (before): reads from disk
	ServerCPU     float64 // s: the mysqld process's user+system CPU over the interval
}

// Measure is the three quantities the fit and its checks compare.
type Measure struct {
	StatementsPerS   float64
	CPUPerStatement  float64 // seconds
	ReadsPerStatment float64
}

// Measured is the observation's measure.
func (o Observation) Measured() Measure {
	return Measure{o.Statements / o.Interval, o.ServerCPU / o.Statements, o.PageReads / o.Statements}
}

// required are the counters both snapshots must hold.
var required = []string{"uptime", "questions", "innodb_buffer_pool_reads"}

// Observe reads the interval from the two snapshots. Every problem is reported: a counter
// missing (a truncated file), not a non-negative integer, the snapshots in the wrong order,
// no time between them, a counter that went backwards (a restart or FLUSH STATUS between
// them), and CPU seconds that are no positive number.
func Observe(before, after []mycnf.Setting, beforeFile, afterFile string, serverCPU string) (Observation, error) {
	o := Observation{Before: beforeFile, After: afterFile}
	var probs mycnf.Problems
	read := func(st []mycnf.Setting, file string) map[string]float64 {
		m := map[string]float64{}
		where := map[string]string{}
		for _, s := range st {
			where[s.Name] = s.Where
			for _, r := range required {
				if s.Name == r {
					n, err := strconv.ParseUint(strings.TrimSpace(s.Value), 10, 64)
					if err != nil {
						probs = append(probs, fmt.Sprintf("%s: %s = %q: expected a non-negative integer (SHOW GLOBAL STATUS prints counters as digits)", s.Where, s.Name, s.Value))
						continue
					}
					m[r] = float64(n)
				}
			}
		}
		var missing []string
		for _, r := range required {
			if _, ok := where[r]; !ok {
				missing = append(missing, statusName(r))
			}
		}
		if len(missing) > 0 {
			probs = append(probs, fmt.Sprintf("%s: no %s (%d lines read): is the file complete? expected the whole output of mysql -B -N -e 'SHOW GLOBAL STATUS'", file, strings.Join(missing, ", "), len(st)))
		}
		return m
	}
	b, a := read(before, beforeFile), read(after, afterFile)
	cpu, err := strconv.ParseFloat(strings.TrimSpace(serverCPU), 64)
	if err != nil || cpu <= 0 || math.IsInf(cpu, 0) || math.IsNaN(cpu) {
		probs = append(probs, fmt.Sprintf("--server-cpu %q: expected the mysqld process's user+system CPU seconds over the interval, a number > 0 (e.g. the difference of utime+stime in /proc/PID/stat, divided by the clock tick)", serverCPU))
	}
	if len(probs) > 0 {
		return o, probs
	}
	o.ServerCPU = cpu
	o.Interval = a["uptime"] - b["uptime"]
	switch {
	case o.Interval < 0:
		probs = append(probs, fmt.Sprintf("%s: Uptime %.0f is below %s's %.0f: AFTER was taken before BEFORE (swap them), or the server restarted between the two", afterFile, a["uptime"], beforeFile, b["uptime"]))
	case o.Interval == 0:
		probs = append(probs, fmt.Sprintf("%s and %s: the same Uptime (%.0f s): no time between the snapshots; take AFTER some tens of seconds after BEFORE", beforeFile, afterFile, a["uptime"]))
	default:
		for _, r := range required[1:] {
			if a[r] < b[r] {
				probs = append(probs, fmt.Sprintf("%s: %s %.0f is below %s's %.0f: the counter went backwards (a restart or FLUSH STATUS between the snapshots?); take both under one server run", afterFile, statusName(r), a[r], beforeFile, b[r]))
			}
		}
	}
	if len(probs) == 0 {
		o.Statements = a["questions"] - b["questions"]
		o.PageReads = a["innodb_buffer_pool_reads"] - b["innodb_buffer_pool_reads"]
		if o.Statements == 0 {
			probs = append(probs, fmt.Sprintf("%s: Questions did not change over %.0f s: the server served no statements; take the snapshots under its normal load", afterFile, o.Interval))
		}
	}
	if len(probs) > 0 {
		return o, probs
	}
	return o, nil
}

func statusName(n string) string {
	return map[string]string{"uptime": "Uptime", "questions": "Questions", "innodb_buffer_pool_reads": "Innodb_buffer_pool_reads"}[n]
}

// Fit is the outcome: the scale, the fitted costs, and the measure of each simulation.
type Fit struct {
	Profile   string // the scenario's profile's name
	Scale     float64
	Base      config.Costs // the profile's costs before the fit
	Fitted    config.Costs
	Measured  Measure
	Simulated Measure // at the fitted costs
	Duration  config.Duration
}

// scaled are the costs the fit scales.
func scaled(c config.Costs, s float64) config.Costs {
	f := func(d config.Duration) config.Duration { return config.Duration(math.Round(float64(d) * s)) }
	c.PageHit, c.Row, c.Statement, c.Commit = f(c.PageHit), f(c.Row), f(c.Statement), f(c.Commit)
	return c
}

// Baseline simulates sc without its schedule (the no-DDL baseline), for duration (its own
// when 0 and it has no until:), and returns its measure.
func Baseline(sc *config.Scenario, duration config.Duration) (Measure, error) {
	b := *sc
	b.Schedule = nil
	b.Until = config.Until{}
	if duration > 0 {
		b.Duration = duration
	}
	res, err := runner.Run(&b, runner.Options{})
	if err != nil {
		return Measure{}, err
	}
	return measure(&res.Series, res.Summary, float64(b.HardwareProfile.Cores))
}

func measure(s *metrics.Series, sum metrics.Summary, cores float64) (Measure, error) {
	qps := mean(s.Column("qps"))
	cpu := s.Column("server_cpu_util") // the server's share when the client or other work shares the cores
	if cpu == nil {
		cpu = s.Column("cpu_util")
	}
	reads := mean(s.Column("pages_read_per_s"))
	if qps <= 0 {
		return Measure{}, fmt.Errorf("the simulated baseline served no statements")
	}
	return Measure{StatementsPerS: qps, CPUPerStatement: mean(cpu) * cores / qps, ReadsPerStatment: reads / qps}, nil
}

func mean(x []float64) float64 {
	if len(x) == 0 {
		return 0
	}
	t := 0.0
	for _, v := range x {
		t += v
	}
	return t / float64(len(x))
}

// Run fits the scale: the simulated CPU per statement is affine in it (the scaled costs are
// charged per page, row, statement and commit; the rest is fixed), so two simulations give
// the line and the fitted scale solves it; a third simulation at the fit is the check.
func Run(sc *config.Scenario, o Observation, duration config.Duration) (*Fit, error) {
	f := &Fit{Profile: sc.HardwareProfile.Name, Base: sc.HardwareProfile.Costs, Measured: o.Measured(), Duration: duration}
	at := func(s float64) (Measure, error) {
		c := *sc
		c.HardwareProfile.Costs = scaled(f.Base, s)
		return Baseline(&c, duration)
	}
	m1, err := at(1)
	if err != nil {
		return nil, err
	}
	s2 := f.Measured.CPUPerStatement / m1.CPUPerStatement
	if math.Abs(s2-1) < 0.05 {
		s2 = 1.2 // far enough from 1 for a slope
		if f.Measured.CPUPerStatement < m1.CPUPerStatement {
			s2 = 0.8
		}
	}
	m2, err := at(s2)
	if err != nil {
		return nil, err
	}
	slope := (m2.CPUPerStatement - m1.CPUPerStatement) / (s2 - 1)
	if slope <= 0 {
		return nil, fmt.Errorf("the simulated CPU per statement does not grow with the foreground costs (%.3g us at scale 1, %.3g us at %.3g): nothing to fit", 1e6*m1.CPUPerStatement, 1e6*m2.CPUPerStatement, s2)
	}
	f.Scale = 1 + (f.Measured.CPUPerStatement-m1.CPUPerStatement)/slope
	if f.Scale <= 0 {
		fixed := m1.CPUPerStatement - slope
		return nil, fmt.Errorf("the costs the fit does not scale (I/O, mutexes, the rest) already give %.3g us of server CPU per statement, more than the %.3g us measured: check the scenario's load and the profile's I/O costs", 1e6*fixed, 1e6*f.Measured.CPUPerStatement)
	}
	f.Fitted = scaled(f.Base, f.Scale)
	if f.Simulated, err = at(f.Scale); err != nil {
		return nil, err
	}
	return f, nil
}

// ProfileYAML is the calibrated profile: base: the scenario's profile, the four fitted costs,
// and their provenance (fitted on what, when, with the residuals).
func (f *Fit) ProfileYAML(name, base, scenario, when string, o Observation) string {
	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	m, s := f.Measured, f.Simulated
	on := fmt.Sprintf("ddlsim calibrate %s, %s: SHOW GLOBAL STATUS %s -> %s (%.0f s, %.0f statements, %.1f/s), mysqld CPU %.6g s (%.4g us per statement); one scale s=%.4f on %s's page_hit, row, statement, commit; residuals (simulated/measured): CPU per statement %.3f, statements/s %.3f, page reads per statement %s",
		when, scenario, o.Before, o.After, o.Interval, o.Statements, m.StatementsPerS, o.ServerCPU, 1e6*m.CPUPerStatement, f.Scale, f.Profile,
		s.CPUPerStatement/m.CPUPerStatement, s.StatementsPerS/m.StatementsPerS, ratioText(s.ReadsPerStatment, m.ReadsPerStatment))
	w("# %s: %s calibrated by `ddlsim calibrate` (docs/calibrate.md) on %s.\n", name, f.Profile, when)
	w("# The foreground CPU costs are %s's scaled by one factor, s = %.4f, so that the simulated\n", f.Profile, f.Scale)
	w("# no-DDL baseline of %s spends the server CPU per statement measured; the\n", scenario)
	w("# ratios between them stay %s's (one observation cannot separate them). Everything\n", f.Profile)
	w("# else is %s's, carried over.\n", f.Profile)
	w("name: %s\nbase: %s\ncosts:\n", name, base)
	w("  page_hit: %s   # %s x %.4f\n", f.Fitted.PageHit, f.Base.PageHit, f.Scale)
	w("  row: %s   # %s x %.4f\n", f.Fitted.Row, f.Base.Row, f.Scale)
	w("  statement: %s   # %s x %.4f\n", f.Fitted.Statement, f.Base.Statement, f.Scale)
	w("  commit: %s   # %s x %.4f\n", f.Fitted.Commit, f.Base.Commit, f.Scale)
	w("provenance:\n")
	q := strconv.Quote(on)
	for _, n := range []string{"page_hit", "row", "statement", "commit"} {
		w("  - {name: costs.%s, status: fitted, on: %s}\n", n, q)
	}
	return b.String()
}

func ratioText(a, b float64) string {
	if b == 0 {
		if a == 0 {
			return "0 = 0"
		}
		return "measured 0"
	}
	return fmt.Sprintf("%.3f", a/b)
}
