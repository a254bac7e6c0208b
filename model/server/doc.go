// Package server is the simulated mysqld: buffer-pool instances with the mutexes the real code
// takes, simulated threads that access pages, the miss path, page cleaners, the redo log's
// checkpoint age, tablespaces, and the seam where buffer-pool maintenance policies plug in.
//
// Threads are kernel processes (sim.Proc). Page hits are not events: a thread accumulates CPU
// debt inline (Charge) and pays it on a core (Pay) before anything that may block — a mutex,
// an I/O, a sleep — so mutex hold times and queueing are in virtual time while a hit costs a
// few hundred host nanoseconds.
//
// Sources (storage/innobase/ in mysql/mysql-server, 8.0.18 unless noted):
//   - page lookup, make-young:     buf0buf.cc buf_page_get_gen, buf0buf.ic buf_page_peek_if_too_old
//   - miss path:                   buf0lru.cc buf_LRU_get_free_block, buf_LRU_scan_and_free_block,
//     buf0flu.cc buf_flush_single_page_from_LRU; buf0rea.cc buf_read_page
//   - dirtying:                    buf0flu.cc buf_flush_note_modification / insert_into_flush_list
//   - page cleaners:               buf0flu.cc buf_flush_page_coordinator_thread, pc_flush_slot,
//     buf_flush_LRU_list, page_cleaner_flush_pages_recommendation
//   - instance of a page:          buf0buf.h buf_pool_get (fold of space and page_no >> 6)
//
// See docs/model.md for what is simplified.
package server
