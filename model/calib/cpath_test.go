//go:build cgo

package calib

import (
	"math/rand/v2"
	"testing"

	"github.com/ddlsim/ddlsim/model/calib/cbench"
	"github.com/ddlsim/ddlsim/model/schema"
)

// The C transcriptions the cost benchmarks time must do what the server does, or the times
// are of something else: these tests check their results on a small tree.

const tRows = 200_000

func testTree(t *testing.T) *cbench.Tree {
	t.Helper()
	if !cbench.Available {
		t.Skip("needs cgo")
	}
	ix := schema.NewSysbenchTable("sbtest1", "g", 5, tRows, 1, 16384).Primary
	tr := cbench.NewTree(tRows, ix.LeafRecs, ix.NodeRecs, cbench.Clustered, false, 3)
	if tr.Height != ix.Depth {
		t.Fatalf("height %d, model/schema's depth %d", tr.Height, ix.Depth)
	}
	t.Cleanup(tr.Free)
	return tr
}

// Every page of a clustered and a secondary tree is a valid InnoDB page: records linked in
// key order from the infimum to the supremum, the directory's slots on their owners.
func TestTreePagesValid(t *testing.T) {
	tr := testTree(t)
	if bad := tr.Check(); bad != 0 {
		t.Errorf("clustered: %d bad pages", bad)
	}
	ix := schema.NewSysbenchTable("sbtest1", "g", 5, tRows, 1, 16384).Secondary[0]
	sec := cbench.NewTree(tRows, ix.LeafRecs, ix.NodeRecs, cbench.Secondary, false, 4)
	defer sec.Free()
	if bad := sec.Check(); bad != 0 {
		t.Errorf("secondary: %d bad pages", bad)
	}
	r := rand.New(rand.NewPCG(3, 3))
	for range 2000 {
		k := int32(1 + r.IntN(tRows))
		if id, _ := sec.LookupID(nil, false, k); id != k {
			t.Fatalf("secondary lookup of k=%d landed on k=%d", k, id)
		}
	}
}

// A descent lands on the record with the key, and leaves no latch held.
func TestDescentFindsKey(t *testing.T) {
	tr := testTree(t)
	r := rand.New(rand.NewPCG(1, 1))
	for range 5000 {
		k := int32(1 + r.IntN(tRows))
		if id, _ := tr.LookupID(nil, false, k); id != k {
			t.Fatalf("lookup %d landed on %d", k, id)
		}
	}
}

// With every leaf hashed, the AHI's guess finds the same record as the descent; it fails
// only where two keys of the index fold to the same value (ha_insert_for_fold keeps the
// later record), which ut_fold_binary does for ~0.1% of 4-byte keys.
func TestAHIGuessAgreesWithDescent(t *testing.T) {
	tr := testTree(t)
	a := cbench.NewAHI(1<<18, tRows+1024)
	defer a.Free()
	tr.BuildAll(a)
	if a.Entries() < tRows*99/100 || a.Entries() > tRows {
		t.Fatalf("%d entries for %d records", a.Entries(), tRows)
	}
	r := rand.New(rand.NewPCG(2, 2))
	hits := 0
	const n = 5000
	for range n {
		k := int32(1 + r.IntN(tRows))
		id, hit := tr.LookupID(a, true, k)
		if id != k {
			t.Fatalf("lookup %d (hit %v) landed on %d", k, hit, id)
		}
		if hit {
			hits++
		}
	}
	if hits < n*99/100 {
		t.Errorf("%d of %d lookups hit the AHI, want >= 99%%", hits, n)
	}
}

// A range returns consecutive ids, across page boundaries and through the prefetch cache.
func TestRangeRowsConsecutive(t *testing.T) {
	tr := testTree(t)
	for _, k := range []int32{1, 50, 71, 72, 73, 1000, tRows - 150} {
		ids := tr.RangeIDs(k, 100)
		if len(ids) != 100 {
			t.Fatalf("range from %d: %d rows", k, len(ids))
		}
		for i, id := range ids {
			if id != k+int32(i) {
				t.Fatalf("range from %d: row %d is %d", k, i, id)
			}
		}
	}
}

// Dropping and rebuilding pages, and a record's delete and re-insert, leave the hash index
// with the entries it had.
func TestAHIMaintenanceKeepsEntries(t *testing.T) {
	tr := testTree(t)
	a := cbench.NewAHI(1<<18, tRows+1024)
	defer a.Free()
	tr.BuildAll(a)
	n0 := a.Entries()
	pages := []uint32{tr.PageAt(1, 0), tr.PageAt(5000, 0), tr.PageAt(tRows-1, 0)}
	tr.DropBuild(a, pages, 30)
	if a.Entries() != n0 {
		t.Errorf("drop+build: %d entries, had %d", a.Entries(), n0)
	}
	tr.DelIns(a, []int32{2, 3000, 77777}, 30)
	if a.Entries() != n0 {
		t.Errorf("delete+insert: %d entries, had %d", a.Entries(), n0)
	}
	for _, k := range []int32{2, 3000, 77777} {
		if id, hit := tr.LookupID(a, true, k); id != k || !hit {
			t.Errorf("after delete+insert, lookup %d: %d (hit %v)", k, id, hit)
		}
	}
}

// Each write kind logs redo, and the record sizes follow the columns changed: SET c (120
// bytes, old and new) logs more than SET k (4 bytes); the undo page fills.
func TestStmtLogBytes(t *testing.T) {
	tr := testTree(t)
	keys := []int32{10, 20, 30, 40}
	per := map[int]float64{}
	for _, kind := range []int{cbench.UpdateNonKey, cbench.UpdateKey, cbench.Delete, cbench.Insert, cbench.InsertNew, cbench.Commit} {
		lg := cbench.NewLog(1 << 20)
		free0 := lg.UndoFree()
		b := tr.StmtLog(lg, kind, keys, 8, false)
		per[kind] = float64(b) / 8
		if b == 0 || b != lg.LogBytes() {
			t.Errorf("kind %d: %d redo bytes (log says %d)", kind, b, lg.LogBytes())
		}
		if kind != cbench.Commit && lg.UndoFree() == free0 {
			t.Errorf("kind %d wrote no undo record", kind)
		}
		lg.Free()
	}
	// SET c: the old c in the undo record and the new c in the page's WRITE record;
	// SET k: 4 bytes each, but two secondary-index mini-transactions besides.
	if per[cbench.UpdateNonKey] < per[cbench.UpdateKey]+120 {
		t.Errorf("SET c logs %.0f bytes, SET k %.0f: want ≥ 120 more", per[cbench.UpdateNonKey], per[cbench.UpdateKey])
	}
	t.Logf("redo bytes per statement: %v", per)
}
