package server_test

import (
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

const (
	ahiWriteCosts = "ahi_rec_insert: 500ns, ahi_rec_delete: 650ns, ahi_latch_x: 20ns"
	mtrCosts      = "mtr_commit: 60ns, redo_kib: 460ns"
)

// changeRun warms a server (AHI ahi), searches one PK leaf 300 times (enough for the index's
// analysis and, with the AHI on, the page's build), then runs one of each record change on it
// with 100 redo bytes each. It returns the CPU the four Change calls were charged, the AHI
// write latches they took and whether the leaf was hashed.
func changeRun(t *testing.T, ahi, costs string) (cpu sim.Time, latches uint64, hashed bool) {
	t.Helper()
	s, srv := warmServer(t, loadScenario(t, pathScenario(ahi, costs)), "fullscan")
	ix := srv.Tables[0].Primary
	path := ix.Path(nil, ix.LeafPages()/2)
	leaf := path[len(path)-1]
	srv.Spawn("probe", "fg", func(th *server.Thread) {
		for range 300 {
			th.Search(ix, path, false)
		}
		in := srv.InstanceOf(leaf)
		hashed = in.BP.HasAHI(in.BP.Lookup(bufpool.PageID(leaf)))
		th.Search(ix, path, true)
		l0 := srv.Paths.AHIWriteLatches
		c0 := th.Charged()
		for _, op := range []server.ChangeOp{server.UpdateInPlace, server.Insert, server.Update, server.DeleteMark} {
			th.Change(ix, leaf, op, 100)
		}
		cpu, latches = th.Charged()-c0, srv.Paths.AHIWriteLatches-l0
	})
	s.Run(sim.Second)
	return cpu, latches, hashed
}

// AHI maintenance adds CPU to writes only when the AHI is on (docs/cpu-model.md §9.5): the
// same four record changes on the same leaf, AHI off and on. Off, they cost their four mtrs
// and take no partition latch; on, over the hashed leaf, the in-place update adds
// ahi_latch_x, the insert ahi_rec_insert, the update of a delete-marked record
// ahi_rec_delete + ahi_rec_insert, each under one X acquisition of the partition's latch;
// the delete mark adds nothing (the hash is purge's to change). Without the AHI's write
// costs in the profile, the AHI on takes no latch and costs nothing more (opt-in).
func TestAHIMaintenanceCostsWritesOnlyWhenOn(t *testing.T) {
	const mtr = 4 * (60 + 100*460/1024) // 4 mtrs: mtr_commit + 100 bytes at redo_kib
	costs := lookupCosts + ", " + ahiWriteCosts + ", " + mtrCosts
	off, offLatches, offHashed := changeRun(t, "off", costs)
	on, onLatches, onHashed := changeRun(t, "on", costs)
	if offHashed || !onHashed {
		t.Fatalf("leaf hashed: AHI off %v (want false), on %v (want true)", offHashed, onHashed)
	}
	if off != mtr || offLatches != 0 {
		t.Errorf("AHI off: changes charged %v and took %d partition latches, want %d ns and none", off, offLatches, mtr)
	}
	// The three maintaining changes, and one latch acquisition each (its atomic: the
	// mutexAcquireCPU every Lock charges, read back as the rest).
	const maint = 20 + 500 + (650 + 500)
	if onLatches != 3 {
		t.Errorf("AHI on: %d partition X latches, want 3 (update in place, insert, update; not the delete mark)", onLatches)
	}
	latch := (on - off - maint) / 3
	if on-off != maint+3*latch || latch < 0 || latch > 200 {
		t.Errorf("AHI on − off = %v, want %d ns of maintenance + 3 latch acquisitions (each 0–200 ns; got %v)", on-off, maint, latch)
	}
	// AHI on, but the profile gives no AHI write cost: no latch, nothing more than off.
	bare, bareLatches, _ := changeRun(t, "on", lookupCosts+", "+mtrCosts)
	if bare != mtr || bareLatches != 0 {
		t.Errorf("AHI on without its write costs: %v and %d latches, want %d ns and none", bare, bareLatches, mtr)
	}
}
