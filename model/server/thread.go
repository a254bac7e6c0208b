package server

import (
	"github.com/ddlsim/ddlsim/model/bufpool"
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/sim"
)

// Thread is a simulated server thread (a connection's THD, a DDL thread, a page cleaner).
type Thread struct {
	Srv  *Server
	Proc *sim.Proc
	// debt is CPU time done inline and not yet paid on a core.
	debt sim.Time
	// charged is all CPU time ever charged (Charged).
	charged sim.Time
	// Observer tags pages this thread creates (bulk load under a FlushObserver).
	Observer uint16
	// Internal marks a thread whose page changes are not user DML (a DDL applying its row
	// log), so they do not feed row logs.
	Internal bool
	// Per-thread counters a caller may read (a DDL's work).
	Hits, Misses uint64
	// readAhead marks a background read-ahead reader (readahead.go): its reads are not misses.
	readAhead bool
	// seqLast, seqRun: the last leaf ScanLeaves read and the in-order run within its extent.
	seqLast schema.PageID
	seqRun  int
	// commitJoin puts the thread in the group commit's waiters (CommitWait), bound once.
	commitJoin func()
	// binlogCache is the binary-log bytes of the transaction's row events (binlog.go).
	binlogCache uint64
	// mdlTimeout, when > 0, is the session's own lock_wait_timeout (AcquireMDLTimeout).
	mdlTimeout sim.Time
	// running: the connection is executing a command (Threads_running, running.go);
	// endPending: its command ended and stops counting when its owed CPU has run.
	running, endPending bool
	settleFn            func() // settle, bound once
}

// Spawn starts a server thread running body.
func (s *Server) Spawn(name, kind string, body func(t *Thread)) *Thread {
	t := &Thread{Srv: s}
	t.settleFn = t.settle
	t.Proc = s.Sim.Spawn(name, kind, func(p *sim.Proc) {
		body(t)
		t.Pay()
	})
	return t
}

// Now is the current virtual time.
func (t *Thread) Now() sim.Time { return t.Srv.Sim.Now() }

// Charge adds CPU work done inline; it is paid on a core at the next Pay.
func (t *Thread) Charge(d sim.Time) {
	t.debt += d
	t.charged += d
}

// Charged is the CPU time charged to the thread so far (paid or not).
func (t *Thread) Charged() sim.Time { return t.charged }

// Pay runs the accumulated CPU work on a core (queueing for one if all are busy).
func (t *Thread) Pay() {
	if t.debt > 0 {
		d := t.debt
		t.debt = 0
		t.Srv.Cores.Compute(t.Proc, d)
	}
	if t.endPending {
		t.settle()
	}
}

// Lock pays outstanding CPU and acquires m (spinning, then sleeping, if contended). Taking a
// mutex is done on a CPU: the compare-and-swap on its lock word (a cache line usually owned by
// another core) is charged, so the thread holds a core when it gets the mutex and runs its
// critical section without queueing for one.
func (t *Thread) Lock(m *sim.Mutex) {
	t.Charge(mutexAcquireCPU)
	t.Pay()
	m.Lock(t.Proc)
}

// mutexAcquireCPU: one atomic read-modify-write of a contended cache line (~50-100 ns on a
// two-socket-class server; lock-free microbenchmarks). hardware.
const mutexAcquireCPU = 80 * sim.Nanosecond

// Unlock pays the CPU done while holding m, then releases it, so the hold time is in virtual time.
func (t *Thread) Unlock(m *sim.Mutex) {
	t.Pay()
	m.Unlock(t.Proc)
}

// Sleep pays outstanding CPU, then sleeps without a core (one coroutine resume for both:
// sim.Proc.SleepAfterCompute).
func (t *Thread) Sleep(d sim.Time) {
	if t.debt > 0 {
		cpu := t.debt
		t.debt = 0
		if t.endPending {
			t.Proc.SleepAfterComputeThen(t.Srv.Cores, cpu, d, t.settleFn)
			return
		}
		t.Proc.SleepAfterCompute(t.Srv.Cores, cpu, d)
		return
	}
	if t.endPending {
		t.settle()
	}
	t.Proc.Sleep(d)
}

// IO pays outstanding CPU and waits for one operation on dev. The thread sleeps while the
// device works: once it is woken it owes the context switch (schedule out, the completion's
// wake-up, schedule in: costs.context_switch), paid on its next computation.
func (t *Thread) IO(dev *sim.Device, op sim.Op, bytes int64) {
	t.Pay()
	dev.Do(t.Proc, op, bytes)
	t.Woken()
}

// Woken charges the context switch of one sleep on I/O (costs.context_switch). Every path
// where a thread blocks until I/O completes calls it once per sleep: IO, and the parks that
// wait for asynchronous writes (BatchWrite, WaitPendingWrites).
func (t *Thread) Woken() {
	t.Charge(t.Srv.Costs.ContextSwitch)
	t.Srv.Stats.IOSleeps++
}

// Read accesses page pid for reading (buf_page_get_gen with RW_S_LATCH).
func (t *Thread) Read(pid schema.PageID) { t.access(pid, false) }

// Write accesses page pid and modifies it: the page is dirtied at mtr commit.
func (t *Thread) Write(pid schema.PageID) { t.access(pid, true) }

// ReadPath reads every page of a root-to-leaf path.
func (t *Thread) ReadPath(path []schema.PageID) {
	for _, p := range path {
		t.access(p, false)
	}
}

// WritePath reads the upper levels of a path and modifies its leaf.
func (t *Thread) WritePath(path []schema.PageID) {
	for i, p := range path {
		t.access(p, i == len(path)-1)
	}
}

// Search is a B-tree search of index ix along path (root to leaf), reading the leaf or, with
// write, modifying it; the adaptive hash index learns from it (Searched).
func (t *Thread) Search(ix *schema.Index, path []schema.PageID, write bool) {
	if t.Srv.Costs.Path.On {
		t.lookup(ix, path, write) // by access path: a guess or a descent (lookup.go)
		return
	}
	last := len(path) - 1
	for _, p := range path[:last] {
		t.access(p, false)
	}
	in, f := t.access(path[last], write)
	t.Searched(ix, in, f)
}

// access looks page pid up (reading it in on a miss) and returns its instance and frame; with
// write it modifies the page.
func (t *Thread) access(pid schema.PageID, write bool) (*Instance, bufpool.FrameID) {
	s := t.Srv
	in := s.InstanceOf(pid)
	bp := in.BP
	key := bufpool.PageID(pid)
	for {
		f := bp.Lookup(key)
		if f != bufpool.Nil {
			// Traits.FreesStale: a policy without it never reports a page stale, so the
			// hit path does not ask it (an interface call per page access).
			io, stale := bp.IOFix(f), s.lazy && s.Stale(in, f)
			if io == bufpool.IORead || (io == bufpool.IOWrite && write) ||
				(stale && (bp.FixCount(f) > 0 || io != bufpool.IONone)) {
				// A read in flight (buf_wait_for_read); a page being written that this
				// thread wants to modify (the flush holds the block's SX latch until the
				// write completes, so an X latch waits; S latches do not); or a stale page
				// someone still holds: wait, then look again.
				t.Sleep(20 * sim.Microsecond)
				continue
			}
			if stale {
				// Lazy drop: a stale page met at lookup is freed and the lookup misses
				// (buf_page_get_gen → buf_page_free_stale).
				t.freeStale(in, f)
				continue
			}
			t.Charge(s.Costs.PageHit)
			s.Stats.Hits++
			t.Hits++
			// buf_page_get_gen buffer-fixes the page: it cannot be evicted while this
			// thread may block (make-young, flush-list insert).
			bp.Fix(f)
			if bp.Touch(f, nowMs(t.Now())) {
				// buf_page_make_young: LRU mutex.
				t.Lock(in.LRU)
				if bp.InLRU(f) && bp.Key(f) == key {
					bp.MakeYoung(f)
					s.Stats.MakeYoung++
				}
				t.Charge(s.Costs.PageFree)
				t.Unlock(in.LRU)
			}
			if write {
				t.dirty(in, f)
			}
			// Unfixed here rather than deferred: a defer inside the loop is heap-allocated
			// on every hit. A body unwound by Sim.Close leaves the fix, as it leaves the
			// mutexes it held; nothing reads the pool after Close.
			bp.Unfix(f)
			return in, f
		}
		f = t.readIn(in, pid, true)
		if f == bufpool.Nil {
			continue // raced with another reader; look again
		}
		if write {
			t.dirty(in, f)
		}
		bp.Unfix(f)
		return in, f
	}
}

// readIn brings pid into the pool: buf_LRU_get_free_block, buf_page_init_for_read (LRU mutex),
// the read I/O, completion. With doRead false it is buf_page_create (no read: a new page).
// Returns Nil if another thread inserted the page meanwhile.
func (t *Thread) readIn(in *Instance, pid schema.PageID, doRead bool) bufpool.FrameID {
	return t.readInto(in, pid, doRead, t.getFreeBlock(in))
}

// readInto is readIn with the free block f already taken.
func (t *Thread) readInto(in *Instance, pid schema.PageID, doRead bool, f bufpool.FrameID) bufpool.FrameID {
	s := t.Srv
	bp := in.BP
	t.Lock(in.LRU)
	if g := bp.Lookup(bufpool.PageID(pid)); g != bufpool.Nil {
		bp.ReturnFree(f)
		t.Unlock(in.LRU)
		return bufpool.Nil
	}
	t.Charge(s.Costs.PageMiss)
	bp.AddToLRU(f, bufpool.PageID(pid), doRead)
	if sp := s.Spaces.Get(pid.Space()); sp != nil {
		bp.SetSpaceVersion(f, uint16(sp.Version))
	}
	if doRead {
		bp.SetIOFix(f, bufpool.IORead)
	}
	bp.Fix(f) // the caller unfixes
	t.Unlock(in.LRU)
	if doRead {
		// pread of the page (buf_read_page → os_file_read, synchronous in the calling
		// thread): submission and completion CPU, then the wait.
		t.Charge(s.Costs.PageReadCPU)
		t.IO(s.Data, sim.Read, s.PageSize)
		bp.SetIOFix(f, bufpool.IONone)
		s.Stats.PagesRead++
		if t.readAhead {
			s.Stats.ReadAhead++
		} else {
			s.Stats.Misses++
			t.Misses++
		}
	}
	return f
}

// NewPage creates page pid (a page allocation: buf_page_create) and dirties it. Bulk loads pass
// their observer through t.Observer.
func (t *Thread) NewPage(pid schema.PageID) {
	s := t.Srv
	in := s.InstanceOf(pid)
	for {
		f := in.BP.Lookup(bufpool.PageID(pid))
		if f != bufpool.Nil && !s.Stale(in, f) {
			t.Charge(s.Costs.PageHit)
			in.BP.Fix(f)
			t.dirty(in, f)
			in.BP.Unfix(f)
			return
		}
		if f != bufpool.Nil {
			if in.BP.FixCount(f) > 0 || in.BP.IOFix(f) != bufpool.IONone {
				t.Sleep(20 * sim.Microsecond) // a stale page someone still holds: wait, look again
				continue
			}
			t.freeStale(in, f)
			continue
		}
		f = t.readIn(in, pid, false)
		if f != bufpool.Nil {
			t.dirty(in, f)
			in.BP.Unfix(f)
			return
		}
	}
}

// dirty records a modification of frame f at mtr commit: a page's first modification inserts
// it at the flush-list head under flush_list_mutex (buf_flush_insert_into_flush_list).
func (t *Thread) dirty(in *Instance, f bufpool.FrameID) {
	t.modified(in, f)
	if in.BP.IsDirty(f) {
		return
	}
	t.Lock(in.Flush)
	t.insertDirty(in, f)
	t.Unlock(in.Flush)
}

// dirtyLocked is dirty with the flush-list mutex already held.
func (t *Thread) dirtyLocked(in *Instance, f bufpool.FrameID) {
	t.modified(in, f)
	t.insertDirty(in, f)
}

// modified is dirty's bookkeeping before the flush list: the redo a change writes and the
// row-log feed.
func (t *Thread) modified(in *Instance, f bufpool.FrameID) {
	s := t.Srv
	spID := in.BP.Key(f).Space()
	// Temp-table changes write no redo (their LSN is borrowed at the flush-list insert), nor
	// does a bulk load under a flush observer (PageBulk's mtr is MTR_LOG_NO_REDO): that is
	// why the observer must flush the pages itself before the DDL commits.
	if sp := s.Spaces.Get(spID); (sp == nil || !sp.Temp) && t.Observer == 0 {
		s.Redo.Advance(redoPerPage)
	}
	s.mcleaner.wakeup(false) // mtr_t::commit of a page modification
	if t.Observer == 0 && !t.Internal {
		// A DML change on this space: it feeds a concurrent online DDL's row log.
		if int(spID) >= len(s.spaceWrites) {
			s.spaceWrites = append(s.spaceWrites, make([]uint64, int(spID)+1-len(s.spaceWrites))...)
		}
		s.spaceWrites[spID]++
	}
}

// insertDirty inserts f at the flush-list head unless it is dirty already; the caller holds
// the flush-list mutex.
func (t *Thread) insertDirty(in *Instance, f bufpool.FrameID) {
	s := t.Srv
	if !in.BP.IsDirty(f) {
		if t.Observer != 0 {
			in.BP.SetObserver(f, t.Observer)
		}
		// The insertion LSN is read under flush_list_mutex, so the list stays ordered by
		// oldest_modification even when threads reach the mutex out of LSN order (8.0 keeps
		// the order within log_buffer_flush_order_lag; the model keeps it exact).
		in.BP.MarkDirty(f, s.Redo.LSN())
	}
}

// redoPerPage is the redo a row change writes per modified page (record + mtr overhead).
// A sysbench UPDATE writes ~150-300 bytes of redo (published sysbench redo rates of
// ~2-4 KB/transaction for oltp_read_write's four writes plus undo).
const redoPerPage = 250

// RedoPerPage is redoPerPage, for callers that write more redo for a page than a row change.
const RedoPerPage = redoPerPage

// freeStale frees a stale frame (lazy drop) under the LRU mutex, unless it is io-fixed or
// buffer-fixed by then: buf_LRU_free_page refuses a page that cannot be relocated
// (buf_page_can_relocate), so a thread still holding the page keeps it until it lets go.
func (t *Thread) freeStale(in *Instance, f bufpool.FrameID) {
	var ahi pendingAHI
	t.Lock(in.LRU)
	if in.BP.InLRU(f) && t.Srv.Stale(in, f) && t.ReadyToFree(in, f) {
		ahi.note(t.Srv, in, f)
		in.BP.Remove(f, false)
		t.Srv.Stats.StalePagesFreed++
		t.Charge(t.Srv.Costs.PageFree)
	}
	t.Unlock(in.LRU)
	ahi.pay(t)
}

// getFreeBlock is buf_LRU_get_free_block: free list, then an LRU tail scan (100 pages in the
// first round, the whole LRU later), then a single-page flush from the LRU tail; from the
// third round on it sleeps 10 ms between rounds.
func (t *Thread) getFreeBlock(in *Instance) bufpool.FrameID {
	return t.getFreeBlockFrom(in, 0, false)
}

// getFreeBlockFrom is getFreeBlock entered in round n; scanned: that round's free-list
// attempt and LRU scan have been done (and found nothing), so it goes on with the
// single-page flush.
func (t *Thread) getFreeBlockFrom(in *Instance, n int, scanned bool) bufpool.FrameID {
	s := t.Srv
	bp := in.BP
	if scanned {
		t.freeBlockStall(in, n)
		n++
	}
	for {
		t.Lock(in.Free)
		f := bp.TakeFree()
		t.Charge(s.Costs.PageFree)
		t.Unlock(in.Free)
		if f != bufpool.Nil {
			if c := s.mcleaner; c != nil && bp.FreeLen() < s.Scenario.MySQL.LRUScanDepth/2 {
				c.wakeup(true) // buf_LRU_get_free_block: the free list is running short
			}
			return f
		}
		t.Lock(in.LRU)
		limit := bufpool.SearchScanDefault // BUF_LRU_SEARCH_SCAN_THRESHOLD
		if n > 0 {
			limit = 0 // scan_all
		}
		v, scanned := t.Srv.evictScan(in, limit)
		t.Charge(sim.Time(scanned) * s.Costs.ListNode)
		if v != bufpool.Nil {
			// buf_LRU_free_page puts the block on the free list; the loop takes it (or
			// another thread does first, as in InnoDB).
			wasDirty := bp.IsDirty(v) // a stale dirty page (lazy drop) is freed without a write
			if !t.ReadyToFree(in, v) {
				t.Unlock(in.LRU)
				continue // fixed meanwhile: look again
			}
			if wasDirty {
				s.Stats.StalePagesFreed++
			}
			var ahi pendingAHI
			ahi.note(s, in, v)
			bp.Remove(v, true)
			t.Charge(s.Costs.PageFree)
			t.Unlock(in.LRU)
			ahi.pay(t) // buf_LRU_free_page: a hashed page's entries go with it
			continue
		}
		t.Unlock(in.LRU)
		t.freeBlockStall(in, n)
		n++
	}
}

// freeBlockStall is what round n of getFreeBlock does when neither the free list nor the LRU
// scan gave a block: wake the page cleaners, wait from the third round on, and flush one
// dirty page from the LRU tail.
func (t *Thread) freeBlockStall(in *Instance, n int) {
	s := t.Srv
	s.cleaners.kick() // os_event_set(buf_flush_event)
	s.mcleaner.wakeup(true)
	if n > 1 {
		s.Stats.FreeWaits++
		t.Sleep(10 * sim.Millisecond)
	}
	// buf_flush_single_page_from_LRU: write the tail-most dirty replaceable page, then free it.
	t.singlePageFlushLRU(in)
}

// evictScan finds a replaceable page from the LRU tail within limit nodes (0 = all); a stale
// page (lazy drop) met within the first nodes is freed instead, as
// buf_LRU_free_from_common_LRU_list does (was_stale → buf_page_free_stale).
func (s *Server) evictScan(in *Instance, limit int) (bufpool.FrameID, int) {
	bp := in.BP
	if s.lazy {
		n := 0
		for f := bp.LRUTail(); f != bufpool.Nil && n < bufpool.SearchScanDefault && (limit == 0 || n < limit); f = bp.LRUPrev(f) {
			n++
			if bp.IOFix(f) == bufpool.IONone && bp.FixCount(f) == 0 && s.Stale(in, f) {
				s.Stats.StaleEvicted++
				return f, n
			}
		}
	}
	return bp.EvictCandidate(limit)
}

// singlePageFlushLRU writes one dirty page from the LRU tail synchronously and frees it.
func (t *Thread) singlePageFlushLRU(in *Instance) bool {
	s := t.Srv
	bp := in.BP
	t.Lock(in.LRU)
	var victim bufpool.FrameID = bufpool.Nil
	scanned := 0
	for f := bp.LRUTail(); f != bufpool.Nil; f = bp.LRUPrev(f) {
		scanned++
		if bp.IsDirty(f) && bp.IOFix(f) == bufpool.IONone && bp.FixCount(f) == 0 {
			victim = f
			break
		}
	}
	t.Charge(sim.Time(scanned) * s.Costs.ListNode)
	if victim == bufpool.Nil {
		t.Unlock(in.LRU)
		return false
	}
	bp.SetIOFix(victim, bufpool.IOWrite)
	t.Unlock(in.LRU)
	t.SyncWritePage()
	t.Lock(in.LRU)
	bp.SetIOFix(victim, bufpool.IONone)
	t.Lock(in.Flush)
	if bp.IsDirty(victim) {
		bp.MarkClean(victim)
	}
	t.Unlock(in.Flush)
	var ahi pendingAHI
	if bp.InLRU(victim) && bp.FixCount(victim) == 0 {
		ahi.note(s, in, victim)
		bp.Remove(victim, true)
		t.Charge(s.Costs.PageFree)
	}
	t.Unlock(in.LRU)
	ahi.pay(t)
	s.Stats.SinglePageFlushes++
	return true
}

// SyncWritePage is the I/O of a synchronous single-page flush (BUF_FLUSH_SINGLE_PAGE): with the
// doublewrite buffer on, buf_dblwr_write_single_page writes the page to its doublewrite slot,
// fsyncs, writes it to the data file and (sync flush) fsyncs the data file; without it, the
// data-file write and its fsync. The thread waits for all of it.
func (t *Thread) SyncWritePage() {
	s := t.Srv
	t.Charge(s.Costs.PageFlushCPU)
	if s.Dblwr {
		t.Charge(s.WriteCPU(Write{SeqBytes: s.PageSize, Syncs: 1}))
		t.IO(s.Data, sim.Write, s.PageSize)
		t.IO(s.Data, sim.Sync, 0)
	}
	t.Charge(s.WriteCPU(Write{Pages: 1, Syncs: 1}))
	t.IO(s.Data, sim.Write, s.PageSize)
	t.IO(s.Data, sim.Sync, 0)
	s.Stats.PagesWritten++
}
