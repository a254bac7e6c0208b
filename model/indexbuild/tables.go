package indexbuild

import "github.com/ddlsim/ddlsim/model/schema"

// InsertBenchmarkRowBytes is the clustered-index record of the insert benchmark's table as
// it takes room on a page: the columns (schema.InsertBenchmarkRowBytes, 46 bytes), the 6-byte
// trx id and 7-byte roll pointer, the 5-byte record header and ~2 bytes of page directory
// and free-space share, 66 bytes. The server model shapes the same table
// (schema.NewInsertBenchmarkTable) and passes its leaf count as Spec.PKLeafPages.
const InsertBenchmarkRowBytes = schema.InsertBenchmarkRowBytes + 6 + 7 + 5 + 2

// InsertBenchmarkIndexes are the insert benchmark's three secondary indexes (the reference's
// "three secondary indexes"): marketsegment (price, customerid), registersegment
// (cashregisterid, price, customerid) and pdc (price, dateandtime, customerid), each entry
// also carrying the 8-byte primary key and 1 byte of null bitmap (schema.InsertBenchmarkIndexes).
func InsertBenchmarkIndexes() []Index {
	var out []Index
	for _, d := range schema.InsertBenchmarkIndexes {
		out = append(out, Index{Name: d.Name, KeyBytes: int64(d.EntryBytes)})
	}
	return out
}

// InsertBenchmarkPKLeafPages is the leaf count of the insert benchmark's clustered index of
// rows rows, as the server model shapes it.
func InsertBenchmarkPKLeafPages(rows, pageSize int64) int64 {
	return schema.NewInsertBenchmarkTable("t", "", 0, rows, 0, pageSize).Primary.LeafPages()
}
