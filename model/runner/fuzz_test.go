package runner_test

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/runner"
)

// The simulation fuzzer: random small valid scenarios — random hardware, MySQL settings,
// policy and its parameters, data, workloads and a DDL schedule — run for a few simulated
// seconds. Every run must not panic, must not fail (a scenario the loader accepts must run),
// must give the same bytes twice, must conserve pages (each instance's pages added minus
// pages removed is its LRU length, and frames are free, in the LRU or in transit), and must
// account for every DDL statement that started (ended, or reported unfinished). With
// `-tags invariants` the pool's invariants are also checked after every policy call and at
// every report interval.
//
//	go test -tags invariants -run '^$' -fuzz FuzzSimulate -fuzztime 10m ./model/runner/

// choices turns fuzz bytes into decisions; past their end the decisions come from a
// splitmix64 stream seeded by the bytes, so a short input is still a varied scenario while
// the fuzzer's mutations of the first bytes steer the main choices.
type choices struct {
	b     []byte
	i     int
	state uint64
}

func (c *choices) byte() int {
	if c.i < len(c.b) {
		c.i++
		return int(c.b[c.i-1])
	}
	if c.i == len(c.b) {
		c.i++
		c.state = 0xcbf29ce484222325
		for _, x := range c.b {
			c.state = (c.state ^ uint64(x)) * 0x100000001b3
		}
	}
	c.state += 0x9e3779b97f4a7c15
	z := c.state
	z = (z ^ z>>30) * 0xbf58476d1ce4e5b9
	z = (z ^ z>>27) * 0x94d049bb133111eb
	return int((z ^ z>>31) & 0xff)
}

// n picks 0..k-1.
func (c *choices) n(k int) int {
	if k <= 1 {
		return 0
	}
	v := c.byte()
	if k > 256 {
		v = v<<8 | c.byte()
	}
	return v % k
}

func (c *choices) pick(opts ...string) string { return opts[c.n(len(opts))] }

// logUniform picks a value in [lo, hi] spread over orders of magnitude.
func (c *choices) logUniform(lo, hi float64) float64 {
	f := float64(c.n(1<<16)) / (1<<16 - 1)
	return lo * math.Pow(hi/lo, f)
}

func (c *choices) dur(lo, hi float64) string { // seconds → a duration in µs
	return fmt.Sprintf("%dus", int64(math.Round(c.logUniform(lo, hi)*1e6)))
}

func (c *choices) dist(lo, hi float64) string {
	switch c.n(4) {
	case 0:
		return "{dist: constant, value: " + c.dur(lo, hi) + "}"
	case 1:
		return "{dist: exponential, mean: " + c.dur(lo, hi) + "}"
	case 2:
		p50 := c.logUniform(lo, hi)
		return fmt.Sprintf("{dist: lognormal, p50: %dus, p99: %dus}", int64(p50*1e6)+1, int64(p50*c.logUniform(1.5, 20)*1e6)+2)
	}
	a := c.logUniform(lo, hi)
	return fmt.Sprintf("{dist: empirical, table: [[0.5, %dus], [0.99, %dus], [1.0, %dus]]}", int64(a*1e6), int64(a*3e6), int64(a*10e6))
}

func (c *choices) device(name string) string {
	bw := "0"
	if c.n(2) == 1 {
		bw = fmt.Sprintf("%dMB", int(c.logUniform(20, 2000)))
	}
	return fmt.Sprintf("    %s: {channels: %d, read: %s, write: %s, sync: %s, bandwidth: %s}\n",
		name, 1+c.n(32), c.dist(20e-6, 5e-3), c.dist(20e-6, 5e-3), c.dist(50e-6, 5e-3), bw)
}

// profileCosts are the 8c-64g profile's costs, by YAML name, that the generator scales: read
// from the shipped profile so the generator follows the schema.
var profileCosts = func() (names []string, ns []float64) {
	hw, err := config.LoadHardware("../../scenarios/profiles/8c-64g.yaml")
	if err != nil {
		panic(err)
	}
	v := reflect.ValueOf(hw.Costs)
	for i := 0; i < v.NumField(); i++ {
		name, _, _ := strings.Cut(v.Type().Field(i).Tag.Get("yaml"), ",")
		names = append(names, name)
		ns = append(ns, float64(v.Field(i).Int()))
	}
	return names, ns
}

var costNames, baseCosts = profileCosts()

// fuzzScenario renders the scenario the bytes choose.
func fuzzScenario(b []byte) string {
	c := &choices{b: b}
	var y strings.Builder
	w := func(format string, args ...any) { fmt.Fprintf(&y, format, args...) }
	w("name: fuzz\nseed: %d\n", c.n(1<<16))

	w("hardware:\n  name: fuzz\n  cores: %d\n  memory: 16GiB\n  quantum: %s\n  client_rtt: %s\n", 1+c.n(16),
		c.pick("0s", "1ms", "4ms"), c.pick("0s", c.dur(10e-6, 1e-3)))
	w("  storage:\n")
	y.WriteString(c.device("data"))
	if c.n(2) == 1 {
		y.WriteString(c.device("log"))
	}
	if c.n(2) == 1 {
		y.WriteString(c.device("temp"))
	}
	w("  costs:\n")
	for i, name := range costNames {
		v := max(baseCosts[i], 1) * c.logUniform(0.25, 4)
		if c.n(16) == 0 && name != "statement" {
			v = 0 // an explicit zero cost is legal
		}
		w("    %s: %dns\n", name, int64(v))
	}

	pageKiB := []int{4, 8, 16, 32, 64}[c.n(5)]
	pool := (8 + c.n(56)) << 20 // small: -tags invariants checks the whole pool after every policy call
	w("mysql:\n  version: %q\n  innodb_page_size: %dKiB\n  innodb_buffer_pool_size: %d\n  innodb_buffer_pool_instances: %d\n",
		c.pick("8.0.18", "8.0.23", "8.0.27", "8.0.30", "8.4.3", "5.7.30", "5.6.51", "5.5.40", "percona-5.5.40", "percona-5.7.30", "mariadb-10.11.6"), pageKiB, pool, 1+c.n(8))
	if c.n(3) == 0 {
		w("  innodb_adaptive_hash_index_parts: %d\n", 1+c.n(16))
	}
	if c.n(3) == 0 {
		w("  lock_wait_timeout: %ds\n", 1+c.n(5))
	}
	w("  innodb_old_blocks_pct: %d\n  innodb_old_blocks_time: %dms\n  innodb_page_cleaners: %d\n", 5+c.n(91), c.n(3)*500, 1+c.n(4))
	io := 100 + c.n(5000)
	w("  innodb_io_capacity: %d\n  innodb_io_capacity_max: %d\n  innodb_lru_scan_depth: %d\n", io, io+c.n(5000), 100+c.n(2000))
	w("  innodb_adaptive_hash_index: %s\n  innodb_doublewrite: %s\n", c.pick("on", "off"), c.pick("on", "off"))
	w("  innodb_log_file_size: %dMiB\n  innodb_log_files_in_group: %d\n", 4+c.n(252), 2+c.n(3))
	dirty := 10 + c.n(89)
	w("  innodb_max_dirty_pages_pct: %d\n  innodb_max_dirty_pages_pct_lwm: %d\n", dirty, c.n(dirty))
	w("  innodb_flush_log_at_trx_commit: %d\n  innodb_sort_buffer_size: %dKiB\n", c.n(3), 64+c.n(4096))
	w("  innodb_ddl_threads: %d\n  innodb_ddl_buffer_size: %dKiB\n  innodb_parallel_read_threads: %d\n", 1+c.n(8), 64+c.n(8192), 1+c.n(8))
	w("  alter_table_progress: %s\n", c.pick("on", "off"))

	switch pol := config.PolicyKinds()[c.n(len(config.PolicyKinds()))].Name; {
	case c.n(4) == 0:
		// the version's default policy
	case pol == "fullscan":
		w("policy: {name: fullscan, restart: %s, yield: %s}\n", c.pick("true", "false"), c.pick("true", "false"))
	case pol == "indexed":
		w("policy: {name: indexed, batch: %d}\n", 1+int(c.logUniform(1, 4096)))
	default:
		w("policy: %s\n", pol)
	}

	type group struct{ name, kind string }
	var groups []group
	w("data:\n")
	for i := 0; i < 1+c.n(3); i++ {
		g := group{fmt.Sprintf("g%d", i), c.pick("sysbench", "sysbench", "insert_benchmark", "tpcc")}
		groups = append(groups, g)
		if g.kind == "tpcc" {
			w("  - {name: %s, kind: tpcc, warehouses: %d}\n", g.name, 1+c.n(2))
			continue
		}
		size := fmt.Sprintf("rows: %d", 100+int(c.logUniform(1, 300_000)))
		if c.n(4) == 0 {
			size = fmt.Sprintf("size: %dMB", 1+c.n(200))
		}
		rowSize := ""
		if c.n(4) == 0 {
			rowSize = fmt.Sprintf(", row_size: %d", 4+int(c.logUniform(1, 4000)))
		}
		w("  - {name: %s, kind: %s, tables: %d, %s, secondary_indexes: %d%s}\n", g.name, g.kind, 1+c.n(4), size, c.n(3), rowSize)
	}
	w("warm: {fill: %.2f, dirty: %.2f}\n", float64(c.n(101))/100, float64(c.n(51))/100)
	duration := 1
	w("warmup: %dms\nduration: %ds\nreport: {interval: %dms}\n", c.n(3)*250, duration, []int{100, 250, 500, 1000}[c.n(4)])

	w("workload:\n")
	for i := 0; i < 1+c.n(2); i++ {
		g := groups[c.n(len(groups))]
		start := ""
		if c.n(3) == 0 {
			start = fmt.Sprintf(", start: %dms", c.n(duration*1000))
		}
		switch {
		case g.kind == "tpcc":
			w("  - tpcc: {threads: %d, data: %s%s}\n", 1+c.n(16), g.name, start)
		case c.n(5) == 0:
			// Each connection's truncation walks the pool's lists, work the event estimate
			// does not count: few clients with a think time keep an input fast.
			w("  - temp_table_connections: {threads: %d, temp_rows: %d, think: %s%s}\n", 1+c.n(3), 1+int(c.logUniform(1, 5000)), c.dur(2e-3, 2e-2), start)
		default:
			rate := ""
			if c.n(3) == 0 {
				rate = fmt.Sprintf(", rate: %d", 10+c.n(5000))
			}
			w("  - sysbench: {mix: %s, threads: %d, tables: %s, rand: %s%s%s}\n",
				c.pick("oltp_read_write", "oltp_read_only", "oltp_write_only", "oltp_point_select", "oltp_update_index", "oltp_insert"),
				1+c.n(24), g.name, c.pick("special", "uniform", "zipfian", "pareto"), rate, start)
		}
	}

	if n := c.n(4); n > 0 {
		w("schedule:\n")
		for i := 0; i < n; i++ {
			kinds := config.DDLKinds()
			k := kinds[c.n(len(kinds))]
			w("  - {at: %dms, ddl: %s", c.n(duration*1000), k.Name)
			if !k.NoTable {
				g := groups[c.n(len(groups))]
				switch {
				case g.kind == "tpcc" && c.n(2) == 0:
					w(", table: %s.%s", g.name, c.pick("stock", "customer", "order_line", "item"))
				case g.kind != "tpcc" && c.n(3) == 0:
					w(", table: \"%s[1]\"", g.name)
				case c.n(4) == 0:
					w(", table: %s, each: true", g.name)
				default:
					w(", table: %s", g.name)
				}
			}
			if c.n(3) == 0 {
				w(", every: %dms", 200+c.n(2000))
				if c.n(2) == 0 {
					w(", count: %d", 1+c.n(4))
				}
			}
			if k.Name == "create_index" {
				w(", columns: [%s], indexes: %d, engine: %s, one_at_a_time: %s", c.pick("c", "k", "pad", "c, k"), 1+c.n(3),
					c.pick("innodb", "innodb", "myrocks"), c.pick("false", "true"))
			}
			w("}\n")
		}
	}
	return y.String()
}

// fuzzEvents is the largest event estimate the fuzzer runs.
const fuzzEvents = 300_000

// fingerprint is everything a run reports, as bytes (floats by their bits, so NaN compares).
func fingerprint(r *runner.Result) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, "%s %d %v\n", r.ConfigHash, r.Events, r.Series.Columns)
	for _, row := range r.Series.Rows {
		for _, v := range row {
			binary.Write(&b, binary.LittleEndian, math.Float64bits(v))
		}
	}
	fmt.Fprintf(&b, "\n%+v\n%+v\n%+v\n", r.Summary, r.DDL, r.Mutexes)
	return b.Bytes()
}

// simulate runs the scenario the bytes choose and checks it; false when the loader refused
// the scenario (not a finding: the generator does not know every cross-field rule).
func simulate(t *testing.T, data []byte) bool {
	y := fuzzScenario(data)
	sc, err := config.LoadBytes("fuzz.yaml", []byte(y), ".")
	if err != nil {
		return false
	}
	// A fuzz input must run in well under a second: the engine takes a worker that is
	// silent for 10 s for hung.
	if est := runner.EstimateRun(sc); est.Memory > 1<<30 || est.Events > fuzzEvents {
		return false
	}
	var runs [2]*runner.Result
	start := time.Now()
	for i := range runs {
		if i == 1 && time.Since(start) > 3*time.Second {
			// A heavy input (DDL and truncation work the estimate does not count) on a busy
			// machine: checking determinism would take the worker past the engine's 10 s
			// hang detection. Light inputs check it.
			return true
		}
		var opt runner.Options
		if i == 0 {
			opt.Inspect = func(m *runner.Model) { conservation(t, m, y) }
		}
		res, err := runner.Run(sc, opt)
		var pe *runner.PanicError
		if errors.As(err, &pe) {
			t.Fatalf("panic in %s at %s: %v\n%s\n--- scenario:\n%s", pe.Proc, config.Duration(pe.SimTime), pe.Value, pe.Stack, y)
		}
		if err != nil {
			t.Fatalf("an accepted scenario failed to run: %v\n--- scenario:\n%s", err, y)
		}
		runs[i] = res
	}
	if a, b := fingerprint(runs[0]), fingerprint(runs[1]); !bytes.Equal(a, b) {
		t.Fatalf("two runs of the same scenario differ\n--- scenario:\n%s", y)
	}
	for _, d := range runs[0].DDL {
		if !d.Unfinished && d.EndS < d.StartS {
			t.Fatalf("DDL %s ends before it starts (%g < %g)\n--- scenario:\n%s", d.Op, d.EndS, d.StartS, y)
		}
	}
	return true
}

// conservation is checked on the model at the end of a run: every page placed in an instance
// is either still there or was removed; every frame is free, in the LRU, or in transit; and
// every DDL statement that began is finished or reported unfinished.
func conservation(t *testing.T, m *runner.Model, y string) {
	for i, in := range m.Server.Inst {
		bp := in.BP
		st := bp.Stats
		if st.Added-st.Removed != uint64(bp.LRULen()) {
			t.Fatalf("instance %d: %d pages added − %d removed ≠ %d in the LRU\n--- scenario:\n%s", i, st.Added, st.Removed, bp.LRULen(), y)
		}
		if bp.LRULen()+bp.FreeLen()+bp.Taken() != bp.Frames() {
			t.Fatalf("instance %d: LRU %d + free %d + in transit %d ≠ %d frames\n--- scenario:\n%s", i, bp.LRULen(), bp.FreeLen(), bp.Taken(), bp.Frames(), y)
		}
	}
	if begun, reported := m.DDLsBegun(), len(m.DDLs()); begun != reported {
		t.Fatalf("%d DDL statements began, %d reported (finished or unfinished)\n--- scenario:\n%s", begun, reported, y)
	}
}

func FuzzSimulate(f *testing.F) {
	for _, seed := range [][]byte{
		nil,
		[]byte("ddlsim"),
		{1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30},
		bytes.Repeat([]byte{0xff}, 120),
		bytes.Repeat([]byte{0x80, 0x01}, 80),
		bytes.Repeat([]byte{3, 141, 59, 26, 53}, 40),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		simulate(t, data)
	})
}

// The generator's scenarios are mostly valid, or the fuzzer would spend its time on
// refusals; and a handful run as an ordinary test.
func TestFuzzScenariosRun(t *testing.T) {
	valid, ran := 0, 0
	for i := 0; i < 200; i++ {
		data := []byte(fmt.Sprintf("%08x-%d-%s", i*2654435761, i, strings.Repeat("q", i%37)))
		sc, err := config.LoadBytes("fuzz.yaml", []byte(fuzzScenario(data)), ".")
		if err != nil {
			if testing.Verbose() {
				t.Logf("refused: %v", err)
			}
			continue
		}
		if est := runner.EstimateRun(sc); est.Memory > 1<<30 || est.Events > fuzzEvents {
			continue
		}
		valid++
		if ran < 3 && !testing.Short() {
			if simulate(t, data) {
				ran++
			}
		}
	}
	t.Logf("%d of 200 generated scenarios load and are small enough; %d simulated", valid, ran)
	if valid < 100 {
		t.Errorf("only %d of 200 generated scenarios load and are small enough to run", valid)
	}
}
