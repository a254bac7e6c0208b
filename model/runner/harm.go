package runner

import (
	"math"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
)

// openLoop is a workload whose transactions arrive at a fixed rate (sysbench --rate), so
// that a slower server shows in latency (queueing) rather than in throughput.
type openLoop interface{ OpenLoop() bool }

// measuresHarm: the run measures each DDL statement's latency harm (metrics.LatencyHarm)
// when it has an SLO or open-loop traffic. Other runs' outputs stay as they were.
func measuresHarm(sc *config.Scenario) bool {
	if sc.SLO != "" {
		return true
	}
	for _, w := range sc.Workload {
		if o, ok := w.Params.(openLoop); ok && o.OpenLoop() {
			return true
		}
	}
	return false
}

// addLatencyHarm fills each statement's Latency (docs/output.md, "Latency harm"). ds are the
// run's statements with their times already on the report clock; lat holds every interval's
// latency buckets (recorder.keepLat).
func addLatencyHarm(ds []metrics.DDLResult, slo config.SLO, interval float64, s *metrics.Series, lat []latBuckets) {
	col, threshold := -1, 0.0
	if slo != "" {
		name, d, err := slo.Parse()
		if err != nil {
			panic("runner: an SLO that passed validation does not parse: " + err.Error())
		}
		col, threshold = s.Col(name), float64(d)/1e6
	}
	// overlapsDDL: interval [a, b] overlaps some statement's span.
	overlapsDDL := func(a, b float64) bool {
		for _, d := range ds {
			if d.StartS < b && d.EndS > a {
				return true
			}
		}
		return false
	}
	for i := range ds {
		d := &ds[i]
		h := &metrics.LatencyHarm{SLO: string(slo), AboveSLOS: math.NaN(), SLOBreaches: math.NaN()}
		var base, during []latBuckets
		for ri, row := range s.Rows {
			end := row[0]
			start := end - interval
			if ri >= len(lat) {
				break
			}
			if end <= d.StartS && !overlapsDDL(start, end) {
				base = append(base, lat[ri])
			}
			if duringInterval(start, end, d, interval) {
				during = append(during, lat[ri])
			}
		}
		if len(during) == 0 { // a statement shorter than an interval and inside one
			for ri, row := range s.Rows {
				if end := row[0]; ri < len(lat) && end-interval < d.EndS && end > d.StartS {
					during = append(during, lat[ri])
				}
			}
		}
		b := latQuantiles(base, 0.5, 0.95, 0.99)
		h.BaseP50Ms, h.BaseP95Ms, h.BaseP99Ms = b[0], b[1], b[2]
		h.P50Ms = latQuantiles(during, 0.5)[0]
		if col >= 0 {
			h.AboveSLOS, h.SLOBreaches = aboveSLO(s, col, s.Col("tps"), threshold, interval, d)
		}
		d.Latency = h
	}
}

// duringInterval is ddlResult's rule for the intervals during a statement: those that start
// inside it, up to the interval that holds its end.
func duringInterval(start, end float64, d *metrics.DDLResult, interval float64) bool {
	return start >= d.StartS && end <= d.EndS+interval
}

// aboveSLO is the time the series column col spent above threshold in the intervals that
// overlap the statement, and after its end for as long as a breach that was on at its end
// lasted, with the number of separate breaches. An interval in which no transaction
// completed (tps, column tpsCol, is 0) while the load ran before the statement (its
// baseline_tps > 0) is above: every client is stuck (queued behind a metadata lock), and the
// latency its transactions will report when they complete is at least the interval.
func aboveSLO(s *metrics.Series, col, tpsCol int, threshold, interval float64, d *metrics.DDLResult) (seconds, breaches float64) {
	in := false
	for _, row := range s.Rows {
		end := row[0]
		start := end - interval
		if end <= d.StartS {
			continue
		}
		above := row[col] > threshold // NaN compares false
		if tpsCol >= 0 && row[tpsCol] == 0 && d.BaselineTPS > 0 {
			above = true
		}
		if start >= d.EndS && !(in && above) {
			break // past the statement, and the breach it was in (if any) is over
		}
		if above {
			seconds += interval
			if !in {
				breaches++
			}
		}
		in = above
	}
	return seconds, breaches
}
