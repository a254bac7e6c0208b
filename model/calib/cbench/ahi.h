#ifndef CBENCH_AHI_H
#define CBENCH_AHI_H

#include "btree.h"

// ha_node_t (ha0ha.h, non-debug): 24 bytes.
typedef struct ha_node {
	struct ha_node *next;
	const byte *data;
	uint64_t fold;
} ha_node;

// btr_search_sys_t::partition: its latch (srw_spin_lock), hash table and node heap (one array
// here; the server's heap is a chain of buffer-pool blocks, compacted on delete the same way).
typedef struct {
	_Atomic uint32_t readers;
	_Atomic uint32_t writer;
	size_t n_cells;
	ha_node **cells;
	ha_node *heap;
	size_t heap_top, heap_cap;
	uint64_t visits; // chain nodes visited (instrumentation)
} cb_ahi_part;

// btr_search_t: the index's search info, written by every search without a latch.
typedef struct {
	uint32_t hash_analysis;
	uint32_t n_hash_potential;
	uint16_t n_fields, n_bytes;
	uint8_t left_side, last_hash_succ;
} btr_search_info;

typedef struct {
	cb_ahi_part part; // the tree's index's partition
	btr_search_info info;
} cb_ahi;

cb_ahi *cb_ahi_create(size_t cells_per_part, size_t max_nodes);
void cb_ahi_free(cb_ahi *a);
int cb_ahi_guess(cb_tree *t, cb_ahi *a, const cb_dtuple *tuple, cb_mtr *mtr, const byte **out);
int cb_ahi_info_update(cb_tree *t, cb_ahi *a, cb_block *block, const cb_cursor *cur);
void cb_ahi_build_page(cb_tree *t, cb_ahi *a, cb_block *block);
void cb_ahi_drop_page(cb_tree *t, cb_ahi *a, cb_block *block);
void cb_ahi_update_on_insert(cb_tree *t, cb_ahi *a, cb_block *block, const byte *rec);
void cb_ahi_update_on_delete(cb_tree *t, cb_ahi *a, cb_block *block, const byte *rec);
void cb_ahi_latch_pair(cb_ahi *a);

#endif
