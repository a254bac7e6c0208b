package server

import (
	"fmt"
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// cleaners are the page cleaner threads (buf0flu.cc, 8.0): a coordinator computes how many
// pages to flush each second (page_cleaner_flush_pages_recommendation) and every instance gets
// an LRU flush (down to innodb_lru_scan_depth free pages) and a flush-list batch. The
// coordinator and innodb_page_cleaners-1 workers share the instances.
type cleaners struct {
	s       *Server
	threads []*Thread
	queue   []int // instances left in this round
	working int
	coord   *Thread
	idle    []*Thread
	asleep  bool

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

// StartBackground launches the page cleaners and the log writer.
func (s *Server) StartBackground() {
	s.Redo.start()
	c := &cleaners{s: s, perInst: make([]int, len(s.Inst))}
	s.cleaners = c
	n := s.Sc.MySQL.PageCleaners
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

// kick wakes a sleeping coordinator early (buf_flush_event).
// kick wakes the page cleaners; before StartBackground (a server driven by a test) there are
// none to wake.
func (c *cleaners) kick() {
	if c != nil {
		c.wakeCoordinator()
	}
}

func (c *cleaners) wakeCoordinator() {
	if c.asleep {
		c.asleep = false
		c.coord.P.Wake(0)
	}
}

func (c *cleaners) coordinator(t *Thread) {
	s := c.s
	c.prevLSN = s.Redo.LSN()
	for {
		start := t.Now()
		c.recommend(t)
		c.queue = c.queue[:0]
		for i := range s.Inst {
			c.queue = append(c.queue, i)
		}
		// Wake the workers, then work alongside them until the round is done.
		for _, w := range c.idle {
			w.P.Wake(0)
		}
		c.idle = c.idle[:0]
		c.drain(t)
		for c.working > 0 {
			c.batchDone = append(c.batchDone, t)
			t.P.Park()
		}
		// pc_sleep_if_needed: sleep until a second has passed since the round began,
		// unless the redo log is past the sync point (furious flushing).
		if s.Redo.Age() > s.Redo.SyncAge {
			t.Sleep(10 * sim.Millisecond)
			continue
		}
		next := start + cleanerPeriod
		if next > t.Now() {
			t.Pay()
			c.asleep = true
			ev := s.Sim.At(next, c.wakeCoordinator)
			t.P.Park()
			s.Sim.Cancel(ev)
		}
	}
}

func (c *cleaners) worker(t *Thread) {
	for {
		if len(c.queue) == 0 {
			c.idle = append(c.idle, t)
			t.P.Park()
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
		c.flushList(t, in, c.perInst[i])
		c.working--
	}
	if c.working == 0 {
		for _, w := range c.batchDone {
			w.P.Wake(0)
		}
		c.batchDone = c.batchDone[:0]
	}
}

// recommend is page_cleaner_flush_pages_recommendation (8.0).
func (c *cleaners) recommend(t *Thread) {
	s := c.s
	my := &s.Sc.MySQL
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

// flushLRU is buf_flush_LRU_list: from the LRU tail, free clean pages and write dirty ones
// until the free list holds lru_scan_depth pages or that many nodes were scanned.
func (c *cleaners) flushLRU(t *Thread, in *Instance) {
	s := c.s
	bp := in.BP
	depth := s.Sc.MySQL.LRUScanDepth
	want := depth - bp.FreeLen()
	if want <= 0 {
		return
	}
	t.Lock(in.LRU)
	var dirty []bufpool.FrameID
	var ahi pendingAHI
	scanned := 0
	for f := bp.LRUTail(); f != bufpool.Nil && scanned < want; {
		prev := bp.LRUPrev(f)
		scanned++
		switch {
		case bp.IOFix(f) != bufpool.IONone || bp.FixCount(f) > 0:
		case s.policy.Stale(in, f) || !bp.IsDirty(f):
			if bp.IsDirty(f) {
				t.Lock(in.Flush)
				bp.MarkClean(f)
				t.Unlock(in.Flush)
				s.Stats.StalePagesFreed++
			}
			ahi.note(s, in, f)
			bp.Remove(f, true)
			t.Charge(s.Costs.PageFree)
			s.Stats.CleanerLRUEvicted++
		default:
			bp.SetIOFix(f, bufpool.IOWrite)
			dirty = append(dirty, f)
		}
		f = prev
	}
	t.Charge(sim.Time(scanned) * s.Costs.ListNode)
	t.Unlock(in.LRU)
	ahi.pay(t)
	c.write(t, in, dirty)
}

// flushList is buf_flush_do_batch(BUF_FLUSH_LIST): write the n oldest dirty pages. The real
// batch io-fixes a page only when it adds it to the doublewrite buffer, and a full buffer
// (srv_doublewrite_batch_size pages) is written before more pages are picked, so a page stays
// io-fixed (blocking writers of it) for one doublewrite batch, not for the whole flush batch:
// the model picks and writes one doublewrite batch at a time.
func (c *cleaners) flushList(t *Thread, in *Instance, n int) {
	s := c.s
	bp := in.BP
	for n > 0 {
		t.Lock(in.Flush)
		var pages []bufpool.FrameID
		scanned := 0
		for f := bp.FlushOldest(); f != bufpool.Nil && len(pages) < min(n, doublewriteBatch); f = bp.FlushNewer(f) {
			scanned++
			if bp.IOFix(f) != bufpool.IONone || bp.FixCount(f) > 0 {
				continue
			}
			bp.SetIOFix(f, bufpool.IOWrite)
			pages = append(pages, f)
		}
		t.Charge(sim.Time(scanned) * s.Costs.ListNode)
		t.Unlock(in.Flush)
		if len(pages) == 0 {
			return
		}
		c.write(t, in, pages)
		n -= len(pages)
	}
}

// write flushes pages for the cleaner and feeds the adaptive-flushing page rate.
func (c *cleaners) write(t *Thread, in *Instance, pages []bufpool.FrameID) {
	n := t.BatchWrite(in, pages)
	c.s.Stats.CleanerFlushed += uint64(n)
	c.sumPages += uint64(n)
}
