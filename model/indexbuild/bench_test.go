package indexbuild

import (
	"runtime"
	"testing"
	"time"
)

// BenchmarkBuild8BAllAtOnce simulates the reference's largest point on the 80c-256g profile
// (page cache of a 180 GiB-pool server included): 8 billion rows, three indexes in one
// ALTER, 4 DDL threads, 2 GiB buffer. It reports the wall time and the bytes allocated per
// simulated build, and the simulated build time.
//
//	go test ./model/indexbuild -run '^$' -bench 8B -count 5
func BenchmarkBuild8BAllAtOnce(b *testing.B) {
	benchBuild(b, 2*gib)
}

// BenchmarkBuild8BAllAtOnce32M is the same at a 32 MiB buffer: more runs, 15 merge passes.
func BenchmarkBuild8BAllAtOnce32M(b *testing.B) {
	benchBuild(b, 32*mib)
}

func benchBuild(b *testing.B, buf int64) {
	b.ReportAllocs()
	sp := ibSpec(8_000_000_000)
	sp.BufferSize = buf
	profileEnv(b, studyProfile, studyPool).s.Close() // load the profile outside the timing
	var r Result
	var m0, m1 runtime.MemStats
	runtime.ReadMemStats(&m0)
	start := time.Now()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		r = runWith(b, profileEnv(b, studyProfile, studyPool), sp)
	}
	b.StopTimer()
	wall := time.Since(start)
	runtime.ReadMemStats(&m1)
	if r.Failed {
		b.Fatal(r.Reason)
	}
	b.ReportMetric(wall.Seconds()/float64(b.N), "wall-s/build")
	b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N), "alloc-B/build")
	b.ReportMetric(secs(r.Duration()), "sim-s")
	b.ReportMetric(float64(r.MergePasses), "passes")
}
