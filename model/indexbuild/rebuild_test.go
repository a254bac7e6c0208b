package indexbuild

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/config"
	"github.com/ddlsim/ddlsim/sim"
)

// rebuildSpec is a sysbench-like table rebuild: the new clustered index (a 208-byte record)
// and the k index.
func rebuildSpec(version string, rows int64) Spec {
	return Spec{Version: version, Rows: rows, RowBytes: 208,
		Indexes: []Index{{Name: "PRIMARY", KeyBytes: 208}, {Name: "k", KeyBytes: 13}},
		Rebuild: true}
}

// A rebuild with the primary key unchanged loads the clustered index straight from the
// scan: only the secondary index goes through sort files, the clustered pages are all built,
// and there is no merge or load phase for it. Without Rebuild the same two indexes are both
// sorted, so the temp traffic is far larger.
func TestRebuildLoadsClusteredIndexFromScan(t *testing.T) {
	for _, v := range []string{"8.0.18", "8.0.32"} {
		const rows = 20_000_000
		sp := rebuildSpec(v, rows)
		r := runBuild(t, sp)
		sp.Rebuild = false
		sorted := runBuild(t, sp)
		if r.Failed || sorted.Failed {
			t.Fatalf("%s: %s %s", v, r.Reason, sorted.Reason)
		}
		// One clustered tree (8.0.27+ scans a rebuild with one thread): exactly its pages.
		pk, k := indexPages(rows, sp.Indexes[0], 16*kib), indexPages(rows, sp.Indexes[1], 16*kib)
		if r.PagesBuilt != pk+k {
			t.Errorf("%s: built %d pages, want %d clustered + %d k", v, r.PagesBuilt, pk, k)
		}
		if r.Phase("merge", 0).End != 0 || r.Phase("load", 0).End != 0 {
			t.Errorf("%s: the clustered index has a merge or load phase: %+v", v, r.Phases)
		}
		if r.Phase("load", 1).End == 0 {
			t.Errorf("%s: the k index was not loaded: %+v", v, r.Phases)
		}
		// Sort files: those of building k alone (8.0.18: each index has its own sort buffer;
		// 8.0.27+ still splits the key buffers over both), a small part of sorting both.
		only := rebuildSpec(v, rows)
		only.Rebuild, only.Indexes = false, only.Indexes[1:]
		kOnly := runBuild(t, only)
		if (v == "8.0.18" && r.TempBytesWritten != kOnly.TempBytesWritten) || sorted.TempBytesWritten < 10*r.TempBytesWritten {
			t.Errorf("%s: temp bytes %d with the direct load, %d for k alone, %d sorted", v,
				r.TempBytesWritten, kOnly.TempBytesWritten, sorted.TempBytesWritten)
		}
	}
}

// The per-row rebuild cost is paid once per row by the (single-threaded, 8.0.18) scan:
// adding 1 µs per row to 10 M rows lengthens the build by about 10 s.
func TestRebuildRowCostOnScan(t *testing.T) {
	const rows = 10_000_000
	sp := rebuildSpec("8.0.18", rows)
	base := runBuild(t, sp)
	te := newTestEnv()
	te.env.Costs.RebuildRow = 1000
	more := runWith(t, te, sp)
	d := secs(more.Phase("scan", -1).End-more.Phase("scan", -1).Start) -
		secs(base.Phase("scan", -1).End-base.Phase("scan", -1).Start)
	if d < 9.5 || d > 10.5 {
		t.Errorf("scan grew by %.2f s, want ~10 s", d)
	}
	if more.Duration()-base.Duration() > 10500*sim.Millisecond {
		t.Errorf("the build grew by %v; the cost must be paid once", more.Duration()-base.Duration())
	}
}

func TestRebuildBadSpec(t *testing.T) {
	sp := rebuildSpec("8.0.18", 1000)
	sp.OneAtATime = true
	if r := runBuild(t, sp); !r.Failed {
		t.Errorf("a one-at-a-time rebuild was accepted")
	}
}

// 8.0.27+ scans a rebuild with one thread whatever innodb_parallel_read_threads says
// (Parallel_cursor::scan: a skip-sort builder forces m_single_threaded_mode), so its scan
// takes as long with 4 read threads as with 1; an ADD INDEX of the same index scans in
// parallel and is faster with 4.
func TestRebuildScanIsSingleThreaded(t *testing.T) {
	const rows = 20_000_000
	scan := func(sp Spec) float64 {
		r := runBuild(t, sp)
		if r.Failed {
			t.Fatal(r.Reason)
		}
		return secs(r.Phase("scan", -1).End - r.Phase("scan", -1).Start)
	}
	one, four := rebuildSpec("8.0.32", rows), rebuildSpec("8.0.32", rows)
	one.ParallelReadThreads, four.ParallelReadThreads = 1, 4
	if a, b := scan(one), scan(four); a != b {
		t.Errorf("rebuild scan: %.2f s with 1 read thread, %.2f s with 4; want equal", a, b)
	}
	one.Rebuild, four.Rebuild = false, false
	one.Indexes, four.Indexes = one.Indexes[1:], four.Indexes[1:]
	if a, b := scan(one), scan(four); b >= a*0.9 {
		t.Errorf("ADD INDEX scan: %.2f s with 1 read thread, %.2f s with 4; want the parallel scan faster", a, b)
	}
}

// TestScanChargesBuildRow: the build's scan charges costs.build_row per clustered row, and
// costs.row only when the profile leaves build_row 0. With a single scan thread and a
// CPU-bound scan, lowering build_row by d shortens the scan phase by about rows × d; setting
// it equal to row changes nothing.
func TestScanChargesBuildRow(t *testing.T) {
	const rows = 20_000_000
	scan := func(buildRow config.Duration) float64 {
		te := newTestEnv()
		te.env.Costs.BuildRow = buildRow
		sp := ibSpec(rows)
		sp.ParallelReadThreads = 1
		r := runWith(t, te, sp)
		ph := r.Phase("scan", -1)
		return secs(ph.End - ph.Start)
	}
	row := testCosts().Row
	def, same, low := scan(0), scan(row), scan(row/4)
	if def != same {
		t.Errorf("build_row = row (%v) scans in %.3f s, build_row 0 in %.3f s: want the same", row, same, def)
	}
	want := float64(rows) * float64(row-row/4) / 1e9
	if got := def - low; got < 0.9*want || got > 1.1*want {
		t.Errorf("build_row row/4 saves %.2f s of scan, want %.2f s (rows × the difference)", got, want)
	}
}
