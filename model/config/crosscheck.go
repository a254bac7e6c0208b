package config

import (
	"fmt"
	"reflect"

	"github.com/ddlsim/ddlsim/model/version"
)

// crossChecks are the judgements that involve more than one field: references between
// sections, orderings, and the shape of latency distributions.
func crossChecks(sc *Scenario) []verr {
	var out []verr
	add := func(path, msg string, deps ...string) {
		out = append(out, verr{path: path, msg: msg, deps: deps})
	}
	hw, m := &sc.HardwareProfile, &sc.MySQL

	if sc.Hardware.IsZero() && reflect.ValueOf(*hw).IsZero() {
		add("hardware", "missing: expected a profile path (hardware: profiles/8c-64g.yaml) or an inline hardware mapping")
	} else {
		out = append(out, checkHardware(hw)...)
		if hw.Memory > 0 && m.BufferPoolSize > hw.Memory {
			add("mysql.innodb_buffer_pool_size", fmt.Sprintf("expected at most hardware.memory (%s)", hw.Memory), "hardware.memory", "hardware")
		}
	}
	if v, err := version.Parse(m.Version); err == nil && v.Flavor != version.MariaDB && m.LogFilesInGroup == 1 {
		add("mysql.innodb_log_files_in_group", "expected a value from 2 to 100 (one redo file is MariaDB 10.5+ only)")
	}
	if m.IOCapacityMax < m.IOCapacity {
		add("mysql.innodb_io_capacity_max", fmt.Sprintf("expected at least innodb_io_capacity (%d)", m.IOCapacity), "mysql.innodb_io_capacity")
	}
	if m.MaxDirtyPagesPctLWM > m.MaxDirtyPagesPct {
		add("mysql.innodb_max_dirty_pages_pct_lwm", fmt.Sprintf("expected at most innodb_max_dirty_pages_pct (%g)", m.MaxDirtyPagesPct), "mysql.innodb_max_dirty_pages_pct")
	}

	if _, ok := PolicyKind(sc.Policy.Name); !ok && sc.Policy.Name != "" {
		add("policy.name", policyKinds.unknown(sc.Policy.Name))
	}

	if sc.Duration > 0 && sc.Report.Interval > sc.Duration {
		add("report.interval", fmt.Sprintf("expected at most duration (%s)", sc.Duration), "duration")
	}

	if u := sc.Until; u.Event == "" && u.After != 0 {
		add("until.after", "until.after needs until's event (until: {event: ddl_done, after: ...})")
	} else if u.Event != "" {
		switch {
		case u.Event != UntilDDLDone:
			add("until.event", fmt.Sprintf("unknown event %q: expected %s", u.Event, UntilDDLDone))
		case len(sc.Schedule) == 0:
			add("until.event", "until ddl_done needs a schedule: there is no DDL statement to wait for")
		}
		if u.After < 0 {
			add("until.after", "expected a duration >= 0")
		} else if sc.Duration > 0 && u.After >= sc.Duration {
			add("until.after", fmt.Sprintf("expected less than duration, the cap (%s)", sc.Duration), "duration")
		}
		for i, e := range sc.Schedule {
			if e.Every > 0 && e.Count == 0 {
				add(fmt.Sprintf("schedule[%d].count", i), "until ddl_done needs every repeating DDL to end: expected a count", "until.event")
			}
		}
	}

	groups := map[string]*Table{}
	for i := range sc.Data {
		t := &sc.Data[i]
		p := fmt.Sprintf("data[%d]", i)
		if t.Name != "" {
			if _, dup := groups[t.Name]; dup {
				add(p+".name", fmt.Sprintf("duplicate data group name %q", t.Name))
			}
			groups[t.Name] = t
		}
		switch t.Kind {
		case "tpcc":
			if t.Warehouses <= 0 {
				add(p+".warehouses", "missing: a tpcc group needs warehouses >= 1")
			}
			if t.Rows != 0 || t.Size != 0 {
				add(p, "a tpcc group is sized by warehouses, not rows or size")
			}
			if t.RowSize != 0 {
				add(p+".row_size", "tpcc tables have their own row sizes (tpcc-mysql's schema); row_size is for sysbench and insert_benchmark groups")
			}
		default:
			if (t.Rows > 0) == (t.Size > 0) {
				add(p, "expected exactly one of rows or size", p+".rows", p+".size")
			}
			if t.Warehouses != 0 {
				add(p+".warehouses", "only tpcc groups have warehouses")
			}
		}
	}
	for i, e := range sc.Schedule {
		p := fmt.Sprintf("schedule[%d]", i)
		if sc.Duration > 0 && e.At >= sc.Duration {
			add(p+".at", fmt.Sprintf("expected a time within the run: at is measured from the end of warmup (the report clock) and duration = %s", sc.Duration), "duration")
		}
		k, known := DDLKind(e.DDL)
		switch {
		case !known:
			// reported by the decoder
		case k.NoTable:
			if e.Table != "" {
				add(p+".table", e.DDL+" takes no table")
			}
		case e.Table == "":
			add(p+".table", "missing: expected a table, a data group or group[N]")
		default:
			if msg := checkTableRef(sc, e.Table, e.Each); msg != "" {
				add(p+".table", msg)
			}
		}
		if e.Count > 0 && e.Every == 0 {
			add(p+".count", "count repeats a DDL and needs every")
		}
	}
	return out
}

func groupNames(sc *Scenario) string {
	s := ""
	for i, t := range sc.Data {
		if i > 0 {
			s += ", "
		}
		s += t.Name
	}
	if s == "" {
		return "none defined"
	}
	return s
}

func checkHardware(hw *Hardware) []verr {
	var out []verr
	for _, tab := range []struct {
		name string
		pts  []FSPoint
	}{{"free_written", hw.FS.FreeWritten}, {"unlink_written", hw.FS.UnlinkWritten}} {
		name, pts := tab.name, tab.pts
		for i := 1; i < len(pts); i++ {
			if pts[i].Size <= pts[i-1].Size {
				out = append(out, verr{path: fmt.Sprintf("hardware.fs.%s[%d].size", name, i),
					msg: fmt.Sprintf("expected sizes in ascending order (after %s)", pts[i-1].Size)})
			}
		}
	}
	devices := []struct {
		name string
		dev  *Device
	}{{"data", &hw.Storage.Data}, {"log", &hw.Storage.Log}, {"temp", &hw.Storage.Temp}}
	for _, d := range devices {
		p := "hardware.storage." + d.name
		// The log and temp devices are optional: omitted, the model puts that traffic on the
		// data device.
		if d.name != "data" && !d.dev.IsSet() {
			continue
		}
		if d.dev.Channels < 1 {
			out = append(out, verr{path: p + ".channels", msg: "expected at least 1 channel"})
		}
		for _, k := range []struct {
			name     string
			dist     *Distribution
			required bool
		}{{"read", &d.dev.Read, true}, {"write", &d.dev.Write, true}, {"sync", &d.dev.Sync, false}} {
			if !k.required && reflect.ValueOf(*k.dist).IsZero() {
				continue
			}
			out = append(out, checkDistribution(p+"."+k.name, k.dist)...)
		}
	}
	if hw.Client.CPUPerStatement > 0 && !hw.Client.Colocated {
		out = append(out, verr{path: "hardware.client.cpu_per_statement",
			msg: "is charged on the server's cores only for a co-located client: set hardware.client.colocated: true (a remote client's work is in client_rtt)"})
	}
	return append(out, checkProvenance(hw)...)
}

// IsSet reports whether a device was described at all (log and temp may be omitted).
func (d Device) IsSet() bool { return !reflect.ValueOf(d).IsZero() }

// distFields says which parameters each distribution takes; any other one given is a
// mistake (a mean on a lognormal would silently be ignored otherwise).
var distFields = map[string][]string{
	"constant":    {"value"},
	"exponential": {"mean"},
	"lognormal":   {"p50", "p99"},
	"empirical":   {"table"},
}

func checkDistribution(p string, d *Distribution) []verr {
	var out []verr
	add := func(path, msg string, deps ...string) { out = append(out, verr{path: path, msg: msg, deps: deps}) }
	want, ok := distFields[d.Dist]
	if !ok {
		if d.Dist == "" {
			add(p+".dist", fmt.Sprintf("missing: expected one of %v", Dists))
		} else {
			add(p+".dist", fmt.Sprintf("expected one of %v", Dists))
		}
		return out
	}
	given := map[string]bool{"value": d.Value != 0, "mean": d.Mean != 0, "p50": d.P50 != 0, "p99": d.P99 != 0, "table": len(d.Table) > 0}
	for _, f := range []string{"value", "mean", "p50", "p99", "table"} {
		needed := false
		for _, w := range want {
			needed = needed || w == f
		}
		switch {
		case needed && !given[f]:
			add(p+"."+f, fmt.Sprintf("missing: dist %s needs %v", d.Dist, want))
		case !needed && given[f]:
			add(p+"."+f, fmt.Sprintf("not a parameter of dist %s (it takes %v)", d.Dist, want))
		}
	}
	for _, f := range []struct {
		name string
		v    Duration
	}{{"value", d.Value}, {"mean", d.Mean}, {"p50", d.P50}, {"p99", d.P99}} {
		if f.v < 0 {
			add(p+"."+f.name, "expected a positive duration")
		}
	}
	if d.Dist == "lognormal" && d.P50 > 0 && d.P99 > 0 && d.P99 <= d.P50 {
		add(p+".p99", fmt.Sprintf("expected p99 greater than p50 (%s)", d.P50), p+".p50")
	}
	if d.Dist == "empirical" && len(d.Table) > 0 {
		for i, q := range d.Table {
			qp := fmt.Sprintf("%s.table[%d]", p, i)
			if q.Q <= 0 || q.Q > 1 {
				add(qp+"[0]", "expected a quantile in (0, 1]")
			}
			if q.Value < 0 {
				add(qp+"[1]", "expected a latency >= 0")
			}
			if i > 0 {
				prev := d.Table[i-1]
				if q.Q <= prev.Q {
					add(qp+"[0]", fmt.Sprintf("expected quantiles in ascending order (previous is %g)", prev.Q))
				}
				if q.Value < prev.Value {
					add(qp+"[1]", fmt.Sprintf("expected latencies in ascending order (previous is %s)", prev.Value))
				}
			}
		}
		if last := d.Table[len(d.Table)-1]; last.Q != 1 {
			add(fmt.Sprintf("%s.table[%d][0]", p, len(d.Table)-1), "expected the table to end at quantile 1")
		}
	}
	return out
}
