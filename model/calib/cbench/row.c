// Row fetch and conversion to MySQL's row format (MariaDB 10.11 row0sel.cc): the point
// select's tail (row_sel_try_search_shortcut_for_mysql after the positioning, then
// row_sel_store_mysql_rec), and a range scan's per-row step in row_search_mvcc with its
// prefetch cache.
#include "row.h"

// mysql_row_templ_t, the fields row_sel_field_store_in_mysql_format reads.
typedef struct {
	int clust_rec_field_no;
	unsigned mysql_col_offset, mysql_col_len;
	uint8_t type; // DATA_INT, DATA_CHAR (latin1 CHAR), DATA_MYSQL (multi-byte CHAR)
	uint8_t mbmaxlen;
	uint8_t mysql_null_bit_mask;
} cb_templ;

// The MySQL record of sbtest: one null-bitmap byte (the CHAR columns' defaults make none of
// them nullable, but MariaDB keeps the byte), id 4, k 4, c 120 (480 in utf8mb4), pad 60 (240).
static void templates(const cb_tree *t, int kind, cb_templ *tp, int *n, unsigned *row_len)
{
	unsigned cl = t->varlen ? 480 : 120, pl = t->varlen ? 240 : 60;
	uint8_t ct = t->varlen ? DATA_MYSQL : DATA_CHAR, mb = t->varlen ? 4 : 1;
	cb_templ id = {0, 1, 4, DATA_INT, 1, 0}, k = {3, 5, 4, DATA_INT, 1, 0};
	cb_templ c = {4, 9, cl, ct, mb, 0}, pad = {5, 9 + cl, pl, ct, mb, 0};
	*row_len = 9 + cl + pl;
	switch (kind) {
	case TEMPL_C: // SELECT c ... (point select, simple/order/distinct range)
		tp[0] = c;
		*n = 1;
		break;
	case TEMPL_K: // SELECT SUM(k) ...
		tp[0] = k;
		*n = 1;
		break;
	default: // the whole row (UPDATE/DELETE read the row for the update vector)
		tp[0] = id;
		tp[1] = k;
		tp[2] = c;
		tp[3] = pad;
		*n = 4;
	}
}

// row_sel_field_store_in_mysql_format_func
static inline void store_field(byte *dest, const cb_templ *tp, const byte *data, uint32_t len)
{
	byte *pad = dest + len;
	switch (tp->type) {
	case DATA_MYSQL:
		memcpy(dest, data, len);
		if (tp->mbmaxlen != 1) memset(pad, 0x20, tp->mysql_col_len - len); // pad CHAR in a multi-byte charset
		break;
	case DATA_INT: {
		byte *ptr = pad;
		do *--ptr = *data++;
		while (ptr != dest);
		pad[-1] ^= 0x80; // signed: sign bit back to two's complement
		break;
	}
	default:
		memcpy(dest, data, len);
	}
}

// row_sel_store_mysql_rec for a clustered record.
static inline void store_mysql_rec(byte *mysql_rec, const cb_templ *tp, int n, const byte *rec, const rec_offs *offs)
{
	for (int i = 0; i < n; i++) {
		uint32_t len;
		const byte *data = rec_get_nth_field(rec, offs, tp[i].clust_rec_field_no, &len);
		store_field(mysql_rec + tp[i].mysql_col_offset, &tp[i], data, len);
		if (tp[i].mysql_null_bit_mask) mysql_rec[0] &= (byte)~tp[i].mysql_null_bit_mask;
	}
}

// ReadView::changes_visible: ids below the low limit with no active ones in between are seen.
static inline int changes_visible(uint64_t id, uint64_t up_limit, uint64_t low_limit)
{
	if (id >= low_limit) return 0;
	return id < up_limit;
}

// row_sel_clust_sees: DB_TRX_ID against the read view.
static inline int clust_sees(const cb_tree *t, const byte *rec, const rec_offs *offs)
{
	uint32_t len;
	const byte *f = rec_get_nth_field(rec, offs, t->index.trx_id_pos, &len);
	return changes_visible(mach_read_6(f), 1ULL << 40, 1ULL << 41);
}

// The point select's row work once the cursor is on the record: the user-record and
// unique-match checks, rec_get_offsets of the whole record, the visibility check, the
// delete-mark check, row_sel_store_mysql_rec.
uint64_t cb_point_row(cb_tree *t, const byte *rec, const cb_cursor *cur, int templ_kind, byte *mysql_rec)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	cb_templ tp[4];
	int n;
	unsigned row_len;
	templates(t, templ_kind, tp, &n, &row_len);
	if (rec_get_status(rec) != REC_STATUS_ORDINARY || cur->up_match < 1) return 0;
	rec_get_offsets(rec, &t->index, offsets, 1, 64);
	if (!clust_sees(t, rec, offsets)) return 0;
	if (rec_get_info_bits(rec) & REC_INFO_DELETED_FLAG) return 0;
	store_mysql_rec(mysql_rec, tp, n, rec, offsets);
	return mysql_rec[tp[0].mysql_col_offset];
}

enum { MYSQL_FETCH_CACHE_SIZE = 8, MYSQL_FETCH_CACHE_THRESHOLD = 4 };

// A range scan of n_rows from the positioned leaf cursor, as row_search_mvcc returns them one
// per call: each row steps to the next record (page_cur_move_to_next; past the supremum the
// next leaf is latched and the previous one released, btr_pcur_move_to_next_page), decodes
// its offsets, checks visibility and the delete mark, and is stored in MySQL format; from the
// 5th row on (MYSQL_FETCH_CACHE_THRESHOLD) rows are converted 8 at a time into the prefetch
// cache and copied out of it one per call (row_sel_enqueue_cache_row_for_mysql,
// row_sel_dequeue_cached_row_for_mysql: mysql_prefix_len bytes each). Between calls without
// the cache the cursor position is stored (btr_pcur_store_position: the record's key prefix
// copied) and restored optimistically (buf_page_optimistic_get: the block's modify clock).
uint64_t cb_range_rows(cb_tree *t, cb_mtr *mtr, cb_block *leaf, const byte *rec, long n_rows, int templ_kind,
		       byte *mysql_rec, int32_t *ids)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	cb_templ tp[4];
	int n;
	unsigned row_len;
	templates(t, templ_kind, tp, &n, &row_len);
	const unsigned prefix_len = tp[n - 1].mysql_col_offset + tp[n - 1].mysql_col_len;
	byte cache[MYSQL_FETCH_CACHE_SIZE][1024];
	byte old_rec_buf[64];
	int n_cached = 0, first_cached = 0;
	uint64_t sum = 0;
	long fetched = 0;
	cb_block *block = leaf;
	uint64_t stored_clock = 0;
	for (long r = 0; r < n_rows;) {
		if (n_cached) { // a call served from the cache
			memcpy(mysql_rec, cache[first_cached], prefix_len);
			first_cached++;
			n_cached--;
			sum += mysql_rec[tp[0].mysql_col_offset];
			if (ids) memcpy(&ids[r], mysql_rec + 1, 4);
			r++;
			continue;
		}
		if (fetched > 0) {
			// the previous call stored the position and committed: restore it
			if (block->modify_clock != stored_clock) return sum;
			cb_index_lock_s(&block->lock);
			atomic_fetch_add_explicit(&block->state, 1, memory_order_relaxed);
			mtr->slot[mtr->n] = block;
			mtr->type[mtr->n++] = MEMO_S_FIX;
		}
		int to_cache = fetched >= MYSQL_FETCH_CACHE_THRESHOLD ? MYSQL_FETCH_CACHE_SIZE : 1;
		first_cached = 0;
		for (int c = 0; c < to_cache && r + c < n_rows; c++) {
			if (fetched > 0 || c > 0 || page_offset(rec) == PAGE_NEW_SUPREMUM) {
				// the next record; a search for a page's first key ends on the previous
				// page's supremum, so the first row may need the step too
				const byte *next = page_offset(rec) == PAGE_NEW_SUPREMUM ? rec : page_rec_get_next(rec);
				if (!next) return sum;
				if (page_offset(next) == PAGE_NEW_SUPREMUM) {
					uint32_t np = mach_read_4(block->frame + FIL_PAGE_NEXT);
					if (np == 0xFFFFFFFF) return sum;
					cb_block *nb = cb_page_get(t, np, 0, mtr);
					// release the previous leaf (btr_leaf_page_release)
					for (int i = 0; i < mtr->n; i++)
						if (mtr->slot[i] == block) {
							atomic_fetch_sub_explicit(&block->state, 1, memory_order_release);
							atomic_fetch_sub_explicit(&block->lock, 1, memory_order_release);
							mtr->slot[i] = nb;
							mtr->type[i] = MEMO_S_FIX;
							mtr->n--;
							break;
						}
					block = nb;
					next = page_rec_get_next(nb->frame + PAGE_NEW_INFIMUM);
				}
				rec = next;
			}
			rec_get_offsets(rec, &t->index, offsets, 1, 64);
			if (!clust_sees(t, rec, offsets)) continue;
			if (rec_get_info_bits(rec) & REC_INFO_DELETED_FLAG) continue;
			if (to_cache == 1) {
				store_mysql_rec(mysql_rec, tp, n, rec, offsets);
				sum += mysql_rec[tp[0].mysql_col_offset];
				if (ids) memcpy(&ids[r], mysql_rec + 1, 4);
			} else {
				store_mysql_rec(cache[c], tp, n, rec, offsets);
				n_cached++;
			}
			fetched++;
		}
		if (to_cache == 1) r++;
		{
			// btr_pcur_store_position + mtr commit, at the end of every call that read the page
			rec_get_offsets(rec, &t->index, offsets, 1, t->index.n_uniq);
			memcpy(old_rec_buf, rec - (offsets[2] & 0x7FFF), (offsets[2] & 0x7FFF) + rec_offs_base(offsets)[t->index.n_uniq - 1]);
			stored_clock = block->modify_clock;
			cb_mtr_commit(t, mtr);
		}
	}
	return sum + old_rec_buf[0];
}
