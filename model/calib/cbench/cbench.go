//go:build cgo

package cbench

/*
#cgo CFLAGS: -O2 -std=gnu11 -Wall
#include "bench.h"
*/
import "C"

import "unsafe"

// Available reports whether the C benchmarks are compiled in (they need cgo).
const Available = true

// Shape is the index a Tree is built as.
type Shape int

const (
	Clustered Shape = 0 // sysbench's sbtest clustered index: id, DB_TRX_ID, DB_ROLL_PTR, k, c, pad
	Secondary Shape = 1 // its k index: (k, id)
)

// Tree is a bulk-loaded B-tree of InnoDB compact pages in C memory, with the buffer pool's
// descriptors and page hash over it.
type Tree struct {
	p      *C.cb_tree
	Rows   int64
	Height int
	Leaves int
}

// NewTree builds a tree of rows records, leafRecs per leaf and nodeRecs node pointers per
// upper page. varlen stores c and pad as MySQL 8.0's utf8mb4 CHAR (variable length) instead
// of MariaDB 10.11's default latin1 (fixed).
func NewTree(rows int64, leafRecs, nodeRecs int, shape Shape, varlen bool, seed uint64) *Tree {
	p := C.cb_tree_build(C.long(rows), C.int(leafRecs), C.int(nodeRecs), C.int(shape), cbool(varlen), C.uint64_t(seed))
	return &Tree{p: p, Rows: rows, Height: int(p.height), Leaves: int(p.n_leaves)}
}

// Free releases the tree's memory.
func (t *Tree) Free() { C.cb_tree_free(t.p) }

func cbool(b bool) C.int {
	if b {
		return 1
	}
	return 0
}

func keysPtr(k []int32) *C.int32_t    { return (*C.int32_t)(unsafe.Pointer(&k[0])) }
func pagesPtr(p []uint32) *C.uint32_t { return (*C.uint32_t)(unsafe.Pointer(&p[0])) }

// PageAt is the page number a search for key passes at level (0 = leaf).
func (t *Tree) PageAt(key int32, level int) uint32 {
	return uint32(C.cb_tree_page_at(t.p, C.int32_t(key), C.int(level)))
}

// PageGet runs iters page gets (buf_page_get_gen + release) over pages.
func (t *Tree) PageGet(pages []uint32, iters int) uint64 {
	return uint64(C.cb_bench_page_get(t.p, pagesPtr(pages), C.long(len(pages)), C.long(iters)))
}

// PageSearch runs iters page_cur_search_with_match on pages[i] for keys[i] (bytes: the
// bytewise leaf variant) and returns the compares made.
func (t *Tree) PageSearch(pages []uint32, keys []int32, iters int, bytes bool) (cmps uint64) {
	var c C.uint64_t
	C.cb_bench_page_search(t.p, pagesPtr(pages), keysPtr(keys), C.long(len(keys)), C.long(iters), cbool(bytes), &c)
	return uint64(c)
}

// Guess modes of Point.
const (
	NoGuess     = 0 // descend
	Guess       = 1 // the AHI's guess when the index's search info allows it (last_hash_succ)
	AlwaysGuess = 2 // the guess on every lookup (its own cost, whatever the search info says)
)

// Point runs iters point lookups over keys: the AHI's guess in a first (per guess), a
// descent otherwise or when it fails; ahiOn makes a descent do what it does with the AHI
// enabled (a's search info is updated when a is not nil); withRow adds the point select's
// row work. Returns the AHI hits.
func (t *Tree) Point(a *AHI, guess int, ahiOn bool, keys []int32, iters int, withRow bool) (hits uint64) {
	var h C.uint64_t
	var ap *C.cb_ahi
	if a != nil {
		ap = a.p
	}
	C.cb_bench_point(t.p, ap, C.int(guess), cbool(ahiOn), keysPtr(keys), C.long(len(keys)), C.long(iters), cbool(withRow), &h)
	return uint64(h)
}

// PointMT runs iters point selects by descent in each of threads threads at once and returns
// their CPU time in ns, summed.
func (t *Tree) PointMT(keys []int32, iters, threads int) (cpuNs uint64) {
	return uint64(C.cb_bench_point_mt(t.p, keysPtr(keys), C.long(len(keys)), C.long(iters), C.int(threads)))
}

// Range runs iters ranges of rows records from keys[i]: positioning and row time in ns.
// templ: 0 = SELECT c, 1 = SELECT SUM(k), 2 = the whole row.
func (t *Tree) Range(keys []int32, iters, rows, templ int) (posNs, rowsNs uint64) {
	var p, r C.uint64_t
	C.cb_bench_range(t.p, keysPtr(keys), C.long(len(keys)), C.long(iters), C.long(rows), C.int(templ), &p, &r)
	return uint64(p), uint64(r)
}

// AHI is one adaptive-hash-index partition (the tree's index's) with its search info.
type AHI struct{ p *C.cb_ahi }

// NewAHI makes a partition of cells hash cells with room for maxNodes nodes.
func NewAHI(cells, maxNodes int) *AHI {
	return &AHI{C.cb_ahi_create(C.size_t(cells), C.size_t(maxNodes))}
}

// Free releases the partition.
func (a *AHI) Free() { C.cb_ahi_free(a.p) }

// Entries is the number of nodes in the partition.
func (a *AHI) Entries() int { return int(a.p.part.heap_top) }

// Visits is the number of chain nodes visited so far.
func (a *AHI) Visits() uint64 { return uint64(a.p.part.visits) }

// BuildAll builds the hash index of every leaf of t.
func (t *Tree) BuildAll(a *AHI) { C.cb_ahi_build_all(t.p, a.p) }

// DropBuild drops and rebuilds the hash index of pages[i], iters times: ns of each, summed.
func (t *Tree) DropBuild(a *AHI, pages []uint32, iters int) (dropNs, buildNs uint64) {
	var d, b C.uint64_t
	C.cb_bench_ahi_drop_build(t.p, a.p, pagesPtr(pages), C.long(len(pages)), C.long(iters), &d, &b)
	return uint64(d), uint64(b)
}

// DelIns removes and re-adds the hash entry of keys[i]'s record, iters times: ns of each.
func (t *Tree) DelIns(a *AHI, keys []int32, iters int) (delNs, insNs uint64) {
	var d, in C.uint64_t
	C.cb_bench_ahi_del_ins(t.p, a.p, keysPtr(keys), C.long(len(keys)), C.long(iters), &d, &in)
	return uint64(d), uint64(in)
}

// Latch takes and releases the partition's latch in X iters times.
func (a *AHI) Latch(iters int) { C.cb_bench_ahi_latch(a.p, C.long(iters)) }

// Log is the log buffer, its latch and the flush list mutex.
type Log struct{ p *C.cb_log }

// NewLog makes a log buffer of size bytes.
func NewLog(size int) *Log { return &Log{C.cb_log_create(C.size_t(size))} }

// Free releases the log.
func (l *Log) Free() { C.cb_log_free(l.p) }

// Statement kinds of StmtLog.
const (
	UpdateNonKey = 0
	UpdateKey    = 1
	Delete       = 2
	Insert       = 3
	Commit       = 4
	InsertNew    = 5 // oltp_insert's INSERT of a new id
)

// StmtLog writes kind's undo and redo records and commits its mini-transactions iters
// times, on keys' records in turn; madeDirty: each mtr finds its page clean (flush-list
// insertion). Returns the redo bytes written.
func (t *Tree) StmtLog(l *Log, kind int, keys []int32, iters int, madeDirty bool) uint64 {
	return uint64(C.cb_bench_stmt_log(t.p, l.p, C.int(kind), keysPtr(keys), C.long(len(keys)), C.long(iters), cbool(madeDirty)))
}

// Pause runs iters PAUSE instructions.
func Pause(iters int) { C.cb_bench_pause(C.long(iters)) }

// RelaxMultiplier is MariaDB's my_cpu_relax_multiplier on this CPU (my_cpu_init's test).
func RelaxMultiplier() int { return int(C.cb_relax_multiplier()) }

// LookupID is the id of the record a lookup of key lands on (-1 none, -2 a latch left held,
// -3 the index latch left held), by the AHI's guess when guess (hit: it succeeded).
func (t *Tree) LookupID(a *AHI, guess bool, key int32) (id int32, hit bool) {
	var h C.int
	var ap *C.cb_ahi
	if a != nil {
		ap = a.p
	}
	id = int32(C.cb_lookup_id(t.p, ap, cbool(guess), C.int32_t(key), &h))
	return id, h != 0
}

// RangeIDs is the ids of the n rows a range scan from key returns.
func (t *Tree) RangeIDs(key int32, n int) []int32 {
	ids := make([]int32, n)
	got := C.cb_range_ids(t.p, C.int32_t(key), C.long(n), (*C.int32_t)(unsafe.Pointer(&ids[0])))
	if got < 0 {
		return nil
	}
	return ids[:got]
}

// LogBytes is the redo bytes appended to l so far.
func (l *Log) LogBytes() uint64 { return uint64(l.p.bytes) }

// UndoFree is the undo page's first free offset (TRX_UNDO_PAGE_FREE).
func (l *Log) UndoFree() int {
	b := unsafe.Slice((*byte)(unsafe.Pointer(l.p.undo)), 16384)
	return int(b[38+4])<<8 | int(b[38+5])
}

// MtrWrite commits iters mini-transactions of one n-byte WRITE record each; returns the redo
// bytes.
func (l *Log) MtrWrite(n, iters int, madeDirty bool) uint64 {
	return uint64(C.cb_bench_mtr(l.p, C.uint(n), C.long(iters), cbool(madeDirty)))
}

// Check is the number of the tree's pages whose record list, key order or directory is not
// InnoDB's (page_validate's checks).
func (t *Tree) Check() int { return int(C.cb_tree_check(t.p)) }

// Index shapes of Build: the sysbench table's secondary indexes.
const (
	IndexK     = 0 // (k INT, id INT)
	IndexC     = 1 // (c CHAR(120) latin1, fixed length: MariaDB 10.11's default charset; id)
	IndexCUTF8 = 2 // (c CHAR(120) utf8mb4_0900_ai_ci, variable length: MySQL 8.0's; id)
)

// Server families of the build loops.
const (
	Row0Merge = 0 // MariaDB 10.11 / MySQL 8.0.18 row0merge.cc + btr0bulk.cc
	DDL80     = 1 // MySQL 8.0.27+ ddl0*.cc + btr0load.cc
)

// Build is a key buffer of entries of one index shape and two sorted runs of its halves in
// the temporary-file format (build.c).
type Build struct {
	p *C.cb_build
	N int
}

// NewBuild makes a key buffer of n entries of shape ix in random key order.
func NewBuild(ix, n int, seed uint64) *Build {
	return &Build{p: C.cb_build_create(C.int(ix), C.long(n), C.uint64_t(seed)), N: n}
}

// Free releases the buffer.
func (b *Build) Free() { C.cb_build_free(b.p) }

// Sort sorts the buffer iters times from its unsorted order: ns sorting and compares made.
func (b *Build) Sort(fam, iters int) (ns, cmps uint64) {
	var c C.uint64_t
	ns = uint64(C.cb_bench_key_sort(b.p, C.int(fam), C.long(iters), &c))
	return ns, uint64(c)
}

// SortedIDs is the entries' ids in the buffer's current order and how many neighbours are
// out of order.
func (b *Build) SortedIDs() (ids []int32, bad int) {
	ids = make([]int32, b.N)
	bad = int(C.cb_key_sorted_check(b.p, (*C.int32_t)(unsafe.Pointer(&ids[0]))))
	return ids, bad
}

// Merge merges the two runs iters times: ns (0: a format error or a duplicate).
func (b *Build) Merge(fam, iters int) uint64 {
	return uint64(C.cb_bench_merge(b.p, C.int(fam), C.long(iters)))
}

// KMerge runs 8.0.27+'s Merge_cursor over k sorted runs of the entries iters times (the
// load's merge of an index's k scan-thread files): ns (0: an error) and the priority queue's
// compares over the iters merges.
func (b *Build) KMerge(k, iters int) (ns, cmps uint64) {
	var c C.uint64_t
	ns = uint64(C.cb_bench_kmerge(b.p, C.int(k), C.long(iters), &c))
	return ns, uint64(c)
}

// KMergeMax is the most runs KMerge takes.
const KMergeMax = C.CB_KMERGE_MAX

// MergedIDs is the ids of the merged run's records in order (nil on a format error).
func (b *Build) MergedIDs(fam int) []int32 {
	ids := make([]int32, b.N)
	n := int(C.cb_merge_ids(b.p, C.int(fam), (*C.int32_t)(unsafe.Pointer(&ids[0]))))
	if n != b.N {
		return nil
	}
	return ids
}

// Load bulk-loads the merged run into pages iters times: ns (0: failed) and pages made.
func (b *Build) Load(fam, iters int) (ns uint64, pages int) {
	var p C.long
	ns = uint64(C.cb_bench_load(b.p, C.int(fam), C.long(iters), &p))
	return ns, int(p)
}

// LoadCheck runs page_validate's checks over the last load's pages: the ids in leaf order
// and the number of bad pages.
func (b *Build) LoadCheck() (ids []int32, bad int) {
	ids = make([]int32, b.N)
	bad = int(C.cb_load_check(b.p, (*C.int32_t)(unsafe.Pointer(&ids[0]))))
	return ids, bad
}

// Scan runs row_merge_read_clustered_index's per-row work over rows rows of t (a Clustered
// tree): row_build, then row_merge_buf_add into each index of ix; rebuild adds the new
// clustered index's entry and bulk insert. Returns ns.
func (t *Tree) Scan(ix []int, rebuild bool, rows int) uint64 {
	cix := make([]C.int, len(ix)+1)
	for i, v := range ix {
		cix[i] = C.int(v)
	}
	return uint64(C.cb_bench_scan(t.p, &cix[0], C.int(len(ix)), cbool(rebuild), C.long(rows)))
}

// RowBuildRoundTrip rebuilds row j's clustered record from its row_build tuple: 0 when the
// bytes are the original's.
func (t *Tree) RowBuildRoundTrip(j int) int { return int(C.cb_row_build_roundtrip(t.p, C.long(j))) }

// Entry is entry i's key bytes (as stored: an INT big-endian with its sign bit flipped) and
// id, in the buffer's original order.
func (b *Build) Entry(i int) (key []byte, id int32) {
	var buf [128]byte
	var n C.uint
	var cid C.int32_t
	C.cb_build_entry(b.p, C.long(i), (*C.byte)(unsafe.Pointer(&buf[0])), &n, &cid)
	return append([]byte(nil), buf[:n]...), int32(cid)
}
