package sweep

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strconv"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/metrics"
	"gonum.org/v1/gonum/floats"
	"gonum.org/v1/gonum/stat"
	"gonum.org/v1/gonum/stat/distuv"
)

// Stat is a sample's mean and the half-width of its 95% confidence interval
// (Student t with n−1 degrees of freedom × standard error). Half is NaN for n < 2.
// For a DDL duration, Unfinished and Failed count the runs left out of it (their statement
// was still running at the end, or failed), and Bound is the shortest time an unfinished one
// had run (each ran longer than that).
type Stat struct {
	N                  int
	Mean, Half         float64
	Unfinished, Failed int
	Bound              float64
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

// String prints "mean ± half" in plain notation (never 1.435e+05): both to the last digit of
// the half-width's two significant ones (659 ± 19, 3.348 ± 0.060) but at most three digits
// past the mean's fourth (0.9999900 ± 0.0000005), and with one run only the mean.
func (s Stat) String() string {
	switch {
	case s.N == 0:
		return "—"
	case math.IsNaN(s.Half) || math.IsInf(s.Half, 0):
		return Plain(s.Mean, 4)
	case s.Half == 0:
		return Plain(s.Mean, 4) + " ± 0"
	}
	dec := max(min(decimals(s.Half, 2), decimals(s.Mean, 4)+3), 0)
	half := strconv.FormatFloat(s.Half, 'f', dec, 64)
	if h, _ := strconv.ParseFloat(half, 64); h == 0 {
		half = Plain(s.Half, 2)
	}
	return strconv.FormatFloat(s.Mean, 'f', dec, 64) + " ± " + half
}

// decimals is the number of digits after the point that shows v with sig significant digits
// (negative when v is larger than sig digits).
func decimals(v float64, sig int) int {
	if v == 0 || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0
	}
	return sig - 1 - int(math.Floor(math.Log10(math.Abs(v))))
}

// Plain prints v with sig significant digits in plain notation, trailing zeros dropped:
// numbers of more digits than sig are printed whole (143500, 1234568; never 1.435e+05),
// small ones with as many zeros as they need (0.00052). NaN is "—", infinities "∞", "-∞".
func Plain(v float64, sig int) string {
	switch {
	case math.IsNaN(v):
		return "—"
	case math.IsInf(v, 1):
		return "∞"
	case math.IsInf(v, -1):
		return "-∞"
	case v == 0:
		return "0"
	}
	dec := decimals(v, sig)
	if dec <= 0 {
		return strconv.FormatFloat(v, 'f', 0, 64)
	}
	r, _ := strconv.ParseFloat(strconv.FormatFloat(v, 'g', sig, 64), 64) // round to sig digits
	out := strconv.FormatFloat(r, 'f', max(decimals(r, sig), 0), 64)
	if strings.Contains(out, ".") {
		out = strings.TrimRight(strings.TrimRight(out, "0"), ".")
	}
	return out
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
	metrics.Metric
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
var ImpactFields = []string{"baseline_tps", "min_tps", "mean_tps", "lat_p95_ms", "lat_p99_ms", "below_half_s"}

func impactValues(d *metrics.DDLResult) []float64 {
	return []float64{d.BaselineTPS, d.MinTPS, d.MeanTPS, d.LatP95Ms, d.LatP99Ms, d.BelowHalfS}
}

// KeyMetrics lists a run's summary metrics followed by each DDL statement's duration, traffic
// impact and phase durations, named ddl<i>_<op>_duration_s, ddl<i>_<op>_<field> (ImpactFields)
// and ddl<i>_<op>_<phase>_s.
func KeyMetrics(r *Row) metrics.Summary {
	var out metrics.Summary
	for _, k := range KeyMetricsOf(r) {
		out = append(out, k.Metric)
	}
	return out
}

// KeyMetricsOf is KeyMetrics with each metric's kind, in the same order.
func KeyMetricsOf(r *Row) []KeyMetric {
	var out []KeyMetric
	for _, m := range r.Metrics {
		out = append(out, KeyMetric{Metric: m, Kind: KindSummary})
	}
	if len(r.DDL) > ListedDDLs {
		return append(out, aggregateKeyMetrics(r.DDL)...)
	}
	for i, d := range r.DDL {
		about := fmt.Sprintf("ddl%d %s %s", i, d.Op, d.Table)
		dur := d.DurationS
		if d.Failed || d.Unfinished {
			dur = nan // no duration to average: failed, or only a lower bound
		}
		name := func(f string) string { return fmt.Sprintf("ddl%d_%s_%s", i, d.Op, f) }
		out = append(out, KeyMetric{Metric: metrics.Metric{Name: name("duration_s"), Value: dur}, Kind: KindImpact, DDL: i, About: about,
			Failed: d.Failed, Unfinished: d.Unfinished && !d.Failed, Bound: d.DurationS})
		for j, v := range impactValues(&r.DDL[i]) {
			out = append(out, KeyMetric{Metric: metrics.Metric{Name: name(ImpactFields[j]), Value: v}, Kind: KindImpact, DDL: i, About: about})
		}
		// A phase that occurs several times (CREATE INDEX's observer flush: once per index,
		// once at the end) is one metric: the total time spent in it.
		names, total := metrics.PhaseTotals(d.Phases)
		for _, n := range names {
			out = append(out, KeyMetric{Metric: metrics.Metric{Name: name(n + "_s"), Value: total[n]}, Kind: KindPhase, DDL: i, About: about})
		}
	}
	return out
}

// aggregateKeyMetrics are the AggregateFields of each operation's statements (operations in
// order of first appearance), then each operation's phase totals over its statements. A
// duration field is NaN, with the run flagged unfinished and its bound the time run so far,
// when any of the operation's statements was still running at the end of the run.
func aggregateKeyMetrics(ddls []metrics.DDLResult) []KeyMetric {
	var ops []string
	byOp := map[string][]*metrics.DDLResult{}
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
			names, t := metrics.PhaseTotals(d.Phases)
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
			k := KeyMetric{Metric: metrics.Metric{Name: name(AggregateFields[j]), Value: v}, Kind: KindImpact, DDL: -1, About: about}
			if bounds != nil && strings.HasSuffix(AggregateFields[j], "duration_s") {
				k.Value, k.Unfinished, k.Bound = math.NaN(), true, bounds[j]
			}
			out = append(out, k)
		}
		for _, n := range phaseNames {
			phases = append(phases, KeyMetric{Metric: metrics.Metric{Name: name(n + "_s"), Value: phaseTotal[n]}, Kind: KindPhase, DDL: -1, About: about})
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

// StatTable is metrics (rows) × groups (columns) of mean ± CI. Metrics are ordered by kind
// (KindImpact, KindSummary, KindPhase), each kind in order of first appearance.
type StatTable struct {
	Metrics []string
	Kinds   []int    // per metric
	DDLs    []string // per metric of KindImpact or KindPhase: the statement, "ddl0 create_index sbtest1"
	Groups  []Group
	Cells   [][]Stat // [metric][group]
}

// Tabulate computes the StatTable of grouped runs over KeyMetrics.
func Tabulate(groups []Group) *StatTable {
	t := &StatTable{Groups: groups}
	type info struct {
		kind, order int
		ddl         string
	}
	seen := map[string]*info{}
	var names []string
	vals := map[string][][]float64{}
	unf := map[string][][]float64{}
	fail := map[string][]int{}
	for gi, g := range groups {
		for i := range g.Rows {
			r := &g.Rows[i]
			for _, m := range KeyMetricsOf(r) {
				if seen[m.Name] == nil {
					in := &info{kind: m.Kind, order: len(names), ddl: m.About}
					seen[m.Name] = in
					names = append(names, m.Name)
					vals[m.Name] = make([][]float64, len(groups))
					unf[m.Name] = make([][]float64, len(groups))
					fail[m.Name] = make([]int, len(groups))
				}
				vals[m.Name][gi] = append(vals[m.Name][gi], m.Value)
				if m.Unfinished {
					unf[m.Name][gi] = append(unf[m.Name][gi], m.Bound)
				}
				if m.Failed {
					fail[m.Name][gi]++
				}
			}
		}
	}
	sort.SliceStable(names, func(i, j int) bool {
		a, b := seen[names[i]], seen[names[j]]
		if a.kind != b.kind {
			return a.kind < b.kind
		}
		return a.order < b.order
	})
	t.Metrics = names
	for _, name := range names {
		row := make([]Stat, len(groups))
		for gi := range groups {
			row[gi] = MeanCI(vals[name][gi])
			row[gi].Failed = fail[name][gi]
			if u := unf[name][gi]; len(u) > 0 {
				row[gi].Unfinished = len(u)
				row[gi].Bound = floats.Min(u)
			}
		}
		t.Cells = append(t.Cells, row)
		t.Kinds = append(t.Kinds, seen[name].kind)
		t.DDLs = append(t.DDLs, seen[name].ddl)
	}
	return t
}

// Cell is a table cell as printed: the Stat, and for a DDL duration with unfinished or failed
// runs, what they were: "unfinished (> 600 s)" when every run was, else the mean of the others
// followed by "(1 unfinished, > 600 s)".
func (s Stat) Cell() string {
	var notes []string
	if s.Unfinished > 0 {
		b := Plain(s.Bound, 4)
		if s.N == 0 && s.Failed == 0 {
			return "unfinished (> " + b + " s)"
		}
		notes = append(notes, fmt.Sprintf("%d unfinished, > %s s", s.Unfinished, b))
	}
	if s.Failed > 0 {
		if s.N == 0 && s.Unfinished == 0 {
			return "failed"
		}
		notes = append(notes, fmt.Sprintf("%d failed", s.Failed))
	}
	if len(notes) == 0 {
		return s.String()
	}
	return s.String() + " (" + strings.Join(notes, "; ") + ")"
}

// Sections splits the table's rows (metric indexes) into its parts, in order, with a title
// each: per DDL statement its duration and traffic impact, then "run metrics", then per DDL
// statement its phases.
func (t *StatTable) Sections() []Section {
	var out []Section
	for mi := range t.Metrics {
		var title string
		switch t.Kinds[mi] {
		case KindImpact:
			title = t.DDLs[mi] + ": duration and traffic impact"
		case KindSummary:
			title = "run metrics"
		default:
			title = t.DDLs[mi] + ": phases (s)"
		}
		if len(out) == 0 || out[len(out)-1].Title != title {
			out = append(out, Section{Title: title, Kind: t.Kinds[mi]})
		}
		out[len(out)-1].Rows = append(out[len(out)-1].Rows, mi)
	}
	return out
}

// Section is a titled run of StatTable rows.
type Section struct {
	Title string
	Kind  int
	Rows  []int
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

// Print writes the table side by side, one column per group, with the number of runs: each
// DDL statement's duration and traffic impact first, then the run's metrics, then the phases,
// each part under a heading line.
func (t *StatTable) Print(w io.Writer) error {
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
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
	empty := strings.Repeat("\t", len(t.Groups)+1)
	for _, sec := range t.Sections() {
		fmt.Fprintf(tw, "%s\n-- %s --%s\n", empty, sec.Title, empty)
		for _, mi := range sec.Rows {
			fmt.Fprintf(tw, "%s\t", t.Metrics[mi])
			for gi := range t.Groups {
				fmt.Fprintf(tw, "%s\t", t.Cells[mi][gi].Cell())
			}
			fmt.Fprint(tw, "\n")
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	lines := strings.Split(buf.String(), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ") // the last column's padding
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n"))
	return err
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
				ops = append(ops, fmt.Sprintf("%s %s (> %s s)", d.Op, d.Table, Plain(d.DurationS, 4)))
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
