package indexbuild

import (
	"testing"

	"github.com/ddlsim/ddlsim/sim"
)

// cloudDisk is the 8c-64g profile's cloud SSD: 350 MB/s, 200 µs reads.
func cloudDisk() sim.DeviceConfig {
	return sim.DeviceConfig{
		Channels:       32,
		Read:           sim.Constant(200 * sim.Microsecond),
		Write:          sim.Constant(150 * sim.Microsecond),
		Sync:           sim.Constant(500 * sim.Microsecond),
		BandwidthBytes: 350e6,
	}
}

// smallBuild is the Faster DDL CREATE INDEX: 8.0.18, one index on CHAR(120) of a 2.4 M-row
// (600 MB) table, innodb_sort_buffer_size 1 MiB, on the cloud disk.
func smallBuild(t *testing.T, cache int64) Result {
	te := withCache(cache)
	te.env.Data = sim.NewDevice(te.s, "data", cloudDisk())
	te.env.Temp = sim.NewDevice(te.s, "temp", cloudDisk())
	te.env.DataOpLatency, te.env.TempOpLatency = 200*sim.Microsecond, 200*sim.Microsecond
	return runWith(t, te, Spec{Version: "8.0.18", Rows: 2_400_000, RowBytes: 201,
		Indexes: []Index{{Name: "c", KeyBytes: 120 + 4 + 1}}})
}

// The merge of a small build is served by the page cache when there is free memory: 64 GB
// machine, 48 GiB pool → PageCacheFor leaves 12 GiB, far more than the ~300 MB of runs. Remove
// the cache and the same merge is bound by the disk.
func TestPageCacheSmallBuildMergesInMemory(t *testing.T) {
	if got := PageCacheFor(64*gib, 48*gib); got != 12*gib {
		t.Fatalf("PageCacheFor(64G, 48G) = %s, want 12 GiB", fmtBytes(got))
	}
	with, without := smallBuild(t, PageCacheFor(64*gib, 48*gib)), smallBuild(t, 0)
	if with.Failed || without.Failed {
		t.Fatal(with.Reason, without.Reason)
	}
	mw, mo := with.Phase("merge", 0), without.Phase("merge", 0)
	dw, do := secs(mw.End-mw.Start), secs(mo.End-mo.Start)
	t.Logf("merge: %.1f s with a 12 GiB page cache, %.1f s without (%d passes, %s read from sort files)",
		dw, do, with.MergePasses, fmtBytes(with.TempBytesRead))
	if dw > do/4 {
		t.Errorf("merge with cache %.1f s not much faster than without %.1f s", dw, do)
	}
	if with.TempDeviceBytesRead != 0 || with.PageCacheHitBytes != with.TempBytesRead {
		t.Errorf("with cache: %d device bytes read, %d hit of %d", with.TempDeviceBytesRead, with.PageCacheHitBytes, with.TempBytesRead)
	}
	// InnoDB fadvises DONTNEED after every write: write-back starts at once, so every byte
	// written reaches the device even though the merge reads it back from the cache.
	if with.TempDeviceBytesWritten != with.TempBytesWritten {
		t.Errorf("with cache: %s of %s written to the temp device, want all", fmtBytes(with.TempDeviceBytesWritten), fmtBytes(with.TempBytesWritten))
	}
	if without.TempDeviceBytesRead != without.TempBytesRead || without.PageCacheHitBytes != 0 {
		t.Errorf("without cache: %d of %d bytes read from the device", without.TempDeviceBytesRead, without.TempBytesRead)
	}
}

// A build whose sort files are much larger than the page cache reads most of them back from
// the device and writes them there, and is slower than the same build with ample memory.
func TestPageCacheLargeBuildPaysDeviceIO(t *testing.T) {
	sp := ibSpec(200_000_000) // ~3 × 4.6 GB of runs
	sp.BufferSize = 64 * mib  // several passes
	small := runWith(t, withCache(gib), sp)
	big := runWith(t, withCache(64*gib), sp)
	if small.Failed || big.Failed {
		t.Fatal(small.Reason, big.Reason)
	}
	t.Logf("1 GiB cache: %.0f s, device read %s of %s, written %s; 64 GiB: %.0f s, device read %s, written %s",
		secs(small.Duration()), fmtBytes(small.TempDeviceBytesRead), fmtBytes(small.TempBytesRead),
		fmtBytes(small.TempDeviceBytesWritten), secs(big.Duration()), fmtBytes(big.TempDeviceBytesRead),
		fmtBytes(big.TempDeviceBytesWritten))
	if small.TempDeviceBytesRead < small.TempBytesRead/2 {
		t.Errorf("1 GiB cache: only %s of %s read from the device", fmtBytes(small.TempDeviceBytesRead), fmtBytes(small.TempBytesRead))
	}
	if small.TempDeviceBytesWritten < small.TempBytesWritten/2 {
		t.Errorf("1 GiB cache: only %s of %s written to the device", fmtBytes(small.TempDeviceBytesWritten), fmtBytes(small.TempBytesWritten))
	}
	// With room for every file only the merge readers' re-reads of pages already written
	// back and dropped after their first read (overRead, reread) come from the device.
	if big.TempDeviceBytesRead*2 > small.TempDeviceBytesRead {
		t.Errorf("64 GiB cache: %s read from the device, 1 GiB: %s; want under half",
			fmtBytes(big.TempDeviceBytesRead), fmtBytes(small.TempDeviceBytesRead))
	}
	if big.Duration() >= small.Duration() {
		t.Errorf("64 GiB cache %.0f s not faster than 1 GiB %.0f s", secs(big.Duration()), secs(small.Duration()))
	}
}

// Write-back throttling (dirty_ratio): on a slow temp device, a scan that produces runs
// faster than the device absorbs them is held to the device's speed once dirty data reaches
// 20% of the cache; with a cache larger than all the runs it is not.
func TestPageCacheDirtyThrottle(t *testing.T) {
	slow := sim.DeviceConfig{Channels: 4, Read: sim.Constant(100 * sim.Microsecond),
		Write: sim.Constant(100 * sim.Microsecond), BandwidthBytes: 50e6}
	run := func(cache int64) Result {
		te := withCache(cache)
		te.env.Temp = sim.NewDevice(te.s, "temp", slow)
		sp := ibSpec(100_000_000) // ~6.9 GB of runs, 140 s at 50 MB/s
		return runWith(t, te, sp)
	}
	small, big := run(gib), run(64*gib)
	scan := func(r Result) float64 { ph := r.Phase("scan", -1); return secs(ph.End - ph.Start) }
	var runBytes int64 // the scan writes every entry once (plus run padding)
	for _, ix := range InsertBenchmarkIndexes() {
		runBytes += 100_000_000 * tempRecBytes(ix)
	}
	floor := float64(runBytes-gib/5) / 50e6 // all but dirty_ratio × 1 GiB through the device
	t.Logf("scan: %.0f s with 1 GiB cache, %.0f s with 64 GiB; runs %s; throttled floor %.0f s",
		scan(small), scan(big), fmtBytes(runBytes), floor)
	if scan(small) < 0.95*floor {
		t.Errorf("1 GiB cache: scan %.0f s, want >= ~%.0f s (throttled to the device)", scan(small), floor)
	}
	if scan(big) > 0.75*scan(small) {
		t.Errorf("64 GiB cache: scan %.0f s, want well below the throttled %.0f s", scan(big), scan(small))
	}
}
