// Record and page-cursor routines: rec_get_offsets, the tuple/record compares, the page
// directory binary search with its linear tail, and the page builder the trees use.
#include "innodb.h"

// rem0rec.cc rec_init_offsets_comp_ordinary (leaf, REC_LEAF_ORDINARY, no instant columns) and
// rec_init_offsets's REC_STATUS_NODE_PTR branch, entered through rec_get_offsets_func with the
// number of fields the caller needs (page_cur_search_with_match passes
// dtuple_get_n_fields_cmp(tuple), so a descent decodes only the key's fields).
void rec_get_offsets(const byte *rec, const cb_index *index, rec_offs *offsets, int leaf, int n)
{
	int n_fields = leaf ? index->n_fields : index->n_uniq + 1;
	if (n > n_fields) n = n_fields;
	offsets[0] = REC_OFFS_NORMAL_SIZE;
	offsets[1] = (rec_offs)n;
	rec_offs *base = rec_offs_base(offsets);
	const byte *nulls = rec - (REC_N_NEW_EXTRA_BYTES + 1);
	const byte *lens = nulls - (leaf ? index->n_core_null_bytes : 0);
	unsigned null_mask = 1;
	unsigned offs = 0;
	for (int i = 0; i < n; i++) {
		if (!leaf && i == index->n_uniq) {
			// the child page number of a node pointer
			offs += REC_NODE_PTR_SIZE;
			base[i] = (rec_offs)offs;
			continue;
		}
		const cb_field *field = &index->f[i];
		if (field->nullable) {
			if (!(byte)null_mask) {
				nulls--;
				null_mask = 1;
			}
			if (*nulls & null_mask) {
				null_mask <<= 1;
				base[i] = (rec_offs)(offs | REC_OFFS_SQL_NULL);
				continue;
			}
			null_mask <<= 1;
		}
		if (!field->fixed_len) {
			unsigned len = *lens--;
			if (field->max_len > 255 && (len & 0x80)) {
				len = ((len & 0x3f) << 8) | *lens--;
			}
			offs += len;
		} else {
			offs += field->fixed_len;
		}
		base[i] = (rec_offs)offs;
	}
	offsets[2] = (rec_offs)((rec - (lens + 1)) | REC_OFFS_COMPACT);
}

// rem0cmp.cc cmp_data for the types the sysbench keys have: DATA_INT and DATA_SYS compare as
// unsigned byte strings (the sign bit is stored flipped), then by length.
static inline int cmp_data(unsigned mtype, const byte *d1, uint32_t l1, const byte *d2, uint32_t l2)
{
	(void)mtype;
	if (l1 == UNIV_SQL_NULL || l2 == UNIV_SQL_NULL) {
		if (l1 == l2) return 0;
		return l1 == UNIV_SQL_NULL ? -1 : 1;
	}
	uint32_t len = l1 < l2 ? l1 : l2;
	if (len) {
		int c = memcmp(d1, d2, len);
		if (c) return c;
	}
	return (int)(l1 - l2);
}

// rem0cmp.cc cmp_dtuple_rec_with_match_low: compare field by field from the already matched
// ones, stop at the first difference.
int cmp_dtuple_rec_with_match(const cb_dtuple *t, const byte *rec, const rec_offs *offs, unsigned *matched)
{
	unsigned cur = *matched;
	int ret = 0;
	if (cur == 0) {
		unsigned rec_info = rec_get_info_bits(rec);
		if (rec_info & REC_INFO_MIN_REC_FLAG) {
			ret = !(t->info_bits & REC_INFO_MIN_REC_FLAG);
			goto done;
		} else if (t->info_bits & REC_INFO_MIN_REC_FLAG) {
			ret = -1;
			goto done;
		}
	}
	for (; cur < (unsigned)t->n_fields_cmp; cur++) {
		const cb_dfield *f = &t->f[cur];
		uint32_t rl;
		const byte *rb = rec_get_nth_field(rec, offs, (int)cur, &rl);
		ret = cmp_data(f->mtype, f->data, f->len, rb, rl);
		if (ret) goto done;
	}
done:
	*matched = cur;
	return ret;
}

// rem0cmp.cc cmp_dtuple_rec_with_match_bytes: what the leaf search uses in MariaDB 10.11 when
// the adaptive hash index is on (btr_cur_t::search_leaf, reached_latched_leaf): binary-typed
// fields are compared a byte at a time so that the AHI learns how many bytes matched.
int cmp_dtuple_rec_with_match_bytes(const cb_dtuple *t, const byte *rec, const rec_offs *offs,
				    unsigned *matched_fields, unsigned *matched_bytes)
{
	if (rec_get_info_bits(rec) & REC_INFO_MIN_REC_FLAG) return 1;
	unsigned cur_field = *matched_fields, cur_bytes = *matched_bytes;
	int ret = 0;
	while (cur_field < (unsigned)t->n_fields_cmp) {
		const cb_dfield *f = &t->f[cur_field];
		uint32_t rl, tl = f->len;
		const byte *rb = rec_get_nth_field(rec, offs, (int)cur_field, &rl);
		const byte *tb = f->data;
		if (cur_bytes == 0) {
			if (tl == UNIV_SQL_NULL) {
				if (rl == UNIV_SQL_NULL) goto next_field;
				ret = -1;
				goto done;
			} else if (rl == UNIV_SQL_NULL) {
				ret = 1;
				goto done;
			}
		}
		rb += cur_bytes;
		tb += cur_bytes;
		for (;; cur_bytes++) {
			unsigned rbyte, tbyte;
			if (rl <= cur_bytes) {
				if (tl <= cur_bytes) goto next_field;
				ret = 1; // pad is ULINT_UNDEFINED for binary types
				goto done;
			}
			rbyte = *rb;
			if (tl <= cur_bytes) {
				ret = -1;
				goto done;
			}
			tbyte = *tb;
			if (tbyte != rbyte) {
				ret = tbyte < rbyte ? -1 : 1;
				goto done;
			}
			rb++;
			tb++;
		}
	next_field:
		cur_field++;
		cur_bytes = 0;
	}
done:
	*matched_fields = cur_field;
	*matched_bytes = cur_bytes;
	return ret;
}

// page0cur.cc page_cur_search_with_match: a binary search over the directory slots until the
// bounds are adjacent, then a linear search through the records owned by the upper slot.
int page_cur_search_with_match(const byte *page, const cb_index *index, const cb_dtuple *tuple, int mode,
			       cb_cursor *cur)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	const int leaf = page_is_leaf(page);
	unsigned up_matched = cur->up_match, low_matched = cur->low_match;
	unsigned low = 0, up = page_dir_get_n_slots(page) - 1;
	const byte *mid_rec, *low_rec, *up_rec;
	while (up - low > 1) {
		unsigned mid = (low + up) / 2;
		mid_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, mid));
		if (!mid_rec) return 1;
		unsigned m = low_matched < up_matched ? low_matched : up_matched;
		rec_get_offsets(mid_rec, index, offsets, leaf, tuple->n_fields_cmp);
		int cmp = cmp_dtuple_rec_with_match(tuple, mid_rec, offsets, &m);
		cur->cmps++;
		if (cmp > 0) {
		low_slot:
			low = mid;
			low_matched = m;
		} else if (cmp) {
		up_slot:
			up = mid;
			up_matched = m;
		} else if (mode == PAGE_CUR_G || mode == PAGE_CUR_LE) {
			goto low_slot;
		} else {
			goto up_slot;
		}
	}
	low_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, low));
	up_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, up));
	if (!low_rec || !up_rec) return 1;
	for (;;) {
		const byte *next = page_rec_get_next(low_rec);
		if (!next) return 1;
		if (next == up_rec) break;
		mid_rec = next;
		unsigned m = low_matched < up_matched ? low_matched : up_matched;
		rec_get_offsets(mid_rec, index, offsets, leaf, tuple->n_fields_cmp);
		int cmp = cmp_dtuple_rec_with_match(tuple, mid_rec, offsets, &m);
		cur->cmps++;
		if (cmp > 0) {
		low_rec_match:
			low_rec = mid_rec;
			low_matched = m;
		} else if (cmp) {
		up_rec_match:
			up_rec = mid_rec;
			up_matched = m;
		} else if (mode == PAGE_CUR_G || mode == PAGE_CUR_LE) {
			if (!cmp && !m) m = (unsigned)tuple->n_fields_cmp;
			goto low_rec_match;
		} else {
			goto up_rec_match;
		}
	}
	cur->rec = mode <= PAGE_CUR_GE ? up_rec : low_rec;
	cur->up_match = up_matched;
	cur->low_match = low_matched;
	return 0;
}

// page0cur.cc page_cur_search_with_match_bytes: the same search keeping matched bytes too
// (MariaDB 10.11's leaf search with the AHI on).
int page_cur_search_with_match_bytes(const byte *page, const cb_index *index, const cb_dtuple *tuple,
				     int mode, cb_cursor *cur)
{
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	unsigned up_f = cur->up_match, up_b = cur->up_bytes, low_f = cur->low_match, low_b = cur->low_bytes;
	unsigned low = 0, up = page_dir_get_n_slots(page) - 1;
	const byte *mid_rec, *low_rec, *up_rec;
	while (up - low > 1) {
		unsigned mid = (low + up) / 2;
		mid_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, mid));
		if (!mid_rec) return 1;
		unsigned mf, mb;
		// ut_pair_min(&cur_matched_fields, &cur_matched_bytes, low..., up...)
		if (low_f < up_f || (low_f == up_f && low_b < up_b)) {
			mf = low_f;
			mb = low_b;
		} else {
			mf = up_f;
			mb = up_b;
		}
		rec_get_offsets(mid_rec, index, offsets, 1, tuple->n_fields_cmp);
		int cmp = cmp_dtuple_rec_with_match_bytes(tuple, mid_rec, offsets, &mf, &mb);
		cur->cmps++;
		if (cmp > 0) {
		low_slot:
			low = mid;
			low_f = mf;
			low_b = mb;
		} else if (cmp) {
		up_slot:
			up = mid;
			up_f = mf;
			up_b = mb;
		} else if (mode == PAGE_CUR_G || mode == PAGE_CUR_LE) {
			goto low_slot;
		} else {
			goto up_slot;
		}
	}
	low_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, low));
	up_rec = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, up));
	if (!low_rec || !up_rec) return 1;
	for (;;) {
		const byte *next = page_rec_get_next(low_rec);
		if (!next) return 1;
		if (next == up_rec) break;
		mid_rec = next;
		unsigned mf, mb;
		if (low_f < up_f || (low_f == up_f && low_b < up_b)) {
			mf = low_f;
			mb = low_b;
		} else {
			mf = up_f;
			mb = up_b;
		}
		rec_get_offsets(mid_rec, index, offsets, 1, tuple->n_fields_cmp);
		int cmp = cmp_dtuple_rec_with_match_bytes(tuple, mid_rec, offsets, &mf, &mb);
		cur->cmps++;
		if (cmp > 0) {
		low_rec_match:
			low_rec = mid_rec;
			low_f = mf;
			low_b = mb;
		} else if (cmp) {
		up_rec_match:
			up_rec = mid_rec;
			up_f = mf;
			up_b = mb;
		} else if (mode == PAGE_CUR_G || mode == PAGE_CUR_LE) {
			goto low_rec_match;
		} else {
			goto up_rec_match;
		}
	}
	cur->rec = mode <= PAGE_CUR_GE ? up_rec : low_rec;
	cur->up_match = up_f;
	cur->up_bytes = up_b;
	cur->low_match = low_f;
	cur->low_bytes = low_b;
	return 0;
}

// page0page.cc page_dir_find_owner_slot + page_rec_get_prev_const (compact): walk forward to
// the record that owns rec's slot, find that slot by scanning the directory from its last
// slot, then walk from the previous slot's owner to the record before rec.
const byte *page_rec_get_prev(const byte *rec)
{
	const byte *page = page_align(rec);
	const byte *first_slot = page_dir_get_nth_slot(page, 0);
	const byte *slot = page_dir_get_nth_slot(page, page_dir_get_n_slots(page) - 1);
	const byte *r = rec;
	while (rec_get_n_owned(r) == 0) {
		r = page_rec_get_next(r);
		if (!r || r >= slot) return NULL;
	}
	byte enc[2];
	mach_write_2(enc, (unsigned)(r - page));
	while (memcmp(slot, enc, 2) != 0) {
		if (slot == first_slot) return NULL;
		slot += PAGE_DIR_SLOT_SIZE;
	}
	unsigned slot_no = (unsigned)((first_slot - slot) / PAGE_DIR_SLOT_SIZE);
	if (!slot_no) return NULL;
	const byte *rec2 = page_dir_slot_get_rec(page, page_dir_get_nth_slot(page, slot_no - 1));
	const byte *prev = NULL;
	while (rec2 && rec2 != rec) {
		prev = rec2;
		unsigned offs = page_offset(rec2) + rec_get_next_offs_raw(rec2);
		offs &= PAGE_SIZE - 1;
		if (offs < PAGE_NEW_INFIMUM || offs > page_header_get(page, PAGE_HEAP_TOP)) return NULL;
		rec2 = page + offs;
	}
	return prev;
}

// ut0rnd.inl ut_fold_binary
uint64_t ut_fold_binary(const byte *str, uint64_t len)
{
	uint64_t fold = 0;
	const byte *end = str + (len & ~7ULL);
	while (str < end) {
		for (int i = 0; i < 8; i++) fold = ut_fold_ulint_pair(fold, *str++);
	}
	switch (len & 7) {
	case 7: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 6: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 5: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 4: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 3: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 2: fold = ut_fold_ulint_pair(fold, *str++); /* fall through */
	case 1: fold = ut_fold_ulint_pair(fold, *str++);
	}
	return fold;
}

// --- page building (btr0bulk.cc PageBulk::insert / finish, page0page.cc page_create_low) ---

static void rec_set_next(byte *rec, const byte *next)
{
	mach_write_2(rec - 2, (unsigned)((page_offset(next) - page_offset(rec)) & 0xFFFF));
}

void cb_page_init(byte *page, uint32_t page_no, uint64_t index_id, unsigned level)
{
	memset(page, 0, PAGE_SIZE);
	mach_write_4(page + FIL_PAGE_OFFSET, page_no);
	mach_write_4(page + FIL_PAGE_PREV, 0xFFFFFFFF);
	mach_write_4(page + FIL_PAGE_NEXT, 0xFFFFFFFF);
	mach_write_2(page + FIL_PAGE_TYPE, 17855); // FIL_PAGE_INDEX
	byte *h = page + PAGE_HEADER;
	mach_write_2(h + PAGE_N_DIR_SLOTS, 2);
	mach_write_2(h + PAGE_HEAP_TOP, PAGE_NEW_SUPREMUM_END);
	mach_write_2(h + PAGE_N_HEAP, 0x8000 | 2);
	mach_write_2(h + PAGE_LEVEL, level);
	mach_write_8(h + PAGE_INDEX_ID, index_id);
	byte *inf = page + PAGE_NEW_INFIMUM, *sup = page + PAGE_NEW_SUPREMUM;
	inf[-5] = 1;                      // n_owned 1
	mach_write_2(inf - 4, (0 << 3) | REC_STATUS_INFIMUM);
	memcpy(inf, "infimum", 8);
	sup[-5] = 1;
	mach_write_2(sup - 4, (1 << 3) | REC_STATUS_SUPREMUM);
	memcpy(sup, "supremum", 8);
	rec_set_next(inf, sup);
	mach_write_2(sup - 2, 0);
	mach_write_2(page + PAGE_SIZE - PAGE_DIR - 2, PAGE_NEW_INFIMUM);
	mach_write_2(page + PAGE_SIZE - PAGE_DIR - 4, PAGE_NEW_SUPREMUM);
}

// cb_page_append adds a record after the last one (the bulk loader's order): extra bytes
// (length/null bytes) and the 5-byte header before the origin, the data after it.
byte *cb_page_append(byte *page, const byte *data, unsigned data_len, unsigned extra_len,
		     const byte *extra, unsigned status)
{
	byte *h = page + PAGE_HEADER;
	unsigned top = mach_read_2(h + PAGE_HEAP_TOP);
	unsigned n_heap = mach_read_2(h + PAGE_N_HEAP) & 0x7FFF;
	unsigned last = mach_read_2(h + PAGE_LAST_INSERT);
	if (!last) last = PAGE_NEW_INFIMUM;
	byte *rec = page + top + extra_len + REC_N_NEW_EXTRA_BYTES;
	if (extra_len) memcpy(page + top, extra, extra_len);
	rec[-5] = 0;
	mach_write_2(rec - 4, (n_heap << 3) | status);
	memcpy(rec, data, data_len);
	rec_set_next(page + last, rec);
	rec_set_next(rec, page + PAGE_NEW_SUPREMUM);
	mach_write_2(h + PAGE_HEAP_TOP, (unsigned)(rec - page) + data_len);
	mach_write_2(h + PAGE_N_HEAP, 0x8000 | (n_heap + 1));
	mach_write_2(h + PAGE_N_RECS, mach_read_2(h + PAGE_N_RECS) + 1);
	mach_write_2(h + PAGE_LAST_INSERT, (unsigned)(rec - page));
	h[PAGE_DIRECTION_B] = 2; // PAGE_RIGHT
	mach_write_2(h + PAGE_N_DIRECTION, mach_read_2(h + PAGE_N_DIRECTION) + 1);
	return rec;
}

// PageBulk::finish: every 4th record ((PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2) owns a slot; the
// rest go to the supremum's slot, merged with the last slot when they fit in 8.
void cb_page_finish(byte *page)
{
	const unsigned half = 4, max_owned = 8;
	unsigned count = 0, slot_index = 0;
	const byte *rec = page_rec_get_next(page + PAGE_NEW_INFIMUM);
	byte *last_owner = NULL;
	while (rec && rec != page + PAGE_NEW_SUPREMUM) {
		count++;
		if (count == half) {
			slot_index++;
			mach_write_2((byte *)page_dir_get_nth_slot(page, slot_index), page_offset(rec));
			byte *r = (byte *)rec;
			r[-5] = (byte)((r[-5] & 0xF0) | count);
			last_owner = r;
			count = 0;
		}
		rec = page_rec_get_next(rec);
	}
	if (slot_index > 0 && count + 1 + half <= max_owned) {
		count += half;
		last_owner[-5] &= 0xF0;
		slot_index--;
	}
	slot_index++;
	mach_write_2((byte *)page_dir_get_nth_slot(page, slot_index), PAGE_NEW_SUPREMUM);
	byte *sup = page + PAGE_NEW_SUPREMUM;
	sup[-5] = (byte)((sup[-5] & 0xF0) | (count + 1));
	mach_write_2(page + PAGE_HEADER + PAGE_N_DIR_SLOTS, slot_index + 1);
	mach_write_2(page + PAGE_HEADER + PAGE_LAST_INSERT, 0);
	mach_write_2(page + PAGE_HEADER + PAGE_N_DIRECTION, 0);
	page[PAGE_HEADER + PAGE_DIRECTION_B] = 5; // PAGE_NO_DIRECTION
}
