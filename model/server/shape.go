package server

import (
	"math"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/model/schema"
)

// The tablespace limit (config.LimitTablespace) is judged while the scenario is validated,
// before any server exists; config asks this function for a data group's largest table,
// shaped exactly as buildTables shapes it (TestGroupPagesMatchesBuildTables). The assembly
// installs it in config.Schema.DataShape (model/runner).
func GroupPages(g config.Table, pageSize int64) int64 { return groupPages(g, pageSize) }

// maxShapedRows is beyond any tablespace at any page size (2^32 pages of 64 KiB hold fewer
// than 2^45 of the smallest records): groups past it are reported without being shaped, so
// the arithmetic cannot overflow.
const maxShapedRows = 1 << 50

// groupPages is the size in pages of the largest table of data group g.
func groupPages(g config.Table, pageSize int64) int64 {
	largest, _ := groupShape(g, pageSize)
	return largest
}

// GroupTotalPages is the pages of all of data group g's tables together, as buildTables
// builds them (each tablespace's NextPage: its header pages and every index), saturating at
// math.MaxInt64 (TestGroupTotalPagesMatchesBuildTables).
func GroupTotalPages(g config.Table, pageSize int64) int64 {
	_, total := groupShape(g, pageSize)
	return total
}

// groupShape is the size in pages of the largest table of data group g and of all its
// tables, each with the tablespace's first pages (FSP header, ibuf bitmap, inode), which come
// before the indexes.
func groupShape(g config.Table, pageSize int64) (largest, total int64) {
	if pageSize <= 0 {
		return 0, 0
	}
	const header = 3
	switch g.Kind {
	case "tpcc":
		w := int64(g.Warehouses)
		for _, d := range tpccTables {
			rows := d.PerWH
			if d.Name != "item" {
				if w > maxShapedRows/d.PerWH {
					return math.MaxInt64, math.MaxInt64
				}
				rows *= w
			}
			p := schema.NewTable(d.Name, g.Name, 0, rows, d.RowBytes, d.PKBytes, d.Secondary, pageSize).Pages() + header
			largest, total = max(largest, p), satAdd(total, p)
		}
		return largest, total
	default:
		nsec := 1
		if g.Kind == schema.KindInsertBenchmark {
			nsec = 0
		}
		if g.SecondaryIndexes != nil {
			nsec = *g.SecondaryIndexes
		}
		rows := int64(g.Rows)
		if rows == 0 && g.Size > 0 {
			rows = schema.RowsForSizeOf(g.Kind, int64(g.Size), pageSize, nsec, int(g.RowSize))
		}
		if rows > maxShapedRows {
			return math.MaxInt64, math.MaxInt64
		}
		var t *schema.Table
		if g.Kind == schema.KindInsertBenchmark {
			t = schema.NewInsertBenchmarkTableRow(g.Name, g.Name, 0, rows, nsec, pageSize, int(g.RowSize))
		} else {
			t = schema.NewSysbenchTableRow(g.Name, g.Name, 0, rows, nsec, pageSize, int(g.RowSize))
		}
		largest = t.Pages() + header
		n := int64(max(g.Tables, 1))
		if largest > math.MaxInt64/n {
			return largest, math.MaxInt64
		}
		return largest, largest * n
	}
}

// satAdd is a + b for non-negative a and b, at most math.MaxInt64.
func satAdd(a, b int64) int64 {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}
