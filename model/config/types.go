package config

import (
	"fmt"
	"slices"
	"strings"
)

// This file is the scenario schema: the Go shape every other package reads. Loading,
// defaults and validation live beside it (load.go, defaults.go, validate.go).
//
// Naming: YAML keys are snake_case; MySQL settings keep MySQL's own names
// (innodb_buffer_pool_size, ...), so a user can paste them from my.cnf.

// Scenario is one runnable simulation: a machine, a MySQL configuration, data, load and
// a schedule of DDL statements.
type Scenario struct {
	Name        string `yaml:"name"`
	Description string `yaml:"description,omitempty"`
	Seed        uint64 `yaml:"seed"`

	// Hardware is either a path to a profile file (relative to the scenario file) or an
	// inline profile. After loading, HardwareProfile holds the resolved profile and
	// HardwareRef the path it came from ("" when inline).
	Hardware        HardwareRef `yaml:"hardware"`
	HardwareProfile Hardware    `yaml:"-"`

	MySQL MySQL `yaml:"mysql"`

	// Policy selects the buffer-pool maintenance policy (policies/ registry name) and its
	// parameters: `policy: fullscan` or `policy: {name: indexed, batch: 256}`.
	Policy PolicySpec `yaml:"policy"`

	Data     []Table  `yaml:"data"`
	Warm     Warm     `yaml:"warm"`
	Warmup   Duration `yaml:"warmup"`   // virtual time simulated before measuring starts
	Duration Duration `yaml:"duration"` // measured virtual time after warmup; with until, the hard cap
	// Until, when set, ends the run when its work does, before duration: see Until.
	// `duration: until_ddl_done` is short for `until: ddl_done` with the default cap.
	Until    Until      `yaml:"until,omitempty"`
	Workload []Workload `yaml:"workload"`
	Schedule []DDLEvent `yaml:"schedule"`
	Report   Report     `yaml:"report"`
	// SLO is a latency objective ("p99=5ms"): a run with one (or with open-loop traffic)
	// measures each DDL statement's latency harm against it (docs/output.md).
	SLO SLO `yaml:"slo,omitempty"`
	// Observed is what the real server did (ddlsim import --status writes it): every run
	// compares its simulated statement rate with it (internal/trust). It does not change
	// what is simulated: Hash leaves it out.
	Observed Observed `yaml:"observed,omitempty"`

	// Warnings are the loader's findings about legal but suspicious settings (warnings.go),
	// each at the line that causes it. They are not configuration: Marshal and Hash leave
	// them out.
	Warnings []*FieldError `yaml:"-"`
	// Origins says where each value the files and overrides gave was written: its path
	// (hardware.costs.page_hit) → the file and line ("--set" for an override), the hardware
	// profile's values in the profile file or the base file they were taken from. Not
	// configuration: Marshal and Hash leave it out (what trust reports, internal/trust).
	Origins map[string]Pos `yaml:"-"`
}

// Until ends a run early. Event "ddl_done": the run stops After the last scheduled DDL
// statement has ended (finished or failed), rounded up to a report interval, so no
// statement is left unfinished because the duration was guessed short; Duration is then
// the hard cap, and a run that reaches it reports its statements as unfinished.
// Written `until: ddl_done` or `until: {event: ddl_done, after: 30s}`.
type Until struct {
	Event string   `yaml:"event,omitempty"` // ddl_done
	After Duration `yaml:"after,omitempty"` // measured tail after the last statement ends (default 10s)
}

// UntilDDLDone is the Until event that ends a run when its last DDL statement has ended.
const UntilDDLDone = "ddl_done"

// UntilDDLDoneDuration is the `duration:` keyword for until ddl_done with the default cap.
const UntilDDLDoneDuration = "until_ddl_done"

// DefaultUntilCap and DefaultUntilAfter are until's defaults: the hard cap on the measured
// time, and the tail measured after the last statement (traffic recovering from it).
const (
	DefaultUntilCap   = 2 * 3600 * Second
	DefaultUntilAfter = 10 * Second
)

// HardwareRef is a profile path or an inline Hardware; exactly one is set after decoding.
type HardwareRef struct {
	Path   string
	Inline *Hardware
}

// Hardware describes the machine: cores, memory, storage devices and the model's cost
// constants. Every constant carries, in the profile YAML, a comment saying where its value
// comes from.
type Hardware struct {
	Name    string   `yaml:"name"`
	Cores   int      `yaml:"cores"` // hardware threads the OS schedules on
	Memory  Size     `yaml:"memory"`
	Storage Storage  `yaml:"storage"`
	Costs   Costs    `yaml:"costs"`
	Quantum Duration `yaml:"quantum"` // scheduler time slice when threads outnumber cores
	// ClientRTT is the network round trip between the benchmark client and the server plus
	// the client's own work per statement: every statement of sysbench/tpcc waits for it.
	ClientRTT Duration `yaml:"client_rtt"`
	// LLC is the last-level CPU cache of the machine, all sockets (index-build sort: levels
	// whose working set exceeds a sorting thread's share pay a DRAM miss per compare).
	// 0 = the model's default (32 MiB).
	LLC Size `yaml:"llc,omitempty"`
	// Client describes where the benchmark client runs. Zero (the default): on another
	// machine, its work is in client_rtt and costs these cores nothing.
	Client Client `yaml:"client,omitempty"`
	// FS is the cost of the file-system calls a DROP / TRUNCATE makes on the data device's
	// filesystem (measured by lab/probe/fscost). Omitted: those calls cost nothing (the
	// statement's file work is not simulated).
	FS FS `yaml:"fs,omitempty"`
	// Provenance says, per value, whether it was measured, fitted (on what) or assumed
	// (provenance.go); documentation only, not part of the effective configuration.
	Provenance []Provenance `yaml:"provenance,omitempty"`
}

// FS is the wall time of the file-system calls of a tablespace's creation and removal. The
// calls wait (the thread sleeps in the kernel, < 1 us of CPU per MiB): none is charged as CPU
// except the small fixed ones (unlink, rename, create), whose CPU equals their wall time.
type FS struct {
	// FreeWritten is close(2) of an unlinked file, by the size of its written extents: the
	// blocks are freed when the last handle goes (MariaDB's os_file_close after the drop).
	// Interpolated linearly between points, extrapolated by the last slope.
	FreeWritten []FSPoint `yaml:"free_written,omitempty"`
	// UnlinkWritten is unlink(2) of a closed file, by its written size (MySQL 8.0's
	// os_file_delete in the post-DDL phase: the blocks are freed in the unlink).
	UnlinkWritten []FSPoint `yaml:"unlink_written,omitempty"`
	// FreeUnwritten + FreeUnwrittenPerMiB × MiB is the release of allocated extents that
	// were never written (fallocate'd, no data).
	FreeUnwritten       Duration `yaml:"free_unwritten,omitempty"`
	FreeUnwrittenPerMiB Duration `yaml:"free_unwritten_per_mib,omitempty"`
	Unlink              Duration `yaml:"unlink,omitempty"`    // unlink(2) of an open file: the name only
	Rename              Duration `yaml:"rename,omitempty"`    // rename(2)
	Create              Duration `yaml:"create,omitempty"`    // open(O_CREAT|O_EXCL) + fallocate of the first 64 KiB + close
	FileSync            Duration `yaml:"file_sync,omitempty"` // fsync of a small file (the SQL layer's ddl_recovery.log)
}

// FSPoint is one measured size: a file with Size bytes written takes Wall.
type FSPoint struct {
	Size Size     `yaml:"size"`
	Wall Duration `yaml:"wall"`
}

// Client is the benchmark client's placement: `client: {colocated: true, cpu_per_statement:
// 15us}` runs sysbench/tpcc on the same cores as the server, each statement first costing
// the client cpu_per_statement of CPU (Lua, protocol, its syscalls) on a modelled core.
type Client struct {
	Colocated       bool     `yaml:"colocated,omitempty"`
	CPUPerStatement Duration `yaml:"cpu_per_statement,omitempty"`
}

// Storage holds the devices the model uses.
type Storage struct {
	Data Device `yaml:"data"` // tablespaces, doublewrite
	Log  Device `yaml:"log"`  // redo log (commit fsync)
	Temp Device `yaml:"temp"` // sort runs, temp tablespaces
}

// Device is one storage device.
type Device struct {
	Channels  int          `yaml:"channels"`  // operations served in parallel (queue depth)
	Read      Distribution `yaml:"read"`      // latency of one read
	Write     Distribution `yaml:"write"`     // latency of one write
	Sync      Distribution `yaml:"sync"`      // latency of an fsync (log device commit)
	Bandwidth Size         `yaml:"bandwidth"` // bytes per second, 0 = unlimited
	// Capacity is the free space of the device for sort files (innodb_tmpdir): read on the
	// temp device, or on the data device when temp is omitted. A build whose sort files
	// need more fails (ER_TEMP_FILE_WRITE_FAILURE). 0 = unlimited.
	Capacity Size `yaml:"capacity,omitempty"`
}

// Distribution is a latency distribution:
//
//	{dist: constant, value: 100us}
//	{dist: exponential, mean: 100us}
//	{dist: lognormal, p50: 100us, p99: 1ms}
//	{dist: empirical, table: [[0.5, 100us], [0.99, 1ms], [1.0, 5ms]]}
type Distribution struct {
	Dist  string          `yaml:"dist"`
	Value Duration        `yaml:"value,omitempty"`
	Mean  Duration        `yaml:"mean,omitempty"`
	P50   Duration        `yaml:"p50,omitempty"`
	P99   Duration        `yaml:"p99,omitempty"`
	Table []QuantilePoint `yaml:"table,omitempty"`
}

// QuantilePoint is one row of an empirical latency table: P(latency <= Value) = Q.
type QuantilePoint struct {
	Q     float64
	Value Duration
}

// Costs are the model's CPU cost constants, in virtual time per unit of work. A profile
// must write every one (0 makes that work free) except those tagged zero:"default", whose
// 0 means the model's default (load.go, unwrittenCosts).
type Costs struct {
	PageHit      Duration `yaml:"page_hit"`      // page-hash lookup + buffer-fix + latch of a resident page
	PageMiss     Duration `yaml:"page_miss"`     // CPU of the miss path besides the I/O wait (frame setup, hash insert)
	ListNode     Duration `yaml:"list_node"`     // visiting one LRU/flush-list node in a scan (a cache-missing pointer chase)
	Row          Duration `yaml:"row"`           // evaluating one row in a statement (parse, copy, compare)
	Statement    Duration `yaml:"statement"`     // fixed per-statement CPU (parse, optimize, network round trip on the server side)
	Commit       Duration `yaml:"commit"`        // CPU of a commit besides the log write
	MutexHandoff Duration `yaml:"mutex_handoff"` // futex wake-up of a sleeping waiter
	MutexSpin    Duration `yaml:"mutex_spin"`    // spin before sleeping (innodb_spin_wait_delay x rounds)
	// ContextSwitch is the CPU of a thread's sleep and wake-up around a wait for an I/O
	// (schedule out, the completion's wake-up, schedule in): charged once per such sleep.
	ContextSwitch Duration `yaml:"context_switch"`
	// AHIFold is folding one record for the adaptive hash index (rec_get_offsets + rec_fold),
	// per record of a page whose entries are built or dropped.
	AHIFold Duration `yaml:"ahi_fold"`
	// AHINode is visiting one node of an AHI hash chain (a cache miss on a pool-sized table):
	// a delete walks 2·(1 + α/2) of them, an insert 1 + α.
	AHINode Duration `yaml:"ahi_node"`
	// BlockScan is reading one control block in a sequential pass over a chunk's blocks (not
	// a list walk: the blocks are contiguous): Percona's lazy-drop AHI pass.
	BlockScan    Duration `yaml:"block_scan"`
	PageFree     Duration `yaml:"page_free"`      // removing one page from LRU/hash/flush list and freeing it
	PageFlushCPU Duration `yaml:"page_flush_cpu"` // CPU to prepare one page write (checksum, doublewrite copy)
	SortRow      Duration `yaml:"sort_row"`       // one compare level of the DDL's in-memory run sort, on cached entries
	// SortRowMiss is one compare level of the run sort above the sorting thread's share of the
	// last-level cache (entries fetched from DRAM, the misses overlapped by the CPU); 0 = the
	// larger of list_node and sort_row.
	SortRowMiss Duration `yaml:"sort_row_miss,omitempty" zero:"default"`
	// FilesortRow is one compare level of an in-memory sort outside the index build (a
	// statement's filesort of its rows, the flush toolkit's sort of its pages); 0 = sort_row.
	FilesortRow Duration `yaml:"filesort_row,omitempty" zero:"default"`
	// BuildRow is the index build's per-row work on one clustered row it scans
	// (row_merge_read_clustered_index's cursor step, delete mark, rec_get_offsets, read-view
	// check, row_build; 8.0.27+ the Parallel_reader callback's same steps), without the SQL
	// layer's per-row work that row stands for; 0 = row (older profiles).
	BuildRow     Duration `yaml:"build_row,omitempty" zero:"default"`
	MergeRow     Duration `yaml:"merge_row"`      // one row through one merge pass
	LoadRow      Duration `yaml:"load_row"`       // one row appended by the bulk loader
	Connect      Duration `yaml:"connect"`        // server-side CPU of connect + auth + disconnect
	TempTableRow Duration `yaml:"temp_table_row"` // one row into an internal temp table
	// PageCacheCopy is the CPU to copy one 4 KiB page between the OS page cache and a user
	// buffer (pread/pwrite of a buffered file: the index build's sort files).
	PageCacheCopy Duration `yaml:"page_cache_copy"`
	// RebuildRow is the extra CPU of one row of a table rebuild: row_build of the whole old
	// record, then row_build_index_entry and rec_convert_dtuple_to_rec of the new clustered
	// record (charged on top of Row and LoadRow).
	RebuildRow Duration `yaml:"rebuild_row"`
	// PageReadCPU is the server CPU of one data-file page read besides waiting for it: the
	// syscall, block layer and driver submission, the completion (the sleep and wake-up
	// around the wait are context_switch). Charged to the thread that reads.
	PageReadCPU Duration `yaml:"page_read_cpu"`
	// PageWriteCPU is the same for one data-file write operation (one page, or one
	// doublewrite batch written sequentially), charged to the thread that submits it.
	PageWriteCPU Duration `yaml:"page_write_cpu"`

	// The access-path costs (docs/cpu-model.md §9.1), opt-in: a profile that writes none of
	// them (rec_cmp and index_latch both 0) is charged as before. Each is measured by a
	// model/calib benchmark or the lab's probe; page_hit is then the measured page access.
	//
	// RecCmp is one compare of a page search (page_cur_search_with_match): a descent does
	// log2(n_recs/4) + 2.5 of them per level (benchmark PageSearch).
	RecCmp Duration `yaml:"rec_cmp,omitempty" zero:"default"`
	// IndexLatch is a descent's index S latch and its release (Descent − Σ levels).
	IndexLatch Duration `yaml:"index_latch,omitempty" zero:"default"`
	// AHIGuess is btr_search_guess_on_hash: the fold, the partition's S latch, the chain walk
	// and the record check (AHIGuess), charged instead of the upper levels of a descent.
	AHIGuess Duration `yaml:"ahi_guess,omitempty" zero:"default"`
	// AHIDescent is the extra of a descent with the AHI on: the bytewise leaf search and
	// btr_search_info_update (Descent/*-ahi-on − Descent/*).
	AHIDescent Duration `yaml:"ahi_descent,omitempty" zero:"default"`
	// AHIRecInsert and AHIRecDelete are btr_search_update_hash_on_insert / _on_delete for a
	// record changed on a hashed page, under the partition's X latch (AHIRecord); AHILatchX
	// is the X latch pair btr_cur_update_in_place takes on a hashed page (AHILatch).
	AHIRecInsert Duration `yaml:"ahi_rec_insert,omitempty" zero:"default"`
	AHIRecDelete Duration `yaml:"ahi_rec_delete,omitempty" zero:"default"`
	AHILatchX    Duration `yaml:"ahi_latch_x,omitempty" zero:"default"`
	// MtrCommit and RedoKiB are a mini-transaction's commit (log latch, LSN, copy, CRC-32C)
	// and its cost per KiB of redo (MtrCommit intercept and slope; per KiB because the
	// measured slope, 0.43–0.48 ns a byte, is below the durations' 1 ns resolution). The flush-list insertion
	// of a first-dirtying mtr is the model's flush_list_mutex acquisition, as before.
	MtrCommit Duration `yaml:"mtr_commit,omitempty" zero:"default"`
	RedoKiB   Duration `yaml:"redo_kib,omitempty" zero:"default"`
	// SeqWriteCPU + SeqWriteKiB × KiB is the kernel CPU of one sequential O_DIRECT write
	// (the doublewrite batch, the redo log; per KiB: 32.7 ns measured); SyncCPU that of the
	// fdatasync after it
	// (lab/probe/writecpu, lab/results/machine/writecpu.tsv).
	SeqWriteCPU Duration `yaml:"seq_write_cpu,omitempty" zero:"default"`
	SeqWriteKiB Duration `yaml:"seq_write_kib,omitempty" zero:"default"`
	SyncCPU     Duration `yaml:"sync_cpu,omitempty" zero:"default"`
	// StatementSys is the per-statement kernel CPU of the protocol and the socket (fitted with
	// statement on the fit cell, docs/cpu-model.md §4); charged with statement.
	StatementSys Duration `yaml:"statement_sys,omitempty" zero:"default"`
}

// Paths reports whether the profile charges CPU by access path (docs/cpu-model.md §9).
func (c *Costs) Paths() bool { return c.RecCmp > 0 || c.IndexLatch > 0 }

// MySQL is the configuration subset the model reads, with MySQL's names and defaults. The
// mysql: block takes MySQL's own spellings (hyphens, bare integers in a variable's native
// unit: the `native` tag; mysqlvars.go).
type MySQL struct {
	// Version is the server: 5.5.N, 5.6.N, 5.7.N, 8.0.N, 8.4.N, percona-5.x.N or
	// mariadb-10.11.N (model/version). It selects the mutex layout, the DDL routines, the
	// defaults and the default policy.
	Version             string   `yaml:"version"`
	BufferPoolSize      Size     `yaml:"innodb_buffer_pool_size"`
	BufferPoolInstances int      `yaml:"innodb_buffer_pool_instances"`
	PageSize            Size     `yaml:"innodb_page_size"`
	OldBlocksPct        int      `yaml:"innodb_old_blocks_pct"`
	OldBlocksTime       Duration `yaml:"innodb_old_blocks_time" native:"ms"`
	PageCleaners        int      `yaml:"innodb_page_cleaners"`
	IOCapacity          int      `yaml:"innodb_io_capacity"`
	IOCapacityMax       int      `yaml:"innodb_io_capacity_max"`
	LRUScanDepth        int      `yaml:"innodb_lru_scan_depth"`
	AdaptiveHashIndex   *bool    `yaml:"innodb_adaptive_hash_index"`
	// AdaptiveHashIndexParts is innodb_adaptive_hash_index_parts: AHI partitions, each with
	// its own latch and hash table (1 before 5.7.8: the one btr_search_latch).
	AdaptiveHashIndexParts int `yaml:"innodb_adaptive_hash_index_parts"`
	// LockWaitTimeout is lock_wait_timeout: how long a statement waits for a metadata lock
	// before ER_LOCK_WAIT_TIMEOUT.
	LockWaitTimeout     Duration `yaml:"lock_wait_timeout" native:"s"`
	Doublewrite         *bool    `yaml:"innodb_doublewrite"`
	LogFileSize         Size     `yaml:"innodb_log_file_size"`
	LogFilesInGroup     int      `yaml:"innodb_log_files_in_group"`
	MaxDirtyPagesPct    float64  `yaml:"innodb_max_dirty_pages_pct"`
	MaxDirtyPagesPctLWM float64  `yaml:"innodb_max_dirty_pages_pct_lwm"`
	AdaptiveFlushingLWM float64  `yaml:"innodb_adaptive_flushing_lwm"`
	FlushLogAtTrxCommit int      `yaml:"innodb_flush_log_at_trx_commit"`
	SortBufferSize      Size     `yaml:"innodb_sort_buffer_size"`
	DDLThreads          int      `yaml:"innodb_ddl_threads"`
	DDLBufferSize       Size     `yaml:"innodb_ddl_buffer_size"`
	ParallelReadThreads int      `yaml:"innodb_parallel_read_threads"`
	AlterTableProgress  *bool    `yaml:"alter_table_progress"` // performance_schema stage instrumentation (observer counting pass)
	// OnlineAlterLogMaxSize is innodb_online_alter_log_max_size: the most an online ALTER's
	// modification log (the concurrent DML, row0log.cc) may grow to before the ALTER fails
	// with ER_INNODB_ONLINE_LOG_TOO_BIG. 0 = not set: the limit is not enforced (the
	// server's default is DefaultOnlineAlterLogMaxSize, 128MiB; scenarios written before the
	// limit was modelled keep their results and hash).
	OnlineAlterLogMaxSize Size `yaml:"innodb_online_alter_log_max_size,omitempty"`
	// DisableSortFileCache opens the index build's sort files with O_DIRECT
	// (os_file_set_nocache): no OS page cache, every run byte goes to the temp device.
	DisableSortFileCache bool `yaml:"innodb_disable_sort_file_cache,omitempty"`
	// MyRocks index build (engine: myrocks). Defaults (64 MiB, 1 GiB) are filled in when a
	// create_index uses engine myrocks.
	RocksDBMergeBufSize         Size `yaml:"rocksdb_merge_buf_size,omitempty"`
	RocksDBMergeCombineReadSize Size `yaml:"rocksdb_merge_combine_read_size,omitempty"`
	// LogBin is log_bin: the binary log (ROW format) is written at each commit (default off:
	// the calibrated scenarios ran without it; MySQL 8.0's own default is on). SyncBinlog
	// is sync_binlog: fsync the binary log every N commit groups (0 never); unset, the
	// version's default (1 on MySQL 5.7.7+, 0 on MariaDB). docs/osc.md §6.1.
	LogBin     bool `yaml:"log_bin,omitempty"`
	SyncBinlog *int `yaml:"sync_binlog,omitempty"`
	// PurgeThreads is innodb_purge_threads: the purge coordinator and its workers;
	// PurgeBatchSize is innodb_purge_batch_size: the undo pages one purge batch handles
	// (model/server purge.go). Unset, the version's defaults.
	PurgeThreads   int `yaml:"innodb_purge_threads"`
	PurgeBatchSize int `yaml:"innodb_purge_batch_size"`
	// AutoIncLockMode is innodb_autoinc_lock_mode (0 traditional, 1 consecutive, 2
	// interleaved): when an insert takes the table's AUTO-INC lock (model/server autoinc.go;
	// what makes pt-online-schema-change's triggers wait for its copy). Unset, the
	// version's default (2 on MySQL 8.0+, 1 before and on MariaDB).
	AutoIncLockMode *int `yaml:"innodb_autoinc_lock_mode,omitempty"`
	// Ignored lists the real server variables the mysql: block set that the model does not
	// read (innodb_flush_method, max_connections), canonically spelled, in file order: the
	// loader warns about them once; they change nothing and are not part of the
	// configuration (Marshal and Hash leave them out).
	Ignored []string `yaml:"-"`
}

// PolicySpec selects the buffer-pool maintenance policy (a registered policy kind) and its
// parameters: `policy: fullscan` or `policy: {name: indexed, batch: 256}`. Params is the
// kind's typed block (nil only when the name is unknown).
type PolicySpec struct {
	Name   string
	Params Params
}

// Table is one group of tables in the data set.
type Table struct {
	Name   string `yaml:"name"`
	Kind   string `yaml:"kind"`   // sysbench (default) | tpcc | insert_benchmark
	Tables int    `yaml:"tables"` // number of tables in the group (sbtest1..N)
	Rows   Count  `yaml:"rows"`   // rows per table; or Size
	Size   Size   `yaml:"size"`   // on-disk size per table; rows derived from the row size
	// RowSize is the column bytes of one row (sysbench: 188, for id, k, c, pad; the record
	// header and the system columns come on top): with rows, it sets the table's size; with
	// size, how many rows fill it. 0 = the kind's own row.
	RowSize Size `yaml:"row_size"`
	// Warehouses for kind tpcc.
	Warehouses int `yaml:"warehouses"`
	// SecondaryIndexes per table (sysbench: 1, the k index).
	SecondaryIndexes *int `yaml:"secondary_indexes"`
	// Columns gives the stored size of named columns (`ddlsim import --schema` writes them
	// from SHOW CREATE TABLE): an index a DDL builds on them has entries of these sizes plus
	// the primary key. A column not listed is the kind's (sysbench: c 120, pad 60 bytes,
	// the others 4).
	Columns []Column `yaml:"columns,omitempty"`
}

// Column is one named column's stored size in a data group.
type Column struct {
	Name string `yaml:"name"`
	Size Size   `yaml:"size"`
}

// Warm describes the initial state of the pool.
type Warm struct {
	Fill          float64 `yaml:"fill"`  // fraction of the pool holding pages at t=0
	DirtyFraction float64 `yaml:"dirty"` // fraction of resident pages dirty at t=0
	// Tables are hot sets: each listed data group gets (up to) its own fraction of its leaf
	// pages resident first, in list order; the groups not listed share what is left of fill.
	Tables []WarmTable `yaml:"tables,omitempty"`
	// WholeWorkingSet says the data groups are all the server's working set, so a pool they
	// fill under half of is meant (it silences model/server's pool-fill warning). It does not
	// change what is simulated: Hash leaves it out.
	WholeWorkingSet bool `yaml:"whole_working_set,omitempty"`
}

// WarmTable is one data group's share of the warm pool: the fraction of its leaf pages
// resident at t=0.
type WarmTable struct {
	Name string  `yaml:"name"`
	Fill float64 `yaml:"fill"`
}

// Observed is the real server's traffic a scenario describes: the statements per second it
// served (Questions over an Uptime interval) and where that figure comes from.
type Observed struct {
	StatementsPerS float64 `yaml:"statements_per_s"`
	Source         string  `yaml:"source,omitempty"`
}

// Workload is one load generator, written as a one-key mapping `- KIND: {parameters}`:
// Kind is a registered workload kind (sysbench, tpcc, temp_table_connections, ...) and Params
// its typed block (model/workload).
type Workload struct {
	Kind   string
	Params Params
}

// DDLEvent schedules a DDL statement. The scheduling fields are common to every operation;
// the operation's own fields (create_index's columns, ...) are its typed Params block,
// written in the same mapping: `{at: 10s, ddl: create_index, table: sbtest, columns: [c]}`.
type DDLEvent struct {
	// At is when it starts on the report clock; with After, the delay after the previous
	// schedule entry's statements have all returned (`at: {after: previous, delay: 60s}`).
	At    Duration `yaml:"at"`
	After string   `yaml:"-"`     // "" or AfterPrevious
	Every Duration `yaml:"every"` // 0 = once
	Count int      `yaml:"count"` // with every: how many times (0 = until the end)
	DDL   string   `yaml:"ddl"`   // a registered DDL operation (ddlsim list)
	// Table names the target: a table (sbtest7), a group's N-th table (sbtest[7]) or a group
	// (its first table; with Each, every table of the group in order).
	Table string `yaml:"table"`
	Each  bool   `yaml:"each,omitempty"`
	// Params holds the operation's own fields (model/ddl).
	Params Params `yaml:"-"`
}

// Report configures output.
type Report struct {
	Interval Duration `yaml:"interval"`
}

// SLO is a latency service-level objective, written QUANTILE=LATENCY ("p99=5ms"): each
// report interval's QUANTILE latency (the series' lat_<q>_ms) must stay at or below LATENCY.
// QUANTILE is one of SLOQuantiles, the quantiles the series has.
type SLO string

// SLOQuantiles are the quantiles an SLO may name, with their series column.
var SLOQuantiles = []string{"p50", "p95", "p99"}

// Parse splits the SLO into its series column (lat_p99_ms) and its latency threshold.
func (s SLO) Parse() (column string, threshold Duration, err error) {
	q, lat, ok := strings.Cut(string(s), "=")
	if !ok {
		return "", 0, fmt.Errorf("expected QUANTILE=LATENCY such as p99=5ms")
	}
	q = strings.TrimSpace(q)
	if !slices.Contains(SLOQuantiles, q) {
		return "", 0, fmt.Errorf("quantile %q: expected one of %s (the series' latency columns), as in p99=5ms", q, strings.Join(SLOQuantiles, ", "))
	}
	d, err := ParseDuration(strings.TrimSpace(lat))
	if err != nil {
		return "", 0, fmt.Errorf("latency %q: %v", lat, err)
	}
	if d <= 0 {
		return "", 0, fmt.Errorf("latency %q: expected a positive duration such as 5ms", lat)
	}
	return "lat_" + q + "_ms", d, nil
}

// DefaultOnlineAlterLogMaxSize is innodb_online_alter_log_max_size's default in MySQL 5.6+,
// 8.0 and MariaDB (srv_online_max_size = 128 << 20).
const DefaultOnlineAlterLogMaxSize = 128 * MiB

// AfterPrevious is the one DDLEvent.After: the statement starts its delay after the previous
// schedule entry has returned (finished or failed), as the next line of a maintenance script.
const AfterPrevious = "previous"
