package server

import (
	"github.com/ddlsim/ddlsim/sim"
)

// Redo is the redo log: the LSN, the checkpoint age that drives adaptive flushing, and group
// commit. Capacity and the async/sync flush points follow log0log.cc (8.0):
// max_modified_age_async = 7/8 and max_modified_age_sync = 15/16 of the usable capacity.
type Redo struct {
	s        *Server
	lsn      uint64
	Capacity uint64
	AsyncAge uint64
	SyncAge  uint64
	// Checkpoint is log_sys.last_checkpoint_lsn as MariaDB's cleaner advances it
	// (cleaner_mariadb.go); unused by MySQL's cleaners.
	Checkpoint uint64

	// Group commit: committers wait while the log writer writes and fsyncs everything
	// written so far (log_writer + log_flusher threads).
	waiting      []*Thread
	writer       *sim.Proc
	writerIdle   bool
	pendingBytes int64
	Flushes      uint64

	// latchX: a thread holds log_sys.latch exclusively (MariaDB's mtr_t::commit_file); every
	// writing mini-transaction and commit waits in latchWait until it is released.
	latchX    bool
	latchWait []*Thread
}

func newRedo(s *Server) *Redo {
	capacity := uint64(s.Scenario.MySQL.LogFileSize) * uint64(s.Scenario.MySQL.LogFilesInGroup)
	if s.Traits.IdleCleaner {
		// MariaDB 10.11 log_t::set_capacity (log/log0log.cc): log_capacity = 90 % of the
		// file less its 12 KiB header; margin = 90 % of (log_capacity − 48 pages);
		// max_modified_age_async = 7/8 of the margin (flush-ahead), max_checkpoint_age = the
		// margin (furious flushing; writers wait in log_free_check past it).
		capacity = (capacity - 12<<10) / 10 * 9
		margin := (capacity - 48*uint64(s.PageSize)) / 10 * 9
		return &Redo{s: s, Capacity: capacity, AsyncAge: margin / 8 * 7, SyncAge: margin}
	}
	capacity -= capacity / 10 // log_margin: free-check margins and headers
	r := &Redo{s: s, Capacity: capacity, AsyncAge: capacity / 8 * 7, SyncAge: capacity / 16 * 15}
	return r
}

// LSN is the current log sequence number.
func (r *Redo) LSN() uint64 { return r.lsn }

// Advance appends n bytes of redo and returns the new LSN.
func (r *Redo) Advance(n uint64) uint64 {
	r.lsn += n
	r.pendingBytes += int64(n)
	if r.s.mcleaner != nil {
		r.s.mcleaner.logClose()
	}
	return r.lsn
}

// OldestModification is the oldest dirty page's LSN over all instances (the checkpoint LSN
// cannot pass it); LSN when nothing is dirty.
func (r *Redo) OldestModification() uint64 {
	oldest := r.lsn
	for _, in := range r.s.Inst {
		if f := in.BP.FlushOldest(); f >= 0 {
			if m := in.BP.OldestMod(f); m < oldest {
				oldest = m
			}
		}
	}
	return oldest
}

// Age is the checkpoint age.
func (r *Redo) Age() uint64 { return r.lsn - r.OldestModification() }

// start launches the log writer.
func (r *Redo) start() {
	r.writer = r.s.Sim.Spawn("log_writer", "log", func(p *sim.Proc) {
		for {
			if len(r.waiting) == 0 {
				r.writerIdle = true
				p.Park()
				r.writerIdle = false
				continue
			}
			batch := r.waiting
			r.waiting = nil
			bytes := r.pendingBytes
			r.pendingBytes = 0
			if bytes < 512 {
				bytes = 512 // OS_FILE_LOG_BLOCK_SIZE
			}
			// The write's and the sync's kernel CPU, on this thread's core (MariaDB's group
			// commit leader is a committing thread; the model's log writer stands for it).
			if cpu := r.s.WriteCPU(Write{Redo: true, SeqBytes: bytes, Syncs: 1}); cpu > 0 {
				r.s.Cores.Compute(p, cpu)
			}
			r.s.Log.Do(p, sim.Write, bytes)
			r.s.Log.Do(p, sim.Sync, 0)
			r.Flushes++
			for _, t := range batch {
				t.Proc.Wake(0)
			}
		}
	})
}

// CommitWait makes t wait until its redo is durable (innodb_flush_log_at_trx_commit = 1), and
// applies log_free_check: a thread whose write would push the checkpoint age past the sync
// point waits for the page cleaners (furious flushing) first.
func (t *Thread) CommitWait() {
	s := t.Srv
	t.waitLogLatch()
	t.Charge(s.Costs.Commit)
	if s.Scenario.MySQL.FlushLogAtTrxCommit != 1 {
		t.Pay()
		t.binlogCommit()
		return
	}
	// Pay, then join the group commit and park (one coroutine resume: Cores.ComputeThenPark).
	if t.commitJoin == nil {
		t.commitJoin = func() {
			r := t.Srv.Redo
			r.waiting = append(r.waiting, t)
			if r.writerIdle {
				r.writerIdle = false
				r.writer.Wake(0)
			}
		}
	}
	cpu := t.debt
	t.debt = 0
	s.Cores.ComputeThenPark(t.Proc, cpu, t.commitJoin)
	t.binlogCommit()
}

// LogFreeCheck is log_free_check(): before a mini-transaction that writes, wait while the
// checkpoint age is beyond the sync flush point.
func (t *Thread) LogFreeCheck() {
	r := t.Srv.Redo
	t.waitLogLatch()
	for r.lsn-r.OldestModification() > r.SyncAge {
		t.Srv.cleaners.kick()
		if c := t.Srv.mcleaner; c != nil {
			// log_t::checkpoint_margin → buf_flush_wait: buf_flush_sync_lsn set to the LSN
			// the oldest modification must reach, the cleaner signalled.
			c.ahead(r.lsn-r.SyncAge, true)
		}
		t.Sleep(sim.Millisecond)
	}
}

// waitLogLatch parks t while another thread holds log_sys.latch exclusively. The model's
// writers check it before a writing mini-transaction (LogFreeCheck) and at commit; in the
// server they block in mtr_t::commit, a little later in the same mini-transaction.
func (t *Thread) waitLogLatch() {
	r := t.Srv.Redo
	for r.latchX {
		t.Pay() // may yield: join the wait list only once nothing runs before the park
		if !r.latchX {
			return
		}
		r.latchWait = append(r.latchWait, t)
		t.Proc.Park()
	}
}

// LogWriteAndFlushX is MariaDB's mtr_t::commit_file: a file operation's redo record (bytes)
// appended and, holding log_sys.latch exclusively, everything buffered written and fsynced
// (log_write_and_flush) by the calling thread itself. Every other writer waits for the
// latch meanwhile; the committers already waiting for the group commit are durable with it.
func (t *Thread) LogWriteAndFlushX(bytes uint64) {
	r := t.Srv.Redo
	t.waitLogLatch()
	r.Advance(bytes)
	r.latchX = true
	n := r.pendingBytes
	r.pendingBytes = 0
	n = max(n, 512) // OS_FILE_LOG_BLOCK_SIZE
	t.Charge(t.Srv.WriteCPU(Write{Redo: true, SeqBytes: n, Syncs: 1}))
	t.IO(t.Srv.Log, sim.Write, n)
	t.IO(t.Srv.Log, sim.Sync, 0)
	r.Flushes++
	r.latchX = false
	for _, w := range r.latchWait {
		w.Proc.Wake(0)
	}
	r.latchWait = nil
	for _, w := range r.waiting {
		w.Proc.Wake(0)
	}
	r.waiting = nil
}

// LogFlush is log_write_up_to(lsn, true) after appending bytes of redo: the thread joins the
// group commit and waits for the log writer's next write and fsync, whatever
// innodb_flush_log_at_trx_commit says (a file operation's redo must be durable).
func (t *Thread) LogFlush(bytes uint64) {
	r := t.Srv.Redo
	t.waitLogLatch()
	r.Advance(bytes)
	t.Pay()
	r.waiting = append(r.waiting, t)
	if r.writerIdle {
		r.writerIdle = false
		r.writer.Wake(0)
	}
	t.Proc.Park()
}
