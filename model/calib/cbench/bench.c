// The benchmark loops model/calib runs (through cbench.go): each runs `iters` operations
// over the given keys and returns a checksum so that nothing is optimized away. Split
// timings, where a loop has two phases, come from CLOCK_MONOTONIC around each phase.
#include "bench.h"

#include <pthread.h>
#include <stdlib.h>
#include <time.h>

static inline uint64_t now_ns(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ULL + (uint64_t)ts.tv_nsec;
}

// The page the search for key passes through at level (0 = leaf), found by a descent that
// latches nothing (setup only).
uint32_t cb_tree_page_at(cb_tree *t, int32_t key, int level)
{
	byte kb[8];
	cb_dtuple tuple;
	cb_key_tuple(t, key, kb, &tuple);
	rec_offs offsets[REC_OFFS_NORMAL_SIZE];
	uint32_t page_no = t->root;
	for (;;) {
		const byte *page = t->arena + (size_t)page_no * PAGE_SIZE;
		int lv = (int)page_header_get(page, PAGE_LEVEL);
		if (lv == level) return page_no;
		cb_cursor cur = {0};
		page_cur_search_with_match(page, &t->index, &tuple, PAGE_CUR_L, &cur);
		rec_get_offsets(cur.rec, &t->index, offsets, 0, 64);
		uint32_t len;
		page_no = mach_read_4(rec_get_nth_field(cur.rec, offsets, t->index.n_uniq, &len));
	}
}

// buf_page_get_gen + mtr commit for each page: a page access without the search in it.
uint64_t cb_bench_page_get(cb_tree *t, const uint32_t *pages, long n, long iters)
{
	uint64_t sum = 0;
	for (long i = 0; i < iters; i++) {
		cb_mtr mtr = {.n = 0};
		cb_block *b = cb_page_get(t, pages[i % n], 0, &mtr);
		sum += b->frame[PAGE_HEADER + PAGE_LEVEL + 1];
		cb_mtr_commit(t, &mtr);
	}
	return sum;
}

// page_cur_search_with_match on the page each key's descent passes at a level: the search
// alone, no latching. bytes: the leaf variant MariaDB uses with the AHI on.
uint64_t cb_bench_page_search(cb_tree *t, const uint32_t *pages, const int32_t *keys, long n, long iters,
			      int bytes, uint64_t *cmps)
{
	uint64_t sum = 0, c = 0;
	for (long i = 0; i < iters; i++) {
		byte kb[8];
		cb_dtuple tuple;
		long j = i % n;
		cb_key_tuple(t, keys[j], kb, &tuple);
		const byte *page = t->arena + (size_t)pages[j] * PAGE_SIZE;
		cb_cursor cur = {0};
		int leaf = page_is_leaf(page);
		if (bytes) page_cur_search_with_match_bytes(page, &t->index, &tuple, PAGE_CUR_GE, &cur);
		else page_cur_search_with_match(page, &t->index, &tuple, leaf ? PAGE_CUR_GE : PAGE_CUR_L, &cur);
		sum += page_offset(cur.rec);
		c += cur.cmps;
	}
	*cmps = c;
	return sum;
}

// A point lookup: a descent (or, with guess, the AHI's guess first and the descent only when it
// fails), then with_row the point select's row work, then the mtr commit. ahi_on: the AHI is
// enabled, so a descent searches the leaf bytewise and updates the search info.
uint64_t cb_bench_point(cb_tree *t, cb_ahi *a, int guess, int ahi_on, const int32_t *keys, long n, long iters,
			int with_row, uint64_t *hits)
{
	uint64_t sum = 0, h = 0;
	byte mysql_rec[1024];
	for (long i = 0; i < iters; i++) {
		byte kb[8];
		cb_dtuple tuple;
		cb_key_tuple(t, keys[i % n], kb, &tuple);
		cb_mtr mtr = {.n = 0};
		cb_cursor cur = {0};
		cb_block *leaf = NULL;
		const byte *rec = NULL;
		if (guess > 1) a->info.last_hash_succ = 1; // measure the guess itself: always try it
		if (guess && cb_ahi_guess(t, a, &tuple, &mtr, &rec)) {
			h++;
			cur.up_match = 1;
		} else {
			cb_search_leaf(t, &tuple, PAGE_CUR_GE, ahi_on, &mtr, &cur, &leaf);
			rec = cur.rec;
			if (ahi_on && a) cb_ahi_info_update(t, a, leaf, &cur); // a build it recommends is not made here
		}
		if (with_row) sum += cb_point_row(t, rec, &cur, TEMPL_C, mysql_rec);
		else sum += page_offset(rec);
		cb_mtr_commit(t, &mtr);
	}
	*hits = h;
	return sum;
}

typedef struct {
	cb_tree *t;
	const int32_t *keys;
	long n, iters, offset;
	uint64_t cpu_ns, sum;
} mt_arg;

static void *descend_thread(void *p)
{
	mt_arg *a = p;
	struct timespec s, e;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &s);
	uint64_t h;
	a->sum = cb_bench_point(a->t, NULL, 0, 0, a->keys + a->offset, a->n - a->offset, a->iters, 1, &h);
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &e);
	a->cpu_ns = (uint64_t)(e.tv_sec - s.tv_sec) * 1000000000ULL + (uint64_t)(e.tv_nsec - s.tv_nsec);
	return NULL;
}

// Point selects by descent from nthreads threads at once on the same tree: the index latch,
// the root's and upper pages' latch and fix words are shared cache lines, written by every
// descent. Returns the threads' CPU time in ns (CLOCK_THREAD_CPUTIME_ID), summed.
uint64_t cb_bench_point_mt(cb_tree *t, const int32_t *keys, long n, long iters, int nthreads)
{
	pthread_t th[16];
	mt_arg args[16];
	for (int i = 0; i < nthreads; i++) {
		args[i] = (mt_arg){t, keys, n, iters, (n / nthreads) * i, 0, 0};
		pthread_create(&th[i], NULL, descend_thread, &args[i]);
	}
	uint64_t cpu = 0;
	for (int i = 0; i < nthreads; i++) {
		pthread_join(th[i], NULL);
		cpu += args[i].cpu_ns;
	}
	return cpu;
}

// Build the hash index of every leaf page (setup, and the build benchmark's steady state).
void cb_ahi_build_all(cb_tree *t, cb_ahi *a)
{
	for (uint32_t p = t->first_leaf; p < t->first_leaf + t->n_leaves; p++) cb_ahi_build_page(t, a, &t->blocks[p]);
}

// Drop and rebuild the hash index of leaf pages[i]: ns per page of each, summed.
uint64_t cb_bench_ahi_drop_build(cb_tree *t, cb_ahi *a, const uint32_t *pages, long n, long iters, uint64_t *drop_ns,
				 uint64_t *build_ns)
{
	uint64_t d = 0, b = 0;
	for (long i = 0; i < iters; i++) {
		cb_block *blk = &t->blocks[pages[i % n]];
		uint64_t t0 = now_ns();
		cb_ahi_drop_page(t, a, blk);
		uint64_t t1 = now_ns();
		cb_ahi_build_page(t, a, blk);
		uint64_t t2 = now_ns();
		d += t1 - t0;
		b += t2 - t1;
	}
	*drop_ns = d;
	*build_ns = b;
	return a->part.heap_top;
}

// The hash maintenance of a record's delete and re-insert on a hashed leaf: the delete
// removes its node (btr_search_update_hash_on_delete, as purge's or a key update's), the
// insert adds it back and refreshes the next record's (btr_search_update_hash_on_insert).
uint64_t cb_bench_ahi_del_ins(cb_tree *t, cb_ahi *a, const int32_t *keys, long n, long iters, uint64_t *del_ns,
			      uint64_t *ins_ns)
{
	uint64_t d = 0, in = 0;
	for (long i = 0; i < iters; i++) {
		byte kb[8];
		cb_dtuple tuple;
		cb_key_tuple(t, keys[i % n], kb, &tuple);
		cb_mtr mtr = {.n = 0};
		cb_cursor cur = {0};
		cb_block *leaf = NULL;
		cb_search_leaf(t, &tuple, PAGE_CUR_GE, 0, &mtr, &cur, &leaf);
		const byte *rec = cur.rec, *prev = page_rec_get_prev(rec);
		uint64_t t0 = now_ns();
		cb_ahi_update_on_delete(t, a, leaf, rec);
		uint64_t t1 = now_ns();
		cb_ahi_update_on_insert(t, a, leaf, prev);
		uint64_t t2 = now_ns();
		cb_mtr_commit(t, &mtr);
		d += t1 - t0;
		in += t2 - t1;
	}
	*del_ns = d;
	*ins_ns = in;
	return a->part.heap_top;
}

uint64_t cb_bench_ahi_latch(cb_ahi *a, long iters)
{
	for (long i = 0; i < iters; i++) cb_ahi_latch_pair(a);
	return atomic_load(&a->part.readers);
}

// A range of n_rows from each key: positioning by descent (timed apart), then the rows.
uint64_t cb_bench_range(cb_tree *t, const int32_t *keys, long n, long iters, long n_rows, int templ,
			uint64_t *pos_ns, uint64_t *rows_ns)
{
	uint64_t sum = 0, p = 0, r = 0;
	byte mysql_rec[1024];
	for (long i = 0; i < iters; i++) {
		byte kb[8];
		cb_dtuple tuple;
		cb_key_tuple(t, keys[i % n], kb, &tuple);
		cb_mtr mtr = {.n = 0};
		cb_cursor cur = {0};
		cb_block *leaf = NULL;
		uint64_t t0 = now_ns();
		cb_search_leaf(t, &tuple, PAGE_CUR_GE, 0, &mtr, &cur, &leaf);
		uint64_t t1 = now_ns();
		sum += cb_range_rows(t, &mtr, leaf, cur.rec, n_rows, templ, mysql_rec, NULL);
		cb_mtr_commit(t, &mtr);
		uint64_t t2 = now_ns();
		p += t1 - t0;
		r += t2 - t1;
	}
	*pos_ns = p;
	*rows_ns = r;
	return sum;
}

// One statement kind's undo + redo records and mini-transaction commits, on the record of
// each key in turn (found at setup, so the loop is the log work alone). Returns redo bytes
// appended.
uint64_t cb_bench_stmt_log(cb_tree *t, cb_log *lg, int kind, const int32_t *keys, long n, long iters, int made_dirty)
{
	byte newc[2][180];
	uint64_t s = 7;
	for (int v = 0; v < 2; v++)
		for (int i = 0; i < 180; i++) {
			s = s * 6364136223846793005ULL + 1442695040888963407ULL;
			newc[v][i] = (i % 12 == 11) ? '-' : (byte)('0' + (s >> 33) % 10);
		}
	byte **recs = malloc((size_t)n * sizeof *recs);
	for (long i = 0; i < n; i++) {
		byte kb[8];
		cb_dtuple tuple;
		cb_key_tuple(t, keys[i], kb, &tuple);
		byte *page = t->arena + (size_t)cb_tree_page_at(t, keys[i], 0) * PAGE_SIZE;
		cb_cursor cur = {0};
		page_cur_search_with_match(page, &t->index, &tuple, PAGE_CUR_GE, &cur);
		recs[i] = (byte *)cur.rec;
	}
	uint64_t b0 = lg->bytes;
	for (long i = 0; i < iters; i++) {
		byte *rec = recs[i % n];
		cb_stmt_log(lg, kind, (byte *)page_align(rec), rec, newc[(i / n) & 1], made_dirty); // a new c each visit
	}
	free(recs);
	return lg->bytes - b0;
}

// PAUSE, the instruction InnoDB's spin loops are made of (MY_RELAX_CPU).
uint64_t cb_bench_pause(long iters)
{
	for (long i = 0; i < iters; i++) __builtin_ia32_pause();
	return (uint64_t)iters;
}

// mysys/my_cpu.c my_cpu_init: two runs of 16 PAUSEs between RDTSCs; if both take more than 30
// cycles a PAUSE, my_cpu_relax_multiplier is 100, else 200. ut_delay(d) and srw_pause spin
// my_cpu_relax_multiplier / 4 * d PAUSEs.
unsigned cb_relax_multiplier(void)
{
	uint64_t t0 = __builtin_ia32_rdtsc();
	for (int i = 0; i < 16; i++) __builtin_ia32_pause();
	uint64_t t1 = __builtin_ia32_rdtsc();
	for (int i = 0; i < 16; i++) __builtin_ia32_pause();
	uint64_t t2 = __builtin_ia32_rdtsc();
	return (t2 - t1 > 30 * 16 && t1 - t0 > 30 * 16) ? 100 : 200;
}

// The id of the record a lookup of key positions on (-1 if none), by the AHI's guess when
// guess and it succeeds (*hit), else by a descent; and the ids of the n records a range from
// it reads into ids (range_ids).
int32_t cb_lookup_id(cb_tree *t, cb_ahi *a, int guess, int32_t key, int *hit)
{
	byte kb[8];
	cb_dtuple tuple;
	cb_key_tuple(t, key, kb, &tuple);
	cb_mtr mtr = {.n = 0};
	cb_cursor cur = {0};
	cb_block *leaf = NULL;
	const byte *rec = NULL;
	*hit = 0;
	if (guess) a->info.last_hash_succ = 1;
	if (guess && cb_ahi_guess(t, a, &tuple, &mtr, &rec)) {
		*hit = 1;
	} else {
		if (cb_search_leaf(t, &tuple, PAGE_CUR_GE, 0, &mtr, &cur, &leaf)) return -1;
		rec = cur.rec;
		if (page_offset(rec) == PAGE_NEW_SUPREMUM) {
			// the key is its page's first: the descent (non-leaf mode PAGE_CUR_L) ends on
			// the previous leaf's supremum; move to the next user record
			uint32_t np = mach_read_4(leaf->frame + FIL_PAGE_NEXT);
			if (np == 0xFFFFFFFF) return -1;
			cb_mtr_release_last(&mtr);
			leaf = cb_page_get(t, np, 0, &mtr);
			rec = page_rec_get_next(leaf->frame + PAGE_NEW_INFIMUM);
		}
	}
	int32_t id = -1;
	if (rec && rec_get_status(rec) == REC_STATUS_ORDINARY) id = (int32_t)(mach_read_4(rec) ^ 0x80000000u);
	cb_mtr_commit(t, &mtr);
	for (int i = 0; i < mtr.n; i++) id = -2; // a latch left held
	if (atomic_load(&t->index_lock) != 0) id = -3;
	return id;
}

// The ids a range of n rows from key returns (cb_range_rows with the whole-row template: id
// is the MySQL record's first column).
long cb_range_ids(cb_tree *t, int32_t key, long n, int32_t *ids)
{
	byte kb[8], mysql_rec[1024];
	cb_dtuple tuple;
	cb_key_tuple(t, key, kb, &tuple);
	cb_mtr mtr = {.n = 0};
	cb_cursor cur = {0};
	cb_block *leaf = NULL;
	if (cb_search_leaf(t, &tuple, PAGE_CUR_GE, 0, &mtr, &cur, &leaf)) return -1;
	for (long i = 0; i < n; i++) ids[i] = -1;
	cb_range_rows(t, &mtr, leaf, cur.rec, n, TEMPL_ROW, mysql_rec, ids);
	cb_mtr_commit(t, &mtr);
	return n;
}

uint64_t cb_bench_mtr(cb_log *lg, unsigned n, long iters, int made_dirty)
{
	uint64_t b0 = lg->bytes;
	for (long i = 0; i < iters; i++) cb_mtr_write(lg, n, made_dirty);
	return lg->bytes - b0;
}

// The structure page_validate checks, on every page of t: the record list runs from the
// infimum to the supremum through PAGE_N_RECS records in key order, the directory slots point
// at records in list order whose n_owned add up to the records plus infimum and supremum.
// Returns the number of pages that fail.
long cb_tree_check(cb_tree *t)
{
	long bad = 0;
	rec_offs o1[REC_OFFS_NORMAL_SIZE], o2[REC_OFFS_NORMAL_SIZE];
	for (size_t p = 0; p < t->n_pages; p++) {
		const byte *page = t->arena + p * PAGE_SIZE;
		int leaf = page_is_leaf(page);
		unsigned n = 0, owned = 0, slot = 0, n_slots = page_dir_get_n_slots(page);
		const byte *r = page + PAGE_NEW_INFIMUM, *prev = NULL;
		int ok = 1;
		for (;;) {
			owned += rec_get_n_owned(r);
			if (rec_get_n_owned(r)) {
				if (slot >= n_slots || mach_read_2(page_dir_get_nth_slot(page, slot)) != page_offset(r)) ok = 0;
				slot++;
			}
			if (page_offset(r) == PAGE_NEW_SUPREMUM) break;
			const byte *nx = page_rec_get_next(r);
			if (!nx) { ok = 0; break; }
			if (page_offset(nx) != PAGE_NEW_SUPREMUM) {
				n++;
				if (prev && !(rec_get_info_bits(nx) & REC_INFO_MIN_REC_FLAG)) {
					rec_get_offsets(prev, &t->index, o1, leaf, t->index.n_uniq);
					rec_get_offsets(nx, &t->index, o2, leaf, t->index.n_uniq);
					if (memcmp(prev, nx, (size_t)(rec_offs_base(o1)[t->index.n_uniq - 1] & REC_OFFS_MASK)) >= 0) ok = 0;
				}
				prev = nx;
			}
			r = nx;
		}
		if (!ok || n != page_header_get(page, PAGE_N_RECS) || owned != n + 2 || slot != n_slots) bad++;
	}
	return bad;
}
