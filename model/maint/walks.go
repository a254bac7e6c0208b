package maint

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
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
func DropAHIForTablespace(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
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
func RemoveAllPages(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
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
				removePage(t, in, f, &st)
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
			if bp.Blocked(f) || !removePage(t, in, f, &st) {
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
func removePage(t *server.Thread, in *server.Instance, f bufpool.FrameID, st *server.ScanStats) bool {
	if !t.ReadyToFree(in, f) {
		return false
	}
	in.BP.Remove(f, true)
	t.Charge(t.Srv.Costs.PageFree)
	st.PagesFreed++
	return true
}

// flush list under the flush-list mutex, no yield (FlushObserver::flush's progress count).
func CountObserverPages(t *server.Thread, in *server.Instance, obs uint16) (st server.ScanStats) {
	t.Lock(in.Flush)
	n := in.BP.FlushLen()
	t.Charge(sim.Time(n) * t.Srv.Costs.ListNode)
	t.Unlock(in.Flush)
	st.NodesVisited = uint64(n)
	return st
}

// WaitObserver polls every 2 ms until no page of the observer is dirty (is_complete).
func WaitObserver(t *server.Thread, obs uint16) (st server.ScanStats) {
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
func DropAHIForTable(t *server.Thread, space uint32) (st server.ScanStats) {
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
