package server

import (
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
// mutex is released while their entries are dropped, then the walk continues.
func (t *Thread) DropAHIForTablespace(in *Instance, space uint32) (st ScanStats) {
	s := t.S
	bp := in.BP
	t.Lock(in.LRU)
	bounds, visited, collected := bp.AHIScan(space, yieldEvery, nil)
	last := 0
	for _, b := range bounds {
		t.Charge(sim.Time(b-last) * s.Costs.ListNode)
		last = b
		t.Unlock(in.LRU)
		t.Charge(yieldEvery * s.Costs.AHIDrop)
		st.Yields++
		t.Lock(in.LRU)
	}
	t.Charge(sim.Time(visited-last) * s.Costs.ListNode)
	t.Unlock(in.LRU)
	rest := collected - len(bounds)*yieldEvery
	t.Charge(sim.Time(rest) * s.Costs.AHIDrop)
	t.Pay()
	// The entries are gone (state effect of the batches).
	for f := range bp.SpaceFrames(space) {
		if bp.HasAHI(f) && bp.IOFix(f) == bufpool.IONone && bp.FixCount(f) == 0 {
			bp.SetAHI(f, false)
		}
	}
	st.NodesVisited += uint64(visited)
	st.AHIDropped += uint64(collected)
	return st
}

// RemoveAllPages is buf_LRU_remove_all_pages (§1.5): a walk of the whole LRU from the tail
// under the LRU mutex with no yield, freeing every page of the space. A page that still has AHI
// entries is cleaned and the walk restarts from the tail; a fixed page makes it finish the
// walk, sleep 20 ms and rescan.
func (t *Thread) RemoveAllPages(in *Instance, space uint32) (st ScanStats) {
	s := t.S
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
			t.Charge(s.Costs.AHIDrop)
			bp.SetAHI(ahi, false)
			st.AHIDropped++
			st.Restarts++
			st.NodesVisited += uint64(ahiPos + 1)
			continue
		}
		allFreed := true
		t.Charge(sim.Time(visited) * s.Costs.ListNode)
		for _, f := range found {
			if bp.Blocked(f) {
				allFreed = false
				continue
			}
			t.removePage(in, f, &st)
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
// buf_flush_remove under the flush-list mutex if dirty, then off the hash and LRU.
func (t *Thread) removePage(in *Instance, f bufpool.FrameID, st *ScanStats) {
	s := t.S
	if in.BP.IsDirty(f) {
		t.Lock(in.Flush)
		in.BP.MarkClean(f)
		t.Unlock(in.Flush)
	}
	in.BP.Remove(f, true)
	t.Charge(s.Costs.PageFree)
	st.PagesFreed++
}

// FlushTarget selects the pages of a flush-list routine: the pages of Space, or, when
// Observer != 0, the pages tagged with that flush observer (which all belong to Space).
type FlushTarget struct {
	Space    uint32
	Observer uint16
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
	// RestartFromTail: after each flushed page the walk starts again from the tail (8.0.18:
	// `goto rescan`). Off = the later pin-the-previous-page walk that continues.
	RestartFromTail bool
	// NoYield disables buf_flush_try_yield (for variants/experiments).
	NoYield bool
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
		t.Sleep(2 * sim.Millisecond)
	}
}

// walker charges a flush-list walk node by node in aggregate, yielding as
// buf_flush_try_yield does every 1024 pages visited.
type walker struct {
	t         *Thread
	in        *Instance
	processed int
	noYield   bool
	st        *ScanStats
}

// pass charges n nodes visited and not flushed, yielding the mutexes at every 1024th.
func (w *walker) pass(n int) {
	s := w.t.S
	for n > 0 {
		step := n
		if !w.noYield && w.processed+step >= yieldEvery {
			step = yieldEvery - w.processed
		}
		w.t.Charge(sim.Time(step) * s.Costs.ListNode)
		w.st.NodesVisited += uint64(step)
		w.processed += step
		n -= step
		if !w.noYield && w.processed >= yieldEvery {
			// buf_flush_yield: pin the page, release both mutexes, os_thread_yield, relock.
			w.t.Unlock(w.in.Flush)
			w.t.Unlock(w.in.LRU)
			w.t.P.Sleep(0)
			w.t.Lock(w.in.LRU)
			w.t.Lock(w.in.Flush)
			w.processed = 0
			w.st.Yields++
		}
	}
}

// flushOrRemovePass is one call of buf_flush_or_remove_pages; it returns all_freed.
func (t *Thread) flushOrRemovePass(in *Instance, tg FlushTarget, opt FlushOptions, st *ScanStats) bool {
	s := t.S
	bp := in.BP
	w := walker{t: t, in: in, noYield: opt.NoYield, st: st}
	t.Lock(in.Flush)
rescan:
	allFreed := true
	pos := 0 // nodes passed so far in this walk (rank of the next unvisited node)
	for f := tg.first(bp); f != bufpool.Nil; {
		r := bp.FlushRank(f)
		if r > pos {
			w.pass(r - pos)
		}
		pos = r + 1
		nx := tg.next(bp, f)
		if bp.IOFix(f) != bufpool.IONone {
			allFreed = false
			w.pass(1)
			pos = r + 1
			f = nx
			continue
		}
		if !opt.Write {
			bp.MarkClean(f) // buf_flush_remove
			t.Charge(s.Costs.PageFree)
			st.PagesFreed++
			w.pass(1)
			pos = r // the node at rank r is gone: the next one now has rank r
			f = nx
			continue
		}
		// Flush it: release both mutexes for the I/O (buf_flush_page).
		t.Charge(s.Costs.ListNode)
		st.NodesVisited++
		bp.SetIOFix(f, bufpool.IOWrite)
		t.Unlock(in.Flush)
		t.Unlock(in.LRU)
		t.flushSinglePageAsync(in, f)
		st.PagesFlushed++
		t.Lock(in.LRU)
		t.Lock(in.Flush)
		if opt.RestartFromTail {
			st.Restarts++
			goto rescan
		}
		// Pinned-prev variant: continue from where the walk was; the list may have changed
		// while unlocked, so recompute the position from the next target's rank.
		f = tg.first(bp)
		for f != bufpool.Nil && bp.IOFix(f) != bufpool.IONone {
			f = tg.next(bp, f)
		}
		if f != bufpool.Nil {
			pos = bp.FlushRank(f)
		}
		allFreed = false // later 8.0 marks every pass that touched a target as failed
	}
	// The walk runs off the head of the list.
	if rest := bp.FlushLen() - pos; rest > 0 {
		w.pass(rest)
	}
	t.Unlock(in.Flush)
	return allFreed
}

// flushSinglePageAsync is buf_flush_page(BUF_FLUSH_SINGLE_PAGE, sync=false) from a DDL walk
// (§2.1): with the doublewrite buffer, a synchronous write to one of the 8 single-page
// doublewrite slots and an fsync of the system tablespace, then the data-file write
// asynchronously; the page stays io-fixed on the flush list until that write completes.
func (t *Thread) flushSinglePageAsync(in *Instance, f bufpool.FrameID) {
	s := t.S
	t.Charge(s.Costs.PageFlushCPU)
	if s.Dblwr {
		for s.dblwrSingle >= dblwrSingleSlots {
			s.dblwrWaiters = append(s.dblwrWaiters, t)
			t.Pay()
			t.P.Park()
		}
		s.dblwrSingle++
		t.IO(s.Data, sim.Write, s.PageSize)
		t.IO(s.Data, sim.Sync, 0)
	}
	t.Pay()
	s.asyncWrites++
	s.Data.Submit(sim.Write, s.PageSize, func() {
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
				w.P.Wake(0)
			}
		}
		for len(s.asyncWaiters) > 0 && s.asyncWrites == 0 {
			w := s.asyncWaiters[0]
			s.asyncWaiters = s.asyncWaiters[1:]
			w.P.Wake(0)
		}
	})
}

// dblwrSingleSlots: 2 × TRX_SYS_DOUBLEWRITE_BLOCK_SIZE (128) − srv_doublewrite_batch_size
// (120) single-page slots (buf0dblwr.cc).
const dblwrSingleSlots = 8

// WaitPendingWrites is os_aio_wait_until_no_pending_writes.
func (t *Thread) WaitPendingWrites() {
	t.Pay()
	for t.S.asyncWrites > 0 {
		t.S.asyncWaiters = append(t.S.asyncWaiters, t)
		t.P.Park()
	}
}

// CountObserverPages is buf_flush_get_dirty_pages_count for one instance: a walk of the whole
// flush list under the flush-list mutex, no yield (FlushObserver::flush's progress count).
func (t *Thread) CountObserverPages(in *Instance, obs uint16) (st ScanStats) {
	t.Lock(in.Flush)
	n := in.BP.FlushLen()
	t.Charge(sim.Time(n) * t.S.Costs.ListNode)
	t.Unlock(in.Flush)
	st.NodesVisited = uint64(n)
	return st
}

// WaitObserver polls every 2 ms until no page of the observer is dirty (is_complete).
func (t *Thread) WaitObserver(obs uint16) (st ScanStats) {
	for {
		left := 0
		for _, in := range t.S.Inst {
			left += in.BP.ObserverDirty(obs)
		}
		if left == 0 {
			return st
		}
		st.Sleeps++
		t.Sleep(2 * sim.Millisecond)
	}
}

// DropAHIForTable is btr_drop_ahi_for_table (§7): rounds over the instances, each walking the
// LRU from the tail under the LRU mutex until 1024 pages of the table with AHI entries are
// collected (or the list ends), dropping them with the mutex released, until none is left.
// It runs on DROP TABLE both before and after 8.0.23.
func (t *Thread) DropAHIForTable(space uint32) (st ScanStats) {
	s := t.S
	for {
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
			t.Charge(sim.Time(len(batch)) * s.Costs.AHIDrop)
			for _, f := range batch {
				bp.SetAHI(f, false)
			}
			st.AHIDropped += uint64(len(batch))
			left += collected - len(batch)
		}
		t.Sleep(0) // std::this_thread::yield()
		if left == 0 {
			return st
		}
		st.Restarts++
	}
}

// BatchWrite flushes io-fixed pages as doublewrite batches: each batch of up to 120 pages is
// written to the doublewrite area sequentially and fsynced, then every page is written to its
// data file asynchronously; the batch ends when all its writes completed
// (buf_dblwr_flush_buffered_writes, buf_flush_write_complete). Stale pages (lazy drop) are
// discarded instead of written. Returns the pages written.
func (t *Thread) BatchWrite(in *Instance, pages []bufpool.FrameID) int {
	s := t.S
	bp := in.BP
	written := 0
	for len(pages) > 0 {
		k := min(len(pages), doublewriteBatch)
		batch := pages[:k]
		pages = pages[k:]
		live := 0
		for _, f := range batch {
			if !s.Policy.Stale(in, f) {
				live++
			}
		}
		t.Charge(sim.Time(live) * s.Costs.PageFlushCPU)
		if live > 0 {
			if s.Dblwr {
				t.IO(s.Data, sim.Write, int64(live)*s.PageSize)
				t.IO(s.Data, sim.Sync, 0)
			}
			pending := live
			t.Pay()
			for i := 0; i < live; i++ {
				s.Data.Submit(sim.Write, s.PageSize, func() {
					pending--
					if pending == 0 {
						t.P.Wake(0)
					}
				})
			}
			t.P.Park()
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

// FsyncData is fil_flush of a data file.
func (t *Thread) FsyncData() { t.IO(t.S.Data, sim.Sync, 0) }
