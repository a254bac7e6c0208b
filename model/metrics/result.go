// Package metrics collects what a run measured and writes it out: a per-interval time series
// (sysbench --report-interval style), a summary, and per-DDL results.
package metrics

import "fmt"

// Series is a per-interval time series. Columns are stable, documented names (docs/output.md);
// every row has len(Columns) values. Column 0 is always "time_s" (end of the interval, virtual
// seconds since the end of warmup).
type Series struct {
	Columns []string
	Rows    [][]float64
}

// Col returns the index of a column, or -1.
func (s *Series) Col(name string) int {
	for i, c := range s.Columns {
		if c == name {
			return i
		}
	}
	return -1
}

// Metric is one named summary value. Names carry their unit (`tps_mean`, `ddl_duration_s`).
type Metric struct {
	Name  string  `json:"name"`
	Value float64 `json:"value"`
}

// Summary is an ordered list of metrics (order is part of the output format).
type Summary []Metric

// Get returns a metric's value and whether it exists.
func (s Summary) Get(name string) (float64, bool) {
	for _, m := range s {
		if m.Name == name {
			return m.Value, true
		}
	}
	return 0, false
}

// Phase is one phase of a DDL statement, in virtual seconds since the end of warmup.
type Phase struct {
	Name   string  `json:"name"`
	StartS float64 `json:"start_s"`
	EndS   float64 `json:"end_s"`
}

// DDLResult is what one DDL statement did.
type DDLResult struct {
	Op        string  `json:"op"`
	Table     string  `json:"table"`
	Policy    string  `json:"policy"`
	StartS    float64 `json:"start_s"`
	EndS      float64 `json:"end_s"`
	DurationS float64 `json:"duration_s"`
	Phases    []Phase `json:"phases"`
	Failed    bool    `json:"failed"`
	Reason    string  `json:"reason,omitempty"`
	// Unfinished: still running when the run ended; EndS is the end of the run, so DurationS
	// is a lower bound and the phases are those completed so far.
	Unfinished bool `json:"unfinished"`
	// Work done by buffer-pool scans on its behalf.
	NodesVisited uint64 `json:"nodes_visited"`
	PagesFlushed uint64 `json:"pages_flushed"`
	PagesFreed   uint64 `json:"pages_freed"`
	Restarts     uint64 `json:"restarts"`
	// AHIPagesDropped counts pages whose adaptive-hash entries it dropped.
	AHIPagesDropped uint64 `json:"ahi_pages_dropped"`
	// Traffic dip while it ran (the report intervals inside it; docs/output.md): the
	// baseline TPS before it, the lowest and mean TPS during it, the 95th and 99th percentile
	// latency of the transactions during it (NaN: none), and the time below half the baseline.
	BaselineTPS float64 `json:"baseline_tps"`
	MinTPS      float64 `json:"min_tps"`
	MeanTPS     float64 `json:"mean_tps"`
	LatP95Ms    float64 `json:"lat_p95_ms"`
	LatP99Ms    float64 `json:"lat_p99_ms"`
	BelowHalfS  float64 `json:"below_half_s"`
	// LostTxns is the transactions the load did not do while it ran, against its no-DDL
	// baseline rate: BaselineTPS × DurationS − the transactions completed from its start to
	// its end (negative when the load did more, as an open-loop load catching up after a
	// stall does; NaN without a baseline).
	LostTxns float64 `json:"lost_txns"`
	// Latency is the statement's latency harm, measured only in runs with open-loop
	// traffic or an SLO (nil otherwise, and then absent from every output).
	Latency *LatencyHarm `json:"latency,omitempty"`
}

// LatencyHarm is what a DDL statement did to transaction latency (docs/output.md, "Latency
// harm"). Under open-loop traffic (a fixed arrival rate: sysbench --rate) throughput cannot
// fall while the server keeps up, so the harm shows in latency only: the quantiles of the
// transactions before it against those during it (DDLResult's LatP95Ms, LatP99Ms and
// P50Ms here), and the time the interval quantile an SLO names spent above its threshold.
type LatencyHarm struct {
	// BaseP50Ms, BaseP95Ms, BaseP99Ms: quantiles of all transactions of the report
	// intervals that ended before the statement started and overlapped no DDL statement
	// (NaN: there were none).
	BaseP50Ms float64 `json:"base_lat_p50_ms"`
	BaseP95Ms float64 `json:"base_lat_p95_ms"`
	BaseP99Ms float64 `json:"base_lat_p99_ms"`
	// P50Ms: the median of the transactions during it (the intervals of LatP95Ms).
	P50Ms float64 `json:"lat_p50_ms"`
	// SLO is the objective ("p99=5ms"; "" none). AboveSLOS: the report intervals from the
	// statement's start until its end, and after it for as long as the breach it was in
	// lasts, whose SLO quantile was above the threshold, in seconds; SLOBreaches: how many
	// separate runs of such intervals (NaN both without an SLO).
	SLO         string  `json:"slo"`
	AboveSLOS   float64 `json:"above_slo_s"`
	SLOBreaches float64 `json:"slo_breaches"`
}

// HarmFields are a LatencyHarm's values as the key metrics name them (ddl<i>_<op>_<field>),
// in the order the compare table leads with them, and with (hasSLO) or without an SLO.
func HarmFields(hasSLO bool) []string {
	f := []string{"base_lat_p50_ms", "lat_p50_ms", "base_lat_p95_ms", "lat_p95_ms", "base_lat_p99_ms", "lat_p99_ms"}
	if hasSLO {
		f = append([]string{"above_slo_s", "slo_breaches"}, f...)
	}
	return f
}

// harmValues are d's HarmFields values.
func harmValues(d *DDLResult) []float64 {
	h := d.Latency
	v := []float64{h.BaseP50Ms, h.P50Ms, h.BaseP95Ms, d.LatP95Ms, h.BaseP99Ms, d.LatP99Ms}
	if h.SLO != "" {
		v = append([]float64{h.AboveSLOS, h.SLOBreaches}, v...)
	}
	return v
}

// MutexRow is one mutex class (all instances of e.g. LRU_list_mutex together) and one kind of
// thread ("fg" client threads, "ddl", "cleaner", "temp", ...): how long that kind held it and
// waited for it over the measured time. Holds and waits are in the kernel's virtual time.
type MutexRow struct {
	Mutex        string  `json:"mutex"`
	Thread       string  `json:"thread"`
	Acquisitions uint64  `json:"acquisitions"`
	HoldS        float64 `json:"hold_s"`
	HoldP50Us    float64 `json:"hold_p50_us"`
	HoldP99Us    float64 `json:"hold_p99_us"`
	HoldMaxMs    float64 `json:"hold_max_ms"`
	WaitS        float64 `json:"wait_s"`
	WaitP99Us    float64 `json:"wait_p99_us"`
	WaitMaxMs    float64 `json:"wait_max_ms"`
}

// String prints the harm's fields (so a DDLResult printed with %v shows them, not an address).
func (h *LatencyHarm) String() string {
	if h == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%+v", *h)
}
