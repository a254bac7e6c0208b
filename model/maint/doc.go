// Package maint is the buffer pool's maintenance room: the routines of buf0lru.cc and
// buf0flu.cc that DDL runs over a tablespace's (or a flush observer's) pages, the
// version-specific ones, the version table's steps and the policy toolkit. model/server keeps
// the pool, the threads, the I/O and the locks; the policies (policies/) are written on this
// package, never on model/bufpool.
//
//   - walks.go: buf_LRU_drop_page_hash_for_tablespace (DropAHIForTablespace),
//     buf_LRU_remove_all_pages (RemoveAllPages), buf_flush_get_dirty_pages_count
//     (CountObserverPages), FlushObserver::is_complete (WaitObserver), btr_drop_ahi_for_table
//     (DropAHIForTable);
//   - flushwalk.go: buf_flush_dirty_pages + buf_flush_or_remove_pages and the later
//     flush_pages_flush_list (FlushDirtyPages), node for node as the source walks;
//   - versions.go: the routines only some versions run (5.5–5.7's per-page free, Percona's
//     mark walk and chunk AHI pass, MariaDB's buf_flush_remove_pages);
//   - steps.go: a policy's rows of the version table (model/version), looked up by a typed
//     key at load (a gap in the table is an error then), and run;
//   - toolkit.go: the charged primitives a new policy composes (CollectPages, RemovePages,
//     FlushPageBatch).
//
// Each walks its list under the mutexes the real code holds and charges list_node per node
// visited; which pages a walk meets and how many nodes it passes are computed from the
// bufpool's per-space lists and flush-list order statistics instead of a node-by-node walk,
// tested against the literal walks (scan_oracle_test.go). Sources: docs/innodb-source.md §1,
// §7, §8 (8.0.18 storage/innobase/buf/buf0lru.cc, buf0flu.cc, btr/btr0sea.cc unless noted).
package maint
