// Package workload generates the client load: sysbench 1.0's oltp_* scripts, TPC-C as
// tpcc-mysql drives it, and a client that loops connect → temp-table statement → disconnect.
//
// Each statement becomes what the server does for it: a statement's fixed CPU, per-row CPU,
// and the B-tree page accesses (root-to-leaf descents, leaf scans, undo pages) on the server
// thread, which may wait for mutexes, I/O and cores. Sources: sysbench 1.0 oltp_common.lua and
// oltp_read_write.lua; tpcc-mysql's driver (neword.c, payment.c, ordstat.c, delivery.c,
// slev.c); reference/workloads.md. What is simplified is listed in docs/model.md.
package workload
