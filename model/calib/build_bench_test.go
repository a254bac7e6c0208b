package calib

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"math/bits"
	"math/rand/v2"
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

// Field types, as dtype_t's mtype: the compare dispatches on them per field (cmp_data).
const (
	dataInt   = 6  // DATA_INT: fixed length, stored big-endian with the sign bit flipped
	dataMySQL = 13 // DATA_MYSQL: a CHAR in a multi-byte charset, compared by its collation
)

// collation is a CHARSET_INFO: the compare goes through its handler's function pointer
// (coll->strnncollsp), as cmp_data → innobase_mysql_cmp does.
type collation struct {
	weight      [256]uint16
	strnncollsp func(c *collation, a, b []byte) int
}

// uca0900 is utf8mb4_0900_ai_ci's ASCII fast path: each byte mapped through a weight table,
// trailing spaces ignored (NO PAD is not used for CHAR's pad-space compare here: the values
// have none).
var uca0900 = func() *collation {
	c := &collation{strnncollsp: func(c *collation, a, b []byte) int {
		n := min(len(a), len(b))
		for i := 0; i < n; i++ {
			if wa, wb := c.weight[a[i]], c.weight[b[i]]; wa != wb {
				if wa < wb {
					return -1
				}
				return 1
			}
		}
		return len(a) - len(b)
	}}
	for i := range c.weight {
		c.weight[i] = uint16(i)<<4 | 7
	}
	return c
}()

// dfield is dfield_t: a pointer to the field's bytes, its length and its type (24 bytes
// with the dtype_t in C).
type dfield struct {
	data  []byte
	mtype uint8
	coll  *collation
}

// cmpData is cmp_data: per field, dispatched on the type.
func cmpData(a, b *dfield) int {
	switch a.mtype {
	case dataInt:
		return bytes.Compare(a.data, b.data)
	default:
		return a.coll.strnncollsp(a.coll, a.data, b.data)
	}
}

// cmpTuple is Compare_key / cmp_dtuple_rec over two entries' fields: the key, then the
// primary key.
func cmpTuple(a, b []dfield) int {
	for i := range a {
		if c := cmpData(&a[i], &b[i]); c != 0 {
			return c
		}
	}
	return 0
}

// keyType is the key field's type of shape keyBytes.
func keyType(keyBytes int) (uint8, *collation) {
	if keyBytes == 4 {
		return dataInt, nil
	}
	return dataMySQL, uca0900
}

// tuples builds n entries of shape keyBytes (+ the 4-byte primary key) in random key order, as
// a key buffer holds them: the fields' bytes copied into one heap in insertion order, a
// dfield array per entry (Key_sort_buffer's m_dtuples, the copies made by deep_copy).
func tuples(r *rand.Rand, n, keyBytes int) [][]dfield {
	w := keyBytes + 4
	heap := make([]byte, n*w)
	fields := make([]dfield, 2*n)
	out := make([][]dfield, n)
	kt, kc := keyType(keyBytes)
	for i := range out {
		e := heap[i*w : (i+1)*w : (i+1)*w]
		if keyBytes == 4 {
			binary.BigEndian.PutUint32(e, r.Uint32())
		} else {
			copy(e, sysbenchChar(r, keyBytes))
		}
		binary.BigEndian.PutUint32(e[keyBytes:], uint32(i))
		fields[2*i] = dfield{data: e[:keyBytes], mtype: kt, coll: kc}
		fields[2*i+1] = dfield{data: e[keyBytes:], mtype: dataInt}
		out[i] = fields[2*i : 2*i+2 : 2*i+2]
	}
	return out
}

// mergeSort is UT_SORT_FUNCTION_BODY (ut0sort.h; row_merge_tuple_sort in 8.0.18, the
// merge_sort of ddl0buffer.cc in 8.0.27+): a top-down merge sort of the entry pointers through
// an auxiliary array of the same size. It returns the compares made.
func mergeSort(a, aux [][]dfield, lo, hi int) int {
	if hi-lo <= 1 {
		return 0
	}
	mid := (lo + hi) / 2
	n := mergeSort(a, aux, lo, mid) + mergeSort(a, aux, mid, hi)
	i, j := lo, mid
	for k := lo; k < hi; k++ {
		switch {
		case i >= mid:
			aux[k] = a[j]
			j++
		case j >= hi:
			aux[k] = a[i]
			i++
		default:
			n++
			if cmpTuple(a[i], a[j]) <= 0 {
				aux[k] = a[i]
				i++
			} else {
				aux[k] = a[j]
				j++
			}
		}
	}
	copy(a[lo:hi], aux[lo:hi])
	return n
}

// sortBench sorts key buffers of n entries of shape keyBytes and reports ns per entry per
// level (log2 n levels).
func sortBench(b *testing.B, n, keyBytes int) {
	r := rand.New(rand.NewPCG(1, uint64(keyBytes)))
	base := tuples(r, n, keyBytes)
	work, aux := make([][]dfield, n), make([][]dfield, n)
	var cmps int
	b.ResetTimer()
	for range b.N {
		b.StopTimer()
		copy(work, base)
		b.StartTimer()
		cmps += mergeSort(work, aux, 0, n)
	}
	b.StopTimer()
	levels := float64(b.N) * float64(n) * float64(bits.Len(uint(n-1)))
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/levels, "ns/compare-level")
	b.ReportMetric(float64(cmps)/float64(b.N*n), "compares/entry")
}

// BenchmarkKeyCompare is one level of the key buffer's in-memory merge sort per entry, on a
// buffer that stays in the CPU cache (8,192 entries): sorting n entries costs log2(n) of these
// per entry. ns/compare-level is costs.sort_row.
func BenchmarkKeyCompare(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) { sortBench(b, 1<<13, sh.keyBytes) })
	}
}

// BenchmarkKeySortBuffer is the same sort by buffer size. In the upper levels of a buffer much
// larger than the last-level cache each compare dereferences entries whose addresses are
// unrelated to their neighbours', DRAM misses that the CPU overlaps (the next compares'
// addresses are known from the pointer arrays, unlike a list walk's dependent chain,
// list_node). The largest size's ns/compare-level, from which the model's split of the levels
// into cached and missing ones (indexbuild sortNs) gives costs.sort_row_miss, is reported as
// is; see docs/indexbuild.md.
func BenchmarkKeySortBuffer(b *testing.B) {
	for _, n := range []int{1 << 13, 1 << 16, 1 << 19, 1 << 22} {
		for _, sh := range shapes {
			b.Run(fmt.Sprintf("%s/n=%d", sh.name, n), func(b *testing.B) { sortBench(b, n, sh.keyBytes) })
		}
	}
}

// tempRecords serializes sorted entries as a sort-file run in the temp-file record format
// (rec_convert_dtuple_to_temp): per record the extra-size prefix byte, the extra bytes (a
// 1-byte length for the variable-length CHAR of a multi-byte charset, none for an INT key),
// then the field data; a zero byte ends the run.
func tempRecords(ts [][]dfield) []byte {
	var out []byte
	for _, t := range ts {
		extra := 0
		if t[0].mtype == dataMySQL {
			extra = 1
		}
		out = append(out, byte(extra+1))
		if extra == 1 {
			out = append(out, byte(len(t[0].data)))
		}
		out = append(out, t[0].data...)
		out = append(out, t[1].data...)
	}
	return append(out, 0)
}

// mergeCursor is one input of a merge (ddl0merge.cc's File_cursor over its I/O buffer): the
// current record's position and its field offsets (rec_get_offsets, recomputed per record).
type mergeCursor struct {
	buf      []byte
	pos, end int // the current record: [pos, end); pos == len(buf)-1 at the end-of-run byte
	off      [3]int
	varKey   bool
	keyFixed int
}

// fetch decodes the record at c.pos: rec_init_offsets_temp walks the fields, taking a
// variable-length field's length from the extra bytes and a fixed one's from the type.
func (c *mergeCursor) fetch() bool {
	extra := int(c.buf[c.pos]) - 1
	if extra < 0 {
		return false
	}
	data := c.pos + 1 + extra
	n := c.keyFixed
	if c.varKey {
		n = int(c.buf[c.pos+1])
	}
	c.off = [3]int{data, data + n, data + n + 4}
	c.end = c.off[2]
	return true
}

// cmpRec is cmp_rec_rec over two cursors' current records, field by field through cmpData.
func cmpRec(a, b *mergeCursor, kt uint8, kc *collation) int {
	fa := dfield{data: a.buf[a.off[0]:a.off[1]], mtype: kt, coll: kc}
	fb := dfield{data: b.buf[b.off[0]:b.off[1]], mtype: kt, coll: kc}
	if c := cmpData(&fa, &fb); c != 0 {
		return c
	}
	pa := dfield{data: a.buf[a.off[1]:a.off[2]], mtype: dataInt}
	pb := dfield{data: b.buf[b.off[1]:b.off[2]], mtype: dataInt}
	return cmpData(&pa, &pb)
}

// BenchmarkMergeRun is one record through one 2-way merge pass (Merge_file_sort's
// merge_ranges, row_merge_blocks): decode the next record of each input run (its offsets),
// compare the two heads field by field, copy the smaller into the output buffer. ns/record is
// costs.merge_row (the buffers' file I/O and page-cache copies are charged separately).
func BenchmarkMergeRun(b *testing.B) {
	for _, sh := range shapes {
		b.Run(sh.name, func(b *testing.B) {
			r := rand.New(rand.NewPCG(2, uint64(sh.keyBytes)))
			const n = 4096
			ts := tuples(r, 2*n, sh.keyBytes)
			mergeSort(ts[:n], make([][]dfield, n), 0, n)
			mergeSort(ts[n:], make([][]dfield, n), 0, n)
			ra, rc := tempRecords(ts[:n]), tempRecords(ts[n:])
			kt, kc := keyType(sh.keyBytes)
			out := make([]byte, 0, len(ra)+len(rc))
			b.ResetTimer()
			for range b.N {
				out = out[:0]
				x := &mergeCursor{buf: ra, varKey: kt == dataMySQL, keyFixed: 4}
				y := &mergeCursor{buf: rc, varKey: kt == dataMySQL, keyFixed: 4}
				okx, oky := x.fetch(), y.fetch()
				for okx && oky {
					if cmpRec(x, y, kt, kc) <= 0 {
						out = append(out, x.buf[x.pos:x.end]...)
						x.pos = x.end
						okx = x.fetch()
					} else {
						out = append(out, y.buf[y.pos:y.end]...)
						y.pos = y.end
						oky = y.fetch()
					}
				}
				out = append(out, x.buf[x.pos:len(x.buf)-1]...)
				out = append(out, y.buf[y.pos:len(y.buf)-1]...)
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
			var es [][]byte
			for _, t := range tuples(r, 4096, sh.keyBytes) {
				es = append(es, append(append([]byte(nil), t[0].data...), t[1].data...))
			}
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
