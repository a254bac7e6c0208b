package version

import "time"

// Traits are what a version's InnoDB does differently, structurally, from the others.
type Traits struct {
	// BigMutex: one buf_pool->mutex per instance guards the LRU list, the free list and page
	// state (5.5, 5.6, 5.7 and MariaDB's buf_pool.mutex); 8.0 split it into LRU_list_mutex,
	// free_list_mutex and friends.
	BigMutex bool
	// OneInstance: the pool is one instance whatever innodb_buffer_pool_instances says
	// (MariaDB 10.5.1+, MDEV-15058), and one page-cleaner thread.
	OneInstance bool
	// FlushRetrySleep is the sleep after a flush-list pass that could not process every target
	// (buf_flush_dirty_pages on DB_FAIL): 20 ms in 5.5, 2 ms from 5.6.40 on.
	FlushRetrySleep time.Duration
	// FlushPinned: a FLUSH_WRITE walk pins its previous page around each write and continues
	// from it (the later flush_pages_flush_list, innodb-source.md §1.4 copy C; MariaDB's
	// buf_flush_list_space continues through a hazard pointer) instead of restarting from the
	// flush-list tail after every page written (5.6.40, 5.7, 8.0 to at least 8.0.25).
	FlushPinned bool
	// DblwrPipeline: MariaDB 10.5+'s doublewrite buffer (buf_dblwr_t: two 128-page slots,
	// the flusher blocks only while both are busy) and its tablespace flush
	// (buf_flush_list_space: io_capacity pages per flush-list walk, batched through it),
	// instead of the single-page route (one doublewrite slot + fsync per page) of MySQL
	// 5.6 – 8.0's BUF_REMOVE_FLUSH_WRITE (docs/mariadb-write-path.md §1).
	DblwrPipeline bool
	// IdleCleaner: MariaDB 10.5+'s buf_flush_page_cleaner: one thread that sleeps without a
	// timeout when idle and flushes by MariaDB's rules (docs/mariadb-write-path.md §2),
	// instead of 8.0's coordinator running a round every second.
	IdleCleaner bool
	// NativePolicy is the buffer-pool policy the version itself runs (the default policy).
	NativePolicy string
	// FreePagesOnDrop: DROP TABLE frees every page of the table (dict_drop_index_tree →
	// btr_free_but_not_root → fseg_free_extent), dropping each hashed page's AHI entries on
	// the way, before the tablespace goes (5.5 – 5.7). 8.0 deletes the .ibd without freeing.
	FreePagesOnDrop bool
	// TruncateInPlace: TRUNCATE TABLE reinitializes the same tablespace (5.7,
	// row_truncate_table_for_mysql in row0trunc.cc); elsewhere it gets a new space id.
	TruncateInPlace bool
	// AHIParts is the default innodb_adaptive_hash_index_parts (1 where the AHI has one
	// btr_search_latch: 5.5, 5.6, 5.7 before 5.7.8).
	AHIParts int
	// AHIDefault is the default of innodb_adaptive_hash_index (MariaDB 10.5+ and MySQL 8.4:
	// OFF; testdata/defaults-*.txt).
	AHIDefault bool
	// AHINoWaitBuild: a page's AHI build gives up when the partition latch is busy
	// (x_lock_nowait, 8.0.3x+) instead of waiting for it.
	AHINoWaitBuild bool
	// LockWaitTimeout is the default lock_wait_timeout (MariaDB 10.2.4+: 86400 s).
	LockWaitTimeout time.Duration
	// RedoLoggedBuild: an index build writes redo for its pages instead of skipping redo and
	// flushing them through a FlushObserver: MariaDB 10.5.1+ (MDEV-19747: PageBulk's mtr logs
	// normally), and 5.5/5.6, whose row_merge_insert_index_tuples inserts each entry through
	// an ordinary logged mini-transaction (the bulk load and FlushObserver came in 5.7.5).
	RedoLoggedBuild bool
	// SessionTempTablespaces: each session's temporary tables live in a temp tablespace of
	// the ibt pool, truncated at disconnect (8.0.13+).
	SessionTempTablespaces bool
	// FileWork is how DROP / TRUNCATE TABLE remove the file-per-table tablespace's file
	// after the buffer-pool part (docs/mariadb-write-path.md §5; model/ddl/filework.go).
	FileWork FileWork
}

// FileWork is a version's sequence of DROP / TRUNCATE's fixed work: the dictionary
// transaction, the redo of the file operation, and the unlink that frees the file's blocks.
type FileWork int

const (
	// FileWorkNone: not modelled (5.x: the statement's file work costs nothing).
	FileWorkNone FileWork = iota
	// FileWorkMariaDB (10.6+, MariaDB 10.11.18 dict/drop.cc trx_t::commit, fil0fil.cc
	// fil_space_t::drop, ha_innodb.cc ha_innobase::delete_table / truncate): the SQL layer's
	// ddl_recovery.log syncs; the dictionary transaction under dict_sys X; at its commit
	// FILE_DELETE written and flushed by mtr_t::commit_file under log_sys.latch X (every mtr
	// commit waits for that one write + fsync); unlink(2) of the still open file (the name
	// only); dict_sys released; then os_file_close frees the blocks, on the DDL thread,
	// holding only the table's MDL.
	FileWorkMariaDB
	// FileWorkMySQL80 (8.0, 8.4; 8.0.41 fil0fil.cc Fil_shard::space_delete, log0ddl.cc
	// replay_delete_space_log): the dictionary transaction commits (group commit); then the
	// post-DDL phase writes MLOG_FILE_DELETE, waits for it with log_write_up_to (no
	// exclusive latch), detaches and closes the file under the shard mutex, and unlinks the
	// closed file after releasing it: the blocks are freed in that unlink, on the DDL thread,
	// holding only the table's MDL.
	FileWorkMySQL80
)

// TraitsOf returns v's traits.
func TraitsOf(v V) Traits {
	t := Traits{FlushRetrySleep: 2 * time.Millisecond, NativePolicy: "fullscan", AHIParts: 8, AHIDefault: true,
		LockWaitTimeout: 31536000 * time.Second}
	b := v.InnoDB()
	switch {
	case v.Flavor == MariaDB:
		t.BigMutex, t.OneInstance, t.FlushPinned = true, true, true
		t.NativePolicy = "lazy"
		t.AHIDefault = false
		t.AHINoWaitBuild = true
		t.LockWaitTimeout = 86400 * time.Second
		t.RedoLoggedBuild = true
		t.FileWork = FileWorkMariaDB
		t.DblwrPipeline, t.IdleCleaner = true, true
		return t
	case b.Major == 5:
		t.BigMutex, t.FreePagesOnDrop = true, true
		if b.Minor == 5 {
			t.FlushRetrySleep = 20 * time.Millisecond
		}
		if b.Minor < 7 || b.Before(5, 7, 8) {
			t.AHIParts = 1
		}
		t.TruncateInPlace = b.Minor == 7
		t.RedoLoggedBuild = b.Minor < 7
	default: // 8.0, 8.4
		t.SessionTempTablespaces = b.AtLeast(8, 0, 13)
		t.AHINoWaitBuild = b.AtLeast(8, 0, 30) // [inferred] copy S84 (8.0.3x)
		t.FlushPinned = b.Minor == 4           // [inferred] copy C, (c) 2024
		t.AHIDefault = b.Minor != 4            // 8.4.0 turned the AHI off by default
		t.FileWork = FileWorkMySQL80
		if b.AtLeast(8, 0, 23) {
			t.NativePolicy = "lazy"
		}
	}
	return t
}
