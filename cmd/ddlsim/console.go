package main

import (
	"fmt"
	"io"
	"math"
	"strconv"
	"strings"
	"sync"
	"text/tabwriter"
	"time"

	"github.com/ddlsim/ddlsim/model/metrics"
)

// consoleField is one field of the sysbench-style interval line, filled from series columns
// looked up by name; a field whose columns the series lacks is left out, so the line grows
// as the model reports more (docs/output.md lists the names).
type consoleField struct {
	label string   // text before the value(s)
	cols  []string // columns, all required; several are joined with "/"
	prec  int      // decimals
	after string   // text after the value(s)
}

var consoleFields = []consoleField{
	{label: "tps: ", cols: []string{"tps"}, prec: 2},
	{label: "qps: ", cols: []string{"qps"}, prec: 2},
	{label: "(r/w/o: ", cols: []string{"reads_per_s", "writes_per_s", "other_per_s"}, prec: 2, after: ")"},
	{label: "iud/s: ", cols: []string{"iud_per_s"}, prec: 0},
	{label: "lat (ms,95%): ", cols: []string{"lat_p95_ms"}, prec: 2},
	{label: "hit: ", cols: []string{"hit_ratio"}, prec: 4},
	{label: "cpu: ", cols: []string{"cpu_util"}, prec: 2},
	{label: "ddl: ", cols: []string{"ddl_active"}, prec: 0},
}

// intervalLine formats one row like sysbench --report-interval:
//
//	[ 10s ] tps: 1834.07 qps: 36679.39 (r/w/o: 25675.77/7335.48/3668.14) iud/s: 7335 lat (ms,95%): 24.38
func intervalLine(s *metrics.Series, row []float64) string {
	var b strings.Builder
	t := 0.0
	if i := s.Col("time_s"); i >= 0 && i < len(row) {
		t = row[i]
	}
	fmt.Fprintf(&b, "[ %ss ]", strconv.FormatFloat(t, 'f', -1, 64))
	for _, f := range consoleFields {
		vals := make([]string, 0, len(f.cols))
		for _, c := range f.cols {
			i := s.Col(c)
			if i < 0 || i >= len(row) {
				break
			}
			vals = append(vals, strconv.FormatFloat(row[i], 'f', f.prec, 64))
		}
		if len(vals) != len(f.cols) {
			continue
		}
		b.WriteString(" " + f.label + strings.Join(vals, "/") + f.after)
	}
	return b.String()
}

// human prints a metric for people: integers as integers, others with two decimals (four
// significant digits when small). Files keep full precision; the console need not.
func human(v float64) string {
	switch {
	case math.IsNaN(v):
		return "-"
	case v == math.Trunc(v) && math.Abs(v) < 1e15:
		return strconv.FormatFloat(v, 'f', 0, 64)
	case math.Abs(v) < 1:
		return metrics.Plain(v, 4) // 0.00001523, never 1.523e-05
	}
	return strconv.FormatFloat(v, 'f', 2, 64)
}

func printSummary(w io.Writer, s metrics.Summary) {
	if len(s) == 0 {
		return
	}
	fmt.Fprintln(w, "\nsummary:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', tabwriter.AlignRight)
	for _, m := range s {
		fmt.Fprintf(tw, "  %s\t%s\t\n", m.Name, human(m.Value))
	}
	tw.Flush()
}

func printDDL(w io.Writer, ddl []metrics.DDLResult) {
	if len(ddl) == 0 {
		return
	}
	fmt.Fprintln(w, "\nDDL:")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  op\ttable\tpolicy\tstart_s\tduration_s\tbaseline_tps\tmin_tps\tlat_p99_ms\tbelow_half_s\tstatus\tphases (s)")
	// A long loop (1000 DROPs) lists its first and last statements and then, per operation,
	// the aggregates compare shows (metrics.ListedDDLs); ddl.csv has every statement.
	shown, skipped := ddl, 0
	if len(ddl) > metrics.ListedDDLs {
		half := metrics.ListedDDLs / 2
		shown, skipped = append(append([]metrics.DDLResult{}, ddl[:half]...), ddl[len(ddl)-half:]...), len(ddl)-2*half
	}
	for i, d := range shown {
		if skipped > 0 && i == len(shown)/2 {
			fmt.Fprintln(tw, "  ...\t...\t\t\t\t\t\t\t\t\t") // a row, so the columns stay aligned
		}
		status := "ok"
		switch {
		case d.Failed:
			status = "FAILED: " + d.Reason
		case d.Unfinished:
			status = "UNFINISHED at the end of the run (duration is a lower bound)"
		}
		var ph []string
		for _, p := range d.Phases {
			ph = append(ph, p.Name+"="+human(p.EndS-p.StartS))
		}
		fmt.Fprintf(tw, "  %s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", d.Op, d.Table, d.Policy, human(d.StartS),
			human(d.DurationS), human(d.BaselineTPS), human(d.MinTPS), human(d.LatP99Ms), human(d.BelowHalfS), status, strings.Join(ph, " "))
	}
	tw.Flush()
	if skipped == 0 {
		return
	}
	fmt.Fprintf(w, "  (%d more statements at the ...; every one is in ddl.csv)\n", skipped)
	about := ""
	for _, m := range metrics.KeyMetricsOf(nil, ddl) {
		if m.Kind != metrics.KindImpact {
			continue
		}
		if m.About != about {
			about = m.About
			fmt.Fprintf(w, "\n%s:\n", about)
		}
		v := human(m.Value)
		if m.Unfinished {
			v = "unfinished (> " + human(m.Bound) + ")"
		}
		fmt.Fprintf(w, "  %-36s %s\n", m.Name, v)
	}
}

// progress reports a run's progress on stderr. On a terminal it is a one-line bar redrawn in
// place, shown once the run has taken more than two wall-clock seconds, so quick runs stay
// clean. Anywhere else (a log, CI) it is a plain line every 30 s of wall time, so a long run
// is seen to be alive without filling the log with carriage returns; a run shorter than 30 s
// prints none. The lines keep their cadence while the simulator reports nothing (building
// and warming a large pool, a long slice): a ticker (env.tick) prints the latest state when
// a line is due. It is the only wall-clock use in ddlsim and never touches stdout.
type progress struct {
	e         *env
	mu        sync.Mutex // update (the simulation) and the ticker
	start     time.Time
	lastDraw  time.Time
	drawn     bool
	enabled   bool
	barWidth  int
	showAfter time.Duration
	lineEvery time.Duration // non-terminal: the interval between lines
	done      int64         // the latest update's virtual times (ns); total 0: none yet
	total     int64
	stopTick  func()
}

// ProgressLineEvery is the wall time between progress lines on a non-terminal stderr.
const ProgressLineEvery = 30 * time.Second

func newProgress(e *env) *progress {
	return &progress{e: e, start: e.now(), enabled: e.stderrTTY, barWidth: 30, showAfter: 2 * time.Second, lineEvery: ProgressLineEvery}
}

// run starts the ticker that keeps the non-terminal lines on time, for a run of totalNs of
// virtual time; stop ends it.
func (p *progress) run(totalNs int64) {
	p.mu.Lock()
	p.total = totalNs
	p.mu.Unlock()
	if p.e.tick == nil || p.enabled {
		return
	}
	c, stop := p.e.tick()
	quit := make(chan struct{})
	p.stopTick = func() { stop(); close(quit) }
	go func() {
		for {
			select {
			case t := <-c:
				p.mu.Lock()
				p.line(t)
				p.mu.Unlock()
			case <-quit:
				return
			}
		}
	}()
}

func (p *progress) stop() {
	if p.stopTick != nil {
		p.stopTick()
		p.stopTick = nil
	}
}

func (p *progress) update(doneNs, totalNs int64) {
	if totalNs <= 0 {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	p.done, p.total = doneNs, totalNs
	now := p.e.now()
	if !p.enabled {
		p.line(now)
		return
	}
	frac := min(max(float64(doneNs)/float64(totalNs), 0), 1)
	if now.Sub(p.start) < p.showAfter || now.Sub(p.lastDraw) < 100*time.Millisecond {
		return
	}
	p.lastDraw = now
	n := int(frac * float64(p.barWidth))
	fmt.Fprintf(p.e.stderr, "\r[%s%s] %3.0f%%  %.0fs/%.0fs virtual  %s wall",
		strings.Repeat("=", n), strings.Repeat(" ", p.barWidth-n), frac*100,
		float64(doneNs)/1e9, float64(totalNs)/1e9, now.Sub(p.start).Round(time.Second))
	p.drawn = true
}

// line prints the non-terminal line when one is due (p.mu held).
func (p *progress) line(now time.Time) {
	if p.lineEvery <= 0 || p.total <= 0 || now.Sub(p.start) < p.lineEvery || now.Sub(p.lastDraw) < p.lineEvery {
		return
	}
	p.lastDraw = now
	frac := min(max(float64(p.done)/float64(p.total), 0), 1)
	fmt.Fprintf(p.e.stderr, "progress: %3.0f%%  %.0fs/%.0fs virtual  %s wall\n",
		frac*100, float64(p.done)/1e9, float64(p.total)/1e9, now.Sub(p.start).Round(time.Second))
}

// clear erases the bar before other output so lines do not interleave with it.
func (p *progress) clear() {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.drawn {
		fmt.Fprint(p.e.stderr, "\r\033[K")
		p.drawn = false
	}
}

// printMutexes prints the mutex rows that held or waited for at least a millisecond in all:
// who held each buffer-pool mutex class, and who waited for it.
func printMutexes(w io.Writer, rows []metrics.MutexRow) {
	var show []metrics.MutexRow
	for _, r := range rows {
		if r.HoldS >= 1e-3 || r.WaitS >= 1e-3 {
			show = append(show, r)
		}
	}
	if len(show) == 0 {
		return
	}
	fmt.Fprintln(w, "\nmutexes (measured time; all instances of a class together):")
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "  mutex\tthread\tacquisitions\thold_s\thold_p99_us\thold_max_ms\twait_s\twait_p99_us")
	for _, r := range show {
		fmt.Fprintf(tw, "  %s\t%s\t%d\t%s\t%s\t%s\t%s\t%s\n", r.Mutex, r.Thread, r.Acquisitions,
			human(r.HoldS), human(r.HoldP99Us), human(r.HoldMaxMs), human(r.WaitS), human(r.WaitP99Us))
	}
	tw.Flush()
}
