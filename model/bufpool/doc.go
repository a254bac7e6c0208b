// Package bufpool holds the state of one InnoDB buffer-pool instance: frames, free list,
// LRU list with midpoint insertion, flush list, page hash and per-tablespace membership.
// It is pure state: no time source (callers pass virtual milliseconds and LSNs), no
// mutexes, no costs. The timed model above it decides which mutex an operation needs and
// what it costs; the DDL policies use the scan-accounting queries to learn what a list walk
// meets and how many nodes it passes.
//
// # Mechanisms and their InnoDB sources (storage/innobase, MySQL 5.7 / 8.0)
//
//   - Free list: LIFO, UT_LIST_ADD_FIRST in buf_LRU_block_free_non_file_page, taken by
//     buf_LRU_get_free_only; initially frame 0 first (buf_chunk_init appends in order).
//   - LRU midpoint insertion: buf_LRU_add_block_low (new reads go right after LRU_old,
//     buf_page_create pages to the head), buf_LRU_remove_block, buf_LRU_old_init and
//     buf_LRU_old_adjust_len (old sublist kept within BUF_LRU_OLD_TOLERANCE of
//     old_pct/100 of the list, defined only from BUF_LRU_OLD_MIN_LEN pages).
//   - Make-young rule: buf_page_peek_if_too_old and buf_page_peek_if_young (buf0buf.ic):
//     nothing moves before the first eviction (freed_page_clock == 0); an old page moves
//     once innodb_old_blocks_time has passed since its first access
//     (buf_page_set_accessed); a young page moves once freed_page_clock has advanced by a
//     quarter of the young share of the pool since it was last put at the head.
//     buf_LRU_make_block_young does the move. Touch answers the question, MakeYoung moves.
//   - Eviction search: buf_LRU_free_from_common_LRU_list with lru_scan_itr
//     (LRUItr::start resets to the tail when unset or pointing at an old page) and
//     buf_flush_ready_for_replace (clean, unfixed, no I/O). freed_page_clock ticks in
//     buf_LRU_block_remove_hashed.
//   - Hazard pointers: LRUHp/FlushHp::adjust move a saved walker position to the
//     head-side neighbour when that frame leaves the list.
//   - Flush list: buf_flush_insert_into_flush_list (head, at the first modification) and
//     buf_flush_remove; the tail holds the oldest oldest_modification. buf_flush_remove also
//     detaches the flush observer.
//   - Page hash: buf_page_hash_get_low; here open addressing (hash.go) instead of chaining.
//   - DDL walks (scan.go, oracle.go): buf_LRU_remove_all_pages (whole LRU from the tail),
//     buf_flush_or_remove_pages (flush list from the tail, matching a space or a flush
//     observer), buf_LRU_drop_page_hash_for_tablespace (LRU from the tail, batches of
//     BUF_LRU_DROP_SEARCH_SIZE AHI pages).
//
// # Data layout and budget
//
// Frames are int32 indexes into parallel slices; -1 (Nil) ends a list. A page hit reads
// one hash slot and one 24-byte hotFrame {key, first access, old bit + clock stamp, fix
// count, observer, space version, flags, AHI helps}.
// Per frame: 24 (hot) + 8 (LRU links, reused by the free list) + 8 (space list links) +
// 8 (oldest_modification) + 4 (flush sequence) + 5.3 (page hash at 4/3 slots per frame) + 6 (flush slot map at 1.5 slots
// per frame) + ~0.3 (occupancy bitmaps, Fenwick tree) = about 63.6 bytes.
//
// # Order statistics
//
// The flush list is kept as sequence slots (flush.go): MarkDirty hands out increasing
// slots, so slot order is list order, and a Fenwick tree over 64-slot words gives any dirty
// frame's rank from the tail in O(log n). Each tablespace's member list keeps its dirty
// pages first, newest first (space.go), so the space's oldest dirty page, the first one a
// flush-list walk from the tail meets, is known in O(1). The LRU has no such index: the
// removal walk's cost is the LRU length, and positions inside it (AHI batch boundaries
// when a space has >= 1024 AHI pages, a fixed page met by the removal walk) come from a
// literal walk.
//
// # Simplifications
//
// No compressed pages (no unzip_LRU, no buddy allocator), no page_hash locks, no
// flush_rbt (recovery), a strict flush-list order (MySQL 8.0's relaxed order from
// log_sys->recent_closed is not modelled; Check requires non-decreasing LSNs from the
// tail). Space versions are 16 bits.
package bufpool
