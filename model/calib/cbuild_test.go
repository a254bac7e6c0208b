//go:build cgo

package calib

import (
	"bytes"
	"math"
	"slices"
	"testing"

	"github.com/ddlsim/ddlsim/model/calib/cbench"
)

// The C transcriptions of the index build (cbench/build.c) must produce what the server's
// loops produce, or their times are of something else: sorted buffers, merged runs and
// loaded pages are checked against naive oracles.

var buildShapes = []struct {
	name string
	ix   int
}{{"k", cbench.IndexK}, {"c", cbench.IndexC}, {"c-utf8", cbench.IndexCUTF8}}

var buildFams = []struct {
	name string
	fam  int
}{{"row0merge", cbench.Row0Merge}, {"ddl80", cbench.DDL80}}

func testBuild(t *testing.T, ix, n int) *cbench.Build {
	t.Helper()
	if !cbench.Available {
		t.Skip("needs cgo")
	}
	b := cbench.NewBuild(ix, n, 11)
	t.Cleanup(b.Free)
	return b
}

// naiveOrder is the entries' ids sorted by (key bytes, id): every key type here collates in
// byte order (INT stored big-endian with the sign bit flipped; sysbench's digits and '-' in
// latin1_swedish_ci and in the utf8mb4 stand-in's weights), so this is the index's order.
func naiveOrder(b *cbench.Build, lo, hi int) []int32 {
	type e struct {
		key []byte
		id  int32
	}
	es := make([]e, 0, hi-lo)
	for i := lo; i < hi; i++ {
		k, id := b.Entry(i)
		es = append(es, e{k, id})
	}
	slices.SortFunc(es, func(a, b e) int {
		if c := bytes.Compare(a.key, b.key); c != 0 {
			return c
		}
		return int(a.id - b.id)
	})
	ids := make([]int32, len(es))
	for i, x := range es {
		ids[i] = x.id
	}
	return ids
}

// The key buffer's merge sort leaves the entries in the order a naive sort gives, with
// n·log2(n) compares at most.
func TestCKeySortEqualsNaiveSort(t *testing.T) {
	for _, sh := range buildShapes {
		b := testBuild(t, sh.ix, 5000)
		_, cmps := b.Sort(cbench.Row0Merge, 1)
		ids, bad := b.SortedIDs()
		if bad != 0 {
			t.Errorf("%s: %d neighbours out of order", sh.name, bad)
		}
		if want := naiveOrder(b, 0, b.N); !slices.Equal(ids, want) {
			t.Errorf("%s: sorted order differs from the naive sort", sh.name)
		}
		if cmps > 5000*13 || cmps < 5000*9 {
			t.Errorf("%s: %d compares for 5000 entries, want ~n log2 n", sh.name, cmps)
		}
	}
}

// The merge of the two sorted halves equals the naive sort of all entries, in both families
// (row_merge_blocks; Merge_file_sort over a Merge_cursor).
func TestCMergeEqualsSortedConcatenation(t *testing.T) {
	for _, sh := range buildShapes {
		for _, f := range buildFams {
			b := testBuild(t, sh.ix, 6000)
			got := b.MergedIDs(f.fam)
			if got == nil {
				t.Fatalf("%s/%s: the merged run is not in the temp-file format", sh.name, f.name)
			}
			if want := naiveOrder(b, 0, b.N); !slices.Equal(got, want) {
				t.Errorf("%s/%s: merged order differs from the sorted concatenation", sh.name, f.name)
			}
			if ns := b.Merge(f.fam, 2); ns == 0 {
				t.Errorf("%s/%s: the timed merge failed", sh.name, f.name)
			}
		}
	}
}

// The bulk load's pages pass page_validate's checks (record list in key order, no two records
// overlapping, owners and directory slots, record count), the leaves hold every entry in
// order, and the leaf count is what full pages give.
func TestCLoadPagesValid(t *testing.T) {
	for _, sh := range buildShapes {
		for _, f := range buildFams {
			const n = 20000
			b := testBuild(t, sh.ix, n)
			ns, pages := b.Load(f.fam, 1)
			if ns == 0 {
				t.Fatalf("%s/%s: the load failed (a record did not fit, or page_validate failed at a commit)", sh.name, f.name)
			}
			ids, bad := b.LoadCheck()
			if bad != 0 {
				t.Errorf("%s/%s: %d bad pages of %d", sh.name, f.name, bad, pages)
			}
			if want := naiveOrder(b, 0, n); !slices.Equal(ids, want) {
				t.Errorf("%s/%s: leaf order differs from the naive sort", sh.name, f.name)
			}
			// a leaf record: 5-byte header + extra + data, + a slot per 4 records
			recBytes := map[int]int{cbench.IndexK: 13, cbench.IndexC: 129, cbench.IndexCUTF8: 130}[sh.ix]
			perPage := (16384 - 120 - 8 - 4) * 4 / (4*recBytes + 2)
			if minPages := n / perPage; pages < minPages || pages > minPages+minPages/20+3 {
				t.Errorf("%s/%s: %d pages, want %d-%d (full pages, fill factor 100)", sh.name, f.name, pages, minPages, minPages+minPages/20+3)
			}
		}
	}
}

// row_build's tuple of a clustered record, turned back into the clustered index's record,
// is the original record byte for byte (data, lengths).
func TestCRowBuildRoundTrips(t *testing.T) {
	tr := testTree(t)
	for _, j := range []int{0, 1, 77, 1000, tRows - 1} {
		if d := tr.RowBuildRoundTrip(j); d != 0 {
			t.Errorf("row %d: round trip %d, want 0", j, d)
		}
	}
	if ns := tr.Scan([]int{cbench.IndexK, cbench.IndexC}, true, 50000); ns == 0 {
		t.Error("the scan with a rebuild did nothing")
	}
}

// TestCKMergeQueue checks the load cursor's priority queue (cb_bench_kmerge): every record of
// the k runs comes out (the merge fails otherwise), one run needs no compare, and k runs take
// 1.5·log2 k compares per record within 0.6 — the count model/indexbuild's queueNs charges (a
// pop sifts the hole down one level per compare and the last element back up, the push sifts
// up): a queue that scanned its inputs linearly (k - 1 per record: 15 at k = 16) or skipped
// the sift-down fails it.
func TestCKMergeQueue(t *testing.T) {
	if !cbench.Available {
		t.Skip("needs cgo")
	}
	const n = 1 << 14
	bd := cbench.NewBuild(cbench.IndexK, n, 5)
	defer bd.Free()
	for _, k := range []int{1, 2, 4, 8, 16} {
		ns, cmps := bd.KMerge(k, 1)
		if ns == 0 {
			t.Fatalf("k=%d: the merge lost records", k)
		}
		per := float64(cmps) / n
		want := 1.5 * math.Log2(float64(k))
		if math.Abs(per-want) > 0.6 {
			t.Errorf("k=%d: %.2f compares per record, want %.2f ± 0.6", k, per, want)
		}
		t.Logf("k=%d: %.2f compares per record", k, per)
	}
}
