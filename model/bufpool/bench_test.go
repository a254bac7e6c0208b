package bufpool

import (
	"math/rand/v2"
	"runtime"
	"testing"
	"time"
)

// fill installs frames pages spread over 64 spaces, in shuffled order so LRU and space
// links point all over memory as they do after a long run, and returns their ids.
func fill(in *Instance, rng *rand.Rand) []PageID {
	n := in.Frames()
	ids := make([]PageID, n)
	for i := range ids {
		ids[i] = MakePageID(uint32(i%64), uint32(i/64))
	}
	rng.Shuffle(n, func(i, j int) { ids[i], ids[j] = ids[j], ids[i] })
	for _, p := range ids {
		in.AddToLRU(in.TakeFree(), p, true)
	}
	return ids
}

// BenchmarkHit is the simulator's hot path: page-hash lookup plus Touch of a resident page
// picked at random on a 3 M-frame instance (48 GiB of 16 KiB pages), after eviction has
// started so the make-young test runs in full.
func BenchmarkHit(b *testing.B) {
	const frames = 3 << 20
	in := New(frames, DefaultOldPct)
	rng := rand.New(rand.NewPCG(1, 2))
	fill(in, rng)
	in.freedClock = 1
	// Keys are computed, not loaded, so the benchmark touches only the pool's memory:
	// frame i of fill holds MakePageID(i%64, i/64); an LCG picks i uniformly.
	x := uint64(12345)
	b.ResetTimer()
	moved := 0
	for i := 0; i < b.N; i++ {
		x = x*6364136223846793005 + 1442695040888963407
		k := uint32((x >> 32) * frames >> 32)
		f := in.Lookup(MakePageID(k%64, k/64))
		if in.Touch(f, uint32(i>>10)) {
			moved++
		}
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "hits/s")
	_ = moved
}

// BenchmarkMissCycle is a page miss on a full pool: eviction search from the LRU tail,
// Remove, then AddToLRU of the new page at the midpoint.
func BenchmarkMissCycle(b *testing.B) {
	const frames = 1 << 20
	in := New(frames, DefaultOldPct)
	rng := rand.New(rand.NewPCG(3, 4))
	fill(in, rng)
	next := uint32(1 << 20)
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		f, _ := in.EvictCandidate(SearchScanDefault)
		in.Remove(f, true)
		f = in.TakeFree()
		in.AddToLRU(f, MakePageID(100+uint32(i&63), next), true)
		next++
	}
	b.ReportMetric(float64(b.N)/b.Elapsed().Seconds(), "misses/s")
}

// BenchmarkDirtyCycle marks a random resident page dirty and cleans the oldest one, the
// steady state of a write workload with page cleaners.
func BenchmarkDirtyCycle(b *testing.B) {
	const frames = 1 << 20
	in := New(frames, DefaultOldPct)
	rng := rand.New(rand.NewPCG(5, 6))
	fill(in, rng)
	lsn := uint64(1)
	for i := 0; i < frames/2; i++ {
		in.MarkDirty(FrameID(rng.IntN(frames)), lsn)
		lsn++
	}
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if in.MarkDirty(FrameID(rng.IntN(frames)), lsn) {
			in.MarkClean(in.FlushOldest())
		}
		lsn++
	}
}

// BenchmarkBuild measures New plus filling a 2 M-frame instance, and its memory per frame
// all-in (frames, hash, lists, order statistics, space records).
func BenchmarkBuild(b *testing.B) {
	const frames = 2 << 20
	var perFrame, newMs float64
	for i := 0; i < b.N; i++ {
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		t0 := time.Now()
		in := New(frames, DefaultOldPct)
		newMs = float64(time.Since(t0).Microseconds()) / 1000
		rng := rand.New(rand.NewPCG(7, 8))
		fill(in, rng)
		runtime.GC()
		runtime.ReadMemStats(&after)
		// Exclude fill's temporary id slice, which the GC has freed by now.
		perFrame = float64(after.HeapAlloc-before.HeapAlloc) / frames
		runtime.KeepAlive(in)
	}
	b.ReportMetric(perFrame, "bytes/frame")
	b.ReportMetric(newMs, "New-ms")
}
