package output

import (
	"bytes"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
	"text/tabwriter"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// Harm is what a compare --vary or a sweep ranks its settings by: the harm one run's DDL
// statements did to the traffic, lower is better. The criterion depends on what the runs
// measured (docs/compare.md, "Comparing settings"):
//   - with an SLO: the seconds above it, summed over the statements;
//   - with open-loop traffic and no SLO: the worst p99 latency during a statement;
//   - closed-loop traffic: the transactions lost while the statements ran,
//     Σ max(0, lost_txns), lost_txns = baseline_tps × duration_s − the transactions done.
//
// A run in which a statement failed or did not finish harms most (+Inf).
type Harm struct {
	Name  string // the column heading: "above_slo_s", "lat_p99_ms", "lost_txns"
	About string // what it is, for the sentence above the table
	Score func(r *Row) float64
	// Tie breaks equal scores (the SLO seconds come in whole report intervals): the worst
	// p99 during a statement with an SLO, else the statements' total time.
	Tie func(r *Row) float64
}

// HarmOf picks the criterion the rows support.
func HarmOf(rows []Row) Harm {
	slo, open := false, false
	for _, r := range rows {
		for _, d := range r.DDL {
			if d.Latency != nil {
				open = true
				slo = slo || d.Latency.SLO != ""
			}
		}
	}
	bad := func(r *Row) bool {
		for _, d := range r.DDL {
			if d.Failed || d.Unfinished {
				return true
			}
		}
		return false
	}
	score := func(f func(d *metrics.DDLResult, acc float64) float64) func(r *Row) float64 {
		return func(r *Row) float64 {
			if bad(r) {
				return math.Inf(1)
			}
			acc := 0.0
			for i := range r.DDL {
				acc = f(&r.DDL[i], acc)
			}
			return acc
		}
	}
	switch {
	case slo:
		return Harm{"above_slo_s", "seconds above the SLO during and after the DDL", score(func(d *metrics.DDLResult, acc float64) float64 {
			if d.Latency == nil || math.IsNaN(d.Latency.AboveSLOS) {
				return acc
			}
			return acc + d.Latency.AboveSLOS
		}), score(worstP99)}
	case open:
		return Harm{"lat_p99_ms", "p99 latency during the DDL (the worst statement)", score(worstP99), totalDuration}
	}
	return Harm{"lost_txns", "transactions lost while the DDL ran, baseline TPS × duration − transactions done", score(func(d *metrics.DDLResult, acc float64) float64 {
		if math.IsNaN(d.LostTxns) {
			return acc
		}
		return acc + math.Max(0, d.LostTxns)
	}), totalDuration}
}

func worstP99(d *metrics.DDLResult, acc float64) float64 {
	if math.IsNaN(d.LatP99Ms) {
		return acc
	}
	return math.Max(acc, d.LatP99Ms)
}

// totalDuration is the time a run's statements took (+Inf if one failed or did not finish),
// the tie-break between settings that harm equally.
func totalDuration(r *Row) float64 {
	t := 0.0
	for _, d := range r.DDL {
		if d.Failed || d.Unfinished {
			return math.Inf(1)
		}
		t += d.DurationS
	}
	return t
}

// meanOf is the mean of f over a group's runs (+Inf if any is +Inf).
func meanOf(g Group, f func(r *Row) float64) float64 {
	s := 0.0
	for i := range g.Rows {
		s += f(&g.Rows[i])
	}
	return s / float64(len(g.Rows))
}

// Rank orders groups by h, least harm first; equal harm by h.Tie, then the statements' total
// time, then in their given order.
func Rank(groups []Group, h Harm) []Group {
	out := append([]Group(nil), groups...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := meanOf(out[i], h.Score), meanOf(out[j], h.Score)
		if a != b {
			return a < b
		}
		if a, b := meanOf(out[i], h.Tie), meanOf(out[j], h.Tie); a != b {
			return a < b
		}
		return meanOf(out[i], totalDuration) < meanOf(out[j], totalDuration)
	})
	return out
}

// statCI is the mean ± CI of f over a group's runs; +Inf values (a failed or unfinished
// statement) are counted as failed and left out.
func statCI(g Group, f func(r *Row) float64) metrics.Stat {
	var xs []float64
	failed := 0
	for i := range g.Rows {
		if v := f(&g.Rows[i]); math.IsInf(v, 1) {
			failed++
		} else {
			xs = append(xs, v)
		}
	}
	s := metrics.MeanCI(xs)
	s.Failed = failed
	return s
}

// PrintKeyTable writes one line per group (a setting): its parameters, the runs, the harm
// (h), and per DDL statement (at most metrics.ListedDDLs) its duration, the latency or
// throughput it left and (unless h is lost_txns) the transactions it cost, each mean ± 95% CI
// over the seeds. With rank, a first column numbers
// the lines (groups are printed in the order given).
func PrintKeyTable(w io.Writer, groups []Group, h Harm, rank bool) error {
	if len(groups) == 0 {
		return nil
	}
	var params []string
	seen := map[string]bool{}
	nddl := 0
	harm := false
	for _, g := range groups {
		for _, p := range g.Params {
			if !seen[p.Path] {
				seen[p.Path] = true
				params = append(params, p.Path)
			}
		}
		for _, r := range g.Rows {
			nddl = max(nddl, len(r.DDL))
			for _, d := range r.DDL {
				harm = harm || d.Latency != nil
			}
		}
	}
	nddl = min(nddl, metrics.ListedDDLs)
	lost := h.Name != "lost_txns" // the traffic each statement cost, unless it is the harm ranked by
	var buf bytes.Buffer
	tw := tabwriter.NewWriter(&buf, 0, 0, 2, ' ', 0)
	var head []string
	if rank {
		head = append(head, "rank")
	}
	head = append(head, params...)
	head = append(head, "runs", h.Name)
	ops := make([]string, nddl)
	for _, g := range groups {
		for _, r := range g.Rows {
			for i := 0; i < nddl && i < len(r.DDL); i++ {
				if ops[i] == "" {
					ops[i] = r.DDL[i].Op
				}
			}
		}
	}
	for i, op := range ops {
		p := fmt.Sprintf("ddl%d_%s_", i, op)
		if harm {
			head = append(head, p+"duration_s", p+"lat_p99_ms")
		} else {
			head = append(head, p+"duration_s", p+"min_tps")
		}
		if lost {
			head = append(head, p+"lost_txns")
		}
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	ddlStat := func(g Group, i int, f func(d *metrics.DDLResult) float64) metrics.Stat {
		return statCI(g, func(r *Row) float64 {
			if i >= len(r.DDL) {
				return math.NaN()
			}
			if d := &r.DDL[i]; !d.Failed && !d.Unfinished {
				return f(d)
			}
			return math.Inf(1)
		})
	}
	for gi, g := range groups {
		var cells []string
		if rank {
			cells = append(cells, fmt.Sprint(gi+1))
		}
		for _, p := range params {
			v, _ := g.Params.Get(p)
			cells = append(cells, v)
		}
		cells = append(cells, fmt.Sprint(len(g.Rows)), statCI(g, h.Score).Cell())
		for i := range ops {
			cells = append(cells, ddlStat(g, i, func(d *metrics.DDLResult) float64 { return d.DurationS }).Cell())
			if harm {
				cells = append(cells, ddlStat(g, i, func(d *metrics.DDLResult) float64 { return d.LatP99Ms }).Cell())
			} else {
				cells = append(cells, ddlStat(g, i, func(d *metrics.DDLResult) float64 { return d.MinTPS }).Cell())
			}
			if lost {
				cells = append(cells, ddlStat(g, i, func(d *metrics.DDLResult) float64 { return d.LostTxns }).Cell())
			}
		}
		fmt.Fprintln(tw, strings.Join(cells, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	lines := strings.Split(strings.TrimRight(buf.String(), "\n"), "\n")
	for i, l := range lines {
		lines[i] = strings.TrimRight(l, " ")
	}
	_, err := io.WriteString(w, strings.Join(lines, "\n")+"\n")
	return err
}
