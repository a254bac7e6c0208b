package explain

import (
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/model/workload"
)

// Setting is one input Sensitivity varies: a --set path, its value in the run and why it
// was picked.
type Setting struct {
	Path  string
	Value float64
	Int   bool // an integer setting (threads, a size in bytes)
	Why   string
}

// candidates maps a phase to the settings its time depends on, most direct first. The
// load's own path ("traffic") is resolved to the first sysbench workload's rate (open loop) or
// threads.
var candidates = map[string][]string{
	"scan":                {"mysql.innodb_parallel_read_threads", "mysql.innodb_buffer_pool_size"},
	"merge":               {"mysql.innodb_ddl_threads", "mysql.innodb_ddl_buffer_size", "mysql.innodb_sort_buffer_size"},
	"load":                {"mysql.innodb_ddl_threads", "traffic"},
	"observer_flush":      {"mysql.innodb_io_capacity", "traffic"},
	"row_log_apply":       {"traffic"},
	"row_log_apply_final": {"traffic"},
	"wait_mdl":            {"traffic"},
	"drop":                {"mysql.innodb_buffer_pool_size"},
	"free_pages":          {"mysql.innodb_buffer_pool_size"},
	"flush":               {"mysql.innodb_io_capacity"},
}

// Relevant picks up to n settings most relevant to the statement: each phase's time is
// credited to its candidate settings (the first one most), the settings the server version
// does not have are skipped (innodb_ddl_threads and innodb_ddl_buffer_size are 8.0.27+; before
// them innodb_sort_buffer_size sizes the sort), and the highest credit wins.
func Relevant(sc *config.Scenario, d metrics.DDLResult, n int) []Setting {
	v, _ := version.Parse(sc.MySQL.Version)
	ddl8027 := v.InnoDB().AtLeast(8, 0, 27) && v.Flavor != version.MariaDB
	credit := map[string]float64{}
	why := map[string]string{}
	names, total := topPhases(d)
	for _, ph := range names {
		key := ph
		if strings.HasPrefix(ph, "merge_pass_") {
			key = "merge"
		}
		for k, c := range candidates[key] {
			switch c {
			case "mysql.innodb_ddl_threads", "mysql.innodb_ddl_buffer_size":
				if !ddl8027 {
					continue
				}
			case "mysql.innodb_sort_buffer_size", "mysql.innodb_parallel_read_threads":
				if ddl8027 && c == "mysql.innodb_sort_buffer_size" {
					continue
				}
			}
			credit[c] += total[ph] / float64(k+1)
			if why[c] == "" {
				why[c] = ph
			}
		}
	}
	var keys []string
	for k := range credit {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool {
		if credit[keys[i]] != credit[keys[j]] {
			return credit[keys[i]] > credit[keys[j]]
		}
		return keys[i] < keys[j]
	})
	var out []Setting
	for _, k := range keys {
		if len(out) == n {
			break
		}
		s, ok := resolve(sc, k)
		if !ok {
			continue
		}
		s.Why = why[k]
		out = append(out, s)
	}
	return out
}

// resolve reads a setting's value in the scenario.
func resolve(sc *config.Scenario, key string) (Setting, bool) {
	m := &sc.MySQL
	switch key {
	case "mysql.innodb_parallel_read_threads":
		return Setting{Path: key, Value: float64(m.ParallelReadThreads), Int: true}, m.ParallelReadThreads > 0
	case "mysql.innodb_buffer_pool_size":
		return Setting{Path: key, Value: float64(m.BufferPoolSize), Int: true}, true
	case "mysql.innodb_ddl_threads":
		return Setting{Path: key, Value: float64(m.DDLThreads), Int: true}, m.DDLThreads > 0
	case "mysql.innodb_ddl_buffer_size":
		return Setting{Path: key, Value: float64(m.DDLBufferSize), Int: true}, m.DDLBufferSize > 0
	case "mysql.innodb_sort_buffer_size":
		return Setting{Path: key, Value: float64(m.SortBufferSize), Int: true}, m.SortBufferSize > 0
	case "mysql.innodb_io_capacity":
		return Setting{Path: key, Value: float64(m.IOCapacity), Int: true}, m.IOCapacity > 0
	case "traffic":
		for i, w := range sc.Workload {
			if b, ok := w.Params.(*workload.Sysbench); ok {
				if b.Rate > 0 {
					return Setting{Path: fmt.Sprintf("workload[%d].sysbench.rate", i), Value: b.Rate}, true
				}
				return Setting{Path: fmt.Sprintf("workload[%d].sysbench.threads", i), Value: float64(b.Threads), Int: true}, true
			}
		}
	}
	return Setting{}, false
}

// Line is one setting's two re-runs: the statement's duration and harm at ×0.5 and ×1.5.
type Line struct {
	Setting
	Values   [2]string             // the --set values tried
	Results  [2]*metrics.DDLResult // the statement in each re-run (nil: the run failed)
	Errors   [2]error
	Baseline metrics.DDLResult
}

// scaled is v × f as a --set value: integers rounded (at least 1; the minimum MySQL accepts is
// left to the loader to report).
func (s Setting) scaled(f float64) string {
	v := s.Value * f
	if s.Int {
		return strconv.FormatInt(int64(math.Max(1, math.Round(v))), 10)
	}
	return metrics.FormatFloat(v)
}

// Sensitivity re-runs the scenario (load builds it with extra --set overrides) with each
// setting at ×0.5 and ×1.5, one at a time, and returns what statement i did in each.
func Sensitivity(load func(extra []string) (*config.Scenario, error), base metrics.DDLResult, i int, settings []Setting) []Line {
	var out []Line
	for _, s := range settings {
		l := Line{Setting: s, Baseline: base}
		for k, f := range []float64{0.5, 1.5} {
			l.Values[k] = s.scaled(f)
			sc, err := load([]string{s.Path + "=" + l.Values[k]})
			if err != nil {
				l.Errors[k] = err
				continue
			}
			res, err := runner.Run(sc, runner.Options{})
			if err != nil {
				l.Errors[k] = err
				continue
			}
			if i < len(res.DDL) {
				d := res.DDL[i]
				l.Results[k] = &d
			}
		}
		out = append(out, l)
	}
	return out
}

// harmOf is a statement's headline harm: SLO seconds, else p99 during, else the lowest TPS.
func harmOf(d *metrics.DDLResult) string {
	switch {
	case d.Failed:
		return "failed"
	case d.Latency != nil && d.Latency.SLO != "":
		return num(d.Latency.AboveSLOS) + " s above the SLO"
	case d.Latency != nil:
		return "p99 " + num(d.LatP99Ms) + " ms"
	}
	return "min " + num(d.MinTPS) + " TPS"
}

// String prints the line: "mysql.innodb_ddl_threads 4 (for merge): ×0.5 = 2: 24.1 s, 3 s
// above the SLO; ×1.5 = 6: 22.2 s, 9 s above the SLO (base 22.2 s, 9 s above the SLO)".
func (l Line) String() string {
	var parts []string
	for k, f := range []string{"×0.5", "×1.5"} {
		p := fmt.Sprintf("%s = %s: ", f, l.Values[k])
		switch {
		case l.Errors[k] != nil:
			p += "not run: " + strings.ReplaceAll(l.Errors[k].Error(), "\n", "; ")
		case l.Results[k] == nil:
			p += "no such statement"
		default:
			d := l.Results[k]
			p += fmt.Sprintf("%s s (%+.0f%%), %s", num(d.DurationS), 100*(d.DurationS/l.Baseline.DurationS-1), harmOf(d))
		}
		parts = append(parts, p)
	}
	val := l.scaled(1)
	return fmt.Sprintf("%s %s (for %s): %s (the run: %s s, %s)", l.Path, val, l.Why, strings.Join(parts, "; "),
		num(l.Baseline.DurationS), harmOf(&l.Baseline))
}
