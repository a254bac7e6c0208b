#ifndef CBENCH_BENCH_H
#define CBENCH_BENCH_H

#include "ahi.h"
#include "redo.h"
#include "row.h"
#include "build.h"

uint32_t cb_tree_page_at(cb_tree *t, int32_t key, int level);
uint64_t cb_bench_page_get(cb_tree *t, const uint32_t *pages, long n, long iters);
uint64_t cb_bench_page_search(cb_tree *t, const uint32_t *pages, const int32_t *keys, long n, long iters,
			      int bytes, uint64_t *cmps);
uint64_t cb_bench_point(cb_tree *t, cb_ahi *a, int guess, int ahi_on, const int32_t *keys, long n, long iters,
			int with_row, uint64_t *hits);
uint64_t cb_bench_point_mt(cb_tree *t, const int32_t *keys, long n, long iters, int nthreads);
void cb_ahi_build_all(cb_tree *t, cb_ahi *a);
uint64_t cb_bench_ahi_drop_build(cb_tree *t, cb_ahi *a, const uint32_t *pages, long n, long iters, uint64_t *drop_ns,
				 uint64_t *build_ns);
uint64_t cb_bench_ahi_del_ins(cb_tree *t, cb_ahi *a, const int32_t *keys, long n, long iters, uint64_t *del_ns,
			      uint64_t *ins_ns);
uint64_t cb_bench_ahi_latch(cb_ahi *a, long iters);
uint64_t cb_bench_range(cb_tree *t, const int32_t *keys, long n, long iters, long n_rows, int templ,
			uint64_t *pos_ns, uint64_t *rows_ns);
uint64_t cb_bench_stmt_log(cb_tree *t, cb_log *lg, int kind, const int32_t *keys, long n, long iters, int made_dirty);

uint64_t cb_bench_pause(long iters);
unsigned cb_relax_multiplier(void);

int32_t cb_lookup_id(cb_tree *t, cb_ahi *a, int guess, int32_t key, int *hit);
long cb_range_ids(cb_tree *t, int32_t key, long n, int32_t *ids);

uint64_t cb_bench_mtr(cb_log *lg, unsigned n, long iters, int made_dirty);

long cb_tree_check(cb_tree *t);

#endif
