// The index build's inner loops (build.c): the key buffer's sort, the merge of sorted runs
// in the temporary-file format, the bulk load into pages, and the clustered scan's per-row
// work (row_build, row_merge_buf_add). Two server families: MariaDB 10.11 / MySQL 8.0.18
// (row0merge.cc, btr0bulk.cc) and MySQL 8.0.27+ (ddl0buffer.cc, ddl0merge.cc,
// ddl0builder.cc, ddl0file-reader.cc, btr0load.cc).
#ifndef CBENCH_BUILD_H
#define CBENCH_BUILD_H

#include "btree.h"

// Index shapes of the sysbench table's secondary indexes.
enum {
	CB_IX_K = 0,       // (k INT, id INT)
	CB_IX_C = 1,       // (c CHAR(120) latin1: fixed length, DATA_CHAR, id INT) - MariaDB 10.11's default
	CB_IX_C_UTF8 = 2,  // (c CHAR(120) utf8mb4: variable length, DATA_MYSQL, id INT) - MySQL 8.0's default
};
// Server families.
enum { CB_ROW0MERGE = 0, CB_DDL80 = 1 };

typedef struct cb_build cb_build;

// A key buffer of n entries of shape ix in random key order, built by row_merge_buf_add's
// copies (dfield array and data duplicated into the buffer's heap), and two runs of n/2 sorted
// entries serialized in the temporary-file format.
cb_build *cb_build_create(int ix, long n, uint64_t seed);
void cb_build_free(cb_build *b);
// Entry i's key bytes (as stored) and id, in the buffer's original order.
void cb_build_entry(cb_build *b, long i, byte *key, unsigned *key_len, int32_t *id);

// The key buffer's in-memory merge sort (UT_SORT_FUNCTION_BODY / ddl::merge_sort), iters
// times from the same unsorted order; returns ns spent sorting (the reset copy not counted)
// and the compares made.
uint64_t cb_bench_key_sort(cb_build *b, int fam, long iters, uint64_t *cmps);
// Whether the key buffer's entries are in order now (after a sort): 0 = yes.
long cb_key_sorted_check(cb_build *b, int32_t *ids_out);

// The merge of the two runs into one, iters times; returns ns. fam CB_ROW0MERGE:
// row_merge_blocks; CB_DDL80: Merge_file_sort::merge_rows with its Merge_cursor.
uint64_t cb_bench_merge(cb_build *b, int fam, long iters);
// 8.0.27+'s Merge_cursor over k sorted runs of the build's entries (1 <= k <= CB_KMERGE_MAX),
// iters times: ns (0 on an error); *cmps += the priority queue's compares of the timed merges.
#define CB_KMERGE_MAX 32
uint64_t cb_bench_kmerge(cb_build *b, int k, long iters, uint64_t *cmps);
// The merged run's records' ids in order (n of them), -1 on a format error.
long cb_merge_ids(cb_build *b, int fam, int32_t *ids_out);

// The bulk load of the merged run into pages, iters times; returns ns. fam CB_ROW0MERGE:
// row_merge_insert_index_tuples + BtrBulk::insert + PageBulk; CB_DDL80: Btree_load::build
// from the Merge_cursor + Page_load (with page_validate at each page commit).
uint64_t cb_bench_load(cb_build *b, int fam, long iters, long *pages);
// page_validate's checks over the loaded leaves (after a cb_bench_load): bad pages; ids_out
// (n) receives the ids in leaf order.
long cb_load_check(cb_build *b, int32_t *ids_out);

// row_merge_read_clustered_index's per-row work over t's leaves (a clustered sysbench tree):
// the cursor step, rec_get_offsets, row_build, then row_merge_buf_add for each of the
// n_ix index shapes; rebuild adds the new clustered index's entry and its bulk insert.
// Returns ns over rows rows (wrapping around the table).
uint64_t cb_bench_scan(cb_tree *t, const int *ix, int n_ix, int rebuild, long rows);
// row_build of the clustered record of row j, then rec_convert_dtuple_to_rec of its clustered
// index entry: 0 when the bytes equal the original record.
long cb_row_build_roundtrip(cb_tree *t, long j);

#endif
