package ddl

import (
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// The fixed work of DROP TABLE and TRUNCATE TABLE besides the buffer pool: the SQL layer's
// DDL log, the dictionary transaction, the redo of the file operations and the unlink that
// frees the file's blocks, as the version does it (version.Traits.FileWork;
// docs/mariadb-write-path.md §5, docs/model.md "DROP and TRUNCATE's fixed work"). Simulated
// only when the profile measured the file-system calls (hardware.fs): otherwise none of it
// costs anything, as before.
//
// Locks: the whole statement holds the table's MDL_EXCLUSIVE (statements on that table
// wait; ddl.Stage). MariaDB holds dict_sys exclusively from the dictionary transaction to
// the file's unlink: no client of the model takes dict_sys (statements on open tables do not
// in 10.11; purge and the statistics thread, which do, are not modelled), so it stalls no
// one. MariaDB's FILE_DELETE / FILE_RENAME are written and flushed under log_sys.latch X
// (mtr_t::commit_file): that write + fsync stalls every writer of every table
// (server.Thread.LogWriteAndFlushX). The release of the file's blocks — the part that grows
// with the file — holds nothing but the MDL, in both servers: other tables' clients are not
// stalled by it.

// fileWork reports whether x's version and profile simulate the fixed work.
func fileWork(x *Exec) version.FileWork {
	if !x.Srv.HasFS() {
		return version.FileWorkNone
	}
	return x.Srv.Traits.FileWork
}

// Redo record sizes of the file operations (MariaDB 10.8+ log format, mtr_t::log_file_op:
// a FILE_ record of type, space id, page 0 and the path name (./db/name.ibd, ~20 bytes),
// plus the mtr's 5-byte trailer; MySQL's MLOG_FILE_* are the same order of size).
const (
	fileOpRedo = 32
	// fileCreateRedo is FILE_CREATE and fsp_header_init's page initialisations of the
	// new tablespace's first pages (FSP header, ibuf bitmap, inode, root), one mtr.
	fileCreateRedo = 4*24 + fileOpRedo
)

// ddlLogSyncs is the SQL layer's fdatasyncs of ddl_recovery.log for one DROP TABLE in
// MariaDB 10.6+ (sql/ddl_log.cc: ddl_log_drop_table_init → ddl_log_write →
// ddl_log_write_execute_entry syncs twice; ddl_log_drop syncs once; ddl_log_complete →
// ddl_log_disable_execute_entry once). sql_table.cc's phase updates in between
// (ddl_log_update_phase → update_phase, a sync each) were not read: a lower bound.
const ddlLogSyncs = 4

// dictRows is the number of dictionary rows a DROP of t deletes: the table, its columns,
// its indexes and their fields (MariaDB: SYS_TABLES, SYS_COLUMNS, SYS_INDEXES, SYS_FIELDS;
// MySQL 8.0: mysql.tables, columns with the two hidden ones, indexes, index_column_usage,
// tablespaces, tablespace_files and the innodb_ddl_log entry written and deleted), and the
// persistent statistics (innodb_table_stats: 1; innodb_index_stats: per index one
// n_diff_pfx row per key column and n_leaf_pages, size).
func dictRows(t *schema.Table, fw version.FileWork) int {
	cols := 4 // sysbench's id, k, c, pad
	switch t.Kind {
	case schema.KindInsertBenchmark:
		cols = 7
	case schema.KindTPCC:
		cols = 10 // [assumed] a typical TPC-C table
	}
	n := 1 + cols + 1 // SYS_TABLES, SYS_COLUMNS, innodb_table_stats
	for i, ix := range t.Indexes() {
		fields := len(ix.Columns)
		if fields == 0 {
			fields = 1 // PRIMARY (id)
		}
		if i > 0 {
			fields++ // a secondary index's fields end with the primary key
		}
		n += 1 + fields + fields + 2 // SYS_INDEXES, SYS_FIELDS, its n_diff_pfx rows, n_leaf_pages and size
	}
	if fw == version.FileWorkMySQL80 {
		n += 2 + 2 + 2 // hidden columns DB_TRX_ID, DB_ROLL_PTR; tablespaces, tablespace_files; innodb_ddl_log insert + delete
	}
	return n
}

// dictionary is the dictionary transaction's row changes: per row a B-tree descent of a
// cached dictionary table (3 page lookups), the row's work and its redo.
func dictionary(x *Exec, fw version.FileWork) {
	t, c := x.T, x.Srv.Costs
	rows := dictRows(x.Table, fw)
	t.Charge(sim.Time(rows) * (c.Row + 3*c.PageHit))
	t.Srv.Redo.Advance(uint64(rows) * server.RedoPerPage)
}

// freeFile waits for the release of the dropped file's blocks.
func freeFile(x *Exec, size, written int64, fw version.FileWork) {
	x.Phase("release_file", func() server.ScanStats {
		x.T.FileWait(x.Srv.FreeFileTime(size, written, fw == version.FileWorkMySQL80))
		return server.ScanStats{}
	})
}

// ddlLog is the SQL layer's DDL log (MariaDB): its syncs, each a small file's fsync.
func ddlLog(x *Exec) {
	x.Phase("ddl_log", func() server.ScanStats {
		for range ddlLogSyncs {
			x.T.FileWait(sim.Time(x.Srv.FS.FileSync))
		}
		return server.ScanStats{}
	})
}

// deleteFile is the file's deletion at the dictionary transaction's commit: MariaDB writes
// FILE_DELETE under the exclusive log latch, then unlinks the still open file (the name
// only); MySQL 8.0, in the post-DDL phase, writes MLOG_FILE_DELETE and waits for it in the
// group commit (the unlink itself is the release, freeFile).
func deleteFile(x *Exec, fw version.FileWork) {
	x.Phase("delete_file", func() server.ScanStats {
		t := x.T
		if fw == version.FileWorkMariaDB {
			t.LogWriteAndFlushX(fileOpRedo)
			t.FileCall(x.Srv.FS.Unlink)
		} else {
			t.LogFlush(fileOpRedo)
		}
		return server.ScanStats{}
	})
}

// renameFile is TRUNCATE's rename of the old file to #sql-ib<id>.ibd: FILE_RENAME (MariaDB:
// under the exclusive log latch; MySQL 8.0: MLOG_FILE_RENAME, group commit), then rename(2).
func renameFile(x *Exec, fw version.FileWork) {
	x.Phase("rename_file", func() server.ScanStats {
		t := x.T
		if fw == version.FileWorkMariaDB {
			t.LogWriteAndFlushX(fileOpRedo)
		} else {
			t.LogFlush(fileOpRedo)
		}
		t.FileCall(x.Srv.FS.Rename)
		return server.ScanStats{}
	})
}

// createFile is TRUNCATE's new tablespace (fil_ibd_create): FILE_CREATE and the first pages'
// initialisation made durable (log_write_up_to), the file created and its first 64 KiB
// allocated (MySQL 8.0 then fsyncs the new file: os_file_flush in fil_ibd_create).
func createFile(x *Exec, fw version.FileWork) {
	x.Phase("create_file", func() server.ScanStats {
		t := x.T
		t.LogFlush(fileCreateRedo)
		t.FileCall(x.Srv.FS.Create)
		if fw == version.FileWorkMySQL80 {
			t.FileWait(sim.Time(x.Srv.FS.FileSync))
		}
		return server.ScanStats{}
	})
}
