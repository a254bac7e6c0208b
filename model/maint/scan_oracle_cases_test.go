package maint_test

// The cases of the literal-walk comparison (scan_oracle_test.go holds the fixtures and the
// literal walks): each routine against its literal walk, alone and under churn.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	. "github.com/ddlsim/ddlsim/model/maint"
	. "github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

type poolState struct {
	lru, free, flush, spacePages, spaceDirty, ahi []int
}

func snapshot(srv *Server, space uint32) poolState {
	var p poolState
	for _, in := range srv.Inst {
		bp := in.BP
		p.lru = append(p.lru, bp.LRULen())
		p.free = append(p.free, bp.FreeLen())
		p.flush = append(p.flush, bp.FlushLen())
		p.spacePages = append(p.spacePages, bp.SpacePages(space))
		p.spaceDirty = append(p.spaceDirty, bp.SpaceDirty(space))
		n := 0
		for f := range bp.SpaceFrames(space) {
			if bp.HasAHI(f) {
				n++
			}
		}
		p.ahi = append(p.ahi, n)
	}
	return p
}

type scanRun struct {
	stats   []ScanStats
	elapsed sim.Time
	state   poolState
	err     error
}

// runScan builds a fresh static pool and runs fn on instance after instance in one thread.
func runScan(t *testing.T, dblwr bool, ahi int, obs uint16, fn func(th *Thread, in *Instance, space uint32) ScanStats) scanRun {
	return runScanWith(t, dblwr, ahi, obs, 0, fn)
}

// runScanWith is runScan, with the churn process running beside the DDL thread when
// churnSeed is not 0.
func runScanWith(t *testing.T, dblwr bool, ahi int, obs uint16, churnSeed uint64, fn func(th *Thread, in *Instance, space uint32) ScanStats) scanRun {
	s, srv, space := staticPool(t, dblwr, ahi, obs)
	defer s.Close()
	var out scanRun
	var end sim.Time
	done := false
	srv.Spawn("ddl", "ddl", func(th *Thread) {
		for _, in := range srv.Inst {
			out.stats = append(out.stats, fn(th, in, space))
		}
		th.WaitPendingWrites()
		th.Pay()
		end = th.Now()
		done = true
	})
	if churnSeed != 0 {
		// FIFO hand-off mutexes (no barging), so that every release by the walk lets a
		// queued churn step in: that is when positions go stale.
		for _, in := range srv.Inst {
			in.LRU = sim.NewMutex(s, "LRU_list_mutex", sim.MutexOptions{})
			in.Flush = sim.NewMutex(s, "flush_list_mutex", sim.MutexOptions{})
		}
		srv.Spawn("churn", "churn", churn(srv, space, obs, churnSeed, &done))
	}
	s.Run(3600 * sim.Second)
	out.elapsed = end
	out.state = snapshot(srv, space)
	for _, in := range srv.Inst {
		if err := in.BP.Check(); err != nil {
			out.err = err
		}
	}
	return out
}

func compareScan(t *testing.T, got, want scanRun, checkYields bool) {
	t.Helper()
	if got.err != nil || want.err != nil {
		t.Fatalf("pool invariants: routine %v, oracle %v", got.err, want.err)
	}
	for i := range want.stats {
		g, w := got.stats[i], want.stats[i]
		if g.NodesVisited != w.NodesVisited || g.PagesFlushed != w.PagesFlushed || g.PagesFreed != w.PagesFreed ||
			g.Restarts != w.Restarts || g.AHIDropped != w.AHIDropped {
			t.Errorf("instance %d: routine %+v\n            literal walk %+v", i, g, w)
		}
		if checkYields && (g.Yields != w.Yields || g.Sleeps != w.Sleeps) {
			t.Errorf("instance %d: yields/sleeps: routine %d/%d, literal walk %d/%d", i, g.Yields, g.Sleeps, w.Yields, w.Sleeps)
		}
	}
	if fmt.Sprint(got.state) != fmt.Sprint(want.state) {
		t.Errorf("final pool state: routine %+v, literal walk %+v", got.state, want.state)
	}
	if got.elapsed != want.elapsed {
		t.Errorf("elapsed virtual time: routine %v, literal walk %v (different CPU charged or different waits)", got.elapsed, want.elapsed)
	}
}

func TestRemoveAllPagesMatchesLiteralWalk(t *testing.T) {
	for _, ahi := range []int{0, 5} {
		t.Run(fmt.Sprintf("ahi=%d", ahi), func(t *testing.T) {
			got := runScan(t, true, ahi, 0, func(th *Thread, in *Instance, sp uint32) ScanStats { return RemoveAllPages(th, in, sp) })
			want := runScan(t, true, ahi, 0, func(th *Thread, in *Instance, sp uint32) ScanStats { return literalRemoveAll(th, in, sp) })
			if want.stats[0].PagesFreed == 0 || want.stats[0].NodesVisited < 1000 {
				t.Fatalf("degenerate pool: %+v", want.stats)
			}
			for i, n := range want.state.spacePages {
				if n != 0 {
					t.Errorf("oracle left %d pages of the space in instance %d", n, i)
				}
			}
			compareScan(t, got, want, true)
		})
	}
}

func TestFlushNoWriteMatchesLiteralWalk(t *testing.T) {
	got := runScan(t, true, 0, 0, func(th *Thread, in *Instance, sp uint32) ScanStats {
		return FlushDirtyPages(th, in, FlushTarget{Space: sp}, FlushOptions{})
	})
	want := runScan(t, true, 0, 0, func(th *Thread, in *Instance, sp uint32) ScanStats {
		return literalFlushDirtyPages(th, in, FlushTarget{Space: sp}, false)
	})
	if want.stats[0].PagesFreed == 0 {
		t.Fatalf("degenerate pool: %+v", want.stats)
	}
	compareScan(t, got, want, true)
}

func TestFlushWriteRestartMatchesLiteralWalk(t *testing.T) {
	for _, dblwr := range []bool{false, true} {
		for _, obs := range []uint16{0, 9} {
			t.Run(fmt.Sprintf("dblwr=%v/observer=%d", dblwr, obs), func(t *testing.T) {
				opt := FlushOptions{Write: true, RestartFromTail: true}
				got := runScan(t, dblwr, 0, obs, func(th *Thread, in *Instance, sp uint32) ScanStats {
					return FlushDirtyPages(th, in, FlushTarget{Space: sp, Observer: obs}, opt)
				})
				want := runScan(t, dblwr, 0, obs, func(th *Thread, in *Instance, sp uint32) ScanStats {
					return literalFlushDirtyPages(th, in, FlushTarget{Space: sp, Observer: obs}, true)
				})
				if want.stats[0].PagesFlushed < 50 {
					t.Fatalf("degenerate pool: %+v", want.stats)
				}
				for i, n := range want.state.spaceDirty {
					if obs == 0 && n != 0 {
						t.Errorf("oracle left %d dirty pages of the space in instance %d", n, i)
					}
				}
				compareScan(t, got, want, true)
			})
		}
	}
}

// churn stands in for the rest of the server while a walk runs: a page cleaner writing
// batches of the oldest dirty pages (io-fixed under the flush-list mutex, cleaned under it
// when the write completes), user threads dirtying pages at the flush-list head (some of the
// target space, some tagged with the observer) and buffer-fixing pages for a while. It draws
// from its own generator and reads only the pool, so the two runs of a comparison stay
// identical exactly as long as the routine under test takes the decisions and the mutex
// steps of the literal walk. It makes the walk meet what a static pool never shows: targets
// and `prev` pages io-fixed or gone after a release, buffer-fixed targets, new targets at
// the head, compactions.
func churn(srv *Server, space uint32, obs uint16, seed uint64, done *bool) func(th *Thread) {
	return func(th *Thread) {
		r := rand.New(rand.NewPCG(seed, 12))
		lsn := uint64(1) << 40
		for !*done {
			th.Sleep(sim.Time(1+r.IntN(20)) * sim.Microsecond)
			in := srv.Inst[r.IntN(len(srv.Inst))]
			bp := in.BP
			switch r.IntN(4) {
			case 0, 1:
				// A flush-list batch, from the tail or (standing in for neighbour and LRU
				// flushes) from elsewhere: often right after the oldest target page or one
				// some way ahead, where a walk holds or will hold `prev`; some writes are
				// instant, so that they complete in the walk's next release.
				n := 1 + r.IntN(16)
				th.Lock(in.Flush)
				var pages []bufpool.FrameID
				from := bp.FlushOldest()
				switch r.IntN(3) {
				case 1:
					from = bp.FlushAt(r.IntN(bp.FlushLen() + 1))
				case 2:
					g := bp.SpaceOldestDirty(space)
					for k := r.IntN(2) * r.IntN(200); k > 0 && g != bufpool.Nil; k-- {
						g = bp.SpaceNewerDirty(g)
					}
					if g != bufpool.Nil {
						from = bp.FlushNewer(g)
					}
				}
				for f := from; f != bufpool.Nil && len(pages) < n; f = bp.FlushNewer(f) {
					if bp.IOFix(f) == bufpool.IONone && bp.FixCount(f) == 0 {
						bp.SetIOFix(f, bufpool.IOWrite)
						pages = append(pages, f)
					}
				}
				th.Unlock(in.Flush)
				th.Sleep(sim.Time(r.IntN(2)*(50+r.IntN(200))) * sim.Microsecond)
				th.Lock(in.Flush)
				for _, f := range pages {
					bp.MarkClean(f)
					bp.SetIOFix(f, bufpool.IONone)
				}
				th.Unlock(in.Flush)
			case 2:
				n := 1 + r.IntN(8)
				th.Lock(in.Flush)
				for i := 0; i < n; i++ {
					f := bufpool.FrameID(r.IntN(bp.Frames()))
					if !bp.InLRU(f) || bp.IsDirty(f) || bp.IOFix(f) != bufpool.IONone {
						continue
					}
					if obs != 0 && bp.Key(f).Space() == space && r.IntN(2) == 0 {
						bp.SetObserver(f, obs)
					}
					lsn += 100
					bp.MarkDirty(f, lsn)
				}
				th.Unlock(in.Flush)
			case 3:
				// Buffer-fix a page for a while, often one near the flush-list tail or the
				// oldest target, where a restarting walk looks first.
				f := bufpool.FrameID(r.IntN(bp.Frames()))
				switch r.IntN(4) {
				case 0:
					f = bp.FlushAt(r.IntN(min(bp.FlushLen(), 64) + 1))
				case 1:
					f = bp.SpaceOldestDirty(space)
				}
				if f != bufpool.Nil && bp.InLRU(f) {
					bp.Fix(f)
					th.Sleep(sim.Time(20+r.IntN(200)) * sim.Microsecond)
					bp.Unfix(f)
				}
			}
		}
	}
}

// Under churn the routine must still be the literal walk: same nodes, same pages, same
// yields and sleeps, same final state and elapsed time. This is what re-validating positions
// after each mutex release buys; the previous bookkeeping kept ranks across releases.
func TestFlushMatchesLiteralWalkUnderChurn(t *testing.T) {
	type variant struct {
		name    string
		dblwr   bool
		obs     uint16
		opt     FlushOptions
		literal func(th *Thread, in *Instance, tg FlushTarget) ScanStats
		seed    uint64
	}
	noWrite := func(th *Thread, in *Instance, tg FlushTarget) ScanStats {
		return literalFlushDirtyPages(th, in, tg, false)
	}
	write := func(th *Thread, in *Instance, tg FlushTarget) ScanStats {
		return literalFlushDirtyPages(th, in, tg, true)
	}
	pinned := func(th *Thread, in *Instance, tg FlushTarget) ScanStats { return literalPinnedFlush(th, in, tg) }
	restart := FlushOptions{Write: true, RestartFromTail: true}
	var vs []variant
	for seed := uint64(1); seed <= 8; seed++ {
		vs = append(vs, variant{fmt.Sprintf("no-write/seed=%d", seed), true, 0, FlushOptions{}, noWrite, seed})
	}
	vs = append(vs,
		variant{"write/dblwr=false/observer=0", false, 0, restart, write, 1},
		variant{"write/dblwr=true/observer=0", true, 0, restart, write, 2},
		variant{"write/dblwr=true/observer=9", true, 9, restart, write, 3},
		variant{"pinned/dblwr=false/observer=0", false, 0, FlushOptions{Write: true}, pinned, 4},
		variant{"pinned/dblwr=true/observer=9", true, 9, FlushOptions{Write: true}, pinned, 5},
	)
	for _, v := range vs {
		t.Run(v.name, func(t *testing.T) {
			got := runScanWith(t, v.dblwr, 0, v.obs, v.seed, func(th *Thread, in *Instance, sp uint32) ScanStats {
				return FlushDirtyPages(th, in, FlushTarget{Space: sp, Observer: v.obs}, v.opt)
			})
			want := runScanWith(t, v.dblwr, 0, v.obs, v.seed, func(th *Thread, in *Instance, sp uint32) ScanStats {
				return v.literal(th, in, FlushTarget{Space: sp, Observer: v.obs})
			})
			t.Logf("literal walk %+v, %v", want.stats, want.elapsed)
			if w := want.stats[0]; w.PagesFlushed+w.PagesFreed < 30 {
				t.Fatalf("degenerate run: %+v", want.stats)
			}
			compareScan(t, got, want, true)
		})
	}
	t.Logf("literal walks met: %+v", oracleSeen)
	if oracleSeen.stale == 0 || oracleSeen.recheck == 0 || oracleSeen.fixed == 0 {
		t.Errorf("the churn did not reach every re-validation branch: %+v", oracleSeen)
	}
}

// The static pool has no concurrent writer; the pinned (restart: false) walk against its
// literal walk there too.
func TestFlushWritePinnedMatchesLiteralWalk(t *testing.T) {
	for _, obs := range []uint16{0, 9} {
		t.Run(fmt.Sprintf("observer=%d", obs), func(t *testing.T) {
			got := runScan(t, true, 0, obs, func(th *Thread, in *Instance, sp uint32) ScanStats {
				return FlushDirtyPages(th, in, FlushTarget{Space: sp, Observer: obs}, FlushOptions{Write: true})
			})
			want := runScan(t, true, 0, obs, func(th *Thread, in *Instance, sp uint32) ScanStats {
				return literalPinnedFlush(th, in, FlushTarget{Space: sp, Observer: obs})
			})
			if want.stats[0].PagesFlushed < 50 {
				t.Fatalf("degenerate pool: %+v", want.stats)
			}
			compareScan(t, got, want, true)
		})
	}
}
