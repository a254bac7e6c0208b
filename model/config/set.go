package config

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Set changes one field of a loaded scenario by its YAML path, parsing value exactly as the
// YAML loader would (units included):
//
//	Set(sc, "mysql.innodb_buffer_pool_size", "24GiB")
//	Set(sc, "workload[0].sysbench.threads", "64")
//	Set(sc, "policy", "{name: indexed, batch: 256}")
//	Set(sc, "hardware.cores", "16")          // edits the resolved profile
//
// A list index equal to the list's length appends an element. Set does not re-apply
// defaults or validate; to change a field that other defaults derive from (the pool size
// decides the instance count), prefer LoadWith, which applies overrides before defaults.
func Set(sc *Scenario, path, value string) error {
	d := &decoder{file: "--set", noPos: true}
	setPath(d, sc, path, value)
	if len(d.errs) > 0 {
		return d.errs
	}
	return nil
}

// shorthand expands a --set path that names no scenario field but a field many entries
// have: `method` is schedule[N].method of every schedule entry whose operation has a
// method field (create_index: native, pt-osc or gh-ost; docs/osc.md), in order, so
// `--vary method=native,pt-osc,gh-ost` compares the three ways of running the scenario's
// ALTERs. ok is false for any other path.
func shorthand(sc *Scenario, path string) (paths []string, ok bool) {
	if path != "method" {
		return nil, false
	}
	for i, e := range sc.Schedule {
		if e.Params == nil {
			continue
		}
		v := reflect.ValueOf(e.Params)
		for v.Kind() == reflect.Pointer {
			v = v.Elem()
		}
		if v.Kind() != reflect.Struct {
			continue
		}
		if _, has := field(v, "method"); has {
			paths = append(paths, fmt.Sprintf("schedule[%d].method", i))
		}
	}
	return paths, true
}

// pathSeg is one step of a YAML path: a key, or an index when key == "".
type pathSeg struct {
	key   string
	index int
}

func parsePath(path string) ([]pathSeg, error) {
	if path == "" {
		return nil, fmt.Errorf("empty path")
	}
	var segs []pathSeg
	for _, part := range strings.Split(path, ".") {
		key, rest, _ := strings.Cut(part, "[")
		if key == "" && len(segs) == 0 {
			return nil, fmt.Errorf("path must start with a key")
		}
		if key != "" {
			segs = append(segs, pathSeg{key: key})
		} else if rest == "" {
			return nil, fmt.Errorf("empty key in path")
		}
		for rest != "" {
			num, after, ok := strings.Cut(rest, "]")
			i, err := strconv.Atoi(num)
			if !ok || err != nil || i < 0 {
				return nil, fmt.Errorf("bad list index [%s", rest)
			}
			segs = append(segs, pathSeg{index: i})
			if after == "" {
				break
			}
			if !strings.HasPrefix(after, "[") {
				return nil, fmt.Errorf("unexpected %q after index", after)
			}
			rest = after[1:]
		}
	}
	return segs, nil
}

var scenarioType = reflect.TypeFor[Scenario]()

// field steps from a struct value to the field with YAML key name. The scenario's
// "hardware" key leads to the resolved profile, which is where every hardware setting
// lives after loading.
func field(v reflect.Value, name string) (reflect.Value, bool) {
	if v.Type() == scenarioType && name == "hardware" {
		return v.FieldByName("HardwareProfile"), true
	}
	idx, ok := fieldsOf(v.Type()).byName[name]
	if !ok {
		return reflect.Value{}, false
	}
	return v.Field(idx), true
}

func setPath(d *decoder, sc *Scenario, path, value string) {
	segs, err := parsePath(path)
	if err != nil {
		d.fail(nil, path, "", err.Error())
		return
	}
	v := reflect.ValueOf(sc).Elem()
	cur := ""
	for i, s := range segs {
		for v.Kind() == reflect.Pointer {
			if v.IsNil() {
				v.Set(reflect.New(v.Type().Elem()))
			}
			v = v.Elem()
		}
		switch {
		case v.Type() == policySpecType && s.key != "":
			p := v.Addr().Interface().(*PolicySpec)
			if s.key == "name" {
				if i != len(segs)-1 {
					d.fail(nil, path, "", "policy.name is a name")
					return
				}
				if p.Name != value || p.Params == nil {
					p.Name, p.Params = value, nil
					d.newParams(nil, policyKinds, value, &p.Params, path)
				}
				d.record(joinPath(cur, s.key), value)
				return
			}
			if p.Params == nil {
				d.fail(nil, path, "", fmt.Sprintf("policy %q has no parameters to set (unknown policy)", p.Name))
				return
			}
			f, ok := field(reflect.ValueOf(p.Params).Elem(), s.key)
			if !ok {
				d.fail(nil, path, "", unknownParamMsg("policy "+p.Name, s.key, p.Params))
				return
			}
			v, cur = f, joinPath(cur, s.key)
		case v.Type() == ddlEventType && s.key != "":
			e := v.Addr().Interface().(*DDLEvent)
			if s.key == "ddl" && i == len(segs)-1 {
				if e.DDL != value || e.Params == nil {
					e.DDL, e.Params = value, nil
					d.newParams(nil, ddlKinds, value, &e.Params, path)
				}
				d.record(joinPath(cur, s.key), value)
				return
			}
			if f, ok := field(v, s.key); ok {
				v, cur = f, joinPath(cur, s.key)
				break
			}
			if e.Params == nil {
				d.fail(nil, path, "", fmt.Sprintf("set %s.ddl first: the operation decides which fields exist", cur))
				return
			}
			f, ok := field(reflect.ValueOf(e.Params).Elem(), s.key)
			if !ok {
				d.fail(nil, path, "", unknownParamMsg(e.DDL, s.key, e.Params, fieldsOf(ddlEventType).names...))
				return
			}
			v, cur = f, joinPath(cur, s.key)
		case v.Type() == workloadType && s.key != "":
			w := v.Addr().Interface().(*Workload)
			if w.Params == nil {
				w.Kind = s.key
				if !d.newParams(nil, workloadKinds, s.key, &w.Params, path) {
					return
				}
			} else if w.Kind != s.key {
				d.fail(nil, path, "", fmt.Sprintf("%s is a %s workload: use %s.%s", cur, w.Kind, cur, w.Kind))
				return
			}
			v, cur = reflect.ValueOf(w.Params).Elem(), joinPath(cur, s.key)
		case v.Type() == quantilePointType && s.key == "" && s.index < 2:
			q := v.Addr().Interface().(*QuantilePoint)
			if s.index == 0 {
				v = reflect.ValueOf(&q.Q).Elem()
			} else {
				v = reflect.ValueOf(&q.Value).Elem()
			}
			cur = fmt.Sprintf("%s[%d]", cur, s.index)
		case v.Type() == mysqlType && s.key != "":
			// MySQL's spellings, as in the file (mysqlvars.go).
			name := MySQLName(s.key)
			if f, ok := field(v, name); ok {
				v, cur = f, joinPath(cur, name)
				break
			}
			if rest, ok := strings.CutPrefix(name, "loose_"); ok || IsServerVariable(name) {
				if ok {
					name = rest
				}
				if i == len(segs)-1 {
					m := v.Addr().Interface().(*MySQL)
					m.Ignored = append(m.Ignored, name)
					d.record(joinPath(cur, name), value)
					return
				}
			}
			d.fail(nil, path, "", unknownMySQLMsg(name))
			return
		case s.key != "":
			if v.Kind() == reflect.Slice {
				d.fail(nil, path, "", fmt.Sprintf("%s is a list: use %s[N].%s", cur, cur, s.key))
				return
			}
			if v.Kind() != reflect.Struct {
				d.fail(nil, path, "", fmt.Sprintf("%s has no fields", orRoot(cur)))
				return
			}
			f, ok := field(v, s.key)
			if !ok && renamedTo(joinPath(cur, s.key)) != "" {
				d.fail(nil, path, "", fmt.Sprintf("%s: renamed; use %s", s.key, renamedTo(joinPath(cur, s.key))))
				return
			}
			if !ok {
				d.fail(nil, path, "", fmt.Sprintf("unknown key %q in %s; valid keys: %s", s.key, orRoot(cur), strings.Join(fieldsOf(v.Type()).names, ", ")))
				return
			}
			v, cur = f, joinPath(cur, s.key)
		default:
			if v.Kind() != reflect.Slice {
				d.fail(nil, path, "", fmt.Sprintf("%s is not a list", orRoot(cur)))
				return
			}
			if s.index > v.Len() {
				d.fail(nil, path, "", fmt.Sprintf("index %d out of range: %s has %d entries (index %d appends)", s.index, cur, v.Len(), v.Len()))
				return
			}
			if s.index == v.Len() {
				v.Set(reflect.Append(v, reflect.Zero(v.Type().Elem())))
			}
			v, cur = v.Index(s.index), fmt.Sprintf("%s[%d]", cur, s.index)
		}
	}
	if v.Type() == hardwareRefType {
		d.fail(nil, path, value, "the hardware profile file can only be replaced when loading (LoadWith)")
		return
	}
	if v.Kind() == reflect.String {
		v.SetString(value) // taken verbatim: "description=a: b" is text, not a mapping
		d.record(cur, value)
		return
	}
	if strings.TrimSpace(value) == "" {
		reset(d, v, cur)
		return
	}
	var doc yaml.Node
	if err := yaml.Unmarshal([]byte(value), &doc); err != nil {
		d.fail(nil, cur, value, "not a YAML value: "+strings.TrimPrefix(err.Error(), "yaml: "))
		return
	}
	n := &yaml.Node{Kind: yaml.ScalarNode, Tag: "!!str", Value: value}
	if doc.Kind == yaml.DocumentNode && len(doc.Content) == 1 {
		n = doc.Content[0]
	}
	if isNull(n) {
		reset(d, v, cur)
		return
	}
	d.decode(n, v, cur)
}

// reset is "path=" (or "path=null"): the field is set to its zero value and counts as not
// written, so the default applies where there is one (--set mysql.innodb_buffer_pool_size=
// is MySQL's 128MiB again, whatever the file said).
func reset(d *decoder, v reflect.Value, path string) {
	v.Set(reflect.Zero(v.Type()))
	if d.seen != nil {
		delete(d.seen, path)
		d.forget(path)
	}
}

// record notes that path was given (defaults leave it alone).
func (d *decoder) record(path, value string) {
	if d.seen != nil {
		d.seen[path] = Pos{File: d.file, Value: value}
	}
}

// unknownParamMsg is the message for a key that kind's block (and the common fields) lack.
func unknownParamMsg(kind, key string, p Params, common ...string) string {
	valid := append(common, fieldsOf(reflect.TypeOf(p).Elem()).names...)
	if len(valid) == 0 {
		return fmt.Sprintf("unknown key %q: %s takes no parameters", key, kind)
	}
	return fmt.Sprintf("unknown key %q for %s; valid keys: %s", key, kind, strings.Join(valid, ", "))
}

func orRoot(p string) string {
	if p == "" {
		return "the scenario"
	}
	return p
}
