package maint

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
	"slices"
)

// The policy toolkit: charged primitives a policy composes instead of calling the bufpool
// directly. Each one takes the list mutexes in InnoDB's latch order (LRU_list_mutex before
// flush_list_mutex), honours the io-fix / buffer-fix protocol (a fixed page is neither freed
// nor written; the caller gets it back to retry), and charges the CPU and counts the nodes
// of what it does, so a policy built on them cannot skip any of it. policies/indexed.go is
// the worked example; the conformance suite (policies/conformance_test.go) checks every
// registered policy against the same contract.

// Select picks a policy's targets among one space's resident pages.
type Select struct {
	Space uint32
	// Observer, when not 0, keeps only the pages tagged with that flush observer (which are
	// dirty by construction: a page leaves its observer when it is written).
	Observer uint16
	// Dirty keeps only dirty pages.
	Dirty bool
}

func (sel Select) dirtyOnly() bool { return sel.Dirty || sel.Observer != 0 }

// match reports whether live frame f is a target of sel.
func (sel Select) match(bp *bufpool.Instance, f bufpool.FrameID) bool {
	if !bp.InLRU(f) || bp.Key(f).Space() != sel.Space {
		return false
	}
	if sel.dirtyOnly() && !bp.IsDirty(f) {
		return false
	}
	return sel.Observer == 0 || bp.Observer(f) == sel.Observer
}

// Target is a collected page: its frame and the page it held when collected (a frame freed
// and reused meanwhile holds another page, and is no longer a target).
type Target struct {
	F  bufpool.FrameID
	ID bufpool.PageID
}

func (tg Target) live(bp *bufpool.Instance) bool { return bp.InLRU(tg.F) && bp.Key(tg.F) == tg.ID }

// CollectPages walks instance in's index of sel.Space's pages — the pool's per-space page
// list, which keeps the dirty pages first, so a dirty-only selection walks just those — and
// returns the matches in page-number order (the order a batch write issues them in). The walk
// holds the LRU mutex for at most hold nodes at a time (0 = the whole walk); across a release
// the next node is pinned (IOPin, as buf_flush_yield pins its position) so the walk goes on
// from a page still in the list. Charged: list_node per node visited, and the ordering as an
// insertion sort into a search tree (sort_row per comparison, log2 of the targets each).
func CollectPages(t *server.Thread, in *server.Instance, sel Select, hold int, st *server.ScanStats) []Target {
	s, bp := t.Srv, in.BP
	var out []Target
	t.Lock(in.LRU)
	n := 0
	for f := bp.SpaceFirst(sel.Space); f != bufpool.Nil; f = bp.SpaceNext(f) {
		if sel.dirtyOnly() && !bp.IsDirty(f) {
			break // past the dirty prefix
		}
		n++
		t.Charge(s.Costs.ListNode)
		st.NodesVisited++
		if sel.match(bp, f) {
			out = append(out, Target{f, bp.Key(f)})
		}
		if hold > 0 && n%hold == 0 {
			yieldLRU(t, in, f, st)
		}
	}
	t.Unlock(in.LRU)
	if len(out) > 1 {
		slices.SortFunc(out, func(a, b Target) int {
			if c := int(a.ID.Page()) - int(b.ID.Page()); c != 0 {
				return c
			}
			return int(a.F) - int(b.F)
		})
		// A clean page modified while the walk had yielded moved to the list's head and may
		// have been met twice.
		out = slices.CompactFunc(out, func(a, b Target) bool { return a == b })
		t.Charge(sim.Time(len(out)*log2ceil(len(out))) * s.Costs.FilesortRow)
	}
	return out
}

// yieldLRU releases and re-takes the LRU mutex in the middle of a walk positioned at f (the
// node just visited). The walk's successor is read from f after the mutex is back, and f is
// pinned meanwhile (an io-fixed page is neither evicted, freed nor written), so the walk goes
// on from a page still in the list. At an f that is already io-fixed the walk does not yield.
func yieldLRU(t *server.Thread, in *server.Instance, f bufpool.FrameID, st *server.ScanStats) {
	bp := in.BP
	if bp.IOFix(f) != bufpool.IONone {
		return
	}
	bp.SetIOFix(f, bufpool.IOPin)
	t.Unlock(in.LRU)
	t.Proc.Sleep(0)
	t.Lock(in.LRU)
	bp.SetIOFix(f, bufpool.IONone)
	st.Yields++
}

// RemovePages frees the live targets of one batch under one hold of the LRU and flush-list
// mutexes. A page's AHI entries are dropped first, with the mutexes released (per record,
// under the AHI partition's latch: ahi.go).
// Per target it charges list_node (reaching it) and page_free for each page freed; a dirty
// target leaves the flush list unwritten. A target that is io-fixed or buffer-fixed is not
// freed and comes back in left, for the caller to retry after a wait.
func RemovePages(t *server.Thread, in *server.Instance, batch []Target, st *server.ScanStats) (left []Target) {
	s, bp := t.Srv, in.BP
	for _, tg := range batch {
		if tg.live(bp) && !bp.Blocked(tg.F) && t.DropPageAHI(in, tg.F) {
			st.AHIDropped++
		}
	}
	t.Lock(in.LRU)
	t.Lock(in.Flush)
	for _, tg := range batch {
		st.NodesVisited++
		t.Charge(s.Costs.ListNode)
		if !tg.live(bp) {
			continue // freed meanwhile (evicted, or lazily as stale)
		}
		if bp.Blocked(tg.F) {
			left = append(left, tg)
			continue
		}
		bp.Remove(tg.F, true)
		t.Charge(s.Costs.PageFree)
		st.PagesFreed++
	}
	t.Unlock(in.Flush)
	t.Unlock(in.LRU)
	st.Yields++
	return left
}

// FlushPageBatch writes the targets of one batch that still match sel: under the flush-list
// mutex (list_node per target) each dirty, unfixed one is io-fixed for write; then they go out
// as doublewrite batches (BatchWrite, page_flush_cpu each) and the call returns when they are
// on disk. A target that is still a match but fixed (a write or a modification in flight)
// comes back in left.
func FlushPageBatch(t *server.Thread, in *server.Instance, batch []Target, sel Select, st *server.ScanStats) (left []Target) {
	s, bp := t.Srv, in.BP
	var write []bufpool.FrameID
	t.Lock(in.Flush)
	for _, tg := range batch {
		st.NodesVisited++
		t.Charge(s.Costs.ListNode)
		if !tg.live(bp) || !sel.match(bp, tg.F) || !bp.IsDirty(tg.F) {
			continue
		}
		if bp.IOFix(tg.F) != bufpool.IONone || bp.FixCount(tg.F) > 0 {
			left = append(left, tg)
			continue
		}
		bp.SetIOFix(tg.F, bufpool.IOWrite)
		write = append(write, tg.F)
	}
	t.Unlock(in.Flush)
	st.Yields++
	st.PagesFlushed += uint64(t.BatchWrite(in, write))
	return left
}

// SpaceTargets reports whether any page of sel is still resident in some instance (for a
// policy's completion loop).
func SpaceTargets(s *server.Server, sel Select) bool {
	for _, in := range s.Inst {
		for f := range in.BP.SpaceFrames(sel.Space) {
			if sel.dirtyOnly() && !in.BP.IsDirty(f) {
				break
			}
			if sel.match(in.BP, f) {
				return true
			}
		}
	}
	return false
}

func log2ceil(n int) int {
	k := 0
	for 1<<k < n {
		k++
	}
	return k
}
