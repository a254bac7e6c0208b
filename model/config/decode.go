package config

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// The decoder walks a yaml.Node tree against the schema structs by reflection. yaml.v3's own
// decoder stops reporting positions at the first custom type and has no column numbers or
// field paths; this one knows the unit types, rejects unknown keys with the list of valid
// ones, and keeps going after an error so every problem is reported at once.

// Pos is where a value was written.
type Pos struct {
	File      string
	Line, Col int
	Value     string // scalar text, "" for mappings and lists
}

type decoder struct {
	file string
	errs Errors
	// seen records the position of every non-null value decoded, by path. Defaults use it
	// to tell "absent" from "written as zero" and validation uses it to place its errors.
	seen map[string]Pos
	// failed holds paths whose value did not decode; validation stays quiet about them
	// (and everything under them) so one mistake is reported once.
	failed map[string]bool
	// noPos drops line/column: an override's value is parsed as its own tiny YAML
	// document, whose positions would point nowhere useful.
	noPos bool
}

var (
	sizeType          = reflect.TypeFor[Size]()
	durationType      = reflect.TypeFor[Duration]()
	countType         = reflect.TypeFor[Count]()
	hardwareRefType   = reflect.TypeFor[HardwareRef]()
	policySpecType    = reflect.TypeFor[PolicySpec]()
	quantilePointType = reflect.TypeFor[QuantilePoint]()
)

func reflectValueOf(p any) reflect.Value { return reflect.ValueOf(p).Elem() }

func (d *decoder) fail(n *yaml.Node, path, value, msg string) {
	e := &FieldError{File: d.file, Path: path, Value: value, Msg: msg}
	if n != nil && !d.noPos {
		e.Line, e.Col = n.Line, n.Column
	}
	d.errs = append(d.errs, e)
	if d.failed != nil && path != "" {
		d.failed[path] = true
	}
}

func isNull(n *yaml.Node) bool {
	return n.Kind == yaml.ScalarNode && n.Tag == "!!null"
}

// decode stores n into v (addressable). Null leaves v untouched, which is what "key: " with
// nothing after it means to a person: not given.
func (d *decoder) decode(n *yaml.Node, v reflect.Value, path string) {
	for depth := 0; n.Kind == yaml.AliasNode || n.Kind == yaml.DocumentNode; depth++ {
		if depth > 100 {
			d.fail(n, path, "", "alias chain too deep")
			return
		}
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) > 0 {
			n = n.Content[0]
		} else {
			return
		}
	}
	if isNull(n) {
		return
	}
	if d.seen != nil && path != "" {
		p := Pos{File: d.file}
		if !d.noPos {
			p.Line, p.Col = n.Line, n.Column
		}
		if n.Kind == yaml.ScalarNode {
			p.Value = n.Value
		}
		d.seen[path] = p
	}

	switch v.Type() {
	case sizeType, durationType, countType:
		d.unit(n, v, path)
		return
	case hardwareRefType:
		ref := v.Addr().Interface().(*HardwareRef)
		switch n.Kind {
		case yaml.ScalarNode:
			*ref = HardwareRef{Path: n.Value}
		case yaml.MappingNode:
			*ref = HardwareRef{Inline: new(Hardware)}
			d.decode(n, reflect.ValueOf(ref.Inline).Elem(), path)
		default:
			d.fail(n, path, "", fmt.Sprintf("found a %s: expected a profile file path or an inline hardware mapping", kindName(n)))
		}
		return
	case policySpecType:
		d.policy(n, v.Addr().Interface().(*PolicySpec), path)
		return
	case quantilePointType:
		q := v.Addr().Interface().(*QuantilePoint)
		if n.Kind != yaml.SequenceNode || len(n.Content) != 2 {
			d.fail(n, path, "", fmt.Sprintf("found a %s: expected a pair [quantile, latency] such as [0.99, 1ms]", describe(n)))
			return
		}
		d.decode(n.Content[0], reflect.ValueOf(&q.Q).Elem(), path+"[0]")
		d.decode(n.Content[1], reflect.ValueOf(&q.Value).Elem(), path+"[1]")
		return
	}

	switch v.Kind() {
	case reflect.Pointer:
		if v.IsNil() {
			v.Set(reflect.New(v.Type().Elem()))
		}
		d.decode(n, v.Elem(), path)
	case reflect.Struct:
		d.structure(n, v, path)
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected a list", kindName(n)))
			return
		}
		s := reflect.MakeSlice(v.Type(), len(n.Content), len(n.Content))
		for i, c := range n.Content {
			d.decode(c, s.Index(i), fmt.Sprintf("%s[%d]", path, i))
		}
		v.Set(s)
	case reflect.Map:
		if v.Type().Key().Kind() != reflect.String {
			panic(fmt.Sprintf("config: map keys must be strings at %s", path))
		}
		if n.Kind != yaml.MappingNode {
			d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected a mapping", kindName(n)))
			return
		}
		m := reflect.MakeMapWithSize(v.Type(), len(n.Content)/2)
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := n.Content[i]
			if m.MapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key())).IsValid() {
				d.fail(k, joinPath(path, k.Value), "", "duplicate key")
				continue
			}
			elem := reflect.New(v.Type().Elem()).Elem()
			d.decode(n.Content[i+1], elem, joinPath(path, k.Value))
			m.SetMapIndex(reflect.ValueOf(k.Value).Convert(v.Type().Key()), elem)
		}
		v.Set(m)
	case reflect.String:
		if n.Kind != yaml.ScalarNode {
			d.fail(n, path, "", fmt.Sprintf("found a %s: expected a string", kindName(n)))
			return
		}
		v.SetString(n.Value)
	case reflect.Bool:
		if n.Kind != yaml.ScalarNode {
			d.fail(n, path, "", fmt.Sprintf("found a %s: expected on or off", kindName(n)))
			return
		}
		b, ok := parseBool(n.Value)
		if !ok {
			d.fail(n, path, n.Value, "expected on/off, true/false, yes/no or 1/0")
			return
		}
		v.SetBool(b)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		i, err := strconv.ParseInt(scalarText(n), 10, v.Type().Bits())
		if n.Kind != yaml.ScalarNode || err != nil {
			d.fail(n, path, scalarText(n), "expected an integer")
			return
		}
		v.SetInt(i)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		u, err := strconv.ParseUint(scalarText(n), 10, v.Type().Bits())
		if n.Kind != yaml.ScalarNode || err != nil {
			d.fail(n, path, scalarText(n), "expected a non-negative integer")
			return
		}
		v.SetUint(u)
	case reflect.Float32, reflect.Float64:
		f, err := strconv.ParseFloat(scalarText(n), v.Type().Bits())
		if n.Kind != yaml.ScalarNode || err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			d.fail(n, path, scalarText(n), "expected a number")
			return
		}
		v.SetFloat(f)
	default:
		// A schema type this decoder does not know is a programming error, not user input.
		panic(fmt.Sprintf("config: no YAML decoding for %s at %s", v.Type(), path))
	}
}

func (d *decoder) unit(n *yaml.Node, v reflect.Value, path string) {
	var (
		i   int64
		err error
	)
	text := scalarText(n)
	if n.Kind != yaml.ScalarNode {
		err = fmt.Errorf("found a %s", kindName(n))
	} else {
		switch v.Type() {
		case sizeType:
			var s Size
			s, err = ParseSize(text)
			i = int64(s)
		case durationType:
			var du Duration
			du, err = ParseDuration(text)
			i = int64(du)
		default:
			var c Count
			c, err = ParseCount(text)
			i = int64(c)
		}
	}
	if err != nil {
		d.fail(n, path, text, err.Error())
		return
	}
	v.SetInt(i)
}

func (d *decoder) policy(n *yaml.Node, p *PolicySpec, path string) {
	switch n.Kind {
	case yaml.ScalarNode:
		*p = PolicySpec{Name: n.Value}
	case yaml.MappingNode:
		*p = PolicySpec{}
		keys := map[string]bool{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, val := n.Content[i], n.Content[i+1]
			kp := path + "." + k.Value
			if keys[k.Value] {
				d.fail(k, kp, "", "duplicate key")
				continue
			}
			keys[k.Value] = true
			if val.Kind != yaml.ScalarNode || isNull(val) {
				d.fail(val, kp, "", fmt.Sprintf("found a %s: policy parameters are scalars", kindName(val)))
				continue
			}
			if d.seen != nil {
				p := Pos{File: d.file, Value: val.Value}
				if !d.noPos {
					p.Line, p.Col = val.Line, val.Column
				}
				d.seen[kp] = p
			}
			if k.Value == "name" {
				p.Name = val.Value
				continue
			}
			if p.Params == nil {
				p.Params = map[string]string{}
			}
			p.Params[k.Value] = val.Value
		}
		if !keys["name"] {
			d.fail(n, path+".name", "", "missing: a policy mapping needs name")
		}
	default:
		d.fail(n, path, "", fmt.Sprintf("found a %s: expected a policy name or {name: ..., param: value}", kindName(n)))
	}
}

func (d *decoder) structure(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected a mapping with keys %s", kindName(n), strings.Join(fieldsOf(v.Type()).names, ", ")))
		return
	}
	fs := fieldsOf(v.Type())
	seenKeys := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		kp := joinPath(path, k.Value)
		if k.Kind != yaml.ScalarNode {
			d.fail(k, path, "", "mapping keys must be plain names")
			continue
		}
		if line, dup := seenKeys[k.Value]; dup {
			d.fail(k, kp, "", fmt.Sprintf("duplicate key (first given on line %d)", line))
			continue
		}
		seenKeys[k.Value] = k.Line
		idx, ok := fs.byName[k.Value]
		if !ok {
			d.fail(k, kp, "", unknownFieldMsg(k.Value, fs.names))
			continue
		}
		d.decode(val, v.Field(idx), kp)
	}
}

func unknownFieldMsg(key string, valid []string) string {
	msg := "unknown field"
	if s := suggest(key, valid); s != "" {
		msg += fmt.Sprintf(" (did you mean %s?)", s)
	}
	return msg + "; valid fields: " + strings.Join(valid, ", ")
}

func joinPath(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

func scalarText(n *yaml.Node) string {
	if n.Kind == yaml.ScalarNode {
		return n.Value
	}
	return ""
}

func describe(n *yaml.Node) string {
	if n.Kind == yaml.SequenceNode {
		return fmt.Sprintf("list of %d", len(n.Content))
	}
	return kindName(n)
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(s) {
	case "on", "true", "yes", "1":
		return true, true
	case "off", "false", "no", "0":
		return false, true
	}
	return false, false
}

// structFields is the YAML view of a struct type: key → field index, in declaration order.
type structFields struct {
	byName map[string]int
	names  []string
}

var fieldCache sync.Map // reflect.Type → *structFields

func fieldsOf(t reflect.Type) *structFields {
	if f, ok := fieldCache.Load(t); ok {
		return f.(*structFields)
	}
	fs := &structFields{byName: map[string]int{}}
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		if !f.IsExported() {
			continue
		}
		name := yamlName(f)
		if name == "-" {
			continue
		}
		fs.byName[name] = i
		fs.names = append(fs.names, name)
	}
	fieldCache.Store(t, fs)
	return fs
}

func yamlName(f reflect.StructField) string {
	tag := f.Tag.Get("yaml")
	name, _, _ := strings.Cut(tag, ",")
	if name == "" {
		return strings.ToLower(f.Name) // yaml.v3's rule, so Marshal and decode agree
	}
	return name
}

// suggest returns the valid name closest to key if it is close enough to be a typo.
func suggest(key string, valid []string) string {
	best, bestD := "", len(key)/3+2
	for _, v := range valid {
		if d := editDistance(key, v); d < bestD {
			best, bestD = v, d
		}
	}
	return best
}

func editDistance(a, b string) int {
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
