package config

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	"gopkg.in/yaml.v3"
)

// Load reads a scenario file, resolves its hardware profile, applies defaults and validates
// it. A returned error is Errors (every problem, with positions) or an *os.PathError when
// the file itself cannot be read.
func Load(path string) (*Scenario, error) { return LoadWith(path, nil, nil) }

// LoadWith is Load with command-line overrides: sets are "path=value" strings applied after
// decoding and before defaults and validation (so a bad override is reported like a bad
// field), and seed, when non-nil, replaces the file's seed.
func LoadWith(path string, sets []string, seed *uint64) (*Scenario, error) {
	path = Locate(path) // a shipped scenario by name when no such file exists
	data, err := ReadInput(path)
	if err != nil {
		return nil, err
	}
	return LoadBytesWith(path, data, Dir(path), sets, seed)
}

// LoadBytes loads a scenario from memory; name is used in error messages and as the default
// scenario name, baseDir is where a hardware profile path is resolved from (a disk directory,
// or a shipped one: Dir of a "shipped:" path).
func LoadBytes(name string, data []byte, baseDir string) (*Scenario, error) {
	return LoadBytesWith(name, data, baseDir, nil, nil)
}

// LoadBytesWith is LoadBytes with overrides, see LoadWith.
func LoadBytesWith(name string, data []byte, baseDir string, sets []string, seed *uint64) (*Scenario, error) {
	l := &loader{rootFile: name, seen: map[string]Pos{}, failed: map[string]bool{}}
	sc := new(Scenario)
	root, ok := l.parse(name, data)
	if !ok {
		// Without a document there is nothing to validate: every finding would be noise.
		return nil, l.errs
	}
	d := l.decoder(name, baseDir)
	d.decode(root, reflect.ValueOf(sc).Elem(), "")
	l.collect(d)
	l.untilSugar(sc) // before the overrides, so --set duration=30m sets the cap

	// Overrides of the hardware reference itself must happen before the profile is read;
	// every other override must happen after, so `hardware.cores=16` edits the resolved
	// profile.
	var rest []string
	for _, s := range sets {
		if p, v, _ := strings.Cut(s, "="); strings.TrimSpace(p) == "hardware" && !looksLikeMapping(v) {
			sc.Hardware = HardwareRef{Path: v}
			l.seen["hardware"] = Pos{File: "--set", Value: v}
			continue
		}
		rest = append(rest, s)
	}
	l.resolveHardware(sc, baseDir)
	for _, s := range rest {
		p, v, found := strings.Cut(s, "=")
		d := l.decoder("--set", ".")
		d.noPos = true
		if !found {
			d.fail(nil, "", s, "expected path=value, e.g. mysql.innodb_buffer_pool_size=24GiB")
		} else if paths, ok := shorthand(sc, strings.TrimSpace(p)); ok {
			if len(paths) == 0 {
				d.fail(nil, "method", v, "method= is shorthand for the method of every schedule entry that has one (create_index), and this scenario has none")
			}
			for _, q := range paths {
				setPath(d, sc, q, v)
			}
		} else {
			setPath(d, sc, strings.TrimSpace(p), v)
		}
		l.collect(d)
	}
	if seed != nil {
		sc.Seed = *seed
		l.seen["seed"] = Pos{File: "--seed", Value: strconv.FormatUint(*seed, 10)}
	}
	if sc.Name == "" && !l.given("name") {
		base := filepath.Base(strings.TrimPrefix(name, ShippedPrefix))
		sc.Name = strings.TrimSuffix(base, filepath.Ext(base))
	}

	l.untilSugar(sc) // from an override
	applyDefaults(sc, l.given)
	l.validation(sc)
	if len(l.errs) > 0 {
		return nil, l.errs.Sorted()
	}
	sc.Warnings = l.warnings(sc)
	sc.Origins = l.seen
	return sc, nil
}

// untilSugar turns `duration: until_ddl_done` into until: ddl_done with duration (the cap)
// left to its default.
func (l *loader) untilSugar(sc *Scenario) {
	pos, ok := l.seen["duration"]
	if !ok || pos.Value != UntilDDLDoneDuration {
		return
	}
	delete(l.seen, "duration")
	sc.Duration = 0
	if sc.Until.Event == "" {
		sc.Until.Event = UntilDDLDone
		l.seen["until.event"] = pos
	}
}

// LoadHardware reads one hardware profile file on its own (for `ddlsim list` and tools):
// a path, or a shipped profile's name. It is decoded strictly (base: included) but not
// validated.
func LoadHardware(path string) (*Hardware, error) {
	hw := new(Hardware)
	if err := loadPart(path, profileRef, hw); err != nil {
		return nil, err
	}
	return hw, nil
}

// LoadDevice reads one storage device file on its own: a path, or a device preset's name.
// It is decoded strictly but not validated.
func LoadDevice(path string) (*Device, error) {
	dev := new(Device)
	if err := loadPart(path, deviceRef, dev); err != nil {
		return nil, err
	}
	return dev, nil
}

func loadPart(path string, k refKind, v any) error {
	if isName(path) {
		p, err := resolveRef(path, ".", k)
		if err != nil {
			return err
		}
		path = p
	}
	data, err := ReadInput(path)
	if err != nil {
		return err
	}
	l := &loader{seen: map[string]Pos{}, failed: map[string]bool{}}
	if root, ok := l.parse(path, data); ok {
		d := l.decoder(path, Dir(path))
		d.decode(root, reflect.ValueOf(v).Elem(), "")
		l.collect(d)
	}
	if len(l.errs) > 0 {
		return l.errs.Sorted()
	}
	return nil
}

// DecodeFile decodes the YAML text data of file into v, a pointer to a struct declared like
// the schema (yaml tags, config's unit types), as strictly as a scenario: unknown keys with
// the valid ones, wrong types, duplicate keys, every problem with its line and column. It
// returns where each value was written, by YAML path ("validation.points[0].role"), so the
// caller can place the findings of its own rules; the errors are sorted.
func DecodeFile(file string, data []byte, v any) (map[string]Pos, Errors) {
	l := &loader{seen: map[string]Pos{}, failed: map[string]bool{}}
	if root, ok := l.parse(file, data); ok {
		d := l.decoder(file, Dir(file))
		d.decode(root, reflect.ValueOf(v).Elem(), "")
		l.collect(d)
	}
	return l.seen, l.errs.Sorted()
}

// loader carries one load's state across its phases.
type loader struct {
	rootFile string
	errs     Errors
	seen     map[string]Pos
	failed   map[string]bool
}

func (l *loader) decoder(file, dir string) *decoder {
	return &decoder{file: file, dir: dir, seen: l.seen, failed: l.failed}
}

func (l *loader) collect(d *decoder) { l.errs = append(l.errs, d.errs...) }

// given reports whether the user wrote path (in a file or an override), as opposed to it
// being absent; an explicit zero is given and is left for validation to judge.
func (l *loader) given(path string) bool {
	_, ok := l.seen[path]
	return ok
}

var yamlLineRe = regexp.MustCompile(`^yaml: line (\d+): (.*)$`)

// SyntaxError is a yaml.v3 parse error of file as a FieldError with the line yaml.v3
// reports (it gives no column).
func SyntaxError(file string, err error) *FieldError {
	fe := &FieldError{File: file, Msg: strings.TrimPrefix(err.Error(), "yaml: ")}
	if m := yamlLineRe.FindStringSubmatch(err.Error()); m != nil {
		fe.Line, _ = strconv.Atoi(m[1])
		fe.Msg = m[2]
	}
	fe.Msg = "YAML syntax: " + fe.Msg
	return fe
}

// parse turns a file into its root node; syntax errors become a FieldError.
func (l *loader) parse(file string, data []byte) (*yaml.Node, bool) {
	root, fe := parseYAML(file, data)
	if fe != nil {
		l.errs = append(l.errs, fe)
		return nil, false
	}
	return root, true
}

// parseYAML turns a file into its root node, or the FieldError saying why it cannot.
func parseYAML(file string, data []byte) (*yaml.Node, *FieldError) {
	var root yaml.Node
	if err := yaml.Unmarshal(data, &root); err != nil {
		return nil, SyntaxError(file, err)
	}
	if root.Kind == 0 || (root.Kind == yaml.DocumentNode && len(root.Content) == 0) {
		return nil, &FieldError{File: file, Msg: "empty file: expected a mapping"}
	}
	return &root, nil
}

// resolveHardware loads the profile a path points to (relative to the scenario's
// directory), decoding it with its own file name so its errors point into it. Afterwards
// HardwareProfile is the one source of truth and Hardware keeps only the path.
func (l *loader) resolveHardware(sc *Scenario, baseDir string) {
	ref := sc.Hardware
	switch {
	case ref.Inline != nil:
		sc.HardwareProfile = *ref.Inline
		sc.Hardware.Inline = nil
	case ref.Path != "":
		pos := l.seen["hardware"]
		p, err := resolveRef(ref.Path, baseDir, profileRef)
		if err == nil {
			var data []byte
			if data, err = ReadInput(p); err == nil {
				l.profile(sc, p, data)
				return
			}
			var pe *os.PathError
			if errors.As(err, &pe) {
				err = pe.Err
			}
			err = fmt.Errorf("cannot read profile %s: %v", p, err)
		}
		l.errs = append(l.errs, &FieldError{File: pos.File, Line: pos.Line, Col: pos.Col, Path: "hardware",
			Value: ref.Path, Msg: err.Error()})
		l.failed["hardware"] = true
	case !l.failed["hardware"]:
		l.errs = append(l.errs, &FieldError{File: l.rootFile, Path: "hardware",
			Msg: "missing: expected a profile path (hardware: profiles/8c-64g.yaml), a shipped profile's name (hardware: 8c-64g) or an inline hardware mapping"})
		l.failed["hardware"] = true // the profile's own checks would only repeat this
	}
}

// profile decodes the profile file p into the scenario: whatever an earlier hardware held
// (the file's own, before --set hardware=PATH) is forgotten.
func (l *loader) profile(sc *Scenario, p string, data []byte) {
	for k := range l.seen {
		if isUnder(k, "hardware") {
			delete(l.seen, k)
		}
	}
	sc.HardwareProfile = Hardware{}
	root, ok := l.parse(p, data)
	if !ok {
		l.failed["hardware"] = true
		return
	}
	d := l.decoder(p, Dir(p))
	d.decode(root, reflect.ValueOf(&sc.HardwareProfile).Elem(), "hardware")
	l.collect(d)
}

func looksLikeMapping(v string) bool {
	v = strings.TrimSpace(v)
	return strings.HasPrefix(v, "{") || strings.Contains(v, "\n")
}

// validation runs Validate's checks and places each finding at the position the user wrote
// the field (or its nearest written ancestor). Findings about a value that already failed to
// decode, or that depend on one, are dropped: one mistake, one message.
func (l *loader) validation(sc *Scenario) {
	found := append(validate(sc), l.unwrittenCosts(sc)...)
	found = append(found, l.writtenZeros(sc)...)
	judged := map[string]bool{}
	for _, e := range found {
		judged[e.path] = true
	}
	for _, e := range found {
		if l.consequence(e.path) {
			continue
		}
		skip := false
		for _, dep := range e.deps {
			skip = skip || l.consequence(dep) || judged[dep]
		}
		if skip {
			continue
		}
		l.errs = append(l.errs, l.place(e))
	}
}

// unwrittenCosts finds the cost constants a profile leaves out. A profile gets no
// defaults: a cost the model charges that nobody wrote would be 0 and make that work free
// (a profile without CPU costs ran 35k tps on 4 threads at 0% CPU). A cost is required
// unless its field says 0 means the model's default (zero:"default" in Costs); an explicit
// `NAME: 0` is accepted, as a choice.
// writtenZeros refuses a zero written where zero is the field's "unset" and not a value:
// row_size: 0 would silently mean the default row, while row_size: 3 is refused.
func (l *loader) writtenZeros(sc *Scenario) []verr {
	var out []verr
	for i, d := range sc.Data {
		p := fmt.Sprintf("data[%d].row_size", i)
		if d.RowSize == 0 && l.given(p) {
			out = append(out, verr{path: p, msg: "expected a value from 4 B to 65535 B (leave row_size out for the table kind's own row)"})
		}
	}
	return out
}

func (l *loader) unwrittenCosts(sc *Scenario) []verr {
	if l.failed["hardware"] || (sc.Hardware.IsZero() && reflect.ValueOf(sc.HardwareProfile).IsZero()) {
		return nil // no profile: that is its own error
	}
	var missing []string
	v := reflect.ValueOf(sc.HardwareProfile.Costs)
	for i := 0; i < v.NumField(); i++ {
		f := v.Type().Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
		if f.Tag.Get("zero") == "default" || !v.Field(i).IsZero() || l.given("hardware.costs."+name) {
			continue
		}
		missing = append(missing, name)
	}
	if len(missing) == 0 {
		return nil
	}
	what := "costs " + strings.Join(missing, ", ") + " are"
	if len(missing) == 1 {
		what = "cost " + missing[0] + " is"
	}
	return []verr{{path: "hardware.costs", msg: fmt.Sprintf("missing: %s not written, and a profile gets no defaults: "+
		"the model charges every cost, so a missing one would make that work free. Build on a shipped profile "+
		"(hardware: {base: 8c-64g, ...}) to take its costs, or write NAME: 0 for a cost that should be free (docs/scenarios.md, costs)", what)}}
}

// place turns a validation finding into a FieldError at the position the user wrote the
// field (or its nearest written ancestor).
func (l *loader) place(e verr) *FieldError {
	fe := &FieldError{Path: e.path, Msg: e.msg}
	// `policy: NAME` is shorthand for policy.name, so a bad name there was given.
	given := l.given(e.path) || (e.path == "policy.name" && l.given("policy"))
	if !given && strings.HasPrefix(e.msg, "expected ") {
		fe.Msg = "missing: " + e.msg // not written, and no default fits
	}
	if pos, ok := l.seen[e.path]; ok {
		fe.File, fe.Line, fe.Col, fe.Value = pos.File, pos.Line, pos.Col, pos.Value
	} else if pos, ok := l.seen["policy"]; ok && e.path == "policy.name" {
		fe.File, fe.Line, fe.Col, fe.Value = pos.File, pos.Line, pos.Col, pos.Value
	} else {
		for p := parentPath(e.path); ; p = parentPath(p) {
			if pos, ok := l.seen[p]; ok {
				fe.File, fe.Line, fe.Col = pos.File, pos.Line, pos.Col
				break
			}
			if p == "" {
				break
			}
		}
	}
	if fe.File == "" {
		fe.File = l.rootFile
	}
	return fe
}

// consequence reports whether path, an ancestor of it or a descendant failed to decode.
func (l *loader) consequence(path string) bool {
	for f := range l.failed {
		if f == path || isUnder(path, f) || isUnder(f, path) {
			return true
		}
	}
	return false
}

// isUnder reports whether path lies inside ancestor ("a.b[0].c" is under "a.b" and "a.b[0]").
func isUnder(path, ancestor string) bool {
	if ancestor == "" {
		return true
	}
	return strings.HasPrefix(path, ancestor) && len(path) > len(ancestor) &&
		(path[len(ancestor)] == '.' || path[len(ancestor)] == '[')
}

// parentPath strips the last key or index: "a.b[0]" → "a.b" → "a" → "".
func parentPath(p string) string {
	i := strings.LastIndexAny(p, ".[")
	if i < 0 {
		return ""
	}
	return p[:i]
}
