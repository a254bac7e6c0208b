package maint

import (
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// FlushTarget selects the pages of a flush-list routine: the pages of Space, or, when
// Observer != 0, the pages tagged with that flush observer (which all belong to Space).
type FlushTarget struct {
	Space    uint32
	Observer uint16
}

// is is the target test at the top of the loop of buf_flush_or_remove_pages (observer ?
// bpage->flush_observer == observer : bpage->id.space() == id). A page that left the flush
// list has no observer any more (buf_flush_remove detaches it), as in InnoDB.
func (tg FlushTarget) is(bp *bufpool.Instance, f bufpool.FrameID) bool {
	return bp.Key(f).Space() == tg.Space && (tg.Observer == 0 || bp.Observer(f) == tg.Observer)
}

func (tg FlushTarget) first(bp *bufpool.Instance) bufpool.FrameID {
	return tg.from(bp, bp.SpaceOldestDirty(tg.Space))
}

func (tg FlushTarget) next(bp *bufpool.Instance, f bufpool.FrameID) bufpool.FrameID {
	return tg.from(bp, bp.SpaceNewerDirty(f))
}

func (tg FlushTarget) from(bp *bufpool.Instance, f bufpool.FrameID) bufpool.FrameID {
	if tg.Observer == 0 {
		return f
	}
	for f != bufpool.Nil && bp.Observer(f) != tg.Observer {
		f = bp.SpaceNewerDirty(f)
	}
	return f
}

// FlushOptions are the variants of the flush-list routine.
type FlushOptions struct {
	Write bool // BUF_REMOVE_FLUSH_WRITE (else FLUSH_NO_WRITE: just unlink)
	// RestartFromTail (Write only): after each flushed page the walk starts again from the
	// tail (8.0.18: `goto rescan`). Off = the later flush_pages_flush_list, which pins the
	// previous page around each target and continues from it (§1.4, copy C).
	RestartFromTail bool
	// NoYield disables buf_flush_try_yield (for variants/experiments).
	NoYield bool
	// RetrySleep is the sleep after a pass that could not process every target (DB_FAIL):
	// 2 ms from 5.6.40 on, 20 ms in 5.5 (version.Traits). 0 = 2 ms.
	RetrySleep sim.Time
}

// FlushDirtyPages is buf_flush_dirty_pages + buf_flush_or_remove_pages (§1.2–1.4) for one
// instance: passes over the flush list from the tail under the LRU mutex (whole pass) and the
// flush-list mutex (walk), until a pass finds every target processed; a failed pass (a
// target was io-fixed) sleeps 2 ms.
func FlushDirtyPages(t *server.Thread, in *server.Instance, tg FlushTarget, opt FlushOptions) (st server.ScanStats) {
	for {
		t.Lock(in.LRU)
		ok := flushOrRemovePass(t, in, tg, opt, &st)
		t.Unlock(in.LRU)
		if ok {
			return st
		}
		st.Sleeps++
		if opt.RetrySleep > 0 {
			t.Sleep(opt.RetrySleep)
		} else {
			t.Sleep(2 * sim.Millisecond)
		}
	}
}

// flushOrRemovePass is one call of buf_flush_or_remove_pages (or, for Write without
// RestartFromTail, of flush_pages_flush_list); it returns all_freed (DB_SUCCESS).
func flushOrRemovePass(t *server.Thread, in *server.Instance, tg FlushTarget, opt FlushOptions, st *server.ScanStats) bool {
	w := flushWalk{t: t, in: in, bp: in.BP, tg: tg, opt: opt, st: st,
		pinned: opt.Write && !opt.RestartFromTail}
	return w.run()
}

// flushWalk is one pass of the flush-list walk. It visits the nodes the source loop visits,
// in the same order, and takes and releases the mutexes at the same points, but it passes a
// run of nodes that are neither targets nor yield points in one step, counting them by
// flush-list rank. Ranks and the next target are read afresh after every point where the
// mutexes were released: other threads change the list then, and virtual time passes at
// every Pay (so at every Lock and Unlock), when the walk's own asynchronous writes complete
// and leave the list.
//
// What survives a release is re-validated the way the source does it (8.0.18 shape, copies
// A and B of docs/innodb-source.md §1.3–1.4):
//   - buf_flush_try_yield(prev) yields only when prev exists and is not io-fixed, re-checks
//     that under the block mutex after releasing the flush-list mutex (io-fixed or clean:
//     must_restart, no yield), and pins prev (buf_page_set_sticky, BUF_IO_PIN) while both
//     mutexes are released, so the walk goes on from a page still on the list;
//   - buf_flush_or_remove_page re-checks the target the same way (io-fixed or clean:
//     must_restart, not processed). A started write released every mutex, and the walk
//     restarts from the tail (`goto rescan`): no position is kept across a write;
//   - after a target was unlinked or could not be written, the walk goes on to the `prev` it
//     read before (only the flush-list mutex was released; the source trusts that pointer).
//     If that page left the list meanwhile (a write in flight completed), the source walks
//     its stale link: 8.0.18's ut0lst.h keeps a removed node's links in release builds
//     (UT_LIST_REMOVE_CLEAR is debug-only), so the walk visits the removed page and goes on
//     to the page that was newer than it. The model does the same (stale, FlushNewerThan).
//
// With pinned (the later flush_pages_flush_list, copy C) each target is processed with its
// prev pinned (buf_page_try_pin, an ABA check on the insertion); the walk then continues
// from prev, and a failed pin ends the pass.
type flushWalk struct {
	t      *server.Thread
	in     *server.Instance
	bp     *bufpool.Instance
	tg     FlushTarget
	opt    FlushOptions
	st     *server.ScanStats
	pinned bool

	processed   int  // `processed`: declared before `rescan:`, so a rescan keeps it
	mustRestart bool // `must_restart`
	allFreed    bool // `all_freed` (copy C: error != DB_FAIL)

	// The first target at or after the walk position, as found by the last search: tgt
	// (Nil: none) when it sat at tgtPos. Targets join the list only at the head, so it stays
	// the answer while tgt keeps that insertion (for Nil: while nothing joined, FlushEnd).
	tgtOK  bool
	tgt    bufpool.FrameID
	tgtPos bufpool.FlushPos
}

// wpos is a position the walk will visit: a node and where it was on the list when the walk
// read it, which still leads on if the node leaves the list (its stale link).
type wpos struct {
	f  bufpool.FrameID
	at bufpool.FlushPos
}

var endOfList = wpos{f: bufpool.Nil}

func (w *flushWalk) mark(f bufpool.FrameID) wpos {
	if f == bufpool.Nil {
		return endOfList
	}
	return wpos{f, w.bp.FlushPosOf(f)}
}

// visit charges n nodes visited.
func (w *flushWalk) visit(n int) {
	w.t.Charge(sim.Time(n) * w.t.Srv.Costs.ListNode)
	w.st.NodesVisited += uint64(n)
}

// untilYield is the number of nodes the walk visits before `processed` reaches
// BUF_LRU_DROP_SEARCH_SIZE and buf_flush_try_yield is attempted (at every node after that,
// until a yield succeeds).
func (w *flushWalk) untilYield() int {
	if w.opt.NoYield {
		return math.MaxInt
	}
	return max(1, yieldEvery-w.processed)
}

// target returns the first target at or after live node cur, whose rank is rc, and its
// rank (FlushLen when there is none).
func (w *flushWalk) target(cur bufpool.FrameID, rc int) (bufpool.FrameID, int) {
	bp := w.bp
	if w.tgtOK {
		if w.tgt == bufpool.Nil {
			if bp.FlushEnd() == w.tgtPos {
				return bufpool.Nil, bp.FlushLen()
			}
		} else if bp.IsDirty(w.tgt) && bp.FlushPosOf(w.tgt) == w.tgtPos {
			if r := bp.FlushRank(w.tgt); r >= rc {
				return w.tgt, r
			}
		}
	}
	// Search again from the oldest target: those older than cur are the ones the walk could
	// not process (io-fixed), usually few.
	f := w.tg.first(bp)
	for f != bufpool.Nil && bp.FlushRank(f) < rc {
		f = w.tg.next(bp, f)
	}
	w.cache(f)
	if f == bufpool.Nil {
		return f, bp.FlushLen()
	}
	return f, bp.FlushRank(f)
}

func (w *flushWalk) cache(f bufpool.FrameID) {
	w.tgtOK, w.tgt = true, f
	if f == bufpool.Nil {
		w.tgtPos = w.bp.FlushEnd()
	} else {
		w.tgtPos = w.bp.FlushPosOf(f)
	}
}

type walkStep uint8

const (
	stepOn     walkStep = iota // ++processed, buf_flush_try_yield(prev), go on to prev
	stepRescan                 // goto rescan
	stepBreak                  // break out of the walk
)

func (w *flushWalk) run() bool {
	t, bp := w.t, w.bp
	t.Lock(w.in.Flush)
rescan:
	w.mustRestart, w.allFreed, w.tgtOK = false, true, false
	p := w.mark(bp.FlushOldest())
walk:
	for p.f != bufpool.Nil {
		var f, prev bufpool.FrameID
		if bp.IsDirty(p.f) {
			cur := p.f
			rc := bp.FlushRank(cur)
			tgt, tr := w.target(cur, rc)
			if k := w.untilYield(); k <= tr-rc {
				// The k-th node from cur is no target; after it, buf_flush_try_yield(its prev).
				w.visit(k)
				w.processed += k
				p = w.tryYield(w.mark(bp.FlushAt(rc + k)))
				continue
			}
			w.visit(tr - rc)
			w.processed += tr - rc
			if tgt == bufpool.Nil {
				break // off the head of the list
			}
			f, prev = tgt, bp.FlushNewer(tgt)
			w.cache(w.tg.next(bp, tgt))
		} else {
			// A node that left the list while the flush-list mutex was released: the walk
			// follows `prev` into it and then its stale link (see flushWalk).
			nx, ok := bp.FlushNewerThan(p.at)
			if !ok {
				// A compaction renumbered the list meanwhile; where the link leads is lost.
				// End the pass as failed: it is repeated after 2 ms.
				w.visit(1)
				w.allFreed = false
				break
			}
			f, prev = p.f, nx
			if !w.tg.is(bp, f) {
				w.visit(1)
				w.processed++
				p = w.tryYield(w.mark(prev))
				continue
			}
		}
		w.visit(1)
		pp := w.mark(prev)
		switch w.onTarget(f, pp) {
		case stepRescan:
			w.st.Restarts++
			goto rescan
		case stepBreak:
			break walk
		}
		w.processed++
		p = w.tryYield(pp)
	}
	t.Unlock(w.in.Flush)
	return w.allFreed
}

// onTarget processes target f (the walk holds both mutexes); prev is the node after it.
func (w *flushWalk) onTarget(f bufpool.FrameID, prev wpos) walkStep {
	if w.pinned {
		// flush_pages_flush_list: pin prev, flush f, carry on from prev.
		pinned := w.tryPin(prev)
		if w.bp.IOFix(f) == bufpool.IONone {
			w.t.Unlock(w.in.Flush)
			if w.bp.IOFix(f) == bufpool.IONone && w.bp.IsDirty(f) { // buf_flush_ready_for_flush
				w.write(f)
			}
			w.t.Lock(w.in.Flush)
		}
		w.allFreed = false // error = DB_FAIL for every target met
		if !pinned {
			return stepBreak
		}
		w.unpin(prev)
		return stepOn
	}
	switch {
	case !w.flushOrRemovePage(f):
		w.allFreed = false
	case w.opt.Write:
		return stepRescan // every mutex was released for the write: prev is not trusted
	case w.mustRestart:
		return stepBreak
	}
	return stepOn
}

// flushOrRemovePage is buf_flush_or_remove_page; it returns `processed`.
func (w *flushWalk) flushOrRemovePage(f bufpool.FrameID) bool {
	t, bp, in := w.t, w.bp, w.in
	if bp.IOFix(f) != bufpool.IONone {
		return false
	}
	t.Unlock(in.Flush)
	done := false
	switch {
	case bp.IOFix(f) != bufpool.IONone || !bp.IsDirty(f):
		// Re-checked under the block mutex: io-fixed or off the list meanwhile.
		w.mustRestart = true
	case !w.opt.Write:
		t.Lock(in.Flush) // buf_flush_remove takes the flush-list mutex itself
		bp.MarkClean(f)
		t.Charge(t.Srv.Costs.PageFree)
		t.Unlock(in.Flush)
		w.st.PagesFreed++
		done = true
	default:
		done = w.write(f)
	}
	t.Lock(in.Flush)
	return done
}

// write is buf_flush_page(BUF_FLUSH_SINGLE_PAGE, sync=false) on a page ready for flush,
// entered with the LRU mutex held and the flush-list mutex released: a buffer-fixed page is
// not written (no_fix_count); otherwise the page is io-fixed, the LRU mutex released for the
// I/O and taken again.
func (w *flushWalk) write(f bufpool.FrameID) bool {
	t, bp := w.t, w.bp
	if bp.FixCount(f) > 0 {
		return false
	}
	bp.SetIOFix(f, bufpool.IOWrite)
	t.Unlock(w.in.LRU)
	t.FlushPageAsync(w.in, f)
	w.st.PagesFlushed++
	t.Lock(w.in.LRU)
	return true
}

// tryYield is buf_flush_try_yield(prev) after `++processed`; it returns where the walk goes
// on: prev, in every case (the source's loop goes on to prev whether or not it yielded).
func (w *flushWalk) tryYield(prev wpos) wpos {
	t, bp, in := w.t, w.bp, w.in
	if w.opt.NoYield || prev.f == bufpool.Nil || w.processed < yieldEvery || bp.IOFix(prev.f) != bufpool.IONone {
		return prev
	}
	if w.pinned {
		// Copy C: buf_page_try_pin; a failed pin makes the pass fail but the walk goes on.
		if !w.tryPin(prev) {
			w.allFreed = false
			return prev
		}
		t.Unlock(in.Flush)
		t.Unlock(in.LRU)
		t.Proc.Sleep(0) // std::this_thread::yield()
		t.Lock(in.LRU)
		t.Lock(in.Flush)
		w.unpin(prev)
	} else {
		t.Unlock(in.Flush)
		if bp.IOFix(prev.f) != bufpool.IONone || !bp.IsDirty(prev.f) {
			// Re-checked under the block mutex: no yield.
			w.mustRestart = true
			t.Lock(in.Flush)
			return prev
		}
		w.mustRestart = false
		// buf_flush_yield: sticky while the LRU mutex is released, so prev keeps its place.
		bp.SetIOFix(prev.f, bufpool.IOPin)
		t.Unlock(in.LRU)
		t.Proc.Sleep(0) // os_thread_yield()
		t.Lock(in.LRU)
		bp.SetIOFix(prev.f, bufpool.IONone)
		t.Lock(in.Flush)
	}
	w.processed = 0
	w.st.Yields++
	return prev
}

// tryPin is buf_page_try_pin (copy C): prev must still be the same insertion, not io-fixed.
func (w *flushWalk) tryPin(prev wpos) bool {
	t, bp := w.t, w.bp
	if prev.f == bufpool.Nil {
		return true
	}
	if !bp.IsDirty(prev.f) {
		return false
	}
	at := bp.FlushPosOf(prev.f) // saved_oldest_lsn
	t.Unlock(w.in.Flush)
	ok := bp.IOFix(prev.f) == bufpool.IONone && bp.IsDirty(prev.f) && bp.FlushPosOf(prev.f) == at
	if ok {
		bp.SetIOFix(prev.f, bufpool.IOPin)
	}
	t.Lock(w.in.Flush)
	return ok
}

// unpin is buf_page_unpin (copy C): the block mutex is held until the flush-list mutex is
// back, so nobody can start a write of prev in between.
func (w *flushWalk) unpin(prev wpos) {
	if prev.f == bufpool.Nil {
		return
	}
	w.t.Unlock(w.in.Flush)
	w.t.Lock(w.in.Flush)
	w.bp.SetIOFix(prev.f, bufpool.IONone)
}

// flushSinglePageAsync is buf_flush_page(BUF_FLUSH_SINGLE_PAGE, sync=false) from a DDL walk
// (§2.1): with the doublewrite buffer, a synchronous write to one of the 8 single-page
// doublewrite slots and an fsync of the system tablespace, then the data-file write
