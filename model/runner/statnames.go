package runner

import (
	"fmt"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/model/workload"
)

// StatNames lists the statistics (metrics.RunStats) a run of sc can report, worked out from
// the configuration alone — its series columns, the summary metrics of the run and of its
// workloads, its DDL statements and the phases their operations declare — so that a
// validation file naming a statistic no run of its scenario has is refused before anything
// is simulated. A name ending in "*" stands for a family (a numbered phase, or a DDL
// statement's index when a schedule entry repeats). A listed name may still be missing from
// one run (a statement that failed before a phase, a loop with no traffic before it); a
// name not listed never appears.
func StatNames(sc *config.Scenario) []string {
	shared := sc.HardwareProfile.Client.Colocated
	for _, w := range sc.Workload {
		shared = shared || w.Kind == "other_cpu"
	}
	v, err := version.Parse(sc.MySQL.Version)
	cols := metrics.SeriesColumns(shared, err == nil && v.Flavor == version.MariaDB)
	var out []string
	for _, m := range metrics.Summarize(&metrics.Series{Columns: cols}) {
		out = append(out, m.Name)
	}
	// metrics.Summarize leaves out tps_min and tps_p50 for a series without rows.
	out = append(out, "tps_min", "tps_p50")
	out = append(out, tempTruncationSummary...)
	for _, w := range sc.Workload {
		if n, ok := w.Params.(workload.SummaryNamer); ok {
			out = append(out, n.SummaryNames()...)
		}
	}
	for _, c := range cols {
		if c == "time_s" {
			continue
		}
		out = append(out, "mean."+c, "per_txn."+c)
		if strings.HasSuffix(c, "cpu_util") {
			out = append(out, "cpu_us_per_txn."+c)
		}
	}
	if len(sc.Schedule) == 0 {
		return out
	}
	out = append(out, metrics.DDLStats...)
	// Statements in schedule order; a repeating entry (every, each) makes an unknown number.
	i, counted := 0, true
	seen := map[string]bool{}
	for _, ev := range sc.Schedule {
		op, _ := ev.Params.(ddl.Operation)
		fields := append([]string{"duration_s"}, metrics.ImpactFields...)
		if op != nil {
			for _, p := range ddl.PhaseNames(op) {
				fields = append(fields, p+"_s")
			}
		}
		if !seen[ev.DDL] {
			seen[ev.DDL] = true
			for _, f := range metrics.AggregateFields {
				out = append(out, "ddl_all_"+ev.DDL+"_"+f)
			}
			if op != nil {
				for _, p := range ddl.PhaseNames(op) {
					out = append(out, "ddl_all_"+ev.DDL+"_"+p+"_s")
				}
			}
		}
		idx := fmt.Sprint(i)
		if !counted || ev.Every > 0 || ev.Each {
			counted, idx = false, "*"
		}
		for _, f := range fields {
			out = append(out, "ddl"+idx+"_"+ev.DDL+"_"+f)
		}
		i++
	}
	return out
}

// MatchStat reports whether name is one of names (StatNames), where a "*" in a listed name
// matches one or more characters.
func MatchStat(names []string, name string) bool {
	for _, n := range names {
		if n == name {
			return true
		}
		if before, after, ok := strings.Cut(n, "*"); ok && len(name) > len(before)+len(after) &&
			strings.HasPrefix(name, before) && matchRest(after, name[len(before):]) {
			return true
		}
	}
	return false
}

// matchRest matches the rest of a pattern (which may hold another "*") against the rest of
// a name, the previous "*" having taken at least one character.
func matchRest(pat, s string) bool {
	for k := 1; k <= len(s); k++ {
		if MatchStat([]string{pat}, s[k:]) || pat == "" && k == len(s) {
			return true
		}
	}
	return false
}
