package indexbuild

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/sim"
)

// Pool is the server's buffer pool as the build sees it. The server model implements it;
// Build never touches frames itself. Either method may leave part of its pages to the build,
// which then does that part in aggregate, as in aggregate mode (Pool == nil): so a pool can
// pass a table far larger than itself through in bulk and only the part that matters to its
// state page by page (docs/indexbuild.md, "What is aggregated").
type Pool interface {
	// ReadLeaves makes p read n consecutive clustered-index leaf pages of the source table,
	// starting at leaf `from`, through the buffer pool (hits cost CPU, misses cost I/O),
	// charging the costs itself. It returns how many of the n pages it left to the build,
	// which reads them from Data in read-ahead extents (PageMiss CPU per page).
	ReadLeaves(p *sim.Proc, from, n int64) (rest int64)
	// NewPages makes p create n new pages of index `index` (position in Spec.Indexes),
	// dirtied and tagged with the statement's flush observer. It returns how many of the n
	// it left to the build, which charges PageMiss per page and writes them to Data while
	// the load runs (they would have been flushed and evicted before the load ends).
	NewPages(p *sim.Proc, index int, n int64) (rest int64)
}

// Env is the machine the build runs on.
type Env struct {
	Sim   *sim.Sim
	Cores *sim.Cores
	// Data holds the table and the new index; Temp holds the sort files (innodb_tmpdir).
	Data, Temp *sim.Device
	// DataOpLatency and TempOpLatency are the mean service latencies of one read on each
	// device. An aggregated transfer of B bytes that the real code issues as B/io operations
	// of one buffer each, one at a time, pays (ops-1) × latency on top of the single Do that
	// carries its bytes. 0 = ignore (bandwidth-only).
	DataOpLatency, TempOpLatency sim.Time
	Costs                        config.Costs
	PageSize                     int64 // innodb_page_size (default 16 KiB)
	// CacheBytes is the last-level CPU cache of the machine (all sockets). An in-memory sort
	// level whose working set exceeds a sorting thread's share of it pays Costs.SortRowMiss
	// per compare instead of Costs.SortRow. Default 32 MiB.
	CacheBytes int64
	// Pool, when set, is used for the clustered-index scan and for the new pages. When nil
	// the build runs in aggregate mode: the table is read from Data in big sequential chunks
	// and new pages beyond DirtyLimitPages are written back to Data while the load runs.
	Pool            Pool
	DirtyLimitPages int64
	// PageCacheBytes is the OS page cache the sort files can use (PageCacheFor: memory not
	// taken by the buffer pool and the server). The sort files are buffered files, so runs
	// that fit are read back at memory speed and written back to Temp in the background
	// (pcache.go). 0 = no cache: every sort-file byte goes to and comes from Temp
	// (innodb_disable_sort_file_cache = ON, O_DIRECT).
	PageCacheBytes int64
}

// Index is one secondary index being built.
type Index struct {
	Name string
	// KeyBytes is the stored size of one entry: the key columns, the primary-key columns and
	// the per-record extra bytes (null bitmap, variable-length lengths), without the 5-byte
	// page record header.
	KeyBytes int64
	// Fields is the entry's field count, dict_index_get_n_fields: the key columns and the
	// primary-key columns not among them (0 = 2, one key column and a one-column primary key).
	// The fixed 8.0.4x key buffer charges a dfield_t per field.
	Fields int
	// Clustered marks the new clustered index of a rebuild: its pages keep
	// innodb_fill_factor's 1/16 free; a secondary index's are filled to the brim.
	Clustered bool
}

// MyRocksOpts are the MyRocks index-build settings.
type MyRocksOpts struct {
	MergeBufSize         int64 // rocksdb_merge_buf_size (default 64 MiB)
	MergeCombineReadSize int64 // rocksdb_merge_combine_read_size (default 1 GiB)
}

// Spec is one index-build statement (or, with OneAtATime, one statement per index).
type Spec struct {
	Version string // MySQL version: "8.0.27" and later use the parallel ddl0 build
	Engine  string // "innodb" (default) | "myrocks"

	Rows        int64 // rows in the table
	RowBytes    int64 // clustered-index record bytes (used when PKLeafPages is 0)
	PKLeafPages int64 // clustered-index leaf pages; 0 = Rows×RowBytes at a 15/16 page fill
	Indexes     []Index
	// OneAtATime runs one statement per index (each rescans the table) instead of one
	// statement building all indexes from one scan. A caller that must flush the observer
	// between statements calls Build once per index instead.
	OneAtATime bool
	// Rebuild is a table rebuild with the primary key unchanged (OPTIMIZE TABLE, ALTER TABLE
	// ... FORCE): Indexes[0] is the new clustered index, KeyBytes its whole record. Its
	// records leave the scan in key order and go straight into the bulk loader, with no sort
	// and no file: 8.0.18's row_merge_read_clustered_index with skip_pk_sort inserts each
	// full merge buffer with row_merge_insert_index_tuples into clust_btr_bulk; 8.0.27+'s
	// Builder::insert_direct loads it from a single-threaded scan (Parallel_cursor::scan forces
	// m_single_threaded_mode for a skip-sort builder). Each such row costs
	// Costs.RebuildRow + Costs.LoadRow on top of the scan's Costs.BuildRow (Row when 0).
	Rebuild bool

	Threads             int   // innodb_ddl_threads (8.0.27+; default 4)
	BufferSize          int64 // innodb_ddl_buffer_size (8.0.27+; default 1 MiB)
	ParallelReadThreads int   // innodb_parallel_read_threads (8.0.27+; default 4)
	SortBufferSize      int64 // innodb_sort_buffer_size (before 8.0.27; default 1 MiB)
	// SortEntryOverhead is the key-buffer bookkeeping charged per entry on top of KeyBytes
	// when deciding that a buffer is full; 0 = the version's own (entryOverhead):
	// none before 8.0.27 (row_merge_buf_add counts the data only), one dfield_t (24 bytes) per
	// entry in 8.0.27 – 8.0.40 and 8.4.0 – 8.4.3 (Key_sort_buffer::will_fit), and a dfield_t per
	// field plus two tuple pointers (24·Fields + 16) once the accounting was fixed.
	SortEntryOverhead int64

	// Resource limits; 0 = unlimited. Exceeding one fails the statement (Result.Failed).
	TempSpaceLimit int64 // free bytes on the temp device (innodb_tmpdir)
	MaxOpenFiles   int   // file descriptors the build may open for sort files
	MemoryLimit    int64 // bytes the build's buffers may take

	MyRocks MyRocksOpts

	// ChunkBytes is the aggregation unit: the simulated work is cut into steps of about this
	// much data (default 64 MiB). Smaller is finer-grained and slower to simulate.
	ChunkBytes int64
}

// Phase is one phase of the build, for one index (Index >= 0) or the statement (-1).
type Phase struct {
	Name       string // scan | merge | load (statement prefix "s<k>/" when OneAtATime)
	Index      int
	Start, End sim.Time
}

// Result reports what the build did.
type Result struct {
	Start, End sim.Time
	Phases     []Phase
	// Runs is the number of sorted runs (chunks) written to temp files, all indexes.
	Runs int64
	// MergePasses is the largest number of merge passes any one file needed;
	// IndexPasses holds it per index.
	MergePasses int64
	IndexPasses []int64
	PagesBuilt  int64 // pages of the new indexes (all levels)
	// PagesWrittenBack counts new pages written to Data during the load (aggregate mode);
	// the rest are left dirty for the observer flush.
	PagesWrittenBack int64
	TempBytesWritten int64 // bytes written to sort files
	TempBytesRead    int64 // bytes read from sort files
	// TempDeviceBytesWritten and TempDeviceBytesRead are what reached the temp device: all
	// of it without a page cache; with one, write-back of data not deleted first and the
	// reads that missed. PageCacheHitBytes were read from the page cache.
	TempDeviceBytesWritten int64
	TempDeviceBytesRead    int64
	PageCacheHitBytes      int64
	TempPeakBytes          int64 // most temp space in use at once
	PeakMemory             int64 // most buffer memory in use at once
	PeakOpenFiles          int
	Failed                 bool
	Reason                 string
}

// Duration is End - Start.
func (r *Result) Duration() sim.Time { return r.End - r.Start }

// Phase returns the first phase with this name and index, or a zero Phase.
func (r *Result) Phase(name string, index int) Phase {
	for _, ph := range r.Phases {
		if ph.Name == name && ph.Index == index {
			return ph
		}
	}
	return Phase{}
}

const (
	kib = int64(1) << 10
	mib = int64(1) << 20
	gib = int64(1) << 30

	// ioBlockSize is ddl::IO_BLOCK_SIZE (ddl0ddl.h): temp-file writes are multiples of it and
	// every run ends with a zero marker padded to it.
	ioBlockSize = 4 * kib
)

// withDefaults returns s with MySQL's defaults filled in, or an error for a malformed spec.
func (s Spec) withDefaults(env *Env) (Spec, error) {
	if env.PageSize <= 0 {
		env.PageSize = 16 * kib
	}
	if env.CacheBytes <= 0 {
		env.CacheBytes = 32 * mib
	}
	if s.Engine == "" {
		s.Engine = "innodb"
	}
	if s.Engine != "innodb" && s.Engine != "myrocks" {
		return s, fmt.Errorf("indexbuild: engine %q: want innodb or myrocks", s.Engine)
	}
	if s.Version == "" {
		s.Version = "8.0.32"
	}
	if _, err := parseVersion(s.Version); err != nil {
		return s, err
	}
	if s.Rows < 0 {
		return s, fmt.Errorf("indexbuild: rows %d < 0", s.Rows)
	}
	if len(s.Indexes) == 0 {
		return s, fmt.Errorf("indexbuild: no indexes to build")
	}
	if s.Rebuild && (s.Engine != "innodb" || s.OneAtATime) {
		return s, fmt.Errorf("indexbuild: a table rebuild is modelled for InnoDB, as one statement")
	}
	for i, ix := range s.Indexes {
		if ix.KeyBytes <= 0 {
			return s, fmt.Errorf("indexbuild: index %d (%s): key_bytes %d must be > 0", i, ix.Name, ix.KeyBytes)
		}
	}
	if s.Threads <= 0 {
		s.Threads = 4
	}
	if s.BufferSize <= 0 {
		s.BufferSize = mib
	}
	if s.ParallelReadThreads <= 0 {
		s.ParallelReadThreads = 4
	}
	if s.SortBufferSize <= 0 {
		s.SortBufferSize = mib
	}
	for i := range s.Indexes {
		if s.Indexes[i].Fields <= 0 {
			s.Indexes[i].Fields = 2
		}
	}
	if s.MyRocks.MergeBufSize <= 0 {
		s.MyRocks.MergeBufSize = 64 * mib
	}
	if s.MyRocks.MergeCombineReadSize <= 0 {
		s.MyRocks.MergeCombineReadSize = gib
	}
	if s.ChunkBytes <= 0 {
		s.ChunkBytes = 64 * mib
	}
	if s.RowBytes <= 0 {
		s.RowBytes = 100
	}
	if s.PKLeafPages <= 0 {
		s.PKLeafPages = ceilDiv(s.Rows*s.RowBytes, env.PageSize*15/16)
	}
	return s, nil
}

// dfieldBytes is sizeof(dfield_t) (data pointer, bit fields, length, dtype_t).
const dfieldBytes = 24

// entryOverhead is the key-buffer accounting per entry of version's build (see
// Spec.SortEntryOverhead; the release that fixed it is inferred from the copyright years of
// the copies read: docs/indexbuild.md, "Key buffers").
func entryOverhead(version string, ix Index) int64 {
	v, _ := parseVersion(version)
	switch {
	case !parallelDDL(version):
		return 0
	case v[0] == 8 && v[1] == 0 && v[2] <= 40, v[0] == 8 && v[1] == 4 && v[2] <= 3:
		return dfieldBytes
	}
	return dfieldBytes*int64(ix.Fields) + 16
}

// overhead is the accounting per entry of index ix in this build.
func (s *Spec) overhead(ix Index) int64 {
	if s.SortEntryOverhead > 0 {
		return s.SortEntryOverhead
	}
	return entryOverhead(s.Version, ix)
}

// parallelDDL reports whether version uses the 8.0.27+ ddl0* build.
func parallelDDL(version string) bool {
	v, _ := parseVersion(version)
	return v[0] > 8 || (v[0] == 8 && (v[1] > 0 || v[2] >= 27))
}

func parseVersion(s string) ([3]int, error) {
	var v [3]int
	parts := strings.SplitN(strings.TrimSpace(s), ".", 3)
	for i, p := range parts {
		p = strings.TrimRight(p, "xX-abcdefghijklmnopqrstuvwyz")
		if p == "" && i == 2 {
			break // "5.7.x"
		}
		n, err := strconv.Atoi(p)
		if err != nil {
			return v, fmt.Errorf("indexbuild: version %q: want major.minor.patch", s)
		}
		v[i] = n
	}
	return v, nil
}

func ceilDiv(a, b int64) int64 {
	if a <= 0 {
		return 0
	}
	return (a + b - 1) / b
}

func alignUp(a, b int64) int64 { return ceilDiv(a, b) * b }

// ceilLog2 is the number of halvings that take n to 1: the pass count of a 2-way merge of n
// runs, and the level count of a merge sort of n entries.
func ceilLog2(n int64) int64 {
	var k int64
	for x := int64(1); x < n; x <<= 1 {
		k++
	}
	return k
}
