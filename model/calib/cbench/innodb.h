// C transcriptions of InnoDB's per-operation loops, for model/calib's benchmarks. Our own
// code: each routine names the MariaDB 10.11 function it follows (storage/innobase/...; the
// Debian 10.11.18 source, the lab's 10.11.19 differs in no routine used here) and, where MySQL
// 8.0 differs, says how. Layouts are InnoDB's: a compact-format 16 KiB page with its header,
// infimum/supremum, 5-byte record headers with relative next pointers, owner slots of 4
// records in a page directory at the page end (page0page.h, rem0rec.h).
#ifndef CBENCH_INNODB_H
#define CBENCH_INNODB_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

typedef unsigned char byte;
typedef uint16_t rec_offs;

enum {
	PAGE_SIZE = 16384,
	FIL_PAGE_OFFSET = 4,
	FIL_PAGE_PREV = 8,
	FIL_PAGE_NEXT = 12,
	FIL_PAGE_LSN = 16,
	FIL_PAGE_TYPE = 24,
	FIL_PAGE_DATA = 38,
	FIL_PAGE_DATA_END = 8,
	PAGE_HEADER = FIL_PAGE_DATA,
	PAGE_N_DIR_SLOTS = 0,
	PAGE_HEAP_TOP = 2,
	PAGE_N_HEAP = 4,
	PAGE_LAST_INSERT = 10,
	PAGE_DIRECTION_B = 13,
	PAGE_N_DIRECTION = 14,
	PAGE_N_RECS = 16,
	PAGE_LEVEL = 26,
	PAGE_INDEX_ID = 28,
	PAGE_DATA = PAGE_HEADER + 36 + 2 * 10,
	REC_N_NEW_EXTRA_BYTES = 5,
	PAGE_NEW_INFIMUM = PAGE_DATA + REC_N_NEW_EXTRA_BYTES,
	PAGE_NEW_SUPREMUM = PAGE_DATA + 2 * REC_N_NEW_EXTRA_BYTES + 8,
	PAGE_NEW_SUPREMUM_END = PAGE_NEW_SUPREMUM + 8,
	PAGE_DIR = FIL_PAGE_DATA_END,
	PAGE_DIR_SLOT_SIZE = 2,
	REC_STATUS_ORDINARY = 0,
	REC_STATUS_NODE_PTR = 1,
	REC_STATUS_INFIMUM = 2,
	REC_STATUS_SUPREMUM = 3,
	REC_INFO_MIN_REC_FLAG = 0x10,
	REC_INFO_DELETED_FLAG = 0x20,
	REC_NODE_PTR_SIZE = 4,
	// dtype mtype values (data0type.h)
	DATA_CHAR = 2,
	DATA_FIXBINARY = 3,
	DATA_INT = 6,
	DATA_SYS = 8,
	DATA_MYSQL = 13,
	// rec_offs flags (rem0rec.h, 10.x: two high bits of each end offset)
	REC_OFFS_SQL_NULL = 1 << 15,
	REC_OFFS_EXTERNAL = 1 << 14,
	REC_OFFS_MASK = (1 << 14) - 1,
	REC_OFFS_COMPACT = 1 << 15,
	REC_OFFS_HEADER_SIZE = 2,
	UNIV_SQL_NULL = 0xFFFFFFFF,
};

// mach0data.h
static inline unsigned mach_read_2(const byte *b) { return ((unsigned)b[0] << 8) | b[1]; }
static inline uint32_t mach_read_4(const byte *b)
{
	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}
static inline void mach_write_2(byte *b, unsigned v) { b[0] = (byte)(v >> 8); b[1] = (byte)v; }
static inline void mach_write_4(byte *b, uint32_t v)
{
	b[0] = (byte)(v >> 24); b[1] = (byte)(v >> 16); b[2] = (byte)(v >> 8); b[3] = (byte)v;
}
static inline void mach_write_6(byte *b, uint64_t v)
{
	for (int i = 5; i >= 0; i--) { b[i] = (byte)v; v >>= 8; }
}
static inline void mach_write_7(byte *b, uint64_t v)
{
	for (int i = 6; i >= 0; i--) { b[i] = (byte)v; v >>= 8; }
}
static inline void mach_write_8(byte *b, uint64_t v)
{
	for (int i = 7; i >= 0; i--) { b[i] = (byte)v; v >>= 8; }
}
static inline uint64_t mach_read_6(const byte *b)
{
	uint64_t v = 0;
	for (int i = 0; i < 6; i++) v = (v << 8) | b[i];
	return v;
}

// A column of an index (dict_field_t + its dict_col_t): what rec_init_offsets and the
// compares read per field, through the index's field array as the server does.
typedef struct {
	uint16_t fixed_len; // 0 = variable length
	uint16_t max_len;   // > 255: two length bytes are possible
	uint8_t nullable;
	uint8_t mtype;
	uint32_t prtype;
} cb_field;

// dict_index_t, the parts the loops read.
typedef struct {
	uint64_t id;
	uint32_t space;
	int n_fields;       // leaf record fields
	int n_uniq;         // fields that make a node pointer key (dict_index_get_n_unique_in_tree)
	int n_core_null_bytes;
	int clust;
	int trx_id_pos;     // DB_TRX_ID field position (clustered), -1 otherwise
	cb_field f[8];
} cb_index;

// dfield_t / dtuple_t (data0data.h)
typedef struct {
	const byte *data;
	uint32_t len;
	uint8_t mtype;
	uint32_t prtype;
} cb_dfield;

typedef struct {
	int n_fields;
	int n_fields_cmp;
	uint8_t info_bits;
	cb_dfield f[4];
} cb_dtuple;

// rec_offs array: [0] allocated size, [1] n_fields, [2] extra size | flags, then the end offset
// of each field (rec_offs_base(offsets)[1 + i] in the server; rec_offs_base(o)[i] here).
enum { REC_OFFS_NORMAL_SIZE = 16 };
static inline rec_offs *rec_offs_base(rec_offs *o) { return o + REC_OFFS_HEADER_SIZE + 1; }
static inline const rec_offs *rec_offs_base_c(const rec_offs *o) { return o + REC_OFFS_HEADER_SIZE + 1; }

// rem0rec.h: rec_get_nth_field for the compact format.
static inline const byte *rec_get_nth_field(const byte *rec, const rec_offs *offs, int n, uint32_t *len)
{
	const rec_offs *b = rec_offs_base_c(offs);
	unsigned start = n == 0 ? 0 : (b[n - 1] & REC_OFFS_MASK);
	rec_offs end = b[n];
	if (end & REC_OFFS_SQL_NULL) { *len = UNIV_SQL_NULL; return rec + start; }
	*len = (end & REC_OFFS_MASK) - start;
	return rec + start;
}

// Record header access (rem0rec.inl, compact).
static inline unsigned rec_get_info_bits(const byte *rec) { return rec[-5] & 0xF0; }
static inline unsigned rec_get_n_owned(const byte *rec) { return rec[-5] & 0x0F; }
static inline unsigned rec_get_status(const byte *rec) { return rec[-3] & 7; }
static inline unsigned rec_get_next_offs_raw(const byte *rec) { return mach_read_2(rec - 2); }

static inline const byte *page_align(const byte *p)
{
	return (const byte *)((uintptr_t)p & ~(uintptr_t)(PAGE_SIZE - 1));
}
static inline unsigned page_offset(const byte *p) { return (unsigned)((uintptr_t)p & (PAGE_SIZE - 1)); }
static inline unsigned page_header_get(const byte *page, int f) { return mach_read_2(page + PAGE_HEADER + f); }
static inline unsigned page_dir_get_n_slots(const byte *page) { return page_header_get(page, PAGE_N_DIR_SLOTS); }
static inline const byte *page_dir_get_nth_slot(const byte *page, unsigned n)
{
	return page + PAGE_SIZE - PAGE_DIR - (n + 1) * PAGE_DIR_SLOT_SIZE;
}
static inline int page_is_leaf(const byte *page) { return page_header_get(page, PAGE_LEVEL) == 0; }

// page0page.inl page_rec_get_next_low (compact): the next pointer is relative to this
// record's origin, modulo the page; validated against the page's bounds.
static inline const byte *page_rec_get_next(const byte *rec)
{
	unsigned offs = rec_get_next_offs_raw(rec);
	if (!offs) return NULL;
	const byte *page = page_align(rec);
	offs = (page_offset(rec) + offs) & (PAGE_SIZE - 1);
	if (offs < PAGE_NEW_SUPREMUM || offs >= PAGE_SIZE - PAGE_DIR) return NULL;
	return page + offs;
}

// page_dir_slot_get_rec_validate
static inline const byte *page_dir_slot_get_rec(const byte *page, const byte *slot)
{
	unsigned offs = mach_read_2(slot);
	if (offs < PAGE_NEW_INFIMUM || offs > PAGE_SIZE - PAGE_DIR - PAGE_DIR_SLOT_SIZE) return NULL;
	return page + offs;
}

// The record routines (page.c).
void rec_get_offsets(const byte *rec, const cb_index *index, rec_offs *offsets, int leaf, int n);
int cmp_dtuple_rec_with_match(const cb_dtuple *t, const byte *rec, const rec_offs *offs, unsigned *matched);
int cmp_dtuple_rec_with_match_bytes(const cb_dtuple *t, const byte *rec, const rec_offs *offs,
				    unsigned *matched_fields, unsigned *matched_bytes);
enum { PAGE_CUR_G = 1, PAGE_CUR_GE = 2, PAGE_CUR_L = 3, PAGE_CUR_LE = 4 };
typedef struct {
	const byte *rec;
	unsigned up_match, low_match, up_bytes, low_bytes;
	uint64_t cmps; // compares made (instrumentation, not in the server)
} cb_cursor;
int page_cur_search_with_match(const byte *page, const cb_index *index, const cb_dtuple *tuple, int mode,
			       cb_cursor *cur);
int page_cur_search_with_match_bytes(const byte *page, const cb_index *index, const cb_dtuple *tuple,
				     int mode, cb_cursor *cur);
const byte *page_rec_get_prev(const byte *rec);

// Page building (build.c): a page of n records from a generator.
typedef void (*cb_rec_gen)(void *ctx, long i, byte *fields_out, unsigned *len_out);
void cb_page_init(byte *page, uint32_t page_no, uint64_t index_id, unsigned level);
byte *cb_page_append(byte *page, const byte *data, unsigned data_len, unsigned extra_len,
		     const byte *extra, unsigned status);
void cb_page_finish(byte *page);

// ut0rnd.inl
#define UT_HASH_RANDOM_MASK 1463735687u
#define UT_HASH_RANDOM_MASK2 1653893711u
static inline uint64_t ut_fold_ulint_pair(uint64_t n1, uint64_t n2)
{
	return ((((n1 ^ n2 ^ UT_HASH_RANDOM_MASK2) << 8) + n1) ^ UT_HASH_RANDOM_MASK) + n2;
}
static inline uint64_t ut_fold_ull(uint64_t d) { return ut_fold_ulint_pair((uint32_t)d, d >> 32); }
uint64_t ut_fold_binary(const byte *str, uint64_t len);

#endif
