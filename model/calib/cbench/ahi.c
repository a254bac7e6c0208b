// The adaptive hash index (MariaDB 10.11 btr0sea.cc; MySQL 8.0 differs where noted): one
// partition's latch and hash table, the guess that replaces a descent, the search-info updates
// a descent makes when the AHI is on, a page's build and drop, and the per-record maintenance of
// inserts and deletes.
#include "ahi.h"

#include <stdlib.h>

// srw_spin_lock (ssux_lock_impl<true>): readers word with a WRITER bit, and a writer mutex.
static inline void ahi_rd_lock(cb_ahi_part *p) { cb_index_lock_s(&p->readers); }
static inline void ahi_rd_unlock(cb_ahi_part *p) { cb_index_unlock_s(&p->readers); }
static inline void ahi_wr_lock(cb_ahi_part *p)
{
	uint32_t z = 0;
	while (!atomic_compare_exchange_weak_explicit(&p->writer, &z, 1, memory_order_acquire, memory_order_relaxed)) z = 0;
	uint32_t r = atomic_fetch_add_explicit(&p->readers, 0x80000000u, memory_order_acquire);
	while (r != 0 && (atomic_load_explicit(&p->readers, memory_order_acquire) & 0x7FFFFFFF)) {
	}
}
static inline void ahi_wr_unlock(cb_ahi_part *p)
{
	atomic_fetch_sub_explicit(&p->readers, 0x80000000u, memory_order_release);
	atomic_store_explicit(&p->writer, 0, memory_order_release);
}

cb_ahi *cb_ahi_create(size_t cells_per_part, size_t max_nodes)
{
	cb_ahi *a = calloc(1, sizeof *a);
	cb_ahi_part *p = &a->part;
	p->n_cells = cells_per_part;
	p->cells = calloc(cells_per_part, sizeof(ha_node *));
	p->heap = malloc(max_nodes * sizeof(ha_node));
	p->heap_cap = max_nodes;
	a->info.n_fields = 1;
	a->info.left_side = 1;
	a->info.n_hash_potential = 1;
	a->info.last_hash_succ = 1;
	return a;
}

void cb_ahi_free(cb_ahi *a)
{
	free(a->part.cells);
	free(a->part.heap);
	free(a);
}

static inline ha_node **ahi_cell(cb_ahi_part *p, uint64_t fold)
{
	return &p->cells[(fold ^ UT_HASH_RANDOM_MASK2) % p->n_cells]; // hash_table_t::calc_hash
}

// btr0sea.cc rec_fold: the first n_fields fields, seeded with the index id.
static uint64_t rec_fold(const byte *rec, const rec_offs *offs, int n_fields, uint64_t tree_id)
{
	uint64_t fold = ut_fold_ull(tree_id);
	for (int i = 0; i < n_fields; i++) {
		uint32_t len;
		const byte *d = rec_get_nth_field(rec, offs, i, &len);
		if (len != UNIV_SQL_NULL) fold = ut_fold_ulint_pair(fold, ut_fold_binary(d, len));
	}
	return fold;
}

// data0data.inl dtuple_fold
static uint64_t dtuple_fold(const cb_dtuple *t, int n_fields, uint64_t tree_id)
{
	uint64_t fold = ut_fold_ull(tree_id);
	for (int i = 0; i < n_fields; i++)
		if (t->f[i].len != UNIV_SQL_NULL) fold = ut_fold_ulint_pair(fold, ut_fold_binary(t->f[i].data, t->f[i].len));
	return fold;
}

// ha_insert_for_fold: update a node with the same fold, else append a new node at the chain's end.
static void ha_insert_for_fold(cb_ahi_part *p, uint64_t fold, const byte *data)
{
	ha_node **cell = ahi_cell(p, fold);
	for (ha_node *n = *cell; n; n = n->next) {
		p->visits++;
		if (n->fold == fold) {
			n->data = data;
			return;
		}
	}
	if (p->heap_top == p->heap_cap) return; // mem_heap_alloc failed
	ha_node *node = &p->heap[p->heap_top++];
	node->data = data;
	node->fold = fold;
	node->next = NULL;
	ha_node *prev = *cell;
	if (!prev) {
		*cell = node;
	} else {
		while (prev->next) {
			p->visits++;
			prev = prev->next;
		}
		prev->next = node;
	}
}

// ha_delete_hash_node: unlink, then move the heap's top node into the hole and relink it.
static void ha_delete_hash_node(cb_ahi_part *p, ha_node *del)
{
	ha_node **link = ahi_cell(p, del->fold);
	while (*link != del) {
		p->visits++;
		link = &(*link)->next;
	}
	*link = del->next;
	ha_node *top = &p->heap[p->heap_top - 1];
	if (del != top) {
		*del = *top;
		ha_node **c = ahi_cell(p, top->fold);
		if (*c == top) {
			*c = del;
		} else {
			ha_node *n = *c;
			while (n->next != top) {
				p->visits++;
				n = n->next;
			}
			n->next = del;
		}
	}
	p->heap_top--;
}

// ha_search_and_get_data
static const byte *ha_search_and_get_data(cb_ahi_part *p, uint64_t fold)
{
	for (ha_node *n = *ahi_cell(p, fold); n; n = n->next) {
		p->visits++;
		if (n->fold == fold) return n->data;
	}
	return NULL;
}

// ha_search_and_delete_if_found
static int ha_search_and_delete_if_found(cb_ahi_part *p, uint64_t fold, const byte *data)
{
	for (ha_node *n = *ahi_cell(p, fold); n; n = n->next) {
		p->visits++;
		if (n->fold == fold && n->data == data) {
			ha_delete_hash_node(p, n);
			return 1;
		}
	}
	return 0;
}

// buf_pool_t::block_from: the chunk holding the frame (an upper_bound in a map of chunk
// starts; 128 MiB chunks), then the descriptor at the frame's offset in it.
static cb_block *block_from(cb_tree *t, const byte *rec)
{
	enum { CHUNK_PAGES = 8192 };
	size_t n_chunks = (t->n_pages + CHUNK_PAGES - 1) / CHUNK_PAGES;
	size_t lo = 0, hi = n_chunks;
	size_t off = (size_t)(rec - t->arena);
	while (hi - lo > 1) {
		size_t mid = (lo + hi) / 2;
		if (off >= mid * (size_t)CHUNK_PAGES * PAGE_SIZE) lo = mid;
		else hi = mid;
	}
	size_t in_chunk = off - lo * (size_t)CHUNK_PAGES * PAGE_SIZE;
	return &t->blocks[lo * CHUNK_PAGES + (in_chunk >> 14)];
}

// btr_search_check_guess for PAGE_CUR_GE: compare with the record the hash points to; a full
// match of the unique fields settles it, else the previous record is compared too.
static int check_guess(cb_tree *t, const byte *rec, const cb_dtuple *tuple)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	unsigned match = 0;
	int n_unique = t->index.n_uniq;
	if (rec_get_status(rec) != REC_STATUS_ORDINARY) return 0;
	rec_get_offsets(rec, &t->index, offsets, 1, n_unique);
	int cmp = cmp_dtuple_rec_with_match(tuple, rec, offsets, &match);
	if (cmp > 0) return 0;
	if ((int)match >= n_unique) return 1;
	match = 0;
	const byte *prev = page_rec_get_prev(rec);
	if (!prev) return 0;
	if (page_offset(prev) == PAGE_NEW_INFIMUM) return mach_read_4(page_align(prev) + FIL_PAGE_PREV) == 0xFFFFFFFF;
	rec_get_offsets(prev, &t->index, offsets, 1, n_unique);
	return cmp_dtuple_rec_with_match(tuple, prev, offsets, &match) > 0;
}

// btr_search_guess_on_hash (BTR_SEARCH_LEAF, PAGE_CUR_GE): fold the tuple, look the fold up
// under the partition's S latch, find the block from the record's address, S-latch it (try)
// under the page hash latch, buffer-fix it, release the partition latch, check the guess. On
// success the leaf is latched in mtr as a descent would have left it. (MySQL 8.0: the same
// steps, but the partition latch is an rw_lock_t taken with s_lock_nowait, and the block is
// latched with buf_page_get_known_nowait.)
int cb_ahi_guess(cb_tree *t, cb_ahi *a, const cb_dtuple *tuple, cb_mtr *mtr, const byte **out)
{
	btr_search_info *info = &a->info;
	if (!info->last_hash_succ || !info->n_hash_potential) return 0;
	if (tuple->n_fields < info->n_fields) return 0;
	uint64_t fold = dtuple_fold(tuple, info->n_fields, t->index.id);
	cb_ahi_part *p = &a->part; // btr_search_sys.get_part(index)
	ahi_rd_lock(p);
	const byte *rec = ha_search_and_get_data(p, fold);
	if (!rec) {
		ahi_rd_unlock(p);
		info->last_hash_succ = 0; // btr_search_failure
		return 0;
	}
	cb_block *b = block_from(t, rec);
	_Atomic uint32_t *hl = hash_latch(hash_cell(&t->hash, page_fold(b->id)));
	atomic_fetch_add_explicit(hl, 1, memory_order_acquire);
	int got = cb_index_lock_s(&b->lock); // s_lock_try
	atomic_fetch_sub_explicit(hl, 1, memory_order_release);
	if (!got) {
		ahi_rd_unlock(p);
		return 0;
	}
	if (atomic_load_explicit(&b->state, memory_order_relaxed) < STATE_UNFIXED || b->ahi_index != &t->index) {
		cb_index_unlock_s(&b->lock);
		ahi_rd_unlock(p);
		return 0;
	}
	atomic_fetch_add_explicit(&b->state, 1, memory_order_relaxed); // fix
	if (!b->access_time) b->access_time = 1;
	ahi_rd_unlock(p);
	t->n_page_gets++;
	mtr->slot[mtr->n] = b;
	mtr->type[mtr->n++] = MEMO_S_FIX;
	const byte *page = b->frame;
	uint64_t page_index_id = ((uint64_t)mach_read_4(page + PAGE_HEADER + PAGE_INDEX_ID) << 32) |
				 mach_read_4(page + PAGE_HEADER + PAGE_INDEX_ID + 4);
	if (page_index_id != t->index.id || !check_guess(t, rec, tuple)) {
		cb_mtr_release_last(mtr);
		info->last_hash_succ = 0;
		return 0;
	}
	if (info->n_hash_potential < 100 + 5) info->n_hash_potential++;
	info->last_hash_succ = 1;
	*out = rec;
	return 1;
}

// btr_search_info_update → btr_search_info_update_slow (without the build): what a descent
// with the AHI on adds after positioning on the leaf: the index's search info and the block's
// hash-help counters, unlatched. Returns whether a build is recommended.
int cb_ahi_info_update(cb_tree *t, cb_ahi *a, cb_block *block, const cb_cursor *cur)
{
	btr_search_info *info = &a->info;
	info->hash_analysis++;
	if (info->hash_analysis < 17) return 0; // BTR_SEARCH_HASH_ANALYSIS
	// btr_search_info_update_hash
	unsigned n_unique = (unsigned)t->index.n_uniq;
	if (info->n_hash_potential == 0) goto set_new_recomm;
	if (info->n_fields >= n_unique && cur->up_match >= n_unique) {
		info->n_hash_potential++;
		goto block_info;
	}
set_new_recomm:
	info->hash_analysis = 0;
	{
		int cmp = (cur->up_match > cur->low_match) - (cur->up_match < cur->low_match);
		if (!cmp) cmp = (cur->up_bytes > cur->low_bytes) - (cur->up_bytes < cur->low_bytes);
		info->left_side = cmp >= 0;
		info->n_hash_potential = cmp != 0;
		if (cmp > 0 && cur->up_match >= n_unique) {
			info->n_fields = (uint16_t)n_unique;
			info->n_bytes = 0;
		} else if (cmp != 0) {
			info->n_fields = (uint16_t)(cur->low_match < cur->up_match ? cur->low_match + 1 : cur->up_match + 1);
			info->n_bytes = 0;
		} else {
			info->n_fields = 1;
			info->n_bytes = 0;
		}
	}
block_info:
	// btr_search_update_block_hash_info
	info->last_hash_succ = 0;
	if (block->n_hash_helps > 0 && info->n_hash_potential > 0 && block->n_fields == info->n_fields &&
	    block->n_bytes == info->n_bytes && block->left_side == info->left_side) {
		if (block->ahi_index && block->curr_n_fields == info->n_fields && block->curr_n_bytes == info->n_bytes &&
		    block->curr_left_side == info->left_side)
			info->last_hash_succ = 1;
		block->n_hash_helps++;
	} else {
		block->n_hash_helps = 1;
		block->n_fields = info->n_fields;
		block->n_bytes = info->n_bytes;
		block->left_side = info->left_side;
	}
	unsigned n_recs = page_header_get(block->frame, PAGE_N_RECS);
	return block->n_hash_helps > n_recs / 16 && info->n_hash_potential >= 100 &&
	       (!block->ahi_index || block->n_hash_helps > 2 * n_recs);
}

// btr_search_build_page_hash_index: fold every record outside the latch (into malloc'ed
// arrays), then insert them under the partition's X latch.
void cb_ahi_build_page(cb_tree *t, cb_ahi *a, cb_block *block)
{
	cb_ahi_part *p = &a->part;
	const byte *page = block->frame;
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	ahi_rd_lock(p);
	int rebuild = block->ahi_index != NULL;
	ahi_rd_unlock(p);
	if (rebuild) cb_ahi_drop_page(t, a, block);
	unsigned n_recs = page_header_get(page, PAGE_N_RECS);
	if (!n_recs) return;
	uint64_t *folds = malloc(n_recs * sizeof *folds);
	const byte **recs = malloc(n_recs * sizeof *recs);
	unsigned n_cached = 0;
	const int nf = a->info.n_fields;
	const byte *rec = page_rec_get_next(page + PAGE_NEW_INFIMUM);
	rec_get_offsets(rec, &t->index, offsets, 1, nf);
	uint64_t fold = rec_fold(rec, offsets, nf, t->index.id);
	folds[n_cached] = fold; // left_side
	recs[n_cached++] = rec;
	for (const byte *next; (next = page_rec_get_next(rec)) && page_offset(next) != PAGE_NEW_SUPREMUM; rec = next) {
		rec_get_offsets(next, &t->index, offsets, 1, nf);
		uint64_t next_fold = rec_fold(next, offsets, nf, t->index.id);
		if (fold != next_fold) {
			folds[n_cached] = next_fold;
			recs[n_cached++] = next;
		}
		fold = next_fold;
	}
	ahi_wr_lock(p);
	block->n_hash_helps = 0;
	block->curr_n_fields = (uint16_t)nf;
	block->curr_n_bytes = 0;
	block->curr_left_side = 1;
	block->ahi_index = &t->index;
	for (unsigned i = 0; i < n_cached; i++) ha_insert_for_fold(p, folds[i], recs[i]);
	ahi_wr_unlock(p);
	free(folds);
	free(recs);
}

// btr_search_drop_page_hash_index: fold the page's records, then under the X latch remove
// every node of each fold's chain that points into the page.
void cb_ahi_drop_page(cb_tree *t, cb_ahi *a, cb_block *block)
{
	cb_ahi_part *p = &a->part;
	const byte *page = block->frame;
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	unsigned n_recs = page_header_get(page, PAGE_N_RECS);
	uint64_t *folds = malloc(n_recs * sizeof *folds);
	unsigned n_cached = 0;
	const int nf = block->curr_n_fields;
	uint64_t prev_fold = 0;
	for (const byte *rec = page_rec_get_next(page + PAGE_NEW_INFIMUM); rec && page_offset(rec) != PAGE_NEW_SUPREMUM;
	     rec = page_rec_get_next(rec)) {
		rec_get_offsets(rec, &t->index, offsets, 1, nf);
		uint64_t fold = rec_fold(rec, offsets, nf, t->index.id);
		if (fold == prev_fold && prev_fold != 0) continue;
		folds[n_cached++] = fold;
		prev_fold = fold;
	}
	ahi_wr_lock(p);
	for (unsigned i = 0; i < n_cached; i++) {
		// ha_remove_all_nodes_to_page
		for (ha_node *n = *ahi_cell(p, folds[i]); n;) {
			p->visits++;
			if (page_align(n->data) == page) {
				ha_delete_hash_node(p, n);
				n = *ahi_cell(p, folds[i]);
			} else {
				n = n->next;
			}
		}
	}
	block->ahi_index = NULL;
	ahi_wr_unlock(p);
	free(folds);
}

// btr_search_update_hash_on_insert, cursor on rec (the record before ins): fold the three
// records, then under the X latch add the new record's entry and (left_side) the next one's.
void cb_ahi_update_on_insert(cb_tree *t, cb_ahi *a, cb_block *block, const byte *rec)
{
	cb_ahi_part *p = &a->part;
	if (!block->ahi_index) return;
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	const int nf = block->curr_n_fields;
	const byte *ins = page_rec_get_next(rec), *next = ins ? page_rec_get_next(ins) : NULL;
	if (!next) return;
	rec_get_offsets(ins, &t->index, offsets, 1, 64);
	uint64_t ins_fold = rec_fold(ins, offsets, nf, t->index.id), next_fold = 0, fold = 0;
	int next_sup = page_offset(next) == PAGE_NEW_SUPREMUM;
	if (!next_sup) {
		rec_get_offsets(next, &t->index, offsets, 1, nf);
		next_fold = rec_fold(next, offsets, nf, t->index.id);
	}
	int locked = 0;
	if (page_offset(rec) != PAGE_NEW_INFIMUM) {
		rec_get_offsets(rec, &t->index, offsets, 1, nf);
		fold = rec_fold(rec, offsets, nf, t->index.id);
		if (fold != ins_fold) {
			ahi_wr_lock(p);
			locked = 1;
			ha_insert_for_fold(p, ins_fold, ins); // left_side
		}
	} else {
		ahi_wr_lock(p);
		locked = 1;
		ha_insert_for_fold(p, ins_fold, ins);
	}
	if (!next_sup && ins_fold != next_fold) {
		if (!locked) {
			ahi_wr_lock(p);
			locked = 1;
		}
		ha_insert_for_fold(p, next_fold, next);
	}
	if (locked) ahi_wr_unlock(p);
}

// btr_search_update_hash_on_delete: fold the record, remove its node under the X latch.
void cb_ahi_update_on_delete(cb_tree *t, cb_ahi *a, cb_block *block, const byte *rec)
{
	cb_ahi_part *p = &a->part;
	if (!block->ahi_index) return;
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	rec_get_offsets(rec, &t->index, offsets, 1, 64);
	uint64_t fold = rec_fold(rec, offsets, block->curr_n_fields, t->index.id);
	ahi_wr_lock(p);
	ha_search_and_delete_if_found(p, fold, rec);
	ahi_wr_unlock(p);
}

// The X latch pair btr_cur_update_in_place takes around an in-place update of a record on a
// hashed page (MariaDB 10.11; MySQL 8.0 does the same with rw_lock_x_lock on the partition).
void cb_ahi_latch_pair(cb_ahi *a)
{
	ahi_wr_lock(&a->part);
	ahi_wr_unlock(&a->part);
}
