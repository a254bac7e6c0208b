package explain

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/runner"
)

// phaseWhat says what a phase's time is spent on (docs/model.md, docs/indexbuild.md).
var phaseWhat = map[string]string{
	"wait_mdl":            "waiting for the table's metadata lock (open transactions on the table)",
	"scan":                "reading the clustered index: page reads and per-row CPU",
	"merge":               "sorting the index entries: CPU and the temporary sort files",
	"load":                "bulk-loading the new index's pages: CPU",
	"observer_flush":      "the flush observer writing the new index's pages, built without redo, to the data file before the ALTER may commit: I/O",
	"row_log_apply":       "replaying the DML logged while the index was built: CPU",
	"row_log_apply_final": "replaying the last logged DML under the exclusive lock (the table's clients wait)",
	"stats":               "the new index's statistics",
	"drop":                "removing the table's pages from the buffer pool (the version's LRU / flush-list walk)",
	"free_pages":          "freeing the table's pages one by one",
	"flush":               "writing the table's dirty pages (FLUSH_WRITE)",
	"mark_dirty":          "dirtying every page of the table",
	"truncate":            "re-creating the tablespace",
	"rename":              "renaming the tablespaces",
}

func describe(phase string) string {
	if strings.HasPrefix(phase, "merge_pass_") {
		return "one merge pass over the sort files"
	}
	if w, ok := phaseWhat[phase]; ok {
		return w
	}
	return ""
}

// topPhases are the statement's phase totals, counting only the phases that lie inside no
// other (metrics.Within: they add up to the duration), longest first.
func topPhases(d metrics.DDLResult) (names []string, total map[string]float64) {
	total = map[string]float64{}
	within := metrics.Within(d.Phases)
	for i, p := range d.Phases {
		if within[i] {
			continue
		}
		if _, ok := total[p.Name]; !ok {
			names = append(names, p.Name)
		}
		total[p.Name] += p.EndS - p.StartS
	}
	sort.SliceStable(names, func(i, j int) bool { return total[names[i]] > total[names[j]] })
	return names, total
}

// phaseAt is the statement's outermost phase that overlaps [a, b] the longest ("" none).
func phaseAt(d metrics.DDLResult, a, b float64) string {
	within := metrics.Within(d.Phases)
	best, bestO := "", 0.0
	for i, p := range d.Phases {
		if within[i] {
			continue
		}
		if o := math.Min(b, p.EndS) - math.Max(a, p.StartS); o > bestO {
			best, bestO = p.Name, o
		}
	}
	return best
}

// seriesMean is the mean of column col over the report intervals that end in (a, b].
func seriesMean(s *metrics.Series, col string, a, b float64) float64 {
	c := s.Col(col)
	if c < 0 {
		return math.NaN()
	}
	sum, n := 0.0, 0
	for _, r := range s.Rows {
		if r[0] > a && r[0] <= b && !math.IsNaN(r[c]) {
			sum += r[c]
			n++
		}
	}
	if n == 0 {
		return math.NaN()
	}
	return sum / float64(n)
}

func pct(part, whole float64) string {
	if whole <= 0 {
		return "-"
	}
	return fmt.Sprintf("%.0f%%", 100*part/whole)
}

func num(v float64) string { return metrics.Plain(v, 3) }

// Paragraphs explains each DDL statement of a run (at most metrics.ListedDDLs of them).
func Paragraphs(res *runner.Result) []string {
	var out []string
	interval := 1.0
	if res.Scenario != nil {
		interval = res.Scenario.Report.Interval.Seconds()
	}
	for i, d := range res.DDL {
		if i == metrics.ListedDDLs {
			out = append(out, fmt.Sprintf("(%d more statements: see ddl.csv)", len(res.DDL)-i))
			break
		}
		out = append(out, paragraph(i, d, res, interval))
	}
	return out
}

func paragraph(i int, d metrics.DDLResult, res *runner.Result, interval float64) string {
	var b strings.Builder
	status := ""
	switch {
	case d.Failed:
		status = " and FAILED: " + d.Reason
	case d.Unfinished:
		status = " and was still running when the run ended (a lower bound)"
	}
	fmt.Fprintf(&b, "ddl%d %s on %s (%s) took %s s, from %s to %s s%s.", i, d.Op, d.Table, d.Policy,
		num(d.DurationS), num(d.StartS), num(d.EndS), status)
	names, total := topPhases(d)
	var parts []string
	for _, n := range names {
		if len(parts) == 3 || total[n] < 0.05*d.DurationS && len(parts) > 0 {
			break
		}
		p := fmt.Sprintf("%s %s s (%s", n, num(total[n]), pct(total[n], d.DurationS))
		if w := describe(n); w != "" {
			p += ": " + w
		}
		parts = append(parts, p+")")
	}
	if len(parts) > 0 {
		fmt.Fprintf(&b, " The time went to %s.", strings.Join(parts, ", "))
	}
	// What it waited on.
	_, all := metrics.PhaseTotals(d.Phases)
	if w := all["wait_mdl"]; w >= 0.01 {
		fmt.Fprintf(&b, " It waited %s s for its metadata lock (%s of its time): an exclusive request waits for every transaction open on the table, and while it waits every new statement on the table queues behind it.", num(w), pct(w, d.DurationS))
	}
	var ddlWait float64
	var worst metrics.MutexRow
	for _, m := range res.Mutexes {
		if m.Thread == "ddl" {
			ddlWait += m.WaitS
			if m.WaitS > worst.WaitS {
				worst = m
			}
		}
	}
	if ddlWait >= 0.01 {
		fmt.Fprintf(&b, " DDL threads waited %s s for mutexes over the run, most for %s (%s s).", num(ddlWait), worst.Mutex, num(worst.WaitS))
	}
	if d.PagesFlushed > 0 || d.NodesVisited > 0 {
		fmt.Fprintf(&b, " Its buffer-pool work: %d list nodes visited, %d pages flushed, %d freed.", d.NodesVisited, d.PagesFlushed, d.PagesFreed)
	}
	// The machine during it against before it.
	s := &res.Series
	before0 := math.Max(0, d.StartS-10*interval)
	cpuB, cpuD := seriesMean(s, "cpu_util", before0, d.StartS), seriesMean(s, "cpu_util", d.StartS, d.EndS+interval)
	wB, wD := seriesMean(s, "pages_written_per_s", before0, d.StartS), seriesMean(s, "pages_written_per_s", d.StartS, d.EndS+interval)
	rB, rD := seriesMean(s, "pages_read_per_s", before0, d.StartS), seriesMean(s, "pages_read_per_s", d.StartS, d.EndS+interval)
	if !math.IsNaN(cpuD) {
		fmt.Fprintf(&b, " During it the cores were %s busy (%s before), the data file took %s page writes/s (%s before) and %s page reads/s (%s before)",
			pct(cpuD, 1), pct(cpuB, 1), num(wD), num(wB), num(rD), num(rB))
		switch {
		case cpuD >= 0.9:
			b.WriteString(": the cores were saturated, the build and the load competed for CPU.")
		case all["observer_flush"] > 0.3*d.DurationS:
			b.WriteString(": the CPU had room; the flush of the new pages set the pace.")
		default:
			b.WriteString(".")
		}
	}
	// The traffic.
	if h := d.Latency; h != nil {
		fmt.Fprintf(&b, " Transactions' p99 went from %s ms before it to %s ms during it (p50 %s → %s ms).", num(h.BaseP99Ms), num(d.LatP99Ms), num(h.BaseP50Ms), num(h.P50Ms))
		if h.SLO != "" && !math.IsNaN(h.AboveSLOS) {
			if h.AboveSLOS == 0 {
				fmt.Fprintf(&b, " The objective %s held throughout.", h.SLO)
			} else {
				fmt.Fprintf(&b, " The objective %s was broken for %s s in %s breach(es)%s.", h.SLO, num(h.AboveSLOS), num(h.SLOBreaches), breachPhases(s, d, h.SLO, interval))
			}
		}
	} else if !math.IsNaN(d.BaselineTPS) && d.BaselineTPS > 0 {
		fmt.Fprintf(&b, " Throughput went from %s TPS before it to %s on average during it (lowest %s), p99 %s ms.", num(d.BaselineTPS), num(d.MeanTPS), num(d.MinTPS), num(d.LatP99Ms))
	}
	if p := worstInterval(s, d, interval); p != "" {
		b.WriteString(p)
	}
	return b.String()
}

// breachPhases says in which phases the SLO's quantile was above its threshold.
func breachPhases(s *metrics.Series, d metrics.DDLResult, slo string, interval float64) string {
	q, thr, ok := sloParts(slo)
	c, tc := s.Col("lat_"+q+"_ms"), s.Col("tps")
	if !ok || c < 0 {
		return ""
	}
	in := map[string]float64{}
	var order []string
	on := false // in a breach (followed past the statement's end, as above_slo_s is)
	for _, r := range s.Rows {
		a, e := r[0]-interval, r[0]
		if e <= d.StartS {
			continue
		}
		above := r[c] > thr || tc >= 0 && r[tc] == 0 && d.BaselineTPS > 0
		if a >= d.EndS && !(on && above) {
			break
		}
		on = above
		if above {
			p := phaseAt(d, a, e)
			if p == "" {
				p = "the recovery after it"
			}
			if _, seen := in[p]; !seen {
				order = append(order, p)
			}
			in[p] += interval
		}
	}
	var parts []string
	for _, p := range order {
		parts = append(parts, fmt.Sprintf("%s s in %s", num(in[p]), p))
	}
	if len(parts) == 0 {
		return " (after it ended: the recovery)"
	}
	return " (" + strings.Join(parts, ", ") + ")"
}

func sloParts(slo string) (q string, thresholdMs float64, ok bool) {
	q, lat, found := strings.Cut(slo, "=")
	if !found {
		return "", 0, false
	}
	var v float64
	var unit string
	if _, err := fmt.Sscanf(lat, "%g%s", &v, &unit); err != nil {
		return "", 0, false
	}
	scale := map[string]float64{"ns": 1e-6, "us": 1e-3, "µs": 1e-3, "ms": 1, "s": 1e3}[unit]
	return q, v * scale, scale > 0
}

// worstInterval names the interval with the highest p99 during the statement and its phase.
func worstInterval(s *metrics.Series, d metrics.DDLResult, interval float64) string {
	c := s.Col("lat_p99_ms")
	if c < 0 {
		return ""
	}
	best, at := -1.0, 0.0
	for _, r := range s.Rows {
		if a := r[0] - interval; r[0] > d.StartS && a < d.EndS && r[c] > best {
			best, at = r[c], r[0]
		}
	}
	if best <= 0 {
		return ""
	}
	p := phaseAt(d, at-interval, at)
	if p == "" {
		return ""
	}
	return fmt.Sprintf(" The worst interval, p99 %s ms, ended at %s s, in %s.", num(best), num(at), p)
}
