package metrics

import (
	"fmt"
	"math"
	"strings"
)

// Kinds of key metric, in the order the compare table shows them: each DDL statement's
// duration and traffic impact first, then the run's summary metrics, then the DDL phases.
const (
	KindImpact = iota
	KindSummary
	KindPhase
)

// KeyMetric is one key metric of a run with its kind; for a DDL duration, whether the
// statement failed or was unfinished (its value is then NaN) and, if unfinished, the lower
// bound (the time it had run).
type KeyMetric struct {
	Metric
	Kind       int
	DDL        int    // the statement's index for KindImpact and KindPhase (-1: an aggregate)
	About      string // for KindImpact and KindPhase, what it is of: "ddl0 create_index sbtest1", "all 1000 drop_table statements"
	Failed     bool
	Unfinished bool
	Bound      float64
}

// ListedDDLs is how many DDL statements a run may have for its key metrics to list them one by
// one. A run with more (a DROP TABLE loop over 1000 tables) gets, per operation, aggregates
// over its statements instead (ddl_all_<op>_*: AggregateFields), so the compare table, the
// report and the figures stay readable; results.csv and each run's ddl.csv keep every
// statement.
const ListedDDLs = 8

// AggregateFields are the per-operation aggregates of a run with more than ListedDDLs
// statements, as ddl_all_<op>_<field>: how many statements and how many failed, their total,
// mean and longest duration (of those that finished), the lowest TPS during any of them, the
// mean of their mean TPS, the worst p99 latency during any, and the total time below half.
var AggregateFields = []string{"count", "failed", "total_duration_s", "mean_duration_s", "max_duration_s",
	"min_tps", "mean_tps", "lat_p99_ms", "below_half_s"}

// ImpactFields are the traffic-impact values of a DDL statement that the compare table shows
// right after its duration, as ddl<i>_<op>_<field>.
var ImpactFields = []string{"baseline_tps", "min_tps", "mean_tps", "lat_p95_ms", "lat_p99_ms", "below_half_s", "lost_txns"}

func impactValues(d *DDLResult) []float64 {
	return []float64{d.BaselineTPS, d.MinTPS, d.MeanTPS, d.LatP95Ms, d.LatP99Ms, d.BelowHalfS, d.LostTxns}
}

// KeyMetrics lists a run's summary metrics followed by each DDL statement's duration, traffic
// impact and phase durations, named ddl<i>_<op>_duration_s, ddl<i>_<op>_<field> (ImpactFields)
// and ddl<i>_<op>_<phase>_s.
func KeyMetrics(sum Summary, ddl []DDLResult) Summary {
	var out Summary
	for _, k := range KeyMetricsOf(sum, ddl) {
		out = append(out, k.Metric)
	}
	return out
}

// KeyMetricsOf is KeyMetrics with each metric's kind, in the same order.
func KeyMetricsOf(sum Summary, ddl []DDLResult) []KeyMetric {
	var out []KeyMetric
	for _, m := range sum {
		out = append(out, KeyMetric{Metric: m, Kind: KindSummary})
	}
	if len(ddl) > ListedDDLs {
		return append(out, aggregateKeyMetrics(ddl)...)
	}
	for i, d := range ddl {
		about := fmt.Sprintf("ddl%d %s %s", i, d.Op, d.Table)
		dur := d.DurationS
		if d.Failed || d.Unfinished {
			dur = math.NaN() // no duration to average: failed, or only a lower bound
		}
		name := func(f string) string { return fmt.Sprintf("ddl%d_%s_%s", i, d.Op, f) }
		out = append(out, KeyMetric{Metric: Metric{Name: name("duration_s"), Value: dur}, Kind: KindImpact, DDL: i, About: about,
			Failed: d.Failed, Unfinished: d.Unfinished && !d.Failed, Bound: d.DurationS})
		fields, vals := ImpactFields, impactValues(&ddl[i])
		if d.Latency != nil {
			// Latency harm leads, then the throughput fields (its p95/p99 are in the harm).
			fields = append(HarmFields(d.Latency.SLO != ""), "baseline_tps", "min_tps", "mean_tps", "below_half_s", "lost_txns")
			vals = append(harmValues(&ddl[i]), d.BaselineTPS, d.MinTPS, d.MeanTPS, d.BelowHalfS, d.LostTxns)
		}
		for j, v := range vals {
			out = append(out, KeyMetric{Metric: Metric{Name: name(fields[j]), Value: v}, Kind: KindImpact, DDL: i, About: about})
		}
		// A phase that occurs several times (CREATE INDEX's observer flush: once per index,
		// once at the end) is one metric: the total time spent in it.
		names, total := PhaseTotals(d.Phases)
		for _, n := range names {
			out = append(out, KeyMetric{Metric: Metric{Name: name(n + "_s"), Value: total[n]}, Kind: KindPhase, DDL: i, About: about})
		}
	}
	return out
}

// aggregateKeyMetrics are the AggregateFields of each operation's statements (operations in
// order of first appearance), then each operation's phase totals over its statements. A
// duration field is NaN, with the run flagged unfinished and its bound the time run so far,
// when any of the operation's statements was still running at the end of the run.
func aggregateKeyMetrics(ddls []DDLResult) []KeyMetric {
	var ops []string
	byOp := map[string][]*DDLResult{}
	for i := range ddls {
		d := &ddls[i]
		if byOp[d.Op] == nil {
			ops = append(ops, d.Op)
		}
		byOp[d.Op] = append(byOp[d.Op], d)
	}
	var out, phases []KeyMetric
	for _, op := range ops {
		ds := byOp[op]
		about := fmt.Sprintf("all %d %s statements", len(ds), op)
		var failed, unfinished, done int
		var total, longest, meanTPS, belowHalf float64
		totalLB, longestLB := 0.0, 0.0 // lower bounds, counting unfinished statements' time so far
		minTPS, p99 := math.NaN(), math.NaN()
		var phaseNames []string
		phaseTotal := map[string]float64{}
		for _, d := range ds {
			switch {
			case d.Failed:
				failed++
			case d.Unfinished:
				unfinished++
			default:
				done++
				total += d.DurationS
				longest = max(longest, d.DurationS)
			}
			if !d.Failed {
				totalLB += d.DurationS
				longestLB = max(longestLB, d.DurationS)
				meanTPS += d.MeanTPS
				belowHalf += d.BelowHalfS
				minTPS = nanMin(minTPS, d.MinTPS)
				p99 = nanMax(p99, d.LatP99Ms)
			}
			names, t := PhaseTotals(d.Phases)
			for _, n := range names {
				if _, ok := phaseTotal[n]; !ok {
					phaseNames = append(phaseNames, n)
				}
				phaseTotal[n] += t[n]
			}
		}
		mean := math.NaN()
		if done > 0 {
			mean = total / float64(done)
		}
		if n := len(ds) - failed; n > 0 {
			meanTPS /= float64(n)
		} else {
			meanTPS, belowHalf = math.NaN(), math.NaN()
		}
		name := func(f string) string { return "ddl_all_" + op + "_" + f }
		vals := []float64{float64(len(ds)), float64(failed), total, mean, longest, minTPS, meanTPS, p99, belowHalf}
		var bounds []float64 // per AggregateFields entry: the lower bound when statements were unfinished
		if unfinished > 0 {
			bounds = []float64{0, 0, totalLB, totalLB / float64(done+unfinished), longestLB, 0, 0, 0, 0}
		}
		for j, v := range vals {
			k := KeyMetric{Metric: Metric{Name: name(AggregateFields[j]), Value: v}, Kind: KindImpact, DDL: -1, About: about}
			if bounds != nil && strings.HasSuffix(AggregateFields[j], "duration_s") {
				k.Value, k.Unfinished, k.Bound = math.NaN(), true, bounds[j]
			}
			out = append(out, k)
		}
		for _, n := range phaseNames {
			phases = append(phases, KeyMetric{Metric: Metric{Name: name(n + "_s"), Value: phaseTotal[n]}, Kind: KindPhase, DDL: -1, About: about})
		}
	}
	return append(out, phases...)
}

func nanMin(a, b float64) float64 {
	if math.IsNaN(a) || b < a {
		return b
	}
	return a
}

func nanMax(a, b float64) float64 {
	if math.IsNaN(a) || b > a {
		return b
	}
	return a
}

// DDLStats are RunStats' statistics over every DDL statement of a run.
var DDLStats = []string{"ddl.duration_s", "ddl.total_duration_s", "ddl.mean_tps", "ddl.baseline_tps", "ddl.min_tps", "ddl.tps_ratio"}

// RunStats are the statistics a validation file's compare entry may name for one run
// (docs/scenarios.md, "Validation files"):
//   - the key metrics (KeyMetrics): summary metrics, ddlN_<op>_duration_s and its phases
//     ddlN_<op>_<phase>_s (with more than ListedDDLs statements, the per-operation
//     aggregates ddl_all_<op>_* instead);
//   - the means over the run's DDL statements ddl.duration_s (a failed or unfinished
//     statement has none), ddl.mean_tps, ddl.baseline_tps, ddl.min_tps and ddl.tps_ratio
//     (mean_tps / baseline_tps, per statement), and ddl.total_duration_s, the sum of their
//     durations;
//   - from the series: mean.<column> (its mean over the measured intervals),
//     per_txn.<column> (that mean / the mean TPS: per_txn.pages_read_per_s is page reads per
//     transaction) and, for the CPU columns, cpu_us_per_txn.<column> (core-microseconds per
//     transaction: mean utilisation × cores × 10^6 / mean TPS).
func RunStats(sum Summary, ddl []DDLResult, s *Series, cores int) map[string]float64 {
	out := map[string]float64{}
	for _, m := range KeyMetrics(sum, ddl) {
		out[m.Name] = m.Value
	}
	colMean := func(c int) float64 {
		if len(s.Rows) == 0 {
			return math.NaN()
		}
		t := 0.0
		for _, r := range s.Rows {
			t += r[c]
		}
		return t / float64(len(s.Rows))
	}
	if ti := s.Col("tps"); ti >= 0 {
		tps := colMean(ti)
		for c, name := range s.Columns {
			if name == "time_s" {
				continue
			}
			m := colMean(c)
			out["mean."+name] = m
			out["per_txn."+name] = m / tps
			if strings.HasSuffix(name, "cpu_util") {
				out["cpu_us_per_txn."+name] = m * float64(cores) * 1e6 / tps
			}
		}
	}
	if len(ddl) == 0 {
		return out
	}
	mean := func(f func(d DDLResult) float64) float64 {
		s, n := 0.0, 0
		for _, d := range ddl {
			if v := f(d); !math.IsNaN(v) {
				s += v
				n++
			}
		}
		if n == 0 {
			return math.NaN()
		}
		return s / float64(n)
	}
	out["ddl.duration_s"] = mean(func(d DDLResult) float64 {
		if d.Failed || d.Unfinished {
			return math.NaN()
		}
		return d.DurationS
	})
	total := 0.0
	for _, d := range ddl {
		total += d.DurationS
	}
	out["ddl.total_duration_s"] = total // every statement's time, a lower bound if one is unfinished
	out["ddl.mean_tps"] = mean(func(d DDLResult) float64 { return d.MeanTPS })
	out["ddl.baseline_tps"] = mean(func(d DDLResult) float64 { return d.BaselineTPS })
	out["ddl.min_tps"] = mean(func(d DDLResult) float64 { return d.MinTPS })
	out["ddl.tps_ratio"] = mean(func(d DDLResult) float64 {
		if d.BaselineTPS <= 0 {
			return math.NaN()
		}
		return d.MeanTPS / d.BaselineTPS
	})
	return out
}
