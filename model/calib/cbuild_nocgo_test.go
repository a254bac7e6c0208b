//go:build !cgo

package calib

import "testing"

// Without cgo the C benchmarks of cbuild_bench_test.go are not compiled; these say so.

func skipNoC(b *testing.B) {
	b.Skip("the C benchmarks need cgo and a C compiler (CGO_ENABLED=1, cc on PATH); only the Go analogues run")
}

func BenchmarkCKeyCompare(b *testing.B)    { skipNoC(b) }
func BenchmarkCKeySortBuffer(b *testing.B) { skipNoC(b) }
func BenchmarkCMergeRun(b *testing.B)      { skipNoC(b) }
func BenchmarkCPageAppend(b *testing.B)    { skipNoC(b) }
func BenchmarkCScan(b *testing.B)          { skipNoC(b) }
func BenchmarkCLoadCursor(b *testing.B)    { skipNoC(b) }
