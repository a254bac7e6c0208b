package indexbuild

// InsertBenchmarkRowBytes is the clustered-index record of the insert benchmark's table
// (transactionid BIGINT PK, dateandtime DATETIME, cashregisterid/customerid/productid INT,
// price FLOAT, data VARCHAR with 10..20 bytes, about 15 on average): 33 bytes of fixed
// columns + ~16 of data + 1 null bitmap + 5 record header + 6 trx id + 7 roll pointer +
// 2 bytes of page directory and free-space share, about 80 bytes.
const InsertBenchmarkRowBytes = 80

// InsertBenchmarkIndexes are the insert benchmark's three secondary indexes (the reference's
// "three secondary indexes"): marketsegment (price, customerid), registersegment
// (cashregisterid, price, customerid) and pdc (price, dateandtime, customerid), each entry
// also carrying the 8-byte primary key and 1 byte of null bitmap.
func InsertBenchmarkIndexes() []Index {
	return []Index{
		{Name: "marketsegment", KeyBytes: 4 + 4 + 8 + 1},
		{Name: "registersegment", KeyBytes: 4 + 4 + 4 + 8 + 1},
		{Name: "pdc", KeyBytes: 4 + 5 + 4 + 8 + 1},
	}
}
