//go:build cgo

package calib

import (
	"fmt"
	"math/bits"
	"testing"

	"github.com/ddlsim/ddlsim/model/calib/cbench"
)

// The index build's per-record costs from C transcriptions of the server's loops
// (cbench/build.c; docs/indexbuild.md, "Per-record costs"), beside the Go analogues of
// build_bench_test.go. Every benchmark reports ns per record (or per compare level):
//
//	go test -run '^$' -bench 'CKey|CMerge|CPage|CScan' -cpu 1 -count 5 ./model/calib/
//
// Shapes: k (INT key + INT id), c (CHAR(120) latin1, MariaDB 10.11's default: fixed length,
// compared by latin1_swedish_ci), c-utf8 (CHAR(120) utf8mb4_0900_ai_ci, MySQL 8.0's:
// variable length, compared through the collation handler; its UCA scanner is stood in by a
// per-byte weight table, a lower bound). Families: row0merge (MariaDB 10.11, MySQL 8.0.18)
// and ddl80 (MySQL 8.0.27+).

var cShapes = []struct {
	name string
	ix   int
}{{"k", cbench.IndexK}, {"c", cbench.IndexC}, {"c-utf8", cbench.IndexCUTF8}}

var cFams = []struct {
	name string
	fam  int
}{{"row0merge", cbench.Row0Merge}, {"ddl80", cbench.DDL80}}

func needC(b *testing.B) {
	b.Helper()
	if !cbench.Available {
		b.Skip("the C benchmarks need cgo and a C compiler (CGO_ENABLED=1, cc on PATH)")
	}
}

// cSort times the key buffer's merge sort of n entries: ns per entry per level (log2 n
// levels), the unit of costs.sort_row.
func cSort(b *testing.B, ix, n int) {
	needC(b)
	bd := cbench.NewBuild(ix, n, 1)
	defer bd.Free()
	b.ResetTimer()
	ns, cmps := bd.Sort(cbench.Row0Merge, b.N)
	b.StopTimer()
	levels := float64(b.N) * float64(n) * float64(bits.Len(uint(n-1)))
	b.ReportMetric(float64(ns)/levels, "ns/compare-level")
	b.ReportMetric(float64(cmps)/float64(b.N*n), "compares/entry")
	b.ReportMetric(0, "ns/op")
}

// BenchmarkCKeyCompare is UT_SORT_FUNCTION_BODY / ddl::merge_sort over 8,192 entries (a
// buffer that stays in the cache) with row_merge_tuple_cmp / Compare_key: costs.sort_row.
func BenchmarkCKeyCompare(b *testing.B) {
	for _, sh := range cShapes {
		b.Run(sh.name, func(b *testing.B) { cSort(b, sh.ix, 1<<13) })
	}
}

// BenchmarkCKeySortBuffer is the same sort by buffer size; the largest size gives
// costs.sort_row_miss by the model's split of the levels (docs/indexbuild.md).
func BenchmarkCKeySortBuffer(b *testing.B) {
	for _, n := range []int{1 << 16, 1 << 19, 1 << 22} {
		for _, sh := range cShapes[:2] {
			b.Run(fmt.Sprintf("%s/n=%d", sh.name, n), func(b *testing.B) { cSort(b, sh.ix, n) })
		}
	}
}

// BenchmarkCMergeRun is one record through one 2-way merge of two runs of 4,096 in the
// temp-file format: row_merge_blocks (row_merge_read_rec, cmp_rec_rec_simple,
// row_merge_write_rec) or Merge_file_sort::merge_rows (Merge_cursor's priority queue,
// File_reader::next, Output_file::write). ns/record is costs.merge_row (the I/O is charged
// separately).
func BenchmarkCMergeRun(b *testing.B) {
	for _, sh := range cShapes {
		for _, f := range cFams {
			b.Run(sh.name+"/"+f.name, func(b *testing.B) {
				needC(b)
				const n = 8192
				bd := cbench.NewBuild(sh.ix, n, 2)
				defer bd.Free()
				bd.Merge(f.fam, 1)
				b.ResetTimer()
				ns := bd.Merge(f.fam, b.N)
				b.StopTimer()
				if ns == 0 {
					b.Fatal("merge failed")
				}
				b.ReportMetric(float64(ns)/float64(b.N*n), "ns/record")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkCLoadCursor is 8.0.27+'s load-side Merge_cursor (Builder::btree_build) over k
// sorted runs, one per scan thread: ns per record and the priority queue's compares per
// record. Against k = 1 the increment is what k files add to load_row (which is measured over
// one file); its slope per compare is the unit the model charges per queue compare.
func BenchmarkCLoadCursor(b *testing.B) {
	for _, sh := range cShapes {
		for _, k := range []int{1, 2, 4, 8, 16} {
			b.Run(fmt.Sprintf("%s/files=%d", sh.name, k), func(b *testing.B) {
				needC(b)
				const n = 1 << 16
				bd := cbench.NewBuild(sh.ix, n, 4)
				defer bd.Free()
				bd.KMerge(k, 1)
				b.ResetTimer()
				ns, cmps := bd.KMerge(k, b.N)
				b.StopTimer()
				if ns == 0 {
					b.Fatal("merge failed")
				}
				b.ReportMetric(float64(ns)/float64(b.N*n), "ns/record")
				b.ReportMetric(float64(cmps)/float64(b.N*n), "compares/record")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkCPageAppend is one entry from a sorted run into the bulk loader: the record read
// and turned into a tuple (row_rec_to_index_entry_low), BtrBulk::insert / Btree_load::insert
// (converted size, space check, rec_convert_dtuple_to_rec on the page heap, rec_get_offsets,
// the copy and links of PageBulk::insert / Page_load::insert), and per page the finish, the
// node pointer into the level above and, in 8.0.27+, page_validate at the commit. 65,536
// entries (the pages of a k load stay cached, those of a c load do not). ns/record is
// costs.load_row.
func BenchmarkCPageAppend(b *testing.B) {
	for _, sh := range cShapes {
		for _, f := range cFams {
			b.Run(sh.name+"/"+f.name, func(b *testing.B) {
				needC(b)
				const n = 1 << 16
				bd := cbench.NewBuild(sh.ix, n, 3)
				defer bd.Free()
				bd.Load(f.fam, 1)
				b.ResetTimer()
				ns, pages := bd.Load(f.fam, b.N)
				b.StopTimer()
				if ns == 0 {
					b.Fatal("load failed")
				}
				b.ReportMetric(float64(ns)/float64(b.N*n), "ns/record")
				b.ReportMetric(float64(n)/float64(pages), "records/page")
				b.ReportMetric(0, "ns/op")
			})
		}
	}
}

// BenchmarkCScan is row_merge_read_clustered_index's per-row work over the 1M-row sysbench
// tree of the cpath benchmarks (216 MiB of leaves, read in order): the cursor step, the
// delete-mark and read-view checks, rec_get_offsets, row_build (ROW_COPY_POINTERS), then
// row_merge_buf_add into each index being built; "rebuild" adds the new clustered index's
// entry, its duplicate check and its bulk insert (skip_sort). ns/row; the difference
// between two sub-benchmarks is the cost of what one adds.
func BenchmarkCScan(b *testing.B) {
	cases := []struct {
		name    string
		ix      []int
		rebuild bool
	}{
		{"row", nil, false},
		{"row+k", []int{cbench.IndexK}, false},
		{"row+k+c", []int{cbench.IndexK, cbench.IndexC}, false},
		{"rebuild", nil, true},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			cpTrees(b)
			const rows = 1 << 18
			b.ResetTimer()
			var ns uint64
			for range b.N {
				ns += cpClust.Scan(c.ix, c.rebuild, rows)
			}
			b.StopTimer()
			b.ReportMetric(float64(ns)/float64(b.N*rows), "ns/row")
			b.ReportMetric(0, "ns/op")
		})
	}
}
