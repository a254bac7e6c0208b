package maint_test

// The fast scan bookkeeping of walks.go and flushwalk.go (ranks from the flush-list order statistics, the
// space's page list instead of an LRU walk) against literal walks that follow the source
// loops of docs/innodb-source.md §1.3–1.5 node by node. Each case builds the same static pool
// twice (same seed), runs the routine in one and the literal walk in the other, with only the
// DDL thread alive (no cleaners, no log writer, no load), and requires identical ScanStats,
// identical final pool state and identical elapsed virtual time (same nodes charged). The
// flush-list cases also run beside a deterministic churn process (a cleaner and writers, see
// churn), which changes the list whenever the walk releases a mutex.

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/config"
	. "github.com/ddlsim/ddlsim/model/maint"
	"github.com/ddlsim/ddlsim/model/runner"
	. "github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

func oracleScenario(t testing.TB, dblwr bool) *config.Scenario {
	t.Helper()
	y := fmt.Sprintf(`
name: scan-oracle
seed: 7
hardware: profiles/8c-64g.yaml
mysql:
  version: "8.0.18"
  innodb_buffer_pool_size: 96MiB
  innodb_buffer_pool_instances: 2
  innodb_doublewrite: %v
policy: fullscan
data:
  - {name: sb, tables: 4, rows: 150k}
warm: {fill: 0.97}
warmup: 0s
duration: 1s
workload:
  - sysbench: {mix: oltp_read_write, threads: 1, tables: sb}
`, dblwr)
	sc, err := config.LoadBytes("scan-oracle.yaml", []byte(y), "../../scenarios")
	if err != nil {
		t.Fatal(err)
	}
	return sc
}

// staticPool builds a warm server and dirties a random third of the resident pages in a
// random order (so the flush list interleaves all spaces); a share of the target space's
// dirty pages are tagged with observer obs, and some of its pages get AHI entries.
func staticPool(t testing.TB, dblwr bool, ahiPages int, obs uint16) (*sim.Sim, *Server, uint32) {
	sc := oracleScenario(t, dblwr)
	m, err := runner.Build(sc, runner.BuildOptions{})
	if err != nil {
		t.Fatal(err)
	}
	s, srv := m.Sim, m.Server
	target := srv.Tables[1].Space
	r := rand.New(rand.NewPCG(1, 2))
	var lsn uint64
	for _, in := range srv.Inst {
		bp := in.BP
		var frames []bufpool.FrameID
		for f := bp.LRUTail(); f != bufpool.Nil; f = bp.LRUPrev(f) {
			bp.SetAHI(f, false)
			frames = append(frames, f)
		}
		r.Shuffle(len(frames), func(i, j int) { frames[i], frames[j] = frames[j], frames[i] })
		ahi := ahiPages
		for i, f := range frames {
			if bp.Key(f).Space() == target && ahi > 0 && i%7 == 0 {
				bp.SetAHI(f, true)
				ahi--
			}
			if i%3 != 0 {
				continue
			}
			if obs != 0 && bp.Key(f).Space() == target && r.IntN(2) == 0 {
				bp.SetObserver(f, obs)
			}
			lsn += 100
			bp.MarkDirty(f, lsn)
		}
	}
	return s, srv, target
}

// literalPrev reads UT_LIST_GET_PREV(list, f) for a literal walk. A page that left the list
// (a write completed) keeps its stale link, which leads to the page newer than where f was
// (fAt). When a compaction hides where that link led, the model's rule applies: the visit
// counts, the pass fails (ok false).
func literalPrev(t *Thread, bp *bufpool.Instance, f bufpool.FrameID, fAt bufpool.FlushPos, st *ScanStats) (prev bufpool.FrameID, ok bool) {
	if bp.IsDirty(f) {
		return bp.FlushNewer(f), true
	}
	if prev, ok = bp.FlushNewerThan(fAt); !ok {
		oracleSeen.lost++
		st.NodesVisited++
		t.Charge(t.Srv.Costs.ListNode)
		return prev, false
	}
	oracleSeen.stale++
	return prev, true
}

// oracleSeen counts the rare branches the literal walks took, so that the tests can show
// they were exercised.
var oracleSeen struct{ stale, recheck, fixed, lost int }

// literalFlushPass is buf_flush_or_remove_pages (§1.3, copies A and B) walked node by node,
// with buf_flush_or_remove_page and buf_flush_try_yield/buf_flush_yield (§1.4) inlined and
// their mutex steps kept (the block mutex is not modelled: its re-checks happen right after
// the flush-list mutex is released):
//   - a target that is not io-fixed is handled with the flush-list mutex released and
//     re-checked first (io-fixed or clean: must_restart, not processed); NO_WRITE unlinks it
//     under the flush-list mutex (buf_flush_remove takes it); FLUSH_WRITE writes it unless
//     it is buffer-fixed (buf_flush_page: a SINGLE_PAGE flush needs buf_fix_count == 0);
//   - `else if (must_restart) break;` after a successful NO_WRITE removal;
//   - the yield re-checks prev after releasing the flush-list mutex (io-fixed or clean:
//     must_restart, no yield) and pins it (BUF_IO_PIN) while the LRU mutex is released;
//   - UT_LIST_GET_PREV of a node that left the list while the flush-list mutex was released
//     is its stale link (8.0.18's UT_LIST_REMOVE_CLEAR is debug-only): the node that was
//     newer than it.
//
// The earlier version of this oracle held the flush-list mutex across a removal and yielded
// without the re-check and the pin; that is not what the source does (read in copy A,
// mysql/mysql-server@f9e3b404 buf0lru.cc), so it was corrected together with maint.go.
func literalFlushPass(t *Thread, in *Instance, tg FlushTarget, write bool, st *ScanStats) bool {
	s := t.Srv
	bp := in.BP
	t.Lock(in.Flush)
	processed := 0 // declared before the rescan label: not reset by a rescan
rescan:
	mustRestart := false
	allFreed := true
	f := bp.FlushOldest()
	fAt := posOf(bp, f)
walk:
	for f != bufpool.Nil {
		// prev = UT_LIST_GET_PREV(list, bpage), read before processing bpage.
		prev, ok := literalPrev(t, bp, f, fAt, st)
		if !ok {
			allFreed = false
			break
		}
		prevAt := posOf(bp, prev)
		st.NodesVisited++
		t.Charge(s.Costs.ListNode)
		if tg.Is(bp, f) {
			done := false // buf_flush_or_remove_page's `processed`
			if bp.IOFix(f) == bufpool.IONone {
				t.Unlock(in.Flush)
				switch {
				case bp.IOFix(f) != bufpool.IONone || !bp.IsDirty(f):
					oracleSeen.recheck++
					mustRestart = true
				case !write:
					t.Lock(in.Flush)
					bp.MarkClean(f)
					t.Charge(s.Costs.PageFree)
					t.Unlock(in.Flush)
					st.PagesFreed++
					done = true
				case bp.FixCount(f) > 0:
					oracleSeen.fixed++
				default:
					bp.SetIOFix(f, bufpool.IOWrite)
					t.Unlock(in.LRU)
					t.FlushPageAsync(in, f)
					st.PagesFlushed++
					t.Lock(in.LRU)
					done = true
				}
				t.Lock(in.Flush)
			}
			switch {
			case !done:
				allFreed = false
			case write:
				st.Restarts++
				goto rescan // processed not incremented for a flushed page
			case mustRestart:
				break walk
			}
		}
		processed++
		// buf_flush_try_yield(prev): only with a next node that is not io-fixed.
		if processed >= YieldEvery && prev != bufpool.Nil && bp.IOFix(prev) == bufpool.IONone {
			t.Unlock(in.Flush)
			if bp.IOFix(prev) != bufpool.IONone || !bp.IsDirty(prev) {
				oracleSeen.recheck++
				mustRestart = true
				t.Lock(in.Flush)
			} else {
				mustRestart = false
				bp.SetIOFix(prev, bufpool.IOPin)
				t.Unlock(in.LRU)
				t.Proc.Sleep(0)
				t.Lock(in.LRU)
				bp.SetIOFix(prev, bufpool.IONone)
				t.Lock(in.Flush)
				processed = 0
				st.Yields++
			}
		}
		f, fAt = prev, prevAt
	}
	t.Unlock(in.Flush)
	return allFreed
}

func posOf(bp *bufpool.Instance, f bufpool.FrameID) bufpool.FlushPos {
	if f == bufpool.Nil {
		return 0
	}
	return bp.FlushPosOf(f)
}

// literalPinnedPass is flush_pages_flush_list (§1.4, copy C: mysql-server 8.0.4x/8.4
// buf0lru.cc) walked node by node: before each target, buf_page_try_pin(prev) (released
// flush-list mutex, re-check: not io-fixed, dirty, same insertion); then
// flush_page_flush_list(target); error = DB_FAIL; a failed pin ends the walk, else
// buf_page_unpin(prev) (the block mutex is held until the flush-list mutex is back) and the
// walk goes on from prev. buf_flush_try_yield pins prev the same way and unpins it after.
func literalPinnedPass(t *Thread, in *Instance, tg FlushTarget, st *ScanStats) bool {
	s := t.Srv
	bp := in.BP
	tryPin := func(p bufpool.FrameID) bool {
		if p == bufpool.Nil {
			return true
		}
		if !bp.IsDirty(p) {
			return false
		}
		at := bp.FlushPosOf(p)
		t.Unlock(in.Flush)
		ok := bp.IOFix(p) == bufpool.IONone && bp.IsDirty(p) && bp.FlushPosOf(p) == at
		if ok {
			bp.SetIOFix(p, bufpool.IOPin)
		} else {
			oracleSeen.recheck++
		}
		t.Lock(in.Flush)
		return ok
	}
	unpin := func(p bufpool.FrameID) {
		if p != bufpool.Nil {
			t.Unlock(in.Flush)
			t.Lock(in.Flush)
			bp.SetIOFix(p, bufpool.IONone)
		}
	}
	t.Lock(in.Flush)
	processed := 0
	failed := false
	f := bp.FlushOldest()
	fAt := posOf(bp, f)
	for f != bufpool.Nil {
		prev, ok := literalPrev(t, bp, f, fAt, st)
		if !ok {
			failed = true
			break
		}
		prevAt := posOf(bp, prev)
		st.NodesVisited++
		t.Charge(s.Costs.ListNode)
		if tg.Is(bp, f) {
			pinned := tryPin(prev)
			if bp.IOFix(f) == bufpool.IONone { // flush_page_flush_list
				t.Unlock(in.Flush)
				if bp.FixCount(f) > 0 {
					oracleSeen.fixed++
				}
				if bp.IOFix(f) == bufpool.IONone && bp.IsDirty(f) && bp.FixCount(f) == 0 {
					bp.SetIOFix(f, bufpool.IOWrite)
					t.Unlock(in.LRU)
					t.FlushPageAsync(in, f)
					st.PagesFlushed++
					t.Lock(in.LRU)
				}
				t.Lock(in.Flush)
			}
			failed = true
			if !pinned {
				break
			}
			unpin(prev)
		}
		processed++
		if processed >= YieldEvery && prev != bufpool.Nil && bp.IOFix(prev) == bufpool.IONone {
			if !tryPin(prev) {
				failed = true
			} else {
				t.Unlock(in.Flush)
				t.Unlock(in.LRU)
				t.Proc.Sleep(0)
				t.Lock(in.LRU)
				t.Lock(in.Flush)
				unpin(prev)
				processed = 0
				st.Yields++
			}
		}
		f, fAt = prev, prevAt
	}
	t.Unlock(in.Flush)
	return !failed
}

// literalPinnedFlush is buf_flush_dirty_pages around literalPinnedPass.
func literalPinnedFlush(t *Thread, in *Instance, tg FlushTarget) (st ScanStats) {
	for {
		t.Lock(in.LRU)
		ok := literalPinnedPass(t, in, tg, &st)
		t.Unlock(in.LRU)
		if ok {
			return st
		}
		st.Sleeps++
		t.Sleep(2 * sim.Millisecond)
	}
}

// literalFlushDirtyPages is buf_flush_dirty_pages (§1.2).
func literalFlushDirtyPages(t *Thread, in *Instance, tg FlushTarget, write bool) (st ScanStats) {
	for {
		t.Lock(in.LRU)
		ok := literalFlushPass(t, in, tg, write, &st)
		t.Unlock(in.LRU)
		if ok {
			return st
		}
		st.Sleeps++
		t.Sleep(2 * sim.Millisecond)
	}
}

// literalRemoveAll is buf_LRU_remove_all_pages (§1.5) walked node by node.
func literalRemoveAll(t *Thread, in *Instance, space uint32) (st ScanStats) {
	s := t.Srv
	bp := in.BP
scanAgain:
	t.Lock(in.LRU)
	allFreed := true
	for f := bp.LRUTail(); f != bufpool.Nil; {
		prev := bp.LRUPrev(f)
		st.NodesVisited++
		t.Charge(s.Costs.ListNode)
		if bp.Key(f).Space() != space {
			f = prev
			continue
		}
		if bp.Blocked(f) {
			allFreed = false
			f = prev
			continue
		}
		if bp.HasAHI(f) {
			t.Unlock(in.LRU)
			t.DropPageAHI(in, f) // btr_search_drop_page_hash_when_freed
			st.AHIDropped++
			st.Restarts++
			goto scanAgain
		}
		if bp.IsDirty(f) {
			t.Lock(in.Flush)
			bp.MarkClean(f)
			t.Unlock(in.Flush)
		}
		bp.Remove(f, true)
		t.Charge(s.Costs.PageFree)
		st.PagesFreed++
		f = prev
	}
	t.Unlock(in.LRU)
	if !allFreed {
		st.Sleeps++
		t.Sleep(20 * sim.Millisecond)
		st.Restarts++
		goto scanAgain
	}
	return st
}

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
