// A bulk-loaded B-tree of InnoDB compact pages, the buffer pool's page hash over it, and the
// page get / descent the server does on it: buf_page_get_gen's resident-page path and
// btr_cur_t::search_leaf (MariaDB 10.11 btr0cur.cc; MySQL 8.0 btr_cur_search_to_nth_level).
#include "btree.h"

#include <stdlib.h>
#include <sys/mman.h>

static uint64_t splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

static size_t find_prime(size_t n)
{
	for (n |= 1;; n += 2) {
		int prime = 1;
		for (size_t d = 3; d * d <= n; d += 2)
			if (n % d == 0) { prime = 0; break; }
		if (prime) return n;
	}
}

// The frames, aligned to the page size as the buffer pool's are (page_align and the record
// offsets depend on it): mmap'ed with a page of slack, 4 KiB pages (the lab's pool is not on
// huge pages).
static byte *alloc_pages(cb_tree *t, size_t bytes)
{
	t->map_len = bytes + PAGE_SIZE;
	t->map = mmap(NULL, t->map_len, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (t->map == MAP_FAILED) return NULL;
	return (byte *)(((uintptr_t)t->map + PAGE_SIZE - 1) & ~(uintptr_t)(PAGE_SIZE - 1));
}

// sysbench's c and pad: groups of 11 digits joined by '-'.
static void sb_char(byte *b, int n, uint64_t *s)
{
	for (int i = 0; i < n; i++) b[i] = (i % 12 == 11) ? '-' : (byte)('0' + splitmix(s) % 10);
}

static unsigned cb_leaf_record(const cb_tree *t, long j, byte *data, byte *extra, unsigned *extra_len, uint64_t *s)
{
	if (t->shape == 1) { // secondary (k, id): k = j+1, id a permutation of j
		mach_write_4(data, (uint32_t)(j + 1) ^ 0x80000000u);
		mach_write_4(data + 4, (uint32_t)((j * 2654435761u) % (uint64_t)t->rows + 1) ^ 0x80000000u);
		*extra_len = 0;
		return 8;
	}
	byte *d = data;
	mach_write_4(d, (uint32_t)(j + 1) ^ 0x80000000u); d += 4;      // id
	mach_write_6(d, 0x100 + (j & 0xFF)); d += 6;                  // DB_TRX_ID
	mach_write_7(d, (1ULL << 55) | (uint64_t)j); d += 7;          // DB_ROLL_PTR (insert flag)
	mach_write_4(d, (uint32_t)(splitmix(s) % (uint64_t)t->rows + 1) ^ 0x80000000u); d += 4; // k
	sb_char(d, 120, s); d += 120;                                 // c
	sb_char(d, 60, s); d += 60;                                   // pad
	*extra_len = 0;
	if (t->varlen) { // lengths of the variable fields, last field first
		extra[0] = 60;
		extra[1] = 120;
		*extra_len = 2;
	}
	return (unsigned)(d - data);
}

static void define_index(cb_tree *t)
{
	cb_index *ix = &t->index;
	memset(ix, 0, sizeof *ix);
	ix->space = 5;
	if (t->shape == 1) {
		ix->id = 43;
		ix->n_fields = 2;
		ix->n_uniq = 2; // a non-unique secondary index: every field is part of the tree key
		ix->f[0] = (cb_field){4, 4, 0, DATA_INT, 0};
		ix->f[1] = (cb_field){4, 4, 0, DATA_INT, 0};
		ix->trx_id_pos = -1;
		return;
	}
	ix->id = 42;
	ix->clust = 1;
	ix->n_fields = 6;
	ix->n_uniq = 1;
	ix->trx_id_pos = 1;
	ix->f[0] = (cb_field){4, 4, 0, DATA_INT, 0};
	ix->f[1] = (cb_field){6, 6, 0, DATA_SYS, 0};
	ix->f[2] = (cb_field){7, 7, 0, DATA_SYS, 0};
	ix->f[3] = (cb_field){4, 4, 0, DATA_INT, 0};
	if (t->varlen) { // utf8mb4 CHAR: variable length, up to 4 bytes a character
		ix->f[4] = (cb_field){0, 480, 0, DATA_MYSQL, 0};
		ix->f[5] = (cb_field){0, 240, 0, DATA_MYSQL, 0};
	} else { // latin1 CHAR (MariaDB 10.11's default charset): fixed length
		ix->f[4] = (cb_field){120, 120, 0, DATA_CHAR, 0};
		ix->f[5] = (cb_field){60, 60, 0, DATA_CHAR, 0};
	}
}

static void insert_hash(cb_tree *t, uint32_t page_no)
{
	cb_block *b = &t->blocks[page_no];
	b->id = ((uint64_t)t->index.space << 32) | page_no;
	b->frame = t->arena + (size_t)page_no * PAGE_SIZE;
	atomic_store(&b->state, STATE_UNFIXED);
	atomic_store(&b->lock, 0);
	b->access_time = 1;
	uintptr_t *cell = hash_cell(&t->hash, page_fold(b->id));
	b->hash = (cb_block *)*cell;
	*cell = (uintptr_t)b;
}

cb_tree *cb_tree_build(long rows, int leaf_recs, int node_recs, int shape, int varlen, uint64_t seed)
{
	cb_tree *t = calloc(1, sizeof *t);
	t->rows = rows;
	t->shape = shape;
	t->varlen = varlen;
	define_index(t);
	long level_pages[8], total = 0;
	int h = 0;
	long n = (rows + leaf_recs - 1) / leaf_recs;
	for (;;) {
		level_pages[h++] = n;
		total += n;
		if (n == 1) break;
		n = (n + node_recs - 1) / node_recs;
	}
	t->height = h;
	t->n_pages = (size_t)total;
	t->arena = alloc_pages(t, t->n_pages * PAGE_SIZE);
	t->blocks = calloc(t->n_pages, sizeof(cb_block));
	t->hash.n_cells = find_prime(2 * t->n_pages);
	t->hash.array = aligned_alloc(64, ((hash_pad(t->hash.n_cells) / 8 + 1) * 64));
	memset(t->hash.array, 0, (hash_pad(t->hash.n_cells) / 8 + 1) * 64);
	byte data[256], extra[8];
	unsigned extra_len;
	uint64_t s = seed;
	// leaves: pages 0 .. L-1
	uint32_t page_no = 0;
	long j = 0;
	t->first_leaf = 0;
	t->n_leaves = (uint32_t)level_pages[0];
	for (long p = 0; p < level_pages[0]; p++, page_no++) {
		byte *pg = t->arena + (size_t)page_no * PAGE_SIZE;
		cb_page_init(pg, page_no, t->index.id, 0);
		for (int r = 0; r < leaf_recs && j < rows; r++, j++) {
			unsigned len = cb_leaf_record(t, j, data, extra, &extra_len, &s);
			cb_page_append(pg, data, len, extra_len, extra, REC_STATUS_ORDINARY);
		}
		cb_page_finish(pg);
		if (p > 0) mach_write_4(pg + FIL_PAGE_PREV, page_no - 1);
		if (p + 1 < level_pages[0]) mach_write_4(pg + FIL_PAGE_NEXT, page_no + 1);
		insert_hash(t, page_no);
	}
	// upper levels: node pointers (the child's first key, then its page number)
	uint32_t child_first = 0;
	unsigned keylen = shape == 1 ? 8 : 4;
	for (int lv = 1; lv < h; lv++) {
		uint32_t level_first = page_no;
		long children = level_pages[lv - 1];
		long c = 0;
		for (long p = 0; p < level_pages[lv]; p++, page_no++) {
			byte *pg = t->arena + (size_t)page_no * PAGE_SIZE;
			cb_page_init(pg, page_no, t->index.id, (unsigned)lv);
			for (int r = 0; r < node_recs && c < children; r++, c++) {
				const byte *child = t->arena + (size_t)(child_first + c) * PAGE_SIZE;
				const byte *first = page_rec_get_next(child + PAGE_NEW_INFIMUM);
				memcpy(data, first, keylen);
				mach_write_4(data + keylen, child_first + (uint32_t)c);
				byte *rec = cb_page_append(pg, data, keylen + 4, 0, NULL, REC_STATUS_NODE_PTR);
				if (c == 0) rec[-5] |= REC_INFO_MIN_REC_FLAG; // btr_set_min_rec_mark
			}
			cb_page_finish(pg);
			insert_hash(t, page_no);
		}
		child_first = level_first;
	}
	t->root = page_no - 1;
	return t;
}

void cb_tree_free(cb_tree *t)
{
	munmap(t->map, t->map_len);
	free(t->blocks);
	free(t->hash.array);
	free(t);
}

// buf_page_get_gen → buf_page_get_low for a page in the pool: the page_hash cell's latch in S
// around the chain walk and the buffer-fix, then the page latch, the make-young check
// (buf_page_make_young_if_needed: nothing to do before the first eviction) and the memo push.
cb_block *cb_page_get(cb_tree *t, uint32_t page_no, int x, cb_mtr *mtr)
{
	uint64_t id = ((uint64_t)t->index.space << 32) | page_no;
	uintptr_t *cell = hash_cell(&t->hash, page_fold(id));
	_Atomic uint32_t *latch = (_Atomic uint32_t *)((uintptr_t)cell & ~(uintptr_t)63);
	uint32_t l = atomic_fetch_add_explicit(latch, 1, memory_order_acquire); // page_hash_latch::read_lock
	(void)l;
	cb_block *b = (cb_block *)*cell;
	while (b && b->id != id) b = b->hash;
	atomic_fetch_add_explicit(&b->state, 1, memory_order_relaxed); // buf_page_t::fix
	atomic_fetch_sub_explicit(latch, 1, memory_order_release);
	if (x) {
		uint32_t z = 0;
		while (!atomic_compare_exchange_weak_explicit(&b->lock, &z, 0x80000000u, memory_order_acquire,
							      memory_order_relaxed))
			z = 0;
	} else {
		cb_index_lock_s(&b->lock);
	}
	if (!b->access_time) b->access_time = 1;
	else if (t->freed_page_clock && b->freed_page_clock + 1000 < t->freed_page_clock) b->freed_page_clock = t->freed_page_clock;
	t->n_page_gets++;
	mtr->slot[mtr->n] = b;
	mtr->type[mtr->n++] = (uint8_t)(x ? MEMO_X_FIX : MEMO_S_FIX);
	return b;
}

static void release_slot(cb_mtr *mtr, int i)
{
	cb_block *b = mtr->slot[i];
	switch (mtr->type[i]) {
	case MEMO_INDEX_S:
		cb_index_unlock_s((_Atomic uint32_t *)(void *)b);
		return;
	case MEMO_S_FIX:
		atomic_fetch_sub_explicit(&b->state, 1, memory_order_release);
		atomic_fetch_sub_explicit(&b->lock, 1, memory_order_release);
		return;
	case MEMO_X_FIX:
		atomic_fetch_sub_explicit(&b->state, 1, memory_order_release);
		atomic_store_explicit(&b->lock, 0, memory_order_release);
		return;
	}
}

// mtr_t::rollback_to_savepoint(i, i + 1): release one memo slot and erase it.
static void release_at(cb_mtr *mtr, int i)
{
	release_slot(mtr, i);
	for (int k = i + 1; k < mtr->n; k++) {
		mtr->slot[k - 1] = mtr->slot[k];
		mtr->type[k - 1] = mtr->type[k];
	}
	mtr->n--;
}

void cb_mtr_release_last(cb_mtr *mtr) { release_at(mtr, mtr->n - 1); }

// mtr_t::commit of a read-only mini-transaction: release the memo in reverse order.
void cb_mtr_commit(cb_tree *t, cb_mtr *mtr)
{
	(void)t;
	while (mtr->n > 0) release_slot(mtr, --mtr->n);
}

void cb_key_tuple(const cb_tree *t, long key, byte *buf, cb_dtuple *tuple)
{
	memset(tuple, 0, sizeof *tuple);
	mach_write_4(buf, (uint32_t)key ^ 0x80000000u);
	tuple->f[0] = (cb_dfield){buf, 4, DATA_INT, 0};
	tuple->n_fields = tuple->n_fields_cmp = 1;
	if (t->shape == 1) { // the full secondary entry (k, id), as row_upd and row_ins search it
		mach_write_4(buf + 4, (uint32_t)(((key - 1) * 2654435761u) % (uint64_t)t->rows + 1) ^ 0x80000000u);
		tuple->f[1] = (cb_dfield){buf + 4, 4, DATA_INT, 0};
		tuple->n_fields = tuple->n_fields_cmp = 2;
	}
}

// btr_cur_t::search_leaf with BTR_SEARCH_LEAF (or BTR_MODIFY_LEAF: x) and no AHI hit: the index
// S-latch, then from the root one page at a time: get the page (S latch), release its parent
// (latch coupling), binary-search it in the non-leaf mode (GE → L), decode the node pointer
// and follow it. At the leaf: release the index latch, search the page in the caller's mode,
// with the byte-wise compare when the AHI is on (ahi_bytes).
int cb_search_leaf(cb_tree *t, const cb_dtuple *tuple, int mode, int ahi_bytes, cb_mtr *mtr, cb_cursor *cur,
		   cb_block **leaf)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	cb_index_lock_s(&t->index_lock);
	mtr->slot[mtr->n] = (cb_block *)(void *)&t->index_lock;
	mtr->type[mtr->n++] = MEMO_INDEX_S;
	const int index_slot = mtr->n - 1;
	const int page_mode = mode == PAGE_CUR_GE ? PAGE_CUR_L : mode == PAGE_CUR_G ? PAGE_CUR_LE : mode;
	uint32_t page_no = t->root;
	int height = -1;
	cur->up_match = cur->low_match = cur->up_bytes = cur->low_bytes = 0;
	for (;;) {
		cb_block *b = cb_page_get(t, page_no, 0, mtr);
		const byte *page = b->frame;
		if (!(page[PAGE_HEADER + PAGE_N_HEAP] & 0x80) ||
		    (mach_read_4(page + PAGE_HEADER + PAGE_INDEX_ID + 4) | ((uint64_t)mach_read_4(page + PAGE_HEADER + PAGE_INDEX_ID) << 32)) != t->index.id ||
		    mach_read_2(page + FIL_PAGE_TYPE) != 17855)
			return 1; // corrupted
		int level = (int)page_header_get(page, PAGE_LEVEL);
		if (height < 0) height = level;
		else release_at(mtr, mtr->n - 2); // the parent
		if (level == 0) {
			release_at(mtr, index_slot);
			*leaf = b;
			return ahi_bytes ? page_cur_search_with_match_bytes(page, &t->index, tuple, mode, cur)
					 : page_cur_search_with_match(page, &t->index, tuple, mode, cur);
		}
		if (page_cur_search_with_match(page, &t->index, tuple, page_mode, cur)) return 1;
		rec_get_offsets(cur->rec, &t->index, offsets, 0, 64);
		uint32_t len;
		const byte *child = rec_get_nth_field(cur->rec, offsets, t->index.n_uniq, &len);
		page_no = mach_read_4(child); // btr_node_ptr_get_child_page_no
	}
}
