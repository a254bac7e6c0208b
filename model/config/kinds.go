package config

import (
	"fmt"
	"reflect"
	"slices"
	"sort"
	"strings"
	"sync"
)

// The open parts of the schema — DDL operations (schedule[].ddl), workloads (workload[].KIND)
// and buffer-pool policies (policy:) — are kinds that the packages implementing them register
// (model/ddl/registry.go, model/workload/registry.go, policies/registry.go). A kind declares
// its YAML fields as a Go struct; the loader decodes them with positions, applies the kind's
// defaults and runs its checks with every other validation, so a bad parameter of any kind is
// reported at file:line:col before anything runs. config never imports those packages: the
// assembly (model/runner's Schema) lists every kind and installs them in one call (Install),
// so what config knows never depends on which packages a binary links or in what order their
// init functions ran.

// Params is one kind's typed parameter block: a pointer to a struct whose exported fields are
// the kind's YAML keys (with `yaml` tags and config's unit types, like the rest of the schema).
type Params interface {
	// Defaults fills the fields the user left out (d says which were written).
	Defaults(sc *Scenario, d Defaulter)
	// Check reports every bad field through c (paths relative to the block).
	Check(sc *Scenario, c *Checker)
}

// Kind is one registered name of an open schema family.
type Kind struct {
	Name string
	// Doc is one line for `ddlsim list` and the generated docs.
	Doc string
	// New returns a zero parameter block of this kind.
	New func() Params
	// NoTable marks a DDL operation that names no table (undo_truncate); others need one.
	NoTable bool
	// Drops is set on a DDL operation that removes its table (DROP TABLE, DISCARD
	// TABLESPACE): the error MySQL gives a later statement on that table. A statement
	// scheduled after it on the same table is warned about.
	Drops string
}

// Fields lists the kind's YAML keys in declaration order.
func (k Kind) Fields() []string {
	if k.New == nil {
		return nil
	}
	return slices.Clone(fieldsOf(reflect.TypeOf(k.New()).Elem()).names)
}

// family is one registry: DDL operations, workloads or policies.
type family struct {
	what  string // "DDL operation", for messages
	mu    sync.RWMutex
	kinds map[string]Kind
}

func (f *family) set(ks []Kind) {
	m := make(map[string]Kind, len(ks))
	for _, k := range ks {
		if k.Name == "" || k.New == nil {
			panic(fmt.Sprintf("config: %s installed without a name or a New", f.what))
		}
		if p := k.New(); reflect.TypeOf(p).Kind() != reflect.Pointer || reflect.TypeOf(p).Elem().Kind() != reflect.Struct {
			panic(fmt.Sprintf("config: %s %q: New must return a pointer to a struct", f.what, k.Name))
		}
		if _, dup := m[k.Name]; dup {
			panic(fmt.Sprintf("config: %s %q installed twice", f.what, k.Name))
		}
		m[k.Name] = k
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.kinds = m
}

func (f *family) get(name string) (Kind, bool) {
	f.mu.RLock()
	defer f.mu.RUnlock()
	k, ok := f.kinds[name]
	return k, ok
}

func (f *family) list() []Kind {
	f.mu.RLock()
	defer f.mu.RUnlock()
	out := make([]Kind, 0, len(f.kinds))
	for _, k := range f.kinds {
		out = append(out, k)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out
}

func (f *family) names() []string {
	var n []string
	for _, k := range f.list() {
		n = append(n, k.Name)
	}
	return n
}

// unknown is the message for a name no kind has.
func (f *family) unknown(name string) string {
	names := f.names()
	if len(names) == 0 {
		return fmt.Sprintf("unknown %s %q: no %ss are installed (the assembly, model/runner, installs them: config.Install(runner.Schema()))", f.what, name, f.what)
	}
	msg := fmt.Sprintf("unknown %s", f.what)
	if s := suggest(name, names); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return msg + "; expected one of " + strings.Join(names, ", ")
}

var (
	ddlKinds      = &family{what: "DDL operation"}
	workloadKinds = &family{what: "workload"}
	policyKinds   = &family{what: "policy"}
)

// Schema is everything above config that the loader consults: the open kinds, the function
// that shapes a data group into tables (the tablespace limit) and the warnings only a kind's
// package can compute. The assembly builds it (model/runner.Schema) and installs it.
type Schema struct {
	DDL, Workloads, Policies []Kind
	// DataShape sizes a data group's largest table (model/server's groupPages); nil: the
	// tablespace limit is judged only for groups given by size.
	DataShape DataShape
	// Warners find warnings only a kind's package can compute (model/ddl: an index build's
	// sort files against the temp device's capacity); they run, in this order, with the
	// loader's own warnings on every scenario that validated.
	Warners []func(sc *Scenario) []Warning
}

// Install replaces what the loader knows with s, all at once (a kind named twice in one
// family, or without a name or a New, panics: a bug of the assembly).
func Install(s Schema) {
	ddlKinds.set(s.DDL)
	workloadKinds.set(s.Workloads)
	policyKinds.set(s.Policies)
	shapeMu.Lock()
	dataShape = s.DataShape
	warners = slices.Clone(s.Warners)
	shapeMu.Unlock()
}

// DDLKinds lists the registered DDL operations, sorted by name.
func DDLKinds() []Kind { return ddlKinds.list() }

// WorkloadKinds lists the registered workloads, sorted by name.
func WorkloadKinds() []Kind { return workloadKinds.list() }

// PolicyKinds lists the registered policies, sorted by name.
func PolicyKinds() []Kind { return policyKinds.list() }

// DDLKind, WorkloadKind and PolicyKind look a kind up by name.
func DDLKind(name string) (Kind, bool)      { return ddlKinds.get(name) }
func WorkloadKind(name string) (Kind, bool) { return workloadKinds.get(name) }
func PolicyKind(name string) (Kind, bool)   { return policyKinds.get(name) }

// Checker collects a kind's validation findings under the path of its parameter block.
type Checker struct {
	prefix string
	out    *[]verr
}

// Path is the full YAML path of the block's field key.
func (c *Checker) Path(key string) string { return joinPath(c.prefix, key) }

// Errorf reports a problem with field key. deps are full paths of other fields the judgement
// relied on: if one of them is itself wrong, this finding is dropped as a consequence.
func (c *Checker) Errorf(key string, deps []string, format string, args ...any) {
	*c.out = append(*c.out, verr{path: c.Path(key), msg: fmt.Sprintf(format, args...), deps: deps})
}

// Field runs the checks on v, the value of field key; the first failing check is reported.
func (c *Checker) Field(key string, v any, checks ...Check) {
	rv := reflect.ValueOf(v)
	for _, ch := range checks {
		if msg := ch(rv); msg != "" {
			c.Errorf(key, nil, "%s", msg)
			return
		}
	}
}

// Table checks that field key names a data group (of kind tableKind when not "").
func (c *Checker) Table(sc *Scenario, key, name, tableKind string) {
	if name == "" {
		c.Errorf(key, nil, "missing: expected the name of a data group")
		return
	}
	for _, t := range sc.Data {
		if t.Name != name {
			continue
		}
		if tableKind != "" && t.Kind != tableKind {
			c.Errorf(key, nil, "data group %q is %s, expected a %s group", name, t.Kind, tableKind)
		}
		return
	}
	c.Errorf(key, nil, "no data group named %q (data names: %s)", name, groupNames(sc))
}

// Start checks that a start time (field key, on the report clock) lies within the run.
func (c *Checker) Start(sc *Scenario, key string, start Duration) {
	if sc.Duration > 0 && start >= sc.Duration {
		c.Errorf(key, []string{"duration"}, "expected a start before the end of the run: start is measured from the end of warmup and duration = %s", sc.Duration)
	}
}

// Check judges one value: "" means fine, otherwise the text says what was expected.
type Check = check

// The checks kinds use for their fields (the same ones the fixed schema's rules use).
var (
	Positive = check(positive)
	NonEmpty = check(nonEmpty)
)

// AtLeast accepts values >= lo; want completes "expected ...".
func AtLeast[T ~int64 | ~int | ~float64](lo T, want string) Check { return atLeast(lo, want) }

// Between accepts values in [lo, hi].
func Between[T ~int64 | ~int | ~float64](lo, hi T) Check { return between(lo, hi) }

// OneOf accepts one of the listed strings.
func OneOf(list ...string) Check { return oneOf(func() []string { return list }) }

// checkKinds runs every kind's own checks: the schedule's operations, the workloads and the
// policy.
func checkKinds(sc *Scenario) []verr {
	var out []verr
	run := func(p Params, prefix string) {
		if p != nil {
			p.Check(sc, &Checker{prefix: prefix, out: &out})
		}
	}
	for i := range sc.Schedule {
		run(sc.Schedule[i].Params, fmt.Sprintf("schedule[%d]", i))
	}
	for i := range sc.Workload {
		w := &sc.Workload[i]
		run(w.Params, fmt.Sprintf("workload[%d].%s", i, w.Kind))
	}
	run(sc.Policy.Params, "policy")
	return out
}

// Defaulter tells a kind's Defaults which fields the user wrote.
type Defaulter struct {
	prefix string
	given  func(string) bool
}

// Given reports whether the block's field key (its YAML name, e.g. "threads") was written in
// the file or an override; an explicit zero is given and is left for Check to judge.
func (d Defaulter) Given(key string) bool { return d.given(joinPath(d.prefix, key)) }

// GivenPath is Given for any full path of the scenario ("mysql.innodb_sort_buffer_size").
func (d Defaulter) GivenPath(path string) bool { return d.given(path) }

// Def sets field key with set when it was not written and is still zero.
func (d Defaulter) Def(key string, zero bool, set func()) {
	if zero && !d.Given(key) {
		set()
	}
}

// DefPath is Def for any full path of the scenario.
func (d Defaulter) DefPath(path string, zero bool, set func()) {
	if zero && !d.given(path) {
		set()
	}
}

// defaultKinds applies every kind's defaults.
func defaultKinds(sc *Scenario, given func(string) bool) {
	at := func(prefix string) Defaulter { return Defaulter{prefix: prefix, given: given} }
	for i := range sc.Schedule {
		if p := sc.Schedule[i].Params; p != nil {
			p.Defaults(sc, at(fmt.Sprintf("schedule[%d]", i)))
		}
	}
	for i := range sc.Workload {
		w := &sc.Workload[i]
		if w.Params != nil {
			w.Params.Defaults(sc, at(fmt.Sprintf("workload[%d].%s", i, w.Kind)))
		}
	}
	if p := sc.Policy.Params; p != nil {
		p.Defaults(sc, at("policy"))
	}
}

// NoParams is the parameter block of a kind that takes none.
type NoParams struct{}

func (*NoParams) Defaults(*Scenario, Defaulter) {}
func (*NoParams) Check(*Scenario, *Checker)     {}
