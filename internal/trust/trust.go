// Package trust says, beside every answer, how far to trust it (issue 24): which of the
// hardware profile's constants were measured on this machine, fitted on it (on what), taken
// from the profile's base (carried over from another machine), assumed, or given with no
// source; and the validation record of the statements and server flavour at hand — how the
// simulation compared with measurements of the same statement on the same flavour, derived
// from docs/validation/results.json (compiled in), never written by hand.
package trust

import (
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strings"
	"sync"

	validation "github.com/ddlsim/ddlsim/docs/validation"
	"github.com/ddlsim/ddlsim/internal/validate"
	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/version"
)

// Constant is one hardware-profile value and where it comes from.
type Constant struct {
	Name string `json:"name"` // costs.page_hit, cores, storage.data.read
	// Origin is "here" (written in the run's own profile), "carried_over" (taken from the
	// base profile named in From), "override" (--set) or "scenario" (an inline profile).
	Origin string `json:"origin"`
	From   string `json:"from,omitempty"`
	// Status is the provenance entry's (measured, fitted, assumed) of the file the value
	// was written in, or "unstated" when that file says nothing.
	Status string `json:"status"`
	On     string `json:"on,omitempty"`
	Source string `json:"source,omitempty"`
}

// Record is the validation record of one statement on one server family and one
// statistic: how many measured points the simulation was compared with and the range of
// simulated / measured.
type Record struct {
	Statement string   `json:"statement"` // create_index
	Server    string   `json:"server"`    // MariaDB 10.11
	Stat      string   `json:"stat"`      // duration | traffic (tps during the DDL / before)
	Points    int      `json:"points"`
	MinRatio  float64  `json:"min_ratio"`
	MaxRatio  float64  `json:"max_ratio"`
	Scenarios []string `json:"scenarios"`
}

// Trust is the block printed with a run: the profile's constants by origin and the
// validation records of the run's statements.
type Trust struct {
	Profile   string     `json:"profile"`
	Base      string     `json:"base,omitempty"`
	Constants []Constant `json:"constants"`
	// Validation has a record per statement and statistic that results.json compared on
	// this server family; Unvalidated lists the statements it has none for.
	Validation  []Record `json:"validation"`
	Unvalidated []string `json:"unvalidated,omitempty"`
	// Observed compares the run's simulated statement rate with the real server's, when the
	// scenario gives it (observed.go); set after the run.
	Observed *Observed `json:"observed,omitempty"`
	// ObservedRuns are a compare or sweep's runs compared with it, one per run.
	ObservedRuns []ObservedRun `json:"observed_runs,omitempty"`
}

// statementNames are how the console names the DDL operations.
var statementNames = map[string]string{
	"create_index": "ADD INDEX", "optimize_table": "OPTIMIZE TABLE", "drop_table": "DROP TABLE",
	"truncate_table": "TRUNCATE TABLE", "discard_tablespace": "DISCARD TABLESPACE",
}

func statementName(op string) string {
	if n, ok := statementNames[op]; ok {
		return n
	}
	return op
}

// methoder is a DDL's parameter block that can be run another way than the server's own
// statement (create_index's method: pt-osc, gh-ost): its validation points are its own.
type methoder interface{ StatementMethod() string }

// statementOf is the schedule entry's statement as the records key it: the operation, and
// the tool that runs it when one does ("create_index via pt-osc").
func statementOf(e config.DDLEvent) string {
	if m, ok := e.Params.(methoder); ok && m.StatementMethod() != "" {
		return e.DDL + " via " + m.StatementMethod()
	}
	return e.DDL
}

// displayName is statementOf's key as the console names it: ADD INDEX via pt-osc.
func displayName(key string) string {
	op, via, ok := strings.Cut(key, " via ")
	if !ok {
		return statementName(key)
	}
	return statementName(op) + " via " + via
}

// Of the scenario: its profile's constants (from sc.Origins and each file's provenance)
// and its statements' validation records.
func Of(sc *config.Scenario) *Trust {
	t := &Trust{Constants: []Constant{}}
	prof := sc.Origins["hardware"].File
	t.Profile = sc.HardwareProfile.Name
	own := ownProvenance(sc, prof)
	bases := map[string][]config.Provenance{}
	var names []string
	seen := map[string]bool{}
	add := func(n string) {
		if !seen[n] {
			seen[n] = true
			names = append(names, n)
		}
	}
	for _, p := range sc.HardwareProfile.Provenance {
		add(p.Name)
	}
	for k := range sc.Origins {
		if n, ok := strings.CutPrefix(k, "hardware."); ok && isConstant(n) {
			add(n)
		}
	}
	sort.Strings(names)
	for _, n := range names {
		pos, ok := sc.Origins["hardware."+n]
		if !ok {
			continue // not written anywhere: a default of the model
		}
		c := Constant{Name: n, Status: "unstated"}
		var entries []config.Provenance
		switch {
		case pos.File == "--set":
			c.Origin = "override"
		case pos.File == prof:
			c.Origin, entries = "here", own
			if sc.Origins["hardware"].File == sc.Origins[""].File {
				c.Origin = "scenario"
			}
		default:
			c.Origin, c.From = "carried_over", profileName(pos.File)
			if t.Base == "" {
				t.Base = c.From
			}
			if _, ok := bases[pos.File]; !ok {
				if hw, err := config.LoadHardware(pos.File); err == nil {
					bases[pos.File] = hw.Provenance
				}
			}
			entries = bases[pos.File]
		}
		for _, p := range entries {
			if p.Name == n {
				c.Status, c.On, c.Source = p.Status, p.On, p.Source
			}
		}
		t.Constants = append(t.Constants, c)
	}
	t.Validation, t.Unvalidated = records(sc)
	return t
}

// isConstant: the profile values trust reports: the costs and the machine's measured
// quantities (not its name, the storage devices' sub-fields, or the provenance itself).
func isConstant(n string) bool {
	if c, ok := strings.CutPrefix(n, "costs."); ok {
		return !strings.Contains(c, ".")
	}
	switch n {
	case "cores", "memory", "quantum", "client_rtt", "llc", "client.cpu_per_statement",
		"storage.data.read", "storage.data.write", "storage.data.channels", "storage.data.bandwidth":
		return true
	}
	return false
}

// ownProvenance is the provenance written in the profile file itself (not its base's).
func ownProvenance(sc *config.Scenario, prof string) []config.Provenance {
	if sc.Origins["hardware.provenance"].File != prof {
		return nil
	}
	return sc.HardwareProfile.Provenance
}

func profileName(file string) string {
	f := file[strings.LastIndex(file, "/")+1:]
	return strings.TrimSuffix(strings.TrimSuffix(f, ".yaml"), ".yml")
}

// family is the server family a validation record is kept for: flavour and major.minor.
func family(ver string) string {
	v, err := version.Parse(ver)
	if err != nil {
		return ver
	}
	name := map[version.Flavor]string{version.MySQL: "MySQL", version.Percona: "Percona Server", version.MariaDB: "MariaDB"}[v.Flavor]
	return fmt.Sprintf("%s %d.%d", name, v.Major, v.Minor)
}

// point is one compared row of results.json with the statement and family it simulated.
type point struct {
	op, family, stat, file string
	ratio                  float64
}

var points = sync.OnceValue(loadPoints)

// loadPoints reads the compiled-in results.json: every row with a measured value that was
// predicted or checked (not a row the constants were fitted on), with the statement and the
// server family of its scenario (loaded, with the row's overrides, from the shipped copy).
func loadPoints() []point {
	var res validate.Results
	if err := json.Unmarshal(validation.ResultsJSON, &res); err != nil || res.Schema != validate.Schema {
		return nil
	}
	type key struct{ file, set string }
	type loaded struct {
		ops    []string
		family string
	}
	cache := map[key]*loaded{}
	var out []point
	for _, r := range res.Rows {
		if math.IsNaN(float64(r.Ratio)) || r.Measured == nil || (r.Role != "predict" && r.Role != "check") {
			continue
		}
		stat := statKind(r.Stat)
		if stat == "" {
			continue
		}
		k := key{r.File, strings.Join(r.Set, "\x00")}
		l, ok := cache[k]
		if !ok {
			l = &loaded{}
			cache[k] = l
			sets := append([]string(nil), r.Set...)
			if r.Policy != "" {
				sets = append(sets, "policy="+r.Policy)
			}
			if sc, err := config.LoadWith(config.ShippedPrefix+strings.TrimPrefix(r.File, "scenarios/"), sets, nil); err == nil {
				l.family = family(sc.MySQL.Version)
				for _, e := range sc.Schedule {
					l.ops = append(l.ops, statementOf(e))
				}
			}
		}
		if len(l.ops) == 0 {
			continue
		}
		out = append(out, point{op: l.ops[0], family: l.family, stat: stat, file: r.File, ratio: float64(r.Ratio)})
	}
	return out
}

// statKind maps a results.json statistic to what the record says about the statement:
// its duration, or the traffic while it ran relative to before.
func statKind(s string) string {
	switch {
	case strings.HasSuffix(s, "duration_s"):
		return "duration"
	case s == "ddl.tps_ratio":
		return "traffic"
	}
	return ""
}

// records are the validation records of the scenario's statements on its server family.
func records(sc *config.Scenario) ([]Record, []string) {
	fam := family(sc.MySQL.Version)
	var ops []string
	for _, e := range sc.Schedule {
		if k := statementOf(e); !contains(ops, k) {
			ops = append(ops, k)
		}
	}
	recs := []Record{}
	var none []string
	for _, op := range ops {
		found := false
		for _, stat := range []string{"duration", "traffic"} {
			r := Record{Statement: displayName(op), Server: fam, Stat: stat, MinRatio: math.Inf(1), MaxRatio: math.Inf(-1)}
			for _, p := range points() {
				if p.op != op || p.family != fam || p.stat != stat {
					continue
				}
				r.Points++
				r.MinRatio, r.MaxRatio = math.Min(r.MinRatio, p.ratio), math.Max(r.MaxRatio, p.ratio)
				if !contains(r.Scenarios, p.file) {
					r.Scenarios = append(r.Scenarios, p.file)
				}
			}
			if r.Points > 0 {
				recs = append(recs, r)
				found = true
			}
		}
		if !found {
			none = append(none, displayName(op)+" on "+fam)
		}
	}
	return recs, none
}

func contains(s []string, x string) bool {
	for _, y := range s {
		if y == x {
			return true
		}
	}
	return false
}

// Line is the one console line: the constants by origin, then the validation record.
func (t *Trust) Line() string {
	var measured, fitted, assumed, unstated, override []string
	carried := map[string][]string{}
	var from []string
	for _, c := range t.Constants {
		switch {
		case c.Origin == "carried_over":
			if _, ok := carried[c.From]; !ok {
				from = append(from, c.From)
			}
			carried[c.From] = append(carried[c.From], c.Name)
		case c.Origin == "override":
			override = append(override, c.Name)
		case c.Status == "measured":
			measured = append(measured, c.Name)
		case c.Status == "fitted":
			fitted = append(fitted, c.Name)
		case c.Status == "assumed":
			assumed = append(assumed, c.Name)
		default:
			unstated = append(unstated, c.Name)
		}
	}
	var parts []string
	if len(measured) > 0 {
		parts = append(parts, fmt.Sprintf("%d measured", len(measured)))
	}
	if len(fitted) > 0 {
		parts = append(parts, fmt.Sprintf("%d fitted (%s)", len(fitted), list(fitted, 4)))
	}
	if len(assumed) > 0 {
		parts = append(parts, fmt.Sprintf("%d assumed", len(assumed)))
	}
	if len(unstated) > 0 {
		parts = append(parts, fmt.Sprintf("%d with no stated source (%s)", len(unstated), list(unstated, 3)))
	}
	for _, f := range from {
		parts = append(parts, fmt.Sprintf("%d carried over from %s (%s)", len(carried[f]), f, list(carried[f], 4)))
	}
	if len(override) > 0 {
		parts = append(parts, fmt.Sprintf("%d set by --set (%s)", len(override), list(override, 4)))
	}
	line := fmt.Sprintf("trust: profile %s: %s", t.Profile, strings.Join(parts, ", "))
	var vs []string
	for _, r := range t.Validation {
		what := map[string]string{"duration": "its duration", "traffic": "the traffic during it"}[r.Stat]
		how := "within " + ratioRange(r.MinRatio, r.MaxRatio) + " of measured"
		if r.MaxRatio < 0.05 {
			how = "far below the measured (" + ratioRange(r.MinRatio, r.MaxRatio) + ")"
		}
		vs = append(vs, fmt.Sprintf("%s on %s: %s %s (%d point%s)", r.Statement, r.Server, what, how, r.Points, plural(r.Points)))
	}
	for _, u := range t.Unvalidated {
		vs = append(vs, u+": never compared with a measurement")
	}
	if len(vs) > 0 {
		line += "; validation: " + strings.Join(vs, "; ")
	}
	return line + " (docs/validation.md)"
}

func ratioRange(lo, hi float64) string {
	f := func(x float64) string { return fmt.Sprintf("%.2g", x) }
	if f(lo) == f(hi) {
		return f(lo) + "×"
	}
	return f(lo) + "–" + f(hi) + "×"
}

func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}

func list(s []string, n int) string {
	if len(s) <= n {
		return strings.Join(s, ", ")
	}
	return strings.Join(s[:n], ", ") + fmt.Sprintf(", +%d more", len(s)-n)
}
