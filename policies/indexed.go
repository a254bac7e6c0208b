package policies

import (
	"github.com/google/btree"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Indexed is the "Faster DDL" mechanism as reference/innodb.md §6 infers it (the vendor
// publishes no source): the pool keeps, per tablespace and per flush observer, an index of
// its pages, so a DDL visits only its target's pages; dropping frees them in batches, and
// flushing writes them in batches through the doublewrite batch path (no single-page sync
// writes, no restart from the tail); a list mutex is held only per short batch.
//
// The per-space index is the bufpool's intrusive per-space page list (O(1) per page); the
// pages of one operation are ordered by page number in a google/btree so writes go out in
// file order, as a batch flush would issue them.
//
// Parameters: batch (default 256) — pages handled per mutex hold.
type Indexed struct {
	srv   *server.Server
	batch int
}

func newIndexed(srv *server.Server, m map[string]string) (server.Policy, error) {
	p := newParams(m)
	x := &Indexed{srv: srv, batch: p.int("batch", 256)}
	return x, p.done("indexed")
}

func (x *Indexed) Name() string { return "indexed" }

func (x *Indexed) Stale(*server.Instance, bufpool.FrameID) bool { return false }

type pageItem struct {
	page uint32
	f    bufpool.FrameID
}

func lessPage(a, b pageItem) bool { return a.page < b.page }

// targets collects instance in's pages of sp (dirty only, or tagged with obs) in page order.
func (x *Indexed) targets(in *server.Instance, sp uint32, obs uint16, dirtyOnly bool) []pageItem {
	tr := btree.NewG[pageItem](16, lessPage)
	for f := range in.BP.SpaceFrames(sp) {
		if dirtyOnly && !in.BP.IsDirty(f) {
			continue
		}
		if obs != 0 && in.BP.Observer(f) != obs {
			continue
		}
		tr.ReplaceOrInsert(pageItem{in.BP.Key(f).Page(), f})
	}
	out := make([]pageItem, 0, tr.Len())
	tr.Ascend(func(it pageItem) bool { out = append(out, it); return true })
	return out
}

func (x *Indexed) DropPages(t *server.Thread, sp *server.Space, op server.Op) (st server.ScanStats) {
	s := t.S
	for _, in := range s.Inst {
		pages := x.targets(in, sp.ID, 0, false)
		for len(pages) > 0 {
			k := min(x.batch, len(pages))
			b := pages[:k]
			pages = pages[k:]
			// AHI entries of the batch are dropped before taking the list mutex.
			for _, it := range b {
				if in.BP.InLRU(it.f) && in.BP.HasAHI(it.f) {
					t.Charge(s.Costs.AHIDrop)
					in.BP.SetAHI(it.f, false)
					st.AHIDropped++
				}
			}
			t.Lock(in.LRU)
			t.Lock(in.Flush)
			for _, it := range b {
				f := it.f
				st.NodesVisited++
				t.Charge(s.Costs.ListNode)
				if !in.BP.InLRU(f) || in.BP.Key(f).Space() != sp.ID || in.BP.Blocked(f) {
					continue
				}
				in.BP.Remove(f, true)
				t.Charge(s.Costs.PageFree)
				st.PagesFreed++
			}
			t.Unlock(in.Flush)
			t.Unlock(in.LRU)
			st.Yields++
		}
	}
	// Fixed pages (I/O in flight) are retried after a short wait, as any pool operation must.
	for left, tries := true, 0; left && tries < 100; tries++ {
		left = false
		for _, in := range s.Inst {
			for f := range in.BP.SpaceFrames(sp.ID) {
				if in.BP.Blocked(f) {
					left = true
				}
			}
		}
		if left {
			st.Sleeps++
			t.Sleep(sim.Millisecond)
			for _, in := range s.Inst {
				t.Lock(in.LRU)
				t.Lock(in.Flush)
				for f := range in.BP.SpaceFrames(sp.ID) {
					if !in.BP.Blocked(f) {
						in.BP.Remove(f, true)
						st.PagesFreed++
					}
				}
				t.Unlock(in.Flush)
				t.Unlock(in.LRU)
			}
		}
	}
	return st
}

func (x *Indexed) FlushPages(t *server.Thread, sp *server.Space, obs uint16, op server.Op) (st server.ScanStats) {
	s := t.S
	for _, in := range s.Inst {
		pages := x.targets(in, sp.ID, obs, true)
		for len(pages) > 0 {
			k := min(x.batch, len(pages))
			b := pages[:k]
			pages = pages[k:]
			t.Lock(in.Flush)
			var batch []bufpool.FrameID
			for _, it := range b {
				st.NodesVisited++
				t.Charge(s.Costs.ListNode)
				f := it.f
				if in.BP.IsDirty(f) && in.BP.IOFix(f) == bufpool.IONone && in.BP.FixCount(f) == 0 &&
					(obs == 0 || in.BP.Observer(f) == obs) {
					in.BP.SetIOFix(f, bufpool.IOWrite)
					batch = append(batch, f)
				}
			}
			t.Unlock(in.Flush)
			st.Yields++
			st.PagesFlushed += uint64(len(batch))
			t.BatchWrite(in, batch)
		}
	}
	if obs != 0 {
		st.Add(t.WaitObserver(obs))
	} else {
		t.FsyncData()
	}
	return st
}
