// Undo and redo records of sysbench's writes, and the mini-transaction commit that copies
// them into the log buffer (MariaDB 10.11: trx0rec.cc trx_undo_page_report_modify /
// _insert, trx_undo_page_set_next_prev_and_add; mtr0log.h mtr_t::log_write, memcpy,
// undo_append; mtr0mtr.cc mtr_t::commit → finish_writer → log_t::append_prepare, crc32c,
// commit_log). MySQL 8.0 differs: its log records carry no per-mtr CRC (the log writer
// checksums each 512-byte block), the log buffer is reserved with an atomic sn and the
// recent_written/recent_closed link buffers instead of a latch, and the flush list is joined
// through log_buffer_dirty_pages_added_up_to_lsn; the record formats differ (MLOG_REC_UPDATE_
// IN_PLACE carries the whole update vector) but the bytes are of the same order.
#include "redo.h"

#include <immintrin.h>
#include <pthread.h>
#include <stdlib.h>

// mach0data.inl mach_write_compressed
static unsigned mach_write_compressed(byte *b, uint32_t n)
{
	if (n < 0x80) { b[0] = (byte)n; return 1; }
	if (n < 0x4000) { mach_write_2(b, n | 0x8000); return 2; }
	if (n < 0x200000) { b[0] = (byte)((n >> 16) | 0xC0); mach_write_2(b + 1, n); return 3; }
	if (n < 0x10000000) { mach_write_4(b, n | 0xE0000000); return 4; }
	b[0] = 0xF0;
	mach_write_4(b + 1, n);
	return 5;
}
static unsigned mach_u64_write_compressed(byte *b, uint64_t n)
{
	unsigned s = mach_write_compressed(b, (uint32_t)(n >> 32));
	mach_write_4(b + s, (uint32_t)n);
	return s + 4;
}
static unsigned mach_u64_write_much_compressed(byte *b, uint64_t n)
{
	if (!(n >> 32)) return mach_write_compressed(b, (uint32_t)n);
	b[0] = 0xFF;
	unsigned s = 1 + mach_write_compressed(b + 1, (uint32_t)(n >> 32));
	return s + mach_write_compressed(b + s, (uint32_t)n);
}

// mtr0log.h mlog_encode_varint
static byte *mlog_encode_varint(byte *l, size_t i)
{
	if (i < 0x80) { *l++ = (byte)i; return l; }
	if (i < 0x80 + 0x4000) { i -= 0x80; *l++ = (byte)(0x80 | (i >> 8)); *l++ = (byte)i; return l; }
	i -= 0x80 + 0x4000;
	*l++ = (byte)(0xC0 | (i >> 16));
	*l++ = (byte)(i >> 8);
	*l++ = (byte)i;
	return l;
}

enum { LOG_WRITE = 0x30, LOG_EXTENDED = 0x20, UNDO_APPEND = 3, INSERT_HEAP_DYNAMIC = 4 };

// mtr_t::log_write: type byte (with the length in its low bits when the record is short),
// page id unless it is the previous record's page, the offset for WRITE (relative to the
// previous offset on the same page), then the payload.
static void log_record(cb_log_mtr *m, const void *page_tag, uint32_t space, uint32_t page_no, int type,
		       unsigned offset, const byte *data, unsigned len, int subtype)
{
	byte body[32], *e = body;
	int same = m->last_page == page_tag;
	if (!same) {
		e = mlog_encode_varint(e, space);
		e = mlog_encode_varint(e, page_no);
		m->last_offset = 0;
	}
	if (type == LOG_WRITE) {
		unsigned rel = same && m->last_offset <= offset ? offset - m->last_offset : offset;
		e = mlog_encode_varint(e, rel);
		m->last_offset = offset + len;
	}
	size_t head = (size_t)(e - body), total = head + len + (subtype >= 0);
	byte *l = m->buf + m->len;
	if (total <= 15) {
		*l++ = (byte)(type | (same ? 0x80 : 0) | total);
	} else {
		*l++ = (byte)(type | (same ? 0x80 : 0));
		l = mlog_encode_varint(l, total);
	}
	memcpy(l, body, head);
	l += head;
	if (subtype >= 0) *l++ = (byte)subtype;
	memcpy(l, data, len);
	m->len = (size_t)(l + len - m->buf);
	m->last_page = page_tag;
}

// mtr_t::memcpy<MAYBE_NOP>: write only the bytes that differ (trimmed at both ends).
static void log_memcpy(cb_log_mtr *m, byte *page, uint32_t page_no, unsigned offset, const byte *src, unsigned len)
{
	byte *d = page + offset;
	const byte *s = src;
	while (len && *d == *s) { d++; s++; len--; offset++; }
	while (len && d[len - 1] == s[len - 1]) len--;
	if (!len) return;
	memcpy(d, s, len);
	log_record(m, page, 5, page_no, LOG_WRITE, offset, s, len, -1);
}

static uint32_t crc32c(uint32_t crc, const byte *p, size_t n) __attribute__((target("sse4.2")));
static uint32_t crc32c(uint32_t crc, const byte *p, size_t n)
{
	uint64_t c = ~crc;
	while (n >= 8) {
		uint64_t v;
		memcpy(&v, p, 8);
		c = _mm_crc32_u64(c, v);
		p += 8;
		n -= 8;
	}
	while (n--) c = _mm_crc32_u8((uint32_t)c, *p++);
	return ~(uint32_t)c;
}

cb_log *cb_log_create(size_t buf_size)
{
	cb_log *lg = calloc(1, sizeof *lg);
	lg->buf = aligned_alloc(4096, buf_size);
	memset(lg->buf, 0, buf_size);
	lg->buf_size = buf_size;
	pthread_mutex_init(&lg->flush_list_mutex, NULL);
	for (int i = 0; i < CB_LOG_PAGES; i++) {
		lg->pages[i] = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
		memset(lg->pages[i], 0x30, PAGE_SIZE);
	}
	lg->undo = aligned_alloc(PAGE_SIZE, PAGE_SIZE);
	memset(lg->undo, 0, PAGE_SIZE);
	return lg;
}

void cb_log_free(cb_log *lg)
{
	pthread_mutex_destroy(&lg->flush_list_mutex);
	for (int i = 0; i < CB_LOG_PAGES; i++) free(lg->pages[i]);
	free(lg->undo);
	free(lg->buf);
	free(lg);
}

// mtr_t::commit for a logged mini-transaction: finish_writer → log_t::append_prepare (the log
// latch in S, the LSN by fetch_add), the records copied into the log buffer, the end marker
// and CRC-32C of the records, then commit_log: each modified page's FIL_PAGE_LSN and, for a
// page the mtr made dirty, its flush-list insertion under flush_list_mutex.
void cb_mtr_log_commit(cb_log *lg, cb_log_mtr *m, byte **pages, int n_pages, int made_dirty)
{
	size_t len = m->len + 1 + 4;
	cb_index_lock_s(&lg->latch);
	uint64_t off = atomic_fetch_add_explicit(&lg->lsn_offset, len, memory_order_relaxed);
	uint64_t lsn = off + len;
	off %= lg->buf_size - 4096;
	byte *d = lg->buf + off;
	memcpy(d, m->buf, m->len);
	uint32_t crc = crc32c(0, m->buf, m->len);
	d[m->len] = 0;                // the termination marker (sequence bit)
	mach_write_4(d + m->len + 1, crc);
	cb_index_unlock_s(&lg->latch);
	if (made_dirty) pthread_mutex_lock(&lg->flush_list_mutex);
	for (int i = 0; i < n_pages; i++) {
		mach_write_8(pages[i] + FIL_PAGE_LSN, lsn);
		if (made_dirty) { // buf_pool.insert_into_flush_list
			lg->flush_list_len++;
			lg->flush_head = pages[i];
		}
	}
	if (made_dirty) pthread_mutex_unlock(&lg->flush_list_mutex);
	lg->bytes += len;
	m->len = 0;
	m->last_page = NULL;
}

// trx_undo_page_set_next_prev_and_add + mtr_t::undo_append
static void undo_add(cb_log *lg, cb_log_mtr *m, byte *ptr)
{
	byte *page = lg->undo;
	byte *free_p = page + FIL_PAGE_DATA + 4; // TRX_UNDO_PAGE_HDR + TRX_UNDO_PAGE_FREE
	unsigned first_free = mach_read_2(free_p);
	memcpy(ptr, free_p, 2);
	ptr += 2;
	mach_write_2(free_p, (unsigned)(ptr - page));
	memcpy(page + first_free, free_p, 2);
	const byte *start = page + first_free + 2;
	log_record(m, page, 5, 3, LOG_EXTENDED, 0, start, (unsigned)(ptr - start - 2), UNDO_APPEND);
}

static byte *undo_start(cb_log *lg)
{
	byte *free_p = lg->undo + FIL_PAGE_DATA + 4;
	unsigned first_free = mach_read_2(free_p);
	if (first_free < 200 || first_free > PAGE_SIZE - 1200) {
		first_free = 200; // trx_undo_add_page: a fresh page (not charged here)
		mach_write_2(free_p, first_free);
	}
	return lg->undo + first_free + 2;
}

// Field values of the row the statement changes (a sysbench clustered record).
typedef struct {
	const byte *rec;
	unsigned off[7]; // field start offsets: id, trx_id, roll_ptr, k, c, pad, end
} cb_row;

static void row_fields(const byte *rec, cb_row *r)
{
	static const unsigned w[6] = {4, 6, 7, 4, 120, 60};
	r->rec = rec;
	r->off[0] = 0;
	for (int i = 0; i < 6; i++) r->off[i + 1] = r->off[i] + w[i];
}

// trx_undo_page_report_modify: type and compiler info, undo_no, table id, the old DB_TRX_ID
// and DB_ROLL_PTR, the primary key, the updated fields' old values, and, unless no ordering
// field changes, the ordering columns (id; k unless it is among the updated fields).
static void undo_modify(cb_log *lg, cb_log_mtr *m, const cb_row *r, int type, const int *upd, int n_upd, int ord)
{
	byte *ptr = undo_start(lg);
	const byte *rec = r->rec;
	*ptr++ = (byte)type;
	ptr += mach_u64_write_much_compressed(ptr, lg->undo_no++);
	ptr += mach_u64_write_much_compressed(ptr, 1234);
	ptr += mach_u64_write_compressed(ptr, mach_read_6(rec + r->off[1]));
	uint64_t roll = 0;
	for (int i = 0; i < 7; i++) roll = (roll << 8) | rec[r->off[2] + i];
	ptr += mach_u64_write_compressed(ptr, roll);
	ptr += mach_write_compressed(ptr, 4); // the primary key
	memcpy(ptr, rec, 4);
	ptr += 4;
	if (upd) {
		ptr += mach_write_compressed(ptr, (uint32_t)n_upd);
		for (int i = 0; i < n_upd; i++) {
			unsigned f = (unsigned)upd[i], len = r->off[f + 1] - r->off[f];
			ptr += mach_write_compressed(ptr, f);
			ptr += mach_write_compressed(ptr, len);
			memcpy(ptr, rec + r->off[f], len);
			ptr += len;
		}
	}
	if (ord) {
		byte *old = ptr;
		ptr += 2;
		static const int ord_fields[2] = {0, 3};
		for (int j = 0; j < 2; j++) {
			int f = ord_fields[j], logged = 0;
			for (int i = 0; upd && i < n_upd; i++) logged |= upd[i] == f;
			if (logged) continue;
			unsigned len = r->off[f + 1] - r->off[f];
			ptr += mach_write_compressed(ptr, (uint32_t)f);
			ptr += mach_write_compressed(ptr, len);
			memcpy(ptr, rec + r->off[f], len);
			ptr += len;
		}
		mach_write_2(old, (unsigned)(ptr - old));
	}
	undo_add(lg, m, ptr);
}

// trx_undo_page_report_insert: type, undo_no, table id, the primary key.
static void undo_insert(cb_log *lg, cb_log_mtr *m, const cb_row *r)
{
	byte *ptr = undo_start(lg);
	*ptr++ = 11; // TRX_UNDO_INSERT_REC
	ptr += mach_u64_write_much_compressed(ptr, lg->undo_no++);
	ptr += mach_u64_write_much_compressed(ptr, 1234);
	ptr += mach_write_compressed(ptr, 4);
	memcpy(ptr, r->rec, 4);
	ptr += 4;
	undo_add(lg, m, ptr);
}

// The clustered record's DB_TRX_ID and DB_ROLL_PTR (btr_cur_upd_rec_sys / row_upd_rec_sys_fields).
static void write_sys(cb_log_mtr *m, byte *page, byte *rec, uint64_t trx_id, uint64_t roll_ptr)
{
	byte sys[13];
	mach_write_6(sys, trx_id);
	mach_write_7(sys + 6, roll_ptr);
	log_memcpy(m, page, 1, (unsigned)(rec + 4 - page), sys, 13);
}

// A secondary-index entry: delete-mark (btr_rec_set_deleted: one byte) or insert
// (page_cur_insert_rec_low: INSERT_HEAP_DYNAMIC with the previous record's offset, the header
// and the bytes that differ from the previous record), plus PAGE_MAX_TRX_ID.
static void sec_change(cb_log *lg, cb_log_mtr *m, int insert, uint64_t trx_id)
{
	byte *page = lg->pages[2];
	byte v[16];
	if (insert) {
		byte *l = v;
		l = mlog_encode_varint(l, 900); // prev record offset
		l = mlog_encode_varint(l, 0);   // header, shift
		*l++ = 0; *l++ = 0; *l++ = 0;
		mach_write_4(l, (uint32_t)lg->undo_no ^ 0x80000000u); l += 4;
		mach_write_4(l, 77 ^ 0x80000000u); l += 4;
		log_record(m, page, 5, 2, LOG_EXTENDED, 0, v, (unsigned)(l - v), INSERT_HEAP_DYNAMIC);
	} else {
		v[0] = (byte)(page[900 - 5] ^ REC_INFO_DELETED_FLAG); // alternately set and clear
		log_memcpy(m, page, 2, 900 - 5, v, 1);
	}
	mach_write_8(v, trx_id);
	log_memcpy(m, page, 2, PAGE_HEADER + 18, v, 8);
}

// One sysbench statement's undo and redo, mini-transaction by mini-transaction, as MariaDB
// 10.11 runs them (row0upd.cc, row0ins.cc): the undo record in its own mtr on the undo page,
// then the clustered record's mtr, then one mtr per secondary-index change. made_dirty: the
// share of mtrs whose page was clean (then the flush list mutex is taken), 0 or 1 here.
void cb_stmt_log(cb_log *lg, int kind, byte *rec_page, byte *rec, const byte *newc, int made_dirty)
{
	cb_log_mtr m = {0};
	cb_row r;
	row_fields(rec, &r);
	uint64_t trx_id = 0x200 + lg->undo_no;
	byte *pages[1] = {rec_page}, *undo[1] = {lg->undo}, *sec[1] = {lg->pages[2]};
	switch (kind) {
	case STMT_UPDATE_NONKEY: { // UPDATE sbtest SET c=? WHERE id=?
		int upd[1] = {4};
		undo_modify(lg, &m, &r, 12 | (1 << 4), upd, 1, 0); // UPD_EXIST_REC, UPD_NODE_NO_ORD_CHANGE
		cb_mtr_log_commit(lg, &m, undo, 1, 0);
		write_sys(&m, rec_page, rec, trx_id, lg->undo_no);
		log_memcpy(&m, rec_page, 1, (unsigned)(rec + r.off[4] - rec_page), newc, 120);
		cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
		break;
	}
	case STMT_UPDATE_KEY: { // UPDATE sbtest SET k=k+1 WHERE id=?
		int upd[1] = {3};
		undo_modify(lg, &m, &r, 12, upd, 1, 1);
		cb_mtr_log_commit(lg, &m, undo, 1, 0);
		write_sys(&m, rec_page, rec, trx_id, lg->undo_no);
		byte k[4];
		memcpy(k, rec + r.off[3], 4);
		k[3]++;
		log_memcpy(&m, rec_page, 1, (unsigned)(rec + r.off[3] - rec_page), k, 4);
		cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
		sec_change(lg, &m, 0, trx_id);
		cb_mtr_log_commit(lg, &m, sec, 1, made_dirty);
		sec_change(lg, &m, 1, trx_id);
		cb_mtr_log_commit(lg, &m, sec, 1, made_dirty);
		break;
	}
	case STMT_DELETE: { // DELETE FROM sbtest WHERE id=?
		undo_modify(lg, &m, &r, 14, NULL, 0, 1); // TRX_UNDO_DEL_MARK_REC
		cb_mtr_log_commit(lg, &m, undo, 1, 0);
		byte info = (byte)(rec[-5] | REC_INFO_DELETED_FLAG);
		log_memcpy(&m, rec_page, 1, (unsigned)(rec - 5 - rec_page), &info, 1);
		write_sys(&m, rec_page, rec, trx_id, lg->undo_no);
		cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
		sec_change(lg, &m, 0, trx_id);
		cb_mtr_log_commit(lg, &m, sec, 1, made_dirty);
		rec[-5] &= (byte)~REC_INFO_DELETED_FLAG;
		break;
	}
	case STMT_INSERT: { // INSERT of the id just deleted: row_ins_clust_index_entry_by_modify
		int upd[3] = {3, 4, 5};
		undo_modify(lg, &m, &r, 13, upd, 3, 1); // TRX_UNDO_UPD_DEL_REC
		cb_mtr_log_commit(lg, &m, undo, 1, 0);
		byte info = (byte)(rec[-5] & ~REC_INFO_DELETED_FLAG);
		log_memcpy(&m, rec_page, 1, (unsigned)(rec - 5 - rec_page), &info, 1);
		write_sys(&m, rec_page, rec, trx_id, lg->undo_no);
		byte nk[4] = {0x80, 1, 2, (byte)lg->undo_no};
		log_memcpy(&m, rec_page, 1, (unsigned)(rec + r.off[3] - rec_page), nk, 4);
		log_memcpy(&m, rec_page, 1, (unsigned)(rec + r.off[4] - rec_page), newc, 120);
		log_memcpy(&m, rec_page, 1, (unsigned)(rec + r.off[5] - rec_page), newc + 120, 60);
		cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
		sec_change(lg, &m, 1, trx_id);
		cb_mtr_log_commit(lg, &m, sec, 1, made_dirty);
		break;
	}
	case STMT_INSERT_NEW: { // oltp_insert: a new id at the end of the table
		undo_insert(lg, &m, &r);
		cb_mtr_log_commit(lg, &m, undo, 1, 0);
		// page_cur_insert_rec_low: INSERT_HEAP_DYNAMIC, the record bytes not shared with the
		// previous record (all but the leading bytes of the key)
		byte v[256], *l = v;
		l = mlog_encode_varint(l, (size_t)(rec - rec_page));
		l = mlog_encode_varint(l, 5 << 1);
		memcpy(l, rec - 5, 5 + 201);
		l += 5 + 201;
		log_record(&m, rec_page, 5, 1, LOG_EXTENDED, 0, v, (unsigned)(l - v), INSERT_HEAP_DYNAMIC);
		cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
		sec_change(lg, &m, 1, trx_id);
		cb_mtr_log_commit(lg, &m, sec, 1, made_dirty);
		break;
	}
	case STMT_COMMIT: { // trx_write_serialisation_history: undo header state, history list
		// trx_undo_set_state_at_finish (TRX_UNDO_STATE, 2 bytes), trx_purge_add_undo_to_history:
		// the undo log header's TRX_UNDO_TRX_NO (8) and history node (two 6-byte file
		// addresses), the rseg header's history list base (length 4, first 6) and the old
		// first node's prev (6): values that change with every commit.
		static const unsigned len[7] = {2, 8, 6, 6, 4, 6, 6};
		byte *hdr = lg->pages[3], v[8];
		uint64_t no = ++lg->undo_no * 0x9E3779B97F4A7C15ULL;
		for (int i = 0; i < 7; i++) {
			mach_write_8(v, no ^ ((uint64_t)i << 56) ^ (no >> (8 * i)));
			log_memcpy(&m, hdr, 3, 100 + 40 * (unsigned)i, v, len[i]);
		}
		byte *hp[1] = {hdr};
		cb_mtr_log_commit(lg, &m, hp, 1, 0);
		break;
	}
	}
}

// One mini-transaction of one WRITE record of n bytes (n ≤ 1024) on one page, committed: the
// per-mtr and per-byte parts of the log's CPU (the bytes change every time, so none is
// trimmed).
void cb_mtr_write(cb_log *lg, unsigned n, int made_dirty)
{
	cb_log_mtr m = {0};
	byte *page = lg->pages[1], src[1024];
	byte v = (byte)(lg->undo_no++ & 0xFF);
	for (unsigned i = 0; i < n; i++) src[i] = (byte)(v + i + page[200 + i] + 1);
	log_memcpy(&m, page, 7, 200, src, n);
	byte *pages[1] = {page};
	cb_mtr_log_commit(lg, &m, pages, 1, made_dirty);
}
