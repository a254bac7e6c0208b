// Package mycnf reads what a DBA has at hand about a real server — its my.cnf, the output of
// SHOW GLOBAL VARIABLES and SHOW GLOBAL STATUS, and lscpu, free -b and lsblk — and turns it
// into a ddlsim scenario and hardware profile to edit (`ddlsim import`, docs/cli.md).
//
// The option-file rules are MySQL's (my_default.cc, my_getopt.cc; the manual's "Using Option
// Files"): groups in brackets, `name` or `name=value` with spaces allowed around `=`; `#`
// and `;` begin a comment line, `#` after a value begins a comment; values may be quoted with ' or " (escapes \n \t \\ \s \" \'); `-` and `_` are the
// same in names; prefixes skip-, disable- (the boolean off), enable- (on), loose- (ignore the
// option when unknown), maximum- (a limit for SET, not a value); a later setting wins.
package mycnf

import (
	"bufio"
	"fmt"
	"io"
	"iter"
	"regexp"
	"strings"
	"unicode/utf8"
)

// Setting is one option read from an input, in its canonical name (lower case, underscores,
// prefixes removed).
type Setting struct {
	Name  string
	Value string
	Raw   string // the line as written (for the comment that says where a value came from)
	Where string // "my.cnf:12" or "variables:88"
	Loose bool   // written loose-NAME: the server ignores it when it does not know NAME
	Limit bool   // written maximum-NAME: a limit on SET, not a value
}

// File is the settings of one my.cnf, the groups read and the directives not followed.
type File struct {
	Settings []Setting // in file order; a later setting of a name wins
	Groups   []string  // the [mysqld]-family groups read, in order of appearance
	Skipped  []string  // other groups, which the server does not read
	Includes []string  // !include and !includedir lines, not followed
}

// serverGroup reports whether a my.cnf group is read by the server: [mysqld], [server],
// [mysqld-8.0] (a version's own group), [mariadb], [mariadbd], [mariadb-10.11]. The
// wrappers' groups ([mysqld_safe], [mysqld_multi]) and the clients' are not.
func serverGroup(g string) bool {
	g = strings.ToLower(strings.TrimSpace(g))
	for _, base := range []string{"mysqld", "server", "mariadb", "mariadbd"} {
		if g == base {
			return true
		}
		if rest, ok := strings.CutPrefix(g, base+"-"); ok && versionSuffix.MatchString(rest) {
			return true
		}
	}
	return false
}

var rowsInSet = regexp.MustCompile(`^\d+ rows? in set`)

var versionSuffix = regexp.MustCompile(`^[0-9]+(\.[0-9]+)*$`)

// Name is the canonical spelling of an option name: lower case, hyphens as underscores.
func Name(s string) string {
	return strings.ReplaceAll(strings.ToLower(strings.TrimSpace(s)), "-", "_")
}

// Problems is every problem found in the inputs, each "file:line: what, what to do", in
// the order found: an import reports them all at once.
type Problems []string

func (p Problems) Error() string { return strings.Join(p, "\n") }

// err is p as an error, nil when empty.
func (p Problems) err() error {
	if len(p) == 0 {
		return nil
	}
	return p
}

// controlRune reports the first character of a line that no text these commands print
// holds: a C0 control character other than TAB (a CR before the line's end is allowed: a
// file written on Windows), DEL, a C1 control (U+0080-U+009F), a Unicode line or paragraph
// separator, a byte-order mark inside the text, or U+FFFE/U+FFFF. Such a character is a
// binary file or a paste gone wrong, and written into a scenario it would be a value nobody
// can see (or a line break YAML reads).
func controlRune(line string) (rune, int, bool) {
	line = strings.TrimSuffix(line, "\r")
	for i, r := range line {
		if (r < 0x20 && r != '\t') || (r >= 0x7f && r <= 0x9f) || r == 0x2028 || r == 0x2029 || r == 0xfeff || r == 0xfffe || r == 0xffff {
			return r, i + 1, true
		}
	}
	return 0, 0, false
}

// checkLine returns the line as text (a byte-order mark at the start of the file dropped)
// or the problem with it: not UTF-8, or a control character (controlRune), with its column.
func checkLine(file string, line int, raw string) (string, string, bool) {
	if line == 1 {
		raw = strings.TrimPrefix(raw, "\ufeff")
	}
	if !utf8.ValidString(raw) {
		col := 1
		for i, r := range raw {
			if r == utf8.RuneError {
				col = i + 1
				break
			}
		}
		return raw, fmt.Sprintf("%s:%d:%d: a byte that is not UTF-8 text: expected the text the command prints (save the file as UTF-8)", file, line, col), true
	}
	c, col, bad := controlRune(raw)
	if !bad {
		return raw, "", false
	}
	return raw, fmt.Sprintf("%s:%d:%d: control character %U in the text: expected the plain text the command prints (is this a binary file, or a copy with a terminal's escape codes?)", file, line, col, c), true
}

// checkedLines yields the scanner's lines that checkLine accepts, numbered from 1; each
// refused line's problem is appended to probs. The caller checks sc.Err() after the loop.
func checkedLines(sc *bufio.Scanner, file string, probs *Problems) iter.Seq2[int, string] {
	return func(yield func(int, string) bool) {
		for line := 1; sc.Scan(); line++ {
			raw, p, bad := checkLine(file, line, sc.Text())
			if bad {
				*probs = append(*probs, p)
				continue
			}
			if !yield(line, raw) {
				return
			}
		}
	}
}

// scanner reads lines up to 1 MiB long (ReadInput's limit is the whole file's).
func scanner(r io.Reader) *bufio.Scanner {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	return sc
}

// ParseMyCnf reads an option file (file names where settings came from, "my.cnf"). Every
// problem is reported (Problems), not the first.
func ParseMyCnf(r io.Reader, file string) (*File, error) {
	f := &File{}
	sc := scanner(r)
	in := false
	seenGroup := map[string]bool{}
	var probs Problems
	for line, raw := range checkedLines(sc, file, &probs) {
		t := strings.TrimSpace(raw)
		switch {
		case t == "" || t[0] == '#' || t[0] == ';':
			continue
		case t[0] == '!':
			f.Includes = append(f.Includes, fmt.Sprintf("%s:%d: %s", file, line, t))
			continue
		case t[0] == '[':
			end := strings.IndexByte(t, ']')
			if end < 0 {
				probs = append(probs, fmt.Sprintf("%s:%d: a group header needs a closing ]: %q", file, line, t))
				in = false
				continue
			}
			g := strings.ToLower(strings.TrimSpace(t[1:end]))
			in = serverGroup(g)
			if !seenGroup[g] {
				seenGroup[g] = true
				if in {
					f.Groups = append(f.Groups, g)
				} else {
					f.Skipped = append(f.Skipped, g)
				}
			}
			continue
		}
		if !in {
			continue
		}
		name, value, hasValue := strings.Cut(t, "=")
		name = strings.TrimSpace(name)
		if hasValue {
			v, err := optionValue(value)
			if err != nil {
				probs = append(probs, fmt.Sprintf("%s:%d: %v", file, line, err))
				continue
			}
			value = v
		} else {
			name = strings.TrimSpace(stripComment(name))
		}
		if name == "" || strings.ContainsAny(name, " \t") {
			probs = append(probs, fmt.Sprintf("%s:%d: expected name or name=value, got %q", file, line, t))
			continue
		}
		s := Setting{Name: Name(name), Value: value, Raw: strings.TrimSpace(raw), Where: fmt.Sprintf("%s:%d", file, line)}
		s.prefixes(hasValue)
		f.Settings = append(f.Settings, s)
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return f, nil
}

// prefixes applies loose-, maximum-, skip-, disable- and enable- to a setting's name.
func (s *Setting) prefixes(hasValue bool) {
	for changed := true; changed; {
		changed = false
		for _, p := range []string{"loose_", "maximum_"} {
			if rest, ok := strings.CutPrefix(s.Name, p); ok && rest != "" {
				s.Name, changed = rest, true
				s.Loose = s.Loose || p == "loose_"
				s.Limit = s.Limit || p == "maximum_"
			}
		}
	}
	if !hasValue {
		s.Value = "ON" // a boolean option named without a value is on
	}
	// skip-X, disable-X: X off; enable-X: X on (my_getopt's special prefixes). A few real
	// variables begin with skip_ themselves (skip_name_resolve, skip_networking, ...):
	// those stay as they are, the server has them under that name.
	for p, val := range map[string]string{"skip_": "OFF", "disable_": "OFF", "enable_": "ON"} {
		if rest, ok := strings.CutPrefix(s.Name, p); ok && rest != "" && !keepsPrefix(s.Name) {
			s.Name = rest
			if !hasValue {
				s.Value = val
			} else if val == "OFF" {
				// skip-X=1 means X off; skip-X=0 means X on.
				if b, ok := parseBool(s.Value); ok {
					s.Value = map[bool]string{true: "OFF", false: "ON"}[b]
				}
			}
			return
		}
	}
}

// keepsPrefix lists the server variables whose own names begin with skip_ or enable_.
func keepsPrefix(name string) bool {
	switch name {
	case "skip_name_resolve", "skip_networking", "skip_show_database", "skip_external_locking",
		"skip_slave_start", "skip_replica_start", "skip_grant_tables", "skip_host_cache",
		"skip_stack_trace", "skip_new", "skip_symbolic_links", "skip_log_bin", "skip_character_set_client_handshake",
		"skip_bdb", "skip_merge", "skip_parallel_replication", "skip_ssl", "skip_log_error",
		"enable_named_pipe":
		return true
	}
	return false
}

func parseBool(s string) (bool, bool) {
	switch strings.ToLower(strings.TrimSpace(s)) {
	case "on", "true", "yes", "1":
		return true, true
	case "off", "false", "no", "0":
		return false, true
	}
	return false, false
}

// stripComment removes a # comment that follows a value (outside quotes).
func stripComment(s string) string {
	if i := strings.IndexByte(s, '#'); i >= 0 {
		return s[:i]
	}
	return s
}

// optionValue reads the text after `=`: a quoted value with MySQL's escapes, or a bare value
// up to a # comment, surrounding space trimmed.
func optionValue(s string) (string, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return "", nil
	}
	if q := s[0]; q == '\'' || q == '"' {
		var b strings.Builder
		for i := 1; i < len(s); i++ {
			c := s[i]
			switch {
			case c == '\\' && i+1 < len(s):
				i++
				switch s[i] {
				case 'n':
					b.WriteByte('\n')
				case 't':
					b.WriteByte('\t')
				case 'r':
					b.WriteByte('\r')
				case 'b':
					b.WriteByte('\b')
				case 's':
					b.WriteByte(' ')
				default:
					b.WriteByte(s[i])
				}
			case c == q:
				rest := strings.TrimSpace(s[i+1:])
				if rest != "" && rest[0] != '#' {
					return "", fmt.Errorf("text after the closing quote: %q", rest)
				}
				return b.String(), nil
			default:
				b.WriteByte(c)
			}
		}
		return "", fmt.Errorf("unterminated quoted value %s", s)
	}
	return strings.TrimSpace(stripComment(s)), nil
}

// ParseTable reads the output of SHOW GLOBAL VARIABLES or SHOW GLOBAL STATUS as the mysql
// client prints it: tab-separated (mysql -B, -N or not: a "Variable_name	Value" header is
// skipped) or as a boxed table (| name | value |). Names are canonical (lower case).
func ParseTable(r io.Reader, file string) ([]Setting, error) {
	var out []Setting
	var probs Problems
	sc := scanner(r)
	for line, raw := range checkedLines(sc, file, &probs) {
		t := strings.TrimRight(raw, "\r")
		var name, value string
		switch {
		case strings.TrimSpace(t) == "" || strings.HasPrefix(strings.TrimSpace(t), "+-"):
			continue
		case strings.HasPrefix(strings.TrimSpace(t), "|"):
			cells := strings.Split(strings.Trim(strings.TrimSpace(t), "|"), "|")
			if len(cells) < 2 {
				continue
			}
			name, value = strings.TrimSpace(cells[0]), strings.TrimSpace(strings.Join(cells[1:], "|"))
		case strings.Contains(t, "\t"):
			name, value, _ = strings.Cut(t, "\t")
		default:
			f := strings.Fields(t)
			if len(f) == 0 {
				continue
			}
			name, value = f[0], strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(t), f[0]))
		}
		if strings.EqualFold(name, "Variable_name") || name == "" || rowsInSet.MatchString(t) {
			continue
		}
		if strings.Contains(name, " ") {
			probs = append(probs, fmt.Sprintf("%s:%d: expected NAME<TAB>VALUE (mysql -B -e 'SHOW GLOBAL VARIABLES'), got %q", file, line, raw))
			continue
		}
		out = append(out, Setting{Name: Name(name), Value: value, Raw: raw, Where: fmt.Sprintf("%s:%d", file, line)})
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return out, nil
}
