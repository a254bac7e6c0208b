package server

import (
	"fmt"
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// cleaners are the page cleaner threads (buf0flu.cc, 8.0: buf_flush_page_cleaner_coordinator,
// pc_request / pc_flush_slot / pc_wait_finished). Every round gives each instance (a slot) an
// LRU batch (buf_flush_LRU_list, down to innodb_lru_scan_depth free pages); a round that
// follows the 1 s timeout also computes page_cleaner_flush_pages_recommendation and gives each
// instance a flush-list batch of its share. A round woken early by buf_flush_event — a new
// leaf of a bulk load, a thread that found no free block — is LRU-only (pc_request(0)), and
// rounds follow each other at once while the event keeps being set. A round lasts as long as
// its slowest slot (pc_wait_finished). The coordinator and innodb_page_cleaners-1 workers
// share the slots.
type cleaners struct {
	s       *Server
	queue   []int // instances left in this round
	working int
	coord   *Thread
	idle    []*Thread
	asleep  bool
	// signaled: buf_flush_event was set since the coordinator last reset it (the next
	// pc_sleep_if_needed returns at once).
	signaled bool
	// listRound: this round's slots also run their flush-list batch (perInst).
	listRound bool

	// adaptive-flushing state (srv_flushing_avg_loops = 30)
	prevLSN     uint64
	lsnAvgRate  float64
	pageAvgRate float64
	loops       int
	sumPages    uint64
	sumLSN      uint64
	perInst     []int

	batchDone []*Thread
}

const (
	flushingAvgLoops = 30
	lsnScanFactor    = 3
	doublewriteBatch = 120 // srv_doublewrite_batch_size
	cleanerPeriod    = sim.Second
)

// StartBackground launches the page cleaners, the log writer and purge.
func (s *Server) StartBackground() {
	s.Redo.start()
	s.startPurge()
	if s.Traits.IdleCleaner {
		s.startMariaCleaner()
		return
	}
	c := &cleaners{s: s, perInst: make([]int, len(s.Inst))}
	s.cleaners = c
	n := s.Scenario.MySQL.PageCleaners
	if n > len(s.Inst) {
		n = len(s.Inst)
	}
	if n < 1 {
		n = 1
	}
	c.coord = s.Spawn("page_cleaner_coordinator", "cleaner", c.coordinator)
	for i := 1; i < n; i++ {
		s.Spawn(fmt.Sprintf("page_cleaner_worker[%d]", i), "cleaner", c.worker)
	}
}

// kick is os_event_set(buf_flush_event): it wakes a sleeping coordinator early, or makes its
// next wait return at once; before StartBackground (a server driven by a test) there are no
// cleaners to wake.
func (c *cleaners) kick() {
	if c != nil {
		c.signaled = true
		c.wakeCoordinator()
	}
}

// FlushEvent is os_event_set(buf_flush_event) on behalf of a bulk load that finished a leaf
// page (Btree_load::prepare_space, 8.0.18 BtrBulk::insert: srv_inc_activity_count then
// os_event_set), or any other caller the source has doing so.
func (s *Server) FlushEvent() { s.cleaners.kick() }

func (c *cleaners) wakeCoordinator() {
	if c.asleep {
		c.asleep = false
		c.coord.Proc.Wake(0)
	}
}

func (c *cleaners) coordinator(t *Thread) {
	s := c.s
	c.prevLSN = s.Redo.LSN()
	next := t.Now() + cleanerPeriod
	for {
		// pc_sleep_if_needed (a busy server: srv_check_activity is true): wait for
		// buf_flush_event until next_loop_time; a set event returns at once.
		if !c.signaled && t.Now() < next {
			t.Pay()
			c.asleep = true
			ev := s.Sim.At(next, c.wakeCoordinator)
			t.Proc.Park()
			s.Sim.Cancel(ev)
		}
		c.signaled = false // os_event_reset
		timeout := t.Now() >= next
		if timeout {
			next = t.Now() + cleanerPeriod
		}
		// The sync flush (log_free_check past the sync point) and the timeout round flush
		// the lists; a round woken by the event alone is LRU-only.
		sync := s.Redo.Age() > s.Redo.SyncAge
		c.listRound = timeout || sync
		if c.listRound {
			c.recommend(t)
		}
		c.round(t)
		if s.Redo.Age() > s.Redo.SyncAge {
			// furious flushing: no sleep while the redo log is past the sync point.
			t.Sleep(10 * sim.Millisecond)
			c.signaled = true
		}
	}
}

// round is pc_request + pc_flush_slot until no slot is left + pc_wait_finished.
func (c *cleaners) round(t *Thread) {
	c.queue = c.queue[:0]
	for i := range c.s.Inst {
		c.queue = append(c.queue, i)
	}
	// Wake the workers, then work alongside them until the round is done.
	for _, w := range c.idle {
		w.Proc.Wake(0)
	}
	c.idle = c.idle[:0]
	c.drain(t)
	for c.working > 0 {
		c.batchDone = append(c.batchDone, t)
		t.Proc.Park()
	}
}

func (c *cleaners) worker(t *Thread) {
	for {
		if len(c.queue) == 0 {
			c.idle = append(c.idle, t)
			t.Proc.Park()
			continue
		}
		c.drain(t)
	}
}

// drain flushes instances from the round's queue until it is empty.
func (c *cleaners) drain(t *Thread) {
	for len(c.queue) > 0 {
		i := c.queue[0]
		c.queue = c.queue[1:]
		c.working++
		in := c.s.Inst[i]
		c.flushLRU(t, in)
		if c.listRound {
			c.flushList(t, in, c.perInst[i])
		}
		c.working--
	}
	if c.working == 0 {
		for _, w := range c.batchDone {
			w.Proc.Wake(0)
		}
		c.batchDone = c.batchDone[:0]
	}
}

// recommend is page_cleaner_flush_pages_recommendation (8.0).
func (c *cleaners) recommend(t *Thread) {
	s := c.s
	my := &s.Scenario.MySQL
	ioCap, ioMax := float64(my.IOCapacity), float64(my.IOCapacityMax)
	lsn := s.Redo.LSN()
	oldest := s.Redo.OldestModification()
	age := lsn - oldest

	dirty, total := 0, 0
	for _, in := range s.Inst {
		dirty += in.BP.FlushLen()
		total += in.BP.LRULen() + in.BP.FreeLen()
	}
	dirtyPct := 100 * float64(dirty) / math.Max(1, float64(total))
	pctDirty := 0.0
	switch {
	case my.MaxDirtyPagesPctLWM == 0:
		if dirtyPct >= my.MaxDirtyPagesPct {
			pctDirty = 100
		}
	case dirtyPct >= my.MaxDirtyPagesPctLWM:
		pctDirty = dirtyPct * 100 / (my.MaxDirtyPagesPct + 1)
	}
	pctLSN := 0.0
	if float64(age) >= float64(s.Redo.AsyncAge)*my.AdaptiveFlushingLWM/100 {
		f := float64(age) * 100 / float64(s.Redo.AsyncAge)
		pctLSN = ioMax / ioCap * f * math.Sqrt(f) / 7.5
	}
	pct := math.Max(pctDirty, pctLSN)

	c.sumLSN += lsn - c.prevLSN
	c.prevLSN = lsn
	c.loops++
	if c.loops >= flushingAvgLoops {
		c.pageAvgRate = (c.pageAvgRate + float64(c.sumPages)/float64(c.loops)) / 2
		c.lsnAvgRate = (c.lsnAvgRate + float64(c.sumLSN)/float64(c.loops)) / 2
		c.loops, c.sumPages, c.sumLSN = 0, 0, 0
	}
	// pages_for_lsn: dirty pages older than oldest + lsn_avg_rate * scan factor, counted by a
	// walk from each flush-list tail (capped at io_capacity_max per instance).
	target := oldest + uint64(c.lsnAvgRate*lsnScanFactor)
	pagesForLSN := 0
	perLSN := make([]int, len(s.Inst))
	for i, in := range s.Inst {
		t.Lock(in.Flush)
		n := 0
		for f := in.BP.FlushOldest(); f != bufpool.Nil && n < int(ioMax); f = in.BP.FlushNewer(f) {
			if in.BP.OldestMod(f) > target {
				break
			}
			n++
		}
		t.Charge(sim.Time(n) * s.Costs.ListNode)
		t.Unlock(in.Flush)
		perLSN[i] = n
		pagesForLSN += n
	}
	pagesForLSN /= lsnScanFactor
	if float64(pagesForLSN) > ioMax {
		pagesForLSN = int(ioMax)
	}
	n := (ioCap*pct/100 + c.pageAvgRate + float64(pagesForLSN)) / 3
	if n > ioMax {
		n = ioMax
	}
	sync := age > s.Redo.SyncAge
	if sync {
		// Sync flush (buf_flush_sync_lsn set by log_free_check): pc_request(ULINT_MAX, lsn):
		// every instance flushes everything older than the target LSN, unthrottled.
		n = math.Max(n, float64(pagesForLSN*lsnScanFactor))
	}
	// Split over instances: by each instance's share of pages_for_lsn when the LSN factor
	// dominates (pct_for_lsn > 30), else evenly.
	for i := range s.Inst {
		if sync {
			c.perInst[i] = perLSN[i] + 1
		} else if pctLSN > 30 && pagesForLSN > 0 {
			c.perInst[i] = int(n*float64(perLSN[i])/float64(pagesForLSN*lsnScanFactor)) + 1
		} else {
			c.perInst[i] = int(n/float64(len(s.Inst))) + 1
		}
	}
}

// flushLRU is buf_flush_LRU_list → buf_flush_batch(LRU) → buf_flush_LRU_list_batch: from the
// LRU tail, free clean pages and dispatch dirty ones until the free list holds lru_scan_depth
// pages or that many nodes were scanned. LRU_list_mutex is taken on every call, even when the
// free list is already full (the loop condition is the check), and released and re-taken
// around every page freed (buf_LRU_free_page drops it) or dispatched for writing; it is held
// continuously only over pages skipped.
func (c *cleaners) flushLRU(t *Thread, in *Instance) {
	s := c.s
	bp := in.BP
	depth := s.Scenario.MySQL.LRUScanDepth
	t.Lock(in.LRU)
	want := depth - bp.FreeLen()
	var dirty []bufpool.FrameID
	var ahi pendingAHI
	scanned := 0
	for f := bp.LRUTail(); f != bufpool.Nil && scanned < want; {
		prev := bp.LRUPrev(f)
		scanned++
		t.Charge(s.Costs.ListNode)
		switch {
		case bp.IOFix(f) != bufpool.IONone || bp.FixCount(f) > 0:
		case s.Stale(in, f) || !bp.IsDirty(f):
			wasDirty := bp.IsDirty(f)
			if !t.ReadyToFree(in, f) {
				break // fixed while the flush-list mutex was awaited
			}
			if wasDirty {
				s.Stats.StalePagesFreed++
			}
			ahi.note(s, in, f)
			bp.Remove(f, true)
			t.Charge(s.Costs.PageFree)
			s.Stats.CleanerLRUEvicted++
			// buf_LRU_free_page released the mutex; the batch takes it again and goes on
			// from its hazard pointer (moved on if that page left the LRU meanwhile).
			bp.SetLRUHP(prev)
			t.Unlock(in.LRU)
			ahi.pay(t)
			ahi = pendingAHI{}
			t.Lock(in.LRU)
			prev = bp.LRUHP()
		default:
			bp.SetIOFix(f, bufpool.IOWrite)
			dirty = append(dirty, f)
			// buf_flush_page_and_try_neighbors(LRU) releases LRU_list_mutex around the dispatch.
			bp.SetLRUHP(prev)
			t.Unlock(in.LRU)
			t.Lock(in.LRU)
			prev = bp.LRUHP()
		}
		f = prev
	}
	bp.SetLRUHP(bufpool.Nil)
	t.Unlock(in.LRU)
	ahi.pay(t)
	c.write(t, in, dirty)
}

// flushList is buf_flush_do_batch(BUF_FLUSH_LIST) → buf_do_flush_list_batch: dispatch the n
// oldest dirty pages from the flush-list tail. flush_list_mutex is released and re-taken
// around every page dispatched (buf_flush_page_and_try_neighbors) and held continuously only
// over pages skipped (io-fixed or buffer-fixed). A page is io-fixed when it is added to the
// doublewrite buffer, and a full buffer (srv_doublewrite_batch_size pages) is written before
// more are dispatched, so a page stays io-fixed for one doublewrite batch, not the whole
// flush batch.
func (c *cleaners) flushList(t *Thread, in *Instance, n int) {
	for n > 0 {
		pages := flushListBatch(t, in, n, math.MaxUint64)
		if len(pages) == 0 {
			return
		}
		c.write(t, in, pages)
		n -= len(pages)
	}
}

// flushListBatch is one doublewrite batch of buf_do_flush_list_batch's walk: up to
// min(n, doublewriteBatch) pages from the flush-list tail whose oldest modification is below
// lsn (math.MaxUint64: every page), io-fixed for writing. flush_list_mutex is released and
// re-taken around every page dispatched and held continuously only over pages skipped
// (io-fixed or buffer-fixed); each page visited costs a list-node step.
func flushListBatch(t *Thread, in *Instance, n int, lsn uint64) []bufpool.FrameID {
	bp := in.BP
	t.Lock(in.Flush)
	var pages []bufpool.FrameID
	for f := bp.FlushOldest(); f != bufpool.Nil && len(pages) < min(n, doublewriteBatch); {
		t.Charge(t.Srv.Costs.ListNode)
		if bp.OldestMod(f) >= lsn {
			break
		}
		if bp.IOFix(f) != bufpool.IONone || bp.FixCount(f) > 0 {
			f = bp.FlushNewer(f)
			continue
		}
		bp.SetIOFix(f, bufpool.IOWrite)
		pages = append(pages, f)
		// Released around the dispatch; the walk goes on from the hazard pointer (the
		// next newer page), or from the tail when that page has left the list meanwhile.
		bp.SetFlushHP(bp.FlushNewer(f))
		t.Unlock(in.Flush)
		t.Lock(in.Flush)
		f = bp.FlushHP()
	}
	bp.SetFlushHP(bufpool.Nil)
	t.Unlock(in.Flush)
	return pages
}

// write flushes pages for the cleaner and feeds the adaptive-flushing page rate.
func (c *cleaners) write(t *Thread, in *Instance, pages []bufpool.FrameID) {
	n := t.BatchWrite(in, pages)
	c.s.Stats.CleanerFlushed += uint64(n)
	c.sumPages += uint64(n)
}
