package runner

import (
	"context"
	"fmt"
	"math"
	"sort"
	"strings"

	"gonum.org/v1/gonum/stat"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/ddl"
	"github.com/ddlsim/ddlsim/model/metrics"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// sliceStep is the simulated time between checks of Options.Progress and Options.Context:
// a busy server fires up to about 10^5 events in it, a fraction of a second of wall time, so
// a cancelled run stops promptly and progress is fresh.
const sliceStep = sim.Second / 10

// Test hooks: sampleHook is called after every report sample, trimHook with the latencies
// kept before each warm-up trim.
var (
	sampleHook func(*Model)
	trimHook   func(kept int)
)

func run(sc *config.Scenario, opt Options) (res *Result, err error) {
	var m *Model
	defer recoverRun(sc, &m, &err, &res)
	if m, err = Build(sc, BuildOptions{}); err != nil {
		return nil, err
	}
	// m is closed on each return below; a panic leaves closing to recoverRun.
	if err := m.Start(); err != nil {
		m.Close()
		return nil, err
	}
	s, srv := m.Sim, m.Server
	warm, end := m.Warm, m.End // end: the cap, with until ddl_done (m.End moves when the DDL is done)

	res = &Result{Scenario: sc, Seed: sc.Seed, ConfigHash: config.Hash(sc)}
	rec := newRecorder(srv, &res.Series, opt, m.DDLRunning)
	rec.client = sc.HardwareProfile.Client.Colocated
	rec.stale = srv.Ver.Flavor == version.MariaDB
	harm := measuresHarm(sc)
	rec.keepLat = harm // the baseline latency quantiles pool the intervals before each DDL
	for _, w := range sc.Workload {
		rec.other = rec.other || w.Kind == "other_cpu"
	}
	res.Series.Columns = rec.columns()
	interval := sim.Time(sc.Report.Interval)
	s.At(warm, func() {
		for _, m := range srv.Mutexes() {
			m.ResetStats() // report the measured time only
		}
		rec.reset()
	})
	scheduleSampling(m, rec, interval, end)
	// Run in slices so progress can be reported and a cancelled context seen. With until
	// ddl_done the total is the cap until the DDL is done, then the moved end. Slicing does
	// not change the run: the kernel fires the same events in the same order.
	step := max(end/200, sim.Second)
	if sc.Until.Event != "" {
		step = max(min(step, 10*sim.Second), sim.Second)
	}
	if opt.Progress != nil || opt.Context != nil {
		step = sliceStep
	}
	for s.Now() < m.End {
		s.Run(min(s.Now()+step, m.End)) // returns early (Stop) when until ddl_done moves m.End
		if opt.Progress != nil {
			opt.Progress(int64(s.Now()), int64(m.End))
		}
		if opt.Context != nil && opt.Context.Err() != nil {
			t := (s.Now() - warm).Seconds()
			m.Close()
			return nil, fmt.Errorf("run stopped at %s s of simulated time: %w", metrics.FormatFloat(t), context.Cause(opt.Context))
		}
	}
	res.HitCap = m.HitCap()
	res.Events = s.EventsFired()
	res.Mutexes = mutexRows(srv)
	res.Summary = summarize(srv, &res.Series, warm)
	for _, w := range m.running {
		res.Summary = appendNew(res.Summary, w.Summary(&res.Series, interval.Seconds()))
	}
	for _, d := range m.DDLs() {
		res.DDL = append(res.DDL, ddlResult(d, warm, interval, &res.Series, rec.ddlLat))
	}
	if harm {
		addLatencyHarm(res.DDL, sc.SLO, interval.Seconds(), &res.Series, rec.ddlLat)
	}
	if opt.Inspect != nil {
		opt.Inspect(m)
	}
	m.Close()
	return res, nil
}

// scheduleSampling books the recorder's sampler (every interval from warm to end) and the
// trimming of the latencies kept during warm-up.
func scheduleSampling(m *Model, rec *recorder, interval, end sim.Time) {
	s, srv, warm := m.Sim, m.Server, m.Warm
	// One self-rescheduling sampler event, so the pending set does not grow with the
	// number of report intervals (booking them all in advance overflowed the kernel's event
	// slots on long runs with short intervals).
	var sample func()
	next := warm + interval
	sample = func() {
		rec.sample()
		if sampleHook != nil {
			sampleHook(m)
		}
		if next += interval; next <= end {
			s.At(next, sample)
		}
	}
	if next <= end {
		s.At(next, sample)
	}
	// Transaction latencies are kept per report interval; during warm-up nothing reads them,
	// so they are dropped every simulated second instead of piling up until warm.
	var trim func()
	trim = func() {
		if trimHook != nil {
			trimHook(len(srv.Lat))
		}
		srv.Lat = srv.Lat[:0]
		if t := s.Now() + sim.Second; t < warm {
			s.At(t, trim)
		}
	}
	if sim.Second < warm {
		s.At(sim.Second, trim)
	}
}

// appendNew appends the metrics of add whose names sum does not have yet.
func appendNew(sum, add metrics.Summary) metrics.Summary {
	have := map[string]bool{}
	for _, m := range sum {
		have[m.Name] = true
	}
	for _, m := range add {
		if !have[m.Name] {
			sum = append(sum, m)
			have[m.Name] = true
		}
	}
	return sum
}

// mutexRows merges each mutex class's instances (LRU_list_mutex[0..n-1] → LRU_list_mutex) and
// reports, per thread kind, the hold and wait time in the measured period. Rows are sorted by
// mutex class, then thread kind; a kind that neither held nor waited is left out.
func mutexRows(srv *server.Server) []metrics.MutexRow {
	type agg struct{ hold, wait sim.Histogram }
	byClass := map[string]map[string]*agg{}
	var classes []string
	for _, m := range srv.Mutexes() {
		class, _, _ := strings.Cut(m.Name(), "[")
		kinds := byClass[class]
		if kinds == nil {
			kinds = map[string]*agg{}
			byClass[class] = kinds
			classes = append(classes, class)
		}
		st := m.Stats()
		for _, k := range st.Kinds() {
			a := kinds[k]
			if a == nil {
				a = &agg{}
				kinds[k] = a
			}
			a.wait.Merge(st.WaitByKind[k])
			if h := st.HoldByKind[k]; h != nil {
				a.hold.Merge(h)
			}
		}
	}
	sort.Strings(classes)
	us := func(t sim.Time) float64 { return float64(t) / 1e3 }
	var rows []metrics.MutexRow
	for _, c := range classes {
		var kinds []string
		for k := range byClass[c] {
			kinds = append(kinds, k)
		}
		sort.Strings(kinds)
		for _, k := range kinds {
			a := byClass[c][k]
			if a.hold.Count() == 0 && a.wait.Sum() == 0 {
				continue
			}
			rows = append(rows, metrics.MutexRow{
				Mutex: c, Thread: k, Acquisitions: a.hold.Count(),
				HoldS: a.hold.Sum().Seconds(), HoldP50Us: us(a.hold.Quantile(0.5)), HoldP99Us: us(a.hold.Quantile(0.99)),
				HoldMaxMs: float64(a.hold.Max()) / 1e6,
				WaitS:     a.wait.Sum().Seconds(), WaitP99Us: us(a.wait.Quantile(0.99)), WaitMaxMs: float64(a.wait.Max()) / 1e6,
			})
		}
	}
	return rows
}

// recorder samples the server's counters at the end of every report interval.
type recorder struct {
	srv      *server.Server
	series   *metrics.Series
	opt      Options
	last     server.Stats
	lastT    sim.Time
	lastBusy sim.Time
	lastLSN  uint64
	lastWait [3]sim.Time
	t0       sim.Time
	ddlBusy  func() bool
	wasBusy  bool // a DDL statement was running at the previous sample
	// ddlLat holds, per series row, the interval's transaction latencies in buckets when a
	// DDL statement ran at its start or its end (nil otherwise), so ddlResult can take the
	// latency quantiles of all transactions during a statement, not an average of quantiles.
	ddlLat []latBuckets
	// keepLat: keep every interval's latencies in ddlLat, not only those a DDL ran in.
	keepLat bool
	// client, other: the run has a co-located client / other processes, whose CPU the series
	// shows apart from the server's (CPUColumns).
	client, other bool
	// stale: a MariaDB server, whose series report its dropped spaces' pages (StaleColumns).
	stale bool
}

// columns is the run's series layout (metrics.SeriesColumns).
func (r *recorder) columns() []string { return metrics.SeriesColumns(r.client || r.other, r.stale) }

func newRecorder(srv *server.Server, series *metrics.Series, opt Options, busy func() bool) *recorder {
	return &recorder{srv: srv, series: series, opt: opt, ddlBusy: busy}
}

func (r *recorder) mutexWaits() (w [3]sim.Time) {
	for _, in := range r.srv.Inst {
		w[0] += in.LRU.Stats().Wait.Sum()
		if in.Free != in.LRU {
			w[1] += in.Free.Stats().Wait.Sum()
		}
		w[2] += in.Flush.Stats().Wait.Sum()
	}
	return w
}

func (r *recorder) reset() {
	r.last = r.srv.Stats
	r.lastT = r.srv.Sim.Now()
	r.t0 = r.lastT
	r.lastBusy = r.srv.Cores.Stats().BusyNs
	r.lastLSN = r.srv.Redo.LSN()
	r.lastWait = r.mutexWaits()
	r.wasBusy = r.ddlBusy()
	r.srv.Lat = r.srv.Lat[:0]
}

func (r *recorder) sample() {
	srv := r.srv
	now := srv.Sim.Now()
	if server.Invariants {
		if err := srv.CheckInvariants(); err != nil {
			panic(fmt.Sprintf("invariants: at %s: %v", now, err))
		}
	}
	dt := (now - r.lastT).Seconds()
	st, l := srv.Stats, r.last
	rate := func(a, b uint64) float64 { return float64(a-b) / dt }
	lat := srv.Lat
	sort.Float64s(lat)
	q := func(p float64) float64 {
		if len(lat) == 0 {
			return 0
		}
		return stat.Quantile(p, stat.Empirical, lat, nil)
	}
	maxLat := 0.0
	if len(lat) > 0 {
		maxLat = lat[len(lat)-1]
	}
	hits, misses := st.Hits-l.Hits, st.Misses-l.Misses
	hit := 1.0
	if hits+misses > 0 {
		hit = float64(hits) / float64(hits+misses)
	}
	busy := srv.Cores.Stats().BusyNs
	waits := r.mutexWaits()
	wms := func(i int) float64 { return float64(waits[i]-r.lastWait[i]) / 1e6 / dt }
	active := 0.0
	busyNow := r.ddlBusy()
	if busyNow {
		active = 1
	}
	var lb latBuckets
	if busyNow || r.wasBusy || r.keepLat {
		lb = newLatBuckets(lat) // sorted above
	}
	r.ddlLat = append(r.ddlLat, lb)
	r.wasBusy = busyNow
	row := []float64{
		(now - r.t0).Seconds(), rate(st.Txns, l.Txns),
		rate(st.Reads+st.Writes+st.Others, l.Reads+l.Writes+l.Others),
		rate(st.Reads, l.Reads), rate(st.Writes, l.Writes), rate(st.Others, l.Others),
		rate(st.IUD, l.IUD), rate(st.Commits, l.Commits),
		q(0.5), q(0.95), q(0.99), maxLat,
		hit, float64(srv.FreePages()), float64(srv.DirtyPages()), float64(srv.LRUPages()),
		rate(st.PagesRead, l.PagesRead), rate(st.PagesWritten, l.PagesWritten),
		wms(0), wms(1), wms(2),
		float64(busy-r.lastBusy) / (float64(srv.Cores.N()) * float64(now-r.lastT)),
		float64(srv.Redo.Age()) / (1 << 20),
		rate(st.TempTruncations, l.TempTruncations), active,
		rate(st.MakeYoung, l.MakeYoung), rate(st.SinglePageFlushes, l.SinglePageFlushes),
		rate(st.FreeWaits, l.FreeWaits), float64(srv.Cores.Busy() + srv.Cores.RunQueue()),
		float64(st.TempClosing),
		float64(st.MDLWaiting), rate(st.Errors, l.Errors),
		float64(srv.Redo.LSN()-r.lastLSN) / (1 << 20) / dt,
		float64(st.ThreadsRunning),
		rate(st.Hits+st.Misses, l.Hits+l.Misses), float64(srv.HistoryLength()),
		rate(st.Purge.Lookups, l.Purge.Lookups), rate(st.Purge.Removed, l.Purge.Removed),
	}
	if r.client || r.other {
		capacity := float64(srv.Cores.N()) * float64(now-r.lastT)
		cl := float64(st.ClientCPUNs-l.ClientCPUNs) / capacity
		ot := float64(st.OtherCPUNs-l.OtherCPUNs) / capacity
		all := float64(busy-r.lastBusy) / capacity
		row = append(row, all-cl-ot, cl, ot)
	}
	if r.stale {
		n, dirty := srv.StalePages()
		row = append(row, float64(n), float64(dirty))
	}
	r.series.Rows = append(r.series.Rows, row)
	if r.opt.Interval != nil {
		r.opt.Interval(r.series, row)
	}
	r.last, r.lastT, r.lastBusy, r.lastWait, r.lastLSN = st, now, busy, waits, srv.Redo.LSN()
	srv.Lat = srv.Lat[:0]
}

// summarize is the run's summary: the series' statistics (metrics.Summarize), then the
// session temp-tablespace truncations begun in the measured time, which only the server
// knows.
func summarize(srv *server.Server, s *metrics.Series, warm sim.Time) metrics.Summary {
	sum := metrics.Summarize(s)
	add := func(n string, v float64) { sum = append(sum, metrics.Metric{Name: n, Value: v}) }
	var d []float64
	var nodes float64
	for _, t := range srv.TempTruncations {
		if t.Start >= warm {
			d = append(d, float64(t.End-t.Start)/1e6)
			nodes += float64(t.Stats.NodesVisited)
		}
	}
	add(tempTruncationSummary[0], float64(len(d)))
	if len(d) > 0 {
		add(tempTruncationSummary[1], metrics.Mean(d))
		add(tempTruncationSummary[2], nodes/float64(len(d)))
	}
	return sum
}

// tempTruncationSummary names the run's temp-tablespace truncation metrics (summarize): how
// many in measured time, and (when there were any) their mean time and list nodes visited.
var tempTruncationSummary = []string{"temp_truncations", "temp_truncate_ms_mean", "temp_truncate_nodes_mean"}

// ddlResult converts a DDL's virtual times into seconds since the end of warmup and measures
// the traffic dip: baseline = mean TPS of the intervals that ended before it started; the
// intervals during it are those that start inside it (or, for a statement shorter than an
// interval and inside one, the interval that holds it): their lowest and mean TPS, the time
// they spent below half the baseline, and the 95th and 99th percentile latency of all their
// transactions (lat, per series row: the histograms the recorder kept).
func ddlResult(d ddl.Result, warm, interval sim.Time, s *metrics.Series, lat []latBuckets) metrics.DDLResult {
	r := d.DDLResult
	sec := func(t sim.Time) float64 { return (t - warm).Seconds() }
	r.StartS, r.EndS = sec(d.Start), sec(d.End)
	r.DurationS = (d.End - d.Start).Seconds()
	for _, p := range d.Phases {
		r.Phases = append(r.Phases, metrics.Phase{Name: p.Name, StartS: sec(p.Start), EndS: sec(p.End)})
	}
	tc := s.Col("tps")
	var base, during []float64
	var rows []int
	for i, row := range s.Rows {
		end := row[0]
		startI := end - interval.Seconds()
		switch {
		case end <= r.StartS:
			base = append(base, row[tc])
		case startI >= r.StartS && end <= r.EndS+interval.Seconds():
			during = append(during, row[tc])
			rows = append(rows, i)
		}
	}
	if len(during) == 0 {
		for i, row := range s.Rows {
			if end := row[0]; end-interval.Seconds() < r.EndS && end > r.StartS {
				during = append(during, row[tc])
				rows = append(rows, i)
			}
		}
	}
	var ivs []latBuckets
	for _, i := range rows {
		if i < len(lat) {
			ivs = append(ivs, lat[i])
		}
	}
	q := latQuantiles(ivs, 0.95, 0.99)
	r.LatP95Ms, r.LatP99Ms = q[0], q[1]
	r.BaselineTPS = metrics.Mean(base)
	r.LostTxns = r.BaselineTPS*r.DurationS - float64(d.TxnsEnd-d.TxnsStart)
	if len(during) > 0 {
		r.MinTPS = math.Inf(1)
		for _, v := range during {
			r.MinTPS = math.Min(r.MinTPS, v)
			if v < r.BaselineTPS/2 {
				r.BelowHalfS += interval.Seconds()
			}
		}
		r.MeanTPS = metrics.Mean(during)
	}
	return r
}
