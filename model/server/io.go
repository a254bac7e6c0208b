package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// The DDL write path and file operations the maintenance routines (model/maint) call:
// single-page and batch writes through the doublewrite buffer, the wait for pending writes, a
// tablespace rename, a data-file fsync.

// asynchronously; the page stays io-fixed on the flush list until that write completes.
func (t *Thread) FlushPageAsync(in *Instance, f bufpool.FrameID) {
	s := t.Srv
	t.Charge(s.Costs.PageFlushCPU)
	if s.Dblwr {
		for s.dblwrSingle >= dblwrSingleSlots {
			s.dblwrWaiters = append(s.dblwrWaiters, t)
			t.Pay()
			t.Proc.Park()
		}
		s.dblwrSingle++
		t.Charge(s.WriteCPU(Write{SeqBytes: s.PageSize, Syncs: 1})) // its doublewrite slot
		t.IO(s.Data, sim.Write, s.PageSize)
		t.IO(s.Data, sim.Sync, 0)
	}
	t.Charge(s.WriteCPU(Write{Pages: 1})) // the data-file write's submission (completion is asynchronous)
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
			if !s.Stale(in, f) {
				live++
				spaces = append(spaces, bp.Key(f).Space())
			}
		}
		t.Charge(sim.Time(live) * s.Costs.PageFlushCPU)
		if live > 0 {
			if s.Dblwr {
				// One sequential write of the batch to the doublewrite area, and its sync.
				t.Charge(s.WriteCPU(Write{SeqBytes: int64(live) * s.PageSize, Syncs: 1}))
				t.IO(s.Data, sim.Write, int64(live)*s.PageSize)
				t.IO(s.Data, sim.Sync, 0)
			}
			// One asynchronous data-file write per page, submitted by this thread.
			t.Charge(s.WriteCPU(Write{Pages: live}))
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
	t.Charge(s.WriteCPU(Write{Syncs: 1})) // the rename's write is metadata: its sync only
	t.IO(s.Data, sim.Write, 4096)         // the rename: directory entry and the tablespace's name in the DD
	t.IO(s.Data, sim.Sync, 0)
	return retries
}

// FsyncData is fil_flush of a data file.
func (t *Thread) FsyncData() {
	t.Charge(t.Srv.WriteCPU(Write{Syncs: 1}))
	t.IO(t.Srv.Data, sim.Sync, 0)
}
