package maint

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/server"
	"github.com/ddlsim/ddlsim/sim"
)

// FlushSpaceBatched is MariaDB's tablespace flush (10.11.18 row/row0quiesce.cc
// row_quiesce_table_start, fil/fil0crypt.cc fil_crypt_flush_space: `while
// (buf_flush_list_space(space));`, docs/mariadb-write-path.md §1.2–1.3): calls of
// buf_flush_list_space repeated, without any sleep, until one reports that it skipped
// nothing. Each call walks the whole flush list from the tail and hands at most
// innodb_io_capacity of the space's pages to the doublewrite pipeline (server.AddToBatch);
// the caller then waits for the writes (os_aio_wait_until_no_pending_writes) and fsyncs the
// file (FlushPages' caller does both).
func FlushSpaceBatched(t *server.Thread, in *server.Instance, space uint32) (st server.ScanStats) {
	for flushListSpace(t, in, space, &st) {
		st.Restarts++
	}
	return st
}

// flushListSpace is one buf_flush_list_space call; it returns may_have_skipped.
//
// The walk holds buf_pool.mutex (the model's LRU mutex) and flush_list_mutex; it visits every
// node from the tail (list_node each), passing other spaces' pages without releasing either.
// The model passes a run of non-target nodes in one step, counted by flush-list rank. At a
// page of the space that is write-fixed or buffer-fixed (ready_for_flush fails) it notes
// may_have_skipped and goes on. Otherwise it sets the hazard pointer to the next newer node,
// releases flush_list_mutex, write-fixes the page, releases buf_pool.mutex for
// buf_page_t::flush (AddToBatch, which may wait for a doublewrite slot), and takes both
// again; after io_capacity pages it stops with may_have_skipped. If the hazard pointer's node
// left the list meanwhile (buf_pool.flush_hp.is_hp(prev) fails) it notes may_have_skipped.
// At the end the partly filled doublewrite slot is submitted (flush_buffered_writes).
func flushListSpace(t *server.Thread, in *server.Instance, space uint32, st *server.ScanStats) bool {
	s, bp := t.Srv, in.BP
	quota := max(1, s.Scenario.MySQL.IOCapacity) // max_n_flush = srv_io_capacity
	skipped := false
	t.Lock(in.LRU)
	t.Lock(in.Flush)
	pos := 0 // nodes of the walk already visited (their count from the tail)
	f := bp.SpaceOldestDirty(space)
	for f != bufpool.Nil {
		r := bp.FlushRank(f)
		if r >= pos {
			visit(t, st, r-pos+1)
			pos = r + 1
		}
		next := bp.SpaceNewerDirty(f)
		if bp.IOFix(f) != bufpool.IONone || bp.FixCount(f) > 0 {
			skipped = true
			f = next
			continue
		}
		hp := bp.FlushNewer(f)
		var hpAt bufpool.FlushPos
		if hp != bufpool.Nil {
			hpAt = bp.FlushPosOf(hp)
		}
		var nextAt bufpool.FlushPos
		if next != bufpool.Nil {
			nextAt = bp.FlushPosOf(next)
		}
		bp.SetIOFix(f, bufpool.IOWrite)
		t.Unlock(in.Flush)
		t.Unlock(in.LRU)
		t.AddToBatch(in, f)
		st.PagesFlushed++
		if quota--; quota == 0 {
			t.Lock(in.LRU)
			t.Lock(in.Flush)
			skipped = true
			break
		}
		t.Lock(in.LRU)
		t.Lock(in.Flush)
		if hp != bufpool.Nil && (!bp.IsDirty(hp) || bp.FlushPosOf(hp) != hpAt) {
			skipped = true // the hazard pointer was moved by whoever removed prev
		}
		// Where the walk goes on: the rank of the dispatched page (still on the list,
		// write-fixed, unless its write completed meanwhile) is where it was.
		if bp.IsDirty(f) {
			pos = bp.FlushRank(f) + 1
		} else {
			pos = 0 // the count restarts from the live list; nodes are not charged twice
			if hp != bufpool.Nil && bp.IsDirty(hp) {
				pos = bp.FlushRank(hp)
			}
		}
		if next != bufpool.Nil && (!bp.IsDirty(next) || bp.FlushPosOf(next) != nextAt) {
			// The next target left the list (or was re-inserted): search again from the
			// space's oldest dirty page newer than the walk's position.
			next = bp.SpaceOldestDirty(space)
			for next != bufpool.Nil && bp.FlushRank(next) < pos {
				next = bp.SpaceNewerDirty(next)
			}
		}
		f = next
	}
	if f == bufpool.Nil && pos < bp.FlushLen() {
		visit(t, st, bp.FlushLen()-pos) // the rest of the list, to its head
	}
	t.Unlock(in.Flush)
	t.Unlock(in.LRU)
	t.FlushBufferedWrites()
	return skipped
}

func visit(t *server.Thread, st *server.ScanStats, n int) {
	t.Charge(sim.Time(n) * t.Srv.Costs.ListNode)
	st.NodesVisited += uint64(n)
}
