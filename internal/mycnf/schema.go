package mycnf

import (
	"fmt"
	"io"
	"regexp"
	"strconv"
	"strings"
)

// CreateTable is what SHOW CREATE TABLE says about the DDL's table: its columns with their
// stored sizes and its indexes.
type CreateTable struct {
	Name    string
	Columns []ColumnDef
	Indexes []IndexDef
	Where   string
}

// ColumnDef is one column: its declared type and the bytes InnoDB stores for it (the
// declared maximum for CHAR/VARCHAR/BINARY, in bytes of a single-byte character set; 0 for
// types an index needs a prefix length on: TEXT, BLOB, JSON, GEOMETRY).
type ColumnDef struct {
	Name, Type string
	Size       int
}

// IndexDef is one index of the table.
type IndexDef struct {
	Name    string
	Columns []string
	Primary bool
}

var (
	createRe = regexp.MustCompile("(?i)CREATE\\s+TABLE\\s+(?:IF\\s+NOT\\s+EXISTS\\s+)?((?:`[^`]+`|\\w+)(?:\\.(?:`[^`]+`|\\w+))?)\\s*\\(")
	colRe    = regexp.MustCompile("^(`[^`]+`|\\w+)\\s+(\\w+)\\s*(?:\\(([^)]*)\\))?")
	keyRe    = regexp.MustCompile("(?i)^(PRIMARY\\s+KEY|UNIQUE\\s+KEY|UNIQUE\\s+INDEX|UNIQUE|KEY|INDEX|FULLTEXT\\s+KEY|FULLTEXT|SPATIAL\\s+KEY|SPATIAL)\\s*(`[^`]+`|\\w+)?\\s*\\(((?:[^()]|\\([^()]*\\))*)\\)")
)

// ParseCreateTable reads SHOW CREATE TABLE output: as mysql prints it with \G ("Create
// Table: CREATE TABLE ..."), boxed, or with -B -N (the statement's line breaks written
// \n); the first CREATE TABLE in it is read.
func ParseCreateTable(r io.Reader, file string) (*CreateTable, error) {
	data, err := io.ReadAll(io.LimitReader(r, 1<<20))
	if err != nil {
		return nil, err
	}
	text := string(data)
	var probs Problems
	for i, line := range strings.Split(text, "\n") {
		if _, p, bad := checkLine(file, i+1, line); bad {
			probs = append(probs, p)
		}
	}
	if len(probs) > 0 {
		return nil, probs
	}
	if strings.Count(text, "\n") < 3 && strings.Contains(text, `\n`) {
		text = strings.ReplaceAll(text, `\n`, "\n") // mysql -B -N escapes the statement's line breaks
	}
	m := createRe.FindStringSubmatchIndex(text)
	if m == nil {
		return nil, Problems{fmt.Sprintf("%s: no CREATE TABLE statement: expected the output of mysql -e 'SHOW CREATE TABLE db.table\\G'", file)}
	}
	line := strings.Count(text[:m[0]], "\n") + 1
	name := text[m[2]:m[3]]
	if i := strings.LastIndex(name, "."); i >= 0 && !strings.HasSuffix(name, "`") || strings.Contains(name, "`.`") {
		name = name[strings.LastIndex(name, ".")+1:]
	}
	ct := &CreateTable{Name: strings.Trim(name, "`"), Where: fmt.Sprintf("%s:%d", file, line)}
	body := text[m[1]:]
	for _, raw := range strings.Split(body, "\n") {
		l := strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(raw), ","))
		if l == "" || strings.HasPrefix(l, ")") {
			if strings.HasPrefix(l, ")") {
				break
			}
			continue
		}
		if k := keyRe.FindStringSubmatch(l); k != nil {
			ix := IndexDef{Name: strings.Trim(k[2], "`"), Primary: strings.HasPrefix(strings.ToUpper(k[1]), "PRIMARY")}
			for _, c := range strings.Split(k[3], ",") {
				c = strings.TrimSpace(c)
				if f := strings.Fields(c); len(f) > 0 {
					c = f[0]
				}
				if i := strings.IndexByte(c, '('); i > 0 {
					c = c[:i] // a prefix length
				}
				ix.Columns = append(ix.Columns, strings.Trim(c, "`"))
			}
			ct.Indexes = append(ct.Indexes, ix)
			continue
		}
		if up := strings.ToUpper(l); strings.HasPrefix(up, "CONSTRAINT") || strings.HasPrefix(up, "CHECK") || strings.HasPrefix(up, "FOREIGN") {
			continue
		}
		if c := colRe.FindStringSubmatch(l); c != nil {
			ct.Columns = append(ct.Columns, ColumnDef{Name: strings.Trim(c[1], "`"), Type: strings.ToLower(c[2]) + paren(c[3]), Size: storedSize(strings.ToLower(c[2]), c[3])})
		}
	}
	if len(ct.Columns) == 0 {
		return nil, Problems{fmt.Sprintf("%s: CREATE TABLE %s has no column definition this reads: expected SHOW CREATE TABLE output", ct.Where, ct.Name)}
	}
	return ct, nil
}

func paren(a string) string {
	if a == "" {
		return ""
	}
	return "(" + a + ")"
}

// storedSize is the bytes InnoDB stores for a column of the type (the storage requirements
// of the MySQL manual's "Data Type Storage Requirements"; DECIMAL 4 bytes per 9 digits and
// the leftover digits' bytes; the temporal types' fractional seconds add up to 3 bytes).
func storedSize(typ, args string) int {
	n := func(i int) int {
		parts := strings.Split(args, ",")
		if i < len(parts) {
			if v, err := strconv.Atoi(strings.TrimSpace(parts[i])); err == nil {
				return v
			}
		}
		return 0
	}
	frac := func() int { return (n(0) + 1) / 2 }
	switch typ {
	case "tinyint", "bool", "boolean", "year":
		return 1
	case "smallint":
		return 2
	case "mediumint", "date", "time":
		return 3 + map[bool]int{true: frac(), false: 0}[typ == "time"]
	case "int", "integer", "float":
		return 4
	case "bigint", "double", "real", "serial":
		return 8
	case "timestamp":
		return 4 + frac()
	case "datetime":
		return 5 + frac()
	case "decimal", "numeric":
		p, s := n(0), n(1)
		if p <= 0 {
			p = 10 // DECIMAL's default precision
		}
		p, s = min(p, 65), min(max(s, 0), 30) // MySQL's limits
		s = min(s, p)
		digits := func(d int) int { return d/9*4 + []int{0, 1, 1, 2, 2, 3, 3, 4, 4}[d%9] }
		return digits(p-s) + digits(s)
	case "char", "varchar", "binary", "varbinary":
		return min(max(n(0), 1), 3072)
	case "bit":
		return (max(n(0), 1) + 7) / 8
	case "enum":
		if strings.Count(args, ",") >= 255 {
			return 2
		}
		return 1
	case "set":
		return (strings.Count(args, ",") + 1 + 7) / 8
	}
	return 0 // TEXT, BLOB, JSON, GEOMETRY: an index on them needs a prefix length
}
