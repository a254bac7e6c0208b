package config

import (
	"fmt"
	"reflect"
	"slices"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/version"
)

// Names the model implements. They are exported so `ddlsim list` and the docs print the
// same lists validation enforces.
var (
	Dists      = []string{"constant", "exponential", "lognormal", "empirical"}
	TableKinds = []string{"sysbench", "tpcc", "insert_benchmark"}
	PageSizes  = []Size{4 * KiB, 8 * KiB, 16 * KiB, 32 * KiB, 64 * KiB}
)

// Validate checks a scenario that has had its defaults applied and returns Errors listing
// every problem, or nil. Errors from Validate carry paths but no positions; Load adds them.
func Validate(sc *Scenario) error {
	var errs Errors
	for _, e := range validate(sc) {
		errs = append(errs, &FieldError{Path: e.path, Msg: e.msg})
	}
	if len(errs) > 0 {
		return errs
	}
	return nil
}

// verr is a validation finding before it is placed in a file. deps are other paths the
// judgement relied on: if one of them failed to decode, the finding is a consequence of that
// mistake, not a new one, and is dropped.
type verr struct {
	path string
	msg  string
	deps []string
}

// check judges one value; "" means fine, otherwise the text says what was expected.
type check func(v reflect.Value) string

// rule applies a check to every value a path pattern matches. In patterns, [*] matches every
// list element and a * key every field of a struct; nil pointers (absent optional blocks)
// match nothing.
type rule struct {
	pattern string
	check   check
}

// rules are the per-field checks; cross-field checks are in crossChecks.
var rules = []rule{
	{"name", nonEmpty},
	{"mysql.version", validVersion},
	{"mysql.innodb_adaptive_hash_index_parts", between(1, 512)},
	{"mysql.lock_wait_timeout", between(Second, 31536000*Second)},
	{"mysql.innodb_buffer_pool_size", atLeast(5*MiB, "a size of at least 5MiB (MySQL's minimum)")},
	{"mysql.innodb_buffer_pool_instances", between(1, 64)},
	{"mysql.innodb_page_size", sizeOneOf(PageSizes)},
	{"mysql.innodb_old_blocks_pct", between(5, 95)},
	{"mysql.innodb_old_blocks_time", atLeast(0, "a duration >= 0")},
	{"mysql.innodb_page_cleaners", between(1, 64)},
	{"mysql.innodb_io_capacity", atLeast(100, "an integer >= 100")},
	{"mysql.innodb_io_capacity_max", atLeast(100, "an integer >= 100")},
	{"mysql.innodb_lru_scan_depth", atLeast(100, "an integer >= 100")},
	{"mysql.innodb_log_file_size", atLeast(4*MiB, "a size of at least 4MiB")},
	{"mysql.innodb_log_files_in_group", between(1, 100)}, // 1: MariaDB 10.5+; MySQL's minimum of 2 is checked in crossChecks
	{"mysql.innodb_max_dirty_pages_pct", between(0, 99.999)},
	{"mysql.innodb_max_dirty_pages_pct_lwm", between(0, 99.999)},
	{"mysql.innodb_adaptive_flushing_lwm", between(0, 70)},
	{"mysql.innodb_flush_log_at_trx_commit", between(0, 2)},
	{"mysql.innodb_sort_buffer_size", between(64*KiB, 64*MiB)},
	{"mysql.innodb_ddl_threads", between(1, 64)},
	{"mysql.innodb_online_alter_log_max_size", zeroOr(atLeast(64*KiB, "a size of at least 64KiB (the server's minimum)"))},
	{"mysql.innodb_ddl_buffer_size", between(64*KiB, 4*GiB-1)},
	{"mysql.innodb_parallel_read_threads", between(1, 256)},
	{"mysql.innodb_autoinc_lock_mode", between(0, 2)},
	{"mysql.rocksdb_merge_buf_size", zeroOr(atLeast(100, "a size of at least 100 bytes (MyRocks' minimum; 0 = default)"))},
	{"mysql.rocksdb_merge_combine_read_size", zeroOr(atLeast(100, "a size of at least 100 bytes (MyRocks' minimum; 0 = default)"))},

	{"hardware.cores", atLeast(1, "at least 1 core")},
	{"hardware.memory", positive},
	{"hardware.quantum", atLeast(0, "a duration >= 0")},
	{"hardware.client_rtt", atLeast(0, "a duration >= 0")},
	{"hardware.client.cpu_per_statement", atLeast(0, "a duration >= 0")},
	{"hardware.storage.*.channels", atLeast(0, "an integer >= 0")},
	{"hardware.storage.*.bandwidth", atLeast(0, "a size per second >= 0 (0 = unlimited)")},
	{"hardware.storage.*.capacity", atLeast(0, "a size >= 0 (0 = unlimited)")},
	{"hardware.llc", atLeast(0, "a size >= 0 (0 = the model's default)")},
	{"hardware.costs.*", atLeast(0, "a duration >= 0")},
	{"hardware.fs.free_written[*].size", positive},
	{"hardware.fs.free_written[*].wall", atLeast(0, "a duration >= 0")},
	{"hardware.fs.unlink_written[*].size", positive},
	{"hardware.fs.unlink_written[*].wall", atLeast(0, "a duration >= 0")},
	{"hardware.fs.free_unwritten", atLeast(0, "a duration >= 0")},
	{"hardware.fs.free_unwritten_per_mib", atLeast(0, "a duration >= 0")},
	{"hardware.fs.unlink", atLeast(0, "a duration >= 0")},
	{"hardware.fs.rename", atLeast(0, "a duration >= 0")},
	{"hardware.fs.create", atLeast(0, "a duration >= 0")},
	{"hardware.fs.file_sync", atLeast(0, "a duration >= 0")},

	{"data[*].name", nonEmpty},
	{"data[*].kind", oneOf(func() []string { return TableKinds })},
	{"data[*].tables", atLeast(1, "at least 1 table")},
	{"data[*].rows", atLeast(0, "a count >= 0")},
	{"data[*].size", atLeast(0, "a size >= 0")},
	{"data[*].row_size", zeroOr(between(Size(4), Size(65535)))}, // InnoDB: a row is at most 65,535 bytes
	{"data[*].warehouses", atLeast(0, "an integer >= 0")},
	{"data[*].secondary_indexes", between(0, 64)},
	{"data[*].columns[*].name", nonEmpty},
	{"data[*].columns[*].size", between(Size(1), Size(3072))}, // InnoDB: an index key is at most 3072 bytes (DYNAMIC rows)

	{"warm.fill", between(0, 1)},
	{"warm.dirty", between(0, 1)},
	{"warm.tables[*].fill", between(0, 1)},
	{"warmup", atLeast(0, "a duration >= 0")},
	{"duration", positive},
	{"report.interval", positive},
	{"slo", validSLO},
	{"observed.statements_per_s", zeroOr(between(0.001, 1e9))},

	{"schedule[*].at", atLeast(0, "a duration >= 0")},
	{"schedule[*].every", atLeast(0, "a duration >= 0 (0 = once)")},
	{"schedule[*].count", atLeast(0, "an integer >= 0")},
}

func validSLO(v reflect.Value) string {
	if v.String() == "" {
		return ""
	}
	if _, _, err := SLO(v.String()).Parse(); err != nil {
		return err.Error()
	}
	return ""
}

func validVersion(v reflect.Value) string {
	if _, err := version.Parse(v.String()); err != nil {
		return err.Error()
	}
	return ""
}

func validate(sc *Scenario) []verr {
	var out []verr
	root := reflect.ValueOf(sc).Elem()
	for _, r := range rules {
		walkPattern(root, strings.Split(r.pattern, "."), "", func(path string, v reflect.Value) {
			if msg := r.check(v); msg != "" {
				out = append(out, verr{path: path, msg: msg})
			}
		})
	}
	out = append(out, afterChecks(sc)...)
	out = append(out, warmTableChecks(sc)...)
	out = append(out, crossChecks(sc)...)
	out = append(out, limitChecks(sc)...)
	return append(out, checkKinds(sc)...)
}

// walkPattern calls fn for every value matching the pattern segments.
func walkPattern(v reflect.Value, segs []string, path string, fn func(string, reflect.Value)) {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			return
		}
		v = v.Elem()
	}
	if len(segs) == 0 {
		fn(path, v)
		return
	}
	key, idx, hasIdx := strings.Cut(segs[0], "[")
	var next []reflect.Value
	var names []string
	switch {
	case key == "*":
		for _, name := range fieldsOf(v.Type()).names {
			f, _ := field(v, name)
			next, names = append(next, f), append(names, joinPath(path, name))
		}
	default:
		f, ok := field(v, key)
		if !ok {
			panic("config: validation rule names unknown field " + key) // a typo in rules
		}
		next, names = append(next, f), append(names, joinPath(path, key))
	}
	for i, f := range next {
		if hasIdx && idx == "*]" {
			for j := 0; j < f.Len(); j++ {
				walkPattern(f.Index(j), segs[1:], fmt.Sprintf("%s[%d]", names[i], j), fn)
			}
			continue
		}
		walkPattern(f, segs[1:], names[i], fn)
	}
}

func number(v reflect.Value) (float64, bool) {
	switch v.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return float64(v.Int()), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		return float64(v.Uint()), true
	case reflect.Float32, reflect.Float64:
		return v.Float(), true
	}
	return 0, false
}

// show prints a bound in the field's own unit, so a size limit reads "5MiB", not 5242880.
func show(v reflect.Value, x float64) string {
	switch v.Type() {
	case sizeType:
		return Size(x).String()
	case durationType:
		return Duration(x).String()
	}
	return strconv.FormatFloat(x, 'f', -1, 64) // plain notation: 1048576, not 1.048576e+06
}

func atLeast[T ~int64 | ~int | ~float64](lo T, want string) check {
	return func(v reflect.Value) string {
		if x, _ := number(v); x < float64(lo) {
			return "expected " + want
		}
		return ""
	}
}

// zeroOr accepts 0 (not set: the model's default) or what c accepts.
func zeroOr(c check) check {
	return func(v reflect.Value) string {
		if x, _ := number(v); x == 0 {
			return ""
		}
		return c(v)
	}
}

func between[T ~int64 | ~int | ~float64](lo, hi T) check {
	return func(v reflect.Value) string {
		if x, _ := number(v); x < float64(lo) || x > float64(hi) {
			return fmt.Sprintf("expected a value from %s to %s", show(v, float64(lo)), show(v, float64(hi)))
		}
		return ""
	}
}

func positive(v reflect.Value) string {
	if x, _ := number(v); x <= 0 {
		switch v.Type() {
		case sizeType:
			return "expected a positive size"
		case durationType:
			return "expected a positive duration"
		}
		return "expected a positive number"
	}
	return ""
}

func nonEmpty(v reflect.Value) string {
	if v.String() == "" {
		return "missing: expected a name"
	}
	return ""
}

func oneOf(list func() []string) check {
	return func(v reflect.Value) string {
		if !slices.Contains(list(), v.String()) {
			return "expected one of " + strings.Join(list(), ", ")
		}
		return ""
	}
}

func sizeOneOf(list []Size) check {
	return func(v reflect.Value) string {
		if !slices.Contains(list, Size(v.Int())) {
			s := make([]string, len(list))
			for i, x := range list {
				s[i] = x.String()
			}
			return "expected one of " + strings.Join(s, ", ")
		}
		return ""
	}
}

// warmTableChecks: each hot set names a data group, once.
func warmTableChecks(sc *Scenario) []verr {
	var out []verr
	seen := map[string]bool{}
	for i, w := range sc.Warm.Tables {
		path := fmt.Sprintf("warm.tables[%d].name", i)
		found := false
		for _, g := range sc.Data {
			found = found || g.Name == w.Name
		}
		switch {
		case !found:
			out = append(out, verr{path: path, msg: fmt.Sprintf("no data group named %q (data names: %s)", w.Name, groupNames(sc))})
		case seen[w.Name]:
			out = append(out, verr{path: path, msg: "listed twice: give each group one fill"})
		}
		seen[w.Name] = true
	}
	return out
}

// afterChecks: every schedule entry names its operation; a statement that follows the previous schedule entry needs one that ends.
func afterChecks(sc *Scenario) []verr {
	var out []verr
	if o := sc.Observed; o.StatementsPerS == 0 && o != (Observed{}) {
		out = append(out, verr{path: "observed.statements_per_s", msg: "expected the statements per second the real server served (Questions over an Uptime interval), > 0"})
	}
	for i, e := range sc.Schedule {
		if e.DDL == "" && e.Params == nil {
			// An entry made by --set schedule[N].every=1s on a scenario without one: the
			// decoder's own "missing" check runs only on a mapping it reads.
			out = append(out, verr{path: fmt.Sprintf("schedule[%d].ddl", i), msg: "missing: expected a DDL operation (" + strings.Join(ddlKinds.names(), ", ") + ")"})
		}
		if e.After == "" {
			continue
		}
		path := fmt.Sprintf("schedule[%d].at.after", i)
		switch {
		case i == 0:
			out = append(out, verr{path: path, msg: "the first schedule entry has no previous one: give a time (at: 10s)"})
		case sc.Schedule[i-1].Every > 0 && sc.Schedule[i-1].Count == 0:
			out = append(out, verr{path: path, msg: fmt.Sprintf("schedule[%d] repeats until the end of the run (every without count): this one would never start", i-1)})
		}
	}
	return out
}
