package runner

import (
	"fmt"
	"math"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/workload"
)

// Estimate is what a run will cost, computed from its configuration before anything is
// built: `ddlsim check` prints it, and the command line refuses a run whose memory estimate
// exceeds the machine's memory (or --max-memory) instead of letting the kernel kill it.
type Estimate struct {
	// Memory is the peak resident memory of one run, bytes: the parts below plus the
	// runtime. It assumes every buffer-pool frame is touched (a pool larger than the data
	// touches fewer), so it is an upper estimate; TestEstimateMemoryMeasured holds it between
	// the measured peak and 3× it.
	Memory int64
	Parts  []EstimatePart
	// Statements the workloads issue over the whole run (warm-up included) and the kernel
	// events they cost; a CPU-bound server issues fewer than its clients would.
	// TestEstimateEvents holds Events within a factor of 2.5 of the count a run fires.
	Statements float64
	Events     float64
	// InFlight bounds the events pending at once (config.LimitEventsInFlight).
	InFlight int64
}

// EstimatePart is one component of the memory estimate.
type EstimatePart struct {
	Name  string
	Bytes int64
}

// The memory constants, measured on the development machine (Go 1.26, amd64) by building
// and running small models and reading the heap and the peak RSS (TestEstimateMemoryMeasured
// re-measures them on every test run).
const (
	// MemBase: the Go runtime, the ddlsim binary and a minimal model (1 table, 1 thread,
	// 128 MiB pool): peak RSS 9.7-11 MB (`/usr/bin/time -f %M ddlsim run --quiet` on such a
	// scenario, and on refusals). A test cannot measure it: a child's ru_maxrss includes the
	// parent's pages it shared until exec.
	MemBase = 12 << 20
	// memPerFrame: bufpool's per-frame arrays and its 1.5-slot page hash ("the whole instance
	// stays inside the 64-byte budget", model/bufpool/hash.go): 59-64 bytes measured.
	memPerFrame = 64
	// memPerThread: a simulated thread is a coroutine, i.e. a goroutine (stack 4-8 KiB) plus
	// its thread and client state: 5.6-6 KiB measured at 10^4 and 5·10^4 threads; 7 KiB
	// leaves room for deeper stacks.
	memPerThread = 7 << 10
	// memPerTable: a table's tablespace record, index shapes and page-list heads: about
	// 1 KiB measured at 10^4 and 5·10^4 tables.
	memPerTable = 1536
	// memPerInterval: one series row (30 float64 and its slice) plus its text when the
	// result is written.
	memPerInterval = 640
	// memPerStatement: one DDL statement's result and phases.
	memPerStatement = 1 << 10
	// memLatency: a transaction latency kept until its interval's sample (float64), with
	// the slice's growth headroom.
	memLatency = 16
	// eventsPerStatement: kernel events per client statement: 2.3 with every page cached,
	// 3.8-4.2 at a 94% hit ratio or with inserts (sysbench mixes on 8c-64g).
	eventsPerStatement = 3.5
	// gcHeadroom: garbage between collections on top of the live heap.
	gcHeadroom = 1.15
)

// EstimateRun estimates sc (loaded and validated).
func EstimateRun(sc *config.Scenario) Estimate {
	var e Estimate
	m, hw := &sc.MySQL, &sc.HardwareProfile
	add := func(name string, b float64) {
		if b > 0 {
			e.Parts = append(e.Parts, EstimatePart{name, int64(math.Min(b, math.MaxInt64/4))})
		}
	}
	var frames float64
	if m.PageSize > 0 {
		frames = math.Floor(float64(m.BufferPoolSize)/float64(m.PageSize)/float64(max(m.BufferPoolInstances, 1))) * float64(max(m.BufferPoolInstances, 1))
	}
	add(fmt.Sprintf("buffer pool (%.0f frames)", frames), frames*memPerFrame)

	var threads int
	seconds := (sc.Warmup + sc.Duration).Seconds()
	for _, w := range sc.Workload {
		if d, ok := w.Params.(workload.Demander); ok {
			dm := d.Demand(sc)
			threads += dm.Threads
			e.Statements += dm.Statements
		}
	}
	// The CPU bound: no server runs more statements than its cores can parse.
	if c := hw.Costs.Statement.Seconds(); c > 0 && hw.Cores > 0 {
		e.Statements = math.Min(e.Statements, float64(hw.Cores)/c*seconds)
	}
	stmts := config.DDLStatements(sc)
	ddlThreads := len(sc.Schedule) * (1 + max(m.DDLThreads, 0) + max(m.ParallelReadThreads, 0))
	background := max(m.PageCleaners, 0) + 16 // cleaners, log writer, sampler, timers
	add(fmt.Sprintf("threads (%d clients, %d DDL, %d background)", threads, ddlThreads, background),
		float64(threads+ddlThreads+background)*memPerThread)
	add(fmt.Sprintf("tables (%d)", config.TableCount(sc)), float64(config.TableCount(sc))*memPerTable)
	if sc.Report.Interval > 0 {
		intervals := float64(sc.Duration / sc.Report.Interval)
		add(fmt.Sprintf("series (%.0f intervals)", intervals), intervals*memPerInterval)
		if seconds > 0 {
			perInterval := e.Statements / seconds * sc.Report.Interval.Seconds()
			add("latencies of one interval", perInterval*memLatency)
		}
	}
	add(fmt.Sprintf("DDL results (%d statements)", stmts), float64(stmts)*memPerStatement)

	var parts float64
	for _, p := range e.Parts {
		parts += float64(p.Bytes)
	}
	e.Memory = int64(math.Min(MemBase+parts*gcHeadroom, math.MaxInt64/2))
	e.Events = e.Statements * eventsPerStatement
	e.InFlight = 2 * int64(threads+ddlThreads+background)
	return e
}

// String is the estimate as `ddlsim check` prints it.
func (e Estimate) String() string {
	return fmt.Sprintf("memory ≈ %s, ≈ %s statements, ≈ %s events (%s of simulator CPU at 4 M events/s)",
		config.FormatBytes(float64(e.Memory)), compact(e.Statements), compact(e.Events), wall(e.Events/4e6))
}

// compact prints a count in plain notation with a multiplier word: 3.2 million, 850 thousand.
func compact(x float64) string {
	switch {
	case x >= 1e12:
		return sig3(x/1e12) + " trillion"
	case x >= 1e9:
		return sig3(x/1e9) + " billion"
	case x >= 1e6:
		return sig3(x/1e6) + " million"
	case x >= 1e4:
		return fmt.Sprintf("%.0f thousand", x/1e3)
	}
	return fmt.Sprintf("%.0f", x)
}

// sig3 prints x with about three significant digits, never in e-notation.
func sig3(x float64) string {
	switch {
	case x >= 100:
		return fmt.Sprintf("%.0f", x)
	case x >= 10:
		return fmt.Sprintf("%.1f", x)
	}
	return fmt.Sprintf("%.2f", x)
}

// wall prints seconds of wall time readably: 40 s, 12 min, 3.5 h, 2.1 days.
func wall(s float64) string {
	switch {
	case s < 1:
		return "under a second"
	case s < 10:
		return fmt.Sprintf("%.1f s", s)
	case s < 120:
		return fmt.Sprintf("%.0f s", s)
	case s < 7200:
		return fmt.Sprintf("%.0f min", s/60)
	case s < 2*86400:
		return fmt.Sprintf("%.1f h", s/3600)
	}
	return fmt.Sprintf("%.1f days", s/86400)
}
