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
			// policy.name or policy.<param>: parameters are free-form strings.
			if i != len(segs)-1 {
				d.fail(nil, path, "", "policy parameters are scalars")
				return
			}
			p := v.Addr().Interface().(*PolicySpec)
			if s.key == "name" {
				p.Name = value
			} else {
				if p.Params == nil {
					p.Params = map[string]string{}
				}
				p.Params[s.key] = value
			}
			d.record(joinPath(cur, s.key), value)
			return
		case v.Type() == quantilePointType && s.key == "" && s.index < 2:
			q := v.Addr().Interface().(*QuantilePoint)
			if s.index == 0 {
				v = reflect.ValueOf(&q.Q).Elem()
			} else {
				v = reflect.ValueOf(&q.Value).Elem()
			}
			cur = fmt.Sprintf("%s[%d]", cur, s.index)
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
		// "x=" asks for the zero value (and so, for most fields, the default).
		v.Set(reflect.Zero(v.Type()))
		return
	}
	d.decode(n, v, cur)
}

// record notes that path was given (defaults leave it alone).
func (d *decoder) record(path, value string) {
	if d.seen != nil {
		d.seen[path] = Pos{File: d.file, Value: value}
	}
}

func orRoot(p string) string {
	if p == "" {
		return "the scenario"
	}
	return p
}
