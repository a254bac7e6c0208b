package server

import (
	"math"

	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/sim"
)

// mariaCleaner is MariaDB 10.11's page cleaner (buf/buf0flu.cc buf_flush_page_cleaner,
// 10.11.18; docs/mariadb-write-path.md §2), for Traits.IdleCleaner flavours: one thread, one
// instance. It waits on buf_pool.do_flush_list — without a timeout when it is idle and
// innodb_max_dirty_pages_pct_lwm is 0 (or nothing is dirty), else for at most 1 s — and is
// woken by buf_pool_t::page_cleaner_wakeup (a page dirtied while the dirty share is at or
// above max_dirty_pages_pct, or at or above a non-zero lwm), by a thread short of free blocks,
// and by buf_flush_ahead at mtr commit when the redo written since the last checkpoint passes
// max_modified_age_async (flush-ahead up to that commit's LSN, io_capacity_max per pass) or
// max_checkpoint_age (furious flushing, no sleep). A signal sent while it is not waiting is
// lost, as a condition variable's is. Each pass:
//   - furious (buf_flush_sync_lsn): buf_flush_sync_for_checkpoint until the oldest
//     modification reaches the target;
//   - nothing dirty: idle, checkpoint;
//   - flush-ahead (buf_flush_async_lsn) reached: cleared; else free list short
//     (need_LRU_eviction): an LRU batch only;
//   - with lwm 0: idle (nothing written) unless flush-ahead is pending, the checkpoint age
//     exceeds innodb_adaptive_flushing_lwm % of the log capacity (af_needed_for_redo) or
//     dirty ≥ max_dirty_pages_pct; with lwm ≠ 0: idle below the lwm unless the server was
//     inactive since the last pass (idle flushing: io_capacity pages);
//   - then a flush-list batch (io_capacity_max up to the flush-ahead LSN, or the
//     recommendation) followed by an LRU batch, and a checkpoint.
//
// Simplified: the batches write through BatchWrite (the flusher waits for each doublewrite
// batch; 10.11's flush_buffered_writes pipeline is used by the tablespace flush only);
// neighbour flushing is not modelled; the LRU batch frees down to lru_scan_depth without
// its io_capacity_max cap on writes; the checkpoint is the oldest modification read after a
// batch (no checkpoint record or write is modelled); the foreground's single-page flush of
// 8.0 still runs when a thread finds no free block (10.11 waits for the cleaner instead).
type mariaCleaner struct {
	s *Server
	t *Thread

	idle     bool // buf_pool.page_cleaner_idle()
	waiting  bool // in my_cond_wait / my_cond_timedwait on do_flush_list
	asyncLSN uint64
	syncLSN  uint64

	// page_cleaner_flush_pages_recommendation's statics.
	prevLSN     uint64
	prevTime    sim.Time
	sumPages    uint64
	avgPageRate float64
	lsnAvgRate  float64
	iterations  int
	lastPages   int
	// lastActivity is last_activity_count (srv_get_activity_count: commits).
	lastActivity uint64
	// lru runs 8.0's LRU batch on the one instance (flushLRU).
	lru *cleaners
}

func (s *Server) startMariaCleaner() {
	c := &mariaCleaner{s: s, lru: &cleaners{s: s}}
	s.mcleaner = c
	s.Redo.Checkpoint = s.Redo.OldestModification()
	c.t = s.Spawn("page_cleaner", "cleaner", c.loop)
}

// signal is pthread_cond_signal(&buf_pool.do_flush_list): it wakes the cleaner if it waits.
func (c *mariaCleaner) signal() {
	if c != nil && c.waiting {
		c.waiting = false
		c.t.Proc.Wake(0)
	}
}

// wakeup is buf_pool_t::page_cleaner_wakeup(for_LRU), called at the commit of an mtr that
// dirtied pages (for_LRU false) and by a thread short of free blocks (true): a busy cleaner
// is signalled only for_LRU (out of a timed wait); an idle one for_LRU, or when the dirty
// share reached max_dirty_pages_pct (or, with lwm ≠ 0, the lwm, or the server looks idle).
func (c *mariaCleaner) wakeup(forLRU bool) {
	if c == nil {
		return
	}
	if !c.idle {
		if forLRU {
			c.signal()
		}
		return
	}
	my := &c.s.Scenario.MySQL
	pct := c.dirtyPct()
	if forLRU || (my.MaxDirtyPagesPctLWM != 0 && (my.MaxDirtyPagesPctLWM <= pct || c.lastActivity == c.s.Stats.Commits)) ||
		my.MaxDirtyPagesPct <= pct {
		c.idle = false
		c.signal()
	}
}

// ahead is buf_flush_ahead(lsn, furious), called at mtr commit when log_close found the age
// since the last checkpoint past max_modified_age_async (or max_checkpoint_age: furious).
func (c *mariaCleaner) ahead(lsn uint64, furious bool) {
	limit := &c.asyncLSN
	if furious {
		limit = &c.syncLSN
	}
	if *limit < lsn {
		*limit = lsn
		c.signal()
	}
}

// logClose is log_close's age check after a change advanced the LSN (mtr_t::commit).
func (c *mariaCleaner) logClose() {
	r := c.s.Redo
	switch age := r.lsn - r.Checkpoint; {
	case age <= r.AsyncAge:
	case age <= r.SyncAge:
		c.ahead(r.lsn, false)
	default:
		c.ahead(r.lsn, true)
	}
}

func (c *mariaCleaner) dirtyPct() float64 {
	bp := c.s.Inst[0].BP
	return 100 * float64(bp.FlushLen()) / math.Max(1, float64(bp.LRULen()+bp.FreeLen()))
}

// needLRU is buf_pool_t::need_LRU_eviction: the free list is below half of
// innodb_lru_scan_depth and the LRU is longer than BUF_LRU_MIN_LEN (256).
func (c *mariaCleaner) needLRU() bool {
	bp := c.s.Inst[0].BP
	return bp.FreeLen() < c.s.Scenario.MySQL.LRUScanDepth/2 && bp.LRULen() > 256
}

// wait is my_cond_wait (timeout 0) or my_cond_timedwait on do_flush_list.
func (c *mariaCleaner) wait(t *Thread, timeout sim.Time) {
	t.Pay()
	c.waiting = true
	if timeout == 0 {
		t.Proc.Park()
	} else {
		ev := c.s.Sim.At(t.Now()+timeout, c.signal)
		t.Proc.Park()
		c.s.Sim.Cancel(ev)
	}
	c.waiting = false
}

func (c *mariaCleaner) loop(t *Thread) {
	s := c.s
	my := &s.Scenario.MySQL
	in := s.Inst[0]
	c.lastActivity = s.Stats.Commits
	for {
		if c.syncLSN != 0 {
			c.furious(t, c.syncLSN)
			continue
		}
		if !c.needLRU() {
			if c.idle && (in.BP.FlushLen() == 0 || my.MaxDirtyPagesPctLWM == 0) {
				c.wait(t, 0)
			} else {
				c.wait(t, sim.Second)
			}
		}
		if c.syncLSN != 0 {
			continue // furious_flush
		}
		soft := c.asyncLSN
		if in.BP.FlushLen() == 0 {
			// fully_unemployed: idle and a checkpoint; then, if the free list is still
			// short, an LRU batch (10.11.18: `if (!buf_pool.need_LRU_eviction()) continue;`
			// after the checkpoint), so a clean pool short of free blocks is served.
			c.asyncLSN = 0
			c.unemployed(t)
			if c.needLRU() {
				c.flushLRU(t, in, my.IOCapacityMax)
			}
			continue
		}
		oldest := s.Redo.OldestModification()
		if soft != 0 && oldest >= soft {
			c.asyncLSN, soft = 0, 0
		} else if c.needLRU() {
			c.flushLRU(t, in, my.IOCapacityMax)
			c.checkpoint(t)
			continue
		}
		pct := c.dirtyPct()
		idleFlush := false
		switch {
		case soft != 0:
		case c.afNeededForRedo(oldest):
		case my.MaxDirtyPagesPctLWM != 0:
			if act := s.Stats.Commits; act != c.lastActivity {
				c.lastActivity = act
			} else if c.idle {
				idleFlush = true // the server was inactive since the last pass
			}
			if !idleFlush && pct < my.MaxDirtyPagesPctLWM {
				c.unemployed(t)
				continue
			}
		case pct < my.MaxDirtyPagesPct:
			c.unemployed(t)
			continue
		}
		c.idle = false
		var n int
		switch {
		case soft != 0:
			n = c.flushList(t, in, my.IOCapacityMax, soft)
		case idleFlush:
			n = c.flushList(t, in, my.IOCapacity, math.MaxUint64)
		default:
			r := c.recommend(t, oldest, pct)
			if r == 0 {
				c.checkpoint(t)
				continue
			}
			n = c.flushList(t, in, r, math.MaxUint64)
			c.lastPages = n
		}
		c.flushLRU(t, in, max(my.IOCapacityMax-n, min(my.IOCapacityMax, my.LRUScanDepth)))
		c.checkpoint(t)
		if idleFlush {
			c.idle = true
		}
	}
}

// unemployed: buf_flush_async_lsn cleared, the cleaner idle, a checkpoint.
func (c *mariaCleaner) unemployed(t *Thread) {
	c.asyncLSN = 0
	c.idle = true
	c.checkpoint(t)
}

// checkpoint is log_checkpoint: the checkpoint LSN becomes the oldest modification.
func (c *mariaCleaner) checkpoint(t *Thread) {
	r := c.s.Redo
	if o := r.OldestModification(); o > r.Checkpoint {
		r.Checkpoint = o
	}
}

// afNeededForRedo: the checkpoint age exceeds innodb_adaptive_flushing_lwm % of the log
// capacity.
func (c *mariaCleaner) afNeededForRedo(oldest uint64) bool {
	r := c.s.Redo
	return float64(r.lsn-oldest) > c.s.Scenario.MySQL.AdaptiveFlushingLWM*float64(r.Capacity)/100
}

// furious is buf_flush_sync_for_checkpoint(lsn): io_capacity_max-page flush-list batches up
// to lsn without any sleep, each followed by an fsync of the data files and a checkpoint,
// until the oldest modification reaches the target.
func (c *mariaCleaner) furious(t *Thread, lsn uint64) {
	s := c.s
	in := s.Inst[0]
	for {
		n := c.flushList(t, in, s.Scenario.MySQL.IOCapacityMax, lsn)
		t.FsyncData()
		c.checkpoint(t)
		measure := s.Redo.OldestModification()
		target := c.syncLSN
		if measure >= target {
			c.syncLSN = 0
		} else if measure >= c.asyncLSN {
			c.asyncLSN = 0
		}
		lsn = max(lsn, target)
		if measure >= lsn {
			return
		}
		if n == 0 {
			// Nothing could be written (every old page fixed or in flight): the source
			// spins; the model lets the writes in flight complete first.
			t.Sleep(100 * sim.Microsecond)
		}
	}
}

// recommend is page_cleaner_flush_pages_recommendation (10.11.18, §2.3 of the doc).
func (c *mariaCleaner) recommend(t *Thread, oldest uint64, dirtyPct float64) int {
	s := c.s
	my := &s.Scenario.MySQL
	in := s.Inst[0]
	ioCap, ioMax := my.IOCapacity, my.IOCapacityMax
	cur := s.Redo.lsn
	age := cur - oldest
	pctForLSN := 0.0
	if lwm := my.AdaptiveFlushingLWM * float64(s.Redo.Capacity) / 100; float64(age) >= lwm {
		f := float64(age * 100 / s.Redo.AsyncAge)
		pctForLSN = float64(ioMax/ioCap) * f * math.Sqrt(f) / 7.5
	}
	dirty := in.BP.FlushLen()
	if c.prevLSN == 0 || pctForLSN == 0 {
		c.prevTime, c.prevLSN = t.Now(), cur
		return min(dirty, ioCap)
	}
	c.sumPages += uint64(c.lastPages)
	elapsed := float64((t.Now() - c.prevTime) / sim.Second) // difftime of time(): whole seconds
	if c.iterations++; c.iterations >= flushingAvgLoops || elapsed >= flushingAvgLoops {
		elapsed = math.Max(1, elapsed)
		c.avgPageRate = (float64(c.sumPages)/elapsed + c.avgPageRate) / 2
		c.lsnAvgRate = (c.lsnAvgRate + float64(cur-c.prevLSN)/elapsed) / 2
		c.prevLSN, c.prevTime = cur, t.Now()
		c.iterations, c.sumPages = 0, 0
	}
	ratio := 1.0
	if my.MaxDirtyPagesPctLWM != 0 && my.MaxDirtyPagesPct != 0 {
		ratio = math.Max(pctForLSN/100, dirtyPct/my.MaxDirtyPagesPct)
	}
	// pages_for_lsn: from the tail, the pages first dirtied within 3 s of redo of the oldest.
	target := oldest + uint64(c.lsnAvgRate*lsnScanFactor)
	t.Lock(in.Flush)
	n := 0
	for f := in.BP.FlushOldest(); f != bufpool.Nil && n < ioMax; f = in.BP.FlushNewer(f) {
		if in.BP.OldestMod(f) > target {
			break
		}
		n++
	}
	t.Charge(sim.Time(n) * s.Costs.ListNode)
	t.Unlock(in.Flush)
	pagesForLSN := max(1, n/lsnScanFactor)
	return min(int((float64(ioCap)*ratio+c.avgPageRate+float64(pagesForLSN))/3), ioMax)
}

// flushList is buf_flush_list(n, lsn) → buf_do_flush_list_batch: up to n pages from the
// flush-list tail whose oldest modification is below lsn, as 8.0's batch walks them
// (cleaners.flushList); it returns the pages written.
func (c *mariaCleaner) flushList(t *Thread, in *Instance, n int, lsn uint64) int {
	written := 0
	for n > 0 {
		pages := flushListBatch(t, in, n, lsn)
		if len(pages) == 0 {
			break
		}
		k := t.BatchWrite(in, pages)
		c.s.Stats.CleanerFlushed += uint64(k)
		written += k
		n -= len(pages)
	}
	return written
}

// flushLRU is buf_flush_LRU(max_n): the LRU batch of 8.0's cleaner (cleaners.flushLRU) on the
// one instance.
func (c *mariaCleaner) flushLRU(t *Thread, in *Instance, _ int) {
	c.lru.flushLRU(t, in)
}
