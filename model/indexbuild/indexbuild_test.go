package indexbuild

import (
	"fmt"
	"strings"
	"testing"

	"github.com/ddlsim/ddlsim/sim"
)

// Trend tests run the reference's grid at 1 B rows (the smallest size it measured): the
// simulation is aggregated, so a 1 B-row build costs a few milliseconds of wall time.
const trendRows = 1_000_000_000

var threadGrid = []int{1, 2, 4, 8, 12, 16, 32}
var bufferGrid = []int64{32 * mib, 64 * mib, 128 * mib, 256 * mib, 512 * mib, gib, 2 * gib}

func byThreads(t *testing.T, one bool) map[int]float64 {
	out := map[int]float64{}
	for _, th := range threadGrid {
		sp := ibSpec(trendRows)
		sp.Threads, sp.OneAtATime = th, one
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatalf("threads=%d: failed: %s", th, r.Reason)
		}
		out[th] = secs(r.Duration())
		t.Logf("one_at_a_time=%-5v ddl_threads=%2d  %6.0f s  (passes %d, runs %d, peak temp %s)",
			one, th, out[th], r.MergePasses, r.Runs, fmtBytes(r.TempPeakBytes))
	}
	return out
}

func byBuffer(t *testing.T, one bool) map[int64]float64 {
	out := map[int64]float64{}
	for _, bs := range bufferGrid {
		sp := ibSpec(trendRows)
		sp.BufferSize, sp.OneAtATime = bs, one
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatalf("buffer=%s: failed: %s", fmtBytes(bs), r.Reason)
		}
		out[bs] = secs(r.Duration())
		t.Logf("one_at_a_time=%-5v ddl_buffer_size=%-8s %6.0f s  (passes %d, runs %d)",
			one, fmtBytes(bs), out[bs], r.MergePasses, r.Runs)
	}
	return out
}

// All at once, more DDL threads help clearly up to 8 and little beyond: the merge tasks
// (scan threads × indexes = 12 files) and the three load tasks spread over the threads,
// then the scan (parallel_read_threads = 4) and the serial per-index load remain.
func TestThreadsAllAtOnce(t *testing.T) {
	m := byThreads(t, false)
	if r := m[1] / m[8]; r < 2 {
		t.Errorf("1→8 threads: speed-up %.2f, want >= 2", r)
	}
	if r := m[8] / m[32]; r > 1.2 {
		t.Errorf("8→32 threads: speed-up %.2f, want <= 1.2", r)
	}
	for i := 1; i < len(threadGrid); i++ {
		if m[threadGrid[i]] > m[threadGrid[i-1]]*1.001 {
			t.Errorf("threads %d slower than %d", threadGrid[i], threadGrid[i-1])
		}
	}
}

// One at a time, each statement has one index: 4 merge tasks and one serial load, so
// threads matter much less than all at once.
func TestThreadsOneAtATimeMatterLess(t *testing.T) {
	all, one := byThreads(t, false), byThreads(t, true)
	ra, ro := all[1]/all[32], one[1]/one[32]
	if ro >= ra*0.75 {
		t.Errorf("1→32 threads speed-up: one at a time %.2f, all at once %.2f; want one clearly smaller", ro, ra)
	}
	if r := one[4] / one[32]; r > 1.05 {
		t.Errorf("one at a time 4→32 threads: speed-up %.2f, want ~1", r)
	}
}

// All at once, a bigger buffer means longer runs, fewer merge passes: faster, with the gain
// per doubling shrinking once a sort buffer outgrows its share of the CPU cache (its upper
// merge-sort levels then pay a DRAM miss per compare, almost what the merge pass it saves
// cost).
func TestBufferAllAtOnce(t *testing.T) {
	m := byBuffer(t, false)
	for i := 1; i < len(bufferGrid); i++ {
		if m[bufferGrid[i]] > m[bufferGrid[i-1]]*1.001 {
			t.Errorf("buffer %s slower than %s", fmtBytes(bufferGrid[i]), fmtBytes(bufferGrid[i-1]))
		}
	}
	if r := m[32*mib] / m[2*gib]; r < 1.15 {
		t.Errorf("32M→2G: speed-up %.2f, want >= 1.15", r)
	}
	// A doubling saves one merge pass (merge_row + the pass's I/O per entry) and adds one sort
	// level: cached (sort_row) early, missing (list_node here) late, so the late gain is
	// (merge + I/O − miss) / (merge + I/O − sort_row) of the early one, ~0.7 with these costs
	// and the DONTNEED temp I/O (before it and the key-buffer accounting: 232 s vs 82 s; now
	// 205 s vs 149 s). Without the cache-size effect the two gains would be about equal.
	early := m[32*mib] - m[128*mib]
	late := m[512*mib] - m[2*gib]
	if late > 0.8*early {
		t.Errorf("gain 512M→2G %.0f s not clearly below gain 32M→128M %.0f s: no flattening", late, early)
	}
}

// One at a time each statement's single index gets the whole buffer (3× the share), so it
// starts with fewer passes and gains less from a bigger buffer.
func TestBufferOneAtATimeSmaller(t *testing.T) {
	all, one := byBuffer(t, false), byBuffer(t, true)
	ra, ro := all[32*mib]/all[2*gib], one[32*mib]/one[2*gib]
	if ro >= ra {
		t.Errorf("32M→2G speed-up: one at a time %.3f, all at once %.3f; want one smaller", ro, ra)
	}
}

// MyRocks: rocksdb_merge_combine_read_size only sets the read size of the single heap
// merge, which on NVMe is a small share of the time.
func TestMyRocksCombineReadSize(t *testing.T) {
	var ts []float64
	for _, c := range []int64{64 * mib, 256 * mib, gib} {
		sp := ibSpec(trendRows)
		sp.Engine = "myrocks"
		sp.MyRocks.MergeCombineReadSize = c
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatal(r.Reason)
		}
		t.Logf("myrocks merge_combine_read_size=%-8s %6.0f s (chunks %d)", fmtBytes(c), secs(r.Duration()), r.Runs)
		ts = append(ts, secs(r.Duration()))
	}
	if d := ts[0]/ts[2] - 1; d > 0.05 || d < 0 {
		t.Errorf("64M vs 1G combine read size: %.1f%% difference, want 0..5%%", 100*d)
	}
}

// The merge pass count by hand: 8.0.32, 2 MiB ddl buffer, 2 scan threads, 1 index of 23-byte
// entries (24 bytes serialized), 1,000,000 rows. 8.0.32's Key_sort_buffer::will_fit charges
// a dfield_t (24 bytes) per entry on top of the entry's data.
//
//	share = 2 MiB / (2 × 1) = 1 MiB → I/O buffer 512 KiB, key buffer 512 KiB = 524,288 B
//	entries per run = (524,288 − 1) / (23 + 24) = 11,155
//	rows per thread = 500,000 → runs = ceil(500,000 / 11,155) = 45 per file
//	passes = ceil(log2 45) = 6
//	run bytes = align4K(11,155 × 24 + 1) = 270,336; file = 44 × 270,336 + align4K(9,180 × 24 + 1)
//
// The fixed accounting (8.0.41+, 24 bytes per field plus two pointers: 2 × 24 + 16 = 64 per
// entry) gives (524,287) / 87 = 6,026 entries, 83 runs per file, 7 passes.
func TestMergePassesByHand(t *testing.T) {
	key, io := scanBufferSize(2*mib, 2, 1, 16*kib)
	if key != 512*kib || io != 512*kib {
		t.Fatalf("scan buffer: key %d io %d, want 524288 524288", key, io)
	}
	ix := Index{Name: "k", KeyBytes: 23, Fields: 2}
	sp := Spec{Version: "8.0.32"}
	E := entriesPerBuffer(key, ix.KeyBytes+sp.overhead(ix))
	if E != 11155 {
		t.Fatalf("entries per run %d, want 11155", E)
	}
	f := scanFile(500_000, E, ix)
	wantBytes := 44*int64(270_336) + alignUp(9_180*24+1, 4096)
	if f.runs != 45 || f.bytes != wantBytes {
		t.Fatalf("file: %d runs %d bytes, want 45 runs %d bytes", f.runs, f.bytes, wantBytes)
	}
	r := runBuild(t, Spec{Version: "8.0.32", Rows: 1_000_000, RowBytes: 80, Indexes: []Index{ix},
		Threads: 2, BufferSize: 2 * mib, ParallelReadThreads: 2})
	if r.Failed || r.MergePasses != 6 || r.Runs != 90 {
		t.Fatalf("build: passes %d runs %d failed %v %s; want 6 passes, 90 runs", r.MergePasses, r.Runs, r.Failed, r.Reason)
	}
	// Every run is written once by the scan, then 6 passes rewrite each file.
	if want := 2 * wantBytes * 7; r.TempBytesWritten != want {
		t.Errorf("temp bytes written %d, want %d", r.TempBytesWritten, want)
	}
	if p := r.Phase("merge_pass_6", 0); p.End <= p.Start {
		t.Errorf("no merge_pass_6 phase: %+v", r.Phases)
	}
	fixed := runBuild(t, Spec{Version: "8.0.41", Rows: 1_000_000, RowBytes: 80, Indexes: []Index{ix},
		Threads: 2, BufferSize: 2 * mib, ParallelReadThreads: 2})
	if fixed.MergePasses != 7 || fixed.Runs != 166 {
		t.Errorf("8.0.41: passes %d runs %d, want 7 passes, 166 runs", fixed.MergePasses, fixed.Runs)
	}
}

// The I/O-buffer carve-out rule of Context::scan_buffer_size at each threshold.
func TestScanBufferSizeRule(t *testing.T) {
	for _, c := range []struct{ share, io int64 }{
		{4 * mib, mib}, {2 * mib, mib}, {2*mib - 1, 512 * kib}, {mib, 512 * kib},
		{768 * kib, 128 * kib}, {512 * kib, 128 * kib}, {300 * kib, 64 * kib},
		{256 * kib, 64 * kib}, {100 * kib, 32 * kib},
	} {
		key, io := scanBufferSize(c.share*12, 4, 3, 16*kib)
		if io != c.io || key != c.share-c.io {
			t.Errorf("share %d: key %d io %d, want io %d key %d", c.share, key, io, c.io, c.share-c.io)
		}
	}
	if key, _ := scanBufferSize(mib, 4, 3, 16*kib); key != 16*kib { // 87 KiB share > 64 KiB → 32 KiB io
		if key != mib/12-32*kib {
			t.Errorf("1 MiB / 12: key %d", key)
		}
	}
	if key, io := scanBufferSize(120*kib, 4, 3, 16*kib); key != 16*kib || io != 8*kib { // share 10 KiB < page
		t.Errorf("tiny share: key %d io %d, want a page and 8 KiB", key, io)
	}
}

// A build whose sort files outgrow the temp device fails with a reason, and the simulation
// carries on (the DDL proc returns, nothing panics, no proc is left behind).
func TestTempSpaceLimitFails(t *testing.T) {
	sp := ibSpec(trendRows)
	sp.TempSpaceLimit = 40 * gib // the runs alone are ~3 × 23 GB
	r := runBuild(t, sp)
	if !r.Failed || !strings.Contains(r.Reason, "innodb_tmpdir full") {
		t.Fatalf("failed=%v reason=%q, want a temp-space failure", r.Failed, r.Reason)
	}
	ok := ibSpec(trendRows)
	full := runBuild(t, ok)
	if full.Failed {
		t.Fatal(full.Reason)
	}
	ok.TempSpaceLimit = full.TempPeakBytes
	if r := runBuild(t, ok); r.Failed {
		t.Errorf("limit = measured peak %s: failed: %s", fmtBytes(full.TempPeakBytes), r.Reason)
	}
	ok.TempSpaceLimit = full.TempPeakBytes - 1
	if r := runBuild(t, ok); !r.Failed {
		t.Errorf("limit = peak - 1 did not fail")
	}
}

// Memory and open-file limits fail the build the same way.
func TestOtherLimitsFail(t *testing.T) {
	sp := ibSpec(10_000_000)
	sp.MemoryLimit = gib
	if r := runBuild(t, sp); !r.Failed || !strings.Contains(r.Reason, "DB_OUT_OF_MEMORY") {
		t.Errorf("memory: failed=%v %q", r.Failed, r.Reason)
	}
	sp = ibSpec(10_000_000)
	sp.BufferSize = 32 * mib
	sp.MaxOpenFiles = 8 // needs 12 thread files
	if r := runBuild(t, sp); !r.Failed || !strings.Contains(r.Reason, "DB_OUT_OF_RESOURCES") {
		t.Errorf("open files: failed=%v %q", r.Failed, r.Reason)
	}
}

// The pre-8.0.27 build (row0merge.cc) is single-threaded: innodb_ddl_threads changes
// nothing, innodb_sort_buffer_size sets the run size.
func TestLegacySingleThreaded(t *testing.T) {
	sp := ibSpec(50_000_000)
	sp.Version = "8.0.18"
	sp.Threads = 1
	a := runBuild(t, sp)
	sp.Threads = 32
	b := runBuild(t, sp)
	if a.Failed || b.Failed || a.Duration() != b.Duration() {
		t.Fatalf("8.0.18: %v vs %v (%s %s)", a.Duration(), b.Duration(), a.Reason, b.Reason)
	}
	// 1 MiB blocks, 18/22/23-byte entries: (1,048,574 / size) = 58,254 / 47,662 / 45,590
	// entries per run → 859 + 1,050 + 1,097 runs; ceil(log2 1,097) = 11 passes.
	if a.Runs != 859+1050+1097 || a.MergePasses != 11 {
		t.Errorf("8.0.18: runs %d passes %d", a.Runs, a.MergePasses)
	}
	if ph := a.Phase("load", 2); ph.End == 0 || ph.Start < a.Phase("load", 1).End {
		t.Errorf("8.0.18 loads must run one after another: %+v", a.Phases)
	}
}

// With a pool the build reads leaves and creates pages through it; what the pool leaves to
// the build (here every other call's pages) is read from Data and written back in aggregate.
type countingPool struct {
	leaves, pages, restLeaves, restPages int64
	calls                                int
	leave                                bool
}

func (c *countingPool) ReadLeaves(p *sim.Proc, from, n int64) int64 {
	c.calls++
	if c.leave && c.calls%2 == 0 {
		c.restLeaves += n
		return n
	}
	c.leaves += n
	p.Sleep(sim.Time(n))
	return 0
}

func (c *countingPool) NewPages(p *sim.Proc, index int, n int64) int64 {
	c.calls++
	if c.leave && c.calls%2 == 0 {
		c.restPages += n
		return n
	}
	c.pages += n
	p.Sleep(sim.Time(n))
	return 0
}

func TestPoolMode(t *testing.T) {
	for _, leave := range []bool{false, true} {
		te := newTestEnv()
		pool := &countingPool{leave: leave}
		te.env.Pool = pool
		sp := ibSpec(10_000_000)
		var r Result
		te.s.Spawn("ddl", "ddl", func(p *sim.Proc) { r = Build(p, te.env, sp) })
		te.s.Run(sim.Time(1 << 62))
		read := int64(te.env.Data.Stats().Bytes[sim.Read])
		te.s.Close()
		sp2, _ := sp.withDefaults(&te.env)
		if pool.leaves+pool.restLeaves != sp2.PKLeafPages || pool.pages+pool.restPages != r.PagesBuilt || r.PagesBuilt == 0 {
			t.Errorf("leave %v: pool saw %d+%d leaves (want %d), %d+%d pages (built %d)", leave,
				pool.leaves, pool.restLeaves, sp2.PKLeafPages, pool.pages, pool.restPages, r.PagesBuilt)
		}
		if r.PagesWrittenBack != pool.restPages || read != pool.restLeaves*te.env.PageSize {
			t.Errorf("leave %v: written back %d pages, want %d; read %d bytes from Data, want %d", leave,
				r.PagesWrittenBack, pool.restPages, read, pool.restLeaves*te.env.PageSize)
		}
		if leave && (pool.restLeaves == 0 || pool.restPages == 0) {
			t.Errorf("the pool left nothing to the build: %+v", pool)
		}
	}
}

// Same seed and spec, same result.
func TestDeterministic(t *testing.T) {
	sp := ibSpec(trendRows)
	a, b := runBuild(t, sp), runBuild(t, sp)
	if a.Duration() != b.Duration() || a.TempBytesWritten != b.TempBytesWritten {
		t.Errorf("two runs differ: %v %v", a.Duration(), b.Duration())
	}
}

func TestBadSpec(t *testing.T) {
	if r := runBuild(t, Spec{Rows: 10}); !r.Failed || !strings.Contains(r.Reason, "no indexes") {
		t.Errorf("%+v", r)
	}
}

// Halving innodb_ddl_buffer_size once the runs per file exceed the 2-way fan-in halves the
// entries per run, doubles the runs and adds one merge pass: a merge_pass_N+1 phase appears
// and every sort file is rewritten once more (bytes written grow by one file's worth per
// pass: (passes+2)/(passes+1)).
func TestHalvingBufferAddsAMergePass(t *testing.T) {
	one := func(buf int64) Result {
		sp := ibSpec(100_000_000)
		sp.Indexes = sp.Indexes[:1]
		sp.BufferSize = buf
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatal(r.Reason)
		}
		return r
	}
	big, small := one(64*mib), one(32*mib)
	if big.MergePasses < 1 {
		t.Fatalf("64 MiB: %d passes; the test needs runs beyond the fan-in", big.MergePasses)
	}
	if small.MergePasses != big.MergePasses+1 {
		t.Fatalf("passes: 64 MiB %d, 32 MiB %d; want one more", big.MergePasses, small.MergePasses)
	}
	last := fmt.Sprintf("merge_pass_%d", small.MergePasses)
	if p := small.Phase(last, 0); p.End <= p.Start {
		t.Errorf("32 MiB: no %s phase", last)
	}
	if p := big.Phase(last, 0); p.End > p.Start {
		t.Errorf("64 MiB has a %s phase", last)
	}
	want := float64(small.MergePasses+1) / float64(big.MergePasses+1)
	got := float64(small.TempBytesWritten) / float64(big.TempBytesWritten)
	if d := got/want - 1; d > 0.02 || d < -0.02 {
		t.Errorf("bytes written 32 MiB / 64 MiB = %.3f, want %.3f (one more rewrite of the files)", got, want)
	}
	t.Logf("64 MiB: %d passes, %s written; 32 MiB: %d passes, %s", big.MergePasses, fmtBytes(big.TempBytesWritten), small.MergePasses, fmtBytes(small.TempBytesWritten))
}

// At the same innodb_ddl_buffer_size, innodb_ddl_threads beyond what the build can use — one
// merge task per scan-thread file (parallel_read_threads × indexes) and one load per index —
// gains little; below it, threads matter.
func TestThreadsPastTheScanGainLittle(t *testing.T) {
	secsAt := func(th int) float64 {
		sp := ibSpec(trendRows)
		sp.Indexes = sp.Indexes[:1]
		sp.Threads, sp.ParallelReadThreads = th, 4
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatal(r.Reason)
		}
		return secs(r.Duration())
	}
	t1, t4, t16 := secsAt(1), secsAt(4), secsAt(16)
	t.Logf("1 index, 4 scan threads: ddl_threads 1 / 4 / 16: %.0f / %.0f / %.0f s", t1, t4, t16)
	if t4/t16 > 1.05 {
		t.Errorf("4 → 16 threads: %.2f× faster, want ≤ 1.05× (only 4 merge tasks)", t4/t16)
	}
	if t1/t4 < 1.2 {
		t.Errorf("1 → 4 threads: %.2f× faster, want ≥ 1.2× (the 4 files merge in parallel)", t1/t4)
	}
}
