package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// MariaDB 10.5+'s doublewrite buffer (buf/buf0dblwr.cc, 10.11.18: buf_dblwr_t::add_to_batch,
// flush_buffered_writes, flush_buffered_writes_completed, write_completed), used by the
// batched tablespace flush (Version.Traits.DblwrPipeline, docs/mariadb-write-path.md §1.3):
// two slots of 2 × FSP_EXTENT_SIZE = 128 pages. add_to_batch copies a write-fixed page into
// the active slot; a full slot is submitted by flush_buffered_writes, which waits only while
// the other slot's batch is still running (batch_running), swaps the slots and submits the
// full one as one asynchronous sequential write to the doublewrite area. Its completion (an
// I/O thread) fsyncs the system tablespace and then submits every page as its own
// asynchronous 16 KiB write; when they have all completed the slot is free again. The
// flushing thread blocks only while both slots are busy.

// dblwrSlotPages is buf_dblwr_t::block_size() × 2 = 2 × FSP_EXTENT_SIZE (64 pages of 16 KiB).
const dblwrSlotPages = 128

type dblwrPage struct {
	in *Instance
	f  bufpool.FrameID
}

// dblwrPipe is buf_dblwr: the active slot's pages and whether the other slot's batch runs.
type dblwrPipe struct {
	active  []dblwrPage
	running bool
	waiters []*Thread
	// Batches counts the doublewrite batches submitted (one sequential write + fsync each).
	batches uint64
}

// DblwrBatches is the number of doublewrite batches the pipeline has submitted.
func (s *Server) DblwrBatches() uint64 { return s.dblwr.batches }

// AddToBatch is buf_page_t::flush of write-fixed page f (the caller set IOWrite) for MariaDB:
// the checksum and copy into the active doublewrite slot (page_flush_cpu), and the slot's
// submission when it is full. Without the doublewrite buffer the page's write is submitted
// at once. The page leaves the flush list when its data-file write completes.
func (t *Thread) AddToBatch(in *Instance, f bufpool.FrameID) {
	s := t.Srv
	t.Charge(s.Costs.PageFlushCPU)
	if !s.Dblwr {
		t.Charge(s.WriteCPU(Write{Pages: 1}))
		t.Pay()
		s.asyncWrites++
		s.submitPageWrite(dblwrPage{in, f}, nil)
		return
	}
	s.dblwr.active = append(s.dblwr.active, dblwrPage{in, f})
	if len(s.dblwr.active) >= dblwrSlotPages {
		t.FlushBufferedWrites()
	}
}

// FlushBufferedWrites is buf_dblwr_t::flush_buffered_writes: submit the active slot (when it
// holds a page), after waiting for the other slot's batch to finish. The submitter pays the
// CPU of the doublewrite write, its fsync and the page writes' submissions (in the server an
// I/O thread does the last two); it does not wait for the I/O.
func (t *Thread) FlushBufferedWrites() {
	s := t.Srv
	d := &s.dblwr
	for d.running {
		t.Pay()
		if !d.running {
			break
		}
		d.waiters = append(d.waiters, t)
		t.Proc.Park()
		t.Woken()
	}
	if len(d.active) == 0 {
		return
	}
	batch := d.active
	d.active = nil
	d.running = true
	d.batches++
	n := len(batch)
	t.Charge(s.WriteCPU(Write{SeqBytes: int64(n) * s.PageSize, Syncs: 1}))
	t.Charge(s.WriteCPU(Write{Pages: n}))
	t.Pay()
	s.asyncWrites += n
	pending := n
	done := func() {
		if pending--; pending == 0 {
			// write_completed: the slot is free; a flusher waiting for it goes on.
			d.running = false
			for _, w := range d.waiters {
				w.Proc.Wake(0)
			}
			d.waiters = nil
		}
	}
	s.Data.Submit(sim.Write, int64(n)*s.PageSize, func() {
		// flush_buffered_writes_completed: fsync of the doublewrite area, then the pages.
		s.Data.Submit(sim.Sync, 0, func() {
			for _, p := range batch {
				s.submitPageWrite(p, done)
			}
		})
	})
}

// submitPageWrite submits page p's data-file write; at completion the page is clean and
// unfixed (buf_page_write_complete), and os_aio_wait_until_no_pending_writes waiters are
// woken when nothing is in flight any more. A page of a space dropped meanwhile is still
// written (the write was already submitted).
func (s *Server) submitPageWrite(p dblwrPage, done func()) {
	space := p.in.BP.Key(p.f).Space()
	s.ioStarted(space)
	s.Data.Submit(sim.Write, s.PageSize, func() {
		s.ioDone(space)
		bp := p.in.BP
		if bp.IsDirty(p.f) {
			bp.MarkClean(p.f)
		}
		bp.SetIOFix(p.f, bufpool.IONone)
		s.Stats.PagesWritten++
		s.asyncWrites--
		if done != nil {
			done()
		}
		for len(s.asyncWaiters) > 0 && s.asyncWrites == 0 {
			w := s.asyncWaiters[0]
			s.asyncWaiters = s.asyncWaiters[1:]
			w.Proc.Wake(0)
		}
	})
}
