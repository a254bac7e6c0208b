package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// NewPages creates the pages pids in order, as NewPage does one by one, but aggregated per
// run of pages that map to one buffer-pool instance (at most one extent, newPagesRun pages):
// the run's free blocks are taken under one free-list mutex hold, the pages are put at the
// LRU head under one LRU mutex hold — evicting clean pages from the LRU tail in that same
// hold when the free list runs short — and marked dirty under one flush-list mutex hold.
//
// The real code (buf_page_create, buf_LRU_get_free_block, buf_flush_insert_into_flush_list)
// takes each of those mutexes once per page, and another thread may run between two pages.
// The aggregation keeps everything else: the same CPU is charged in total (each per-page
// mutex acquisition's mutexAcquireCPU, page_free per free-list attempt, list_node per LRU
// node scanned, page_miss per page), the frames, LRU, free and flush lists and the dirty set
// end as the per-page sequence leaves them when no other thread runs in between (frames are
// buffer-fixed until dirtied, as there, so the tail scan passes them over), and any page the
// fast path cannot create — already in the pool, or no replaceable page within the first
// 100 LRU nodes — goes through the per-page path from where the run stopped (single-page
// flush, waits). What changes is the mutex holding: one hold of up to an extent's pages
// instead of one per page. ddl.pool uses it only when the build's table is larger than the
// pool (docs/indexbuild.md, "In the server model").
func (t *Thread) NewPages(pids []schema.PageID) {
	for len(pids) > 0 {
		in := t.Srv.InstanceOf(pids[0])
		n := 1
		for n < len(pids) && n < newPagesRun && t.Srv.InstanceOf(pids[n]) == in {
			n++
		}
		done, scanned := t.newPagesIn(in, pids[:n])
		pids = pids[done:]
		if done < n {
			// Where the run stopped: the per-page path, continuing getFreeBlock after the
			// failed first round when that is why.
			if scanned {
				f := t.getFreeBlockFrom(in, 0, true)
				if g := t.readInto(in, pids[0], false, f); g != bufpool.Nil {
					t.dirty(in, g)
					in.BP.Unfix(g)
				} else {
					t.NewPage(pids[0])
				}
			} else {
				t.NewPage(pids[0])
			}
			pids = pids[1:]
		}
	}
}

// newPagesRun caps the pages created under one mutex hold: an extent (64 pages, all in one
// instance since buf_pool_get folds page_no >> 6).
const newPagesRun = 64

// newPagesIn creates a prefix of pids (all in instance in) under one hold of each mutex and
// returns its length; scanned reports that it stopped because the free list was empty and the
// first-round LRU scan (done and charged here) found no replaceable page.
func (t *Thread) newPagesIn(in *Instance, pids []schema.PageID) (done int, scanned bool) {
	s := t.Srv
	bp := in.BP
	c := s.Costs
	var frames [newPagesRun]bufpool.FrameID
	// Free list: as many blocks as it has, up to the run's length; per block (and for the
	// attempt that finds it empty) the per-page path's free-list mutex acquisition and
	// page_free. The Lock charges this hold's own acquisition.
	t.Lock(in.Free)
	nf := 0
	for nf < len(pids) {
		f := bp.TakeFree()
		if f == bufpool.Nil {
			break
		}
		frames[nf] = f
		nf++
	}
	tries := min(nf+1, len(pids))
	t.Charge(sim.Time(tries)*(mutexAcquireCPU+c.PageFree) - mutexAcquireCPU)
	t.Unlock(in.Free)

	var ahi pendingAHI
	t.Lock(in.LRU)
	cpu := -mutexAcquireCPU // the Lock charged this hold's acquisition
	for done = 0; done < len(pids); done++ {
		pid := bufpool.PageID(pids[done])
		if bp.Lookup(pid) != bufpool.Nil {
			// Already in the pool (a stale page, or a page repeated in pids): NewPage's
			// business.
			break
		}
		f := bufpool.Nil
		if done < nf {
			f = frames[done]
		} else {
			// buf_LRU_get_free_block round 0 with the free list empty (that attempt is
			// charged above for the first such page): scan up to 100 nodes from the LRU
			// tail for a replaceable page, free it, and take it from the free list.
			if done > nf {
				cpu += mutexAcquireCPU + c.PageFree
			}
			v, n := s.evictScan(in, bufpool.SearchScanDefault)
			cpu += mutexAcquireCPU + sim.Time(n)*c.ListNode
			if v == bufpool.Nil {
				scanned = true
				break
			}
			if bp.IsDirty(v) { // a stale dirty page (lazy drop) is freed without a write
				cpu += mutexAcquireCPU
				bp.MarkClean(v)
				s.Stats.StalePagesFreed++
			}
			ahi.note(s, in, v)
			bp.Remove(v, true)
			f = bp.TakeFree() // v, now the free-list head
			cpu += c.PageFree + mutexAcquireCPU + c.PageFree
			frames[done] = f
		}
		cpu += mutexAcquireCPU + c.PageMiss
		bp.AddToLRU(f, pid, false)
		if sp := s.Spaces.Get(pids[done].Space()); sp != nil {
			bp.SetSpaceVersion(f, uint16(sp.Version))
		}
		bp.Fix(f) // until dirtied, as readIn's caller holds it
	}
	// Blocks taken and not used go back to the free list in the order they left it.
	for i := nf - 1; i >= done; i-- {
		bp.ReturnFree(frames[i])
	}
	t.Charge(max(cpu, 0))
	t.Unlock(in.LRU)
	ahi.pay(t)
	if done == 0 {
		return 0, scanned
	}

	// The first modification of each page: the flush-list insert (dirty).
	t.Lock(in.Flush)
	for i := 0; i < done; i++ {
		t.dirtyLocked(in, frames[i])
	}
	t.Charge(sim.Time(done-1) * mutexAcquireCPU)
	t.Unlock(in.Flush)
	for i := 0; i < done; i++ {
		bp.Unfix(frames[i])
	}
	return done, scanned
}
