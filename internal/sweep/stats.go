package sweep

import (
	"fmt"
	"io"
	"math"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/metrics"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat is a sample's mean and the half-width of its 95% confidence interval
// (Student t with n−1 degrees of freedom × standard error). Half is NaN for n < 2.
type Stat struct {
	N          int
	Mean, Half float64
}

// MeanCI computes a Stat, ignoring NaNs (runs where the metric had no data).
func MeanCI(xs []float64) Stat {
	var v []float64
	for _, x := range xs {
		if !math.IsNaN(x) {
			v = append(v, x)
		}
	}
	s := Stat{N: len(v), Mean: nan, Half: nan}
	if len(v) == 0 {
		return s
	}
	if len(v) == 1 {
		s.Mean = v[0]
		return s
	}
	mean, sd := stat.MeanStdDev(v, nil)
	t := distuv.StudentsT{Mu: 0, Sigma: 1, Nu: float64(len(v) - 1)}.Quantile(0.975)
	s.Mean, s.Half = mean, t*sd/math.Sqrt(float64(len(v)))
	return s
}

// String prints "mean ± half" with 4 significant digits.
func (s Stat) String() string {
	switch {
	case s.N == 0:
		return "—"
	case math.IsNaN(s.Half):
		return fmt.Sprintf("%.4g", s.Mean)
	}
	return fmt.Sprintf("%.4g ± %.2g", s.Mean, s.Half)
}

// Group is one point's runs.
type Group struct {
	Point Point
	Rows  []Row
}

// GroupByPoint groups sorted rows by point id, in id order.
func GroupByPoint(rows []Row) []Group {
	var out []Group
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Point.ID != r.Point {
			out = append(out, Group{Point: Point{ID: r.Point, Params: r.Params}})
		}
		g := &out[len(out)-1]
		g.Rows = append(g.Rows, r)
	}
	return out
}

// KeyMetrics lists a run's summary metrics followed by each DDL statement's duration and
// phase durations, named ddl<i>_<op>_duration_s and ddl<i>_<op>_<phase>_s.
func KeyMetrics(r *Row) metrics.Summary {
	out := append(metrics.Summary(nil), r.Metrics...)
	for i, d := range r.DDL {
		dur := d.DurationS
		if d.Failed || d.Unfinished {
			dur = nan // no duration to average: failed, or only a lower bound
		}
		out = append(out, metrics.Metric{Name: fmt.Sprintf("ddl%d_%s_duration_s", i, d.Op), Value: dur})
		// A phase that occurs several times (CREATE INDEX's observer flush: once per index,
		// once at the end) is one metric: the total time spent in it.
		var names []string
		total := map[string]float64{}
		for _, ph := range d.Phases {
			if _, ok := total[ph.Name]; !ok {
				names = append(names, ph.Name)
			}
			total[ph.Name] += ph.EndS - ph.StartS
		}
		for _, n := range names {
			out = append(out, metrics.Metric{Name: fmt.Sprintf("ddl%d_%s_%s_s", i, d.Op, n), Value: total[n]})
		}
	}
	return out
}

// StatTable is metrics (rows) × groups (columns) of mean ± CI.
type StatTable struct {
	Metrics []string
	Groups  []Group
	Cells   [][]Stat // [metric][group]
}

// Tabulate computes the StatTable of grouped runs over KeyMetrics.
func Tabulate(groups []Group) *StatTable {
	t := &StatTable{Groups: groups}
	seen := map[string]bool{}
	vals := map[string][][]float64{}
	for gi, g := range groups {
		for i := range g.Rows {
			for _, m := range KeyMetrics(&g.Rows[i]) {
				if !seen[m.Name] {
					seen[m.Name] = true
					t.Metrics = append(t.Metrics, m.Name)
					vals[m.Name] = make([][]float64, len(groups))
				}
				vals[m.Name][gi] = append(vals[m.Name][gi], m.Value)
			}
		}
	}
	for _, name := range t.Metrics {
		row := make([]Stat, len(groups))
		for gi := range groups {
			row[gi] = MeanCI(vals[name][gi])
		}
		t.Cells = append(t.Cells, row)
	}
	return t
}

// GroupLabel names a group by its parameter values ("fullscan", "lazy, 16GiB").
func GroupLabel(g Group) string {
	if len(g.Point.Params) == 0 {
		return fmt.Sprintf("point %d", g.Point.ID)
	}
	var parts []string
	for _, p := range g.Point.Params {
		parts = append(parts, p.Value)
	}
	return strings.Join(parts, ", ")
}

// Print writes the table side by side, one column per group, with the number of runs.
func (t *StatTable) Print(w io.Writer) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprint(tw, "metric\t")
	for _, g := range t.Groups {
		fmt.Fprintf(tw, "%s\t", GroupLabel(g))
	}
	fmt.Fprint(tw, "\n")
	fmt.Fprint(tw, "runs\t")
	for _, g := range t.Groups {
		fmt.Fprintf(tw, "%d\t", len(g.Rows))
	}
	fmt.Fprint(tw, "\n")
	for mi, name := range t.Metrics {
		fmt.Fprintf(tw, "%s\t", name)
		for gi := range t.Groups {
			fmt.Fprintf(tw, "%s\t", t.Cells[mi][gi])
		}
		fmt.Fprint(tw, "\n")
	}
	return tw.Flush()
}

// Unfinished describes the runs that ended with a DDL statement still running: they reached
// the end of the run (the duration, or with until ddl_done the cap) first, so their DDL
// durations are lower bounds and left out of the means. One line per run: its point's
// parameters, its seed and the statements.
func Unfinished(rows []Row) []string {
	var out []string
	for _, r := range rows {
		var ops []string
		for _, d := range r.DDL {
			if d.Unfinished {
				ops = append(ops, fmt.Sprintf("%s %s (> %.4g s)", d.Op, d.Table, d.DurationS))
			}
		}
		if len(ops) == 0 {
			continue
		}
		var ps []string
		for _, p := range r.Params {
			ps = append(ps, p.Path+"="+p.Value)
		}
		where := strings.Join(ps, " ")
		if where == "" {
			where = fmt.Sprintf("point %d", r.Point)
		}
		out = append(out, fmt.Sprintf("%s seed %d: %s", where, r.Seed, strings.Join(ops, ", ")))
	}
	return out
}

// PrintUnfinished writes Unfinished's lines under a heading, or nothing when every DDL ended.
func PrintUnfinished(w io.Writer, rows []Row) {
	u := Unfinished(rows)
	if len(u) == 0 {
		return
	}
	fmt.Fprintf(w, "\n%d run(s) hit the end of the run (duration, or the cap of until: ddl_done) with a DDL statement unfinished; its duration is a lower bound, left out of the means:\n", len(u))
	for _, l := range u {
		fmt.Fprintf(w, "  %s\n", l)
	}
}
