#ifndef CBENCH_ROW_H
#define CBENCH_ROW_H

#include "btree.h"

enum { TEMPL_C = 0, TEMPL_K = 1, TEMPL_ROW = 2 };
uint64_t cb_point_row(cb_tree *t, const byte *rec, const cb_cursor *cur, int templ_kind, byte *mysql_rec);
uint64_t cb_range_rows(cb_tree *t, cb_mtr *mtr, cb_block *leaf, const byte *rec, long n_rows, int templ_kind,
		       byte *mysql_rec, int32_t *ids);

#endif
