package server

import (
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// The buffer-pool maintenance routines of buf0lru.cc / buf0flu.cc (8.0.18 shape; see
// docs/innodb-source.md for the loops they follow). Policies compose them. Each walks its list
// under the mutexes the real code holds and charges list_node per node visited; which pages
// a walk meets and how many nodes it passes are computed from the bufpool's per-space lists
// and flush-list order statistics instead of a node-by-node walk (tested against the literal
// walks in bufpool/oracle.go).

// yieldEvery is BUF_LRU_DROP_SEARCH_SIZE: buf_flush_try_yield releases the mutexes once
// `processed` (pages visited and not flushed) reaches it.
const yieldEvery = bufpool.DropSearchSize

// DropAHIForTablespace is buf_LRU_drop_page_hash_for_tablespace (§1.6): one walk of the whole
// LRU from the tail under the LRU mutex; every 1024 pages of the space with AHI entries the
// mutex is released while their entries are dropped (dropAHI: per record, under the AHI
// partition's latch), then the walk continues. It runs whether or not the AHI is enabled (the
// source does not test btr_search_enabled): with no hashed page it is one full walk with no
// release.
func (t *Thread) DropAHIForTablespace(in *Instance, space uint32) (st ScanStats) {
	s := t.Srv
	bp := in.BP
	t.Lock(in.LRU)
	var bounds []int
	var visited int
	var pages []bufpool.FrameID
	if n := bp.SpaceAHI(space); n >= yieldEvery {
		bounds, visited, pages = bp.WalkAHI(space, yieldEvery, nil) // positions need the walk
	} else {
		visited = bp.LRULen()
		for f := range bp.SpaceFrames(space) {
			if bp.HasAHI(f) && !bp.Blocked(f) {
				pages = append(pages, f)
			}
		}
	}
	last, done := 0, 0
	for _, b := range bounds {
		t.Charge(sim.Time(b-last) * s.Costs.ListNode)
		last = b
		t.Unlock(in.LRU)
		for _, f := range pages[done : done+yieldEvery] {
			t.DropPageAHI(in, f)
		}
		done += yieldEvery
		st.Yields++
		t.Lock(in.LRU)
	}
	t.Charge(sim.Time(visited-last) * s.Costs.ListNode)
	t.Unlock(in.LRU)
	for _, f := range pages[done:] {
		if bp.HasAHI(f) && !bp.Blocked(f) {
			t.DropPageAHI(in, f)
		}
	}
	t.Pay()
	st.NodesVisited += uint64(visited)
	st.AHIDropped += uint64(len(pages))
	return st
}

// RemoveAllPages is buf_LRU_remove_all_pages (§1.5): a walk of the whole LRU from the tail
// under the LRU mutex with no yield, freeing every page of the space. A page that still has AHI
// entries is cleaned and the walk restarts from the tail; a fixed page makes it finish the
// walk, sleep 20 ms and rescan.
func (t *Thread) RemoveAllPages(in *Instance, space uint32) (st ScanStats) {
	s := t.Srv
	bp := in.BP
	var found []bufpool.FrameID
	for {
		t.Lock(in.LRU)
		visited, pages := bp.RemovalScan(space, found[:0])
		found = pages
		// The tail-most unfixed page with AHI entries stops the walk there (rare: the AHI pass
		// ran just before). Its position needs a literal walk.
		ahi := bufpool.Nil
		ahiPos := 0
		for _, f := range found {
			if bp.HasAHI(f) && !bp.Blocked(f) {
				if p := bp.LRUPosition(f); ahi == bufpool.Nil || p < ahiPos {
					ahi, ahiPos = f, p
				}
			}
		}
		if ahi != bufpool.Nil {
			// Pages before it in walk order are freed on the way.
			t.Charge(sim.Time(ahiPos+1) * s.Costs.ListNode)
			// Positions first, then remove: removing shifts the positions of the rest.
			var before []bufpool.FrameID
			for _, f := range found {
				if f != ahi && !bp.Blocked(f) && bp.LRUPosition(f) < ahiPos {
					before = append(before, f)
				}
			}
			for _, f := range before {
				t.removePage(in, f, &st)
			}
			t.Unlock(in.LRU)
			t.DropPageAHI(in, ahi) // btr_search_drop_page_hash_when_freed
			st.AHIDropped++
			st.Restarts++
			st.NodesVisited += uint64(ahiPos + 1)
			continue
		}
		allFreed := true
		t.Charge(sim.Time(visited) * s.Costs.ListNode)
		for _, f := range found {
			if bp.Blocked(f) || !t.removePage(in, f, &st) {
				allFreed = false
			}
		}
		t.Unlock(in.LRU)
		st.NodesVisited += uint64(visited)
		if allFreed {
			return st
		}
		st.Sleeps++
		t.Sleep(20 * sim.Millisecond)
		st.Restarts++
	}
}

// removePage frees one page found by a removal walk (the caller holds the LRU mutex):
// buf_flush_remove under the flush-list mutex if dirty, then off the hash and LRU. It
// reports false, freeing nothing, when the page was fixed while the flush-list mutex was
// awaited (readyToFree): the walk then treats it as a fixed page.
func (t *Thread) removePage(in *Instance, f bufpool.FrameID, st *ScanStats) bool {
	if !t.readyToFree(in, f) {
		return false
	}
	in.BP.Remove(f, true)
	t.Charge(t.Srv.Costs.PageFree)
	st.PagesFreed++
	return true
}

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
func (t *Thread) FlushDirtyPages(in *Instance, tg FlushTarget, opt FlushOptions) (st ScanStats) {
	for {
		t.Lock(in.LRU)
		ok := t.flushOrRemovePass(in, tg, opt, &st)
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
func (t *Thread) flushOrRemovePass(in *Instance, tg FlushTarget, opt FlushOptions, st *ScanStats) bool {
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
	t      *Thread
	in     *Instance
	bp     *bufpool.Instance
	tg     FlushTarget
	opt    FlushOptions
	st     *ScanStats
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
	t.flushSinglePageAsync(w.in, f)
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
// asynchronously; the page stays io-fixed on the flush list until that write completes.
func (t *Thread) flushSinglePageAsync(in *Instance, f bufpool.FrameID) {
	s := t.Srv
	t.Charge(s.Costs.PageFlushCPU)
	if s.Dblwr {
		for s.dblwrSingle >= dblwrSingleSlots {
			s.dblwrWaiters = append(s.dblwrWaiters, t)
			t.Pay()
			t.Proc.Park()
		}
		s.dblwrSingle++
		t.Charge(s.Costs.PageWriteCPU)
		t.IO(s.Data, sim.Write, s.PageSize)
		t.IO(s.Data, sim.Sync, 0)
	}
	t.Charge(s.Costs.PageWriteCPU) // the data-file write's submission (completion is asynchronous)
	t.Pay()
	s.asyncWrites++
	space := in.BP.Key(f).Space()
	s.ioStarted(space)
	s.Data.Submit(sim.Write, s.PageSize, func() {
		s.ioDone(space)
		// buf_page_io_complete → buf_flush_write_complete: off the flush list.
		in.BP.SetIOFix(f, bufpool.IONone)
		in.BP.MarkClean(f)
		s.Stats.PagesWritten++
		s.asyncWrites--
		if s.Dblwr {
			s.dblwrSingle--
			if len(s.dblwrWaiters) > 0 {
				w := s.dblwrWaiters[0]
				s.dblwrWaiters = s.dblwrWaiters[1:]
				w.Proc.Wake(0)
			}
		}
		for len(s.asyncWaiters) > 0 && s.asyncWrites == 0 {
			w := s.asyncWaiters[0]
			s.asyncWaiters = s.asyncWaiters[1:]
			w.Proc.Wake(0)
		}
	})
}

// dblwrSingleSlots: 2 × TRX_SYS_DOUBLEWRITE_BLOCK_SIZE (128) − srv_doublewrite_batch_size
// (120) single-page slots (buf0dblwr.cc).
const dblwrSingleSlots = 8

// WaitPendingWrites is os_aio_wait_until_no_pending_writes.
func (t *Thread) WaitPendingWrites() {
	t.Pay()
	for t.Srv.asyncWrites > 0 {
		t.Srv.asyncWaiters = append(t.Srv.asyncWaiters, t)
		t.Proc.Park()
		t.Woken()
	}
}

// CountObserverPages is buf_flush_get_dirty_pages_count for one instance: a walk of the whole
// flush list under the flush-list mutex, no yield (FlushObserver::flush's progress count).
func (t *Thread) CountObserverPages(in *Instance, obs uint16) (st ScanStats) {
	t.Lock(in.Flush)
	n := in.BP.FlushLen()
	t.Charge(sim.Time(n) * t.Srv.Costs.ListNode)
	t.Unlock(in.Flush)
	st.NodesVisited = uint64(n)
	return st
}

// WaitObserver polls every 2 ms until no page of the observer is dirty (is_complete).
func (t *Thread) WaitObserver(obs uint16) (st ScanStats) {
	for {
		left := 0
		for _, in := range t.Srv.Inst {
			left += in.BP.ObserverDirty(obs)
		}
		if left == 0 {
			return st
		}
		st.Sleeps++
		t.Sleep(2 * sim.Millisecond)
	}
}

// DropAHIForTable is btr_drop_ahi_for_table (§7): while the table still has pages with AHI
// entries (its ref_count), rounds over the instances, each walking the LRU from the tail under
// the LRU mutex until 1024 such pages are collected or the list ends, dropping them with the
// mutex released, then a yield. A table with no hashed page costs nothing: the loop's test
// fails before the first round. It runs on DROP TABLE both before and after 8.0.23.
func (t *Thread) DropAHIForTable(space uint32) (st ScanStats) {
	s := t.Srv
	for s.SpaceAHIPages(space) > 0 {
		left := 0
		for _, in := range s.Inst {
			bp := in.BP
			t.Lock(in.LRU)
			bounds, visited, collected := bp.AHIScan(space, yieldEvery, nil)
			n := collected
			if len(bounds) > 0 {
				visited, n = bounds[0], yieldEvery
			}
			t.Charge(sim.Time(visited) * s.Costs.ListNode)
			st.NodesVisited += uint64(visited)
			// Take the batch's pages: the tail-most n AHI pages (positions need the walk
			// only when a batch fills, which AHIScan already did).
			var batch []bufpool.FrameID
			if len(bounds) > 0 {
				_, _, pages := bp.WalkAHI(space, yieldEvery, nil)
				batch = pages[:n]
			} else {
				for f := range bp.SpaceFrames(space) {
					if bp.HasAHI(f) && !bp.Blocked(f) {
						batch = append(batch, f)
					}
				}
			}
			t.Unlock(in.LRU)
			for _, f := range batch {
				if bp.HasAHI(f) {
					t.DropPageAHI(in, f)
				}
			}
			st.AHIDropped += uint64(len(batch))
			left += collected - len(batch)
		}
		t.Sleep(0) // std::this_thread::yield()
		if left > 0 {
			st.Restarts++
		} else if s.SpaceAHIPages(space) > 0 {
			// Only buffer-fixed hashed pages remain: the source keeps looping on ref_count
			// (Bug #113312's stall); the model waits for the fixes to go.
			st.Sleeps++
			t.Sleep(sim.Millisecond)
		}
	}
	return st
}

// BatchWrite flushes io-fixed pages as doublewrite batches: each batch of up to 120 pages is
// written to the doublewrite area sequentially and fsynced, then every page is written to its
// data file asynchronously; the batch ends when all its writes completed
// (buf_dblwr_flush_buffered_writes, buf_flush_write_complete). Stale pages (lazy drop) are
// discarded instead of written. Returns the pages written.
func (t *Thread) BatchWrite(in *Instance, pages []bufpool.FrameID) int {
	s := t.Srv
	bp := in.BP
	written := 0
	for len(pages) > 0 {
		k := min(len(pages), doublewriteBatch)
		batch := pages[:k]
		pages = pages[k:]
		live := 0
		var spaces []uint32
		for _, f := range batch {
			if !s.policy.Stale(in, f) {
				live++
				spaces = append(spaces, bp.Key(f).Space())
			}
		}
		t.Charge(sim.Time(live) * s.Costs.PageFlushCPU)
		if live > 0 {
			if s.Dblwr {
				// One sequential write of the batch to the doublewrite area: one operation.
				t.Charge(s.Costs.PageWriteCPU)
				t.IO(s.Data, sim.Write, int64(live)*s.PageSize)
				t.IO(s.Data, sim.Sync, 0)
			}
			// One asynchronous data-file write per page, submitted by this thread.
			t.Charge(sim.Time(live) * s.Costs.PageWriteCPU)
			pending := live
			t.Pay()
			for i := 0; i < live; i++ {
				space := spaces[i]
				s.ioStarted(space)
				s.Data.Submit(sim.Write, s.PageSize, func() {
					s.ioDone(space)
					pending--
					if pending == 0 {
						t.Proc.Wake(0)
					}
				})
			}
			t.Proc.Park()
			t.Woken()
		}
		t.Lock(in.Flush)
		for _, f := range batch {
			if bp.IsDirty(f) {
				bp.MarkClean(f)
			}
			bp.SetIOFix(f, bufpool.IONone)
		}
		t.Unlock(in.Flush)
		s.Stats.PagesWritten += uint64(live)
		written += live
	}
	return written
}

func (s *Server) ioStarted(space uint32) {
	if s.pendingIO == nil {
		s.pendingIO = map[uint32]int{}
	}
	s.pendingIO[space]++
}

func (s *Server) ioDone(space uint32) {
	if s.pendingIO[space]--; s.pendingIO[space] == 0 {
		delete(s.pendingIO, space)
	}
}

// PendingIO is the number of page writes in flight to tablespace space.
func (s *Server) PendingIO(space uint32) int { return s.pendingIO[space] }

// RenameSpace is Fil_shard::space_rename (8.0.18 fil0fil.cc): while the file has I/O in
// flight (n_pending, n_pending_flushes) the rename sleeps 100 ms and retries (up to 25,000
// times, a warning every 1,000); then the file is fsynced if it was modified since its last
// flush and renamed (one metadata write and its sync on the data device). It returns the
// retries.
func (t *Thread) RenameSpace(space uint32) (retries int) {
	s := t.Srv
	for s.PendingIO(space) > 0 && retries < 25000 {
		retries++
		t.Sleep(100 * sim.Millisecond)
	}
	t.FsyncData()
	t.IO(s.Data, sim.Write, 4096) // the rename: directory entry and the tablespace's name in the DD
	t.IO(s.Data, sim.Sync, 0)
	return retries
}

// FsyncData is fil_flush of a data file.
func (t *Thread) FsyncData() { t.IO(t.Srv.Data, sim.Sync, 0) }
