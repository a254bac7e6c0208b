package config

import (
	"fmt"

	"github.com/ddlsim/ddlsim/model/version"
)

// Defaults are MySQL's own (the server's compiled-in values for the version named), so a
// scenario that leaves a variable out simulates what an unconfigured server would do. Where
// MySQL silently adjusts a setting at startup (instances forced to 1 below 1 GiB, page
// cleaners capped at the instance count) the effective configuration is adjusted the same
// way, so the printed and hashed configuration is what the simulated server really runs.

// Sizes used by defaults and validation.
const (
	KiB Size = 1 << 10
	MiB Size = 1 << 20
	GiB Size = 1 << 30
	TiB Size = 1 << 40
)

// Common durations.
const (
	Nanosecond  Duration = 1
	Microsecond          = 1000 * Nanosecond
	Millisecond          = 1000 * Microsecond
	Second               = 1000 * Millisecond
	Minute               = 60 * Second
)

// DefaultVersion is the MySQL version simulated when a scenario names none: the last
// release before the lazy-drop rework of 8.0.23, i.e. the behaviour the seed figures show.
const DefaultVersion = "8.0.18"

// ApplyDefaults fills every field left at its zero value. Loading calls it with knowledge of
// which fields were written (so an explicit 0 stays 0 and validation can reject it); called
// directly, it treats zero as absent.
func ApplyDefaults(sc *Scenario) { applyDefaults(sc, func(string) bool { return false }) }

func applyDefaults(sc *Scenario, given func(path string) bool) {
	// def sets a field when the user did not write it and it is still zero (Set on a loaded
	// scenario records nothing, so the zero test keeps its values).
	def := func(path string, zero bool, set func()) {
		if zero && !given(path) {
			set()
		}
	}
	m := &sc.MySQL
	def("mysql.version", m.Version == "", func() { m.Version = DefaultVersion })
	ver, verErr := version.Parse(m.Version)
	if verErr != nil {
		ver = version.MustParse(DefaultVersion) // reported by validation; defaults of the default
	}
	tr := version.TraitsOf(ver)
	dv := version.DefaultsOf(ver) // the server's own defaults (model/version/testdata)

	def("mysql.innodb_buffer_pool_size", m.BufferPoolSize == 0, func() { m.BufferPoolSize = Size(dv.BufferPoolSize) })
	def("mysql.innodb_buffer_pool_instances", m.BufferPoolInstances == 0, func() {
		m.BufferPoolInstances = dv.Instances(int64(m.BufferPoolSize), sc.HardwareProfile.Cores)
	})
	if m.BufferPoolSize > 0 && m.BufferPoolSize < GiB && m.BufferPoolInstances > 1 {
		// buf_pool_init: "innodb_buffer_pool_instances is ignored when the pool is < 1GiB".
		m.BufferPoolInstances = 1
	}
	if tr.OneInstance {
		m.BufferPoolInstances = 1 // MariaDB 10.5.1+: one buffer pool (MDEV-15058)
	}
	def("mysql.innodb_page_size", m.PageSize == 0, func() { m.PageSize = Size(dv.PageSize) })
	def("mysql.innodb_old_blocks_pct", m.OldBlocksPct == 0, func() { m.OldBlocksPct = dv.OldBlocksPct })
	// 5.5's default 0 is the zero value: an unset field stays 0 there, as the server has it.
	def("mysql.innodb_old_blocks_time", m.OldBlocksTime == 0, func() { m.OldBlocksTime = Duration(dv.OldBlocksTimeMS) * Millisecond })
	def("mysql.innodb_page_cleaners", m.PageCleaners == 0, func() { m.PageCleaners = dv.PageCleaners(m.BufferPoolInstances) })
	if tr.OneInstance {
		m.PageCleaners = 1 // one buf_flush_page_cleaner thread
	}
	if m.BufferPoolInstances > 0 && m.PageCleaners > m.BufferPoolInstances {
		m.PageCleaners = m.BufferPoolInstances // MySQL caps cleaners at instances at startup
	}
	def("mysql.innodb_io_capacity", m.IOCapacity == 0, func() { m.IOCapacity = dv.IOCapacity })
	def("mysql.innodb_io_capacity_max", m.IOCapacityMax == 0, func() { m.IOCapacityMax = dv.IOCapacityMax(m.IOCapacity) })
	def("mysql.innodb_lru_scan_depth", m.LRUScanDepth == 0, func() { m.LRUScanDepth = dv.LRUScanDepth })
	def("mysql.innodb_adaptive_hash_index", m.AdaptiveHashIndex == nil, func() { m.AdaptiveHashIndex = ptr(dv.AHI) })
	def("mysql.innodb_adaptive_hash_index_parts", m.AdaptiveHashIndexParts == 0, func() { m.AdaptiveHashIndexParts = dv.AHIParts })
	def("mysql.lock_wait_timeout", m.LockWaitTimeout == 0, func() { m.LockWaitTimeout = Duration(dv.LockWaitTimeoutS) * Second })
	def("mysql.innodb_doublewrite", m.Doublewrite == nil, func() { m.Doublewrite = ptr(dv.Doublewrite) })
	def("mysql.innodb_log_file_size", m.LogFileSize == 0, func() { m.LogFileSize = Size(dv.LogFileSize) })
	def("mysql.innodb_log_files_in_group", m.LogFilesInGroup == 0, func() { m.LogFilesInGroup = dv.LogFiles })
	def("mysql.innodb_max_dirty_pages_pct", m.MaxDirtyPagesPct == 0, func() { m.MaxDirtyPagesPct = dv.MaxDirtyPct })
	def("mysql.innodb_max_dirty_pages_pct_lwm", m.MaxDirtyPagesPctLWM == 0, func() { m.MaxDirtyPagesPctLWM = dv.MaxDirtyLWM })
	def("mysql.innodb_adaptive_flushing_lwm", m.AdaptiveFlushingLWM == 0, func() { m.AdaptiveFlushingLWM = dv.AdaptiveFlushingLWM })
	def("mysql.innodb_flush_log_at_trx_commit", m.FlushLogAtTrxCommit == 0, func() { m.FlushLogAtTrxCommit = dv.FlushLogAtTrxCommit })
	def("mysql.innodb_sort_buffer_size", m.SortBufferSize == 0, func() { m.SortBufferSize = Size(dv.SortBufferSize) })
	def("mysql.innodb_ddl_threads", m.DDLThreads == 0, func() { m.DDLThreads = dv.DDLThreads })
	def("mysql.innodb_ddl_buffer_size", m.DDLBufferSize == 0, func() { m.DDLBufferSize = Size(dv.DDLBufferSize) })
	def("mysql.innodb_parallel_read_threads", m.ParallelReadThreads == 0, func() { m.ParallelReadThreads = dv.ParallelReads(sc.HardwareProfile.Cores) })
	def("mysql.innodb_purge_threads", m.PurgeThreads == 0, func() { m.PurgeThreads = dv.PurgeThreads })
	def("mysql.innodb_purge_batch_size", m.PurgeBatchSize == 0, func() { m.PurgeBatchSize = dv.PurgeBatchSize })
	def("mysql.innodb_autoinc_lock_mode", m.AutoIncLockMode == nil, func() { m.AutoIncLockMode = ptr(dv.AutoIncLockMode) })
	def("mysql.alter_table_progress", m.AlterTableProgress == nil, func() { m.AlterTableProgress = ptr(true) })

	// The default policy is the one the version itself runs: community scans before 8.0.23,
	// lazy drop from 8.0.23 and in MariaDB.
	def("policy.name", sc.Policy.Name == "", func() { sc.Policy.Name = tr.NativePolicy })
	def("warm.fill", sc.Warm.Fill == 0, func() { sc.Warm.Fill = 0.95 })
	def("report.interval", sc.Report.Interval == 0, func() { sc.Report.Interval = Second })
	if sc.Until.Event != "" {
		def("duration", sc.Duration == 0, func() { sc.Duration = DefaultUntilCap })
		def("until.after", sc.Until.After == 0, func() { sc.Until.After = DefaultUntilAfter })
	}

	for i := range sc.Data {
		t := &sc.Data[i]
		p := fmt.Sprintf("data[%d]", i)
		def(p+".kind", t.Kind == "", func() { t.Kind = "sysbench" })
		def(p+".tables", t.Tables == 0, func() { t.Tables = 1 })
		if t.Kind == "sysbench" {
			def(p+".secondary_indexes", t.SecondaryIndexes == nil, func() { t.SecondaryIndexes = ptr(1) }) // the k index
		}
	}
	if sc.Policy.Params == nil {
		if k, ok := PolicyKind(sc.Policy.Name); ok {
			sc.Policy.Params = k.New()
		}
	}
	defaultKinds(sc, given)
}

func ptr[T any](v T) *T { return &v }
