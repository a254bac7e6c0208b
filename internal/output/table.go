package output

import (
	"bytes"
	"fmt"
	"io"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/metrics"
	"gonum.org/v1/gonum/floats"
)

// Group is one point's runs.
type Group struct {
	Point  int
	Params Params
	Rows   []Row
}

// GroupByPoint groups sorted rows by point id, in id order.
func GroupByPoint(rows []Row) []Group {
	var out []Group
	for _, r := range rows {
		if len(out) == 0 || out[len(out)-1].Point != r.Point {
			out = append(out, Group{Point: r.Point, Params: r.Params})
		}
		g := &out[len(out)-1]
		g.Rows = append(g.Rows, r)
	}
	return out
}

// StatTable is metrics (rows) × groups (columns) of mean ± CI. Metrics are ordered by kind
// (KindImpact, KindSummary, KindPhase), each kind in order of first appearance.
type StatTable struct {
	Metrics []string
	Kinds   []int    // per metric
	DDLs    []string // per metric of KindImpact or KindPhase: the statement, "ddl0 create_index sbtest1"
	Groups  []Group
	Cells   [][]metrics.Stat // [metric][group]
}

// Tabulate computes the StatTable of grouped runs over their key metrics: each cell is
// metrics.MeanCI of one metric over one group's runs.
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
			for _, m := range metrics.KeyMetricsOf(r.Metrics, r.DDL) {
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
		row := make([]metrics.Stat, len(groups))
		for gi := range groups {
			row[gi] = metrics.MeanCI(vals[name][gi])
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

// Sections splits the table's rows (metric indexes) into its parts, in order, with a title
// each: per DDL statement its duration and traffic impact, then "run metrics", then per DDL
// statement its phases.
func (t *StatTable) Sections() []Section {
	var out []Section
	for mi := range t.Metrics {
		var title string
		switch t.Kinds[mi] {
		case metrics.KindImpact:
			title = t.DDLs[mi] + ": duration and traffic impact"
		case metrics.KindSummary:
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
	if len(g.Params) == 0 {
		return fmt.Sprintf("point %d", g.Point)
	}
	var parts []string
	for _, p := range g.Params {
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
				ops = append(ops, fmt.Sprintf("%s %s (> %s s)", d.Op, d.Table, metrics.Plain(d.DurationS, 4)))
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
