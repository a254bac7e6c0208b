package calib

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
)

// The index build's per-record costs (docs/indexbuild.md; innodb-source.md §5), measured as Go
// analogues of what the C code does per record, on records of the shapes the seed scenarios
// build: sysbench's k index (an INT key and the INT primary key, 8 bytes) and its c column (a
// CHAR(120) key and the primary key, 124 bytes). The profiles' sort_row, merge_row, load_row
// and rebuild_row come from here:
//
//	go test -run '^$' -bench 'KeyCompare|MergeRun|PageAppend|RowBuild' -count 5 ./model/calib/
//
// What each measures is the loop body of the routine named; the allocator, the mini-
// transaction and the latches around a page are left to the constants that charge them
// elsewhere (page_miss, the mutexes).

// shapes are the secondary-index entries the seeds build.
var shapes = []struct {
	name     string
	keyBytes int // the key column; the 4-byte primary key follows
}{{"k", 4}, {"c", 120}}

// sysbenchChar is sysbench's c/pad content: groups of 11 random digits joined by '-'.
func sysbenchChar(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		if i%12 == 11 {
			b[i] = '-'
		} else {
			b[i] = byte('0' + r.IntN(10))
		}
	}
	return b
}

// entries builds n entries of shape keyBytes (+4-byte PK), in random key order.
func entries(r *rand.Rand, n, keyBytes int) [][]byte {
	out := make([][]byte, n)
	for i := range out {
		e := make([]byte, keyBytes+4)
		if keyBytes == 4 {
			binary.BigEndian.PutUint32(e, r.Uint32()) // an INT, stored big-endian with the sign bit flipped
		} else {
			copy(e, sysbenchChar(r, keyBytes))
		}
		binary.BigEndian.PutUint32(e[keyBytes:], uint32(i))
		out[i] = e
	}
	return out
}

// weight is a collation's sort-weight table (utf8mb4_0900_ai_ci's ASCII fast path maps each
// byte through a table; digits and '-' have distinct weights).
var weight = func() (w [256]uint16) {
	for i := range w {
		w[i] = uint16(i)<<4 | 7
	}
	return w
}()

// cmpEntry is cmp_dtuple_rec / Compare_key over the entry's fields: the key field through the
// collation (fixed-length INT: a byte compare), then the primary key.
func cmpEntry(a, b []byte, keyBytes int) int {
	if keyBytes == 4 {
		if c := bytes.Compare(a[:4], b[:4]); c != 0 {
			return c
		}
	} else {
		for i := 0; i < keyBytes; i++ {
			if wa, wb := weight[a[i]], weight[b[i]]; wa != wb {
				if wa < wb {
					return -1
				}
				return 1
			}
		}
	}
	return bytes.Compare(a[keyBytes:], b[keyBytes:])
}

// BenchmarkKeyCompare is one level of the key buffer's in-memory merge sort per entry
// (ddl0buffer.cc merge_sort with Compare_key, row_merge_buf_sort): sorting n entries costs
// ~log2(n) of these per entry. ns/compare-level is costs.sort_row.
func BenchmarkKeyCompare(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(1, uint64(sh.keyBytes)))
			const n = 8192 // a key buffer's worth that stays in cache (the model charges misses separately)
			base := entries(r, n, sh.keyBytes)
			work := make([][]byte, n)
			var cmps int
			b.ResetTimer()
			for range b.N {
				copy(work, base)
				slices.SortFunc(work, func(x, y []byte) int { cmps++; return cmpEntry(x, y, sh.keyBytes) })
			}
			b.StopTimer()
			levels := float64(b.N) * float64(n) * 13 // log2(8192)
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/levels, "ns/compare-level")
			b.ReportMetric(float64(cmps)/float64(b.N*n), "compares/entry")
		})
	}
}

// run serializes entries as a sort-file run: each record prefixed by its extra-size byte.
func run(es [][]byte) []byte {
	var out []byte
	for _, e := range es {
		out = append(out, byte(len(e)+1))
		out = append(out, e...)
	}
	return append(out, 0)
}

// BenchmarkMergeRun is one record through one 2-way merge pass (Merge_file_sort's
// merge_ranges, row_merge_blocks): read the next record of each input run from its buffer
// (the length prefix, as rec_get_offsets), compare the two heads, copy the smaller one into
// the output buffer. ns/record is costs.merge_row (the buffers' file I/O and page-cache copies
// are charged separately).
func BenchmarkMergeRun(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(2, uint64(sh.keyBytes)))
			const n = 4096
			es := entries(r, 2*n, sh.keyBytes)
			cmp := func(x, y []byte) int { return cmpEntry(x, y, sh.keyBytes) }
			a, c := es[:n], es[n:]
			slices.SortFunc(a, cmp)
			slices.SortFunc(c, cmp)
			ra, rc := run(a), run(c)
			out := make([]byte, 0, len(ra)+len(rc))
			b.ResetTimer()
			for range b.N {
				out = out[:0]
				i, j := 0, 0
				for ra[i] != 0 && rc[j] != 0 {
					ea, ec := ra[i+1:i+int(ra[i])], rc[j+1:j+int(rc[j])]
					if cmp(ea, ec) <= 0 {
						out = append(out, ra[i:i+int(ra[i])]...)
						i += int(ra[i])
					} else {
						out = append(out, rc[j:j+int(rc[j])]...)
						j += int(rc[j])
					}
				}
				out = append(out, ra[i:len(ra)-1]...)
				out = append(out, rc[j:len(rc)-1]...)
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*2*n), "ns/record")
		})
	}
}

// BenchmarkPageAppend is one entry appended by the bulk loader (Btree_load::insert /
// PageBulk::insert): rec_convert_dtuple_to_rec (the 5-byte compact header and the fields),
// the copy to the page's heap top, the page-directory slot every 4 records, and a fresh page
// when this one is full (15/16 full: the fill factor). ns/record is costs.load_row.
func BenchmarkPageAppend(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(3, uint64(sh.keyBytes)))
			es := entries(r, 4096, sh.keyBytes)
			page := make([]byte, 16384)
			const usable = 16384 * 15 / 16
			top, slots, nrec := 120, 0, 0
			var heapNo uint16
			b.ResetTimer()
			for i := range b.N {
				e := es[i%len(es)]
				need := 5 + len(e)
				if top+need+2*(slots+1) > usable {
					top, slots, nrec, heapNo = 120, 0, 0, 0 // the next page
				}
				// The compact record header: info bits, n_owned, heap number, status, next.
				page[top] = 0
				binary.BigEndian.PutUint16(page[top+1:], heapNo<<3)
				binary.BigEndian.PutUint16(page[top+3:], uint16(need))
				copy(page[top+5:], e)
				top += need
				heapNo++
				if nrec++; nrec%4 == 0 {
					binary.BigEndian.PutUint16(page[16384-8-2*slots:], uint16(top))
					slots++
				}
			}
			b.StopTimer()
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/record")
		})
	}
}

// BenchmarkRowBuild is a table rebuild's extra work per row (row_merge_read_clustered_index:
// row_build of the whole old clustered record into a row of dfields, row_build_index_entry and
// rec_convert_dtuple_to_rec of the new clustered record): a sysbench row of id, k, c, pad and
// the system columns (201 bytes) parsed field by field and written out again. ns/row is
// costs.rebuild_row.
func BenchmarkRowBuild(b *testing.B) {
	r := rand.New(rand.NewPCG(4, 5))
	widths := []int{4, 6, 7, 4, 120, 60} // id, DB_TRX_ID, DB_ROLL_PTR, k, c, pad
	const rows = 4096
	var src [][]byte
	for range rows {
		var rec []byte
		rec = append(rec, make([]byte, 5)...) // the record header
		for _, w := range widths {
			rec = append(rec, sysbenchChar(r, w)...)
		}
		src = append(src, rec)
	}
	type field struct{ off, n int }
	fields := make([]field, len(widths))
	dst := make([]byte, 0, 256)
	var row [6][]byte
	b.ResetTimer()
	for i := range b.N {
		rec := src[i%rows]
		// rec_get_offsets + row_build: the field offsets, then a copy of each field.
		o := 5
		for f, w := range widths {
			fields[f] = field{o, w}
			o += w
		}
		for f, fd := range fields {
			row[f] = append(row[f][:0], rec[fd.off:fd.off+fd.n]...)
		}
		// row_build_index_entry + rec_convert_dtuple_to_rec: the new record.
		dst = append(dst[:0], 0, 0, 0, 0, 0)
		for _, v := range row {
			dst = append(dst, v...)
		}
	}
	b.StopTimer()
	if len(dst) == 0 {
		b.Fatal(fmt.Sprint(len(dst)))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N), "ns/row")
}
