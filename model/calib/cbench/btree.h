// The buffer pool's lookup structures and a B-tree of real pages, for the descent, AHI and row
// benchmarks (btree.c, ahi.c, row.c).
#ifndef CBENCH_BTREE_H
#define CBENCH_BTREE_H

#include "innodb.h"

// buf_block_t, the fields the routines touch, padded to the size of MariaDB 10.11's non-debug
// buf_block_t (~160 bytes) so that descriptors share cache lines as they do in the server.
typedef struct cb_block {
	uint64_t id;                  // page_id_t: space << 32 | page_no
	struct cb_block *hash;        // buf_page_t::hash, the page_hash chain
	_Atomic uint32_t state;       // buf_page_t::zip.fix: state + buffer-fix count
	_Atomic uint32_t lock;        // buf_page_t::lock (ssux_lock_impl readers word)
	byte *frame;
	uint32_t access_time;
	uint32_t freed_page_clock;
	uint64_t modify_clock;
	uint64_t oldest_modification;
	// adaptive hash index (buf_block_t, BTR_CUR_HASH_ADAPT)
	const void *ahi_index;        // block->index
	uint16_t n_hash_helps, n_fields, n_bytes, curr_n_fields, curr_n_bytes;
	uint8_t left_side, curr_left_side;
	byte pad[160 - 84];
} cb_block;

enum { STATE_UNFIXED = 1u << 29 };
enum { PAGE_HASH_ELEMENTS_PER_LATCH = 7 }; // 64-byte line / 8 - 1 (buf0buf.h page_hash_table)

// buf_pool.page_hash: cells with a latch word before every 7 of them (page_hash_table).
typedef struct {
	size_t n_cells;
	uintptr_t *array; // cell: cb_block* chain head; every 8th word: a page_hash_latch
} cb_page_hash;

// A tree's pages, descriptors and page hash, and the sysbench shape it was built with.
typedef struct {
	byte *arena;          // pages, 16 KiB aligned, page_no = index into the arena
	void *map;            // the mapping the arena is in
	size_t map_len;
	size_t n_pages;
	cb_block *blocks;     // descriptor of page i (one chunk's block array)
	cb_page_hash hash;
	cb_index index;
	uint32_t root;
	int height;           // levels, root..leaf
	uint32_t first_leaf, n_leaves;
	long rows;
	_Atomic uint32_t index_lock; // dict_index_t::lock (index_lock readers word)
	uint32_t freed_page_clock;   // buf_pool.freed_page_clock (0: nothing evicted yet)
	uint64_t n_page_gets;        // buf_pool.stat.n_page_gets
	int shape;                   // 0 clustered sysbench row, 1 secondary (k, id)
	int varlen;                  // 1: MySQL 8.0's utf8mb4 c/pad (variable length, 1 length byte each)
} cb_tree;

// The mini-transaction's memo (mtr_t::m_memo): what to release at commit.
typedef struct {
	cb_block *slot[16];
	uint8_t type[16];
	int n;
} cb_mtr;
enum { MEMO_S_FIX = 1, MEMO_X_FIX = 2, MEMO_INDEX_S = 3 };

// page_hash_table::pad: one latch word, then 7 cells, per 64-byte line.
static inline size_t hash_pad(size_t h) { return 1 + (h / PAGE_HASH_ELEMENTS_PER_LATCH) * 8 + h % PAGE_HASH_ELEMENTS_PER_LATCH; }
// page_id_t::fold (MariaDB 10.11 buf0types.h)
static inline uint64_t page_fold(uint64_t id) { uint64_t s = id >> 32; return (s << 20) + s + (uint32_t)id; }
// page_hash.cell_get(fold): ut_hash_ulint(fold, n_cells), padded.
static inline uintptr_t *hash_cell(cb_page_hash *h, uint64_t fold)
{
	size_t c = (size_t)((fold ^ UT_HASH_RANDOM_MASK2) % h->n_cells);
	return &h->array[hash_pad(c)];
}
// page_hash.lock_get(cell): the latch word at the start of the cell's cache line.
static inline _Atomic uint32_t *hash_latch(uintptr_t *cell)
{
	return (_Atomic uint32_t *)((uintptr_t)cell & ~(uintptr_t)63);
}

cb_tree *cb_tree_build(long rows, int leaf_recs, int node_recs, int shape, int varlen, uint64_t seed);
void cb_tree_free(cb_tree *t);
cb_block *cb_page_get(cb_tree *t, uint32_t page_no, int x, cb_mtr *mtr);
void cb_mtr_commit(cb_tree *t, cb_mtr *mtr);
void cb_mtr_release_last(cb_mtr *mtr);
void cb_key_tuple(const cb_tree *t, long key, byte *buf, cb_dtuple *tuple);
int cb_search_leaf(cb_tree *t, const cb_dtuple *tuple, int mode, int ahi_bytes, cb_mtr *mtr, cb_cursor *cur,
		   cb_block **leaf);
static inline uint32_t cb_index_lock_s(_Atomic uint32_t *l)
{
	// ssux_lock_impl::rd_lock_try: a CAS loop on the readers word
	uint32_t lk = 0;
	while (!atomic_compare_exchange_weak_explicit(l, &lk, lk + 1, memory_order_acquire, memory_order_relaxed)) {
		if (lk & 0x80000000u) return 0;
	}
	return 1;
}
static inline void cb_index_unlock_s(_Atomic uint32_t *l) { atomic_fetch_sub_explicit(l, 1, memory_order_release); }

#endif
