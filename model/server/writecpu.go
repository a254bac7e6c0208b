package server

import "github.com/ddlsim/ddlsim/sim"

// Write is one write path's I/O as the kernel sees it (docs/cpu-model.md §2.7, §8): Pages
// data-file page writes (pwrite or an asynchronous submission, page_write_cpu each), at most
// one sequential write of SeqBytes (the doublewrite batch or slot, the redo log), and Syncs
// fdatasync/fsync calls after it. Redo marks the redo log's write, which costs nothing
// without seq_write_cpu/seq_write_kib (it was charged nothing before they existed), where a
// data-file sequential write costs page_write_cpu, one write operation.
type Write struct {
	Pages    int
	SeqBytes int64
	Syncs    int
	Redo     bool
}

// WriteCPU is the kernel CPU of w, the one function every write path charges its I/O CPU
// by (the page cleaner's batches, single-page flushes, the DDL's writes, the redo log):
// page_write_cpu per page write; for the sequential write seq_write_cpu + SeqBytes /
// 1 KiB × seq_write_kib (lab/probe/writecpu's seqwrite fit) when the profile gives either, else
// page_write_cpu (one write operation, as before those costs existed); sync_cpu per sync
// (writecpu's fdatasync-S − seqwrite-S). The preparation of a page (checksum, doublewrite
// copy: page_flush_cpu) is the caller's, in user time.
func (s *Server) WriteCPU(w Write) sim.Time {
	c := &s.Costs
	d := sim.Time(w.Pages) * c.PageWriteCPU
	if w.SeqBytes > 0 {
		if c.Path.SeqWriteCPU > 0 || c.Path.SeqWriteKiB > 0 {
			d += c.Path.SeqWriteCPU + perKiB(w.SeqBytes, c.Path.SeqWriteKiB)
		} else if !w.Redo {
			d += c.PageWriteCPU
		}
	}
	d += sim.Time(w.Syncs) * c.Path.SyncCPU
	s.Paths.WriteCPUNs += uint64(d)
	if w.SeqBytes > 0 {
		s.Paths.SeqWrites++
	}
	s.Paths.Syncs += uint64(w.Syncs)
	return d
}

// perKiB is bytes at cost per KiB (a per-byte cost is below the 1 ns resolution).
func perKiB(bytes int64, cost sim.Time) sim.Time { return sim.Time(bytes * int64(cost) / 1024) }
