package server_test

import (
	"math"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// pathScenario: one core, every cost 0 except page_hit and the access-path costs extra
// names, so a thread's charged CPU is exactly what the path model charges. ahi: on/off.
func pathScenario(ahi, extra string) string {
	return `
name: paths
seed: 1
` + freeCostHardware("page_hit: 40ns, "+extra, true) +
		`mysql: {version: "mariadb-10.11.6", innodb_buffer_pool_size: 64MiB, innodb_buffer_pool_instances: 1, innodb_adaptive_hash_index: ` + ahi + `}
policy: fullscan
data:
  - {name: sb, tables: 1, rows: 100k}
duration: 1s
`
}

const lookupCosts = "rec_cmp: 15ns, index_latch: 30ns, ahi_guess: 90ns, ahi_descent: 40ns"

// An AHI hit costs less CPU than a descent by the levels it saves (docs/cpu-model.md §9.5):
// on a warm pool with the AHI on and the leaf hashed, one point lookup's charged CPU and its
// page accesses, guess against descent (of the unhashed leaf next to it). The guess
// accesses one page, the descent every level; the CPU saved is the upper levels' accesses
// and searches, the leaf's search, the index latch and the AHI's descent extra, less the
// guess — computed here from the index's shape, not from the model's helpers.
func TestAHIGuessSavesTheLevels(t *testing.T) {
	s, srv := warmServer(t, loadScenario(t, pathScenario("on", lookupCosts)), "fullscan")
	ix := srv.Tables[0].Primary
	if ix.Depth < 3 {
		t.Fatalf("index depth %d: want 3 levels for the test", ix.Depth)
	}
	leaf := ix.Leaf(ix.LeafPages() / 2)
	path := ix.Path(nil, ix.LeafPages()/2)
	var guessCPU, descentCPU sim.Time
	var guessHits, descentHits uint64
	srv.Spawn("probe", "fg", func(th *server.Thread) {
		// Enough searches of one leaf for the index's analysis and the page's build.
		for range 300 {
			th.Search(ix, path, false)
		}
		in := srv.InstanceOf(leaf)
		f := in.BP.Lookup(bufpool.PageID(leaf))
		if !in.BP.HasAHI(f) {
			t.Fatal("the leaf was not hashed after 300 searches")
		}
		th.Pay()
		c0, h0, g0 := th.Charged(), th.Hits, srv.Paths.Guesses
		th.Search(ix, path, false)
		guessCPU, guessHits = th.Charged()-c0, th.Hits-h0
		if srv.Paths.Guesses != g0+1 {
			t.Error("the lookup of a hashed leaf was not a guess")
		}
		// A leaf next to it, resident and never searched: not hashed, so a descent.
		other := ix.Path(nil, ix.LeafPages()/2+1)
		if g := in.BP.Lookup(bufpool.PageID(other[len(other)-1])); g == bufpool.Nil || in.BP.HasAHI(g) {
			t.Fatal("the neighbouring leaf is not resident or already hashed")
		}
		c0, h0 = th.Charged(), th.Hits
		d0 := srv.Paths.Descents
		th.Search(ix, other, false)
		descentCPU, descentHits = th.Charged()-c0, th.Hits-h0
		if srv.Paths.Descents != d0+1 {
			t.Error("the lookup of an unhashed leaf was not a descent")
		}
	})
	s.Run(sim.Second)
	if guessHits != 1 || descentHits != uint64(ix.Depth) {
		t.Errorf("page accesses: guess %d (want 1), descent %d (want %d)", guessHits, descentHits, ix.Depth)
	}
	const pageHit, recCmp, latch, guess, ahiDesc = 40, 15, 30, 90, 40
	// Levels saved: depth−1 upper pages, each an access and ~10 compares (the root fewer),
	// plus the leaf's search, the latch and the descent's AHI extra, less the guess.
	upper := 0.0
	for i := 0; i < ix.Depth-1; i++ {
		n := float64(ix.LevelPages[i+1]) / float64(ix.LevelPages[i])
		upper += pageHit + recCmp*math.Log2(n/4) + recCmp*2.5
	}
	leafSearch := recCmp * (math.Log2(float64(ix.LeafRecs)/4) + 2.5)
	want := upper + leafSearch + latch + ahiDesc - guess
	got := float64(descentCPU - guessCPU)
	if got < 0.9*want || got > 1.1*want {
		t.Errorf("descent − guess = %.0f ns, want %.0f ns ± 10%% (guess %v, descent %v)", got, want, guessCPU, descentCPU)
	}
	if guessCPU != pageHit+guess {
		t.Errorf("guess charged %v, want page_hit + ahi_guess = %d ns", guessCPU, pageHit+guess)
	}
}
