package indexbuild

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/sim"
)

// Test hardware: an 80-hardware-thread, 2-socket server with fast NVMe. Every constant is a
// hardware figure, not a fit to the seed:
//   - Row 150 ns: rec_get_offsets + row_build of one clustered record (a few hundred
//     instructions, the page already in cache).
//   - SortRow 30 ns: one key compare of 2-3 columns with type dispatch on cached data.
//   - ListNode 100 ns: one DRAM miss (a cache-missing pointer chase on server DRAM).
//   - MergeRow 150 ns: one record through a 2-way file merge: decode offsets, compare, copy.
//   - LoadRow 400 ns: one record into Btree_load: tuple from record, record into the page.
//   - PageMiss 1 µs: set up one new frame.
//   - NVMe: 3 GB/s shared by reads and writes, 64 channels, 80 µs reads, 30 µs writes.
//   - 55 MiB of last-level cache (2 × 27.5 MiB).
//   - PageCacheCopy 500 ns per 4 KiB: ~8 GB/s of kernel↔user copy on one core.
//
// newTestEnv has no OS page cache (PageCacheBytes 0): sort files go to the device, so the
// tests below that do not set one exercise the I/O and CPU arithmetic alone.
func testCosts() config.Costs {
	return config.Costs{
		Row:           150,
		SortRow:       30,
		ListNode:      100,
		MergeRow:      150,
		LoadRow:       400,
		PageMiss:      1000,
		PageCacheCopy: 500,
	}
}

func nvme() sim.DeviceConfig {
	return sim.DeviceConfig{
		Channels:       64,
		Read:           sim.Constant(80 * sim.Microsecond),
		Write:          sim.Constant(30 * sim.Microsecond),
		Sync:           sim.Constant(50 * sim.Microsecond),
		BandwidthBytes: 3e9,
	}
}

func ibSpec(rows int64) Spec {
	return Spec{
		Version:             "8.0.32",
		Rows:                rows,
		RowBytes:            InsertBenchmarkRowBytes,
		PKLeafPages:         InsertBenchmarkPKLeafPages(rows, 16*kib),
		Indexes:             InsertBenchmarkIndexes(),
		Threads:             4,
		BufferSize:          2 * gib,
		ParallelReadThreads: 4,
	}
}

type testEnv struct {
	s   *sim.Sim
	env Env
}

func newTestEnv() *testEnv {
	s := sim.New(1)
	return &testEnv{s: s, env: Env{
		Sim:           s,
		Cores:         sim.NewCores(s, 80, 10*sim.Millisecond),
		Data:          sim.NewDevice(s, "data", nvme()),
		Temp:          sim.NewDevice(s, "temp", nvme()),
		DataOpLatency: 80 * sim.Microsecond,
		TempOpLatency: 80 * sim.Microsecond,
		Costs:         testCosts(),
		PageSize:      16 * kib,
		CacheBytes:    55 * mib,
	}}
}

// withCache returns a fresh test machine whose sort files go through an OS page cache of
// bytes.
func withCache(bytes int64) *testEnv {
	te := newTestEnv()
	te.env.PageCacheBytes = bytes
	return te
}

// runBuild runs one Build to completion on a fresh simulated machine.
func runBuild(tb testing.TB, spec Spec) Result {
	tb.Helper()
	return runWith(tb, newTestEnv(), spec)
}

// runWith runs one Build to completion on te.
func runWith(tb testing.TB, te *testEnv, spec Spec) Result {
	tb.Helper()
	defer te.s.Close()
	var res Result
	done := false
	te.s.Spawn("ddl", "ddl", func(p *sim.Proc) {
		res = Build(p, te.env, spec)
		done = true
	})
	te.s.Run(sim.Time(1 << 62))
	if !done {
		tb.Fatalf("build did not finish (pending events %d)", te.s.Pending())
	}
	return res
}

func secs(t sim.Time) float64 { return float64(t) / float64(sim.Second) }
