package config

import (
	"errors"
	"fmt"
	"math"
	"os"
	"reflect"
	"slices"
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
	// dir is the directory of the file being decoded: profile and device references
	// (base:, a device preset's path) are resolved from it. depth counts the base: files
	// being decoded around this one (a chain of profiles that build on each other).
	dir   string
	depth int
	// chain lists the files that built on the one being decoded, outermost first, so a
	// cycle of base: references is named as one.
	chain []string
	// steps counts values visited. YAML aliases let a small file name a value exponentially
	// many times ("billion laughs"); past maxDecodeSteps the decoder stops descending.
	steps int
}

// maxDecodeSteps bounds the values one file decodes to, aliases expanded: a 1 MiB file has
// at most about 500 000 values, so this only stops alias bombs.
const maxDecodeSteps = 1 << 22

var (
	sizeType          = reflect.TypeFor[Size]()
	durationType      = reflect.TypeFor[Duration]()
	countType         = reflect.TypeFor[Count]()
	hardwareRefType   = reflect.TypeFor[HardwareRef]()
	policySpecType    = reflect.TypeFor[PolicySpec]()
	ddlEventType      = reflect.TypeFor[DDLEvent]()
	workloadType      = reflect.TypeFor[Workload]()
	quantilePointType = reflect.TypeFor[QuantilePoint]()
	untilType         = reflect.TypeFor[Until]()
	hardwareType      = reflect.TypeFor[Hardware]()
	deviceType        = reflect.TypeFor[Device]()
	distributionType  = reflect.TypeFor[Distribution]()
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
	if d.steps++; d.steps > maxDecodeSteps {
		if d.steps == maxDecodeSteps+1 {
			d.fail(n, path, "", fmt.Sprintf("more than %d values after expanding YAML aliases: the file names an anchor too many times", maxDecodeSteps))
		}
		return
	}
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
		if path == "duration" && n.Kind == yaml.ScalarNode && n.Value == UntilDDLDoneDuration {
			// The loader turns this into until: ddl_done (it reads the text from seen);
			// duration stays unset and takes the cap's default.
			if d.seen == nil {
				d.fail(n, path, n.Value, "until_ddl_done is set through the loader (LoadWith), not Set")
			}
			return
		}
		d.unit(n, v, path)
		return
	case untilType:
		u := v.Addr().Interface().(*Until)
		if n.Kind == yaml.ScalarNode {
			*u = Until{Event: n.Value}
			if d.seen != nil {
				d.seen[path+".event"] = d.seen[path]
			}
			return
		}
		d.structure(n, v, path)
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
	case ddlEventType:
		d.ddlEvent(n, v.Addr().Interface().(*DDLEvent), path)
		return
	case workloadType:
		d.workload(n, v.Addr().Interface().(*Workload), path)
		return
	case mysqlType:
		d.mysqlBlock(n, v, path)
		return
	case hardwareType, deviceType:
		if n.Kind == yaml.ScalarNode && v.Type() == deviceType {
			d.based(n, n, v, path) // a device preset by name, or a device file
			return
		}
		if n.Kind == yaml.MappingNode {
			if b := mappingValue(n, "base"); b != nil {
				d.based(n, b, v, path)
				return
			}
		}
		d.structure(n, v, path)
		return
	case distributionType:
		// A distribution is replaced as a whole, never merged field by field: a lognormal's
		// p99 must not survive a profile built on it that says {dist: constant, value: 1ms}.
		if n.Kind == yaml.MappingNode {
			d.forget(path)
			v.Set(reflect.Zero(v.Type()))
		}
		d.structure(n, v, path)
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
		if err != nil && mysqlField(path) != "" {
			i, err = mycnfInt(scalarText(n), v.Type().Bits()) // innodb_io_capacity: 2K, as my_getopt reads it
		}
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
	if v.Type() == durationType {
		text = nativeDuration(path, text) // mysql: innodb_old_blocks_time: 1000 is milliseconds
	}
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

// policy decodes `NAME` or `{name: NAME, param: value, ...}`: the parameters go into the
// named policy kind's typed block.
func (d *decoder) policy(n *yaml.Node, p *PolicySpec, path string) {
	switch n.Kind {
	case yaml.ScalarNode:
		*p = PolicySpec{Name: n.Value}
		d.newParams(n, policyKinds, n.Value, &p.Params, path+".name")
	case yaml.MappingNode:
		*p = PolicySpec{}
		name := mappingValue(n, "name")
		if name == nil {
			d.fail(n, path+".name", "", "missing: a policy mapping needs name")
			return
		}
		if name.Kind != yaml.ScalarNode {
			d.fail(name, path+".name", "", fmt.Sprintf("found a %s: expected a policy name", kindName(name)))
			return
		}
		p.Name = name.Value
		d.recordNode(name, path+".name")
		if !d.newParams(name, policyKinds, name.Value, &p.Params, path+".name") {
			return
		}
		d.mixed(n, path, reflect.Value{}, map[string]bool{"name": true}, p.Params)
	default:
		d.fail(n, path, "", fmt.Sprintf("found a %s: expected a policy name or {name: ..., param: value}", kindName(n)))
	}
}

// ddlEvent decodes one schedule entry: the common scheduling fields into the DDLEvent, the
// rest into the typed block of the operation its `ddl` key names.
func (d *decoder) ddlEvent(n *yaml.Node, e *DDLEvent, path string) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected a mapping such as {at: 10s, ddl: create_index, table: sbtest, columns: [c]}", kindName(n)))
		return
	}
	*e = DDLEvent{}
	known := false
	if op := mappingValue(n, "ddl"); op == nil {
		d.fail(n, path+".ddl", "", "missing: expected a DDL operation ("+strings.Join(ddlKinds.names(), ", ")+")")
	} else if op.Kind == yaml.ScalarNode {
		known = d.newParams(op, ddlKinds, op.Value, &e.Params, path+".ddl")
	}
	var skip map[string]bool
	if at := mappingValue(n, "at"); at != nil && at.Kind == yaml.MappingNode {
		skip = map[string]bool{"at": true}
		d.afterAt(at, e, path+".at")
	}
	d.mixed(n, path, reflect.ValueOf(e).Elem(), skip, e.Params)
	if !known && d.failed != nil {
		// The operation's own fields cannot be judged; the unknown name was reported.
		d.failed[path+".ddl"] = true
	}
}

// workload decodes `KIND: {parameters}` into the kind's typed block.
func (d *decoder) workload(n *yaml.Node, w *Workload, path string) {
	*w = Workload{}
	if n.Kind != yaml.MappingNode || len(n.Content) != 2 {
		what := kindName(n)
		if n.Kind == yaml.MappingNode {
			what = fmt.Sprintf("mapping with %d keys", len(n.Content)/2)
		}
		d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected one workload per list entry, a mapping with one key (%s)", what, strings.Join(workloadKinds.names(), ", ")))
		return
	}
	k, val := n.Content[0], n.Content[1]
	w.Kind = k.Value
	kp := joinPath(path, k.Value)
	if !d.newParams(k, workloadKinds, k.Value, &w.Params, kp) {
		return
	}
	d.decode(val, reflect.ValueOf(w.Params).Elem(), kp)
}

// newParams looks kind name up in f and stores a fresh parameter block in *p; an unknown name
// is reported at n (path) and leaves *p nil.
func (d *decoder) newParams(n *yaml.Node, f *family, name string, p *Params, path string) bool {
	k, ok := f.get(name)
	if !ok {
		d.fail(n, path, name, f.unknown(name))
		return false
	}
	*p = k.New()
	return true
}

// mixed decodes a mapping whose keys belong either to the struct common (the fields shared by
// every kind; may be invalid) or to the kind's block params (may be nil), skipping the keys in
// skip. An unknown key is reported with the keys both accept.
func (d *decoder) mixed(n *yaml.Node, path string, common reflect.Value, skip map[string]bool, params Params) {
	var cf, pf *structFields
	var pv reflect.Value
	if common.IsValid() {
		cf = fieldsOf(common.Type())
	}
	if params != nil {
		pv = reflect.ValueOf(params).Elem()
		pf = fieldsOf(pv.Type())
	}
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
		if skip[k.Value] {
			continue
		}
		if cf != nil {
			if idx, ok := cf.byName[k.Value]; ok {
				d.decode(val, common.Field(idx), kp)
				continue
			}
		}
		if pf != nil {
			if idx, ok := pf.byName[k.Value]; ok {
				d.decode(val, pv.Field(idx), kp)
				continue
			}
		}
		if params == nil && common.IsValid() {
			continue // the kind is unknown (reported): its fields cannot be judged
		}
		var valid []string
		for k := range skip {
			valid = append(valid, k)
		}
		if cf != nil {
			valid = append(valid, cf.names...)
		}
		if pf != nil {
			valid = append(valid, pf.names...)
		}
		if len(valid) == 0 {
			d.fail(k, kp, "", "unknown field; this kind takes no parameters")
			continue
		}
		d.fail(k, kp, "", unknownFieldMsg(k.Value, valid))
	}
}

// mappingValue returns the value of key in mapping n, or nil.
func mappingValue(n *yaml.Node, key string) *yaml.Node {
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			return n.Content[i+1]
		}
	}
	return nil
}

// recordNode notes where path's scalar was written.
func (d *decoder) recordNode(n *yaml.Node, path string) {
	if d.seen == nil {
		return
	}
	p := Pos{File: d.file, Value: scalarText(n)}
	if !d.noPos {
		p.Line, p.Col = n.Line, n.Column
	}
	d.seen[path] = p
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
		if k.Value == "base" && takesBase(v.Type()) {
			continue // read by based, before the other keys
		}
		idx, ok := fs.byName[k.Value]
		if !ok && renamedTo(kp) != "" {
			d.fail(k, kp, "", "renamed; use "+renamedTo(kp))
			continue
		}
		if !ok {
			names := fs.names
			if takesBase(v.Type()) {
				names = append([]string{"base"}, names...)
			}
			d.fail(k, kp, "", unknownFieldMsg(k.Value, names))
			continue
		}
		d.decode(val, v.Field(idx), kp)
	}
}

// takesBase reports whether a mapping of type t may build on a shipped or other file with
// base: (hardware profiles and storage devices).
func takesBase(t reflect.Type) bool { return t == hardwareType || t == deviceType }

// maxBaseDepth bounds a chain of profiles built on each other (and so a cycle).
const maxBaseDepth = 8

// based decodes a profile or device that builds on another file: ref (the base: value, or
// the device scalar itself) names a shipped profile or device preset, or a file relative to
// the one being decoded. The base is decoded first, from its own file (its errors point
// into it), then the keys of n other than base: on top of it, field by field — except
// distributions, which are replaced whole. A profile built on another without a name of
// its own is called BASE+custom.
func (d *decoder) based(n, ref *yaml.Node, v reflect.Value, path string) {
	kind := profileRef
	if v.Type() == deviceType {
		kind = deviceRef
	}
	refPath := joinPath(path, "base")
	if ref == n {
		refPath = path
	}
	if ref.Kind != yaml.ScalarNode || ref.Value == "" {
		d.fail(ref, refPath, scalarText(ref), fmt.Sprintf("found a %s: expected a shipped %s name (%s) or a file path",
			kindName(ref), kind.what, strings.Join(shippedNames(kind.dir), ", ")))
		return
	}
	if d.depth >= maxBaseDepth {
		d.fail(ref, refPath, ref.Value, fmt.Sprintf("more than %d files built on each other: is there a cycle of base: references?", maxBaseDepth))
		if d.failed != nil {
			d.failed[path] = true
		}
		return
	}
	dir := d.dir
	if dir == "" {
		dir = "."
	}
	root, ok := d.readBase(ref, refPath, dir, kind)
	if !ok {
		// The fields the base would have given are not missing: they are unknown. The
		// overlay's own keys are still checked.
		if d.failed != nil {
			d.failed[path] = true
		}
		if ref != n {
			d.structure(n, v, path)
		}
		return
	}
	file := root.file
	chain := append(append([]string(nil), d.chain...), d.file)
	if slices.Contains(chain, file) {
		// Reported alone: the fields the cycle would have given are unknown, not missing.
		d.fail(ref, refPath, ref.Value, "base: references form a cycle: "+strings.Join(append(chain[slices.Index(chain, file):], file), " → ")+"; one of them must build on a shipped profile or none")
		if d.failed != nil {
			d.failed[path] = true
		}
		return
	}
	// The base replaces whatever the field held; its values are recorded as written in it.
	// The field's own position stays the one in this file.
	keep, kept := Pos{}, false
	if d.seen != nil {
		keep, kept = d.seen[path]
	}
	d.forget(path)
	v.Set(reflect.Zero(v.Type()))
	sub := &decoder{file: file, dir: Dir(file), depth: d.depth + 1, chain: chain, seen: d.seen, failed: d.failed, steps: d.steps}
	sub.decode(root.node, v, path)
	d.steps = sub.steps
	d.errs = append(d.errs, sub.errs...)
	if kept {
		d.seen[path] = keep
	}
	if ref == n {
		return
	}
	d.structure(n, v, path)
	if hw, ok := v.Addr().Interface().(*Hardware); ok && mappingValue(n, "name") == nil && len(n.Content) > 2 {
		hw.Name += "+custom"
	}
}

// baseFile is a parsed base file.
type baseFile struct {
	node *yaml.Node
	file string
}

// readBase resolves, reads and parses the file a base reference names; a failure is
// reported at ref.
func (d *decoder) readBase(ref *yaml.Node, refPath, dir string, kind refKind) (baseFile, bool) {
	file, err := resolveRef(ref.Value, dir, kind)
	if err != nil {
		d.fail(ref, refPath, ref.Value, err.Error())
		return baseFile{}, false
	}
	data, err := ReadInput(file)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		d.fail(ref, refPath, ref.Value, fmt.Sprintf("cannot read %s %s: %v", kind.what, file, err))
		return baseFile{}, false
	}
	root, fe := parseYAML(file, data)
	if fe != nil {
		d.errs = append(d.errs, fe)
		return baseFile{}, false
	}
	return baseFile{root, file}, true
}

// forget drops what was recorded under path (not path itself): a value replaced as a whole
// must not leave the positions of its old fields behind.
func (d *decoder) forget(path string) {
	for p := range d.seen {
		if isUnder(p, path) {
			delete(d.seen, p)
		}
	}
}

// renamed lists the fields a scenario or profile could once name, by their path's last two
// segments, with what replaced them — so an old file gets the new names, not just "unknown
// field". From the history of the schema (git log -S on the field names): ahi_drop, the flat
// per-page AHI drop cost, became the per-record costs model/calib measures (8e742aa).
var renamed = map[string]string{
	"costs.ahi_drop": "ahi_fold, ahi_node, block_scan (the AHI drop is charged per record and per block scanned: docs/scenarios.md, costs)",
}

// renamedTo is what replaced the field at path, or "".
func renamedTo(path string) string {
	for k, v := range renamed {
		if path == k || strings.HasSuffix(path, "."+k) {
			return v
		}
	}
	return ""
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
	// A name the key begins (truncate → truncate_table), when only one does.
	var pre []string
	for _, v := range valid {
		if len(key) >= 3 && strings.HasPrefix(v, key) {
			pre = append(pre, v)
		}
	}
	if len(pre) == 1 {
		return pre[0]
	}
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

// Suggest returns the name in valid closest to key when it is close enough to be a typo, or
// "" (the rule of the "did you mean" in every message: a unique prefix, or a small edit
// distance). The command line uses it for commands and flags.
func Suggest(key string, valid []string) string { return suggest(key, valid) }

// afterAt decodes `at: {after: previous, delay: D}`: the statement starts D after the previous
// schedule entry has returned.
func (d *decoder) afterAt(n *yaml.Node, e *DDLEvent, path string) {
	if d.seen != nil {
		d.seen[path] = Pos{File: d.file, Line: n.Line, Col: n.Column}
	}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		switch k.Value {
		case "after":
			if v.Kind != yaml.ScalarNode || v.Value != AfterPrevious {
				d.fail(v, path+".after", scalarText(v), "expected previous: the statement follows the previous schedule entry")
				continue
			}
			e.After = AfterPrevious
		case "delay":
			d.decode(v, reflect.ValueOf(&e.At).Elem(), path+".delay")
		default:
			d.fail(k, path+"."+k.Value, "", "unknown key: expected after (previous) and delay (a duration), as in at: {after: previous, delay: 60s}")
		}
	}
	if e.After == "" && mappingValue(n, "after") == nil {
		d.fail(n, path+".after", "", "missing: expected after: previous (a time on the report clock is written at: 10s)")
	}
}
