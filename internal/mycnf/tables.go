package mycnf

import (
	"fmt"
	"io"
	"regexp"
	"sort"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
)

// TableInfo is one row of an information_schema.TABLES dump:
//
//	mysql -B -e "SELECT TABLE_SCHEMA, TABLE_NAME, ENGINE, TABLE_ROWS, AVG_ROW_LENGTH,
//	  DATA_LENGTH, INDEX_LENGTH FROM information_schema.TABLES
//	  WHERE TABLE_TYPE = 'BASE TABLE'" > tables.tsv
//
// DATA_LENGTH is the clustered index's size (pages x page size), INDEX_LENGTH the
// secondary indexes', TABLE_ROWS InnoDB's estimate from sampled pages, AVG_ROW_LENGTH
// DATA_LENGTH / TABLE_ROWS (so it includes the record header, the system columns and the
// pages' free space).
type TableInfo struct {
	Schema, Name, Engine string
	Rows, AvgRow         int64
	Data, Index          int64
	Where                string
}

// systemSchemas are the server's own: not the user's data.
var systemSchemas = map[string]bool{"mysql": true, "information_schema": true, "performance_schema": true, "sys": true}

// ParseTables reads an information_schema.TABLES dump as mysql -B prints it, with its header
// line (the columns in any order; TABLE_NAME and DATA_LENGTH required). Only InnoDB tables
// outside the system schemas are returned.
func ParseTables(r io.Reader, file string) ([]TableInfo, error) {
	sc := scanner(r)
	var probs Problems
	var cols map[string]int
	var out []TableInfo
	for line, raw := range checkedLines(sc, file, &probs) {
		raw = strings.TrimSuffix(raw, "\r")
		if strings.TrimSpace(raw) == "" {
			continue
		}
		f := strings.Split(raw, "\t")
		if cols == nil {
			cols = map[string]int{}
			for i, c := range f {
				cols[strings.ToUpper(strings.TrimSpace(c))] = i
			}
			for _, need := range []string{"TABLE_NAME", "DATA_LENGTH"} {
				if _, ok := cols[need]; !ok {
					return nil, Problems{fmt.Sprintf("%s:%d: the header names no %s column: expected mysql -B output of SELECT TABLE_SCHEMA, TABLE_NAME, ENGINE, TABLE_ROWS, AVG_ROW_LENGTH, DATA_LENGTH, INDEX_LENGTH FROM information_schema.TABLES (docs/cli.md, import)", file, line, need)}
				}
			}
			continue
		}
		get := func(c string) string {
			if i, ok := cols[c]; ok && i < len(f) {
				return strings.TrimSpace(f[i])
			}
			return ""
		}
		t := TableInfo{Schema: get("TABLE_SCHEMA"), Name: get("TABLE_NAME"), Engine: get("ENGINE"), Where: fmt.Sprintf("%s:%d", file, line)}
		if len(f) < len(cols) {
			probs = append(probs, fmt.Sprintf("%s:%d: %d fields, the header has %d: a truncated line?", file, line, len(f), len(cols)))
			continue
		}
		if systemSchemas[strings.ToLower(t.Schema)] || (t.Engine != "" && !strings.EqualFold(t.Engine, "InnoDB")) || t.Engine == "NULL" {
			continue
		}
		for _, n := range []struct {
			col string
			v   *int64
		}{{"TABLE_ROWS", &t.Rows}, {"AVG_ROW_LENGTH", &t.AvgRow}, {"DATA_LENGTH", &t.Data}, {"INDEX_LENGTH", &t.Index}} {
			s := get(n.col)
			if s == "" || s == "NULL" {
				continue
			}
			x, err := strconv.ParseInt(s, 10, 64)
			if err != nil || x < 0 || x > 1<<50 {
				probs = append(probs, fmt.Sprintf("%s:%d: %s %q: expected a byte or row count (0 to 2^50)", file, line, n.col, s))
				continue
			}
			*n.v = x
		}
		if t.Name == "" {
			probs = append(probs, fmt.Sprintf("%s:%d: no TABLE_NAME", file, line))
			continue
		}
		out = append(out, t)
	}
	if err := sc.Err(); err != nil {
		probs = append(probs, fmt.Sprintf("%s: %v", file, err))
	}
	if cols == nil && len(probs) == 0 {
		probs = append(probs, fmt.Sprintf("%s: empty: expected an information_schema.TABLES dump with its header line", file))
	}
	if len(probs) > 0 {
		return nil, probs
	}
	return out, nil
}

// dataGroup is one data: entry the import writes.
type dataGroup struct {
	columns   []config.Column // declared column sizes (--schema)
	secondary *int            // secondary indexes per table (--schema); nil = the kind's
	name      string
	tables    int
	size      int64 // per table
	rowSize   int64 // column bytes per row; 0 = the kind's
	note      string
}

// recordOverhead is what InnoDB stores beside a row's columns in the clustered index: the
// 5-byte compact record header, DB_TRX_ID (6) and DB_ROLL_PTR (7) (rem0rec.h,
// REC_N_NEW_EXTRA_BYTES; DATA_TRX_ID_LEN, DATA_ROLL_PTR_LEN). AVG_ROW_LENGTH also counts the
// pages' free space, which the model adds itself: subtracting the overhead alone leaves
// that share in the row size (an over-estimate of up to the pages' free fraction).
const recordOverhead = 18

// maxOwnGroups is how many of the largest tables get a data group each; the rest share one.
const maxOwnGroups = 8

var groupChar = regexp.MustCompile(`[^A-Za-z0-9_]`)

// tableGroups turns the dump into data groups: the largest tables one each (by
// DATA_LENGTH), the rest one group of their mean size.
func tableGroups(ts []TableInfo) []dataGroup {
	ts = append([]TableInfo(nil), ts...)
	sort.SliceStable(ts, func(i, j int) bool { return ts[i].Data > ts[j].Data })
	var out []dataGroup
	used := map[string]bool{}
	for i, t := range ts {
		if t.Data <= 0 {
			continue
		}
		if i >= maxOwnGroups {
			var n, data, rows int64
			for _, r := range ts[i:] {
				if r.Data > 0 {
					n, data, rows = n+1, data+r.Data, rows+r.Rows
				}
			}
			g := dataGroup{name: uniqueName("other_tables", used), tables: int(n), size: data / n,
				note: fmt.Sprintf("the other %d tables of the dump, %s in all, as tables of their mean size", n, config.Size(data).String())}
			if rows > 0 {
				g.rowSize = rowSize(data / rows)
			}
			out = append(out, g)
			break
		}
		name := groupChar.ReplaceAllString(t.Name, "_")
		if name == "" || name[0] >= '0' && name[0] <= '9' {
			name = "t_" + name
		}
		g := dataGroup{name: uniqueName(name, used), tables: 1, size: t.Data,
			note: fmt.Sprintf("%s: %s.%s DATA_LENGTH %d", t.Where, t.Schema, t.Name, t.Data)}
		if t.AvgRow > 0 {
			g.rowSize = rowSize(t.AvgRow)
			g.note += fmt.Sprintf(", AVG_ROW_LENGTH %d - %d bytes of record header and system columns", t.AvgRow, recordOverhead)
		}
		out = append(out, g)
	}
	return out
}

func rowSize(avg int64) int64 { return min(max(avg-recordOverhead, 4), 65535) }

func uniqueName(name string, used map[string]bool) string {
	n := name
	for i := 2; used[n]; i++ {
		n = fmt.Sprintf("%s_%d", name, i)
	}
	used[n] = true
	return n
}

// applySchema puts SHOW CREATE TABLE's columns and index count on its table's group (the
// group of its name, else the first: the DDL's table) and picks the ADD INDEX column: the
// first indexable column no existing index begins with. It returns the DDL's group, column
// and a note saying so.
func applySchema(ct *CreateTable, gs []dataGroup) (int, string, string) {
	if ct == nil {
		return 0, "c", ""
	}
	i := 0
	name := groupChar.ReplaceAllString(ct.Name, "_")
	found := false
	for j, g := range gs {
		if g.name == name {
			i, found = j, true
		}
	}
	if !found {
		used := map[string]bool{}
		for _, g := range gs[1:] {
			used[g.name] = true
		}
		gs[0].name = uniqueName(name, used)
	}
	g := &gs[i]
	leads := map[string]bool{}
	n := 0
	for _, ix := range ct.Indexes {
		if len(ix.Columns) > 0 {
			leads[strings.ToLower(ix.Columns[0])] = true
		}
		if !ix.Primary {
			n++
		}
	}
	g.secondary = &n
	col, colType := "", ""
	for _, c := range ct.Columns {
		if c.Size > 0 {
			g.columns = append(g.columns, config.Column{Name: c.Name, Size: config.Size(c.Size)})
			if col == "" && !leads[strings.ToLower(c.Name)] {
				col, colType = c.Name, fmt.Sprintf("%s, %d bytes", c.Type, c.Size)
			}
		}
	}
	note := fmt.Sprintf("columns and %d secondary indexes from %s CREATE TABLE %s (CHAR/VARCHAR at their declared maximum; the primary key stays the kind's)", n, ct.Where, ct.Name)
	if g.note != "" {
		note = g.note + "; " + note
	}
	g.note = note
	if col == "" {
		return i, "c", fmt.Sprintf("%s CREATE TABLE %s: every indexable column already leads an index; name the column", ct.Where, ct.Name)
	}
	return i, col, fmt.Sprintf("ADD INDEX on %s (%s): a guess from %s, the first column no index of %s begins with", col, colType, ct.Where, ct.Name)
}
