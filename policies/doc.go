// Package policies holds the buffer-pool maintenance policies: how the pool gets rid of, or
// writes out, one tablespace's or one flush observer's pages when a DDL asks. One file per
// policy; each is one entry of registry.go's table, which the assembly installs (runner.Schema).
//
//   - fullscan: community MySQL 8.0 before 8.0.23 (whole-list walks, restart from the tail).
//   - lazy:     8.0.23+ (WL#14100 space versions: drop/truncate do not scan; flushes still do).
//   - indexed:  the cloud vendor's "Faster DDL" as reference/innodb.md §6 infers it: a
//     per-tablespace / per-observer page index, batch flushes, short mutex holds.
//
// See docs/policies.md for how to write one.
package policies
