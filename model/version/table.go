package version

import "fmt"

// Op names the statement on whose behalf the pool's maintenance works: the operations whose
// buffer-pool work differs by version (the table's rows) and the ones a policy serves (the
// contract list, model/server's Ops). It is the one operation enum of the model: the DDL
// passes it to the policy, the policy looks its steps up with it.
type Op string

const (
	OpDropTable     Op = "drop_table"
	OpTruncateTable Op = "truncate_table"
	OpDiscard       Op = "discard_tablespace"
	OpExport        Op = "flush_for_export"
	OpEncrypt       Op = "encrypt_tablespace"
	OpUndoTruncate  Op = "undo_truncate"
	OpTempTruncate  Op = "temp_truncate"
	OpObserverFlush Op = "observer_flush"
	// OpTempCreate is a new session temp tablespace: FLUSH_WRITE of its (empty) space. No
	// version differs in it, so the table has no rows for it.
	OpTempCreate Op = "temp_create"
)

// Policy keys the version table's rows: which code a row describes — the community server's
// scans (PolicyFullscan), 8.0.23+'s lazy drop (PolicyLazy), Percona Server 5.5's
// innodb_lazy_drop_table (PolicyPerconaLazy). A registered policy that runs the table's steps
// names its key where it is built (policies/), so the lookup is typed, not by registry name.
type Policy string

const (
	PolicyFullscan    Policy = "fullscan"
	PolicyLazy        Policy = "lazy"
	PolicyPerconaLazy Policy = "percona_lazy"
)

// Step is one buffer-pool routine of a path; the policies run a path's steps in order.
type Step string

const (
	// FreePages: dict_drop_index_tree frees every page of the table (fseg_free_extent /
	// fseg_free_page_low), one page-hash lookup per page and the AHI entries of each hashed
	// resident page dropped (btr_search_drop_page_hash_when_freed). Run by the DDL, before the
	// policy (5.5 – 5.7).
	FreePages Step = "free_pages"
	// AHILRUWalk: buf_LRU_drop_page_hash_for_tablespace, one LRU walk per instance, the mutex
	// released per 1024 hashed pages of the space to drop them.
	AHILRUWalk Step = "ahi_lru_walk"
	// RemoveAllWalk: buf_LRU_remove_all_pages (and before 5.5.23 the same loop in
	// buf_LRU_invalidate_tablespace_buf_pool_instance): the whole LRU under the mutex, no yield,
	// every page of the space freed; restart from the tail at a hashed page, sleep 20 ms and
	// rescan at a fixed one.
	RemoveAllWalk Step = "remove_all_walk"
	// AHITableRounds: btr_drop_ahi_for_table, rounds over every instance's LRU from the tail
	// collecting up to 1024 hashed pages of the table each, until its ref_count is 0 (no round
	// when it is 0 already).
	AHITableRounds Step = "ahi_table_rounds"
	// FlushNoWrite: buf_flush_dirty_pages(BUF_REMOVE_FLUSH_NO_WRITE), a flush-list walk per
	// instance unlinking the space's dirty pages (the clean ones age out of the LRU).
	FlushNoWrite Step = "flush_no_write"
	// FlushWrite: BUF_REMOVE_FLUSH_WRITE, a flush-list walk writing each target (restarting
	// from the tail, or pinned, per Traits.FlushPinned).
	FlushWrite Step = "flush_write"
	// FlushSpaceBatched: MariaDB's `while (buf_flush_list_space(space))`: walks of the whole
	// flush list from the tail, at most innodb_io_capacity pages of the space per walk, the
	// pages batched through the two-slot doublewrite pipeline (Traits.DblwrPipeline).
	FlushSpaceBatched Step = "flush_space_batched"
	// FlushRemove: MariaDB's buf_flush_remove_pages, one flush-list walk holding buf_pool.mutex
	// and flush_list_mutex throughout, no yield, unlinking the space's pages.
	FlushRemove Step = "flush_remove"
	// Lazy: BUF_REMOVE_NONE — the space is marked deleted or its version bumped; its pages are
	// stale and freed where they are met.
	Lazy Step = "lazy"
	// MarkWalk: Percona's buf_LRU_mark_space_was_deleted, one LRU walk head to tail under the
	// LRU mutex, no yield, flagging the space's pages (they are then stale).
	MarkWalk Step = "mark_walk"
	// ChunkAHIPass: then a pass over every block of every chunk (all frames, sequential, not a
	// list walk), dropping the AHI entries of each hashed page of the space.
	ChunkAHIPass Step = "chunk_ahi_pass"
)

// Row is one line of the version table: what a flavour's versions from From to To (inclusive,
// "" = unbounded) run for Op under Policy.
type Row struct {
	Flavor   Flavor
	From, To string
	Policy   Policy
	Op       Op
	Steps    []Step
	Chain    string // the routines the source calls, in order
	Source   string // where it was read: copy, file, function
	Mark     string // V (read in that copy), V-2nd (read in a secondary source quoting it), mem, inferred
}

func (r Row) covers(v V) bool {
	if r.Flavor != v.Flavor {
		return false
	}
	if r.From != "" && v.num() < mustNum(r.From) {
		return false
	}
	return r.To == "" || v.num() <= mustNum(r.To)
}

func mustNum(s string) int {
	var a, b, c int
	if _, err := fmt.Sscanf(s, "%d.%d.%d", &a, &b, &c); err != nil {
		panic("version: bad bound " + s)
	}
	return a*1_000_000 + b*1_000 + c
}

// Path returns the row that version v runs for op under policy (fullscan, lazy,
// percona_lazy). A policy the version does not ship is simulated as a what-if with the code of
// the nearest version that has it (lazy on 5.6 uses 8.0.23's lazy drop; fullscan on 8.0.30
// uses 8.0.22's scans); whatIf says so. Percona Server follows MySQL's rows for the same
// version unless it has its own. ok is false when the version has no such operation (FLUSH
// TABLES ... FOR EXPORT before 5.6.6, a flush observer before 5.7).
func Path(v V, policy Policy, op Op) (r Row, whatIf, ok bool) {
	try := func(v V, policy Policy) (Row, bool) {
		for _, r := range Table {
			if r.Policy == policy && r.Op == op && r.covers(v) {
				return r, true
			}
		}
		return Row{}, false
	}
	if r, ok := try(v, policy); ok {
		return r, false, true
	}
	if v.Flavor == Percona {
		if r, ok := try(v.InnoDB(), policy); ok {
			return r, false, true
		}
	}
	if _, _, exists := nativePath(v, op); !exists {
		return Row{}, false, false
	}
	// What-ifs: the nearest version family that has the policy.
	switch policy {
	case PolicyLazy:
		if r, ok := try(MustParse("8.0.23"), PolicyLazy); ok {
			return r, true, true
		}
	case PolicyFullscan:
		if v.Flavor == MariaDB {
			if r, _, ok := Path(MustParse("5.7.30"), policy, op); ok {
				return r, true, true
			}
			// An operation 5.7 does not have and MariaDB runs without touching the pool (a
			// session temp tablespace: MariaDB has none) is that no-op under any policy.
			if r, _, _ := nativePath(v, op); len(r.Steps) == 0 {
				return r, true, true
			}
			return Row{}, false, false
		}
		if r, ok := try(MustParse("8.0.22"), PolicyFullscan); ok {
			return r, true, true
		}
	case PolicyPerconaLazy:
		if op == OpDropTable {
			r, ok := try(MustParse("percona-5.5.30"), PolicyPerconaLazy)
			return r, true, ok
		}
		return Path(v, PolicyFullscan, op) // the patch changed DROP TABLE only
	}
	return Row{}, false, false
}

// Has reports whether version v has operation op at all (its own policy, or the community
// scans it inherits, has a row for it): FLUSH TABLES ... FOR EXPORT before 5.6.6 or a flush
// observer before 5.7 it has not. A policy whose Path finds no row for an operation the
// version has is a gap in the table.
func Has(v V, op Op) bool {
	_, _, ok := nativePath(v, op)
	return ok
}

// nativePath is the row of the version's own policy; exists reports whether the version has
// the operation at all.
func nativePath(v V, op Op) (Row, Policy, bool) {
	pol := Policy(TraitsOf(v).NativePolicy)
	for _, p := range []Policy{pol, PolicyFullscan} {
		for _, r := range Table {
			if r.Policy == p && r.Op == op && (r.covers(v) || v.Flavor == Percona && r.covers(v.InnoDB())) {
				return r, p, true
			}
		}
	}
	return Row{}, "", false
}

var (
	flushWrite = []Step{FlushWrite}
	removeAll  = []Step{AHILRUWalk, RemoveAllWalk}
)

// Table is the version table: docs/innodb-source.md §8 is generated from it (ddlsim list
// --versions prints it) and TestVersionTableDoc keeps the two equal. Sources: the copies
// listed in docs/innodb-source.md §0 and §8 (research notes of 2026-12-01).
var Table = []Row{
	// MySQL 5.5 before the 5.5.23 fix (Bug #13704145, Bug #64284).
	{MySQL, "5.5.0", "5.5.22", "fullscan", OpDropTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk},
		"row_drop_table_for_mysql → dict_drop_index_tree (every page freed) → fil_delete_tablespace → buf_LRU_invalidate_tablespace: per instance buf_LRU_drop_page_hash_for_tablespace + buf_LRU_invalidate_tablespace_buf_pool_instance",
		"percona-server 5.1 buf0lru.c buf_LRU_invalidate_tablespace (XtraDB form); upstream 5.5 via a notes copy", "V (5.1 XtraDB) / V-2nd (5.5)"},
	{MySQL, "5.5.0", "5.5.22", "fullscan", OpTruncateTable, removeAll,
		"row_truncate_table_for_mysql → fil_discard_tablespace → buf_LRU_invalidate_tablespace; a new space id",
		"embedded-InnoDB/plugin copies of row_truncate_table_for_mysql", "V (shape) / mem (5.5 body)"},
	{MySQL, "5.5.0", "5.5.22", "fullscan", OpDiscard, removeAll,
		"fil_discard_tablespace → buf_LRU_invalidate_tablespace", "-", "mem"},
	// MySQL 5.5.23+.
	{MySQL, "5.5.23", "5.5.999", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite},
		"dict_drop_index_tree (every page freed, AHI per page) → fil_delete_tablespace → buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_NO_WRITE) → buf_flush_dirty_pages",
		"twitter-forks/mysql 5.5.29 buf0lru.c buf_LRU_flush_or_remove_pages, buf_flush_or_remove_pages, buf_flush_try_yield", "V"},
	{MySQL, "5.5.23", "5.6.999", "fullscan", OpTruncateTable, removeAll,
		"row_truncate_table_for_mysql → fil_discard_tablespace → fil_delete_tablespace(BUF_REMOVE_ALL_NO_WRITE); a new space id",
		"5.5.29 buf0lru.c buf_LRU_remove_all_pages; 5.6 row0mysql.cc row_truncate_table_for_mysql, fil0fil.cc fil_discard_tablespace", "V"},
	{MySQL, "5.5.23", "5.7.999", "fullscan", OpDiscard, removeAll,
		"fil_discard_tablespace → fil_delete_tablespace(BUF_REMOVE_ALL_NO_WRITE)", "5.5.29 buf0lru.c; 5.7 fil0fil.cc fil_discard_tablespace", "V"},
	// MySQL 5.6 milestones before the fix: 5.6.0-5.6.4 were released (5.6.2 in 2011-04, 5.6.4 in
	// 2011-12) before Bug #64284 was filed (2012-02) and fixed in 5.5.23 and 5.6.5 (both 2012-04),
	// so their DROP is 5.5.20's: the LRU-AHI walk and the invalidate walk of every instance.
	{MySQL, "5.6.0", "5.6.4", "fullscan", OpDropTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk},
		"as 5.5.0-5.5.22: fil_delete_tablespace → buf_LRU_invalidate_tablespace (buf_LRU_drop_page_hash_for_tablespace + the invalidate walk, per instance)",
		"the release chronology against the 5.5.23 fix (refman: \"addressed for DROP TABLE in MySQL 5.5.23 (Bug #13704145, Bug #64284)\"); the 5.6.5 fix version from memory", "V (dates) / mem (5.6.5)"},
	// MySQL 5.6.5+ (the 5.6.40 shape).
	{MySQL, "5.6.5", "5.7.999", "fullscan", OpDropTable, []Step{FreePages, FlushNoWrite},
		"row_drop_table_for_mysql → dict_drop_index_tree (every page freed, AHI per page: fseg_free_extent) → fil_delete_tablespace(BUF_REMOVE_FLUSH_NO_WRITE)",
		"hwCloudRDS/mysql-5.6 (5.6.40) buf0lru.cc buf_LRU_flush_or_remove_pages; jiangchunbo/mysql-5.7 buf0lru.cc; 5.6 fsp0fsp.cc fseg_free_extent", "V"},
	{MySQL, "5.6.6", "8.4.999", "fullscan", OpExport, flushWrite,
		"row_quiesce_table_start → buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE), matched by space id; os_aio_wait_until_no_pending_writes; fil_flush",
		"5.6.40 buf0lru.cc (the FLUSH_WRITE branch); 8.0 row0quiesce.cc row_quiesce_table_start", "V"},
	{MySQL, "5.7.0", "8.4.999", "fullscan", OpObserverFlush, flushWrite,
		"FlushObserver::flush → buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE) matched by observer, then a 2 ms is_complete poll",
		"5.7 buf0lru.cc (the observer branch); 8.0.1x buf0flu.cc FlushObserver", "V"},
	// MySQL 5.7.
	{MySQL, "5.7.0", "5.7.999", "fullscan", OpTruncateTable, []Step{FreePages, AHILRUWalk, RemoveAllWalk},
		"row_truncate_table_for_mysql (row0trunc.cc) → dict_drop_index_tree per index → fil_reinit_space_header → buf_LRU_flush_or_remove_pages(BUF_REMOVE_ALL_NO_WRITE); the same space id",
		"5.7 row0trunc.cc row_truncate_table_for_mysql, fil0fil.cc fil_reinit_space_header", "V"},
	{MySQL, "5.7.0", "8.0.22", "fullscan", OpUndoTruncate, removeAll,
		"5.7: trx_undo_truncate_tablespace → fil_truncate_tablespace → BUF_REMOVE_ALL_NO_WRITE (two checkpoints around it, not modelled); 8.0: fil_replace_tablespace → fil_delete_tablespace(BUF_REMOVE_ALL_NO_WRITE)",
		"5.7 fil0fil.cc fil_truncate_tablespace; 8.0.1x trx0purge/fil0fil fil_replace_tablespace", "V"},
	// MySQL 8.0 before lazy drop (the 8.0.18 of the seed); fullscan on 8.0.23+ is a what-if.
	{MySQL, "8.0.0", "8.0.22", "fullscan", OpDropTable, []Step{AHITableRounds, FlushNoWrite},
		"row_drop_table_from_cache → btr_drop_ahi_for_table; post_ddl replay_delete_space_log → row_drop_tablespace → fil_delete_tablespace(BUF_REMOVE_FLUSH_NO_WRITE); the .ibd deleted without freeing pages",
		"romz-pl/innodb-modularization (8.0.15-17) row0mysql.cc; btr0sea.cc btr_drop_ahi_for_table", "V"},
	{MySQL, "8.0.0", "8.0.22", "fullscan", OpTruncateTable, []Step{AHITableRounds, FlushNoWrite},
		"ha_innobase::truncate → innobase_truncate::exec: rename_tablespace, delete_impl (the DROP path), create again under a new space id",
		"a walkthrough quoting mysql-8.4.11 ha_innodb.cc; MySQL refman (TRUNCATE remapped to DROP + CREATE)", "V-2nd"},
	{MySQL, "8.0.0", "8.0.22", "fullscan", OpDiscard, removeAll,
		"fil_discard_tablespace → fil_delete_tablespace(BUF_REMOVE_ALL_NO_WRITE)", "8.0.1x fil0fil.cc", "V"},
	{MySQL, "8.0.13", "8.0.22", "fullscan", OpTempTruncate, removeAll,
		"Tablespace_pool::free_ts → fil_truncate_tablespace → buf_LRU_flush_or_remove_pages(BUF_REMOVE_ALL_NO_WRITE) (upstream bug 98869)",
		"srv0tmp.cc; Fil_shard::space_truncate", "V"},
	{MySQL, "5.7.0", "8.4.999", "fullscan", OpEncrypt, flushWrite,
		"fsp_alter_encrypt_tablespace: mark_all_page_dirty_in_tablespace, then buf_LRU_flush_or_remove_pages(BUF_REMOVE_FLUSH_WRITE, strict=false)",
		"Mesaukee/MySQL-8.0.25 fsp0fsp.cc fsp_alter_encrypt_tablespace", "V (8.0.25)"},
	// MySQL 8.0.23+ lazy drop (WL#14100); lazy on older versions is a what-if.
	{MySQL, "8.0.23", "8.4.999", "lazy", OpDropTable, []Step{AHITableRounds, Lazy},
		"btr_drop_ahi_for_table; fil_delete_tablespace(BUF_REMOVE_NONE) + set_deleted",
		"Mesaukee/MySQL-8.0.25 fil0fil.cc Fil_shard::space_delete; 8.0.3x btr0sea.cc btr_drop_ahi_for_table, btr_drop_next_batch; Bug #113312", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpTruncateTable, []Step{AHITableRounds, Lazy},
		"the DROP path (btr_drop_ahi_for_table, BUF_REMOVE_NONE), then a new space id", "as DROP", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpDiscard, []Step{Lazy},
		"fil_discard_tablespace → BUF_REMOVE_NONE", "Mesaukee/MySQL-8.0.25 fil0fil.cc fil_discard_tablespace", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpUndoTruncate, []Step{Lazy},
		"trx_undo_truncate_tablespace → fil_delete_tablespace(old id, BUF_REMOVE_NONE), a new space id", "8.0 trx0undo.cc", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpTempTruncate, []Step{Lazy},
		"Tablespace_pool::free_ts → bump_version()", "Mesaukee/MySQL-8.0.25 fil0fil.cc, srv0tmp.cc", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpExport, flushWrite, "as fullscan: FLUSH_WRITE still scans", "as fullscan", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpEncrypt, flushWrite, "as fullscan: FLUSH_WRITE still scans", "as fullscan", "V"},
	{MySQL, "8.0.23", "8.4.999", "lazy", OpObserverFlush, flushWrite, "as fullscan: FLUSH_WRITE still scans", "as fullscan", "V"},
	// Percona Server 5.5 innodb_lazy_drop_table (5.1.56, 5.5.10 – 5.5.30; deprecated in
	// 5.5.30-30.2, not in 5.6). Other operations are MySQL's of the same version.
	{Percona, "5.5.10", "5.5.999", "percona_lazy", OpDropTable, []Step{FreePages, MarkWalk, ChunkAHIPass},
		"fil_delete_tablespace → buf_LRU_mark_space_was_deleted: an LRU walk flagging the space's pages, then a pass over every block of every chunk dropping hashed pages' AHI; flagged pages freed when met (lookup, replace, flush)",
		"percona-server 5.1 buf0lru.c buf_LRU_mark_space_was_deleted, patches/innodb_fix_misc.patch; PS 5.5 buf0buf.c buf_page_get_zip", "V (5.1) / inferred (5.5: per instance)"},
	// MariaDB 10.11 (10.6+ code).
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpDropTable, nil,
		"ha_innobase::delete_table → trx_t::commit → fil_delete_tablespace (set stopping, FILE_DELETE + log fsync, unlink of the open file, wait for pending I/O); the file's blocks are freed at os_file_close after the commit (charged by model/ddl/filework.go from the profile's hardware.fs, Traits.FileWork); dict_drop_index_tree returns early; the AHI is dropped lazily (MDEV-22456): pages age out",
		"MariaDB 10.11.18 ha_innodb.cc ha_innobase::delete_table, dict/drop.cc trx_t::commit, fil0fil.cc fil_space_t::drop; dict0crea.cc dict_drop_index_tree, btr0sea.cc btr_search_lazy_free", "V"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpTruncateTable, nil,
		"rename + create + drop in one dictionary transaction (MDEV-13564): innobase_rename_table (FILE_RENAME), trx_t::drop_table, create (fil_ibd_create: FILE_CREATE, fallocate 64 KiB), commit → fil_delete_tablespace of the old file: as DROP for the pool",
		"MariaDB 10.11.18 ha_innodb.cc ha_innobase::truncate", "V"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpDiscard, []Step{FlushRemove},
		"row_discard_tablespace_for_mysql → fil_delete_tablespace → buf_flush_remove_pages: one flush-list walk under buf_pool.mutex + flush_list_mutex, no yield; no AHI pass (MDEV-16283)",
		"MariaDB/server row0mysql.cc, buf0flu.cc buf_flush_remove_pages", "V"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpUndoTruncate, []Step{FlushRemove},
		"trx_purge_truncate_history: the undo space's pages unlinked from the flush list", "-", "mem"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpTempTruncate, nil,
		"MariaDB has no per-session temporary tablespaces: a session's temp tables live in ibtmp1 and are dropped page by page", "-", "inferred"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpExport, []Step{FlushSpaceBatched},
		"row_quiesce_table_start: purge stopped; while (buf_flush_list_space(space)): walks of the flush list from the tail through a hazard pointer, at most innodb_io_capacity pages per call, the pages batched through the doublewrite buffer (two 128-page slots, buf_dblwr_t::add_to_batch); os_aio_wait_until_no_pending_writes; space->flush (docs/mariadb-write-path.md §1)",
		"MariaDB 10.11.18 row0quiesce.cc row_quiesce_table_start, buf0flu.cc buf_flush_list_space, buf0dblwr.cc buf_dblwr_t::add_to_batch", "V"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpEncrypt, []Step{FlushSpaceBatched},
		"the background encryption threads (fil_crypt_start_encrypting_space, fil_crypt_flush_space): while (buf_flush_list_space(space)), as FOR EXPORT",
		"MariaDB 10.11.18 fil0crypt.cc", "V"},
	{MariaDB, "10.6.0", "10.999.999", "lazy", OpObserverFlush, nil,
		"no flush observer: index builds are redo-logged (MDEV-19747)", "MariaDB 10.5.1 release notes", "V-2nd"},
}
