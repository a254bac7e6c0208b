package mycnf

import (
	"fmt"
	"math"
	"regexp"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/version"
)

// Inputs is what `ddlsim import` was given; any part may be missing except a my.cnf or a
// SHOW GLOBAL VARIABLES output.
type Inputs struct {
	Name      string       // scenario name; the files are NAME.yaml and NAME-profile.yaml
	Cnf       *File        // my.cnf
	Variables []Setting    // SHOW GLOBAL VARIABLES
	Status    []Setting    // SHOW GLOBAL STATUS
	Machine   *Machine     // lscpu, free -b, lsblk
	Tables    []TableInfo  // an information_schema.TABLES dump (--tables)
	Schema    *CreateTable // SHOW CREATE TABLE of the DDL's table (--schema)
	// Lenient turns a value the model cannot read, for a variable it uses, from an error
	// into a warning naming the default simulated instead (`ddlsim import --lenient`).
	Lenient bool
}

// Result is the scenario and profile written, and what the user should know about them.
type Result struct {
	Scenario, Profile string
	// Used lists the variables the model reads, as written into mysql:.
	Used []string
	// Ignored lists the real server variables set in my.cnf that the model does not read:
	// they are kept in mysql: (the loader warns and ignores them).
	Ignored []string
	// Unknown lists the names that are no server variable ddlsim knows (kept as comments).
	Unknown []string
	// Notes are things to check: guesses made, inputs not followed.
	Notes []string
	// Warnings are the values left out under Lenient, each naming the default simulated.
	Warnings []string
	Base     string // the shipped profile the profile builds on
}

type value struct {
	text, where, raw string
	loose, limit     bool
}

// Build turns the inputs into a scenario and a hardware profile. The scenario's mysql:
// block holds every [mysqld] setting (the ones the model reads canonically spelled, with the
// line each came from); the profile builds on the nearest shipped profile; data, workload
// and schedule are a starting point to edit, said so in the file.
func Build(in Inputs) (*Result, error) {
	if in.Cnf == nil && len(in.Variables) == 0 {
		return nil, fmt.Errorf("nothing to import: give a my.cnf, or --variables with SHOW GLOBAL VARIABLES output")
	}
	res := &Result{}
	var probs Problems
	vals := map[string]value{}
	var order []string
	set := func(s Setting) {
		if s.Name == "log_bin" && !isBoolText(s.Value) {
			// my.cnf's log-bin[=basename] (mysqld --log-bin): a file name enables the binary
			// log; the variable log_bin is then ON.
			s.Value = "ON"
		}
		if _, ok := vals[s.Name]; !ok {
			order = append(order, s.Name)
		}
		vals[s.Name] = value{text: s.Value, where: s.Where, raw: s.Raw, loose: s.Loose, limit: s.Limit}
	}
	if in.Cnf != nil {
		for _, s := range in.Cnf.Settings {
			set(s)
		}
		for _, inc := range in.Cnf.Includes {
			res.Notes = append(res.Notes, inc+": not followed; import the included files' settings by concatenating them")
		}
		if len(in.Cnf.Groups) == 0 {
			res.Notes = append(res.Notes, "my.cnf has no [mysqld], [server] or [mariadb] group: no settings read from it")
		}
	}
	// SHOW GLOBAL VARIABLES is what the server runs with: it wins for the variables the model
	// reads (and gives the version); the hundreds of others it lists are not copied.
	running := map[string]Setting{}
	for _, s := range in.Variables {
		running[s.Name] = s
	}
	model := map[string]bool{}
	for _, f := range config.MySQLFields() {
		model[f] = true
	}
	for _, f := range config.MySQLFields() {
		s, ok := running[f]
		if !ok || f == "version" {
			continue
		}
		if v, had := vals[f]; had && v.text != s.Value {
			if c1, e1 := config.MySQLValue(f, v.text); e1 == nil {
				if c2, e2 := config.MySQLValue(f, s.Value); e2 == nil && c1 != c2 {
					res.Notes = append(res.Notes, fmt.Sprintf("%s: my.cnf says %s (%s), the running server %s (%s): the running value is used", f, v.text, v.where, s.Value, s.Where))
				}
			}
		}
		set(s)
	}
	if v, ok := vals["innodb_dedicated_server"]; ok && len(in.Variables) == 0 {
		if b, ok := parseBool(v.text); ok && b {
			res.Notes = append(res.Notes, fmt.Sprintf("innodb_dedicated_server is on (%s): the server sizes the pool and the redo log from the machine's memory at startup; give --variables (SHOW GLOBAL VARIABLES) for the values it runs with", v.where))
		}
	}
	if s, ok := running["innodb_redo_log_capacity"]; ok {
		if _, had := vals["innodb_redo_log_capacity"]; had {
			set(s)
		}
	}

	var b strings.Builder
	w := func(format string, a ...any) { fmt.Fprintf(&b, format, a...) }
	sources := []string{}
	if in.Cnf != nil {
		sources = append(sources, "my.cnf (groups "+strings.Join(brackets(in.Cnf.Groups), ", ")+")")
	}
	if len(in.Variables) > 0 {
		sources = append(sources, "SHOW GLOBAL VARIABLES")
	}
	if len(in.Status) > 0 {
		sources = append(sources, "SHOW GLOBAL STATUS")
	}
	if in.Machine != nil {
		sources = append(sources, "lscpu/free/lsblk")
	}
	w("# %s: imported by `ddlsim import` from %s.\n", in.Name, strings.Join(sources, ", "))
	w("# The mysql: block is your server's; hardware is %s-profile.yaml (built on a shipped\n", in.Name)
	w("# profile: check its costs). data, workload and schedule are a STARTING POINT: edit them to\n")
	w("# your tables, your traffic and the ALTER you want to know about (docs/scenarios.md).\n")
	w("#\n#   ddlsim run %s.yaml\n#   ddlsim compare %s.yaml --seeds 1\n", in.Name, in.Name)
	w("name: %s\nseed: 1\nhardware: %s-profile.yaml\nmysql:\n", in.Name, in.Name)

	ver, verNote := serverVersion(running)
	if ver != "" {
		w("  version: %q   # %s\n", ver, verNote)
	} else {
		w("  # version: not known (%s): MySQL %s is simulated. Set it from SELECT @@version.\n", verNote, config.DefaultVersion)
		res.Notes = append(res.Notes, "version: "+verNote+"; the default "+config.DefaultVersion+" is simulated")
	}
	if v, ok := vals["innodb_redo_log_capacity"]; ok {
		redoToLogFiles(vals, &order, v, res)
	}
	var ignored []string
	for _, name := range order {
		v, ok := vals[name]
		if !ok || name == "version" {
			continue // version is written above; a mapped variable (redo capacity) is gone
		}
		switch {
		case model[name] && !v.limit:
			text := v.text
			if name == "innodb_doublewrite" {
				switch strings.ToUpper(text) {
				case "DETECT_AND_RECOVER":
					text = "ON"
				case "DETECT_ONLY":
					text = "OFF"
					res.Notes = append(res.Notes, "innodb_doublewrite=DETECT_ONLY writes page ids, not pages, to the doublewrite buffer: simulated as off (the closest)")
				}
			}
			c, err := config.MySQLValue(name, text)
			if err != nil {
				simVer := ver
				if simVer == "" {
					simVer = config.DefaultVersion
				}
				def, derr := config.MySQLDefault(simVer, name)
				if derr != nil {
					def = "its default"
				}
				if !in.Lenient {
					probs = append(probs, fmt.Sprintf("%s: %s = %s: %v; fix the value, or give --lenient to simulate the default %s instead", v.where, name, strconv.Quote(v.text), trimName(err, name), def))
					continue
				}
				w("  # %s: %s   # %s: %s — unreadable (%v): the default %s is simulated\n", name, yamlScalar(v.text), v.where, yamlComment(v.raw), trimName(err, name), def)
				res.Warnings = append(res.Warnings, fmt.Sprintf("%s: %s = %s: %v; left out: the default %s (%s) is simulated", v.where, name, strconv.Quote(v.text), trimName(err, name), def, simVer))
				continue
			}
			w("  %s: %s", name, yamlScalar(c))
			if v.raw != "" {
				w("   # %s: %s", v.where, v.raw)
			}
			w("\n")
			res.Used = append(res.Used, name)
		case config.IsServerVariable(name) || v.limit:
			ignored = append(ignored, name)
		case v.loose && variableName.MatchString(name):
			ignored = append(ignored, name)
		default:
			res.Unknown = append(res.Unknown, name)
		}
	}
	if len(ignored) > 0 {
		w("  # Real server variables the model does not use: kept so this block is your my.cnf;\n")
		w("  # the load warns once and ignores them (docs/scenarios.md, mysql).\n")
		for _, name := range ignored {
			v := vals[name]
			key := name
			if v.limit {
				key = "maximum_" + name
			}
			if v.loose && !config.IsServerVariable(name) || v.limit {
				key = "loose_" + key // a name the table does not know: loose, as the server takes it
			}
			w("  %s: %s\n", yamlScalar(key), yamlScalar(v.text))
			res.Ignored = append(res.Ignored, name)
		}
	}
	if len(res.Unknown) > 0 {
		w("  # Not server variables ddlsim knows (a plugin's? a typo?): left out, the server would refuse\n")
		w("  # an unknown option unless written loose-NAME.\n")
		for _, name := range res.Unknown {
			v := vals[name]
			w("  # %s = %s   (%s)\n", yamlComment(name), yamlComment(v.text), v.where)
		}
	}

	pool := config.Size(128 * config.MiB)
	poolWhere := "the default"
	if c, err := config.MySQLValue("innodb_buffer_pool_size", vals["innodb_buffer_pool_size"].text); err == nil && vals["innodb_buffer_pool_size"].text != "" {
		pool, _ = config.ParseSize(c)
		poolWhere = vals["innodb_buffer_pool_size"].where
	}
	if m := in.Machine; m != nil && m.Memory > 0 && int64(pool) > m.Memory {
		probs = append(probs, fmt.Sprintf("%s: Mem: total %s is below innodb_buffer_pool_size %s (%s): no server runs a pool larger than its memory; check that both files come from the same server", m.MemoryWhere, config.Size(m.Memory), pool, poolWhere))
	}
	st, sprobs := readStatus(in.Status)
	probs = append(probs, sprobs...)
	if len(probs) > 0 {
		return nil, probs
	}
	tr := observedTraffic(st)
	w("policy: %s   # the version's own; ddlsim compare runs the others\n", nativePolicy(ver))
	pageSize := config.Size(16 * config.KiB)
	if c, err := config.MySQLValue("innodb_page_size", vals["innodb_page_size"].text); err == nil && vals["innodb_page_size"].text != "" {
		pageSize, _ = config.ParseSize(c)
	}
	groups := dataGroups(in, st, pool, pageSize)
	w("data:\n")
	var total int64
	for _, g := range groups {
		total += g.size * int64(g.tables)
	}
	if len(in.Tables) > 0 {
		w("  # From the information_schema.TABLES dump: the %d largest InnoDB tables a group each,\n", min(len(groups), maxOwnGroups))
		w("  # their sysbench-shaped rows of the dump's size (DATA_LENGTH) and row size.\n")
	} else {
		w("  # EDIT: your tables (or give --tables with an information_schema.TABLES dump). A starting\n")
		w("  # point: the table your ALTER runs on, a quarter of the pool, and the rest of the\n")
		w("  # working set beside it, as much as the pool holds. What lies beyond the pool is not known.\n")
	}
	target, ddlCols, ddlNote := applySchema(in.Schema, groups)
	for _, g := range groups {
		w("  - {name: %s, tables: %d, size: %s", g.name, g.tables, config.Size(g.size))
		if g.rowSize > 0 {
			w(", row_size: %d", g.rowSize)
		}
		if g.secondary != nil {
			w(", secondary_indexes: %d", *g.secondary)
		}
		if len(g.columns) > 0 {
			var cs []string
			for _, c := range g.columns {
				cs = append(cs, fmt.Sprintf("{name: %s, size: %d}", yamlScalar(c.Name), c.Size))
			}
			w(", columns: [%s]", strings.Join(cs, ", "))
		}
		w("}")
		if g.note != "" {
			w("   # %s", yamlComment(g.note))
		}
		w("\n")
	}
	if total > 0 && total < int64(pool)/2 {
		res.Warnings = append(res.Warnings, fmt.Sprintf("data: the tables written hold %s, under half of the %s pool: most of the simulated pool stays empty and nearly every read hits it; add the rest of the server's working set (--tables with every table) or the answer is a lower bound", config.Size(total), pool))
	}
	fill, dirty := 0.95, 0.0
	fillNote := "a guess: the pool of a server that has run for a while is full"
	if f, ok := ratioF(st, "innodb_buffer_pool_pages_data", "innodb_buffer_pool_pages_total"); ok {
		fill = round3(f)
		fillNote = fmt.Sprintf("Innodb_buffer_pool_pages_data / _total = %.0f / %.0f", st["innodb_buffer_pool_pages_data"], st["innodb_buffer_pool_pages_total"])
		if d, ok := ratioF(st, "innodb_buffer_pool_pages_dirty", "innodb_buffer_pool_pages_data"); ok {
			dirty = round3(d)
			fillNote += fmt.Sprintf("; dirty = Innodb_buffer_pool_pages_dirty / _data = %.0f / %.0f", st["innodb_buffer_pool_pages_dirty"], st["innodb_buffer_pool_pages_data"])
		}
	}
	w("warm: {fill: %s, dirty: %s}   # %s\n", fmtFloat(fill), fmtFloat(dirty), fillNote)
	w("warmup: 10s\n")
	w("duration: until_ddl_done   # the run ends 10s after the DDL does (cap: 2h of virtual time)\n")
	if obs := math.Round(tr.stmtPerS*1000) / 1000; obs >= 0.001 {
		w("# What the server served: every run compares its simulated statements/s with it and warns\n")
		w("# beyond 1.5x either way (docs/scenarios.md, observed).\n")
		w("observed: {statements_per_s: %s, source: %s}\n", fmtFloat(obs),
			yamlScalar(fmt.Sprintf("SHOW GLOBAL STATUS: Questions / Uptime = %.0f / %.0f s", st["questions"], st["uptime"])))
	}
	w("workload:\n")
	w("  # EDIT: your traffic. mix: %s.\n", yamlComment(tr.mixNote))
	w("  # threads: %s.\n", tr.threadNote)
	if tr.txnPerS > 0 {
		w("  # rate: %s.\n", yamlComment(tr.rateNote))
		if len(groups) > 1 {
			w("  # The rate and threads are split over the groups by size (a guess: which tables the\n")
			w("  # traffic touches is not in SHOW GLOBAL STATUS).\n")
		}
	} else {
		w("  # A closed loop (each thread sends its next statement when the last returns): give\n")
		w("  # --status with SHOW GLOBAL STATUS for the server's own rate.\n")
	}
	for _, wl := range splitTraffic(tr, groups, total) {
		w("  - sysbench: {mix: %s, threads: %d, tables: %s", tr.mix.name, wl.threads, wl.group)
		if wl.rate > 0 {
			w(", rate: %s", fmtFloat(wl.rate))
		}
		w(", rand: special}\n")
	}
	w("schedule:\n")
	if ddlNote != "" {
		w("  # EDIT: the statement you want to know about. %s.\n", yamlComment(ddlNote))
	} else {
		w("  # EDIT: the statement you want to know about (on the first data group).\n")
	}
	w("  - {at: 10s, ddl: create_index, table: %s, columns: [%s]}\n", groups[target].name, yamlScalar(ddlCols))
	w("report: {interval: 1s}\n")
	res.Scenario = b.String()

	res.Profile, res.Base = profile(in, res, pool)
	return res, nil
}

// redoToLogFiles maps innodb_redo_log_capacity (8.0.30+: it replaces innodb_log_file_size
// and innodb_log_files_in_group) onto the two variables the model reads: the capacity split
// over the files in group.
func redoToLogFiles(vals map[string]value, order *[]string, v value, res *Result) {
	capText, err := config.MySQLValue("innodb_log_file_size", v.text)
	if err != nil {
		return
	}
	c, _ := config.ParseSize(capText)
	files := 2
	if f, err := strconv.Atoi(vals["innodb_log_files_in_group"].text); err == nil && f > 0 {
		files = f
	}
	per := config.Size(int64(c) / int64(files))
	vals["innodb_log_file_size"] = value{text: per.String(), where: v.where, raw: v.raw + fmt.Sprintf(" (innodb_redo_log_capacity / %d files)", files)}
	vals["innodb_log_files_in_group"] = value{text: strconv.Itoa(files), where: v.where, raw: "innodb_redo_log_capacity, split"}
	for _, n := range []string{"innodb_log_file_size", "innodb_log_files_in_group"} {
		if !contains(*order, n) {
			*order = append(*order, n)
		}
	}
	delete(vals, "innodb_redo_log_capacity")
	res.Notes = append(res.Notes, fmt.Sprintf("innodb_redo_log_capacity %s (%s): simulated as innodb_log_files_in_group %d x innodb_log_file_size %s", v.text, v.where, files, per))
}

// trimName drops what a config error says before its reason ("--set: mysql.NAME: bad value
// "…": "): the problem line names the variable and the value already.
func trimName(err error, name string) string {
	msg := err.Error()
	if i := strings.Index(msg, ": bad value "); i >= 0 {
		if j := strings.Index(msg[i+len(": bad value "):], `": `); j >= 0 {
			return msg[i+len(": bad value ")+j+3:]
		}
	}
	return strings.TrimPrefix(msg, name+": ")
}

// yamlComment makes text safe to end a YAML comment line: no line break or other control
// character inside (a quoted my.cnf value may hold \n, \b ... escapes), each written as Go
// would quote it.
func yamlComment(s string) string {
	var b strings.Builder
	for _, r := range s {
		if _, _, bad := controlRune(string(r)); bad || r == '\r' {
			q := strconv.QuoteRune(r)
			b.WriteString(q[1 : len(q)-1])
			continue
		}
		b.WriteRune(r)
	}
	return b.String()
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

var versionNumber = regexp.MustCompile(`^(\d+)\.(\d+)\.(\d+)`)

// serverVersion maps SHOW VARIABLES' version (and version_comment) to a ddlsim version.
func serverVersion(running map[string]Setting) (string, string) {
	s, ok := running["version"]
	if !ok {
		return "", "no SHOW GLOBAL VARIABLES output (--variables)"
	}
	m := versionNumber.FindStringSubmatch(s.Value)
	if m == nil {
		return "", fmt.Sprintf("version %q is not MAJOR.MINOR.PATCH", s.Value)
	}
	num := m[0]
	comment := strings.ToLower(running["version_comment"].Value)
	var cand, note string
	switch {
	case strings.Contains(strings.ToLower(s.Value), "mariadb") || strings.Contains(comment, "mariadb"):
		cand, note = "mariadb-"+num, "SHOW VARIABLES: version "+s.Value
	case strings.Contains(comment, "percona"):
		cand, note = "percona-"+num, "SHOW VARIABLES: version "+s.Value+", Percona Server"
		if _, err := version.Parse(cand); err != nil {
			cand, note = num, note+" (Percona Server "+m[1]+"."+m[2]+" is not modelled: simulated as MySQL "+num+", its InnoDB base)"
		}
	default:
		cand, note = num, "SHOW VARIABLES: version "+s.Value
	}
	if _, err := version.Parse(cand); err != nil {
		return "", fmt.Sprintf("the server's version %s is not modelled (%v)", s.Value, err)
	}
	return cand, note
}

// nativePolicy is the policy the version itself runs (the default when policy: is left out).
func nativePolicy(ver string) string {
	if ver == "" {
		ver = config.DefaultVersion
	}
	v, err := version.Parse(ver)
	if err != nil {
		return "fullscan"
	}
	return version.TraitsOf(v).NativePolicy
}

// dataSize is the starting table size: a quarter of the pool, at least 1 GiB, in whole GiB
// (or MiB for small pools).
func dataSize(pool config.Size) config.Size {
	q := pool / 4
	if q >= config.GiB {
		return q / config.GiB * config.GiB
	}
	return max(q/config.MiB*config.MiB, 16*config.MiB)
}

// ratioF is st[a] / st[b], at most 1, when both are known and b > 0.
func ratioF(st map[string]float64, a, b string) (float64, bool) {
	x, ok1 := st[a]
	y, ok2 := st[b]
	if !ok1 || !ok2 || y <= 0 {
		return 0, false
	}
	return math.Min(x/y, 1), true
}

// dataGroups is the data: block: the tables dump's groups, or the starting point (the
// DDL's table, a quarter of the pool, and when STATUS tells how much the pool held, the
// rest of the working set as a second group filling the pool to that).
func dataGroups(in Inputs, st map[string]float64, pool, pageSize config.Size) []dataGroup {
	if gs := tableGroups(in.Tables); len(gs) > 0 {
		return gs
	}
	size := dataSize(pool)
	gs := []dataGroup{{name: "sbtest", tables: 1, size: int64(size), note: "EDIT: a quarter of the pool"}}
	held := int64(float64(pool) * 0.95)
	note := "EDIT: the rest of the working set, so the pool is as full as warm: guesses (0.95 of it) - the sbtest table"
	if n, ok := st["innodb_buffer_pool_pages_data"]; ok {
		held = int64(n) * int64(pageSize)
		note = fmt.Sprintf("EDIT: the rest of what the pool held, Innodb_buffer_pool_pages_data %.0f x %s - the sbtest table", n, pageSize)
	}
	if rest := held - int64(size); rest >= int64(16*config.MiB) {
		rest = rest / int64(config.MiB) * int64(config.MiB)
		gs = append(gs, dataGroup{name: "rest", tables: 1, size: rest, note: note})
	}
	return gs
}

type groupLoad struct {
	group   string
	threads int
	rate    float64
}

// splitTraffic spreads the workload over the groups in proportion to their size (the
// largest group first gets the remainder of threads), each with at least one thread.
func splitTraffic(tr traffic, gs []dataGroup, total int64) []groupLoad {
	if len(gs) == 1 || total <= 0 {
		return []groupLoad{{gs[0].name, tr.threads, tr.txnPerS}}
	}
	out := make([]groupLoad, len(gs))
	left := tr.threads
	for i, g := range gs {
		share := float64(g.size*int64(g.tables)) / float64(total)
		out[i] = groupLoad{group: g.name, threads: max(1, int(float64(tr.threads)*share)), rate: round3(tr.txnPerS * share)}
		left -= out[i].threads
	}
	if left > 0 {
		out[0].threads += left
	}
	// The rates' rounding: the first group takes what the others' rounding left.
	if tr.txnPerS > 0 {
		sum := 0.0
		for _, o := range out[1:] {
			sum += o.rate
		}
		out[0].rate = round3(tr.txnPerS - sum)
	}
	return out
}

func round3(f float64) float64 { return math.Round(f*1000) / 1000 }

func fmtFloat(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

func brackets(gs []string) []string {
	out := make([]string, len(gs))
	for i, g := range gs {
		out[i] = "[" + g + "]"
	}
	return out
}

// yamlScalar writes a value as a YAML scalar that reads back as the same text: plain when
// it is safe, double-quoted otherwise.
func yamlScalar(s string) string {
	if s != "" && plainSafe.MatchString(s) && !strings.ContainsAny(s[:1], "-%@") {
		return s
	}
	return strconv.Quote(s)
}

// variableName is what a server variable's name can be (the longest real one is 60-odd
// characters): a loose- name outside it is no variable, commented rather than kept.
var variableName = regexp.MustCompile(`^[a-z0-9_]{1,128}$`)

var plainSafe = regexp.MustCompile(`^[A-Za-z0-9_./+@%-]+$`)

// isBoolText reports whether s is one of the boolean spellings a server option takes.
func isBoolText(s string) bool {
	switch strings.ToLower(s) {
	case "on", "off", "true", "false", "yes", "no", "1", "0":
		return true
	}
	return false
}
