// Package cbench holds C transcriptions of the InnoDB loops whose per-operation CPU the cost
// model charges (B-tree descent, adaptive hash index, row fetch, undo and redo records), and
// the Go calls that run them. It is measurement code for model/calib's benchmarks, not model:
// each C routine names the server function it follows (MariaDB 10.11 storage/innobase, with
// MySQL 8.0's differences in comments). The C runs whole loops per call, so cgo's call cost
// (~100 ns) is paid once per benchmark run, not per operation.
//
// Without cgo (CGO_ENABLED=0) the package has only this file and Available is false; the
// benchmarks skip.
package cbench
