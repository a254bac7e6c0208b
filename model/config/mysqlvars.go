package config

import (
	_ "embed"
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"sync"

	"gopkg.in/yaml.v3"
)

// The mysql: block takes MySQL's own spellings, so a my.cnf section pastes in:
//
//   - a name with hyphens or underscores, in any case (my_getopt treats - and _ alike;
//     SET and SHOW VARIABLES ignore case): innodb-log-file-size is innodb_log_file_size;
//   - a bare integer in the variable's native unit, as the server reads it:
//     innodb_old_blocks_time: 1000 is 1000 ms, lock_wait_timeout: 50 is 50 s (the field's
//     `native` tag), a size is bytes (K/M/G/T suffixes binary, as my.cnf has them), a count
//     may carry a K/M/G suffix too (my_getopt's eval_num_suffix);
//   - loose-NAME, which the server accepts when NAME is unknown to it.
//
// A real server variable the model does not read (innodb_flush_method, max_connections) is
// not simulated: the loader warns once, listing all of them (MySQL.Ignored). A name that is
// no server variable is an error with the closest name. The real names are the table in
// mysqlvars.txt, which says where each section comes from.

//go:embed mysqlvars.txt
var mysqlVarsText string

var mysqlType = reflect.TypeFor[MySQL]()

type serverVars struct {
	names    map[string]bool
	prefixes []string
	sorted   []string
}

var mysqlVars = sync.OnceValue(func() *serverVars {
	s := &serverVars{names: map[string]bool{}}
	for _, line := range strings.Split(mysqlVarsText, "\n") {
		line = strings.TrimSpace(line)
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		if p, ok := strings.CutPrefix(line, "prefix:"); ok {
			s.prefixes = append(s.prefixes, MySQLName(p))
			continue
		}
		s.names[MySQLName(line)] = true
	}
	for n := range s.names {
		s.sorted = append(s.sorted, n)
	}
	sort.Strings(s.sorted)
	return s
})

// MySQLName is the canonical spelling of a MySQL variable name: lower case, hyphens as
// underscores, surrounding space trimmed.
func MySQLName(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// IsServerVariable reports whether name (any spelling) is a real MySQL, Percona Server or
// MariaDB server variable or option (the table in mysqlvars.txt).
func IsServerVariable(name string) bool {
	name = MySQLName(name)
	v := mysqlVars()
	if v.names[name] {
		return true
	}
	for _, p := range v.prefixes {
		if strings.HasPrefix(name, p) {
			return true
		}
	}
	return false
}

// MySQLFields lists the mysql: keys the model reads, in declaration order.
func MySQLFields() []string { return fieldsOf(mysqlType).names }

// mysqlNative maps a mysql: key to the unit a bare integer is in, from the fields'
// `native` tags ("ms", "s").
var mysqlNative = sync.OnceValue(func() map[string]string {
	m := map[string]string{}
	for i := 0; i < mysqlType.NumField(); i++ {
		f := mysqlType.Field(i)
		if u := f.Tag.Get("native"); u != "" {
			m[yamlName(f)] = u
		}
	}
	return m
})

// NativeUnit is the unit a bare integer of the mysql: key name is in ("" when it has none:
// a size is bytes, a count a count).
func NativeUnit(name string) string { return mysqlNative()[MySQLName(name)] }

// mysqlField returns the name of the MySQL field under path ("mysql.innodb_old_blocks_time"
// → "innodb_old_blocks_time"), or "" when path is not one.
func mysqlField(path string) string {
	name, ok := strings.CutPrefix(path, "mysql.")
	if !ok || strings.ContainsAny(name, ".[") {
		return ""
	}
	return name
}

// isBareInteger reports whether s is an optionally signed run of digits.
func isBareInteger(s string) bool {
	s = strings.TrimPrefix(strings.TrimPrefix(s, "-"), "+")
	if s == "" {
		return false
	}
	for _, c := range s {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// nativeDuration turns a bare integer written for a mysql: duration into the same value with
// its native unit ("1000" for innodb_old_blocks_time → "1000ms"); other text is unchanged.
func nativeDuration(path, text string) string {
	t := strings.TrimSpace(text)
	if u := mysqlNative()[mysqlField(path)]; u != "" && isBareInteger(t) {
		return t + u
	}
	return text
}

// mycnfInt parses an integer with my_getopt's binary suffixes (K, M, G, T, either case), as
// the server reads a numeric option: innodb_io_capacity=2K is 2048.
func mycnfInt(s string, bits int) (int64, error) {
	s = strings.TrimSpace(s)
	mult := int64(1)
	if n := len(s); n > 1 {
		switch s[n-1] {
		case 'k', 'K':
			mult = 1 << 10
		case 'm', 'M':
			mult = 1 << 20
		case 'g', 'G':
			mult = 1 << 30
		case 't', 'T':
			mult = 1 << 40
		}
		if mult > 1 {
			s = s[:n-1]
		}
	}
	i, err := strconv.ParseInt(s, 10, bits)
	if err != nil {
		return 0, err
	}
	r := i * mult
	if mult > 1 && (r/mult != i || (bits < 64 && (r >= 1<<(bits-1) || r < -(1<<(bits-1))))) {
		return 0, strconv.ErrRange
	}
	return r, nil
}

// mysqlBlock decodes the mysql: mapping with MySQL's spellings (see the top of this file).
func (d *decoder) mysqlBlock(n *yaml.Node, v reflect.Value, path string) {
	if n.Kind != yaml.MappingNode {
		d.fail(n, path, scalarText(n), fmt.Sprintf("found a %s: expected a mapping of MySQL variables (innodb_buffer_pool_size: 48GiB, ...)", kindName(n)))
		return
	}
	fs := fieldsOf(v.Type())
	m := v.Addr().Interface().(*MySQL)
	seenKeys := map[string]int{}
	for i := 0; i+1 < len(n.Content); i += 2 {
		k, val := n.Content[i], n.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			d.fail(k, path, "", "mapping keys must be plain names")
			continue
		}
		name := MySQLName(k.Value)
		loose := false
		if rest, ok := strings.CutPrefix(name, "loose_"); ok {
			name, loose = rest, true
		}
		kp := joinPath(path, name)
		if line, dup := seenKeys[name]; dup {
			d.fail(k, kp, "", fmt.Sprintf("duplicate variable (first given on line %d; hyphens and underscores are the same name)", line))
			continue
		}
		seenKeys[name] = k.Line
		if idx, ok := fs.byName[name]; ok {
			d.decode(val, v.Field(idx), kp)
			continue
		}
		if loose || IsServerVariable(name) {
			d.recordNode(k, kp)
			if d.seen != nil {
				p := d.seen[kp]
				p.Value = "" // the path names it
				d.seen[kp] = p
			}
			m.Ignored = append(m.Ignored, name)
			continue
		}
		d.fail(k, kp, "", unknownMySQLMsg(name))
	}
}

// unknownMySQLMsg is the error for a mysql: key that is no server variable.
func unknownMySQLMsg(name string) string {
	const tail = "; any other real server variable is accepted and ignored with a warning (docs/scenarios.md, mysql)"
	if s := suggest(name, MySQLFields()); s != "" {
		return fmt.Sprintf("unknown MySQL variable (did you mean %s?)", s)
	}
	if s := suggest(name, mysqlVars().sorted); s != "" {
		return fmt.Sprintf("unknown MySQL variable (did you mean %s? a real variable the model does not use, accepted with a warning)", s)
	}
	return "unknown MySQL variable: the model reads " + strings.Join(MySQLFields(), ", ") + tail
}

// ignoredWarning is the one warning listing the real variables a scenario set that the model
// does not read.
func ignoredWarning(m *MySQL) []verr {
	if len(m.Ignored) == 0 {
		return nil
	}
	names := append([]string(nil), m.Ignored...)
	sort.Strings(names)
	what := fmt.Sprintf("%d MySQL variables the model does not use are ignored", len(names))
	if len(names) == 1 {
		what = "a MySQL variable the model does not use is ignored"
	}
	return []verr{{path: "mysql." + m.Ignored[0], msg: fmt.Sprintf(
		"%s (the simulation runs as if they were at their defaults): %s", what, strings.Join(names, ", "))}}
}

// MySQLValue parses value as the mysql: key name takes it (MySQL's spellings and native
// units) and returns its canonical text ("48G" for innodb_buffer_pool_size → "48GiB",
// "1000" for innodb_old_blocks_time → "1s"). It reports an error for a key the model does
// not read.
func MySQLValue(name, value string) (string, error) {
	name = MySQLName(name)
	if _, ok := field(reflect.ValueOf(&MySQL{}).Elem(), name); !ok {
		return "", fmt.Errorf("%s: not a variable the model reads", name)
	}
	var sc Scenario
	if err := Set(&sc, "mysql."+name, value); err != nil {
		return "", err
	}
	f, _ := field(reflect.ValueOf(&sc.MySQL).Elem(), name)
	return mysqlText(name, f)
}

// MySQLDefault is the canonical text of the value a scenario of the given version simulates
// for the mysql: key name when it is left out (the server's compiled-in default, with the
// startup adjustments ApplyDefaults makes).
func MySQLDefault(ver, name string) (string, error) {
	name = MySQLName(name)
	if _, ok := field(reflect.ValueOf(&MySQL{}).Elem(), name); !ok {
		return "", fmt.Errorf("%s: not a variable the model reads", name)
	}
	var sc Scenario
	sc.MySQL.Version = ver
	ApplyDefaults(&sc)
	f, _ := field(reflect.ValueOf(&sc.MySQL).Elem(), name)
	return mysqlText(name, f)
}

func mysqlText(name string, f reflect.Value) (string, error) {
	if f.Kind() == reflect.Pointer {
		if f.IsNil() {
			return "", fmt.Errorf("%s: no value", name)
		}
		f = f.Elem()
	}
	switch x := f.Interface().(type) {
	case bool:
		if x {
			return "on", nil
		}
		return "off", nil
	case string:
		return x, nil
	case fmt.Stringer:
		return x.String(), nil
	case float64:
		return strconv.FormatFloat(x, 'f', -1, 64), nil
	}
	return fmt.Sprint(f.Interface()), nil
}
