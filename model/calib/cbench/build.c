// The index build's inner loops, transcribed from the server (see build.h for the families).
// Each routine names the function it follows. What is left out, everywhere: file I/O (the
// pwrite/pread of a full block or I/O buffer is a pointer reset here; the model charges I/O
// and the page-cache copy separately), PFS stage counters, FTS/spatial/virtual-column/BLOB
// branches (the sysbench table has none), and the mini-transaction and page allocation
// around a new page (fsp_reserve_free_extents, btr_page_alloc, mtr commit: charged by
// page_miss and the pool's mutexes elsewhere).
#include "build.h"

#include <stdlib.h>
#include <time.h>

// The calling thread's CPU time: the benchmarks report CPU per record, which a machine shared
// with other work (preemption) does not inflate; cache and memory-bandwidth contention it can.
static inline uint64_t b_now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

static uint64_t b_splitmix(uint64_t *s)
{
	uint64_t z = (*s += 0x9E3779B97F4A7C15ULL);
	z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
	z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
	return z ^ (z >> 31);
}

// ---- mem0mem: mem_heap_create / mem_heap_alloc / mem_heap_empty ----
// A heap is a list of blocks; an allocation that does not fit the last block adds one of
// twice the last one's size, at most MEM_BLOCK_STANDARD_SIZE (8000 bytes with 16 KiB pages),
// or of the request's size (mem_heap_add_block). mem_heap_empty frees every block but the
// first (mem_heap_free_heap_top).
enum { MEM_BLOCK_STANDARD_SIZE = 8000, UNIV_MEM_ALIGNMENT = 8 };
typedef struct mem_block {
	struct mem_block *next;
	size_t len, free;
	byte data[];
} mem_block;
typedef struct {
	mem_block *first, *last;
} mem_heap;

static mem_block *mem_block_new(size_t len)
{
	mem_block *b = malloc(sizeof *b + len);
	b->next = NULL;
	b->len = len;
	b->free = 0;
	return b;
}

static mem_heap *mem_heap_create(size_t n)
{
	mem_heap *h = malloc(sizeof *h);
	h->first = h->last = mem_block_new(n < 64 ? 64 : n);
	return h;
}

static inline void *mem_heap_alloc(mem_heap *h, size_t n)
{
	n = (n + UNIV_MEM_ALIGNMENT - 1) & ~(size_t)(UNIV_MEM_ALIGNMENT - 1); // MEM_SPACE_NEEDED
	mem_block *b = h->last;
	if (b->free + n > b->len) {
		size_t len = 2 * b->len;
		if (len > MEM_BLOCK_STANDARD_SIZE) len = MEM_BLOCK_STANDARD_SIZE;
		if (len < n) len = n;
		b->next = mem_block_new(len);
		h->last = b = b->next;
	}
	void *p = b->data + b->free;
	b->free += n;
	return p;
}

static inline void mem_heap_empty(mem_heap *h)
{
	mem_block *b = h->first->next;
	while (b) {
		mem_block *n = b->next;
		free(b);
		b = n;
	}
	h->first->next = NULL;
	h->first->free = 0;
	h->last = h->first;
}

static void mem_heap_free(mem_heap *h)
{
	mem_heap_empty(h);
	free(h->first);
	free(h);
}

// ---- the indexes ----
static void define_sec_index(cb_index *ix, int shape)
{
	memset(ix, 0, sizeof *ix);
	ix->id = 44 + (uint64_t)shape;
	ix->space = 5;
	ix->n_fields = 2;
	ix->n_uniq = 2; // non-unique secondary: the key and the primary key (dict_index_get_n_unique)
	ix->trx_id_pos = -1;
	switch (shape) {
	case CB_IX_K:
		ix->f[0] = (cb_field){4, 4, 0, DATA_INT, 0};
		break;
	case CB_IX_C: // latin1_swedish_ci CHAR(120): fixed length, DATA_CHAR
		ix->f[0] = (cb_field){120, 120, 0, DATA_CHAR, 8};
		break;
	default: // utf8mb4_0900_ai_ci CHAR(120): mbminlen 1 != mbmaxlen 4, so variable length
		ix->f[0] = (cb_field){0, 480, 0, DATA_MYSQL, 255u << 16 | 254};
	}
	ix->f[1] = (cb_field){4, 4, 0, DATA_INT, 0};
}

// ---- rem0cmp: cmp_data and the collations it reaches ----
// latin1_swedish_ci's sort_order (ctype-latin1.c sort_order_latin1): digits and '-' map to
// themselves, letters fold to upper case; the other entries do not occur in sysbench data.
static byte latin1_sort_order[256];
static void init_latin1(void)
{
	if (latin1_sort_order[1]) return;
	for (int i = 0; i < 256; i++) latin1_sort_order[i] = (byte)i;
	for (int i = 'a'; i <= 'z'; i++) latin1_sort_order[i] = (byte)(i - 32);
}

// strings/ctype-simple.c my_strnncollsp_simple (PAD SPACE)
static int my_strnncollsp_simple(const void *cs, const byte *a, size_t a_length, const byte *b, size_t b_length)
{
	const byte *map = cs, *end;
	size_t length = a_length < b_length ? a_length : b_length;
	end = a + length;
	while (a < end) {
		if (map[*a++] != map[*b++]) return ((int)map[a[-1]] - (int)map[b[-1]]);
	}
	int res = 0;
	if (a_length != b_length) {
		int swap = 1;
		if (a_length < b_length) {
			a_length = b_length;
			a = b;
			swap = -1;
		}
		for (end = a + a_length - length; a < end; a++) {
			if (map[*a] != map[' ']) return (map[*a] < map[' ']) ? -swap : swap;
		}
	}
	return res;
}

// utf8mb4_0900_ai_ci stands in as its ASCII path: one primary weight per byte from a table
// (uca_scanner_900's ascii fast path), compared in order. The real scanner (ctype-uca.cc
// my_strnncollsp_uca_900) does more per character, so this is a lower bound of it.
static uint16_t uca900_ascii_weight[256];
static int my_strnncollsp_uca_900(const void *cs, const byte *a, size_t al, const byte *b, size_t bl)
{
	const uint16_t *w = cs;
	size_t n = al < bl ? al : bl;
	for (size_t i = 0; i < n; i++) {
		if (w[a[i]] != w[b[i]]) return w[a[i]] < w[b[i]] ? -1 : 1;
	}
	return al < bl ? -1 : al > bl;
}
// my_lengthsp_8bit: the length without trailing spaces (innobase_mysql_cmp does it for a
// NO PAD collation's CHAR).
static size_t my_lengthsp(const byte *p, size_t len)
{
	while (len && p[len - 1] == ' ') len--;
	return len;
}

// CHARSET_INFO, the collation handler's entry InnoDB calls.
typedef struct {
	int (*strnncollsp)(const void *, const byte *, size_t, const byte *, size_t);
	const void *tables;
	int no_pad;
} cb_charset;
static cb_charset charset_latin1 = {my_strnncollsp_simple, latin1_sort_order, 0};
static cb_charset charset_uca900 = {my_strnncollsp_uca_900, uca900_ascii_weight, 1};
static cb_charset *all_charsets[256];

static void init_charsets(void)
{
	init_latin1();
	if (uca900_ascii_weight[1]) return;
	for (int i = 0; i < 256; i++) uca900_ascii_weight[i] = (uint16_t)(0x1c00 + i * 3); // distinct, ordered
	all_charsets[8] = &charset_latin1;
	all_charsets[255] = &charset_uca900;
}

// ha_innodb.cc innobase_mysql_cmp: the charset from prtype, then its strnncollsp.
static int innobase_mysql_cmp(uint32_t prtype, const byte *a, size_t al, const byte *b, size_t bl)
{
	const cb_charset *cs = all_charsets[(prtype >> 16) & 0xFF]; // get_charset(dtype_get_charset_coll)
	if ((prtype & 0xFF) == 254 && cs->no_pad) { // MYSQL_TYPE_STRING, NO PAD: strip trailing spaces
		al = my_lengthsp(a, al);
		bl = my_lengthsp(b, bl);
	}
	return cs->strnncollsp(cs->tables, a, al, b, bl);
}

// rem0cmp.cc cmp_data (MariaDB 10.11; 8.0's is the same for these types)
static int __attribute__((noinline)) cmp_data(unsigned mtype, uint32_t prtype, const byte *d1, uint32_t l1,
					      const byte *d2, uint32_t l2)
{
	if (l1 == UNIV_SQL_NULL || l2 == UNIV_SQL_NULL) {
		if (l1 == l2) return 0;
		return l1 == UNIV_SQL_NULL ? -1 : 1;
	}
	switch (mtype) {
	case DATA_INT:
	case DATA_SYS:
	case DATA_FIXBINARY:
		break;
	case DATA_MYSQL:
		return innobase_mysql_cmp(prtype, d1, l1, d2, l2);
	case DATA_CHAR:
		return charset_latin1.strnncollsp(charset_latin1.tables, d1, l1, d2, l2);
	default:
		break;
	}
	uint32_t len = l1 < l2 ? l1 : l2;
	int cmp = memcmp(d1, d2, len);
	if (cmp) return cmp;
	return l1 < l2 ? -1 : l1 > l2;
}

static inline int cmp_dfield_dfield(const cb_dfield *a, const cb_dfield *b)
{
	return cmp_data(a->mtype, a->prtype, a->data, a->len, b->data, b->len);
}

// ---- records in the temporary-file format (rem0rec.cc) ----
static inline unsigned rec_offs_extra_size(const rec_offs *o) { return o[2] & ~REC_OFFS_COMPACT & 0x7FFF; }
static inline unsigned rec_offs_data_size(const rec_offs *o) { return rec_offs_base_c(o)[o[1] - 1] & REC_OFFS_MASK; }
static inline unsigned rec_offs_size(const rec_offs *o) { return rec_offs_extra_size(o) + rec_offs_data_size(o); }

// rec_init_offsets_temp: as rec_init_offsets_comp_ordinary with REC_LEAF_TEMP, no 5-byte header:
// the null flags end just before the data, the lengths before them.
static void rec_init_offsets_temp(const byte *rec, const cb_index *index, rec_offs *offsets)
{
	offsets[0] = REC_OFFS_NORMAL_SIZE;
	offsets[1] = (rec_offs)index->n_fields;
	rec_offs *base = rec_offs_base(offsets);
	const byte *nulls = rec - 1;
	const byte *lens = nulls - index->n_core_null_bytes;
	unsigned offs = 0, null_mask = 1;
	for (int i = 0; i < index->n_fields; i++) {
		const cb_field *f = &index->f[i];
		if (f->nullable) {
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
		if (!f->fixed_len) {
			unsigned len = *lens--;
			if (f->max_len > 255 && (len & 0x80)) len = ((len & 0x3f) << 8) | *lens--;
			offs += len;
		} else {
			offs += f->fixed_len;
		}
		base[i] = (rec_offs)offs;
	}
	offsets[2] = (rec_offs)((rec - (lens + 1)) | REC_OFFS_COMPACT);
}

// rec_get_converted_size_temp / rec_get_converted_size_comp's extra part: null flags, then a
// length byte (two for a long value of a big column) per variable-length field.
static unsigned converted_extra(const cb_index *index, const cb_dfield *fields, int n, unsigned *data)
{
	unsigned extra = (unsigned)index->n_core_null_bytes, d = 0;
	for (int i = 0; i < n; i++) {
		const cb_field *f = &index->f[i];
		uint32_t len = fields[i].len;
		if (len == UNIV_SQL_NULL) continue;
		if (!f->fixed_len) extra += (len < 128 || f->max_len <= 255) ? 1 : 2;
		d += len;
	}
	*data = d;
	return extra;
}

// rec_convert_dtuple_to_rec_comp: the null flags and lengths backwards from the origin (temp:
// no 5-byte header in between), the data forwards.
static void convert_fields(byte *rec, const cb_index *index, const cb_dfield *fields, int n, int temp)
{
	byte *nulls = temp ? rec - 1 : rec - (REC_N_NEW_EXTRA_BYTES + 1);
	byte *lens = nulls - index->n_core_null_bytes;
	byte *end = rec;
	unsigned null_mask = 1;
	if (index->n_core_null_bytes) memset(lens + 1, 0, (size_t)index->n_core_null_bytes);
	for (int i = 0; i < n; i++) {
		const cb_field *f = &index->f[i];
		uint32_t len = fields[i].len;
		if (f->nullable) {
			if (!(byte)null_mask) {
				nulls--;
				null_mask = 1;
			}
			if (len == UNIV_SQL_NULL) {
				*nulls |= (byte)null_mask;
				null_mask <<= 1;
				continue;
			}
			null_mask <<= 1;
		}
		if (!f->fixed_len) {
			if (len < 128 || f->max_len <= 255) {
				*lens-- = (byte)len;
			} else {
				*lens-- = (byte)(len >> 8) | 0x80;
				*lens-- = (byte)len;
			}
		}
		memcpy(end, fields[i].data, len);
		end += len;
	}
}

// rec_convert_dtuple_to_rec for a leaf or node-pointer record of a compact page: the header's
// info bits and status, then the fields.
static byte *rec_convert_dtuple_to_rec(byte *buf, const cb_index *index, const cb_dfield *fields, int n,
				       unsigned info_bits, unsigned status)
{
	unsigned data;
	unsigned extra = converted_extra(index, fields, n, &data);
	byte *rec = buf + extra + REC_N_NEW_EXTRA_BYTES;
	rec[-5] = (byte)info_bits; // n_owned 0
	mach_write_2(rec - 4, status);
	mach_write_2(rec - 2, 0);
	convert_fields(rec, index, fields, n, 0);
	return rec;
}

// dtuple_t with its fields on a heap (dtuple_create).
typedef struct {
	unsigned info_bits;
	int n_fields, n_fields_cmp;
	cb_dfield *fields;
} b_dtuple;

static b_dtuple *dtuple_create(mem_heap *h, int n)
{
	b_dtuple *t = mem_heap_alloc(h, sizeof *t + (size_t)n * sizeof(cb_dfield));
	t->info_bits = 0;
	t->n_fields = t->n_fields_cmp = n;
	t->fields = (cb_dfield *)(t + 1);
	return t;
}

// dict_index_copy_types + the field loop of row_rec_to_index_entry_low: a tuple whose fields
// point into the record.
static b_dtuple *row_rec_to_index_entry_low(const byte *rec, const cb_index *index, const rec_offs *offsets,
					    mem_heap *heap)
{
	int n = offsets[1];
	b_dtuple *entry = dtuple_create(heap, n);
	entry->n_fields_cmp = index->n_uniq;
	for (int i = 0; i < n; i++) {
		cb_dfield *df = &entry->fields[i];
		df->mtype = index->f[i].mtype;
		df->prtype = index->f[i].prtype;
		uint32_t len;
		df->data = rec_get_nth_field(rec, offsets, i, &len);
		df->len = len;
	}
	return entry;
}

// ---- the key buffer (row_merge_buf_t / ddl::Key_sort_buffer) ----
struct cb_build {
	int shape;
	long n;
	cb_index index;
	mem_heap *heap;          // the buffer's heap: every entry's dfields and data
	cb_dfield **tuples;      // buf->tuples[i].fields / m_dtuples
	cb_dfield **orig;        // the unsorted order, to start each sort from
	cb_dfield **aux;         // buf->tmp_tuples / the aux array
	byte *run[2];            // two sorted runs of n/2 records each, temp format, 0-terminated
	size_t run_len[2];
	size_t block_size;       // srv_sort_buf_size: an input block holds a whole run here
	byte *out;               // the merge's output block
	size_t out_size;
	byte *merged;            // the merged run (the last merge's output, no block limit)
	size_t merged_len;
	// the load's pages
	byte *pages;
	long n_pages, max_pages, n_leaves;
	cb_index node_index;     // node-pointer records: the key fields + child page number
	uint64_t cmps;
	int failed;              // a page failed page_validate at its commit
};

// sysbench's c: groups of 11 digits joined by '-'.
static void b_sb_char(byte *b, int n, uint64_t *s)
{
	for (int i = 0; i < n; i++) b[i] = (i % 12 == 11) ? '-' : (byte)('0' + b_splitmix(s) % 10);
}

// row_merge_buf_add's copy for one entry of an index from a row's fields: the dfield array on
// the heap, dfield_copy of each, the size accounting, then dfield_dup of each field's data.
// Returns 0 when the entry does not fit the buffer's size (and adds nothing).
typedef struct {
	cb_dfield *fields;
} mtuple;
static long buf_add(mem_heap *heap, const cb_index *index, const cb_dfield *row, const int *col_of_field,
		    size_t *total_size, size_t buf_size, cb_dfield **slot)
{
	int n_fields = index->n_fields;
	cb_dfield *entry = mem_heap_alloc(heap, (size_t)n_fields * sizeof(cb_dfield));
	cb_dfield *field = entry;
	unsigned data_size = 0, extra_size = (unsigned)index->n_core_null_bytes;
	for (int i = 0; i < n_fields; i++, field++) {
		const cb_field *ifield = &index->f[i];
		*field = row[col_of_field[i]]; // dfield_copy
		uint32_t len = field->len;
		if (len == UNIV_SQL_NULL) {
			field->data = NULL;
			continue;
		}
		if (ifield->fixed_len) {
		} else if (len < 128 || ifield->max_len <= 255) {
			extra_size++;
		} else {
			extra_size += 2;
		}
		data_size += len;
	}
	data_size += (extra_size + 1) + ((extra_size + 1) >= 0x80);
	if (*total_size + data_size >= buf_size) return 0; // the end marker needs a byte
	*total_size += data_size;
	field = entry;
	for (int i = 0; i < n_fields; i++, field++) { // dfield_dup
		if (field->len != UNIV_SQL_NULL) {
			byte *d = mem_heap_alloc(heap, field->len);
			memcpy(d, field->data, field->len);
			field->data = d;
		}
	}
	*slot = entry;
	return 1;
}

// row_merge_tuple_cmp (MariaDB 10.11, 8.0.18; no dup reporting) and ddl::Compare_key: the
// n_uniq fields, then the rest (here none: n_uniq = n_fields).
static inline int row_merge_tuple_cmp(int n_uniq, int n_field, const cb_dfield *a, const cb_dfield *b,
				      uint64_t *cmps)
{
	int n = n_uniq, cmp;
	(*cmps)++;
	do {
		cmp = cmp_dfield_dfield(a++, b++);
	} while (!cmp && --n);
	if (cmp) return cmp;
	for (n = n_field - n_uniq + 1; --n;) {
		cmp = cmp_dfield_dfield(a++, b++);
		if (cmp) return cmp;
	}
	return cmp;
}

// ut0sort.h UT_SORT_FUNCTION_BODY (row_merge_tuple_sort); ddl0buffer.cc merge_sort is the same
// algorithm (low == high - 2 swapped in place, top-down halves, merge through aux, memcpy back).
static void row_merge_tuple_sort(int n_uniq, int n_field, cb_dfield **arr, cb_dfield **aux, size_t low,
				 size_t high, uint64_t *cmps)
{
	if (low == high - 1) return;
	if (low == high - 2) {
		if (row_merge_tuple_cmp(n_uniq, n_field, arr[low], arr[high - 1], cmps) > 0) {
			aux[low] = arr[low];
			arr[low] = arr[high - 1];
			arr[high - 1] = aux[low];
		}
		return;
	}
	size_t mid = (low + high) / 2;
	row_merge_tuple_sort(n_uniq, n_field, arr, aux, low, mid, cmps);
	row_merge_tuple_sort(n_uniq, n_field, arr, aux, mid, high, cmps);
	size_t l = low, h = mid;
	for (size_t i = low; i < high; i++) {
		if (l >= mid) {
			aux[i] = arr[h++];
		} else if (h >= high) {
			aux[i] = arr[l++];
		} else if (row_merge_tuple_cmp(n_uniq, n_field, arr[l], arr[h], cmps) > 0) {
			aux[i] = arr[h++];
		} else {
			aux[i] = arr[l++];
		}
	}
	memcpy(arr + low, aux + low, (high - low) * sizeof *arr);
}

// row_merge_buf_encode (row_merge_buf_write) / Key_sort_buffer::serialize: extra_size + 1 in
// one or two bytes, then rec_convert_dtuple_to_temp.
static byte *buf_encode(byte *b, const cb_index *index, const cb_dfield *fields)
{
	unsigned data;
	unsigned extra = converted_extra(index, fields, index->n_fields, &data);
	if (extra + 1 < 0x80) {
		*b++ = (byte)(extra + 1);
	} else {
		*b++ = (byte)(0x80 | ((extra + 1) >> 8));
		*b++ = (byte)(extra + 1);
	}
	convert_fields(b + extra, index, fields, index->n_fields, 1);
	return b + extra + data;
}

static int32_t entry_id(const cb_dfield *f) { return (int32_t)(mach_read_4(f[1].data) ^ 0x80000000u); }

cb_build *cb_build_create(int shape, long n, uint64_t seed)
{
	init_charsets();
	cb_build *b = calloc(1, sizeof *b);
	b->shape = shape;
	b->n = n;
	define_sec_index(&b->index, shape);
	b->node_index = b->index;
	b->node_index.n_uniq = 2;
	b->heap = mem_heap_create(1024);
	b->tuples = malloc((size_t)n * sizeof *b->tuples);
	b->orig = malloc((size_t)n * sizeof *b->orig);
	b->aux = malloc((size_t)n * sizeof *b->aux);
	uint64_t s = seed;
	// The row's columns as row_build leaves them: k or c, then id.
	byte key[128], idb[4];
	cb_dfield row[2];
	int map[2] = {0, 1};
	size_t total = 0;
	for (long i = 0; i < n; i++) {
		unsigned klen;
		if (shape == CB_IX_K) {
			mach_write_4(key, (uint32_t)(b_splitmix(&s) % 1000000) ^ 0x80000000u);
			klen = 4;
		} else {
			b_sb_char(key, 120, &s);
			klen = 120;
		}
		mach_write_4(idb, (uint32_t)(i + 1) ^ 0x80000000u);
		row[0] = (cb_dfield){key, klen, b->index.f[0].mtype, b->index.f[0].prtype};
		row[1] = (cb_dfield){idb, 4, DATA_INT, 0};
		buf_add(b->heap, &b->index, row, map, &total, (size_t)-1, &b->orig[i]);
	}
	memcpy(b->tuples, b->orig, (size_t)n * sizeof *b->tuples);
	b->cmps = 0;
	return b;
}

// The two runs, the merge's output block and the load's pages, made on first use.
static int ensure_runs(cb_build *b)
{
	if (b->run[0]) return 1;
	long n = b->n;
	size_t rec_max = 4 + 2 + 124;
	b->block_size = 1 << 20; // innodb_sort_buffer_size's default
	for (int r = 0; r < 2; r++) {
		long lo = r * (n / 2), hi = lo + n / 2;
		row_merge_tuple_sort(2, 2, b->tuples, b->aux, (size_t)lo, (size_t)hi, &b->cmps);
		size_t cap = (size_t)(hi - lo) * rec_max + 1;
		if (cap > b->block_size) b->block_size = cap;
		b->run[r] = malloc(cap);
		byte *p = b->run[r];
		for (long i = lo; i < hi; i++) p = buf_encode(p, &b->index, b->tuples[i]);
		*p++ = 0;
		b->run_len[r] = (size_t)(p - b->run[r]);
	}
	memcpy(b->tuples, b->orig, (size_t)n * sizeof *b->tuples);
	b->out_size = 1 << 20;
	b->out = malloc(b->out_size);
	b->merged = malloc(b->run_len[0] + b->run_len[1]);
	// the load's pages: leaves at most half full (a record is at most rec_max bytes) and
	// the upper levels
	long per_page = 16000 / (long)(rec_max + 4) / 2;
	b->max_pages = n / per_page + 64;
	if (posix_memalign((void **)&b->pages, PAGE_SIZE, (size_t)b->max_pages * PAGE_SIZE)) b->pages = NULL;
	b->cmps = 0;
	return b->pages != NULL;
}

void cb_build_entry(cb_build *b, long i, byte *key, unsigned *key_len, int32_t *id)
{
	const cb_dfield *f = b->orig[i];
	memcpy(key, f[0].data, f[0].len);
	*key_len = f[0].len;
	*id = entry_id(f);
}

void cb_build_free(cb_build *b)
{
	mem_heap_free(b->heap);
	free(b->tuples);
	free(b->orig);
	free(b->aux);
	free(b->run[0]);
	free(b->run[1]);
	free(b->out);
	free(b->merged);
	free(b->pages);
	free(b);
}

uint64_t cb_bench_key_sort(cb_build *b, int fam, long iters, uint64_t *cmps)
{
	(void)fam; // the same algorithm and compare in both families
	uint64_t ns = 0;
	b->cmps = 0;
	for (long it = 0; it < iters; it++) {
		memcpy(b->tuples, b->orig, (size_t)b->n * sizeof *b->tuples);
		uint64_t t0 = b_now_ns();
		row_merge_tuple_sort(b->index.n_uniq, b->index.n_fields, b->tuples, b->aux, 0, (size_t)b->n, &b->cmps);
		ns += b_now_ns() - t0;
	}
	*cmps = b->cmps;
	return ns;
}

long cb_key_sorted_check(cb_build *b, int32_t *ids)
{
	long bad = 0;
	uint64_t c = 0;
	for (long i = 0; i < b->n; i++) {
		ids[i] = entry_id(b->tuples[i]);
		if (i && row_merge_tuple_cmp(2, 2, b->tuples[i - 1], b->tuples[i], &c) > 0) bad++;
	}
	return bad;
}

// ---- the merge (row0merge.cc row_merge_blocks; ddl0merge.cc merge_rows) ----

// row_merge_read_rec: the record at b in block (size bsize); returns the position after it,
// NULL at the end-of-list byte (*mrec = NULL). A record spanning two blocks (copied through
// buf) cannot occur here: an input block holds a whole run.
static const byte *row_merge_read_rec(const byte *block, size_t bsize, const byte *b, const cb_index *index,
				      const byte **mrec, rec_offs *offsets)
{
	unsigned extra_size = *b++;
	if (!extra_size) {
		*mrec = NULL;
		return NULL;
	}
	if (extra_size >= 0x80) {
		if (b >= block + bsize) return *mrec = NULL; // would read the next block
		extra_size = (extra_size & 0x7f) << 8;
		extra_size |= *b++;
	}
	extra_size--;
	if (b + extra_size >= block + bsize) return *mrec = NULL;
	*mrec = b + extra_size;
	rec_init_offsets_temp(*mrec, index, offsets);
	unsigned data_size = rec_offs_data_size(offsets);
	if (b + extra_size + data_size < block + bsize) return b + extra_size + data_size;
	return *mrec = NULL;
}

// row_merge_write_rec_low + row_merge_write_rec: extra_size + 1 in one or two bytes, then the
// record; a record that would cross the block's end goes through buf, the full block is
// written (row_merge_write: here the write is the pointer reset) and the rest starts the next.
static byte *row_merge_write_rec(byte *block, size_t bsize, byte *buf, byte *b, const byte *mrec,
				 const rec_offs *offsets, long *n_writes)
{
	unsigned extra_size = rec_offs_extra_size(offsets) + 1;
	unsigned size = extra_size + (extra_size >= 0x80) + rec_offs_data_size(offsets);
	byte *p = b + size >= block + bsize ? buf : b;
	byte *q = p;
	if (extra_size < 0x80) {
		*q++ = (byte)extra_size;
	} else {
		*q++ = (byte)(0x80 | (extra_size >> 8));
		*q++ = (byte)extra_size;
	}
	memcpy(q, mrec - (extra_size - 1), rec_offs_size(offsets));
	if (p == b) return b + size;
	size_t avail = (size_t)(block + bsize - b);
	memcpy(b, buf, avail);
	(*n_writes)++; // row_merge_write(fd, (*foffs)++, block)
	memcpy(block, buf + avail, size - avail);
	return block + size - avail;
}

// cmp_rec_rec_simple (rem0cmp.cc): field by field through cmp_data, n_uniq fields then the rest.
static inline int cmp_rec_rec_simple(const byte *r1, const byte *r2, const rec_offs *o1, const rec_offs *o2,
				     const cb_index *index)
{
	for (int n = 0; n < index->n_fields; n++) {
		uint32_t l1, l2;
		const byte *f1 = rec_get_nth_field(r1, o1, n, &l1);
		const byte *f2 = rec_get_nth_field(r2, o2, n, &l2);
		int cmp = cmp_data(index->f[n].mtype, index->f[n].prtype, f1, l1, f2, l2);
		if (cmp) return cmp;
	}
	return 0;
}

// row_merge_blocks with ROW_MERGE_WRITE_GET_NEXT: read one record of each input, compare,
// write the smaller and read its successor; then drain whichever is left; the end marker.
static size_t merge_row0merge(cb_build *b)
{
	const cb_index *index = &b->index;
	rec_offs o0[REC_OFFS_NORMAL_SIZE], o1[REC_OFFS_NORMAL_SIZE];
	byte buf[2 * 1024];
	const byte *mrec0, *mrec1;
	const byte *b0 = b->run[0], *b1 = b->run[1];
	byte *block2 = b->out, *b2 = block2;
	long n_writes = 0;
	b0 = row_merge_read_rec(b->run[0], b->block_size, b0, index, &mrec0, o0);
	b1 = row_merge_read_rec(b->run[1], b->block_size, b1, index, &mrec1, o1);
#define WRITE_GET_NEXT(N)                                                                                       \
	do {                                                                                                    \
		b2 = row_merge_write_rec(block2, b->out_size, buf, b2, mrec##N, o##N, &n_writes);               \
		b##N = row_merge_read_rec(b->run[N], b->block_size, b##N, index, &mrec##N, o##N);               \
	} while (0)
	while (mrec0 && mrec1) {
		b->cmps++;
		int cmp = cmp_rec_rec_simple(mrec0, mrec1, o0, o1, index);
		if (cmp < 0) {
			WRITE_GET_NEXT(0);
		} else if (cmp) {
			WRITE_GET_NEXT(1);
		} else {
			return 0; // duplicate: corrupt
		}
	}
	while (mrec0) WRITE_GET_NEXT(0);
	while (mrec1) WRITE_GET_NEXT(1);
#undef WRITE_GET_NEXT
	*b2++ = 0; // row_merge_write_eof
	return (size_t)(b2 - block2) + (size_t)n_writes * b->out_size;
}

// ---- 8.0.27+: File_reader, Merge_cursor (std::priority_queue), Output_file ----
typedef struct {
	const byte *buf, *ptr, *end; // the I/O buffer (here the whole file) and the read position
	const byte *mrec;
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	long n_rows_read;
	int eof;
} file_reader;

// ddl0file-reader.cc File_reader::next: the extra_size prefix (0 = end of the list), the
// record's offsets (rec_deserialize_init_offsets), the position past the record. The
// across-the-buffer copy through m_aux_buf cannot occur here (the buffer is the whole run).
static int file_reader_next(file_reader *r, const cb_index *index)
{
	size_t extra_size = *r->ptr++;
	if (extra_size == 0) {
		r->eof = 1;
		return 0;
	}
	if (extra_size >= 0x80) {
		extra_size = (extra_size & 0x7f) << 8;
		extra_size |= *r->ptr++;
	}
	--extra_size;
	const byte *rec = r->ptr;
	if (rec + extra_size >= r->end) return r->eof = 1, 0;
	rec_init_offsets_temp(rec + extra_size, index, r->offsets);
	size_t data_size = rec_offs_data_size(r->offsets);
	size_t required = extra_size + data_size;
	if (r->ptr + required >= r->end) return r->eof = 1, 0;
	r->ptr += required;
	++r->n_rows_read;
	r->mrec = rec + extra_size;
	return 1;
}

// Merge_cursor::Compare: cmp_rec_rec_simple(r, l) < 0 (the queue's top is the smallest).
static inline int pq_less(const file_reader *l, const file_reader *r, const cb_index *index, uint64_t *cmps)
{
	(*cmps)++;
	return cmp_rec_rec_simple(r->mrec, l->mrec, r->offsets, l->offsets, index) < 0;
}

// std::priority_queue<File_cursor*>: push = push_back + __push_heap; pop = __pop_heap
// (__adjust_heap down to a leaf, then __push_heap) + pop_back (libstdc++ stl_heap.h).
typedef struct {
	file_reader *v[CB_KMERGE_MAX];
	int n;
} pq_t;
static void pq_push_heap(pq_t *q, int hole, int top, file_reader *val, const cb_index *ix, uint64_t *c)
{
	int parent = (hole - 1) / 2;
	while (hole > top && pq_less(q->v[parent], val, ix, c)) {
		q->v[hole] = q->v[parent];
		hole = parent;
		parent = (hole - 1) / 2;
	}
	q->v[hole] = val;
}
static void pq_push(pq_t *q, file_reader *r, const cb_index *ix, uint64_t *c)
{
	q->v[q->n++] = r;
	pq_push_heap(q, q->n - 1, 0, r, ix, c);
}
static file_reader *pq_pop(pq_t *q, const cb_index *ix, uint64_t *c)
{
	file_reader *top = q->v[0];
	int len = q->n - 1;
	file_reader *val = q->v[len];
	q->v[len] = top;
	// __adjust_heap(first, 0, len, val)
	int hole = 0, child = 0;
	while (child < (len - 1) / 2) {
		child = 2 * (child + 1);
		if (pq_less(q->v[child], q->v[child - 1], ix, c)) child--;
		q->v[hole] = q->v[child];
		hole = child;
	}
	if ((len & 1) == 0 && child == (len - 2) / 2) {
		child = 2 * (child + 1);
		q->v[hole] = q->v[child - 1];
		hole = child - 1;
	}
	if (len > 0) pq_push_heap(q, hole, 0, val, ix, c);
	q->n = len;
	return top;
}

typedef struct {
	byte *buf;
	size_t size;
	byte *ptr;
	long n_writes;
	uint64_t n_rows;
	const byte *last_mrec; // for the duplicate check
	rec_offs last_offsets[REC_OFFS_NORMAL_SIZE];
} output_file;

// Merge_file_sort::Output_file::write (with duplicate_check when only one input is left).
static void output_write(output_file *o, const byte *mrec, const rec_offs *offsets, int dup, const cb_index *index,
			 uint64_t *cmps)
{
	if (dup) {
		if (o->last_mrec) {
			const byte *lm = o->last_mrec;
			size_t es = *lm++;
			if (es >= 0x80) es = ((es & 0x7f) << 8) | *lm++;
			--es;
			lm += es;
			(*cmps)++;
			(void)cmp_rec_rec_simple(mrec, lm, offsets, o->last_offsets, index);
		}
		memcpy(&o->last_offsets[2], &offsets[2], (size_t)(o->last_offsets[1] + 1) * sizeof(rec_offs));
	}
	++o->n_rows;
	unsigned extra_size = rec_offs_extra_size(offsets);
	unsigned nes = extra_size + 1;
	byte prefix[2];
	size_t need;
	if (nes < 0x80) {
		need = 1;
		prefix[0] = (byte)nes;
	} else {
		need = 2;
		prefix[0] = (byte)(0x80 | (nes >> 8));
		prefix[1] = (byte)nes;
	}
	size_t rec_size = extra_size + rec_offs_data_size(offsets);
	if (o->ptr + rec_size + need >= o->buf + o->size) {
		size_t n_write = (size_t)(o->ptr - o->buf);
		size_t len = n_write & ~(size_t)4095; // ut_uint64_align_down(n_write, IO_BLOCK_SIZE)
		o->n_writes++;                        // ddl::pwrite
		memmove(o->buf, o->buf + len, n_write - len);
		o->ptr = o->buf + (n_write - len);
	}
	o->last_mrec = o->ptr;
	memcpy(o->ptr, prefix, need);
	o->ptr += need;
	memcpy(o->ptr, mrec - extra_size, rec_size);
	o->ptr += rec_size;
}

// Merge_file_sort::merge_rows over a Merge_cursor of the two runs: per row the online-log
// state check, pop, File_cursor::fetch (tuple heap clear, error check), the write, next (the
// reader's next record) and the push back.
static size_t merge_ddl80(cb_build *b, mem_heap *tuple_heap)
{
	const cb_index *index = &b->index;
	file_reader r[2];
	pq_t q = {.n = 0};
	output_file o = {.buf = b->out, .size = b->out_size, .ptr = b->out};
	o.last_offsets[0] = REC_OFFS_NORMAL_SIZE;
	o.last_offsets[1] = (rec_offs)index->n_fields;
	for (int i = 0; i < 2; i++) {
		r[i] = (file_reader){.buf = b->run[i], .ptr = b->run[i], .end = b->run[i] + b->block_size};
		if (file_reader_next(&r[i], index)) pq_push(&q, &r[i], index, &b->cmps); // Merge_cursor::open
	}
	volatile int online_err = 0, builder_err = 0;
	while (q.n > 0) {
		if (online_err) break;                    // check_state_of_online_build_log
		file_reader *cur = pq_pop(&q, index, &b->cmps);
		mem_heap_empty(tuple_heap);               // File_cursor::fetch: m_tuple_heap.clear()
		if (builder_err) break;                   // m_builder->get_error()
		output_write(&o, cur->mrec, cur->offsets, q.n == 0, index, &b->cmps);
		if (file_reader_next(cur, index)) pq_push(&q, cur, index, &b->cmps);
	}
	*o.ptr++ = 0; // Output_file::flush: the end-of-list marker
	return (size_t)(o.ptr - o.buf) + (size_t)o.n_writes;
}

uint64_t cb_bench_merge(cb_build *b, int fam, long iters)
{
	if (!ensure_runs(b)) return 0;
	uint64_t ns = 0;
	mem_heap *th = mem_heap_create(2048);
	for (long it = 0; it < iters; it++) {
		uint64_t t0 = b_now_ns();
		size_t got = fam == CB_DDL80 ? merge_ddl80(b, th) : merge_row0merge(b);
		ns += b_now_ns() - t0;
		if (!got) {
			ns = 0;
			break;
		}
	}
	mem_heap_free(th);
	return ns;
}

// Builder::btree_build's Merge_cursor over the k files of one index (one per scan thread,
// each holding one sorted run after its merge task): the same per-row steps as merge_ddl80
// (online-log check, pop, the tuple heap's clear, the consumer, the reader's next record,
// the push back) over k inputs instead of two. The consumer is Output_file::write in both,
// so the difference between k files and one is the priority queue's work: its compares
// (*cmps counts them) and moves. The runs are made from the build's entries on every call
// (not timed).
uint64_t cb_bench_kmerge(cb_build *b, int k, long iters, uint64_t *cmps)
{
	if (k < 1 || k > CB_KMERGE_MAX || !ensure_runs(b)) return 0;
	const cb_index *index = &b->index;
	long n = b->n;
	size_t rec_max = 4 + 2 + 124;
	byte *runs[CB_KMERGE_MAX];
	size_t cap = (size_t)(n / k + 1) * rec_max + 2;
	for (int r = 0; r < k; r++) {
		long lo = r * n / k, hi = (r + 1) * n / k;
		row_merge_tuple_sort(2, 2, b->tuples, b->aux, (size_t)lo, (size_t)hi, &b->cmps);
		runs[r] = malloc(cap);
		byte *p = runs[r];
		for (long i = lo; i < hi; i++) p = buf_encode(p, index, b->tuples[i]);
		*p++ = 0;
	}
	memcpy(b->tuples, b->orig, (size_t)n * sizeof *b->tuples);
	mem_heap *th = mem_heap_create(2048);
	uint64_t ns = 0, c = 0;
	for (long it = 0; it < iters; it++) {
		uint64_t t0 = b_now_ns();
		file_reader r[CB_KMERGE_MAX];
		pq_t q = {.n = 0};
		output_file o = {.buf = b->out, .size = b->out_size, .ptr = b->out};
		o.last_offsets[0] = REC_OFFS_NORMAL_SIZE;
		o.last_offsets[1] = (rec_offs)index->n_fields;
		for (int i = 0; i < k; i++) {
			r[i] = (file_reader){.buf = runs[i], .ptr = runs[i], .end = runs[i] + cap};
			if (file_reader_next(&r[i], index)) pq_push(&q, &r[i], index, &c);
		}
		uint64_t c0 = c;
		volatile int online_err = 0;
		long rows = 0;
		while (q.n > 0) {
			if (online_err) break;
			file_reader *cur = pq_pop(&q, index, &c);
			mem_heap_empty(th);
			output_write(&o, cur->mrec, cur->offsets, 0, index, &c);
			rows++;
			if (file_reader_next(cur, index)) pq_push(&q, cur, index, &c);
		}
		ns += b_now_ns() - t0;
		*cmps += c - c0;
		if (rows != n) {
			ns = 0;
			break;
		}
	}
	mem_heap_free(th);
	for (int r = 0; r < k; r++) free(runs[r]);
	return ns;
}

// The merged run as the load reads it: the same merge into a buffer that holds all of it.
static size_t merge_to_merged(cb_build *b, int fam)
{
	byte *save = b->out;
	size_t save_size = b->out_size;
	b->out = b->merged;
	b->out_size = b->run_len[0] + b->run_len[1];
	mem_heap *th = mem_heap_create(2048);
	size_t got = fam == CB_DDL80 ? merge_ddl80(b, th) : merge_row0merge(b);
	mem_heap_free(th);
	b->out = save;
	b->out_size = save_size;
	b->merged_len = got;
	return got;
}

long cb_merge_ids(cb_build *b, int fam, int32_t *ids)
{
	if (!ensure_runs(b) || !merge_to_merged(b, fam)) return -1;
	const byte *p = b->merged, *mrec;
	rec_offs o[REC_OFFS_NORMAL_SIZE];
	long n = 0;
	for (;;) {
		p = row_merge_read_rec(b->merged, b->run_len[0] + b->run_len[1] + 1, p, &b->index, &mrec, o);
		if (!p) break;
		uint32_t len;
		const byte *id = rec_get_nth_field(mrec, o, 1, &len);
		if (n < b->n) ids[n] = (int32_t)(mach_read_4(id) ^ 0x80000000u);
		n++;
	}
	return mrec == NULL ? n : -1;
}

// ---- the bulk load (btr0bulk.cc PageBulk / BtrBulk; btr0load.cc Page_load / Btree_load) ----
enum { PAGE_DIR_SLOT_MAX_N_OWNED = 8, PAGE_HEAP_NO_USER_LOW = 2 };

typedef struct {
	byte *page;
	uint32_t page_no;
	unsigned level;
	byte *cur_rec, *heap_top;
	unsigned rec_no, free_space, reserved_space;
	byte *last_slotted_rec; // Page_load's incremental finish
	unsigned slotted_rec_no;
	mem_heap *heap;
	int modified;
} page_load;

typedef struct {
	cb_build *b;
	int fam;
	page_load lv[4];
	int n_levels;
	uint64_t n_recs;
	long interrupt_check;
	mem_heap *validate_heap;
} btr_load;

// page_dir_calc_reserved_space: slots for n records, one per 4 (PAGE_DIR_SLOT_MIN_N_OWNED).
static inline unsigned page_dir_calc_reserved_space(unsigned n) { return (2 * n + 3) / 4; }
static inline unsigned page_get_free_space_of_empty(void)
{
	return PAGE_SIZE - PAGE_NEW_SUPREMUM_END - PAGE_DIR - 2 * PAGE_DIR_SLOT_SIZE;
}

// PageBulk::init / Page_load::init: a new page (page_create), the free space and the space
// the fill factor reserves (innodb_fill_factor 100: none for a secondary index).
static void page_load_init(btr_load *L, page_load *pl, unsigned level)
{
	cb_build *b = L->b;
	if (b->n_pages >= b->max_pages) b->n_pages = b->max_pages - 1, b->failed = 1; // (never: sized for it)
	pl->page_no = (uint32_t)b->n_pages++;
	pl->page = b->pages + (size_t)pl->page_no * PAGE_SIZE;
	pl->level = level;
	cb_page_init(pl->page, pl->page_no, b->index.id, level);
	pl->heap = mem_heap_create(1024);
	pl->cur_rec = pl->page + PAGE_NEW_INFIMUM;
	pl->free_space = page_get_free_space_of_empty();
	// innodb_fill_factor 100: a clustered index keeps dict_index_get_space_reserve() (1/16)
	pl->reserved_space = b->index.clust ? PAGE_SIZE / 16 : 0;
	pl->heap_top = pl->page + PAGE_NEW_SUPREMUM_END;
	pl->rec_no = 0;
	pl->last_slotted_rec = pl->page + PAGE_NEW_INFIMUM;
	pl->slotted_rec_no = 0;
	pl->modified = 1;
	if (level == 0) b->n_leaves++;
}

static inline void rec_set_next_ptr(byte *rec, const byte *next)
{
	mach_write_2(rec - 2, (unsigned)((page_offset(next) - page_offset(rec)) & 0xFFFF));
}

// rec_offs_size of a page record; rec_copy; the list links; n_owned 0 and heap_no;
// the free space (PageBulk::insert, Page_load::insert(rec, offsets)).
static void page_insert_rec(page_load *pl, const byte *rec, const rec_offs *offsets)
{
	unsigned extra = rec_offs_extra_size(offsets), rec_size = rec_offs_size(offsets);
	memcpy(pl->heap_top, rec - extra, rec_size); // rec_copy
	byte *insert_rec = pl->heap_top + extra;
	const byte *next_rec = page_rec_get_next(pl->cur_rec);
	if (!next_rec) next_rec = pl->page + PAGE_NEW_SUPREMUM;
	rec_set_next_ptr(insert_rec, next_rec);
	rec_set_next_ptr(pl->cur_rec, insert_rec);
	insert_rec[-5] &= 0xF0;                                                                // n_owned 0
	mach_write_2(insert_rec - 4, ((PAGE_HEAP_NO_USER_LOW + pl->rec_no) << 3) | (insert_rec[-3] & 7)); // heap_no
	unsigned slot_size = page_dir_calc_reserved_space(pl->rec_no + 1) - page_dir_calc_reserved_space(pl->rec_no);
	pl->free_space -= rec_size + slot_size;
	pl->heap_top += rec_size;
	pl->rec_no++;
	pl->cur_rec = insert_rec;
	pl->modified = 1;
}

static int page_is_space_available(const page_load *pl, unsigned rec_size)
{
	unsigned slot_size = page_dir_calc_reserved_space(pl->rec_no + 1) - page_dir_calc_reserved_space(pl->rec_no);
	unsigned required = rec_size + slot_size;
	if (required > pl->free_space) return 0;
	if (pl->rec_no >= 2 && pl->free_space - required < pl->reserved_space) return 0;
	return 1;
}

static void page_set_header(page_load *pl)
{
	byte *h = pl->page + PAGE_HEADER;
	mach_write_2(h + PAGE_HEAP_TOP, (unsigned)(pl->heap_top - pl->page));
	mach_write_2(h + PAGE_N_HEAP, 0x8000 | (PAGE_HEAP_NO_USER_LOW + pl->rec_no));
	mach_write_2(h + PAGE_N_RECS, pl->rec_no);
	mach_write_2(h + PAGE_LAST_INSERT, (unsigned)(pl->cur_rec - pl->page));
	h[PAGE_DIRECTION_B] = 2; // PAGE_RIGHT
	mach_write_2(h + PAGE_N_DIRECTION, 0);
}

static inline void slot_set(byte *page, unsigned n, const byte *rec, unsigned owned)
{
	mach_write_2((byte *)page_dir_get_nth_slot(page, n), page_offset(rec));
	byte *r = (byte *)rec;
	r[-5] = (byte)((r[-5] & 0xF0) | owned);
}

// PageBulk::finish (row0merge family): a scan of all the page's records for the slots.
static void page_bulk_finish(page_load *pl)
{
	unsigned count = 0, slot_index = 0;
	byte *insert_rec = (byte *)page_rec_get_next(pl->page + PAGE_NEW_INFIMUM);
	byte *slot_rec = NULL;
	do {
		count++;
		if (count == (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2) {
			slot_index++;
			slot_set(pl->page, slot_index, insert_rec, count);
			slot_rec = insert_rec;
			count = 0;
		}
		insert_rec = (byte *)page_rec_get_next(insert_rec);
	} while (page_offset(insert_rec) != PAGE_NEW_SUPREMUM);
	if (slot_index > 0 && count + 1 + (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2 <= PAGE_DIR_SLOT_MAX_N_OWNED) {
		count += (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2;
		slot_rec[-5] &= 0xF0;
		slot_index--;
	}
	slot_set(pl->page, 1 + slot_index, pl->page + PAGE_NEW_SUPREMUM, count + 1);
	mach_write_2(pl->page + PAGE_HEADER + PAGE_N_DIR_SLOTS, 2 + slot_index);
	page_set_header(pl);
	pl->modified = 0;
}

// Page_load::finish (8.0.27+): the slots assigned incrementally, RECORDS_PER_SLOT at a time
// from the last slotted record, the rest owned by the supremum.
static void page_load_finish(page_load *pl)
{
	if (!pl->modified) return;
	unsigned n_rec_to_assign = pl->rec_no - pl->slotted_rec_no;
	while (n_rec_to_assign >= PAGE_DIR_SLOT_MAX_N_OWNED) {
		const unsigned per_slot = (PAGE_DIR_SLOT_MAX_N_OWNED + 1) / 2;
		for (unsigned i = 0; i < per_slot; ++i) pl->last_slotted_rec = (byte *)page_rec_get_next(pl->last_slotted_rec);
		pl->slotted_rec_no += per_slot;
		unsigned n_slots = page_dir_get_n_slots(pl->page);
		mach_write_2(pl->page + PAGE_HEADER + PAGE_N_DIR_SLOTS, n_slots + 1);
		slot_set(pl->page, n_slots - 1, pl->last_slotted_rec, per_slot);
		n_rec_to_assign -= per_slot;
	}
	unsigned n_slots = page_dir_get_n_slots(pl->page);
	slot_set(pl->page, n_slots - 1, pl->page + PAGE_NEW_SUPREMUM, n_rec_to_assign + 1);
	page_set_header(pl);
	pl->modified = 0;
}

// page0page.cc page_validate's per-record work (release build): per record rec_get_offsets,
// rec_validate (the field lengths add up), the order against the previous record
// (cmp_rec_rec), every byte of the record marked in a page-sized map that must not overlap;
// then the owner counts against the directory. Returns 1 when the page is valid.
static int page_validate(byte *page, const cb_index *index, mem_heap *heap, uint64_t *cmps)
{
	byte *buf = mem_heap_alloc(heap, PAGE_SIZE);
	memset(buf, 0, PAGE_SIZE); // mem_heap_zalloc
	int leaf = page_is_leaf(page);
	unsigned n_slots = page_dir_get_n_slots(page), slot_no = 0, own_count = 1, count = 0;
	const byte *slot = page_dir_get_nth_slot(page, 0);
	const byte *rec = page + PAGE_NEW_INFIMUM, *old_rec = NULL;
	rec_offs *offsets = NULL, *old_offsets = NULL;
	int ok = 1;
	own_count = 0;
	for (;;) {
		own_count++;
		offsets = mem_heap_alloc(heap, REC_OFFS_NORMAL_SIZE * sizeof(rec_offs));
		unsigned status = rec_get_status(rec);
		if (status == REC_STATUS_INFIMUM || status == REC_STATUS_SUPREMUM) {
			offsets[0] = REC_OFFS_NORMAL_SIZE;
			offsets[1] = 1;
			offsets[2] = REC_N_NEW_EXTRA_BYTES | REC_OFFS_COMPACT;
			rec_offs_base(offsets)[0] = 8;
		} else {
			rec_get_offsets(rec, index, offsets, leaf, 64);
			if (rec_get_status(rec) != (leaf ? REC_STATUS_ORDINARY : REC_STATUS_NODE_PTR)) ok = 0;
			// rec_validate
			unsigned len_sum = 0;
			for (int i = 0; i < offsets[1]; i++) {
				uint32_t len;
				(void)rec_get_nth_field(rec, offsets, i, &len);
				if (len != UNIV_SQL_NULL) len_sum += len;
			}
			if (len_sum != rec_offs_data_size(offsets)) ok = 0;
			if (old_rec && status == REC_STATUS_ORDINARY) {
				(*cmps)++;
				if (cmp_rec_rec_simple(rec, old_rec, offsets, old_offsets, index) <= 0) ok = 0;
			}
		}
		unsigned offs = page_offset(rec) - rec_offs_extra_size(offsets), i = rec_offs_size(offsets);
		if (offs + i >= PAGE_SIZE) return 0;
		while (i--) {
			if (buf[offs + i]) ok = 0; // no other record may overlap this
			buf[offs + i] = 1;
		}
		unsigned n_owned = rec_get_n_owned(rec);
		if (n_owned) {
			if (own_count != n_owned || mach_read_2(slot) != page_offset(rec)) ok = 0;
			own_count = 0;
			if (page_offset(rec) != PAGE_NEW_SUPREMUM) slot = page_dir_get_nth_slot(page, ++slot_no);
		}
		if (page_offset(rec) == PAGE_NEW_SUPREMUM) break;
		count++;
		if (status != REC_STATUS_INFIMUM) { // the order is checked from the second user record
			old_rec = rec;
			old_offsets = offsets;
		}
		rec = page_rec_get_next(rec);
		if (!rec) return 0;
	}
	if (slot_no != n_slots - 1) ok = 0;
	if (count - 1 != page_header_get(page, PAGE_N_RECS)) ok = 0;
	mem_heap_empty(heap);
	return ok;
}

static long btr_insert(btr_load *L, const b_dtuple *tuple, unsigned level);

// dict_index_build_node_ptr: the first record's key fields and the page number, as a tuple.
static void page_commit(btr_load *L, page_load *pl, page_load *next, int insert_father)
{
	if (L->fam == CB_DDL80) page_load_finish(pl);
	else page_bulk_finish(pl);
	if (next) {
		mach_write_4(pl->page + FIL_PAGE_NEXT, next->page_no);
		mach_write_4(next->page + FIL_PAGE_PREV, pl->page_no);
	} else {
		mach_write_4(pl->page + FIL_PAGE_NEXT, 0xFFFFFFFF);
	}
	if (insert_father) {
		const byte *first = page_rec_get_next(pl->page + PAGE_NEW_INFIMUM);
		rec_offs o[REC_OFFS_NORMAL_SIZE];
		rec_get_offsets(first, &L->b->index, o, pl->level == 0, L->b->index.n_uniq);
		b_dtuple *np = dtuple_create(pl->heap, L->b->index.n_uniq + 1);
		for (int i = 0; i < L->b->index.n_uniq; i++) {
			uint32_t len;
			np->fields[i].data = rec_get_nth_field(first, o, i, &len);
			np->fields[i].len = len;
			np->fields[i].mtype = L->b->index.f[i].mtype;
			np->fields[i].prtype = L->b->index.f[i].prtype;
		}
		byte *pn = mem_heap_alloc(pl->heap, 4);
		mach_write_4(pn, pl->page_no);
		np->fields[L->b->index.n_uniq] = (cb_dfield){pn, 4, DATA_SYS, 0};
		btr_insert(L, np, pl->level + 1);
	}
	if (L->fam == CB_DDL80) { // Page_load::commit: ut_a(page_validate(m_page, m_index))
		if (!page_validate(pl->page, &L->b->index, L->validate_heap, &L->b->cmps)) L->b->failed = 1;
	}
	mem_heap_free(pl->heap);
}

// BtrBulk::insert(tuple, level) / Btree_load::insert(tuple, level): the converted size, the
// external-storage check, space on the page or a sibling (committing this one), then
// PageBulk::insert(tuple): the record built on the page heap, its offsets on the heap, the
// copy into the page.
static long btr_insert(btr_load *L, const b_dtuple *tuple, unsigned level)
{
	cb_build *b = L->b;
	cb_index ni = b->index;
	const cb_index *index = &b->index;
	unsigned status = REC_STATUS_ORDINARY;
	if (level > 0) { // node pointers: the key fields + the child page number
		ni.n_fields = ni.n_uniq + 1;
		ni.f[ni.n_uniq] = (cb_field){4, 4, 0, DATA_SYS, 0};
		index = &ni;
		status = REC_STATUS_NODE_PTR;
	}
	int left_most = 0;
	if ((int)level + 1 > L->n_levels) {
		page_load_init(L, &L->lv[level], level);
		L->n_levels = (int)level + 1;
		left_most = 1;
	}
	page_load *pl = &L->lv[level];
	unsigned info_bits = tuple->info_bits;
	if (left_most && level > 0 && pl->rec_no == 0) info_bits |= REC_INFO_MIN_REC_FLAG;
	unsigned data;
	unsigned rec_size = REC_N_NEW_EXTRA_BYTES + converted_extra(index, tuple->fields, tuple->n_fields, &data) + data;
	if (rec_size >= page_get_free_space_of_empty() / 2) return -1; // page_zip_rec_needs_ext
	if (!page_is_space_available(pl, rec_size)) {
		page_load sib;
		page_load_init(L, &sib, level);
		page_commit(L, pl, &sib, 1);
		L->lv[level] = sib;
		pl = &L->lv[level];
	}
	byte *rec_mem = mem_heap_alloc(pl->heap, rec_size);
	byte *rec = rec_convert_dtuple_to_rec(rec_mem, index, tuple->fields, tuple->n_fields, info_bits, status);
	rec_offs *offsets = mem_heap_alloc(pl->heap, REC_OFFS_NORMAL_SIZE * sizeof(rec_offs));
	rec_get_offsets(rec, index == &ni ? &b->index : index, offsets, level == 0, 64);
	page_insert_rec(pl, rec, offsets);
	L->n_recs++;
	return 0;
}

static void btr_finish(btr_load *L)
{
	for (int level = 0; level < L->n_levels; level++) page_commit(L, &L->lv[level], NULL, level != L->n_levels - 1);
}

static long load_run(cb_build *b, int fam)
{
	btr_load L = {.b = b, .fam = fam};
	L.validate_heap = mem_heap_create(PAGE_SIZE + 1024);
	b->n_pages = 0;
	b->n_leaves = 0;
	b->failed = 0;
	mem_heap *tuple_heap = mem_heap_create(2048);
	const cb_index *index = &b->index;
	if (fam == CB_DDL80) {
		// Btree_load::build over a Merge_cursor of the (one) merged file
		file_reader r = {.buf = b->merged, .ptr = b->merged, .end = b->merged + b->merged_len + 1};
		pq_t q = {.n = 0};
		if (file_reader_next(&r, index)) pq_push(&q, &r, index, &b->cmps);
		volatile int err = 0;
		while (q.n > 0) {
			if (err) break;                           // check_state_of_online_build_log
			file_reader *cur = pq_pop(&q, index, &b->cmps);
			mem_heap_empty(tuple_heap);                // File_cursor::fetch
			b_dtuple *t = row_rec_to_index_entry_low(cur->mrec, index, cur->offsets, tuple_heap);
			int has_ext = 0;                           // dtuple_copy_blobs: dtuple->has_ext()
			for (int i = 0; i < t->n_fields; i++) has_ext |= (int)(t->fields[i].prtype >> 31); // (dfield ext bit)
			if (has_ext) break;
			if (btr_insert(&L, t, 0)) break;
			if (file_reader_next(cur, index)) pq_push(&q, cur, index, &b->cmps);
			if (!(L.interrupt_check++ % 25000) && err) break; // check_interrupted
		}
	} else {
		// row_merge_insert_index_tuples from the merged file: row_merge_read_rec,
		// row_rec_to_index_entry_low, BtrBulk::insert, mem_heap_empty(tuple_heap)
		rec_offs offsets[REC_OFFS_NORMAL_SIZE];
		const byte *p = b->merged, *mrec;
		for (;;) {
			p = row_merge_read_rec(b->merged, b->merged_len + 1, p, index, &mrec, offsets);
			if (!p) break;
			b_dtuple *t = row_rec_to_index_entry_low(mrec, index, offsets, tuple_heap);
			int n_ext = 0; // dtuple_get_n_ext
			for (int i = 0; i < t->n_fields; i++) n_ext += (int)(t->fields[i].prtype >> 31); // (dfield ext bit)
			if (n_ext) break;
			if (btr_insert(&L, t, 0)) break;
			mem_heap_empty(tuple_heap);
		}
	}
	btr_finish(&L);
	mem_heap_free(tuple_heap);
	mem_heap_free(L.validate_heap);
	return (long)L.n_recs;
}

uint64_t cb_bench_load(cb_build *b, int fam, long iters, long *pages)
{
	if (!ensure_runs(b) || !merge_to_merged(b, fam)) return 0;
	uint64_t ns = 0;
	for (long it = 0; it < iters; it++) {
		uint64_t t0 = b_now_ns();
		long n = load_run(b, fam);
		ns += b_now_ns() - t0;
		if (n < b->n || b->failed) return 0;
	}
	*pages = b->n_pages;
	return ns;
}

long cb_load_check(cb_build *b, int32_t *ids)
{
	long bad = 0, k = 0;
	mem_heap *h = mem_heap_create(PAGE_SIZE + 1024);
	uint64_t c = 0;
	// the first leaf is page 0; follow FIL_PAGE_NEXT
	long p = 0, seen = 0;
	while (p >= 0 && seen < b->n_pages) {
		byte *page = b->pages + (size_t)p * PAGE_SIZE;
		seen++;
		if (!page_is_leaf(page)) { bad++; break; }
		if (!page_validate(page, &b->index, h, &c)) bad++;
		rec_offs o[REC_OFFS_NORMAL_SIZE];
		for (const byte *r = page_rec_get_next(page + PAGE_NEW_INFIMUM); r && page_offset(r) != PAGE_NEW_SUPREMUM;
		     r = page_rec_get_next(r)) {
			rec_get_offsets(r, &b->index, o, 1, 64);
			uint32_t len;
			const byte *id = rec_get_nth_field(r, o, 1, &len);
			if (k < b->n) ids[k] = (int32_t)(mach_read_4(id) ^ 0x80000000u);
			k++;
		}
		uint32_t nx = mach_read_4(page + FIL_PAGE_NEXT);
		p = nx == 0xFFFFFFFF ? -1 : (long)nx;
	}
	// the upper levels' pages are valid too
	for (long q = 0; q < b->n_pages; q++) {
		byte *page = b->pages + (size_t)q * PAGE_SIZE;
		if (!page_is_leaf(page)) {
			cb_index ni = b->index;
			if (!page_validate(page, &ni, h, &c)) bad++;
		}
	}
	mem_heap_free(h);
	if (k != b->n) bad++;
	return bad;
}

// ---- row_merge_read_clustered_index's per-row work (MariaDB 10.11 row0merge.cc) ----
// The table's columns in dict_table_t order: id, k, c, pad, DB_ROW_ID, DB_TRX_ID, DB_ROLL_PTR;
// the clustered index's fields (id, DB_TRX_ID, DB_ROLL_PTR, k, c, pad) map to them.
enum { N_COLS = 7 };
static const int clust_field_col[6] = {0, 5, 6, 1, 2, 3};
static const cb_field table_cols[N_COLS] = {
	{4, 4, 0, DATA_INT, 0}, {4, 4, 0, DATA_INT, 0}, {120, 120, 0, DATA_CHAR, 8}, {60, 60, 0, DATA_CHAR, 8},
	{6, 6, 0, DATA_SYS, 0}, {6, 6, 0, DATA_SYS, 0}, {7, 7, 0, DATA_SYS, 0},
};

// row0row.cc row_build_low (ROW_COPY_POINTERS, col_map for a rebuild): a tuple of the
// table's columns (dict_table_copy_types: every column typed and NULL), the info bits, then
// each index field's data pointed to from its column.
static b_dtuple *row_build(const byte *rec, const cb_index *index __attribute__((unused)), const rec_offs *offsets, const int *col_map,
			   mem_heap *heap, int *n_ext)
{
	b_dtuple *row = dtuple_create(heap, N_COLS);
	for (int i = 0; i < N_COLS; i++) {
		row->fields[i] = (cb_dfield){NULL, UNIV_SQL_NULL, table_cols[i].mtype, table_cols[i].prtype};
	}
	row->info_bits = rec_get_info_bits(rec);
	*n_ext = 0;
	for (int i = 0; i < offsets[1]; i++) {
		int col_no = clust_field_col[i];
		if (col_map) {
			col_no = col_map[col_no];
			if (col_no < 0) continue;
		}
		uint32_t len;
		const byte *f = rec_get_nth_field(rec, offsets, i, &len);
		row->fields[col_no].data = f;
		row->fields[col_no].len = len;
		if (rec_offs_base_c(offsets)[i] & REC_OFFS_EXTERNAL) (*n_ext)++;
	}
	return row;
}

// Which row column each index field takes: k index (k, id), c index (c, id), the new
// clustered index (id, DB_TRX_ID, DB_ROLL_PTR, k, c, pad).
static const int k_cols[2] = {1, 0}, c_cols[2] = {2, 0};

uint64_t cb_bench_scan(cb_tree *t, const int *ix, int n_ix, int rebuild, long rows)
{
	init_charsets();
	cb_index sec[4];
	mem_heap *bufheap[5];
	cb_dfield **slots[5];
	size_t total[5] = {0};
	long n_tuples[5] = {0};
	const size_t sort_buf = 1 << 20; // innodb_sort_buffer_size
	const long max_tuples = (long)(sort_buf / 9) + 1;
	for (int i = 0; i < n_ix; i++) {
		define_sec_index(&sec[i], ix[i] == CB_IX_K ? CB_IX_K : CB_IX_C);
		bufheap[i] = mem_heap_create(1024);
		slots[i] = malloc((size_t)max_tuples * sizeof(cb_dfield *));
	}
	bufheap[4] = mem_heap_create(1024);
	slots[4] = malloc((size_t)max_tuples * sizeof(cb_dfield *));
	int col_map[N_COLS] = {0, 1, 2, 3, 4, 5, 6};
	mem_heap *row_heap = mem_heap_create(1024);
	mem_heap *mtuple_heap = mem_heap_create(1024);
	cb_dfield *prev = NULL;
	btr_load L = {.fam = CB_ROW0MERGE};
	cb_build lb = {0};
	if (rebuild) { // the new clustered index's bulk load (pages reused round-robin)
		lb.index = t->index;
		lb.max_pages = 4096;
		if (posix_memalign((void **)&lb.pages, PAGE_SIZE, (size_t)lb.max_pages * PAGE_SIZE)) return 0;
		L.b = &lb;
		L.validate_heap = mem_heap_create(1024);
	}
	uint64_t sink = 0;
	uint64_t t0 = b_now_ns();
	long done = 0;
	uint32_t page_no = t->first_leaf;
	const byte *page = t->arena + (size_t)page_no * PAGE_SIZE;
	const byte *rec = page + PAGE_NEW_INFIMUM;
	while (done < rows) {
		rec = page_rec_get_next(rec); // page_cur_move_to_next
		if (page_offset(rec) == PAGE_NEW_SUPREMUM) {
			uint32_t next = mach_read_4(page + FIL_PAGE_NEXT); // btr_pcur_move_to_next_page
			page_no = next == 0xFFFFFFFF ? t->first_leaf : next;
			page = t->arena + (size_t)page_no * PAGE_SIZE;
			rec = page + PAGE_NEW_INFIMUM;
			continue;
		}
		if (rec_get_info_bits(rec) & REC_INFO_DELETED_FLAG) continue; // rec_get_deleted_flag
		rec_offs *offsets = mem_heap_alloc(row_heap, REC_OFFS_NORMAL_SIZE * sizeof(rec_offs));
		rec_get_offsets(rec, &t->index, offsets, 1, 64);
		{ // online: the record's DB_TRX_ID against the read view (changes_visible)
			uint32_t len;
			uint64_t trx_id = mach_read_6(rec_get_nth_field(rec, offsets, t->index.trx_id_pos, &len));
			if (trx_id >= (1ULL << 41)) continue;
		}
		int n_ext;
		b_dtuple *row = row_build(rec, &t->index, offsets, rebuild ? col_map : NULL, row_heap, &n_ext);
		for (int i = 0; i < n_ix; i++) {
			const int *cols = sec[i].f[0].mtype == DATA_INT ? k_cols : c_cols;
			if (!buf_add(bufheap[i], &sec[i], row->fields, cols, &total[i], sort_buf, &slots[i][n_tuples[i]])) {
				mem_heap_empty(bufheap[i]); // (the buffer's sort and write are not this cost)
				total[i] = 0;
				n_tuples[i] = 0;
				buf_add(bufheap[i], &sec[i], row->fields, cols, &total[i], sort_buf, &slots[i][0]);
			}
			n_tuples[i]++;
		}
		if (rebuild) {
			// the new clustered index's entry; skip_sort: the duplicate check against the
			// previous entry (row_merge_tuple_cmp over n_uniq), then the batch's bulk insert
			const cb_index *ci = &t->index;
			if (!buf_add(bufheap[4], ci, row->fields, clust_field_col, &total[4], sort_buf, &slots[4][n_tuples[4]])) {
				for (long j = 0; j < n_tuples[4]; j++) { // row_merge_insert_index_tuples
					b_dtuple dt = {0, ci->n_fields, ci->n_uniq, slots[4][j]}; // row_merge_mtuple_to_dtuple
					if (lb.n_pages > lb.max_pages - 8) { // reuse the pages: a new tree
						for (int l = 0; l < L.n_levels; l++) mem_heap_free(L.lv[l].heap);
						lb.n_pages = 0;
						L.n_levels = 0;
					}
					btr_insert(&L, &dt, 0);
				}
				mem_heap_empty(bufheap[4]);
				total[4] = 0;
				n_tuples[4] = 0;
				prev = NULL;
				buf_add(bufheap[4], ci, row->fields, clust_field_col, &total[4], sort_buf, &slots[4][0]);
			}
			cb_dfield *cur = slots[4][n_tuples[4]];
			if (prev) {
				uint64_t c = 0;
				if (row_merge_tuple_cmp(ci->n_uniq, ci->n_uniq, cur, prev, &c) == 0) sink++;
			}
			prev = cur;
			n_tuples[4]++;
		}
		mem_heap_empty(row_heap);
		sink += (uint64_t)n_ext;
		done++;
	}
	uint64_t ns = b_now_ns() - t0;
	for (int i = 0; i < n_ix; i++) {
		mem_heap_free(bufheap[i]);
		free(slots[i]);
	}
	mem_heap_free(bufheap[4]);
	free(slots[4]);
	mem_heap_free(row_heap);
	mem_heap_free(mtuple_heap);
	if (rebuild) {
		for (int l = 0; l < L.n_levels; l++) mem_heap_free(L.lv[l].heap);
		mem_heap_free(L.validate_heap);
		free(lb.pages);
	}
	return ns + (sink & 0);
}

long cb_row_build_roundtrip(cb_tree *t, long j)
{
	const byte *rec = NULL;
	long k = 0;
	for (uint32_t p = t->first_leaf; p < t->first_leaf + t->n_leaves && !rec; p++) {
		const byte *page = t->arena + (size_t)p * PAGE_SIZE;
		for (const byte *r = page_rec_get_next(page + PAGE_NEW_INFIMUM); r && page_offset(r) != PAGE_NEW_SUPREMUM;
		     r = page_rec_get_next(r)) {
			if (k++ == j) {
				rec = r;
				break;
			}
		}
	}
	if (!rec) return -1;
	mem_heap *h = mem_heap_create(1024);
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	rec_get_offsets(rec, &t->index, offsets, 1, 64);
	int n_ext, col_map[N_COLS] = {0, 1, 2, 3, 4, 5, 6};
	b_dtuple *row = row_build(rec, &t->index, offsets, col_map, h, &n_ext);
	// row_build_index_entry of the clustered index: its fields from the row's columns
	cb_dfield entry[6];
	for (int i = 0; i < 6; i++) {
		entry[i] = row->fields[clust_field_col[i]];
		if (entry[i].len == UNIV_SQL_NULL) return -2;
	}
	byte buf[512];
	byte *nrec = rec_convert_dtuple_to_rec(buf, &t->index, entry, 6, rec_get_info_bits(rec), REC_STATUS_ORDINARY);
	rec_offs o2[REC_OFFS_NORMAL_SIZE];
	rec_get_offsets(nrec, &t->index, o2, 1, 64);
	long diff = rec_offs_size(o2) != rec_offs_size(offsets);
	unsigned extra = rec_offs_extra_size(offsets);
	// the data and the lengths/null bytes (not the 5-byte header: heap_no and next differ)
	if (!diff) diff = memcmp(nrec, rec, rec_offs_data_size(offsets)) != 0;
	if (!diff && extra > REC_N_NEW_EXTRA_BYTES)
		diff = memcmp(nrec - extra, rec - extra, extra - REC_N_NEW_EXTRA_BYTES) != 0;
	mem_heap_free(h);
	return diff;
}
