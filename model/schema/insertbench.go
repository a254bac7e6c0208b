package schema

import (
	"fmt"
	"strings"
)

// Table kinds (config data[*].kind).
const (
	KindSysbench        = "sysbench"
	KindTPCC            = "tpcc"
	KindInsertBenchmark = "insert_benchmark"
)

// IndexDef is a secondary index a table kind defines: its name, key columns and entry size.
type IndexDef struct {
	Name    string
	Columns []string
	// EntryBytes is one entry as stored: key columns, primary-key columns and the
	// per-record extra bytes (null bitmap), without the 5-byte record header.
	EntryBytes int
}

// The insert benchmark's table (iibench.py, the reference's "schemas from the insert
// benchmark"):
//
//	transactionid BIGINT NOT NULL AUTO_INCREMENT, dateandtime DATETIME, cashregisterid INT,
//	customerid INT, productid INT, price FLOAT, data VARCHAR(...) with 10..20 bytes,
//	PRIMARY KEY (transactionid)
//
// Column bytes of one row: 8 + 5 (DATETIME, 5.6.4+ format) + 3 × 4 + 4 (FLOAT) + ~15 of data
// and its 1-byte length + 1 byte of null bitmap = 46; the clustered record adds the 6-byte
// trx id and 7-byte roll pointer (NewIndex adds the 5-byte header), ~64 bytes on the page.
const (
	InsertBenchmarkRowBytes = 8 + 5 + 3*4 + 4 + (1 + 15) + 1
	InsertBenchmarkPKKey    = 8
)

// InsertBenchmarkIndexes are the insert benchmark's three secondary indexes, created after
// the load in the reference: each entry is its columns, the 8-byte primary key and 1 byte of
// null bitmap.
var InsertBenchmarkIndexes = []IndexDef{
	{Name: "marketsegment", Columns: []string{"price", "customerid"}, EntryBytes: 4 + 4 + 8 + 1},
	{Name: "registersegment", Columns: []string{"cashregisterid", "price", "customerid"}, EntryBytes: 4 + 4 + 4 + 8 + 1},
	{Name: "pdc", Columns: []string{"price", "dateandtime", "customerid"}, EntryBytes: 4 + 5 + 4 + 8 + 1},
}

// insertBenchmarkColumns are the column bytes of the insert benchmark's table, for an
// index on columns the benchmark does not define.
var insertBenchmarkColumns = map[string]int{
	"transactionid": 8, "dateandtime": 5, "cashregisterid": 4, "customerid": 4,
	"productid": 4, "price": 4, "data": 16,
}

// NewInsertBenchmarkTable shapes the insert benchmark's table with `rows` rows and the first
// nSecondary of its secondary indexes (0: the primary key only, as loaded in the reference).
func NewInsertBenchmarkTable(name, group string, space uint32, rows int64, nSecondary int, pageSize int64) *Table {
	return NewInsertBenchmarkTableRow(name, group, space, rows, nSecondary, pageSize, 0)
}

// NewInsertBenchmarkTableRow is NewInsertBenchmarkTable with rowBytes of column data per row
// (data[].row_size; 0 = the benchmark's).
func NewInsertBenchmarkTableRow(name, group string, space uint32, rows int64, nSecondary int, pageSize int64, rowBytes int) *Table {
	var sec []IndexDef
	for i := 0; i < nSecondary; i++ {
		sec = append(sec, InsertBenchmarkIndexes[i%len(InsertBenchmarkIndexes)])
	}
	rb := InsertBenchmarkRowBytes
	if rowBytes > 0 {
		rb = rowBytes
	}
	t := newTable(name, group, space, rows, rb, InsertBenchmarkPKKey, sec, pageSize)
	t.Kind = KindInsertBenchmark
	return t
}

// newTable is NewTable with named secondary indexes.
func newTable(name, group string, space uint32, rows int64, rowBytes, pkBytes int, sec []IndexDef, pageSize int64) *Table {
	t := &Table{Name: name, Group: group, Space: space, Rows: rows, RowBytes: rowBytes + sysColumns}
	t.Primary = NewIndex(name+".PRIMARY", space, firstIndexPage, rows, rowBytes+sysColumns, pkBytes, pageSize)
	next := uint32(firstIndexPage + t.Primary.Pages)
	for _, d := range sec {
		ix := NewIndex(name+"."+d.Name, space, next, rows, d.EntryBytes, d.EntryBytes, pageSize)
		ix.Columns = d.Columns
		t.Secondary = append(t.Secondary, ix)
		next += uint32(ix.Pages)
	}
	t.NextPage = next
	return t
}

// NewIndexes returns the definitions of n secondary indexes that one CREATE INDEX statement
// on columns adds to t. On an insert-benchmark table whose missing benchmark indexes include
// one on columns, they are the benchmark's indexes t does not have yet, in the benchmark's
// order, starting with that one; past those, and otherwise, each is an index on columns with
// t's primary key appended.
func (t *Table) NewIndexes(columns []string, n int) []IndexDef {
	var out []IndexDef
	if t.Kind == KindInsertBenchmark {
		has := map[string]bool{}
		for _, s := range t.Secondary {
			has[s.Name] = true
		}
		var missing []IndexDef
		start := -1
		for _, d := range InsertBenchmarkIndexes {
			if has[t.Name+"."+d.Name] {
				continue
			}
			if start < 0 && sameColumns(d.Columns, columns) {
				start = len(missing)
			}
			missing = append(missing, d)
		}
		for i := start; start >= 0 && i < len(missing) && len(out) < n; i++ {
			out = append(out, missing[i])
		}
	}
	for i := len(out); i < n; i++ {
		out = append(out, IndexDef{Name: fmt.Sprintf("new_%d", i+1), Columns: columns,
			EntryBytes: t.ColumnBytes(columns) + t.Primary.KeyBytes})
	}
	return out
}

// ColumnBytes is the stored size of the named columns: the data group's declared sizes
// (ColumnSizes), else t's kind's (sysbench: c CHAR(120), pad CHAR(60), INTs otherwise;
// unknown columns count 4 bytes).
func (t *Table) ColumnBytes(columns []string) int {
	n := 0
	for _, c := range columns {
		c = strings.ToLower(c)
		if b, ok := t.ColumnSizes[c]; ok {
			n += b
			continue
		}
		b, ok := 4, false
		switch t.Kind {
		case KindInsertBenchmark:
			b, ok = insertBenchmarkColumns[c]
		default:
			switch c {
			case "c":
				b, ok = 120, true
			case "pad":
				b, ok = 60, true
			}
		}
		if !ok {
			b = 4
		}
		n += b
	}
	return n
}

func sameColumns(a, b []string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if !strings.EqualFold(a[i], b[i]) {
			return false
		}
	}
	return true
}

// Fresh returns an empty-history copy of t's shape in tablespace space: every index rebuilt
// with the same rows, record and key sizes (TRUNCATE, DROP + re-create, or a table rebuild's
// new copy).
func (t *Table) Fresh(space uint32) *Table {
	nt := &Table{Name: t.Name, Group: t.Group, Kind: t.Kind, Space: space, Rows: t.Rows, RowBytes: t.RowBytes, ColumnSizes: t.ColumnSizes}
	re := func(ix *Index, base uint32) *Index {
		n := NewIndex(ix.Name, space, base, t.Rows, ix.RecordBytes-recHeader, ix.KeyBytes, ix.PageSize)
		n.Columns = ix.Columns
		return n
	}
	nt.Primary = re(t.Primary, firstIndexPage)
	next := uint32(firstIndexPage + nt.Primary.Pages)
	for _, s := range t.Secondary {
		ix := re(s, next)
		nt.Secondary = append(nt.Secondary, ix)
		next += uint32(ix.Pages)
	}
	nt.NextPage = next
	return nt
}
