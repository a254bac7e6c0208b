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
// mysql/mysql-server@f9e3b404 buf0lru.cc), so it was corrected together with the walk (then model/server/maint.go, now flushwalk.go).
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
