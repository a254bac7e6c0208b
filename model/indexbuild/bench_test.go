package indexbuild

import (
	"testing"
	"time"
)

// BenchmarkBuild8BAllAtOnce simulates the reference's largest point: 8 billion rows, three
// indexes in one ALTER, 4 DDL threads, 2 GiB buffer. It reports wall seconds per simulated
// build and the simulated build time.
func BenchmarkBuild8BAllAtOnce(b *testing.B) {
	benchBuild(b, 2*gib)
}

// BenchmarkBuild8BAllAtOnce32M is the same at a 32 MiB buffer: 16 merge passes per file.
func BenchmarkBuild8BAllAtOnce32M(b *testing.B) {
	benchBuild(b, 32*mib)
}

func benchBuild(b *testing.B, buf int64) {
	b.ReportAllocs()
	sp := ibSpec(8_000_000_000)
	sp.BufferSize = buf
	var r Result
	start := time.Now()
	for i := 0; i < b.N; i++ {
		r = runBuild(b, sp)
	}
	b.ReportMetric(time.Since(start).Seconds()/float64(b.N), "wall-s/build")
	b.ReportMetric(secs(r.Duration()), "sim-s")
	b.ReportMetric(float64(r.MergePasses), "passes")
}
