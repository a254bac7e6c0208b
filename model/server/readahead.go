package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
)

// Linear read-ahead (buf_read_ahead_linear, buf0rea.cc; MariaDB 10.11 and MySQL 8.0 alike), for
// the range scans that walk a table's leaves in key order (ScanLeaves: the copy tools' chunk
// SELECTs). When a thread accesses the last page of an extent (64 pages) and at least
// innodb_read_ahead_threshold (56) of the extent's pages were accessed in ascending order,
// InnoDB reads the next extent's pages that are not in the pool in the background
// (buf_read_page_background: asynchronous reads, completed by the read I/O threads), so a
// sequential scan of a table not in the pool finds most of its pages read already, or in
// flight, instead of waiting for each read in turn.
//
// Modelled: the extent boundary and the in-order count per thread (a scan that continues on the
// page it stopped at, or the next one, keeps counting: the copy's consecutive chunks), and the
// background reads spread over innodb_read_io_threads (4, the default of both servers)
// reader threads, each reading its share of the extent's missing pages one after another
// (the device's channels serve them in parallel). The reads count as read-ahead
// (Innodb_buffer_pool_read_ahead), not as the scanning thread's misses.
//
// Simplified: the pages' access times are not kept, so "accessed in order" is this thread's own
// run; the next extent is the next 64 page numbers (the model's leaves are contiguous, as a
// freshly loaded table's are); random read-ahead (off by default) is not modelled.

const (
	extentPages        = 64
	readAheadThreshold = 56 // innodb_read_ahead_threshold's default
	readIOThreads      = 4  // innodb_read_io_threads' default
)

// ScanLeaves reads leaves first..last of ix in key order, with linear read-ahead.
func (t *Thread) ScanLeaves(ix *schema.Index, first, last int64) {
	for l := first; l <= last; l++ {
		pid := ix.Leaf(l)
		t.Read(pid)
		t.noteSequential(ix, pid)
	}
}

// noteSequential counts t's in-order accesses within pid's extent and triggers the read-ahead
// of the next extent at its last page.
func (t *Thread) noteSequential(ix *schema.Index, pid schema.PageID) {
	p := pid.Page()
	switch {
	case t.seqLast != 0 && pid == t.seqLast:
		return // the same page again (a chunk that starts where the last one stopped)
	case t.seqLast != 0 && pid == t.seqLast+1 && p%extentPages != 0:
		t.seqRun++
	default:
		t.seqRun = 1
	}
	t.seqLast = pid
	if p%extentPages == extentPages-1 && t.seqRun >= readAheadThreshold {
		t.readAheadNext(ix, pid+1)
	}
}

// readAheadNext reads the extent starting at from in the background: the pages of ix's
// leaves not in the pool, spread over the read I/O threads.
func (t *Thread) readAheadNext(ix *schema.Index, from schema.PageID) {
	s := t.Srv
	lastLeaf := ix.Leaf(ix.LeafPages() - 1)
	var missing []schema.PageID
	for pid := from; pid < from+extentPages && pid <= lastLeaf; pid++ {
		if s.InstanceOf(pid).BP.Lookup(bufpool.PageID(pid)) == bufpool.Nil {
			missing = append(missing, pid)
		}
	}
	if len(missing) == 0 {
		return
	}
	s.Stats.ReadAheadBatches++
	for i := 0; i < readIOThreads && i < len(missing); i++ {
		share := missing[i:]
		s.Spawn("read_ahead", "io", func(r *Thread) {
			r.readAhead = true
			for k := 0; k < len(share); k += readIOThreads {
				pid := share[k]
				in := s.InstanceOf(pid)
				if in.BP.Lookup(bufpool.PageID(pid)) != bufpool.Nil {
					continue // read meanwhile by a foreground miss
				}
				if f := r.readIn(in, pid, true); f != bufpool.Nil {
					in.BP.Unfix(f)
				}
			}
		})
	}
}
