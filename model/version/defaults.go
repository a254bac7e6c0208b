package version

import (
	"fmt"
	"strconv"
)

// Defaults are the compiled-in defaults of the server variables the model reads, as the
// version's own server declares them and resolves them at startup. model/version/testdata/
// holds, per version family, the values read from that server's sources (mariadbd --help
// --verbose, ha_innodb.cc's MYSQL_SYSVAR / MYSQL_THDVAR defaults, mysqld--help-notwin.result);
// TestDefaultsMatchServer compares this table with them. model/config fills an unset
// mysql: field from here.
//
// A variable the server does not have (innodb_page_cleaners in 5.5 and 5.6, innodb_lru_scan_depth
// in 5.5, the 8.0.27 DDL variables before 8.0.27, the variables MariaDB 10.6 removed) still
// needs a value to drive the model: Absent names them with what the model uses instead.
type Defaults struct {
	BufferPoolSize      int64 // innodb_buffer_pool_size, bytes
	PageSize            int64 // innodb_page_size, bytes
	OldBlocksPct        int   // innodb_old_blocks_pct
	OldBlocksTimeMS     int   // innodb_old_blocks_time, ms
	IOCapacity          int   // innodb_io_capacity
	LRUScanDepth        int   // innodb_lru_scan_depth
	AHI                 bool  // innodb_adaptive_hash_index
	AHIParts            int   // innodb_adaptive_hash_index_parts
	LockWaitTimeoutS    int   // lock_wait_timeout, seconds
	Doublewrite         bool  // innodb_doublewrite
	LogFileSize         int64 // innodb_log_file_size, bytes
	LogFiles            int   // innodb_log_files_in_group
	MaxDirtyPct         float64
	MaxDirtyLWM         float64
	AdaptiveFlushingLWM float64
	FlushLogAtTrxCommit int
	SortBufferSize      int64 // innodb_sort_buffer_size, bytes
	DDLThreads          int   // innodb_ddl_threads (8.0.27+)
	DDLBufferSize       int64 // innodb_ddl_buffer_size (8.0.27+), bytes
	ParallelReadThreads int   // innodb_parallel_read_threads (8.0.14+); 8.4: see ParallelReads
	PurgeThreads        int   // innodb_purge_threads
	PurgeBatchSize      int   // innodb_purge_batch_size, undo pages
	AutoIncLockMode     int   // innodb_autoinc_lock_mode
	DisableSortCache    bool  // innodb_disable_sort_file_cache
	// Absent maps a variable this server does not have to what the model uses in its place.
	Absent map[string]string

	v V
}

// Env is what a default that the server computes at startup depends on.
type Env struct {
	Pool       int64 // innodb_buffer_pool_size, bytes
	CPUs       int   // logical processors (0 = unknown: no CPU bound)
	IOCapacity int   // innodb_io_capacity as configured
}

// DefaultsOf returns v's defaults.
func DefaultsOf(v V) Defaults {
	tr := TraitsOf(v)
	b := v.InnoDB()
	d := Defaults{
		BufferPoolSize: 128 << 20, PageSize: 16 << 10, OldBlocksPct: 37, OldBlocksTimeMS: 1000,
		IOCapacity: 200, LRUScanDepth: 1024, AHI: tr.AHIDefault, AHIParts: tr.AHIParts,
		LockWaitTimeoutS: int(tr.LockWaitTimeout.Seconds()), Doublewrite: true,
		LogFileSize: 48 << 20, LogFiles: 2, MaxDirtyPct: 90, MaxDirtyLWM: 10, AdaptiveFlushingLWM: 10,
		FlushLogAtTrxCommit: 1, SortBufferSize: 1 << 20, DDLThreads: 4, DDLBufferSize: 1 << 20,
		ParallelReadThreads: 4, Absent: map[string]string{}, v: v,
		// MySQL 8.0 ha_innodb.cc: MYSQL_SYSVAR_ULONG(purge_batch_size, ..., 300) and
		// (purge_threads, ..., 4) (mysql/mysql-server 8.0.1x, read 2026-12-04).
		PurgeThreads: 4, PurgeBatchSize: 300,
		// MySQL 8.0 changed innodb_autoinc_lock_mode's default from 1 to 2 (WL#9982, with
		// binlog_format ROW the default); MariaDB keeps 1 (the lab's 10.11.19 SHOW VARIABLES,
		// lab/results/osc/runs/native/variables.tsv.gz).
		AutoIncLockMode: 2,
	}
	absent := func(name, instead string) { d.Absent[name] = instead }
	if v.Flavor == MariaDB {
		// mariadbd 10.11 --help --verbose (testdata/defaults-mariadb-10.11.txt).
		d.LRUScanDepth = 1536
		d.LogFileSize, d.LogFiles = 96<<20, 1
		d.MaxDirtyLWM = 0
		// The lab's 10.11.19 SHOW VARIABLES (lab/results/grid/variables.tsv): 4 threads, 127
		// pages (MDEV-32050 lowered the batch from 300 in 10.6.16 / 10.11.6 [mem]).
		d.PurgeBatchSize = 127
		d.AutoIncLockMode = 1
		absent("innodb_buffer_pool_instances", "1: one buffer pool since 10.5.1 (MDEV-15058), the variable removed in 10.6")
		absent("innodb_page_cleaners", "1: one buf_flush_page_cleaner thread, the variable removed in 10.6")
		absent("innodb_log_files_in_group", "1: one ib_logfile0 since 10.5")
		absent("innodb_ddl_threads", "unused: MariaDB's index build is single-threaded (row_merge_build_indexes)")
		absent("innodb_ddl_buffer_size", "unused: the sort buffer is innodb_sort_buffer_size")
		absent("innodb_parallel_read_threads", "unused: MariaDB has no parallel scan")
		return d
	}
	if b.Major == 5 {
		d.AutoIncLockMode = 1
		d.MaxDirtyPct, d.MaxDirtyLWM = 75, 0
		if b.Minor < 7 || b.Before(5, 7, 8) {
			// 5.7.8 raised innodb_purge_threads to 4; 5.6's default is 1; 5.5's 0 (purge in
			// the master thread) is modelled as one coordinator, its batch 20 [mem: release notes].
			d.PurgeThreads = 1
		}
		if b.Minor == 5 {
			d.PurgeBatchSize = 20
		}
		absent("innodb_ddl_threads", "unused before 8.0.27: one build thread")
		absent("innodb_ddl_buffer_size", "unused before 8.0.27: the sort buffer is innodb_sort_buffer_size")
		absent("innodb_parallel_read_threads", "unused before 8.0.14")
		if b.Before(5, 6, 8) {
			d.LogFileSize = 5 << 20 // 5.6.8 raised it to 48 MiB [mem: 5.6.8 release notes]
		}
		if b.Before(5, 6, 6) {
			d.OldBlocksTimeMS = 0 // 5.6.6 raised it to 1000 [mem: 5.6.6 release notes]
		}
		switch {
		case b.Minor == 5:
			absent("innodb_page_cleaners", "1: the master thread flushes (no page-cleaner thread before 5.6)")
			absent("innodb_io_capacity_max", "max(2000, 2 × innodb_io_capacity), as 5.6 resolves it: the model's cleaner is 5.6's")
			absent("innodb_lru_scan_depth", "1024, as 5.6: the model's LRU batch is 5.6's")
			absent("innodb_max_dirty_pages_pct_lwm", "0, as 5.6")
			absent("innodb_adaptive_flushing_lwm", "10, as 5.6")
			absent("innodb_sort_buffer_size", "1 MiB, as 5.6 (5.5 sorts in a fixed row_merge_block_t of 1 MiB)")
			absent("innodb_adaptive_hash_index_parts", "1: one btr_search_latch")
			absent("innodb_page_size", "16 KiB: UNIV_PAGE_SIZE is fixed")
			absent("innodb_disable_sort_file_cache", "FALSE: the merge files use the OS cache")
		case b.Minor == 6:
			absent("innodb_page_cleaners", "1: one buf_flush_page_cleaner_thread")
			absent("innodb_adaptive_hash_index_parts", "1: one btr_search_latch")
		case b.Before(5, 7, 8):
			absent("innodb_adaptive_hash_index_parts", "1: one btr_search_latch before 5.7.8")
		}
		return d
	}
	if b.Before(8, 0, 27) {
		absent("innodb_ddl_threads", "unused before 8.0.27: one build thread")
		absent("innodb_ddl_buffer_size", "unused before 8.0.27: the sort buffer is innodb_sort_buffer_size")
	}
	if b.Before(8, 0, 14) {
		absent("innodb_parallel_read_threads", "unused before 8.0.14")
	}
	if b.Minor == 4 {
		d.IOCapacity = 10000 // 8.4.0's new defaults (testdata/defaults-mysql-8.4.txt)
	}
	return d
}

// Instances is innodb_buffer_pool_instances as the server resolves its default: 1 below the
// 1 GiB threshold (MySQL 5.6+: srv_start / innodb_init_params; 5.5 declares 1 outright);
// MySQL 8.4: the smaller of (pool / 128 MiB chunk) / 2 and a quarter of the logical
// processors, within 1 – 64, above 1 GiB; 8 otherwise. MariaDB: one pool.
func (d Defaults) Instances(pool int64, cpus int) int {
	b := d.v.InnoDB()
	switch {
	case d.v.Flavor == MariaDB, b.Major == 5 && b.Minor == 5:
		return 1
	case b.Major == 8 && b.Minor == 4:
		if pool <= 1<<30 {
			return 1
		}
		n := int(pool / (128 << 20) / 2)
		if cpus > 0 {
			n = min(n, cpus/4)
		}
		return min(64, max(1, n))
	case pool > 0 && pool < 1<<30:
		return 1
	}
	return 8
}

// IOCapacityMax is innodb_io_capacity_max's default: the sysvar's default is a sentinel
// (SRV_MAX_IO_CAPACITY_DUMMY_DEFAULT, which --help prints) that startup replaces by
// max(2 × innodb_io_capacity, 2000).
func (d Defaults) IOCapacityMax(io int) int { return max(2000, 2*io) }

// PageCleaners is innodb_page_cleaners' default for a pool of instances instances: 4 (5.7.8+,
// 8.0), 1 (5.7 before 5.7.8; no such variable, one cleaner or none, in 5.5, 5.6 and
// MariaDB), innodb_buffer_pool_instances (8.4). The server caps it at the instance count.
func (d Defaults) PageCleaners(instances int) int {
	b := d.v.InnoDB()
	switch {
	case d.v.Flavor == MariaDB, b.Major == 5 && b.Before(5, 7, 8):
		return 1
	case b.Major == 8 && b.Minor == 4:
		return max(1, instances)
	}
	return 4
}

// ParallelReads is innodb_parallel_read_threads' default: 4; MySQL 8.4: the logical
// processors / 8, at least 4.
func (d Defaults) ParallelReads(cpus int) int {
	if b := d.v.InnoDB(); b.Major == 8 && b.Minor == 4 && cpus > 0 {
		return max(4, cpus/8)
	}
	return d.ParallelReadThreads
}

// Vars are the defaults as the server prints them (`--help --verbose`: bytes, integers, TRUE
// / FALSE; doubles as %g), each variable the model reads that this server has, resolved for
// env where the server computes it at startup.
func (d Defaults) Vars(env Env) map[string]string {
	b := func(x bool) string {
		if x {
			return "TRUE"
		}
		return "FALSE"
	}
	i := func(x int64) string { return strconv.FormatInt(x, 10) }
	f := func(x float64) string { return fmt.Sprintf("%g", x) }
	inst := d.Instances(env.Pool, env.CPUs)
	m := map[string]string{
		"innodb_buffer_pool_size":          i(d.BufferPoolSize),
		"innodb_buffer_pool_instances":     i(int64(inst)),
		"innodb_page_size":                 i(d.PageSize),
		"innodb_old_blocks_pct":            i(int64(d.OldBlocksPct)),
		"innodb_old_blocks_time":           i(int64(d.OldBlocksTimeMS)),
		"innodb_page_cleaners":             i(int64(d.PageCleaners(inst))),
		"innodb_io_capacity":               i(int64(d.IOCapacity)),
		"innodb_io_capacity_max":           i(int64(d.IOCapacityMax(env.IOCapacity))),
		"innodb_lru_scan_depth":            i(int64(d.LRUScanDepth)),
		"innodb_adaptive_hash_index":       b(d.AHI),
		"innodb_adaptive_hash_index_parts": i(int64(d.AHIParts)),
		"lock_wait_timeout":                i(int64(d.LockWaitTimeoutS)),
		"innodb_doublewrite":               b(d.Doublewrite),
		"innodb_log_file_size":             i(d.LogFileSize),
		"innodb_log_files_in_group":        i(int64(d.LogFiles)),
		"innodb_max_dirty_pages_pct":       f(d.MaxDirtyPct),
		"innodb_max_dirty_pages_pct_lwm":   f(d.MaxDirtyLWM),
		"innodb_adaptive_flushing_lwm":     f(d.AdaptiveFlushingLWM),
		"innodb_flush_log_at_trx_commit":   i(int64(d.FlushLogAtTrxCommit)),
		"innodb_sort_buffer_size":          i(d.SortBufferSize),
		"innodb_ddl_threads":               i(int64(d.DDLThreads)),
		"innodb_ddl_buffer_size":           i(d.DDLBufferSize),
		"innodb_parallel_read_threads":     i(int64(d.ParallelReads(env.CPUs))),
		"innodb_disable_sort_file_cache":   b(d.DisableSortCache),
	}
	for name := range d.Absent {
		delete(m, name)
	}
	return m
}

// ModelVars are the server variables the model reads (mysql: fields with a server default;
// alter_table_progress is ddlsim's own switch, the MyRocks sizes are not InnoDB's).
var ModelVars = []string{
	"innodb_buffer_pool_size", "innodb_buffer_pool_instances", "innodb_page_size",
	"innodb_old_blocks_pct", "innodb_old_blocks_time", "innodb_page_cleaners",
	"innodb_io_capacity", "innodb_io_capacity_max", "innodb_lru_scan_depth",
	"innodb_adaptive_hash_index", "innodb_adaptive_hash_index_parts", "lock_wait_timeout",
	"innodb_doublewrite", "innodb_log_file_size", "innodb_log_files_in_group",
	"innodb_max_dirty_pages_pct", "innodb_max_dirty_pages_pct_lwm", "innodb_adaptive_flushing_lwm",
	"innodb_flush_log_at_trx_commit", "innodb_sort_buffer_size", "innodb_ddl_threads",
	"innodb_ddl_buffer_size", "innodb_parallel_read_threads", "innodb_disable_sort_file_cache",
}
