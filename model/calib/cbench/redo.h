#ifndef CBENCH_REDO_H
#define CBENCH_REDO_H

#include <pthread.h>

#include "btree.h"

// A mini-transaction's log (mtr_t::m_log, flat here) and the last page it wrote.
typedef struct {
	byte buf[2048];
	size_t len;
	const void *last_page;
	unsigned last_offset;
} cb_log_mtr;

enum { CB_LOG_PAGES = 4 };

// log_sys: the log buffer, its latch and LSN; the flush list's mutex; the pages a statement
// writes besides the clustered leaf (an undo page, a secondary leaf, an undo/rseg header).
typedef struct {
	byte *buf;
	size_t buf_size;
	_Atomic uint32_t latch;
	_Atomic uint64_t lsn_offset;
	pthread_mutex_t flush_list_mutex;
	uint64_t flush_list_len;
	byte *flush_head;
	byte *pages[CB_LOG_PAGES];
	byte *undo;
	uint64_t undo_no;
	uint64_t bytes; // redo bytes appended (records + end marker + CRC)
} cb_log;

enum { STMT_UPDATE_NONKEY = 0, STMT_UPDATE_KEY = 1, STMT_DELETE = 2, STMT_INSERT = 3, STMT_COMMIT = 4,
       STMT_INSERT_NEW = 5 };

cb_log *cb_log_create(size_t buf_size);
void cb_log_free(cb_log *lg);
void cb_mtr_log_commit(cb_log *lg, cb_log_mtr *m, byte **pages, int n_pages, int made_dirty);
void cb_stmt_log(cb_log *lg, int kind, byte *rec_page, byte *rec, const byte *newc, int made_dirty);

void cb_mtr_write(cb_log *lg, unsigned n, int made_dirty);

#endif
