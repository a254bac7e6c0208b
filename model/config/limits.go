package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"
)

// Limits are the ceilings a scenario (or a sweep, or an input file) must stay under. Each
// has a reason — MySQL's own limit where MySQL has one, otherwise the structure of the
// simulator that would break or a size past which a value is a typo rather than an
// experiment — and a remedy. Validation enforces them with every other check, so `ddlsim
// check` refuses what `run` could not finish; docs/limits.md is this table (its test fails
// when the two disagree).
//
// Memory is not a limit here: it depends on the whole configuration and on the machine, and
// is estimated by model/runner (Estimate) and judged by the command line.

// Limit is one documented ceiling.
type Limit struct {
	Name string // what is limited, e.g. "frames per buffer-pool instance"
	Max  int64  // the largest accepted value, in Unit
	Unit string // "frames", "threads", "bytes", "s" ...
	// Fields are the scenario fields (YAML paths) the limit constrains, for the docs.
	Fields string
	Why    string // the reason, with its source (docs/limits.md)
	Short  string // the reason in a few words, for messages
	Fix    string // what to do instead
}

// The limits, in the order docs/limits.md lists them.
var (
	LimitPoolFrames = Limit{Name: "frames per buffer-pool instance", Max: 1<<28 - 1, Unit: "frames",
		Fields: "mysql.innodb_buffer_pool_size / innodb_buffer_pool_instances / innodb_page_size",
		Why:    "the model's page hash packs a frame number into the low 28 bits of a 32-bit slot (model/bufpool/hash.go); MySQL itself allows larger instances",
		Short:  "the page hash holds 28-bit frame numbers",
		Fix:    "use more innodb_buffer_pool_instances (up to 64) or a larger innodb_page_size"}
	LimitClientThreads = Limit{Name: "client threads (all workloads together)", Max: 100_000, Unit: "threads",
		Fields: "workload[].*.threads",
		Why:    "MySQL's max_connections is at most 100000 (sql/sys_vars.cc, VALID_RANGE(1, 100000)), so no server runs more client threads",
		Short:  "MySQL's max_connections maximum",
		Fix:    "lower the workloads' threads"}
	LimitCores = Limit{Name: "cores", Max: 8192, Unit: "cores",
		Fields: "hardware.cores",
		Why:    "Linux on x86-64 supports at most 8192 CPUs (arch/x86/Kconfig NR_CPUS_RANGE_END)",
		Short:  "Linux's x86-64 CPU maximum",
		Fix:    "give the machine's hardware threads (nproc)"}
	LimitTables = Limit{Name: "tables (all data groups; a tpcc group is 9)", Max: 100_000, Unit: "tables",
		Fields: "data[].tables, data[].kind",
		Why:    "every table is a tablespace whose B-tree shapes and page lists the simulator keeps (about 1 KiB each) and warms round-robin; InnoDB has no fixed table count, but a scenario with more tables than this is a typo for rows",
		Short:  "each table is a tablespace the simulator keeps and warms",
		Fix:    "fewer, larger tables (rows or size)"}
	LimitTablespace = Limit{Name: "pages per tablespace (one table)", Max: 1<<32 - 1, Unit: "pages",
		Fields: "data[].rows, data[].size, data[].warehouses, mysql.innodb_page_size",
		Why:    "InnoDB page numbers are 32-bit (page_no_t, PAGE_NO_MAX = 2^32-2 in fil0fil.h), which caps a tablespace at 64 TiB with 16 KiB pages (16 TiB at 4 KiB, 256 TiB at 64 KiB)",
		Short:  "InnoDB's 32-bit page numbers",
		Fix:    "split the data over more tables, or use a larger innodb_page_size"}
	LimitSimTime = Limit{Name: "simulated time (warmup + duration)", Max: 1_000_000, Unit: "s",
		Fields: "warmup, duration",
		Why:    "a busy simulated server fires 10^5-10^6 events per simulated second, so 10^6 s is days of wall time; longer is a unit typo (the clock itself, int64 ns, would reach 292 years)",
		Short:  "longer takes days of wall time; likely a unit typo",
		Fix:    "simulate a representative window: warm-up to steady state, then the DDL"}
	LimitIntervals = Limit{Name: "report intervals (duration / report.interval)", Max: 1_000_000, Unit: "intervals",
		Fields: "duration, report.interval",
		Why:    "the series keeps one row of 30 numbers per interval in memory and in series.csv (about 0.5 KiB per interval with the text)",
		Short:  "one series row per interval, in memory and in series.csv",
		Fix:    "raise report.interval"}
	LimitDDLStatements = Limit{Name: "DDL statements per run (all schedule entries, repetitions counted)", Max: 100_000, Unit: "statements",
		Fields: "schedule[].every, schedule[].count",
		Why:    "each statement's result and phases are kept and written to ddl.csv, and each DROP/TRUNCATE re-creates a tablespace",
		Short:  "every statement's result is kept and written",
		Fix:    "repeat less often (a larger every) or set count"}
	LimitUnitCost = Limit{Name: "per-unit CPU cost", Max: int64(Second), Unit: "ns",
		Fields: "hardware.costs.*",
		Why:    "costs are charged per page, row or node, and multiplied by counts of up to 2^32; above 1 s per unit a cost is not a measurement and the products leave the int64-nanosecond clock",
		Short:  "a cost per page or row above 1 s is not a measurement",
		Fix:    "give costs per unit of work (ns to µs)"}
	LimitLatency = Limit{Name: "device latency and client round trip", Max: int64(Minute), Unit: "ns",
		Fields: "hardware.storage.*.{read,write,sync}, hardware.client_rtt, hardware.quantum",
		Why:    "an I/O or round trip that takes more than a minute is a failed device or a unit typo",
		Short:  "longer is a failed device or a unit typo",
		Fix:    "give one operation's latency (µs to ms)"}
	LimitEventsInFlight = Limit{Name: "events in flight", Max: 1 << 24, Unit: "events",
		Fields: "(estimated from threads, I/O channels and cleaners)",
		Why:    "the kernel's event slots are 24-bit (sim/queue.go); pending events grow with actors (threads, I/Os in flight, timers), never with run length, so the thread and cores limits keep a run far below",
		Short:  "the kernel's 24-bit event slots",
		Fix:    "fewer threads"}
	LimitInputSize = Limit{Name: "input file size (scenario, profile, sweep spec)", Max: MaxInputSize, Unit: "bytes",
		Fields: "every file a scenario, --set hardware=, or a sweep spec names",
		Why:    "a scenario is a few KiB; parsing YAML costs about 1 s and 100 MB per MiB, so a bigger file is a wrong path, not a scenario (only regular files are read: no devices, FIFOs or directories)",
		Short:  "a scenario is a few KiB",
		Fix:    "name the scenario or profile file"}
	LimitSweepPoints = Limit{Name: "points per sweep (after axes are combined)", Max: 100_000, Unit: "points",
		Fields: "axes (sweep spec)",
		Why:    "every point's scenario is loaded and validated before the first run starts (a few ms each)",
		Short:  "every point is validated before the first run",
		Fix:    "fewer axis values, or zip axes that move together instead of a grid"}
	LimitSweepRuns = Limit{Name: "runs per sweep or compare (points × seeds)", Max: 1_000_000, Unit: "runs",
		Fields: "seeds, axes (sweep spec); --seeds, --policies (compare)",
		Why:    "each run is a full simulation of seconds to minutes; 10^6 runs is machine-years, and the plan, the rows and results.csv grow with it",
		Short:  "each run is a full simulation",
		Fix:    "fewer seeds (the CI narrows as 1/sqrt(seeds)) or fewer points"}
)

// Limits lists every limit, in docs order.
var Limits = []*Limit{
	&LimitPoolFrames, &LimitClientThreads, &LimitCores, &LimitTables, &LimitTablespace,
	&LimitSimTime, &LimitIntervals, &LimitDDLStatements, &LimitUnitCost, &LimitLatency,
	&LimitEventsInFlight, &LimitInputSize, &LimitSweepPoints, &LimitSweepRuns,
}

// Over is the message for value exceeding l: the value, the limit, the reason and the
// remedy, e.g. "268435456 frames per buffer-pool instance is over the limit of 268435455:
// ...; use more ... (docs/limits.md)".
func (l *Limit) Over(value string) string {
	return fmt.Sprintf("%s: the limit is %s (%s); %s (docs/limits.md)", value, l.MaxText(), l.Short, l.Fix)
}

// MaxText prints the limit with its unit: "100,000 threads", "1s", "1MiB".
func (l *Limit) MaxText() string {
	switch l.Unit {
	case "ns":
		return Duration(l.Max).String()
	case "bytes":
		return Size(l.Max).String()
	case "s":
		return groupDigits(l.Max) + " s"
	}
	return groupDigits(l.Max) + " " + l.Unit
}

// groupDigits writes n with thousands separators: 100000 → 100,000.
func groupDigits(n int64) string {
	s := strconv.FormatInt(n, 10)
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	var b strings.Builder
	for i, r := range s {
		if i > 0 && (len(s)-i)%3 == 0 {
			b.WriteByte(',')
		}
		b.WriteRune(r)
	}
	if neg {
		return "-" + b.String()
	}
	return b.String()
}

// Clients is implemented by workload kinds whose block opens client connections: the
// number counts toward LimitClientThreads and the memory estimate.
type Clients interface {
	ClientThreads() int
}

// DataShape returns the size in pages of the largest table of data group t at page size
// pageSize (math.MaxInt64 when it does not even fit the arithmetic). The package that shapes
// tables (model/server) provides it, and the assembly installs it with the kinds (Schema); without it the tablespace limit is
// judged only for groups given by size.
type DataShape func(t Table, pageSize int64) int64

var (
	shapeMu   sync.RWMutex
	dataShape DataShape
)

func shapeOf() DataShape {
	shapeMu.RLock()
	defer shapeMu.RUnlock()
	return dataShape
}

// ClientThreads is the number of client threads sc's workloads start.
func ClientThreads(sc *Scenario) int64 {
	var n int64
	for _, w := range sc.Workload {
		if c, ok := w.Params.(Clients); ok {
			n += int64(max(c.ClientThreads(), 0))
		}
	}
	return n
}

// TableCount is the number of tables sc's data groups make.
func TableCount(sc *Scenario) int64 {
	var n int64
	for _, t := range sc.Data {
		n += tablesOf(t)
	}
	return n
}

// tpccTables is the number of tables of a tpcc group (warehouse ... item).
const tpccTables = 9

func tablesOf(t Table) int64 {
	if t.Kind == "tpcc" {
		return tpccTables
	}
	return int64(max(t.Tables, 1))
}

// DDLStatements is the number of DDL statements sc's schedule starts within the run (an
// entry with every repeats until count or the end of the run).
func DDLStatements(sc *Scenario) int64 {
	var n int64
	for _, e := range sc.Schedule {
		r := repetitions(e, sc.Duration)
		if e.Each {
			// One statement per table of the group, each time the event fires.
			for _, g := range sc.Data {
				if g.Name == e.Table && g.Tables > 1 {
					r = satMul(r, int64(g.Tables))
				}
			}
		}
		n = satAdd(n, r)
	}
	return n
}

func satMul(a, b int64) int64 {
	if a != 0 && b > math.MaxInt64/a {
		return math.MaxInt64
	}
	return a * b
}

func repetitions(e DDLEvent, duration Duration) int64 {
	switch {
	case e.Every <= 0:
		return 1
	case e.Count > 0:
		return int64(e.Count)
	case duration <= e.At:
		return 1
	}
	return int64((duration-e.At-1)/e.Every) + 1
}

func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

// limitChecks judges every limit that a single scenario can exceed.
func limitChecks(sc *Scenario) []verr {
	var out []verr
	add := func(path, msg string, deps ...string) { out = append(out, verr{path: path, msg: msg, deps: deps}) }
	m, hw := &sc.MySQL, &sc.HardwareProfile

	if m.PageSize > 0 && m.BufferPoolInstances > 0 && m.BufferPoolSize > 0 {
		if frames := int64(m.BufferPoolSize) / int64(m.PageSize) / int64(m.BufferPoolInstances); frames > LimitPoolFrames.Max {
			add("mysql.innodb_buffer_pool_size", LimitPoolFrames.Over(fmt.Sprintf("%s frames per buffer-pool instance (%s in %d of %s pages)",
				groupDigits(frames), m.BufferPoolSize, m.BufferPoolInstances, m.PageSize)),
				"mysql.innodb_buffer_pool_instances", "mysql.innodb_page_size")
		}
	}

	var threads int64
	for i, w := range sc.Workload {
		c, ok := w.Params.(Clients)
		if !ok {
			continue
		}
		threads += int64(c.ClientThreads())
		if threads > LimitClientThreads.Max {
			what := fmt.Sprintf("%s client threads", groupDigits(threads))
			if i > 0 {
				what += " with the workloads before this one"
			}
			add(fmt.Sprintf("workload[%d].%s.threads", i, w.Kind), LimitClientThreads.Over(what))
			break
		}
	}

	if int64(hw.Cores) > LimitCores.Max {
		add("hardware.cores", LimitCores.Over(fmt.Sprintf("%s cores", groupDigits(int64(hw.Cores)))))
	}

	var tables int64
	shape := shapeOf()
	for i, t := range sc.Data {
		p := fmt.Sprintf("data[%d]", i)
		tables += tablesOf(t)
		if tables > LimitTables.Max {
			add(p+".tables", LimitTables.Over(fmt.Sprintf("%s tables with the groups before this one", groupDigits(tables))))
			tables = math.MinInt64 / 2 // report once
		}
		if m.PageSize <= 0 {
			continue
		}
		maxBytes := Size(LimitTablespace.Max) * m.PageSize
		if t.Size > 0 && t.Size/m.PageSize > Size(LimitTablespace.Max) {
			add(p+".size", LimitTablespace.Over(fmt.Sprintf("a %s table; a tablespace of %s pages holds at most %s", t.Size, m.PageSize, fmtBytes(float64(maxBytes)))))
			continue
		}
		if shape == nil || (t.Kind == "tpcc" && t.Warehouses <= 0) || (t.Kind != "tpcc" && t.Rows <= 0 && t.Size <= 0) {
			continue
		}
		if pages := shape(t, int64(m.PageSize)); pages > LimitTablespace.Max {
			field := p + ".rows"
			switch {
			case t.Kind == "tpcc":
				field = p + ".warehouses"
			case t.Size > 0:
				field = p + ".size"
			}
			what := fmt.Sprintf("a table of %s pages (%s)", groupDigits(pages), fmtBytes(float64(pages)*float64(m.PageSize)))
			if pages == math.MaxInt64 {
				what = "a table far larger than any tablespace"
			}
			add(field, LimitTablespace.Over(fmt.Sprintf("%s; a tablespace of %s pages holds at most %s", what, m.PageSize, fmtBytes(float64(maxBytes)))))
		}
	}

	if sc.Warmup >= 0 && sc.Duration > 0 {
		if total := satAdd(int64(sc.Warmup), int64(sc.Duration)); total > LimitSimTime.Max*int64(Second) {
			path := "duration"
			if sc.Warmup > sc.Duration {
				path = "warmup"
			}
			add(path, LimitSimTime.Over(fmt.Sprintf("%s of simulated time (warmup %s + duration %s)", Duration(total), sc.Warmup, sc.Duration)))
		}
	}
	if sc.Duration > 0 && sc.Report.Interval > 0 {
		if n := int64(sc.Duration / sc.Report.Interval); n > LimitIntervals.Max {
			add("report.interval", LimitIntervals.Over(fmt.Sprintf("%s report intervals (duration %s / interval %s)", groupDigits(n), sc.Duration, sc.Report.Interval)), "duration")
		}
	}

	var stmts int64
	for i, e := range sc.Schedule {
		stmts = satAdd(stmts, repetitions(e, sc.Duration))
		if stmts > LimitDDLStatements.Max {
			path := fmt.Sprintf("schedule[%d].every", i)
			if e.Count > 0 {
				path = fmt.Sprintf("schedule[%d].count", i)
			}
			add(path, LimitDDLStatements.Over(fmt.Sprintf("%s DDL statements up to this entry", groupDigits(stmts))))
			break
		}
	}

	// A client whose statement takes no simulated time — no round trip, no statement CPU —
	// would loop forever at one instant: the run would never end.
	if len(sc.Workload) > 0 && hw.ClientRTT == 0 && hw.Costs.Statement == 0 {
		add("hardware.costs.statement", "a statement takes no simulated time when both client_rtt and costs.statement are 0: a closed-loop client would loop forever at one instant; give either a positive value (8c-64g: client_rtt 150us, statement 96us)",
			"hardware.client_rtt", "hardware") // a profile that failed to decode is reported as such
	}

	costs := reflect.ValueOf(hw.Costs)
	for _, name := range fieldsOf(costs.Type()).names {
		f, _ := field(costs, name)
		if d := Duration(f.Int()); d > Duration(LimitUnitCost.Max) {
			add("hardware.costs."+name, LimitUnitCost.Over(d.String()+" per unit"))
		}
	}
	for _, dv := range []struct {
		name string
		d    *Device
	}{{"data", &hw.Storage.Data}, {"log", &hw.Storage.Log}, {"temp", &hw.Storage.Temp}} {
		for _, k := range []struct {
			name string
			dist *Distribution
		}{{"read", &dv.d.Read}, {"write", &dv.d.Write}, {"sync", &dv.d.Sync}} {
			p := "hardware.storage." + dv.name + "." + k.name
			for _, v := range []struct {
				name string
				d    Duration
			}{{"value", k.dist.Value}, {"mean", k.dist.Mean}, {"p50", k.dist.P50}, {"p99", k.dist.P99}} {
				if v.d > Duration(LimitLatency.Max) {
					add(p+"."+v.name, LimitLatency.Over(v.d.String()))
				}
			}
			for i, q := range k.dist.Table {
				if q.Value > Duration(LimitLatency.Max) {
					add(fmt.Sprintf("%s.table[%d][1]", p, i), LimitLatency.Over(q.Value.String()))
				}
			}
		}
	}
	for _, v := range []struct {
		path string
		d    Duration
	}{{"hardware.client_rtt", hw.ClientRTT}, {"hardware.quantum", hw.Quantum}} {
		if v.d > Duration(LimitLatency.Max) {
			add(v.path, LimitLatency.Over(v.d.String()))
		}
	}
	return out
}

// fmtBytes prints a byte count with a binary unit and three significant digits, in plain
// notation: "64.0 TiB", "1.50 GiB".
func fmtBytes(b float64) string {
	units := []string{"B", "KiB", "MiB", "GiB", "TiB", "PiB", "EiB"}
	i := 0
	for b >= 1024 && i < len(units)-1 {
		b /= 1024
		i++
	}
	switch {
	case i == 0 || b >= 100:
		return fmt.Sprintf("%.0f %s", b, units[i])
	case b >= 10:
		return fmt.Sprintf("%.1f %s", b, units[i])
	}
	return fmt.Sprintf("%.2f %s", b, units[i])
}

// FormatBytes is fmtBytes for other packages (estimates, messages).
func FormatBytes(b float64) string { return fmtBytes(b) }
