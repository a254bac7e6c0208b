// Package indexbuild models an InnoDB (or MyRocks) secondary-index build — CREATE INDEX, and
// the index part of OPTIMIZE TABLE / ALTER ... FORCE — as simulated work on the sim kernel:
// CPU on sim.Cores, sequential I/O on the data and temp sim.Devices, optional page-level work
// through the server's buffer pool (Pool).
//
// Three code paths, chosen by Spec.Version and Spec.Engine, follow the real sources:
//
//   - MySQL 8.0.27+ (storage/innobase/ddl/ddl0*.cc): the clustered index is scanned by
//     innodb_parallel_read_threads scan threads (Parallel_cursor::scan); each scan thread owns
//     one key buffer and one temp file per index being built, with the buffer share
//     innodb_ddl_buffer_size / (scan threads × indexes) minus the I/O buffer
//     (Context::scan_buffer_size); a full key buffer is merge-sorted in memory and appended to
//     the thread's file as a run (Builder::bulk_add_row). After the scan a task queue served
//     by innodb_ddl_threads threads (Loader::Task_queue) runs, per index, one 2-way multi-pass
//     merge task per scan-thread file (Merge_file_sort, N_WAY_MERGE = 2) and then ONE bulk
//     load task (Builder::btree_build) that k-way merges the thread files into Btree_load.
//     So the load of one index is serial, and the load-phase parallelism is at most the
//     number of indexes in the statement.
//   - MySQL before 8.0.27 (row/row0merge.cc): a single-threaded scan fills one
//     innodb_sort_buffer_size buffer per index; each full buffer is sorted and written as one
//     block-sized run; then, index by index on the DDL thread, a 2-way multi-pass merge
//     (row_merge_sort) and the bulk load (row_merge_insert_index_tuples).
//   - MyRocks (storage/rocksdb/rdb_index_merge.cc): a single-threaded scan feeds each index's
//     Rdb_index_merge: an offset tree over a rocksdb_merge_buf_size buffer, written sorted as
//     one chunk per full buffer (with an fsync); then, index by index, ONE k-way heap merge
//     over all chunks, each chunk read rocksdb_merge_combine_read_size / chunks bytes at a
//     time, feeding the SST file writer.
//
// Scale: nothing is allocated per row or per page. A run, a merge pass and a load are
// simulated in chunks of about Spec.ChunkBytes of data (a few thousand events for an
// 8-billion-row table), with the exact run count, pass count and byte totals computed by
// arithmetic from the same rules the real code uses. See docs/indexbuild.md.
//
// What is NOT here: the flush-observer flush at the end of the statement and the online row
// log apply are the server model's (the caller runs them after Build returns).
package indexbuild
