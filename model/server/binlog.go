package server

import (
	"github.com/ddlsim/ddlsim/model/schema"
	"github.com/ddlsim/ddlsim/model/version"
	"github.com/ddlsim/ddlsim/sim"
)

// The binary log (mysql.log_bin, ROW format; docs/osc.md §6.1) and the tables' triggers: the
// two things a row change does besides its pages. Both are off unless a scenario asks for
// them (log_bin: true, or an online-schema-change tool that installs triggers), and then
// RowChanged, called once per client row change, is a nil check.
//
// The binlog follows MYSQL_BIN_LOG::ordered_commit's shape after the engine's redo flush:
// each committing transaction's row events (its binlog cache) are written to the binlog
// file and, with sync_binlog = 1, fsynced, in groups: a committer that finds its bytes
// already written and synced by an earlier group's leader returns at once
// (sync_binlog_file). Simplified: the binlog shares the redo log's device, its file is never
// rotated or purged, the event's packing CPU is not charged, and an UPDATE event carries one
// row image (FULL images carry two).

// Row event sizes (Rows_log_event, binlog_format=ROW): the 19-byte common header, the
// 10-byte v2 post-header, the column count and bitmap, the 4-byte checksum; per transaction
// a GTID, BEGIN, Table_map and Xid event.
const (
	binlogEventOverhead = 19 + 10 + 2 + 1 + 4
	binlogTxnOverhead   = 65 + 75 + 50 + 31
)

type binlog struct {
	sync    int        // sync_binlog
	log     *sim.Mutex // LOCK_log: one group writes and syncs at a time
	written uint64     // bytes appended to the binlog file
	synced  uint64     // bytes made durable
	groups  uint64     // write (+ sync) rounds
	events  map[*schema.Table]uint64
	readers map[*schema.Table]*BinlogReader
}

// BinlogReader is a replication client's view of one table's row events (gh-ost's
// streamer): the row ids changed, in order, until the reader takes them.
type BinlogReader struct{ IDs []int64 }

// Trigger is a table's AFTER INSERT/UPDATE/DELETE trigger body, run in the changing
// thread's statement and transaction for row id, changed by op.
type Trigger func(t *Thread, id int64, op RowOp)

// RowOp is the kind of a client's row change, as a trigger sees it.
type RowOp uint8

const (
	RowUpdate RowOp = iota // UPDATE: the AFTER UPDATE trigger
	RowDelete              // DELETE: the AFTER DELETE trigger
	RowInsert              // INSERT: the AFTER INSERT trigger
)

func (s *Server) binlogOf() *binlog {
	if s.binlog == nil && s.Scenario.MySQL.LogBin {
		b := &binlog{events: map[*schema.Table]uint64{}, readers: map[*schema.Table]*BinlogReader{}}
		b.sync = 1
		if s.Ver.Flavor == version.MariaDB {
			b.sync = 0
		}
		if v := s.Scenario.MySQL.SyncBinlog; v != nil {
			b.sync = *v
		}
		b.log = s.NewMutex("LOCK_log")
		s.binlog = b
	}
	return s.binlog
}

// BinlogOn reports whether the server writes a binary log.
func (s *Server) BinlogOn() bool { return s.binlogOf() != nil }

// SetTrigger installs (f != nil) or removes (nil) tab's triggers.
func (s *Server) SetTrigger(tab *schema.Table, f Trigger) {
	if f == nil {
		delete(s.triggers, tab)
		return
	}
	if s.triggers == nil {
		s.triggers = map[*schema.Table]Trigger{}
	}
	s.triggers[tab] = f
}

// AttachBinlogReader starts a reader of tab's row events (nil when the binlog is off).
func (s *Server) AttachBinlogReader(tab *schema.Table) *BinlogReader {
	b := s.binlogOf()
	if b == nil {
		return nil
	}
	r := &BinlogReader{}
	b.readers[tab] = r
	return r
}

// DetachBinlogReader stops tab's reader.
func (s *Server) DetachBinlogReader(tab *schema.Table) {
	if b := s.binlogOf(); b != nil {
		delete(b.readers, tab)
	}
}

// BinlogEvents is the row events logged on tab so far.
func (s *Server) BinlogEvents(tab *schema.Table) uint64 {
	if b := s.binlogOf(); b != nil {
		return b.events[tab]
	}
	return 0
}

// BinlogBytes is the bytes written to the binary log and the write rounds (groups).
func (s *Server) BinlogBytes() (bytes, groups uint64) {
	if b := s.binlogOf(); b != nil {
		return b.written, b.groups
	}
	return 0, 0
}

// RowChanged is one row change (op) of t's statement on tab (row id): its row event goes to
// the transaction's binlog cache, and tab's trigger runs in the same transaction.
func (t *Thread) RowChanged(tab *schema.Table, id int64, op RowOp) {
	s := t.Srv
	if b := s.binlogOf(); b != nil {
		t.LogRows(tab, 1)
		if r := b.readers[tab]; r != nil {
			r.IDs = append(r.IDs, id)
		}
	}
	if f := s.triggers[tab]; f != nil {
		f(t, id, op)
	}
}

// LogRows appends n row events on tab to t's binlog cache (no-op with the binlog off).
func (t *Thread) LogRows(tab *schema.Table, n int64) {
	b := t.Srv.binlogOf()
	if b == nil {
		return
	}
	b.events[tab] += uint64(n)
	t.binlogCache += uint64(n) * uint64(binlogEventOverhead+tab.RowBytes)
}

// binlogCommit writes t's binlog cache at commit (after the engine's prepare is durable)
// and syncs it per sync_binlog, in groups under LOCK_log.
func (t *Thread) binlogCommit() {
	b := t.Srv.binlogOf()
	if b == nil || t.binlogCache == 0 {
		return
	}
	b.written += t.binlogCache + binlogTxnOverhead
	mine := b.written
	t.binlogCache = 0
	t.Lock(b.log)
	if b.synced < mine {
		n := b.written - b.synced
		b.groups++
		t.IO(t.Srv.Log, sim.Write, int64(n))
		if b.sync > 0 && b.groups%uint64(b.sync) == 0 {
			t.Charge(t.Srv.WriteCPU(Write{Syncs: 1})) // the write is buffered: its sync only
			t.IO(t.Srv.Log, sim.Sync, 0)
		}
		b.synced = b.written
	}
	t.Unlock(b.log)
}

// AcquireMDLTimeout takes want on tab (holding nothing) with the session's own
// lock_wait_timeout (a tool's SET SESSION lock_wait_timeout); false when it timed out.
func (t *Thread) AcquireMDLTimeout(tab *schema.Table, want MDL, timeout sim.Time) bool {
	t.mdlTimeout = timeout
	defer func() { t.mdlTimeout = 0 }()
	return t.AcquireMDL(tab, MDLNone, want, false) == MDLGranted
}

func (t *Thread) lockWaitTimeout() sim.Time {
	if t.mdlTimeout > 0 {
		return t.mdlTimeout
	}
	return sim.Time(t.Srv.Scenario.MySQL.LockWaitTimeout)
}
