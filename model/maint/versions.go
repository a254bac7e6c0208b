package maint

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// Buffer-pool routines that only some versions run (model/version's table names them as
// steps; docs/innodb-source.md §8 cites the source of each).

// FreeTablePages is the page-freeing phase of DROP TABLE in 5.5 – 5.7 (and of 5.7's in-place
// TRUNCATE): dict_drop_index_tree → btr_free_but_not_root → fseg_free_step, one
// mini-transaction per extent (fseg_free_extent) or fragment page, each page of the table
// looked up in the pool (btr_search_drop_page_hash_when_freed:
// buf_page_get_gen(PEEK_IF_IN_POOL)) and the AHI entries of a hashed resident page dropped.
// Per page: a page-hash lookup (page_hit); per extent: the modified extent descriptor (a write
// of the space's descriptor page, with its redo). The cost grows with the table, not the pool.
// The dict_sys mutex the real code holds throughout is not modelled.
func FreeTablePages(t *server.Thread, tab *schema.Table) (st server.ScanStats) {
	s := t.Srv
	const extent = 64
	for _, ix := range tab.Indexes() {
		for p := int64(0); p < ix.Pages; p++ {
			pid := schema.MakePageID(tab.Space, ix.Base+uint32(p))
			in := s.InstanceOf(pid)
			t.Charge(s.Costs.PageHit) // a page-hash lookup, not a list node
			if f := in.BP.Lookup(bufpool.PageID(pid)); f != bufpool.Nil && !in.BP.Blocked(f) && t.DropPageAHI(in, f) {
				st.AHIDropped++
			}
			if p%extent == extent-1 || p == ix.Pages-1 {
				// fsp_free_extent / the fragment-page free: the descriptor page, redo-logged.
				t.Write(schema.MakePageID(tab.Space, 0))
			}
		}
	}
	t.Pay()
	return st
}

// MarkSpaceDeleted is Percona Server's buf_LRU_mark_space_was_deleted (innodb_lazy_drop_table):
// one walk of the whole LRU from the head under the LRU mutex, no yield, flagging the space's
// pages (space_was_being_deleted); the flagged pages are then stale and freed where they are
// met. The flag itself is the space's deletion (Space.Deleted), which the caller has set.
func MarkSpaceDeleted(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
	t.Lock(in.LRU)
	n := in.BP.LRULen()
	t.Charge(sim.Time(n) * t.Srv.Costs.ListNode)
	t.Unlock(in.LRU)
	st.NodesVisited = uint64(n)
	return st
}

// ChunkAHIPass is the second half of buf_LRU_mark_space_was_deleted: a pass over every block of
// every chunk of the instance (all frames, contiguous: block_scan each, no list mutex), the
// AHI entries of each hashed page of the space dropped on the way (btr_search_latch released
// around each drop; the block's X latch taken).
func ChunkAHIPass(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
	bp := in.BP
	t.Charge(sim.Time(bp.Frames()) * t.Srv.Costs.BlockScan)
	var hashed []bufpool.FrameID
	for f := range bp.SpaceFrames(space) {
		if bp.HasAHI(f) && !bp.Blocked(f) {
			hashed = append(hashed, f)
		}
	}
	for _, f := range hashed {
		if t.DropPageAHI(in, f) {
			st.AHIDropped++
		}
	}
	t.Pay()
	return st
}

// FlushRemovePages is MariaDB's buf_flush_remove_pages (DISCARD, 10.6+): one walk of the whole
// flush list from the tail holding buf_pool.mutex and flush_list_mutex throughout, no yield,
// unlinking every page of the space that is not write-fixed; if one was, both mutexes are
// released, the walk waits for the pending writes and runs again.
func FlushRemovePages(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
	s, bp := t.Srv, in.BP
	for {
		t.Lock(in.LRU)
		t.Lock(in.Flush)
		n := bp.FlushLen()
		t.Charge(sim.Time(n) * s.Costs.ListNode)
		st.NodesVisited += uint64(n)
		deferred := false
		var unlink []bufpool.FrameID
		for f := bp.SpaceOldestDirty(space); f != bufpool.Nil; f = bp.SpaceNewerDirty(f) {
			if bp.IOFix(f) == bufpool.IOWrite {
				deferred = true
				continue
			}
			unlink = append(unlink, f)
		}
		for _, f := range unlink {
			bp.MarkClean(f)
			t.Charge(s.Costs.PageFree)
			st.PagesFreed++
		}
		t.Unlock(in.Flush)
		t.Unlock(in.LRU)
		if !deferred {
			return st
		}
		st.Sleeps++
		t.WaitPendingWrites() // os_aio_wait_until_no_pending_writes(true)
		t.Sleep(sim.Millisecond)
	}
}
